"""`gatekeeper simulate --levels`: a level per player, players rotating through the seats."""
from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.simulate import play


def test_levels_give_each_player_a_level_and_rotate_the_seats(capsys):
    assert main(["simulate", "castle", "--games", "6", "--seed", "3", "--levels", "smart,random",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["levels"] == ["smart", "random"]
    expected: dict[str, int] = {}
    for index in range(6):
        seat_levels = ["smart", "random"] if index % 2 == 0 else ["random", "smart"]
        for seat in play("castle", 2, 3 + index, seat_levels).result["winners"]:
            who = str((seat - index) % 2)  # player p sits in seat (p + game) mod 2
            expected[who] = expected.get(who, 0) + 1
    assert summary["wins_by_player"] == dict(sorted(expected.items()))
    assert summary["wins_by_player"]["0"] == 6  # smart against random, whichever seat it had
    assert set(summary["wins_by_seat"]) == {"0", "1"}


def test_the_summary_line_names_each_players_level(capsys):
    assert main(["simulate", "dontgo", "--games", "4", "--levels", "easy,smart,easy"]) == 0
    out = capsys.readouterr().out
    assert "by player (rotating through the seats)" in out and "(smart)" in out and "(easy)" in out


def test_level_still_sets_every_seat(capsys):
    assert main(["simulate", "castle", "--games", "2", "--level", "easy", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] == 2 and "levels" not in summary


@pytest.mark.parametrize("argv, says", [
    (["castle", "--levels", "smart,clever"], "unknown level 'clever'; choose from easy, smart, hard"),
    (["castle", "--levels", "smart"], "seats 2-4 players, not 1 (one level per player)"),
    (["castle", "--levels", "smart,easy", "--players", "3"], "--players 3 but 2 levels"),
])
def test_a_wrong_levels_list_is_refused_plainly(capsys, argv, says):
    assert main(["simulate", "--games", "1", *argv]) == 2
    assert says in capsys.readouterr().err


def test_an_empty_levels_list_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "castle", "--levels", ","])
    assert exit_.value.code == 2 and "no level in ','" in capsys.readouterr().err

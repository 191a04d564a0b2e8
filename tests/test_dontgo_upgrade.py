"""Don't Go In There games saved in an older state format load after the upgrades."""
from __future__ import annotations

from pathlib import Path

from games.dontgo import GAME
from tests.rules_helpers import saved_and_upgraded

# A finished 3-player game saved by the format-1 engine (score rows without the seat bonus).
SAVED = Path(__file__).parent / "data" / "dontgo-state-format1.json"


def test_a_finished_format_1_game_upgrades_and_shows_its_scores():
    raw, state = saved_and_upgraded(GAME, SAVED)
    old_rows = raw["data"]["scores"]
    assert state.data["scores"] == [{**r, "bonus": 0} for r in old_rows]  # no bonus back then
    assert all(r["total"] == r["curses"] + r["penalty"] for r in state.data["scores"])
    view = GAME.view(state, None)
    assert view["phase"] == "over" and [r["bonus"] for r in view["scores"]] == [0, 0, 0]
    # a game still running has no scores to upgrade
    running = {**raw["data"], "scores": None}
    assert GAME.upgrades[1](running) == running


def test_the_last_move_keeps_its_room_not_its_english_line():
    """Format 3 words the last move from its events in each reader's language: the state keeps
    only whose move it was and the room the board frames."""
    raw, state = saved_and_upgraded(GAME, SAVED)
    assert raw["data"]["last"]["text"] == "Green took Mirror (4 curses, 0 dice)."
    assert state.data["last"] == {"seat": 2, "slot": 2}
    assert GAME.view(state, None)["last"] == {"seat": 2, "slot": 2}
    fresh = {**raw["data"], "last": None}  # no move yet
    assert GAME.upgrades[2](fresh) == fresh

"""The departures benchmark (bench/departures.py): where the search leaves its base pick, weighed
on the real position with paired games."""
from __future__ import annotations

import games
from bench.departures import Departure, bands, collect, main, weigh
from games.core import advance, setup


def test_it_notes_only_departures_past_the_floor_each_a_real_choice():
    game = games.get("kingdom")
    found = collect(game, 1, seed=4000, iterations=3, floor=1.0)
    assert found, "three samples a decision leave the policy's pick somewhere in a whole game"
    for departure in found:
        assert departure.edge > 1.0 and departure.best != departure.base
        offered = {c.action for c in game.prompt(departure.state, departure.seat).choices}
        assert {departure.base, departure.best} <= offered
    assert collect(game, 1, seed=4000, iterations=3, floor=float("inf")) == []


def test_the_pairs_share_their_luck_so_the_same_pick_gains_nothing():
    """Both games of a pair start from the same dice: one action against itself gains exactly 0,
    however the games go."""
    game = games.get("kingdom")
    state = setup(game, 2, {}, 5)
    same = Departure(state, 0, "roll", "roll", 2.5)
    assert weigh(game, same, rollouts=3, seed=11) == 0.0
    advance(game, state, 0, "roll", 0.0)
    demon = [c.action for c in game.prompt(state, 0).choices]
    assert len(demon) >= 2, demon
    apart = Departure(state, 0, demon[0], demon[-1], 2.5)
    gain = weigh(game, apart, rollouts=4, seed=11)
    assert -1.0 <= gain <= 1.0 and weigh(game, apart, rollouts=4, seed=11) == gain  # from the seed alone


def test_the_table_groups_departures_by_the_search_s_edge():
    state = setup(games.get("kingdom"), 2, {}, 5)
    departures = [Departure(state, 0, "a", "b", edge, gain)
                  for edge, gain in ((1.2, -0.2), (1.4, 0.0), (2.2, 0.3), (7.0, 0.1))]
    table = bands(departures, count=4)
    assert "| 1-1.5 | 2 | -0.100 (0.100) | -0.050 |" in table
    assert "| 1.5-2 | 0 | - | - |" in table
    assert "| 2-2.5 | 1 | +0.300 (0.000) | +0.075 |" in table
    assert "| >= 3 | 1 | +0.100 (0.000) | +0.025 |" in table


def test_it_prints_the_table(capsys):
    main(["kingdom", "--games", "1", "--iterations", "2", "--rollouts", "1", "--seed", "4000"])
    out = capsys.readouterr().out
    assert "kingdom: 1 games from seed 4000, 2 samples a decision, margin 2" in out
    assert "| search's edge (SE) | departures | mean gain (SE) | per game |" in out

"""Keys to the Castle games saved in an older state format load and play on after the upgrades."""
from __future__ import annotations

from pathlib import Path

from games.castle import GAME
from games.core import ai_rng, apply, decide, setup
from tests.rules_helpers import saved_and_upgraded

# Saved by the format-1 engine: seat 2 (north) has just stepped out of the castle.
SAVED = Path(__file__).parent / "data" / "castle-state-format1.json"


def test_a_format_1_game_upgrades_to_the_current_shape_and_plays_on():
    raw, state = saved_and_upgraded(GAME, SAVED)
    fresh = setup(GAME, state.seats, state.options, 1)
    assert all(set(pl) == set(fresh.data["players"][0]) for pl in state.data["players"])
    assert set(state.data) == set(fresh.data)
    # the player outside left before the door was remembered: any door on their edge lets them in
    assert state.data["players"][1] == {**raw["data"]["players"][1], "left_by": None}
    while not state.over:
        seat = GAME.to_move(state)
        state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(1, state.version))).state
    assert state.result["winners"] or state.turn >= 400

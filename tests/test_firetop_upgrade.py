"""Firetop games saved in state format 1 (before the tally and the public list of Key Challenges)
load and play on after the upgrades."""
from __future__ import annotations

import json
from pathlib import Path

from games.core import State, ai_rng, apply, decide, setup
from games.firetop import GAME
from games.firetop.engine import TALLY

SAVED = Path(__file__).parent / "data" / "firetop-state-format1.json"


def test_a_format_1_game_upgrades_to_the_current_shape_and_plays_on():
    raw = json.loads(SAVED.read_text(encoding="utf-8"))
    assert "tally" not in raw["data"]
    before = json.dumps(raw, sort_keys=True)
    data, fmt = raw["data"], 1
    while fmt < GAME.state_format:
        data = GAME.upgrades[fmt](data)
        fmt += 1
    assert json.dumps(raw, sort_keys=True) == before  # upgrades are pure
    state = State(**{**raw, "data": data})
    fresh = setup(GAME, state.seats, state.options, 1)
    assert set(state.data) == set(fresh.data)
    assert state.data["tally"] == dict.fromkeys(TALLY, 0) and state.data["challenges"] == []
    for _ in range(400):
        if state.over:
            break
        seat = next(s for s in range(state.seats) if GAME.prompt(state, s) is not None)
        state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(1, state.version))).state
    assert state.over and state.version > raw["version"] + 20
    assert state.data["tally"]["fights"] > 0

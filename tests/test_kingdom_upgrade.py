"""Key to the Kingdom games saved in an older state format load and play on after the upgrades."""
from __future__ import annotations

import json
from pathlib import Path

from games.core import State, ai_rng, apply, decide
from games.kingdom import GAME
from games.kingdom.board import BOARD

SAVED = Path(__file__).parent / "data" / "kingdom-state-format1.json"


def test_a_format_1_game_with_the_demon_king_on_the_gate_road_upgrades_and_plays_on():
    raw = json.loads(SAVED.read_text(encoding="utf-8"))
    before = json.dumps(raw, sort_keys=True)
    assert raw["data"]["demon"] == "hc" and "hc" not in BOARD.demon  # off his ground today
    data = raw["data"]
    for fmt in range(1, GAME.state_format):
        data = GAME.upgrades[fmt](data)
    assert json.dumps(raw, sort_keys=True) == before  # upgrades are pure
    assert data["demon"] == "h1" and GAME.state_format == 2
    state = State(**{**raw, "data": data})
    for _ in range(300):
        if state.over:
            break
        seat = next(s for s in range(state.seats) if GAME.prompt(state, s) is not None)
        state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(1, state.version))).state
        assert state.data["demon"] in BOARD.demon
    assert state.version > raw["version"] + 100

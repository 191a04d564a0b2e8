"""Atmosfear games saved in an older state format load and play on after the upgrades."""
from __future__ import annotations

import json
from pathlib import Path

from games.atmosfear import GAME
from games.core import State, ai_rng, apply, decide, setup

SAVED = Path(__file__).parent / "data" / "atmosfear-state-format1.json"


def upgraded(raw: dict, fmt: int) -> State:
    data = raw["data"]
    while fmt < GAME.state_format:
        data = GAME.upgrades[fmt](data)
        fmt += 1
    return State(**{**raw, "data": data})


def test_a_format_1_game_upgrades_to_the_current_shape_and_plays_on():
    raw = json.loads(SAVED.read_text(encoding="utf-8"))
    before = json.dumps(raw, sort_keys=True)
    state = upgraded(raw, 1)
    assert json.dumps(raw, sort_keys=True) == before  # upgrades are pure
    fresh = setup(GAME, state.seats, state.options, 1)
    assert all(set(pl) == set(fresh.data["players"][0]) for pl in state.data["players"])
    assert set(state.data["gk"]) == set(fresh.data["gk"])
    assert set(state.data) <= set(fresh.data) | {"now"}
    # format 3: nobody has waited a turn in a Black Hole yet, and nobody was handed the Black Key
    # at the Well (its holder, seat 3, stands in a Black Hole)
    assert [pl["waited"] for pl in state.data["players"]] == [False] * state.seats
    assert [pl["must_move"] for pl in state.data["players"]] == [False] * state.seats
    at_well = {**raw["data"], "players": [{**pl, "pos": "WELL"} for pl in raw["data"]["players"]]}
    moved = upgraded({**raw, "data": at_well}, 1).data["players"]
    assert [pl["must_move"] for pl in moved] == [s == 2 for s in range(state.seats)]
    now = state.data["now"]
    for _ in range(300):
        if state.over:
            break
        due = [t for t in GAME.timers(state) if t["due"] <= now]
        if due:
            state = apply(GAME, state, due[0]["seat"], due[0]["action"], now).state
            continue
        seat = next((s for s in range(state.seats) if GAME.prompt(state, s) is not None), None)
        if seat is None:
            now = min(t["due"] for t in GAME.timers(state))
            continue
        state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(1, state.version)), now).state
        now += 4.0
    assert state.version > raw["version"] + 100


def test_a_game_saved_before_the_answer_window_option_keeps_8_seconds():
    raw = json.loads(SAVED.read_text(encoding="utf-8"))
    assert "answer" not in raw["options"]
    state = upgraded(raw, 1)
    now, windows = state.data["now"], []
    for _ in range(3000):
        if state.over or len(windows) >= 2:
            break
        due = [t for t in GAME.timers(state) if t["due"] <= now]
        if due:
            state = apply(GAME, state, due[0]["seat"], due[0]["action"], due[0]["due"]).state
            gk = state.data["gk"]
            if due[0]["action"] == "gk appear" and gk["calling"] is not None:
                windows.append(gk["deadline"] - due[0]["due"])
            continue
        seat = next((s for s in range(state.seats) if GAME.prompt(state, s) is not None), None)
        if seat is None:
            now = min(t["due"] for t in GAME.timers(state))
            continue
        state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(1, state.version)), now).state
        now += 4.0
    assert windows and set(windows) == {8}

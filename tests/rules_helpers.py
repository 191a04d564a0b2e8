"""Helpers shared by the per-game rule tests: apply an action, or check it is refused cleanly."""
from __future__ import annotations

import pytest

import json
from pathlib import Path

from data.locales import DEFAULT, render
from games.core import Game, IllegalAction, Rng, State, advance, apply, decide, setup


def act(game: Game, st: State, seat: int, action: str, now: float = 0.0):
    out = apply(game, st, seat, action, now)
    return out.state, out.events


def refused(game: Game, st: State, seat: int, action: str, *fragments: str, now: float = 0.0) -> str:
    """The action raises IllegalAction, leaves the state untouched, and its reason (in English,
    when it is a message) says each fragment."""
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(game, st, seat, action, now)
    assert st.to_json() == before
    reason = render(DEFAULT, err.value.reason)
    for fragment in fragments:
        assert fragment.lower() in reason.lower(), reason
    return reason


def self_play(game: Game, seats: int, seed: int, levels: list[str], max_actions: int = 8000) -> State:
    """AI against AI at the given levels (one per seat), the AI's dice seeded from `seed`;
    `advance` raises if an AI ever chooses illegally."""
    state = setup(game, seats, {}, seed)
    rng = Rng(seed * 31 + 7)
    for _ in range(max_actions):
        if state.over:
            break
        seat = game.to_move(state)
        advance(game, state, seat, decide(game, state, seat, rng, levels[seat]))
    return state


def saved_and_upgraded(game: Game, path: Path, fmt: int = 1) -> tuple[dict, State]:
    """A state saved in format `fmt` (its raw JSON) and the state the game's upgrades make of it;
    checks the upgrades leave the raw data alone (they are pure)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    before = json.dumps(raw, sort_keys=True)
    data = raw["data"]
    while fmt < game.state_format:
        data = game.upgrades[fmt](data)
        fmt += 1
    assert json.dumps(raw, sort_keys=True) == before  # upgrades are pure
    return raw, State(**{**raw, "data": data})

"""Recorded AI games replay to the same states: optimising the engine must not change a rule.

tests/data/castle-replays.json holds, per seed and player count, the actions of one AI game and a
hash of its final state. Regenerate it only in a commit that changes a rule (and say so):
`.venv/bin/python -m tests.test_castle_replays`.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.castle import GAME
from games.core import ai_rng, apply, decide, setup

FIXTURE = Path(__file__).parent / "data" / "castle-replays.json"
SEEDS = range(20)


def levels_for(seats: int, seed: int) -> list[str]:
    """Even seeds: smart self-play; odd seeds: smart and random seats alternate (more odd cards)."""
    return ["smart" if seed % 2 == 0 or s % 2 == 0 else "random" for s in range(seats)]


def state_hash(state) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:20]


def record_game(seats: int, seed: int) -> dict:
    levels = levels_for(seats, seed)
    state = setup(GAME, seats, None, seed)
    actions = []
    while not state.over:
        seat = GAME.to_move(state)
        action = decide(GAME, state, seat, ai_rng(seed, state.version), levels[seat])
        state = apply(GAME, state, seat, action).state
        actions.append(f"{seat} {action}")
    return {"seats": seats, "seed": seed, "actions": actions, "hash": state_hash(state)}


def replay_hash(game: dict) -> str:
    state = setup(GAME, game["seats"], None, game["seed"])
    for line in game["actions"]:
        seat, action = line.split(" ", 1)
        state = apply(GAME, state, int(seat), action).state
    assert state.over
    return state_hash(state)


def recorded() -> list[dict]:
    return json.loads(FIXTURE.read_text())["games"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_recorded_games_replay_to_the_same_final_states(seats):
    games = [g for g in recorded() if g["seats"] == seats]
    assert len(games) == len(SEEDS)
    for game in games:
        assert replay_hash(game) == game["hash"], (seats, game["seed"])


if __name__ == "__main__":
    data = {"games": [record_game(seats, seed) for seats in (2, 3, 4) for seed in SEEDS]}
    FIXTURE.write_text(json.dumps(data, indent=0) + "\n")
    print(f"wrote {FIXTURE}: {len(data['games'])} games, "
          f"{sum(len(g['actions']) for g in data['games'])} actions")

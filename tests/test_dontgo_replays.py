"""Recorded Don't Go In There games replay to the same states.

tests/data/dontgo-replays.json holds, for 20 seeds at every player count, the actions of an AI
self-play game and a SHA-256 of the final state's JSON. Engine work (speed, refactors) must leave
these replays unchanged; a rule fix that changes them regenerates the file in the same commit:

    .venv/bin/python -m tests.test_dontgo_replays
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bot.simulate import play
from games.core import replay
from games.dontgo import GAME

FIXTURE = Path(__file__).parent / "data" / "dontgo-replays.json"
SEEDS = range(1, 21)


def digest(state_json: str) -> str:
    return hashlib.sha256(state_json.encode()).hexdigest()


def record() -> list[dict]:
    """Self-play games (smart on odd seeds, random on even ones) with their final-state hashes."""
    games = []
    for seats in range(GAME.min_seats, GAME.max_seats + 1):
        for seed in SEEDS:
            log: list[tuple[int, str, float]] = []
            level = "smart" if seed % 2 else "random"
            state = play("dontgo", seats, seed, level, log=log)
            games.append({"seats": seats, "seed": seed, "level": level,
                          "actions": [[s, a] for s, a, _ in log], "final": digest(state.to_json())})
    return games


def load() -> list[dict]:
    return json.loads(FIXTURE.read_text()) if FIXTURE.exists() else []


def test_fixture_covers_every_player_count():
    counts = [g["seats"] for g in load()]
    assert sorted(set(counts)) == list(range(GAME.min_seats, GAME.max_seats + 1))
    assert len(counts) == len(SEEDS) * len(set(counts))


@pytest.mark.parametrize("game", load(), ids=lambda g: f"{g['seats']}p-seed{g['seed']}")
def test_recorded_game_replays_to_the_same_state(game):
    state = replay(GAME, game["seats"], {}, game["seed"], [(s, a, 0.0) for s, a in game["actions"]])
    assert state.over
    assert digest(state.to_json()) == game["final"]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), separators=(",", ":")) + "\n")
    print(f"wrote {FIXTURE}")

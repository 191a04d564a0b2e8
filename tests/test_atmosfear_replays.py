"""Recorded Atmosfear self-play games: the same actions must give the same states.

tests/data/atmosfear-replays.json holds, per seed and player count, the action log of an AI
self-play game (bot.simulate.play on its simulated clock, times kept as seconds after its start)
and a hash of each final state. Speed
work must leave both alone; a rule change regenerates the file in the same commit:

    .venv/bin/python -m tests.test_atmosfear_replays --write
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from bot.simulate import play
from games.atmosfear import GAME
from games.core import replay

FIXTURE = Path(__file__).parent / "data" / "atmosfear-replays.json"
SEEDS = range(1, 21)
OPTIONS = {"minutes": 20}
START = 1_700_000_000.0  # play()'s simulated start; x - START is exact this close to START


def digest(state_json: str) -> str:
    return hashlib.sha256(state_json.encode()).hexdigest()


def level(seed: int) -> str:
    return "smart" if seed % 2 else "random"


def record(seats: int, seed: int) -> dict:
    log: list[tuple[int, str, float]] = []
    state = play("atmosfear", seats, seed, level(seed), start=START, log=log, options=OPTIONS)
    return {"seats": seats, "seed": seed, "level": level(seed),
            "log": [[seat, action, now - START] for seat, action, now in log],
            "final": digest(state.to_json())}


def games() -> list[dict]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]


@pytest.mark.parametrize("seats", range(GAME.min_seats, GAME.max_seats + 1))
def test_recorded_actions_give_the_recorded_states(seats):
    for game in (g for g in games() if g["seats"] == seats):
        steps = [(seat, action, START + t) for seat, action, t in game["log"]]
        state = replay(GAME, seats, OPTIONS, game["seed"], steps)
        assert digest(state.to_json()) == game["final"], game["seed"]


@pytest.mark.parametrize("seats", range(GAME.min_seats, GAME.max_seats + 1))
def test_self_play_still_makes_the_recorded_games(seats):
    for game in (g for g in games() if g["seats"] == seats):
        again = record(seats, game["seed"])
        assert again["log"] == game["log"] and again["final"] == game["final"], game["seed"]


def write() -> None:
    recorded = [record(seats, seed) for seats in range(GAME.min_seats, GAME.max_seats + 1)
                for seed in SEEDS]
    lines = ",\n".join(json.dumps(g, separators=(",", ":")) for g in recorded)
    FIXTURE.write_text('{"options":' + json.dumps(OPTIONS) + ',"games":[\n' + lines + "\n]}\n",
                       encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()

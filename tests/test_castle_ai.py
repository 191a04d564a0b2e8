"""The smart AI should beat the random one, fast, and only ever choose legal actions."""
from __future__ import annotations

import time

from games.castle import GAME
from games.core import Rng, decide, setup


def self_play(seats: int, seed: int, levels: list[str]):
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed * 31 + 7)
    while not state.over:
        seat = GAME.to_move(state)
        action = decide(GAME, state, seat, rng, levels[seat])
        step = Rng(state.rng)
        GAME.reduce(state, seat, action, 0.0, step)  # raises if the AI ever chose illegally
        state.rng = step.state
    return state


def test_smart_beats_random_in_two_player_games():
    wins = 0
    for seed in range(40):
        smart = seed % 2  # alternate who goes first
        levels = ["random", "random"]
        levels[smart] = "smart"
        state = self_play(2, seed, levels)
        wins += state.result["winners"] == [smart]
    assert wins >= 28, f"smart AI won only {wins}/40"


def test_smart_games_finish_with_a_winner_and_quickly():
    start = time.perf_counter()
    finished = 0
    for seats in (2, 3, 4):
        for seed in range(5):
            state = self_play(seats, 1000 + seed, ["smart"] * seats)
            finished += bool(state.result["winners"])
    elapsed = (time.perf_counter() - start) / 15
    assert finished >= 13
    assert elapsed < 0.5, f"{elapsed:.3f}s per smart game"


def test_ai_uses_only_public_information():
    """Changing hidden faces of unopened tiles must not change the smart AI's choice."""
    state = setup(GAME, 2, None, 4)
    a = decide(GAME, state, 0, Rng(1), "smart")
    for t in state.data["tiles"]:
        if not t["revealed"]:
            t["face"] = "barred"
    for pl in state.data["players"][1:]:
        pl["hand"] = ["net", "net", "net"]
    b = decide(GAME, state, 0, Rng(1), "smart")
    assert a == b


def test_random_level_picks_from_prompt():
    state = setup(GAME, 3, None, 8)
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for i in range(20):
        assert decide(GAME, state, 0, Rng(i), "random") in legal

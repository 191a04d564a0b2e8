"""The smart AI beats the random one, chooses only legal actions, and sees only its seat's view."""
from __future__ import annotations

import pytest

from games.castle import GAME
from games.core import Rng, apply, decide, setup


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


def test_smart_games_finish_with_a_winner():
    finished = 0
    for seats in (2, 3, 4):
        for seed in range(5):
            state = self_play(seats, 1000 + seed, ["smart"] * seats)
            finished += bool(state.result["winners"])
    assert finished >= 13


def hide_differently(state, seat: int, rng: Rng):
    """A copy of `state` that differs only in what `seat` cannot see: the draw pile's order and
    contents, the other hands' cards (not their sizes), the discard pile under its top card, the
    faces of unopened doors and the tiles left out of the game."""
    other = state.copy()
    d = other.data
    others = [pl for s, pl in enumerate(d["players"]) if s != seat]
    pool = d["draw"] + d["discard"][:-1] + [c for pl in others for c in pl["hand"]]
    rng.shuffle(pool)
    for pl in others:
        pl["hand"] = [pool.pop() for _ in pl["hand"]]
    d["discard"][:-1] = [pool.pop() for _ in d["discard"][:-1]]
    d["draw"] = pool
    hidden = [t for t in d["tiles"] if not t["revealed"]] + d["unused"]
    faces = [t["face"] for t in hidden]
    rng.shuffle(faces)
    for t, face in zip(hidden, faces):
        t["face"] = face
    return other


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ai_choice_depends_only_on_what_its_seat_sees(seats):
    for seed in range(12):
        state = setup(GAME, seats, None, seed)
        rng = Rng(seed)
        for step in range(200):
            if state.over:
                break
            seat = GAME.to_move(state)
            if step % 3 == 0:
                other = hide_differently(state, seat, Rng(seed * 1000 + step))
                assert other.to_json() != state.to_json()
                assert GAME.view(other, seat) == GAME.view(state, seat)
                for level in ("smart", "random"):
                    assert (decide(GAME, other, seat, Rng(step), level)
                            == decide(GAME, state, seat, Rng(step), level))
            action = decide(GAME, state, seat, rng, "smart" if step % 2 else "random")
            state = apply(GAME, state, seat, action).state


def test_random_level_picks_from_prompt():
    state = setup(GAME, 3, None, 8)
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for i in range(20):
        assert decide(GAME, state, 0, Rng(i), "random") in legal

"""The Atmosfear AI decides from its seat's view: what the seat cannot see never changes its move."""
from __future__ import annotations

import pytest

from bot.simulate import play
from games.atmosfear import GAME
from games.atmosfear.engine import AI_FEARS, COLOURS, TIME
from games.core import Rng, State, apply, decide, setup


def hide_differently(state: State, seat: int, rng: Rng) -> State:
    """A copy where everything `seat` cannot see is redrawn: decks, the game's RNG, the Gatekeeper's
    next visit, other seats' key colours (not their counts), Time cards and fears, his decoys."""
    other = state.copy()
    d = other.data
    rng.shuffle(d["fate"])
    rng.shuffle(d["time"])
    other.rng = rng.next64()
    if not d["gk"]["on"] and d["gk"]["next"] is not None:
        d["gk"]["next"] += 1 + rng.below(100)
    for s, pl in enumerate(d["players"]):
        if s == seat:
            continue
        pl["rack"] = [rng.choice(COLOURS) for _ in pl["rack"]]
        pl["time_cards"] = [rng.choice(sorted(TIME)) for _ in range(rng.below(3))]
        if d["fears"][s] is not None:
            d["fears"][s] = rng.choice(AI_FEARS) + " (redrawn)"
    for s in range(state.seats, len(d["fears"])):  # the Gatekeeper's decoys
        d["fears"][s] = rng.choice(AI_FEARS) + " (decoy)"
    return other


def snapshots(seats: int, seed: int, level: str, every: int):
    """Every `every`-th state of one AI self-play game."""
    log: list[tuple[int, str, float]] = []
    play("atmosfear", seats, seed, level, log=log)
    state = setup(GAME, seats, None, seed)
    for index, (seat, action, now) in enumerate(log):
        if index % every == 0:
            yield state
        state = apply(GAME, state, seat, action, now).state


@pytest.mark.parametrize("level", ["smart", "easy", "random"])
def test_hidden_information_never_changes_the_view_or_the_choice(level):
    checked = 0
    for seed in range(12):
        seats = 3 + seed % 4
        for n, state in enumerate(snapshots(seats, seed, level, every=11)):
            for seat in range(seats):
                if GAME.prompt(state, seat) is None:
                    continue
                other = hide_differently(state, seat, Rng(seed * 1000 + n))
                assert GAME.view(other, seat) == GAME.view(state, seat)
                assert GAME.prompt(other, seat) == GAME.prompt(state, seat)
                for k in range(3):
                    assert decide(GAME, other, seat, Rng(k), level) == decide(GAME, state, seat, Rng(k), level)
                checked += 1
    assert checked > 300


def test_own_fear_and_rack_are_in_the_seat_view_only():
    state = play("atmosfear", 4, 3, max_actions=120)
    public = GAME.view(state, None)
    assert not {"rack", "time_cards", "fear"} & set(public)
    for seat in range(4):
        mine = GAME.view(state, seat)
        assert mine["fear"] == {"text": state.data["fears"][seat], "in_well": seat in state.data["well"]}
        assert sum(mine["rack"].values()) == len(state.data["players"][seat]["rack"])


def test_the_compact_view_is_worked_out_from_the_seat_view_for_every_question():
    """The smart AI reads a compact view the engine builds from the state: at every decision of
    whole games it is what the seat's own view gives, and every kind of question comes up."""
    kinds = set()
    for seed in range(6):
        seats = 3 + seed % 4
        for state in snapshots(seats, seed, "smart", every=1):
            for seat in range(seats):
                prompt = GAME.prompt(state, seat)
                if prompt is None:
                    continue
                compact = GAME.ai_view(state, seat, "smart", prompt)
                assert compact == GAME.hook("ai_view_from_view")(GAME.view(state, seat), seat, "smart", prompt)
                kinds.add(compact[0])
    assert kinds >= {"answer", "inside", "leave", "ring", "duel", "flight", "dice"}

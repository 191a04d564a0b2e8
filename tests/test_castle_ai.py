"""The smart AI beats the random one, chooses only legal actions, and sees only its seat's view."""
from __future__ import annotations

import pytest

from games.castle import GAME
from games.castle.ai import compact_view
from games.castle.engine import parse_coord
from games.core import IllegalAction, Rng, advance, apply, decide, setup

from tests import rules_helpers


def self_play(seats: int, seed: int, levels: list[str]):
    return rules_helpers.self_play(GAME, seats, seed, levels)


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
                prompt = GAME.prompt(state, seat)  # the compact view the smart AI reads, too
                assert GAME.ai_view(other, seat, "smart", prompt) == GAME.ai_view(state, seat, "smart", prompt)
                for level in ("smart", "easy", "random"):
                    assert (decide(GAME, other, seat, Rng(step), level)
                            == decide(GAME, state, seat, Rng(step), level))
            action = decide(GAME, state, seat, rng, "smart" if step % 2 else "random")
            state = apply(GAME, state, seat, action).state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_doors_kept_between_decisions_match_the_board(seats):
    """The engine carries the smart AI's compact doors from one action to the next (in place, as
    self-play does): at every decision they are what the seat's view shows, refused actions too."""
    for seed in range(6):
        state = setup(GAME, seats, None, seed)
        rng = Rng(seed)
        for step in range(300):
            if state.over:
                break
            seat = GAME.to_move(state)
            prompt = GAME.prompt(state, seat)
            if len(prompt.choices) > 1:
                kept = GAME.ai_view(state, seat, "smart", prompt)["doors"]
                assert kept == compact_view(GAME.view(state, seat))["doors"]
            if step % 5 == 0:  # a refused action changes nothing the AI reads
                with pytest.raises(IllegalAction):
                    GAME.reduce(state, seat, "bonus Z9" if state.data["phase"] != "bonus" else "move A1",
                                0.0, Rng(step))
            action = decide(GAME, state, seat, rng, "smart" if step % 2 else "random", prompt)
            advance(GAME, state, seat, action)


def test_random_level_picks_from_prompt():
    state = setup(GAME, 3, None, 8)
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for i in range(20):
        assert decide(GAME, state, 0, Rng(i), "random") in legal


# ------------------------------------------------------------------ constructed positions

def position(seats: int = 2, **players):
    """A castle of closed, unrevealed red plain doors, empty hands, seat 0 to play.

    players: seat0=("C5", ["key-red"]) puts seat 0 on C5 with that hand (None: outside).
    """
    state = setup(GAME, seats, None, 3)
    d = state.data
    for t in d["tiles"]:
        t.update(colour="red", face="open", open=False, revealed=False, padlock=False, hacksaw=False)
    for seat, pl in enumerate(d["players"]):
        d["draw"] += pl["hand"]
        pos, hand = players.get(f"seat{seat}", (None, []))
        pl.update(pos=pos, hand=list(hand))
    d["current"], d["phase"] = 0, "play"
    return state


def door(state, name, **kw):
    d = state.data
    t = d["tiles"][parse_coord(name, d["rows"], d["cols"])]
    if kw.get("open"):
        kw.setdefault("revealed", True)
    t.update(kw)


def smart_choices(state, seat=0, tries=12) -> set[str]:
    return {decide(GAME, state, seat, Rng(i), "smart") for i in range(tries)}


def test_smart_ai_steps_onto_a_winning_door_before_an_extra_turn():
    st = position(seat0=("B2", []), seat1=("E8", []))
    for name in ("B2", "B1", "C1"):
        door(st, name, open=True)
    door(st, "C2", open=True, face="extra_turn")
    st.data["phase"] = "move"
    assert smart_choices(st) == {"move B1"}


def test_smart_ai_opens_its_own_winning_door_before_blocking_the_leader():
    st = position(seat0=("B2", ["key-red", "net", "padlock"]), seat1=("C7", []))
    door(st, "B2", open=True)
    door(st, "B1", face="open", revealed=True)  # closed, but known to be a plain door
    door(st, "C7", open=True)
    door(st, "C8", open=True)  # seat 1 could win on its next move
    assert smart_choices(st) == {"play key-red B1"}
    st = apply(GAME, st, 0, "play key-red B1").state
    st = apply(GAME, st, 0, decide(GAME, st, 0, Rng(0), "smart")).state
    assert st.over and st.result["winners"] == [0]


def test_smart_ai_plays_nothing_that_could_spoil_a_ready_win():
    st = position(seat0=("B2", ["padlock"] * 4), seat1=("E5", []))
    door(st, "B2", open=True)
    door(st, "B1", open=True)
    door(st, "E5", open=True)
    assert smart_choices(st) == {"discard padlock"}


def test_smart_ai_padlocks_the_door_the_next_player_would_win_through():
    st = position(seat0=("B5", ["padlock", "key-red", "key-red"]), seat1=("D7", []))
    door(st, "B5", open=True)
    door(st, "D7", open=True)
    door(st, "D8", open=True)  # seat 1's only open way out
    assert smart_choices(st) == {"play padlock D8"}


def test_smart_ai_keeps_its_keys_when_the_leader_can_walk_around_the_door():
    """Shutting A6 would cost seat 1 nothing: C6-C7-C8 is just as short as A6-A7-A8."""
    st = position(seat0=("E2", ["key-red", "skeleton", "padlock"]), seat1=("B6", []))
    door(st, "E2", open=True)
    for name in ("B6", "A6", "A7", "A8", "C6", "C7", "C8"):
        door(st, name, open=True)
    door(st, "B7", padlock=True)
    door(st, "E1", colour="blue", face="barred", revealed=True)  # no quick win for seat 0 either
    plays = smart_choices(st)
    assert plays and not any(a.endswith(" A6") for a in plays), plays


def test_smart_ai_uses_its_extra_key_to_shut_the_next_players_winning_door():
    st = position(seat0=("B5", []), seat1=("D7", []))
    for name in ("B5", "D7", "D8", "B4"):
        door(st, name, open=True)  # B4 is open on seat 0's own way, but D8 wins for seat 1
    st.data["phase"] = "bonus"
    assert smart_choices(st) == {"bonus D8"}

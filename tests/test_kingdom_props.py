"""Property tests for Key to the Kingdom: whole games under random and smart play.

Random legal play always ends; cards, Treasures and Deep Magic are conserved; every adventurer is
somewhere that exists in the current fold; replays are exact and states survive JSON; the public
view and public events never tell which Treasure is where (at a Key Location, in a hand or among the
lost holders); typed nonsense (every action form with odd digits, junk or huge input, in every kind
of prompt) only ever raises IllegalAction and changes nothing.
"""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from games.core import IllegalAction, Rng, State, apply, decide, replay, setup
from games.kingdom import GAME
from games.kingdom.board import BOARD
from games.kingdom.stock import COBRA, ITEM_COPIES, SETUP, TREASURE_NAMES, TREASURES
from tests.kingdom_helpers import en

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SECRET_NAMES = [TREASURE_NAMES[t] for t in TREASURES]


def check_invariants(state: State) -> None:
    d = state.data
    held = [t for t in d["locations"].values() if t is not None] + list(d["lost_treasure"])
    for pl in d["players"]:
        held += pl["hand"]
    assert sorted(held) == sorted([*TREASURES, COBRA])
    assert all(COBRA not in pl["hand"] for pl in d["players"])
    items = Counter(d["equip_deck"]) + Counter(e["item"] for e in d["lost_equip"])
    for pl in d["players"]:
        items += Counter(pl["equip"])
    assert items == Counter(ITEM_COPIES)
    assert d["deep_left"] + sum(pl["deep"] for pl in d["players"]) == SETUP["deep_magic"]
    assert d["demon"] in BOARD.demon
    assert (d["phase"] == "fold") == (d["fold_job"] is not None) or state.over
    for pl in d["players"]:
        if pl["spot"] is not None:
            assert pl["at"] is None and pl["spot"] in BOARD.spots and pl["task"] is not None
        else:
            assert pl["at"] in BOARD.spaces
            if pl["task"] is None:
                assert BOARD.present(pl["at"], d["fold"]), pl["at"]
    assert json.loads(json.dumps(d)) == d


def check_secrecy(state: State, events) -> None:
    public = GAME.view(state, None)
    text = json.dumps(public)
    if not state.over:
        for name in SECRET_NAMES:
            assert name not in text
        for tid in TREASURES:
            assert f'"{tid}"' not in text
    assert public["hand"] is None and public["knows"] is None
    assert all(isinstance(v, bool) for v in public["locations"].values())
    for seat in range(state.seats):
        assert "{p" not in en(GAME.private_text(state, seat))  # DMs are not name-filled
        mine = GAME.view(state, seat)
        assert mine["hand"] == state.data["players"][seat]["hand"]
        strip = {k: v for k, v in mine.items() if k not in ("hand", "knows", "seat")}
        assert strip == {k: v for k, v in public.items() if k not in ("hand", "knows")}
    for e in events:
        if e.to is not None:
            assert len(e.to) == 1
            continue
        if e.kind != "end":
            for name in SECRET_NAMES:
                assert name not in en(e.text), en(e.text)


def play_game(seats: int, seed: int, levels: list[str], checks: bool = True, limit: int = 6000):
    state = setup(GAME, seats, {}, seed)
    pick = Rng(seed ^ 0xBEEF)
    log = []
    if checks:
        check_invariants(state)
        check_secrecy(state, [])
    for _ in range(limit):
        if state.over:
            break
        waiting = [s for s in range(seats) if GAME.prompt(state, s) is not None]
        assert waiting, "nobody can move"
        assert GAME.to_move(state) in waiting
        seat = waiting[pick.below(len(waiting))]
        action = decide(GAME, state, seat, Rng(seed * 31 + state.version), levels[seat])
        out = apply(GAME, state, seat, action)
        state = out.state
        log.append((seat, action, 0.0))
        if checks:
            check_invariants(state)
            check_secrecy(state, out.events)
    return state, log


@FAST
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32),
       levels=st_.lists(st_.sampled_from(["random", "smart"]), min_size=4, max_size=4))
def test_games_always_end_and_keep_invariants(seats, seed, levels):
    state, log = play_game(seats, seed, levels[:seats])
    assert state.over and state.data["phase"] == "over"
    winners = state.result["winners"]
    if winners:
        (w,) = winners
        hand = state.data["players"][w]["hand"]
        assert "key" in hand and len(hand) >= 2
        assert state.data["players"][w]["at"] == BOARD.start
    else:
        assert state.data["round"] > state.data["rounds"]


def test_every_player_count_ends_under_random_play():
    for seats in range(2, 5):
        for seed in range(2):
            state, _ = play_game(seats, seed, ["random"] * seats, checks=False)
            assert state.over


@settings(max_examples=6, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32))
def test_replay_and_json_round_trip(seats, seed):
    levels = ["smart", "random", "smart", "random"][:seats]
    state, log = play_game(seats, seed, levels, checks=False)
    again = replay(GAME, seats, {}, seed, log)
    assert again.to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()


@settings(max_examples=6, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32))
def test_every_listed_choice_is_legal_and_distinct(seats, seed):
    state = setup(GAME, seats, {}, seed)
    rng = Rng(seed + 1)
    for step in range(400):
        if state.over:
            break
        waiting = [s for s in range(seats) if GAME.prompt(state, s) is not None]
        seat = waiting[0]
        choices = GAME.prompt(state, seat).choices
        assert choices and len({c.action for c in choices}) == len(choices)
        if step % 4 == 0:
            for c in choices:
                apply(GAME, state, seat, c.action)  # never raises
        state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "random")).state


MANGLED = ["move", "move nowhere", "move h1 h2", "demon", "demon gate", "cross", "cross bone_pit now",
           "cross the_moon", "use", "use wings", "drop", "drop dragon", "take", "take holder holder",
           "steal", "steal purple", "go", "go mars", "roll 3", "stay please", "fight 2", "visit wizard",
           "deep magic", "let it", "done now", "leave them", "ROLL!!", "move 🗝️", "\x00", "   "]


@settings(max_examples=20, deadline=None)
@given(seed=st_.integers(0, 2**32), moves=st_.integers(0, 120), junk=st_.text(max_size=24))
def test_mangled_typed_actions_only_raise_illegal_action(seed, moves, junk):
    state, _ = play_game(3, seed, ["random"] * 3, checks=False, limit=moves)
    if state.over:
        return
    before = state.to_json()
    for seat in range(3):
        legal = {c.action for c in (GAME.prompt(state, seat).choices if GAME.prompt(state, seat) else [])}
        for action in [junk, *MANGLED]:
            if " ".join(action.lower().split()) in legal:
                continue
            try:
                apply(GAME, state, seat, action)
            except IllegalAction as err:
                assert err.reason and len(en(err.reason)) < 1500
            assert state.to_json() == before


def test_prompts_of_several_seats_only_during_a_fold():
    seen_fold = False
    for seed in range(25):
        state = setup(GAME, 4, {}, seed)
        rng = Rng(seed)
        for _ in range(3000):
            if state.over:
                break
            waiting = [s for s in range(4) if GAME.prompt(state, s) is not None]
            if len(waiting) > 1:
                assert state.data["phase"] == "fold"
                seen_fold = True
            seat = waiting[rng.below(len(waiting))]
            state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "smart")).state
    assert seen_fold


ODD_ARGS = ["⁰", "٣", "٣٣", "h٣", "ｈ３", "h³", "b²", "₄", "𝟙", "Ⅷ", "½", "-1", "0", "99", "1e9",
            "red red", "blue!", "\u200bh3", "h3\u0000", "🗝️", "\n", "x" * 5000, "h1 " * 3000]


def typed_positions():
    """Games driven into each kind of prompt: the start, a demon and a move choice, a hazard's way,
    a steal, a fold run (several seats asked at once)."""
    from tests.kingdom_helpers import act, in_hazard, position, put, safe_demon
    out = [setup(GAME, 3, {}, 7)]
    st = position("h4", seats=3)
    st.data["demon"] = "ht"
    st, _ = act(st, 0, "roll", dice=[2])
    out.append(st)                                   # the Demon King's move
    st = position("h3", seats=3)
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    out.append(safe_demon(st))                       # the adventurer's move
    out.append(in_hazard(position("well_a", ["rope", "shield"], seats=3), 0, "well_of_doom", "fall", near="well_a"))
    st = position("bone_a", seats=3)
    put(st, 1, "bone_b", hand=["orb"])
    out.append(act(st, 0, "cross bone_pit", "roll", dice=[2])[0])   # steal or leave
    st = position("bp", seats=3)
    put(st, 1, "b5")
    put(st, 2, "b3")
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    out.append(act(safe_demon(st), 0, "move wpool")[0])   # two runners asked at once
    return out


def test_every_typed_action_form_with_odd_digits_junk_or_huge_input_is_refused_unchanged():
    from games.kingdom.engine import norm
    positions = typed_positions()
    assert [st.data["phase"] for st in positions] == ["act", "demon", "move", "act", "steal", "fold"]
    for state in positions:
        before = state.to_json()
        for seat in range(state.seats):
            prompt = GAME.prompt(state, seat)
            legal = {c.action for c in prompt.choices} if prompt else set()
            for verb in GAME.verbs:
                for arg in ODD_ARGS:
                    for action in (f"{verb} {arg}", f"{arg} {verb}", f"{verb}{arg}", arg):
                        if norm(action) in legal:
                            continue
                        try:
                            apply(GAME, state, seat, action)
                        except IllegalAction as err:
                            assert err.reason and len(en(err.reason)) < 1500
                        else:
                            raise AssertionError(f"{action[:40]!r} was accepted")
                        assert state.to_json() == before

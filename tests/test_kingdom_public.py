"""Key to the Kingdom: what everyone sees must not tell who can escape.

Each test drives a game straight into a situation (the Gate within reach, a fold run, the Rainbow, a
hazard's far White Dagger) twice: once with the mover holding the Key and another Treasure, once
with two other Treasures (the same number of holders, which is public). The public view, the board
image drawn from it, every seat's prompt (text, buttons and their labels) and the public events
must be the same both times.
"""
from __future__ import annotations

import json

from games.kingdom import GAME
from games.kingdom.stock import TREASURE_NAMES, TREASURES
from render.kingdom import render_kingdom
from tests.kingdom_helpers import act, actions, en, labels, me, position, put, safe_demon

WINNING = ["key", "crown"]
LOSING = ["orb", "crown"]


def public(st, events=()) -> dict:
    prompts = {}
    for seat in range(st.seats):
        pr = GAME.prompt(st, seat)
        prompts[seat] = None if pr is None else (en(pr.text), list(zip([c.action for c in pr.choices], labels(pr))))
    said = [en(e.text) for e in events if e.to is None]
    return {"view": GAME.view(st, None), "prompts": prompts, "events": said}


def same_in_public(build, image: bool = False) -> dict:
    """Run `build(hand)` for a hand that may escape and one that may not; the public sides match."""
    a_state, a_events = build(WINNING)
    b_state, b_events = build(LOSING)
    a, b = public(a_state, a_events), public(b_state, b_events)
    assert a == b
    text = json.dumps(a)
    for tid in TREASURES:
        assert TREASURE_NAMES[tid] not in text
    if image:
        assert render_kingdom(a["view"]) == render_kingdom(b["view"])
    return a


def test_the_gate_within_reach_looks_the_same_whether_or_not_you_can_escape():
    def build(hand):
        st = position("h2", hand=hand)
        st.data["demon"] = "h8"
        st, ev = act(st, 0, "roll", dice=[5])
        st = safe_demon(st)
        return st, ev
    seen = same_in_public(build, image=True)
    assert "move gate" in [a for a, _ in seen["prompts"][0][1]]   # offered either way
    assert "gate" in seen["view"]["targets"]


def test_stopping_at_the_gate_without_the_key_ends_the_move_there_and_wins_nothing():
    st = position("h2", hand=LOSING)
    st.data["demon"] = "h8"
    st, _ = act(st, 0, "roll", dice=[5])
    st = safe_demon(st)
    st, ev = act(st, 0, "move gate")
    assert me(st)["at"] == "gate" and not st.over and st.data["current"] == 1
    st = position("h2", hand=WINNING)
    st.data["demon"] = "h8"
    st, _ = act(st, 0, "roll", dice=[5])
    st = safe_demon(st)
    st, _ = act(st, 0, "move gate")
    assert st.over and st.result["winners"] == [0]


def fold_run(hand, seat_hand_at="b6"):
    """Seat 1 jumps into the Banshee Towers Whirlpool; seat 0 (holding `hand`) must run."""
    st = position("gate", seats=2, hand=hand)
    put(st, 0, seat_hand_at)
    put(st, 1, "bp")
    st.data["current"] = 1
    st.data["demon"] = "h9"
    st, ev = act(st, 1, "roll", dice=[1])
    st = safe_demon(st, 1)
    st, ev2 = act(st, 1, "move wpool")
    return st, ev + ev2


def test_a_fold_run_towards_the_gate_looks_the_same_whether_or_not_you_can_escape():
    def build(hand):
        st, ev = fold_run(hand)
        assert st.data["phase"] == "fold" and actions(st, 0) == ["roll"]
        st, ev2 = act(st, 0, "roll", dice=[6])
        return st, ev + ev2
    seen = same_in_public(build, image=True)
    assert "move gate" in [a for a, _ in seen["prompts"][0][1]]


def test_running_to_the_gate_from_a_fold_wins_only_with_the_key_and_another_treasure():
    st, _ = fold_run(WINNING)
    st, _ = act(st, 0, "roll", "move gate", dice=[6])
    assert st.over and st.result["winners"] == [0]
    st, _ = fold_run(LOSING)
    st, ev = act(st, 0, "roll", "move gate", dice=[6])
    assert not st.over and me(st)["at"] == "gate" and st.data["fold"]["west"] == "out"


def test_the_rainbow_looks_the_same_whether_or_not_you_can_escape():
    def build(hand):
        st = position("rain_a", hand=hand)
        st.data["fold"]["west"] = "out"
        st, ev = act(st, 0, "cross magic_rainbow", "roll", dice=[3])
        return st, ev
    same_in_public(build)
def test_a_hazards_far_dagger_looks_the_same_whether_or_not_you_can_escape():
    def build(hand):
        st = position("bone_a", hand=hand, seats=3)
        put(st, 1, "bone_b", hand=["amulet"])
        st, ev = act(st, 0, "cross bone_pit", "roll", dice=[2])
        return st, ev
    seen = same_in_public(build)
    assert [a for a, _ in seen["prompts"][0][1]] == ["steal blue", "leave"]



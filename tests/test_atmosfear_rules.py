"""Rule-by-rule tests for Atmosfear on hand-built positions."""
from __future__ import annotations

import json
import re

import pytest

from data.locales import LANGUAGES, catalog, render
from games.atmosfear import GAME
from games.atmosfear.engine import (COLOURS, DECOYS, FATE, FATE_TEXT, FLIGHTS, GK, HEADSTONES, HOLES, LINES, NAMES, ORDERS,
                                    TIME, WELL, nearest_hole, order_weights, time_band)
from games.core import SYSTEM, IllegalAction, Rng, apply, setup
from tests import rules_helpers

T0 = 1000.0


def started(seats: int = 3, seed: int = 1, minutes: int = 40):
    st = setup(GAME, seats, {"minutes": minutes}, seed)
    for s in range(seats):
        st = apply(GAME, st, s, f"fear fear number {s}", T0).state
    return st


def act(st, seat, action, now=T0 + 1):
    out = apply(GAME, st, seat, action, now)
    return out.state, out.events


def force(st, *dice):
    """Point the state's RNG at a stream whose next dice are `dice`."""
    for s in range(200000):
        r = Rng(s)
        if all(r.die() == x for x in dice):
            st.rng = s
            return st
    raise AssertionError("no stream found")


def quiet(st):
    """No Gatekeeper for a long while (tests that are not about him)."""
    st.data["gk"]["next"] = T0 + 10**6
    return st


def texts(events):
    return " ".join(render("en", e.text) for e in events)


def refused(st, seat, action, *fragments):
    return rules_helpers.refused(GAME, st, seat, action, *fragments, now=T0 + 1)


# ------------------------------------------------------------------ fears and the clock

def test_fears_are_private_text_choices_and_start_the_clock():
    st = setup(GAME, 3, {"minutes": 20}, 5)
    pr = GAME.prompt(st, 0)
    assert [c.action for c in pr.choices] == ["fear"] and pr.choices[0].input == "text"
    with pytest.raises(IllegalAction):
        act(st, 0, "fear    ")
    with pytest.raises(IllegalAction):
        act(st, 0, "fear " + "x" * 101)
    with pytest.raises(IllegalAction):
        act(st, 0, "roll 2")
    st, ev = act(st, 0, "fear   being  eaten ", 50.0)
    assert st.data["fears"][0] == "being eaten"
    assert "being eaten" not in json.dumps(GAME.view(st, None)) + texts(ev)
    assert "being eaten" not in json.dumps(GAME.view(st, 1))
    assert GAME.view(st, 0)["fear"] == {"text": "being eaten", "in_well": True}
    assert "being eaten" in render("en", GAME.private_text(st, 0))
    with pytest.raises(IllegalAction):
        act(st, 0, "fear again")
    assert GAME.timers(st) == [] and GAME.view(st, None)["clock"]["end"] is None
    st, _ = act(st, 1, "fear spiders", 60.0)
    st, _ = act(st, 2, "fear the dark", 77.0)
    v = GAME.view(st, None)
    assert v["phase"] == "play" and v["clock"]["end"] == 77.0 + 20 * 60 and v["current"] == 0
    # 20 minutes for 3 is 6.7 minutes each: the Well holds 6 fears, 3 of them his decoys
    assert v["fears_in_well"] == 6 and v["fears_read"] == []


def test_clock_end_means_the_gatekeeper_wins():
    st = quiet(started(minutes=20))
    end = st.data["clock"]["end"]
    assert any(t["action"] == "clock end" and t["due"] == end for t in GAME.timers(st))
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "clock end", end - 1)
    st2, ev = act(st, SYSTEM, "clock end", end + 5)
    assert st2.over and st2.result["winners"] == [] and render("en", st2.result["reason"]) == "The Gatekeeper wins"
    v = GAME.view(st2, None)
    assert v["gatekeeper_won"] and v["phase"] == "over"
    # a move made after the clock ran out also ends the game instead
    st3, _ = act(st, 0, "roll 2", end + 1)
    assert st3.over and st3.result["winners"] == []


def test_bad_minutes_option_refused():
    with pytest.raises(IllegalAction):
        setup(GAME, 3, {"minutes": 25}, 1)
    with pytest.raises(IllegalAction):
        setup(GAME, 2, None, 1)


# ------------------------------------------------------------------ moving

def test_roll_moves_clockwise_and_passes_the_turn():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O40"
    force(st, 1)
    st, ev = act(st, 0, "roll 1")
    assert st.data["players"][0]["pos"] == "O41" and st.data["current"] == 1 and st.turn == 2
    st.data["players"][1]["pos"] = "O62"
    force(st, 2, 3)
    st, ev = act(st, 1, "roll 2")
    assert st.data["players"][1]["pos"] == "O1" and "2 + 3 = 5" in texts(ev)
    assert GAME.view(st, None)["last"]["path"][0] == "O62"
    with pytest.raises(IllegalAction, match="one or two"):
        act(st, 2, "roll 3")
    with pytest.raises(IllegalAction, match="turn"):
        act(st, 0, "roll 1")


def test_branch_inside_and_outside():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O4"
    force(st, 3)
    st, _ = act(st, 0, "roll 1")
    assert st.data["step"] == "branch" and st.data["players"][0]["pos"] == "O5"
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["inside", "outside"]
    a, _ = act(st, 0, "inside")
    assert a.data["players"][0]["pos"] == "R1-2"
    b, _ = act(st, 0, "outside")
    assert b.data["players"][0]["pos"] == "O7" or b.data["step"] == "key"


def test_inner_ring_direction_and_the_well():
    st = quiet(started())
    d = st.data
    d["players"][0]["pos"] = "I3"
    force(st, 2)
    st, _ = act(st, 0, "roll 1")
    assert st.data["step"] == "ring"
    a, _ = act(st, 0, "ccw")
    assert a.data["players"][0]["pos"] == "I1"
    b, _ = act(st, 0, "cw")
    assert b.data["players"][0]["pos"] == "I5"
    # with every colour, passing the gate stone takes you into the Well (rest of the roll lost)
    st = quiet(started())
    st.data["players"][0]["pos"] = "I2"
    st.data["players"][0]["rack"] = list(COLOURS)
    st.data["realm_keys"] = [5] * 6
    force(st, 6)
    st, _ = act(st, 0, "roll 1")
    st, _ = act(st, 0, "ccw")
    assert st.data["players"][0]["pos"] == "WELL"
    assert GAME.view(st, None)["players"][0]["waiting_at_well"]


def test_leave_inside_track():
    st = quiet(started())
    st.data["players"][0]["pos"] = "R2-1"
    assert "leave" in [c.action for c in GAME.prompt(st, 0).choices]
    st, _ = act(st, 0, "leave")
    assert st.data["players"][0]["pos"] == HEADSTONES[0] and st.data["current"] == 1


def test_radials_are_one_way_inward():
    st = quiet(started())
    st.data["players"][0]["pos"] = "R1-3"
    force(st, 1)
    st, _ = act(st, 0, "roll 1")
    assert st.data["players"][0]["pos"] == "I1"


# ------------------------------------------------------------------ keys

def test_key_stone_take_or_skip_and_empty_realm():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O20"
    force(st, 4)
    st, _ = act(st, 0, "roll 1")  # O24 = green key stone
    assert st.data["step"] == "key"
    a, ev = act(st, 0, "take")
    assert a.data["players"][0]["rack"] == ["green"] and a.data["realm_keys"][2] == 5
    assert GAME.view(a, 0)["rack"] == {"green": 1} and "rack" not in GAME.view(a, None)
    assert all("green" not in render("en", e.text) for e in ev if e.public)
    b, _ = act(st, 0, "skip")
    assert b.data["players"][0]["rack"] == [] and b.data["current"] == 1
    st = quiet(started())
    st.data["realm_keys"][2] = 0
    st.data["players"][0]["pos"] = "O20"
    force(st, 4)
    st, ev = act(st, 0, "roll 1")
    assert st.data["current"] == 1 and "No green keys" in texts(ev)


def test_black_key_must_be_taken_and_passed_on_same_stone():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O40"
    st.data["players"][1]["pos"] = "O43"
    force(st, 3)
    st, _ = act(st, 0, "roll 1")
    assert st.data["black_key"] == {"holder": 0, "on_board": False}
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["pass 2", "skip"]
    st2, _ = act(st, 0, "pass 2")
    assert st2.data["black_key"]["holder"] == 1 and st2.data["current"] == 1
    # by Harbinger name too
    st3, _ = act(st, 0, "pass khufu")
    assert st3.data["black_key"]["holder"] == 1
    with pytest.raises(IllegalAction, match="Black Key"):
        act(st, 0, "pass 3")


def test_black_key_blocks_the_well_and_forces_a_waiter_out():
    st = quiet(started())
    d = st.data
    d["players"][1]["pos"] = "WELL"
    d["players"][1]["rack"] = list(COLOURS)
    d["realm_keys"] = [5] * 6
    d["players"][0]["pos"] = "O30"
    d["black_key"] = {"holder": 0, "on_board": False}
    assert GAME.view(st, None)["players"][1]["waiting_at_well"]
    ev = []
    GAME._effect(st, 0, TIME["T08"], Rng(1), ev, on_turn=False)  # the key jumps to seat 0's left
    assert "must leave" in texts(ev)
    st.data["current"] = 1
    assert not GAME.view(st, None)["players"][1]["waiting_at_well"]
    assert "roll 2" in [c.action for c in GAME.prompt(st, 1).choices]


def test_handed_the_black_key_at_the_well_you_must_roll_on_next_turn():
    """Neither leave, nor pass it back and read: the next turn is a roll away from the Well."""
    st = quiet(started())
    d = st.data
    d["realm_keys"] = [4] * 6
    for s in (0, 1):
        d["players"][s].update(pos="WELL", rack=list(COLOURS))
    d["black_key"] = {"holder": 0, "on_board": False}
    ev = []
    GAME._pass(d, 0, "pass 2", ev)  # seat 1, waiting at the Well, is handed the Black Key
    assert "must leave" in texts(ev)
    d["current"] = 1
    assert [c.action for c in GAME.prompt(st, 1).choices] == ["roll 1", "roll 2"]
    for action in ("pass 1", "leave", "read"):
        refused(st, 1, action, "must roll")
    force(st, 1)
    st, _ = act(st, 1, "roll 1")
    assert st.data["players"][1]["pos"] != "WELL"
    # rid of the key before that turn came round, they must still move on
    st = quiet(started())
    d = st.data
    d["realm_keys"] = [4] * 6
    for s in (0, 1):
        d["players"][s].update(pos="WELL", rack=list(COLOURS))
    GAME._give_black(d, 1, [])
    GAME._give_black(d, 2, [])
    d["current"] = 1
    assert [c.action for c in GAME.prompt(st, 1).choices] == ["roll 1", "roll 2"]
    # and once they have moved on, they may come back and read as anyone else
    force(st, 1)
    st, _ = act(st, 1, "roll 1")
    st.data["players"][1]["pos"] = "WELL"
    st.data["current"] = 1
    assert [c.action for c in GAME.prompt(st, 1).choices] == ["read"]


# ------------------------------------------------------------------ headstones

def test_own_headstone_roll_own_number_takes_a_key():
    st = quiet(started())
    st.data["players"][1]["pos"] = "O6"
    st.data["current"] = 1
    force(st, 5, 2)  # 5 steps to O11 (Khufu's headstone), then Khufu rolls his 2
    st, ev = act(st, 1, "roll 1")
    assert st.data["players"][1]["pos"] == "O11" and st.data["players"][1]["rack"] == ["yellow"]


def test_other_headstone_owner_rolls_for_the_visitors_number():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O6"
    st.data["players"][0]["rack"] = ["red"]
    st.data["realm_keys"][0] -= 1
    force(st, 5, 1)  # 5 steps to O11 (Khufu's headstone), then Khufu rolls the visitor's 1
    a, ev = act(st, 0, "roll 1")
    assert a.data["players"][1]["rack"] == ["red"] and a.data["players"][0]["rack"] == []
    force(st, 5, 2)  # Khufu's own number is nothing special on someone else's visit
    b, ev = act(st, 0, "roll 1")
    assert b.data["players"][1]["rack"] == [] and b.data["players"][0]["rack"] == ["red"]


def test_sent_to_headstone_is_not_a_landing():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O30"
    ev = []
    GAME._carry_out(st, "headstone", 0, {}, Rng(1), ev)
    assert st.data["players"][0]["pos"] == HEADSTONES[0] and st.data["players"][0]["rack"] == []


# ------------------------------------------------------------------ black holes

def test_black_hole_landing_and_release_by_own_number():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O18"
    force(st, 3)
    st, _ = act(st, 0, "roll 1")
    assert st.data["players"][0]["hole"] and st.data["players"][0]["pos"] == "O21"
    v = GAME.view(st, None)
    assert v["players"][0]["in_black_hole"]
    st.data["current"] = 0
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["try"]
    force(st, 4)
    a, _ = act(st, 0, "try")
    assert a.data["players"][0]["hole"] and a.data["current"] == 1
    force(st, 1)
    b, _ = act(st, 0, "try")
    assert not b.data["players"][0]["hole"] and b.data["current"] == 1  # plays next turn


def test_an_extra_turn_does_not_survive_a_black_hole():
    for how in ("landing", "banished"):
        st = quiet(started())
        pl = st.data["players"][0]
        pl.update(pos="O18", extra=True)
        if how == "landing":
            force(st, 3)
            st, _ = act(st, 0, "roll 1")
        else:
            ev = []
            GAME._interrupt(st, ev, lambda: GAME._carry_out(st, "black_hole", 0, {}, Rng(1), ev))
        assert st.data["players"][0]["hole"] and st.data["current"] == 1, how
        st.data["current"] = 0
        force(st, 1)
        st, _ = act(st, 0, "try")  # released by its own number: plays again from its next turn
        assert not st.data["players"][0]["hole"] and st.data["current"] == 1, how


def test_black_hole_release_by_own_key_at_turn_start():
    st = quiet(started())
    d = st.data
    d["players"][1]["hole"] = True
    d["players"][1]["pos"] = "O21"
    d["players"][1]["rack"] = ["yellow"]
    d["realm_keys"][1] = 5
    d["players"][0]["pos"] = "O40"
    force(st, 1)
    st, ev = act(st, 0, "roll 1")
    assert not st.data["players"][1]["hole"] and "own realm" in texts(ev)


def test_black_hole_out_of_game_no_duel_no_call():
    st = quiet(started())
    d = st.data
    d["players"][1].update(hole=True, pos="O21", rack=["red"])
    d["players"][0]["rack"] = ["blue"]
    d["realm_keys"][0] -= 1
    d["realm_keys"][5] -= 1
    assert GAME.duel_targets(d, 0) == []
    for _ in range(30):
        assert GAME.target(d, None, "random", Rng(_)) != 1


def test_black_hole_player_ignores_orders_to_go_home():
    """Out of the game: neither the Gatekeeper's nor a card's "back to your headstones" frees them."""
    for how in ("gatekeeper", "fate", "time"):
        st = gk_state(3)
        st.data["players"][2].update(hole=True, pos="O54")
        st.data["players"][0]["pos"] = "O30"
        if how == "gatekeeper":
            st, ev = appear(st, "all_headstones")
        else:
            ev = []
            card = {"effect": "all_headstones"} if how == "fate" else {"effect": "headstone"}
            GAME._effect(st, 0 if how == "fate" else 2, card, Rng(1), ev, on_turn=how == "fate")
        pl = st.data["players"]
        assert pl[2]["hole"] and pl[2]["pos"] == "O54", how
        if how != "time":
            assert pl[0]["pos"] == HEADSTONES[0]


def test_black_hole_player_does_not_duel_even_by_a_card():
    st = quiet(started())
    d = st.data
    d["players"][2].update(hole=True, pos="O54", rack=["red"])
    d["players"][0]["rack"] = ["blue", "green"]
    for c in ("red", "blue", "green"):
        d["realm_keys"][COLOURS.index(c)] -= 1
    ev = []
    GAME._effect(st, 2, {"effect": "duel", "target": "leader"}, Rng(1), ev, on_turn=False)
    assert "Duel" not in texts(ev) and d["players"][2]["rack"] == ["red"]
    assert len(d["players"][0]["rack"]) == 2


def release(st, how, seat, drawer):
    """Free the Black Holes: the Gatekeeper's order, a Fate card `drawer` draws, or the Time card
    `seat` (in a Black Hole) holds."""
    ev = []
    if how == "gk":
        GAME._carry_out(st, "release", None, {}, Rng(1), ev)
    elif how == "fate":
        GAME._effect(st, drawer, FATE["F05"], Rng(1), ev, on_turn=True)
    else:
        GAME._effect(st, seat, TIME["T03"], Rng(1), ev, on_turn=False)
    return ev


def test_no_release_from_a_black_hole_before_a_turn_there():
    """The Gatekeeper, a Fate card or a Time card frees only a player whose turn has come round
    in the Black Hole since they fell in."""
    for how in ("gk", "fate", "time"):
        st = quiet(started())
        st.data["players"][0]["pos"] = "O18"
        force(st, 3)
        st, _ = act(st, 0, "roll 1")  # seat 0 falls into O21; seat 1 is to play
        assert st.data["players"][0]["hole"] and st.data["current"] == 1

        early = st.copy()
        release(early, how, 0, drawer=1)
        assert early.data["players"][0]["hole"], how  # too early: still in
        st.data["current"] = 2
        GAME._end_turn(st, [])  # seat 0's turn comes round: it has waited
        assert st.data["current"] == 0
        release(st, how, 0, drawer=1)
        assert not st.data["players"][0]["hole"], how
    # with nobody who has waited, he does not pick the order to free the Black Holes
    st = quiet(started())
    st.data["players"][0].update(pos="O21", hole=True, waited=False)
    assert "release" not in dict(GAME._weights(st.data, T0))
    st.data["players"][0]["waited"] = True
    assert "release" in dict(GAME._weights(st.data, T0))


def test_nearest_black_hole_first():
    assert nearest_hole("O25") == "O21" and nearest_hole("O50") == "O54"
    assert nearest_hole("O2") == "O54" or nearest_hole("O2") == "O21"
    assert nearest_hole("R5-2") == "O54"
    st = quiet(started())
    st.data["players"][2]["pos"] = "O30"
    ev = []
    GAME._carry_out(st, "black_hole", 2, {}, Rng(1), ev)
    assert st.data["players"][2]["pos"] == "O21" and st.data["players"][2]["hole"]


def test_releases_by_gatekeeper_fate_and_time():
    for how in ("gk", "fate", "time"):
        st = quiet(started())
        st.data["players"][2].update(hole=True, pos="O54", waited=True)
        release(st, how, 2, drawer=0)
        assert not st.data["players"][2]["hole"], how


# ------------------------------------------------------------------ duels and flight

def test_duel_blind_pick_and_requirements():
    st = quiet(started())
    d = st.data
    d["players"][0]["pos"] = "O1"
    force(st, 3)
    st0, _ = act(st, 0, "roll 1")  # O4 duel stone, but no keys: no duel
    assert st0.data["current"] == 1
    d["players"][0]["rack"] = ["red"]
    d["players"][1]["rack"] = ["yellow", "green"]
    d["realm_keys"][0] -= 1; d["realm_keys"][1] -= 1; d["realm_keys"][2] -= 1
    force(st, 3)
    st, _ = act(st, 0, "roll 1")
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["duel 2", "skip"]
    with pytest.raises(IllegalAction):
        act(st, 0, "duel 3")  # seat 3 has no key
    force(st, 6, 2)
    a, ev = act(st, 0, "duel 2")
    assert len(a.data["players"][0]["rack"]) == 2 and len(a.data["players"][1]["rack"]) == 1
    force(st, 3, 3, 1, 5)  # a tie is rolled again
    b, ev = act(st, 0, "duel Khufu")
    assert "tie" in texts(ev) and b.data["players"][0]["rack"] == [] and len(b.data["players"][1]["rack"]) == 3


def test_duel_can_take_the_black_key():
    st = quiet(started())
    d = st.data
    d["players"][0]["rack"] = ["red"]
    d["realm_keys"][0] -= 1
    d["black_key"] = {"holder": 1, "on_board": False}
    ev = []
    force(st, 6, 1)
    rng = Rng(st.rng)
    GAME._duel(d, 0, 1, rng, ev)
    assert d["black_key"]["holder"] == 0  # the Black Key was the only key in the rack


def test_flight_stones():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O6"
    force(st, 2)
    st, _ = act(st, 0, "roll 1")
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["fly O30", "fly O52", "skip"]
    with pytest.raises(IllegalAction):
        act(st, 0, "fly O8")
    a, _ = act(st, 0, "fly o52")
    assert a.data["players"][0]["pos"] == "O52" and a.data["current"] == 1


# ------------------------------------------------------------------ cards

def test_at_least_twenty_fate_and_twelve_time_cards():
    assert len(FATE) >= 20 and len(TIME) >= 12


@pytest.mark.parametrize("cid", sorted(FATE))
def test_each_fate_card(cid):
    st = quiet(started(seats=4))
    d = st.data
    card = FATE[cid]
    d["players"][0].update(pos="O33", rack=["red", "blue"])
    d["players"][1].update(pos="O12", rack=["yellow", "green", "purple"])
    d["players"][2].update(pos="O44", rack=[])
    d["players"][3].update(pos="O60", rack=["orange"])
    for c in ["red", "blue", "yellow", "green", "purple", "orange"]:
        d["realm_keys"][COLOURS.index(c)] -= 1
    before = json.loads(json.dumps(d))
    ev = []
    GAME._effect(st, 0, card, Rng(3), ev, on_turn=True)
    e = card["effect"]
    p0, p1 = d["players"][0], d["players"][1]
    if e == "take_key":
        assert p0["rack"][-1] == "purple" and d["realm_keys"][3] == 4  # O33 is Baron Samedi's realm
    elif e == "steal":
        src = 1 if card["target"] in ("leader", "left") else 3
        assert len(p0["rack"]) == 3 and len(d["players"][src]["rack"]) == len(before["players"][src]["rack"]) - 1
    elif e in ("lose_key", "remove_key"):
        assert len(p0["rack"]) == 1
        assert sum(d["removed"].values()) == (1 if e == "remove_key" else 0)
    elif e == "black_hole":
        assert p0["hole"] and p0["pos"] in HOLES
    elif e == "black_hole_target":
        assert p1["hole"]
    elif e == "swap":
        assert p0["pos"] == "O12" and p1["pos"] == "O33"
    elif e == "move":
        assert p0["pos"] == f"O{33 + card['n']}"
    elif e == "roll_again":
        assert p0["extra"]
    elif e == "black_key_give":
        assert d["black_key"]["holder"] is None  # not holding it: nothing happens
        d["black_key"] = {"holder": 0, "on_board": False}
        GAME._effect(st, 0, card, Rng(3), ev, on_turn=True)
        assert d["black_key"]["holder"] == 1
    elif e == "black_key_take":
        assert d["black_key"] == {"holder": 0, "on_board": False}
    elif e == "headstone":
        assert p0["pos"] == HEADSTONES[0]
    elif e == "all_headstones":
        assert [pl["pos"] for pl in d["players"]] == HEADSTONES[:4]
    elif e == "must_roll":
        assert p0["must_roll"] == card["n"]
    elif e == "chosen":
        assert d["chosen"] == 0
    elif e == "duel":
        assert len(p0["rack"]) + len(p1["rack"]) == 5 and len(p0["rack"]) in (1, 3)
    elif e == "give_key":
        assert len(p0["rack"]) == 1 and len(d["players"][3]["rack"]) == 2
    elif e == "fly":
        assert p0["pos"] == "O52"
    elif e == "everyone_lose":
        assert len(p1["rack"]) == 2 and len(d["players"][3]["rack"]) == 0 and len(p0["rack"]) == 2
    elif e == "dice":
        assert p0["must_dice"] == card["n"]
    elif e == "release_all":
        pass  # covered by test_releases_by_gatekeeper_fate_and_time
    else:
        raise AssertionError(e)


def test_fate_stone_draws_and_returns_card_to_bottom():
    st = quiet(started())
    st.data["players"][0]["pos"] = "O1"
    top = st.data["fate"][0]
    force(st, 2)
    st, ev = act(st, 0, "roll 1")
    assert st.data["fate"][-1] == top and render("en", FATE_TEXT[top]) in texts(ev)


def test_time_cards_are_private_fire_on_the_clock_and_expire():
    st = quiet(started(minutes=40))
    d = st.data
    d["time"] = ["T06", "T01"] + [c for c in d["time"] if c not in ("T06", "T01")]
    d["players"][0]["pos"] = "O5"
    d["players"][1]["rack"] = ["red", "yellow"]
    force(st, 1)
    st, ev = act(st, 0, "roll 1", T0 + 10)
    st, ev = act(st, 0, "outside", T0 + 10)  # O6 is a time stone: T06 (20:00 left of 40) is kept
    assert st.data["players"][0]["time_cards"] == ["T06"]
    assert all("T06" not in render("en", e.text) for e in ev if e.public)
    assert "time_cards" not in GAME.view(st, None) and GAME.view(st, 0)["time_cards"][0]["id"] == "T06"
    assert "T06" not in json.dumps(GAME.view(st, 1))
    due = st.data["clock"]["end"] - 20 * 60
    (t,) = [t for t in GAME.timers(st) if t["action"] == "time T06"]
    assert t["due"] == due and t["seat"] == SYSTEM
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "time T06", due - 1)
    st.data["players"][0]["pos"] = "O7"
    a, ev = act(st, SYSTEM, "time T06", due + 3)
    assert a.data["players"][0]["pos"] == "O11" and a.data["players"][1]["pos"] == "O7"
    assert a.data["players"][0]["time_cards"] == [] and "T06" not in a.data["time"]
    with pytest.raises(IllegalAction):
        act(a, SYSTEM, "time T06", due + 4)  # never twice
    # T01 (36:40 left of 40) has already passed: it is set aside and the next card drawn instead
    a.data["time"] = ["T01", "T30"]
    a.data["current"] = 2
    a.data["players"][2]["pos"] = "O5"
    force(a, 1)
    b, ev = act(a, 2, "roll 1", due + 5)
    b, ev = act(b, 2, "outside", due + 5)
    assert b.data["players"][2]["time_cards"] == ["T30"] and b.data["time"] == []
    assert "sets aside 1 Time card whose time has already passed" in texts(ev)


def test_time_cards_follow_the_clock_and_are_set_aside_once_spent():
    """Card times are printed for an hour-long clock and scaled to the game's; a card drawn too
    late, or spent, is out of the game: never drawn again."""
    st = quiet(started(minutes=20))
    d = st.data
    end = d["clock"]["end"]
    assert GAME.time_due(d, "T01") == end - 55 * 20  # 55:00 of an hour is 18:20 of 20 minutes
    assert "18:20" in render("en", GAME.time_text(d, "T01")) and "55:00" not in render("en", GAME.time_text(d, "T01"))
    d["time"] = ["T14", "T01", "T02"]
    d["players"][0]["pos"] = "O5"
    force(st, 1)
    st, _ = act(st, 0, "roll 1", end - 19 * 60)
    st, ev = act(st, 0, "outside", end - 19 * 60)  # 19:00 left: T14 (00:40) is kept
    assert st.data["players"][0]["time_cards"] == ["T14"] and st.data["time"] == ["T01", "T02"]
    assert any("00:40" in render("en", e.text) for e in ev if not e.public)
    st, _ = act(st, SYSTEM, "time T14", end - 40)
    assert "T14" not in st.data["time"]  # spent: not back under the deck
    st.data["current"] = 1
    st.data["players"][1]["pos"] = "O5"
    force(st, 1)
    st, _ = act(st, 1, "roll 1", end - 39)
    st, ev = act(st, 1, "outside", end - 39)  # T01's 18:20 and T02's 16:40 have passed: set aside
    assert "already passed, and the deck is empty" in texts(ev) and st.data["time"] == []
    assert st.data["players"][1]["time_cards"] == []
    st.data["time"] = []
    st.data["current"] = 2
    st.data["players"][2]["pos"] = "O5"
    force(st, 1)
    st, _ = act(st, 2, "roll 1", end - 30)
    st, ev = act(st, 2, "outside", end - 30)
    assert "no Time card left" in texts(ev) and st.data["players"][2]["time_cards"] == []



def test_the_time_deck_is_stacked_by_time_and_shuffled_within_each_band():
    """House rule: the earliest cards to strike lie on top, so a card drawn usually strikes soon."""
    orders = []
    for seed in range(1, 4):
        deck = started(seed=seed).data["time"]
        bands = [time_band(c) for c in deck]
        assert bands == sorted(bands) and sorted(deck) == sorted(TIME)
        orders.append(deck)
    assert orders[0] != orders[1] != orders[2]


def keyed_table():
    st = quiet(started(seats=4))
    d = st.data
    d["players"][0].update(pos="O33", rack=["red", "blue"])
    d["players"][1].update(pos="O12", rack=["yellow", "green", "purple"])
    d["players"][2].update(pos="O44", rack=[])
    d["players"][3].update(pos="O60", rack=["orange"])
    return st


def test_a_time_card_that_would_change_nothing_gives_a_key_instead():
    st = keyed_table()
    ev = []
    GAME._strike(st, 0, TIME["T03"], Rng(3), ev)  # not in a Black Hole: a key from the realm instead
    assert st.data["players"][0]["rack"] == ["red", "blue", "purple"] and "Nothing happens." not in texts(ev)
    st.data["players"][2]["pos"] = WELL
    st.data["realm_keys"][2] = 0  # her own realm (the Well has none) is empty: steal from a leader
    ev = []
    GAME._strike(st, 2, TIME["T03"], Rng(3), ev)
    assert len(st.data["players"][2]["rack"]) == 1
    assert len(st.data["players"][0]["rack"]) + len(st.data["players"][1]["rack"]) == 5  # from a leader
    ev = []
    st.data["players"][3]["rack"] = []
    GAME._strike(st, 3, TIME["T21"], Rng(3), ev)  # a key to lose and none held: nothing at all
    assert st.data["players"][3]["rack"] == [] and "no coloured key to lose" in texts(ev)


@pytest.mark.parametrize("card", ["T06", "T24"])
def test_a_swap_never_carries_a_player_without_every_key_inside(card):
    st = keyed_table()
    d = st.data
    d["players"][1 if card == "T06" else 3].update(pos=WELL, rack=list(COLOURS))
    ev = []
    GAME._strike(st, 0, TIME[card], Rng(3), ev)
    assert d["players"][0]["pos"] == "O33" and WELL not in [d["players"][s]["pos"] for s in (0, 2)]
    assert len(d["players"][0]["rack"]) == 3  # the card gave a key instead
    d["players"][0]["rack"] = list(COLOURS)
    GAME._strike(st, 0, TIME[card], Rng(3), [])
    assert d["players"][0]["pos"] == WELL  # with every key, the swap goes ahead


# ------------------------------------------------------------------ the Gatekeeper

def gk_state(seed=1):
    st = started(seed=seed)
    return st


def test_interjections_are_seeded_irregular_and_hidden():
    gaps = set()
    for seed in range(5):
        st = gk_state(seed)
        (t,) = [t for t in GAME.timers(st) if t["action"] == "gk appear"]
        gaps.add(round(t["due"] - T0, 3))
        assert json.dumps(t["due"]) not in json.dumps(GAME.view(st, 0))
        assert GAME.view(st, None)["gatekeeper"]["next_at"] is None
    assert len(gaps) == 5
    st = gk_state(1)
    due = st.data["gk"]["next"]
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "gk appear", due - 1)
    st, ev = act(st, SYSTEM, "gk appear", due + 500)  # overdue still works
    assert [e.kind for e in ev].count("gatekeeper") == 1 and GAME.view(st, None)["phase"] == "gatekeeper"


def appear(st, order, target=None, now=None):
    """Make him appear with a chosen order."""
    d = st.data
    saved = {k: dict(v) for k, v in ORDERS.items()}
    for k in ORDERS:
        ORDERS[k].update(weight=0.0)
        for b in [b for b in ORDERS[k] if b.endswith("_bonus")]:
            ORDERS[k][b] = 0.0
    ORDERS[order]["weight"] = 1.0
    order_weights.cache_clear()  # the weights are cached from the orders: work them out again
    try:
        out = apply(GAME, st, SYSTEM, "gk appear", now or d["gk"]["next"])
    finally:
        for k, v in saved.items():
            ORDERS[k].clear()
            ORDERS[k].update(v)
        order_weights.cache_clear()
    return out.state, out.events


def test_moves_are_refused_in_his_voice_while_he_speaks():
    st = gk_state()
    st, _ = appear(st, "taunt")
    with pytest.raises(IllegalAction) as exc:
        act(st, 0, "roll 2", st.data["gk"]["next"] + 1 if st.data["gk"]["next"] else T0 + 100)
    reason = exc.value.reason
    assert NAMES[0] in reason and "{" not in reason
    assert GAME.prompt(st, 0) is None and GAME.to_move(st) is None
    (t,) = [t for t in GAME.timers(st) if t["action"] == "gk leave"]
    st, ev = act(st, SYSTEM, "gk leave", t["due"])
    assert ev[0].kind == "gatekeeper" and not st.data["gk"]["on"]
    assert any(t["action"] == "gk appear" for t in GAME.timers(st))
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "gk leave", t["due"] + 1)


def test_called_player_answers_in_time_then_order_proceeds():
    st = gk_state()
    st.data["players"][1]["pos"] = "O30"
    st.data["players"][0]["rack"] = ["red"]
    st.data["players"][2]["rack"] = ["red"]
    st.data["realm_keys"][0] -= 2
    st, ev = appear(st, "take_key")  # the trailer: the seat with fewest keys
    gk = st.data["gk"]
    seat = gk["calling"]
    assert seat == 1 and GAME.to_move(st) == 1 and GAME.paused(st)
    pr = GAME.prompt(st, 1)
    assert [(c.action, c.label) for c in pr.choices] == [("yes", "YES! MY GATEKEEPER!")]
    assert GAME.prompt(st, 0) is None
    (late,) = [t for t in GAME.timers(st) if t["action"] == "gk late"]
    assert late["due"] == gk["deadline"] and late["seat"] == SYSTEM
    with pytest.raises(IllegalAction):
        act(st, 0, "yes", late["due"] - 5)
    a, ev = act(st, 1, "yes", late["due"] - 2)
    assert a.data["players"][1]["rack"] == ["green"]
    with pytest.raises(IllegalAction):
        act(a, SYSTEM, "gk late", late["due"] + 1)


@pytest.mark.parametrize("seconds", [8, 15, 30])
def test_a_call_gives_the_answer_window_chosen_in_the_lobby(seconds):
    st = setup(GAME, 3, {"minutes": 40, "answer": seconds}, 1)
    for s in range(3):
        st = apply(GAME, st, s, f"fear fear number {s}", T0).state
    st.data["players"][1].update(pos="O30", rack=["red"])
    st.data["realm_keys"][0] -= 1
    came = st.data["gk"]["next"]
    st, _ = appear(st, "take_key")
    seat = st.data["gk"]["calling"]
    assert st.data["gk"]["deadline"] == came + seconds
    (late,) = [t for t in GAME.timers(st) if t["action"] == "gk late"]
    assert late["due"] == came + seconds
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "gk late", came + seconds - 1)
    answered, _ = act(st, seat, "yes", came + seconds - 1)  # still in time
    assert answered.data["gk"]["calling"] is None


def test_an_answer_window_the_lobby_does_not_offer_is_refused():
    with pytest.raises(IllegalAction, match="8, 15, 30 seconds"):
        setup(GAME, 3, {"minutes": 40, "answer": 9}, 1)


def test_late_answer_is_punished():
    for seed in range(6):
        st = gk_state(seed)
        st.data["players"][1]["rack"] = ["red"]
        st.data["realm_keys"][0] -= 1
        st.data["players"][1]["pos"] = "O30"
        st, ev = appear(st, "take_key")
        seat = st.data["gk"]["calling"]
        deadline = st.data["gk"]["deadline"]
        with pytest.raises(IllegalAction):
            act(st, SYSTEM, "gk late", deadline - 1)
        a, ev = act(st, SYSTEM, "gk late", deadline)
        pl = a.data["players"][seat]
        punished = (len(pl["rack"]) < len(st.data["players"][seat]["rack"]) or pl["hole"]
                    or pl["pos"] == HEADSTONES[seat])
        assert punished and ev[0].kind == "gatekeeper"
        assert pl["rack"].count("green") == 0 and pl["rack"].count("yellow") == 0
        # answering after the deadline is also too late
        b, ev2 = act(st, seat, "yes", deadline + 1)
        assert "YES" not in texts(ev2) and b.data["gk"]["calling"] is None


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_every_order(order):
    st = gk_state(2)
    d = st.data
    d["players"][0].update(pos="O33", rack=["red", "blue", "green"])
    d["players"][1].update(pos="R2-2", rack=[])
    d["players"][2].update(pos="O21", hole=True, waited=True, rack=[])
    for c in ("red", "blue", "green"):
        d["realm_keys"][COLOURS.index(c)] -= 1
    if order == "inside_catch":
        pass
    st, ev = appear(st, order)
    d = st.data
    seat = d["gk"]["calling"]
    if ORDERS[order]["call"]:
        assert seat is not None and seat != 2  # never someone in a Black Hole
        st, ev = act(st, seat, "yes", d["gk"]["deadline"] - 1)
        d = st.data
    pl = d["players"]
    if order == "dice":
        assert pl[seat]["must_dice"] in (1, 2)
    elif order == "must_roll":
        assert pl[seat]["must_roll"] in range(1, 7)
        assert GAME.prompt(st, seat) is None  # he is still on screen
    elif order == "take_key":
        assert pl[1]["rack"] == ["yellow"]
    elif order == "lose_key":
        assert len(pl[0]["rack"]) == 2 and sum(d["realm_keys"]) == 34
    elif order == "remove_key":
        assert len(pl[0]["rack"]) == 2 and sum(d["removed"].values()) == 1
    elif order == "black_hole":
        assert pl[0]["hole"] and pl[0]["pos"] == "O21"
    elif order in ("headstone",):
        assert pl[seat]["pos"] == HEADSTONES[seat]
    elif order == "inside_catch":
        assert seat == 1 and pl[1]["pos"] == HEADSTONES[1]
    elif order == "all_headstones":  # seat 2 is in a Black Hole: out of the game, it stays
        assert [x["pos"] for x in pl] == HEADSTONES[:2] + ["O21"] and pl[2]["hole"]
    elif order == "release":
        assert not pl[2]["hole"]
    elif order == "fate":
        assert any(e.kind == "fate" for e in ev)
    elif order == "chosen":
        assert d["chosen"] == seat and GAME.view(st, None)["players"][seat]["chosen_one"]
    elif order == "taunt":
        assert ev[0].kind == "gatekeeper"


def test_all_play_stops_while_he_is_on_screen():
    """Only his own timer runs: no Time card or clock end fires, and nobody's turn is timed."""
    st = gk_state()
    st.data["players"][0]["time_cards"] = ["T14"]
    st.data["gk"]["next"] = st.data["clock"]["end"] - 1
    due_card = GAME.time_due(st.data, "T14")
    st, _ = appear(st, "chosen")
    assert GAME.to_move(st) == st.data["gk"]["calling"] and GAME.paused(st)
    assert [t["action"] for t in GAME.timers(st)] == ["gk late"]
    late = st.data["gk"]["deadline"]
    for action in ("time T14", "clock end"):
        with pytest.raises(IllegalAction, match="Gatekeeper"):
            act(st, SYSTEM, action, max(late, due_card) + 10)
    # the clock runs out while he waits: the called player may still answer him
    seat = st.data["gk"]["calling"]
    st, ev = act(st, seat, "yes", late - 0.5)
    assert not st.over and st.data["chosen"] == seat
    assert [t["action"] for t in GAME.timers(st)] == ["gk leave"]
    (leave,) = GAME.timers(st)
    st, _ = act(st, SYSTEM, "gk leave", leave["due"])
    assert not GAME.paused(st) and GAME.to_move(st) == st.data["current"]
    overdue = [t["action"] for t in GAME.timers(st) if t["due"] <= leave["due"]]
    assert {"clock end", "time T14"} <= set(overdue)


def test_only_the_called_seat_may_answer():
    st = gk_state()
    st, _ = appear(st, "fate")
    seat = st.data["gk"]["calling"]
    prompts = {s: GAME.prompt(st, s) for s in range(st.seats)}
    assert [s for s, pr in prompts.items() if pr is not None] == [seat]
    for other in set(range(st.seats)) - {seat}:
        with pytest.raises(IllegalAction):
            act(st, other, "yes", st.data["gk"]["deadline"] - 1)


def test_the_gatekeeper_or_fate_can_impose_the_number_of_dice():
    st = gk_state()
    st, _ = appear(st, "dice")
    seat = st.data["gk"]["calling"]
    n = st.data["gk"]["order"]["number"]
    line = render("en", st.data["gk"]["line"])
    assert "{dice}" not in line and ("one die" if n == 1 else "both dice") in line
    st, _ = act(st, seat, "yes", st.data["gk"]["deadline"] - 1)
    st.data["gk"].update(on=False, leave_at=None, next=T0 + 10**6)
    st.data["current"] = seat
    assert [c.action for c in GAME.prompt(st, seat).choices if c.action.startswith("roll")] == [f"roll {n}"]
    with pytest.raises(IllegalAction, match="told to roll"):
        act(st, seat, f"roll {3 - n}")
    st, ev = act(st, seat, f"roll {n}")
    assert st.data["players"][seat]["must_dice"] is None and len(st.data["dice"]) == n
    # a Fate card does the same
    st = quiet(started())
    ev = []
    GAME._effect(st, 0, FATE["F25"], Rng(1), ev, on_turn=True)
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["roll 1"]
    assert GAME.view(st, None)["players"][0]["must_dice"] == 1


def test_his_ties_are_broken_at_random_not_by_seat():
    picked = {"leader": set(), "trailer": set()}
    for seed in range(40):
        st = gk_state(seed)
        d = st.data
        d["players"][0]["rack"] = ["red"]
        d["players"][1]["rack"] = ["red"]
        d["realm_keys"][0] -= 2
        after, _ = appear(st, "lose_key")  # seats 0 and 1 lead with one key each
        picked["leader"].add(after.data["gk"]["calling"])
        d["players"][1]["rack"] = []
        d["realm_keys"][0] += 1
        after, _ = appear(st, "take_key")  # seats 1 and 2 trail with none
        picked["trailer"].add(after.data["gk"]["calling"])
    assert picked == {"leader": {0, 1}, "trailer": {1, 2}}


def test_must_roll_one_try_per_turn():
    st = quiet(started())
    st.data["players"][0]["must_roll"] = 5
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["try"]
    force(st, 2)
    a, _ = act(st, 0, "try")
    assert a.data["current"] == 1 and a.data["players"][0]["must_roll"] == 5
    force(st, 5)
    b, _ = act(st, 0, "try")
    assert b.data["current"] == 0 and b.data["players"][0]["must_roll"] is None
    assert "roll 2" in [c.action for c in GAME.prompt(b, 0).choices]


def test_remove_key_never_takes_the_black_key():
    st = quiet(started())
    st.data["black_key"] = {"holder": 0, "on_board": False}
    ev = []
    GAME._carry_out(st, "remove_key", 0, {}, Rng(1), ev)
    assert st.data["black_key"]["holder"] == 0 and sum(st.data["removed"].values()) == 0


def test_pause_and_resume_shift_every_due_time():
    st = gk_state()
    st.data["players"][0]["time_cards"] = ["T06"]
    before = {t["id"]: t["due"] for t in GAME.timers(st)}
    st, _ = act(st, SYSTEM, "pause", T0 + 5)
    assert GAME.timers(st) == [] and GAME.view(st, None)["phase"] == "paused"
    assert GAME.to_move(st) is None and GAME.prompt(st, 0) is None
    with pytest.raises(IllegalAction):
        act(st, 0, "roll 1", T0 + 6)
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "gk appear", T0 + 10**5)
    with pytest.raises(IllegalAction):
        act(st, SYSTEM, "pause", T0 + 7)
    st, _ = act(st, SYSTEM, "resume", T0 + 105)
    after = {t["id"]: t["due"] for t in GAME.timers(st)}
    assert after == {k: v + 100 for k, v in before.items()}
    # also the answer deadline while he waits for an answer
    st, _ = appear(st, "chosen")
    dl = st.data["gk"]["deadline"]
    st, _ = act(st, SYSTEM, "pause", dl - 2)
    st, _ = act(st, SYSTEM, "resume", dl + 50)
    assert st.data["gk"]["deadline"] == dl + 52


# ------------------------------------------------------------------ the Well

def well_state(chosen=None):
    st = quiet(started())
    d = st.data
    d["players"][0].update(pos="WELL", rack=list(COLOURS))
    d["realm_keys"] = [5] * 6
    d["chosen"] = chosen
    return st


def test_head_start_keys_by_minutes_per_player():
    for seats, minutes, head in ((6, 20, 4), (4, 20, 3), (3, 20, 1), (4, 40, 0)):
        st = setup(GAME, seats, {"minutes": minutes}, 1)
        d = st.data
        for s, pl in enumerate(d["players"]):
            assert len(pl["rack"]) == head and COLOURS[s] not in pl["rack"]
        for i, c in enumerate(COLOURS):
            held = sum(pl["rack"].count(c) for pl in d["players"])
            assert d["realm_keys"][i] + held == 6


def test_the_gatekeeper_fills_the_well_with_his_own_fears():
    for seats, minutes, fears in ((6, 20, 6), (4, 40, 8), (3, 60, 30)):
        st = started(seats=seats, minutes=minutes)
        assert GAME.view(st, None)["fears_in_well"] == fears
    st = quiet(st)
    d = st.data
    d["players"][0].update(pos="WELL", rack=list(COLOURS))
    d["realm_keys"] = [5] * 6
    st.rng = next(r for r in range(1000) if d["well"][Rng(r).below(len(d["well"]))] >= 3)
    st, ev = act(st, 0, "read")
    assert "Gatekeeper's own fears" in texts(ev) and len(st.data["read"]) == 1
    assert st.data["players"][0]["pos"] == HEADSTONES[0]  # 20 minutes each: a miss sends you home
    assert {0, 1, 2} <= set(st.data["well"]) and len(st.data["well"]) == 29


def test_he_has_enough_fears_of_his_own_and_they_fit_the_well():
    from games.atmosfear.engine import RULES
    most = max(n for _, n in RULES["well_fears"]) - GAME.min_seats
    for lang in LANGUAGES:
        fears = [render(lang, f) for f in DECOYS]
        assert len(set(fears)) >= most
        assert all(0 < len(f) <= RULES["fear_max_chars"] for f in fears), lang


def test_a_miss_at_the_well_waits_there_when_time_is_short():
    st = quiet(started(seats=6, minutes=20))  # 3.3 minutes each
    d = st.data
    d["players"][0].update(pos="WELL", rack=list(COLOURS))
    d["realm_keys"] = [5] * 6
    st.rng = next(r for r in range(1000) if d["well"][Rng(r).below(len(d["well"]))] != 0)
    st, ev = act(st, 0, "read")
    assert st.data["players"][0]["pos"] == "WELL" and st.data["current"] == 1
    st.data["current"] = 0
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["read"]


def test_well_reader_is_chosen_one_or_their_left():
    st = well_state(chosen=1)
    assert GAME.reader(st.data, 0) == 1
    st = well_state(chosen=0)
    assert GAME.reader(st.data, 0) == 1
    st = well_state(chosen=2)
    assert GAME.reader(st.data, 2) == 0


def test_the_chosen_one_draws_the_fear_for_the_player_at_the_well():
    """The Chosen One's duty: when the player at the Well asks for their fear, the Chosen One
    (or the player on their left if it is them) draws it; meanwhile the waiter can only wait."""
    st = well_state(chosen=2)
    assert GAME.to_move(st) == 0 and [c.action for c in GAME.prompt(st, 0).choices] == ["read"]
    st, ev = act(st, 0, "read")
    assert "{p2}" in texts(ev) and st.data["current"] == 0 and not st.data["read"]
    assert GAME.to_move(st) == 2 and GAME.prompt(st, 0) is None
    assert [c.action for c in GAME.prompt(st, 2).choices] == ["read"]
    assert [c.action for c in GAME.choices(st, 0)] == []
    refused(st, 0, "read", "wait")
    refused(st, 1, "read")
    st.data["well"] = [0]
    won, ev = act(st, 2, "read")
    assert won.over and won.result["winners"] == [0] and "The Chosen One, {p2}," in texts(ev)
    # the Chosen One waiting there: the player on their left draws
    st, _ = act(well_state(chosen=0), 0, "read")
    assert GAME.to_move(st) == 1 and [c.action for c in GAME.prompt(st, 1).choices] == ["read"]
    # a Chosen One in a Black Hole is out of the game: the Gatekeeper draws at once
    st = well_state(chosen=2)
    st.data["players"][2].update(hole=True, pos="O54")
    st, ev = act(st, 0, "read")
    assert "The Gatekeeper himself" in texts(ev) and len(st.data["read"]) == 1


def test_well_own_fear_wins():
    st = well_state(chosen=0)
    st.data["well"] = [0]
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["read"]
    st, _ = act(st, 0, "read")
    st, ev = act(st, 1, "read")  # the Chosen One's left draws
    assert st.over and st.result["winners"] == [0] and GAME.view(st, None)["winner"] == 0
    assert "fear number 0" in texts(ev) and "{p1}" in texts(ev)


def test_well_other_fear_is_discarded_and_player_sent_home():
    st = well_state(chosen=2)
    st.data["well"] = [1, 0]
    st.rng = next(s for s in range(1000) if Rng(s).below(2) == 0)
    st, _ = act(st, 0, "read")
    st, ev = act(st, 2, "read")  # the Chosen One draws
    v = GAME.view(st, None)
    assert not st.over and v["fears_read"] == ["fear number 1"] and v["fears_in_well"] == 1
    assert st.data["players"][0]["pos"] == HEADSTONES[0] and st.data["current"] == 1
    assert not GAME.qualified(st.data, 1)


# ------------------------------------------------------------------ lines and data

def test_gatekeeper_lines_are_many_varied_and_well_formed():
    allowed = {"name", "minutes", "number", "dice"}
    for lang in LANGUAGES:
        every = [catalog(lang).gettext(id) for group in LINES.values() for id in group]
        assert len(set(every)) >= 60
        for line in every:
            assert set(re.findall(r"{(\w*)}", line)) <= allowed, line
    for order in ORDERS:
        if order != "taunt":
            assert LINES[order]
    for pun in GK["punishment"]:
        assert LINES["punish_" + pun["kind"]]


def test_harbingers_and_colours():
    assert GAME.colours[:2] == ("red", "yellow") and NAMES[:2] == ("Elizabeth Bathory", "Khufu")
    assert len(set(GAME.colours)) == 6 and len(GAME.colour_rgb) == 6
    assert len(FLIGHTS) >= 2 and len(HOLES) == 2
    v = GAME.view(started(), None)
    kinds = {s["kind"] for s in v["board"]["outer"]}
    assert kinds == {"plain", "headstone", "key", "black_key", "black_hole", "duel", "flight", "fate",
                     "time", "branch"}
    assert len(v["board"]["radials"]) == 6 and v["board"]["well"] == "WELL"


def test_engine_never_reads_shared_folder():
    from pathlib import Path
    for path in (Path(__file__).resolve().parents[1] / "games" / "atmosfear").rglob("*.py"):
        assert "/work/shared" not in path.read_text(encoding="utf-8")


def test_rules_page_sections_are_short_and_match_data():
    from pathlib import Path
    from games.atmosfear.engine import RULES
    text = (Path(__file__).resolve().parents[1] / "docs" / "games" / "atmosfear.md").read_text()
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    secs = {p.split("\n", 1)[0].strip(): p for p in parts}
    for topic in ("Overview", "Setup", "Board", "Turn", "Stones", "Black Holes", "The Gatekeeper",
                  "Winning", "House rules", "Commands"):
        assert topic in secs
    for name, body in secs.items():
        assert len("## " + body) < 1800, name
    for name in ("well_miss", "head_start", "well_fears"):
        assert f"`{name}`" in secs["Balance"], name
    window = secs["The Gatekeeper"].replace("\n", " ")
    assert all(f"{seconds} " in window for seconds in RULES["gk_answer_seconds"])
    assert f"{RULES['gk_answer_seconds'][0]} seconds by default" in window
    for verb in GAME.verbs:
        assert f"`{verb}" in secs["Commands"], verb

"""Key to the Kingdom: one test per rule, on constructed positions with scripted dice.

Hazard tests are named for the hazard and the branch of the handbook they check.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from data.locales import render
from games.core import Rng
from games.kingdom import GAME
from games.kingdom.board import BOARD
from games.kingdom.hazards import HAZARDS
from games.kingdom.stock import TREASURE_NAMES
from tests.kingdom_helpers import (act, actions, en, fresh, in_hazard, me, next_turn_of, position, put,
                                   safe_demon, task_at, text)
from tests.rules_helpers import refused

BOARD_DOC = Path(__file__).resolve().parents[1] / "data" / "kingdom" / "rules.md"


def cross(st, hazard, dice, *more):
    return act(st, 0, f"cross {hazard}", *(["roll"] * len(dice) if not more else more), dice=dice)


# ============================================================ the goal and setup
def test_setup_hides_one_treasure_per_key_location_and_the_cobra_among_lost_holders():
    st = fresh(4)
    d = st.data
    assert sorted(d["locations"]) == sorted(BOARD.locations)
    assert sorted(d["locations"].values()) == sorted(["key", "crown", "chalice", "orb", "sceptre", "amulet"])
    assert d["lost_treasure"] == ["cobra"]
    assert all(len(pl["equip"]) == 3 and pl["at"] == "gate" and not pl["hand"] for pl in d["players"])
    public = GAME.view(st, None)
    assert set(public["locations"].values()) == {True}  # which Treasure is where: nobody knows


def test_escaping_through_the_gate_with_the_key_and_another_treasure_wins():
    st = position("h1", hand=["key", "orb"])
    st.data["demon"] = "h7"
    st, ev = act(st, 0, "roll", dice=[2])          # Demon King h7 -> one of two; then move
    if st.data["phase"] == "demon":
        st, ev2 = act(st, 0, actions(st)[0])
    assert "move gate" in actions(st)              # the Gate: no exact count needed to escape
    st, ev = act(st, 0, "move gate")
    assert st.over and st.result["winners"] == [0]


def test_the_gate_is_no_way_out_without_the_key_and_another_treasure():
    st = position("h1", hand=["key"])
    st.data["demon"] = "h7"
    st, _ = act(st, 0, "roll", dice=[3])
    if st.data["phase"] == "demon":
        st, _ = act(st, 0, actions(st)[0])
    assert "move gate" in actions(st)              # offered to all: the buttons tell nothing
    st, _ = act(st, 0, "move gate")
    assert not st.over and me(st)["at"] == "gate" and st.data["current"] == 1


def test_the_round_limit_ends_the_game_with_no_winner():
    st = fresh(2, rounds=50)
    st.data["round"] = 50
    st.data["current"] = 1
    put(st, 1, "h3")
    st.data["demon"] = "h8"
    st, _ = act(st, 1, "roll", dice=[1])
    while not st.over:
        st, _ = act(st, 1, actions(st, 1)[0])
    assert st.result["winners"] == [] and "Demon King" in render("en", st.result["reason"])


# ============================================================ movement
def test_after_a_throw_the_demon_king_moves_first_then_the_adventurer():
    st = position("gate")
    st, ev = act(st, 0, "roll", dice=[2])
    assert st.data["phase"] == "demon"
    assert sorted(actions(st)) == ["demon h1", "demon h2"] or all(a.startswith("demon") for a in actions(st))
    refused(GAME, st, 0, "move hs", "can't")
    st, _ = act(st, 0, actions(st)[0])
    assert st.data["phase"] == "move" and "move h1" in actions(st)


def test_a_throw_never_changes_direction():
    st = fresh()
    d = st.data
    got = BOARD.destinations(d["fold"], "h3", 2, demon="ht")
    assert "h3" not in got and set(got) == {"h1", "h5", "b6"}


def test_nobody_passes_or_lands_on_the_demon_king():
    st = fresh()
    d = st.data
    got = BOARD.destinations(d["fold"], "h3", 2, demon="h2")
    assert "h1" not in got and "h2" not in got and "h5" in got


def test_a_white_dagger_stops_the_move_and_keeps_the_points_left():
    st = fresh()
    got = BOARD.destinations(st.data["fold"], "h5", 4, demon="ht")
    assert got["bone_a"] == 1       # h5 b1 b2 bone_a: 3 steps, 1 point left over


def test_a_key_location_the_ring_and_a_whirlpool_need_no_exact_count():
    st = fresh()
    put(st, 0, "h6")
    st.data["demon"] = "h10"
    assert "ring" in GAME.move_targets(st.data, 0, 5)
    put(st, 0, "b3")
    assert "btk_n" in GAME.move_targets(st.data, 0, 6)
    put(st, 0, "b4")
    got = BOARD.destinations(st.data["fold"], "bp", 7, demon="ht")
    assert got["wpool"] == 6


def test_an_empty_key_location_needs_the_exact_count():
    st = position("b3")
    st.data["locations"]["btk_n"] = None
    assert "btk_n" not in GAME.move_targets(st.data, 0, 6)
    assert "btk_n" in GAME.move_targets(st.data, 0, 1)


def test_the_demon_king_landing_on_or_beside_an_adventurer_sends_them_to_the_dungeon():
    st = position("gate", seats=3)
    put(st, 1, "h4")
    put(st, 2, "h2")
    st.data["demon"] = "h6"
    st, ev = act(st, 0, "roll", dice=[3])
    st, ev = act(st, 0, "demon h3")           # h3 is beside h4 and h2
    assert me(st, 1)["spot"] == "dungeon" and me(st, 2)["spot"] == "dungeon"
    assert task_at(st, 1) == "demon_dungeon.escape"
    assert "dungeon" in text(ev)


def test_the_gate_and_the_ring_are_safe_from_the_demon_king():
    st = position("h4", seats=3)
    put(st, 1, "ring")
    st.data["demon"] = "h7"
    st, ev = act(st, 0, "roll", dice=[1])
    st, ev = act(st, 0, "demon ht")                # beside the Ring
    assert me(st, 1)["spot"] is None
    near_gate = set(BOARD.neighbours("gate", st.data["fold"])) | {"gate"}
    assert not near_gate & BOARD.demon             # he never comes down the Gate road


def test_the_roller_caught_by_their_own_demon_king_loses_the_move():
    st = position("h3")
    st.data["demon"] = "h6"
    st, ev = act(st, 0, "roll", dice=[2])
    st, ev = act(st, 0, "demon h4")
    assert me(st, 0)["spot"] == "dungeon" and st.data["current"] == 1


def test_adventurers_may_share_a_space():
    st = position("h3")
    put(st, 1, "h1")
    st.data["demon"] = "ht"
    st, _ = act(st, 0, "roll", dice=[2])
    st, _ = act(st, 0, actions(st)[0])
    st, _ = act(st, 0, "move h1")
    assert me(st, 0)["at"] == me(st, 1)["at"] == "h1"


def test_landing_on_an_opponent_lets_you_steal_a_treasure_holder_unseen():
    st = position("h3")
    put(st, 1, "h1", hand=["crown"])
    st.data["demon"] = "ht"
    st, _ = act(st, 0, "roll", dice=[2])
    st, _ = act(st, 0, actions(st)[0])
    st, _ = act(st, 0, "move h1")
    assert actions(st) == ["steal blue", "leave"]
    st, ev = act(st, 0, "steal blue")
    assert me(st, 0)["hand"] == ["crown"] and me(st, 1)["hand"] == []
    public = [en(e.text) for e in ev if e.to is None]
    assert not any("Crown" in t for t in public)
    assert any("Crown" in en(e.text) and e.to == (0,) for e in ev)


def test_stealing_the_key_is_remembered_by_its_victim():
    st = position("h3")
    put(st, 1, "h1", hand=["key"])
    st.data["demon"] = "ht"
    st, _ = act(st, 0, "roll", dice=[2])
    st, _ = act(st, 0, actions(st)[0])
    st, _ = act(st, 0, "move h1", "steal blue")
    assert GAME.view(st, 1)["knows"] == {"key": 0}
    assert GAME.view(st, None)["knows"] is None


def test_stopping_on_a_supply_cache_draws_equipment():
    st = position("h1")
    st.data["demon"] = "ht"
    before = len(st.data["equip_deck"])
    st, ev = act(st, 0, "roll", dice=[2])
    st, _ = act(st, 0, actions(st)[0])
    st, ev = act(st, 0, "move h3")
    assert len(me(st)["equip"]) == 1 and len(st.data["equip_deck"]) == before - 1


def test_a_white_dagger_offers_the_hazard_or_ending_the_turn():
    st = position("b2")
    st.data["demon"] = "ht"
    st, _ = act(st, 0, "roll", dice=[1])
    st, _ = act(st, 0, actions(st)[0])
    st, _ = act(st, 0, "move bone_a")
    assert sorted(actions(st)) == ["cross bone_pit", "stay"]
    st2, _ = act(st, 0, "stay")
    assert st2.data["current"] == 1 and me(st2)["at"] == "bone_a"


def test_a_turn_that_starts_on_a_white_dagger_may_cross_or_move_away():
    st = position("bone_a")
    assert sorted(actions(st)) == ["cross bone_pit", "roll"]


def test_typed_actions_that_are_not_legal_are_refused_with_the_choices():
    st = position("bone_a")
    refused(GAME, st, 0, "cross swamp", "your choices", "Cross the Bone Pit")
    refused(GAME, st, 1, "roll", "not your turn")
    refused(GAME, st, 0, "", "your choices")


def later(st, seat=0):
    """The other adventurers pass; `seat` plays its next turn."""
    st = next_turn_of(st, 1 if seat == 0 else 0)
    return next_turn_of(st, seat)


def ended(st):
    return st.data["current"] != 0


# ============================================================ Bone Pit
def test_bone_pit_even_throw_leaps_to_the_far_white_dagger():
    st, ev = cross(position("bone_a"), "bone_pit", [4])
    assert me(st)["at"] == "bone_b" and me(st)["task"] is None and ended(st)


@pytest.mark.parametrize("face,skulls", [(1, 3), (3, 3), (5, 2), (7, 2)])
def test_bone_pit_odd_throw_drops_onto_the_red_or_grey_skull(face, skulls):
    st, ev = cross(position("bone_a"), "bone_pit", [face])
    assert task_at(st) == "bone_pit.climb" and me(st)["task"]["pos"] == skulls and ended(st)
    assert ("red skull" if skulls == 3 else "grey skull") in text(ev)


def test_bone_pit_climbing_one_throw_per_turn_odd_climbs_even_stays():
    st, _ = cross(position("bone_a"), "bone_pit", [5])           # grey skull: 2 skulls to climb
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 2 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[3])
    assert me(st)["task"]["pos"] == 1 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[7])
    assert me(st)["task"] is None and me(st)["at"] == "bone_b" and ended(st)


# ============================================================ Bridge of Glass
def test_bridge_of_glass_five_or_more_crosses():
    st, _ = cross(position("glass_a"), "bridge_of_glass", [5])
    assert me(st)["at"] == "glass_b" and ended(st)


def with_tom(st):
    st.data["fold"]["east"] = "out"
    return st


def glass(equip):
    return with_tom(position("glass_a", equip))


def test_bridge_of_glass_cracks_under_four_net_rope_or_hook_escapes_on_four_to_six():
    st, ev = act(glass(["rope"]), 0, "cross bridge_of_glass", "roll", "roll", dice=[2, 6])
    assert me(st)["at"] == "glass_b" and me(st)["equip"] == ["rope"] and ended(st)
    assert "quicksand" in text(ev)


def test_bridge_of_glass_gear_throw_fails_and_waits_for_next_turn():
    st, _ = act(glass(["net"]), 0, "cross bridge_of_glass", "roll", "roll", dice=[1, 8])
    assert task_at(st) == "bridge_of_glass.sand" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "glass_b" and me(st)["equip"] == ["net"]


def test_bridge_of_glass_gear_fails_then_the_shield_buys_the_way_out():
    st, _ = act(glass(["hook", "shield"]), 0, "cross bridge_of_glass", "roll", "use gear", "roll", dice=[3, 7])
    assert sorted(actions(st)) == ["use shield", "use wait"]
    st, _ = act(st, 0, "use shield")
    assert me(st)["at"] == "glass_b" and me(st)["equip"] == ["hook"]
    assert {"item": "shield", "owner": 0} in st.data["lost_equip"]


def test_bridge_of_glass_without_net_rope_or_hook_nine_in_two_throws_escapes_losing_one():
    st, _ = act(glass(["sword"]), 0, "cross bridge_of_glass", "roll", "roll", "roll", dice=[4, 5, 4])
    assert me(st)["at"] == "glass_b" and me(st)["equip"] == []


def test_bridge_of_glass_without_gear_eight_or_less_stays_stuck():
    st, _ = act(glass([]), 0, "cross bridge_of_glass", "roll", "roll", "roll", dice=[1, 4, 4])
    assert task_at(st) == "bridge_of_glass.sand" and ended(st)


# ============================================================ Broken Bridge
def bridge(equip=()):
    return with_tom(position("broken_a", list(equip)))


def test_broken_bridge_three_throws_that_reach_the_far_side_cross():
    st, _ = act(bridge(), 0, "cross broken_bridge", "roll", "roll", "roll", dice=[2, 2, 6])
    assert me(st)["at"] == "broken_b" and ended(st)


def test_broken_bridge_short_after_three_throws_goes_back_to_the_start():
    st, ev = act(bridge(), 0, "cross broken_bridge", "roll", "roll", "roll", dice=[2, 2, 2])
    assert me(st)["at"] == "broken_a" and me(st)["task"] is None and ended(st)


def test_broken_bridge_missing_plank_splashes_then_one_stone_throw_per_turn():
    st, ev = act(bridge(), 0, "cross broken_bridge", "roll", dice=[3])
    assert task_at(st) == "broken_bridge.paddle" and "Splash" in text(ev) and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 2 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "broken_b"


def squid(equip):
    st = in_hazard(bridge(equip), 0, "broken_bridge", "paddle", near="broken_a", lane="stones", pos=1)
    st, ev = act(st, 0, "roll", dice=[2])
    return st, ev


def test_broken_bridge_squid_throw_the_shield():
    st, ev = squid(["shield", "food"])
    assert "Giant Squid" in text(ev)
    st, _ = act(st, 0, "use shield")
    assert me(st)["equip"] == ["food"] and me(st)["task"]["pos"] == 4 and ended(st)


def test_broken_bridge_squid_give_it_the_food():
    st, _ = squid(["food", "sword"])
    st, _ = act(st, 0, "use food")
    assert me(st)["equip"] == ["sword"] and task_at(st) == "broken_bridge.paddle"


def test_broken_bridge_squid_fight_two_evens_in_four_keeps_the_weapon():
    st, _ = squid(["axe"])
    st, _ = act(st, 0, "roll", "roll", "roll", dice=[2, 3, 8])
    assert me(st)["equip"] == ["axe"] and me(st)["task"]["pos"] == 4


def test_broken_bridge_squid_fight_fails_and_waits_to_try_again():
    st, _ = squid(["sword"])
    st, _ = act(st, 0, "roll", "roll", "roll", dice=[1, 3, 5])   # two evens no longer possible
    assert task_at(st) == "broken_bridge.squid" and ended(st)


def test_broken_bridge_squid_without_equipment_seven_or_eight_escapes():
    st, _ = squid(["rope"])
    st, _ = act(st, 0, "roll", dice=[7])
    assert me(st)["equip"] == [] and me(st)["task"]["pos"] == 4


def test_broken_bridge_squid_without_equipment_six_or_less_stays():
    st, _ = squid([])
    st, _ = act(st, 0, "roll", dice=[6])
    assert task_at(st) == "broken_bridge.squid" and ended(st)


# ============================================================ Cyclops
def cyclops(equip=()):
    return with_tom(position("cyc_a", list(equip)))


def test_cyclops_axe_and_fire_he_carries_you_across():
    st, _ = act(cyclops(["axe", "fire"]), 0, "cross cyclops")
    assert me(st)["at"] == "cyc_b" and me(st)["equip"] == ["axe", "fire"] and ended(st)


def test_cyclops_give_him_another_piece_of_equipment():
    st, _ = act(cyclops(["rope", "fire"]), 0, "cross cyclops", "drop rope")
    assert me(st)["at"] == "cyc_b" and me(st)["equip"] == ["fire"]


def test_cyclops_no_equipment_a_one_and_he_carries_you():
    st, _ = act(cyclops(), 0, "cross cyclops", "roll", dice=[1])
    assert me(st)["at"] == "cyc_b"


def test_cyclops_no_equipment_other_throws_move_across_the_stones():
    st, _ = act(cyclops(), 0, "cross cyclops", "roll", dice=[2])
    assert me(st)["task"]["pos"] == 2 and ended(st)
    st = later(st)
    assert actions(st) == ["roll"] and me(st)["task"]["pos"] == 2     # each turn's stone needs a throw
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 4 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "cyc_b" and me(st)["task"] is None


def test_cyclops_third_rock_drops_you_in_the_water_and_arrows_lead_to_the_whirlpool():
    st, ev = act(cyclops(), 0, "cross cyclops", "roll", dice=[3])
    assert task_at(st) == "cyclops.swim" and "drops" in text(ev)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 2
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["at"] == "tp" and me(st)["task"] is None


# ============================================================ Demon Castle moat
def test_demon_castle_moat_two_to_eight_crosses():
    st, _ = cross(position("moat_a"), "demon_castle_moat", [2])
    assert me(st)["at"] == "moat_b"


def test_demon_castle_moat_a_one_falls_in_and_next_turn_two_to_eight_climbs_out():
    st, ev = cross(position("moat_a"), "demon_castle_moat", [1])
    assert task_at(st) == "demon_castle_moat.climb" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[8])
    assert me(st)["at"] == "moat_b"


def crocs(equip=(), hand=()):
    st = in_hazard(position("moat_a", list(equip), hand=list(hand)), 0, "demon_castle_moat", "climb",
                   near="moat_a", lane="moat", pos=1)
    st, ev = act(st, 0, "roll", dice=[1])
    assert "crocodiles" in text(ev)
    return st


def test_demon_castle_moat_crocodiles_take_the_food():
    st = crocs(["food", "sword"])
    st, _ = act(st, 0, "use food")
    assert me(st)["at"] == "moat_b" and me(st)["equip"] == ["sword"]


def test_demon_castle_moat_crocodiles_sword_and_an_eight():
    st = crocs(["sword"])
    st, _ = act(st, 0, "use sword", "roll", dice=[8])
    assert me(st)["at"] == "moat_b" and me(st)["equip"] == ["sword"]


def test_demon_castle_moat_crocodiles_one_method_per_turn():
    st = crocs(["sword"])
    st, _ = act(st, 0, "use sword", "roll", dice=[7])
    assert task_at(st) == "demon_castle_moat.crocs" and ended(st)


def test_demon_castle_moat_crocodiles_a_one_costs_a_treasure():
    st = crocs([], hand=["orb"])
    st, ev = act(st, 0, "roll", dice=[1])
    assert me(st)["at"] == "moat_b" and me(st)["hand"] == [] and "orb" in st.data["lost_treasure"]
    assert not any("Orb" in en(e.text) for e in ev if e.to is None)


# ============================================================ Evil Tower bridge
def tower(equip=()):
    st = position("etb_a", list(equip))
    st.data["fold"]["west"] = "out"
    return st


def test_evil_tower_bridge_first_to_arrive_throws_six_builds_it_all():
    st, ev = cross(tower(), "evil_tower_bridge", [6])
    assert me(st)["at"] == "etb_b" and st.data["bridge"]["built"] == 6


def test_evil_tower_bridge_first_under_six_builds_that_many_and_finishes_next_turn():
    st, _ = cross(tower(), "evil_tower_bridge", [3])
    assert st.data["bridge"] == {"built": 3, "from": "etb_a"} and me(st)["task"]["pos"] == 3 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])       # 3 + 4 passes the 6 sections
    assert me(st)["at"] == "etb_b"


def test_evil_tower_bridge_unbuilt_section_falls_in_loses_equipment_and_takes_the_river():
    st, _ = cross(tower(["rope"]), "evil_tower_bridge", [3])
    st = later(st)
    st, ev = act(st, 0, "roll", dice=[2])      # lands on section 5: not built
    assert task_at(st) == "evil_tower_bridge.river" and me(st)["equip"] == [] and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "etb_b"


def test_evil_tower_bridge_seven_or_eight_does_not_count():
    st, ev = cross(tower(), "evil_tower_bridge", [7])
    assert st.data["bridge"]["built"] == 0 and task_at(st) == "evil_tower_bridge.arrive" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[6])
    assert me(st)["at"] == "etb_b"


def test_evil_tower_bridge_later_arrivals_keep_rolling_until_across_or_in():
    st = tower()
    st.data["bridge"] = {"built": 4, "from": "etb_a"}
    st2, _ = cross(st, "evil_tower_bridge", [2, 2, 3])
    assert me(st2)["at"] == "etb_b"
    st3, _ = cross(st, "evil_tower_bridge", [3, 2])
    assert task_at(st3) == "evil_tower_bridge.river"


def test_evil_tower_bridge_built_from_the_far_side_leaves_the_near_sections_unmade():
    st = tower()
    st.data["bridge"] = {"built": 2, "from": "etb_b"}
    st2, _ = cross(st, "evil_tower_bridge", [1])
    assert task_at(st2) == "evil_tower_bridge.river"
    st3, _ = cross(st, "evil_tower_bridge", [5, 2])
    assert me(st3)["at"] == "etb_b"


# ============================================================ Ice Caves
def ice(equip=()):
    return position("ice_a", list(equip))


def test_ice_caves_five_or_more_crosses():
    st, _ = cross(ice(), "ice_caves", [5])
    assert me(st)["at"] == "ice_b"


def test_ice_caves_frozen_fire_melts_the_ice_and_is_lost():
    st, _ = act(ice(["fire"]), 0, "cross ice_caves", "roll", "go ice_a", dice=[2])
    assert me(st)["at"] == "ice_a" and me(st)["equip"] == []


def test_ice_caves_frozen_axe_odd_escapes_keeping_it():
    st, _ = act(ice(["axe"]), 0, "cross ice_caves", "roll", "roll", "go ice_b", dice=[4, 3])
    assert me(st)["at"] == "ice_b" and me(st)["equip"] == ["axe"]


def test_ice_caves_frozen_axe_even_escapes_but_loses_it():
    st, _ = act(ice(["axe"]), 0, "cross ice_caves", "roll", "roll", "go ice_b", dice=[4, 6])
    assert me(st)["at"] == "ice_b" and me(st)["equip"] == []


def test_ice_caves_frozen_with_fire_and_axe_you_choose():
    st, _ = act(ice(["axe", "fire"]), 0, "cross ice_caves", "roll", dice=[1])
    assert sorted(actions(st)) == ["use axe", "use fire"]


def test_ice_caves_frozen_without_fire_or_axe_a_four_per_turn_then_lose_one():
    st, _ = act(ice(["net"]), 0, "cross ice_caves", "roll", "roll", dice=[1, 3])
    assert task_at(st) == "ice_caves.chip" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", "go ice_b", dice=[4])
    assert me(st)["at"] == "ice_b" and me(st)["equip"] == []


# ============================================================ Living Forest
def forest(equip=()):
    return position("forest_a", list(equip))


def test_living_forest_throws_until_across():
    st, _ = cross(forest(), "living_forest", [2, 7])
    assert me(st)["at"] == "forest_b"


def test_living_forest_branch_axe_odd_in_three():
    st, ev = act(forest(["axe"]), 0, "cross living_forest", "roll", "roll", "roll", dice=[3, 2, 5])
    assert "branch" in text(ev) and me(st)["at"] == "forest_b" and me(st)["equip"] == ["axe"]


def test_living_forest_branch_sword_even_in_three():
    st, _ = act(forest(["sword"]), 0, "cross living_forest", *["roll"] * 5, dice=[2, 4, 1, 3, 6])
    assert me(st)["at"] == "forest_b" and me(st)["equip"] == ["sword"]


def test_living_forest_branch_fire_a_six():
    st, _ = act(forest(["fire"]), 0, "cross living_forest", "roll", "roll", dice=[6, 6])
    assert me(st)["at"] == "forest_b" and me(st)["equip"] == ["fire"]


def test_living_forest_branch_failure_waits_and_may_choose_another_way():
    st, _ = act(forest(["fire", "axe"]), 0, "cross living_forest", "roll", "use fire", "roll", dice=[3, 5])
    assert task_at(st) == "living_forest.caught" and ended(st)
    st = later(st)
    assert sorted(actions(st)) == ["use axe", "use fire"]


def test_living_forest_branch_without_axe_sword_or_fire_a_three_then_lose_one():
    st, _ = act(forest(["rope"]), 0, "cross living_forest", "roll", "roll", dice=[6, 4])
    assert task_at(st) == "living_forest.wriggle" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[3])
    assert me(st)["at"] == "forest_b" and me(st)["equip"] == []


# ============================================================ Magic Rainbow and the Wizard of Plenty
def et(at, equip=(), **kw):
    st = position(at, list(equip), **kw)
    st.data["fold"]["west"] = "out"
    return st


def test_magic_rainbow_six_or_more_crosses_to_the_wizard():
    st, _ = cross(et("rain_a"), "magic_rainbow", [6])
    assert me(st)["at"] == "wiz" and ended(st)
    st = later(st)
    assert sorted(actions(st)) == ["cross beam_bridge", "cross magic_rainbow", "visit"]


def test_magic_rainbow_short_on_the_way_to_the_wizard_must_go_round_before_trying_again():
    st, ev = cross(et("rain_a"), "magic_rainbow", [5])
    assert me(st)["at"] == "rain_a" and me(st)["barred"] == "magic_rainbow" and ended(st)
    st = later(st)
    assert actions(st) == ["roll"]                        # no retry from where you stand
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move e6")
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move rain_a")                     # one step off and back is not round
    assert me(st)["barred"] == "magic_rainbow" and "cross magic_rainbow" not in actions(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[7])
    st = safe_demon(st)
    assert "move e7" in actions(st)                       # the far side of the Whirlpool section:
    st, _ = act(st, 0, "move e7")                         # no exact count needed
    assert me(st)["barred"] is None


def test_magic_rainbow_short_when_leaving_the_wizard_stays_on_his_dagger():
    st, ev = act(et("wiz"), 0, "cross magic_rainbow", "roll", dice=[2])
    assert me(st)["at"] == "wiz" and me(st)["barred"] is None and ended(st)
    st = later(st)
    assert "cross magic_rainbow" in actions(st)


def test_wizard_of_plenty_over_the_rainbow_and_back_in_four_returns_your_equipment_and_holders():
    st = et("wiz", ["sword"])
    st.data["lost_equip"] = [{"item": "rope", "owner": 0}, {"item": "net", "owner": 1}]
    st.data["lost_treasure"] = ["orb"]
    st, ev = act(st, 0, "visit")
    assert "take holder" in actions(st) and "done" in actions(st)
    st, ev = act(st, 0, "take holder", "roll", "roll", "roll", dice=[8, 4, 5])
    assert sorted(me(st)["equip"]) == ["rope", "sword"] and me(st)["hand"] == ["orb"]
    assert st.data["lost_equip"] == [{"item": "net", "owner": 1}] and me(st)["wizard_used"] and ended(st)


def test_wizard_of_plenty_failing_returns_one_piece_of_your_own_lost_equipment():
    st = et("wiz")
    st.data["lost_equip"] = [{"item": "rope", "owner": 0}, {"item": "axe", "owner": 0},
                             {"item": "net", "owner": 1}]
    st.data["lost_treasure"] = []
    st, ev = act(st, 0, "visit", "roll", "roll", "roll", "roll", dice=[1, 2, 3, 4])
    assert sorted(actions(st)) == ["done", "take axe", "take rope"]   # "returns": never a rival's
    refused(GAME, st, 0, "take net")
    st, _ = act(st, 0, "take rope")
    assert me(st)["equip"] == ["rope"] and ended(st)
    assert st.data["lost_equip"] == [{"item": "axe", "owner": 0}, {"item": "net", "owner": 1}]
    nothing = et("wiz")
    nothing.data["lost_equip"] = [{"item": "net", "owner": 1}]
    nothing.data["lost_treasure"] = []
    nothing, _ = act(nothing, 0, "visit", "roll", "roll", "roll", "roll", dice=[1, 2, 3, 4])
    assert ended(nothing) and nothing.data["lost_equip"] == [{"item": "net", "owner": 1}]


def test_wizard_of_plenty_only_one_try_per_game():
    st = et("wiz")
    me(st)["wizard_used"] = True
    assert "visit" not in actions(st)
    refused(GAME, st, 0, "visit", "your choices")


def visited():
    st = et("wiz")
    st.data["lost_treasure"] = []
    st, _ = act(st, 0, "visit", "roll", "roll", dice=[8, 8])
    return later(st)


def test_wizard_of_plenty_after_a_visit_the_rainbow_squares_count_as_spaces():
    st, _ = act(visited(), 0, "cross magic_rainbow", "roll", dice=[3])
    assert task_at(st) == "magic_rainbow.stroll" and me(st)["task"]["pos"] == 3 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[5])
    assert me(st)["at"] == "rain_a"


def test_wizard_of_plenty_leaving_by_the_rainbow_six_or_more_still_crosses():
    st, _ = act(visited(), 0, "cross magic_rainbow", "roll", dice=[6])
    assert me(st)["at"] == "rain_a" and me(st)["task"] is None and ended(st)


def test_wizard_of_plenty_leaving_by_the_rainbow_counts_on_past_its_white_dagger():
    st, _ = act(visited(), 0, "cross magic_rainbow", "roll", dice=[4])
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[6])                 # squares 5, 6, 7, the dagger, then 2 more
    assert me(st)["at"] == "rain_a" and st.data["phase"] == "move" and st.data["turn_info"]["die"] == 2
    assert "move h2" in actions(st) and not ended(st)


def test_wizard_cross_the_beam_bridge_away():
    st, _ = cross(et("wiz"), "beam_bridge", [2, 6])
    assert me(st)["at"] == "beam_b"


# ============================================================ Beam Bridge
def test_beam_bridge_even_throws_from_post_to_post_reach_the_wizard():
    st, ev = cross(et("beam_b"), "beam_bridge", [2, 4, 2])
    assert me(st)["at"] == "wiz" and ended(st)


def test_beam_bridge_odd_throw_lands_on_a_beam_and_falls_into_the_splash():
    st, ev = cross(et("beam_b"), "beam_bridge", [2, 3])
    assert task_at(st) == "beam_bridge.swim" and "beam" in text(ev) and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 2 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[5])
    assert me(st)["at"] == "wiz"


def fish(equip=()):
    st = in_hazard(et("beam_b", list(equip)), 0, "beam_bridge", "swim", near="beam_b", lane="stones", pos=1)
    st, ev = act(st, 0, "roll", dice=[3])
    assert "Giant Fish" in text(ev) and task_at(st) == "beam_bridge.escape" and ended(st)
    return later(st)


def test_beam_bridge_giant_fish_net_eight_or_more_in_two():
    st, _ = act(fish(["net"]), 0, "roll", "roll", dice=[4, 4])
    assert me(st)["equip"] == ["net"] and me(st)["task"]["pos"] == 5 and ended(st)


def test_beam_bridge_giant_fish_hook_fails_and_is_lost_but_you_move_on():
    st, _ = act(fish(["hook"]), 0, "roll", "roll", dice=[4, 4])
    assert me(st)["equip"] == [] and me(st)["task"]["pos"] == 5


def test_beam_bridge_giant_fish_without_net_or_hook_a_two_per_turn():
    st = fish(["rope"])
    st, _ = act(st, 0, "roll", dice=[3])
    assert task_at(st) == "beam_bridge.bare" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 5 and me(st)["equip"] == ["rope"]


# ============================================================ Rat Trap and Swamp
def test_rat_trap_even_crosses():
    st, _ = cross(position("rat_a"), "rat_trap", [2])
    assert me(st)["at"] == "rat_b"


def test_rat_trap_odd_with_rope_nine_in_two_climbs_out_keeping_it():
    st, _ = act(position("rat_a", ["rope"]), 0, "cross rat_trap", "roll", "roll", "roll", dice=[3, 5, 4])
    assert me(st)["at"] == "rat_b" and me(st)["equip"] == ["rope"]


def test_rat_trap_odd_without_rope_misses_three_turns_then_climbs_into_the_swamp():
    st, ev = cross(position("rat_a"), "rat_trap", [1])
    assert task_at(st) == "rat_trap.trapped" and ended(st)
    events = []
    for _ in range(3):                      # seat 1 plays; seat 0's turn is missed each time
        GAME.end_turn(st, Rng(1), events)
        assert st.data["current"] == 1 and task_at(st) == "rat_trap.trapped"
    assert text(events).count("misses a turn") == 3
    GAME.end_turn(st, Rng(1), events)       # the 4th turn: over the wall onto the grey stone
    assert task_at(st) == "swamp.wade" and me(st)["task"]["pos"] == 1 and st.data["current"] == 1
    assert "into the Swamp" in text(events)
    GAME.end_turn(st, Rng(1), events)
    assert st.data["current"] == 0 and actions(st) == ["roll"]


def test_rat_trap_rope_failure_also_misses_three_turns():
    st, _ = act(position("rat_a", ["rope"]), 0, "cross rat_trap", "roll", "roll", "roll", dice=[3, 4, 4])
    assert task_at(st) == "rat_trap.trapped" and me(st)["task"]["v"]["miss"] == 3


def test_rat_trap_after_the_missed_turns_you_start_the_swamp_on_its_first_grey_stone():
    st = in_hazard(position("rat_a"), 0, "rat_trap", "trapped", near="rat_a", miss=0)
    st = next_turn_of(next_turn_of(st, 1), 0)
    assert task_at(st) == "swamp.wade" and me(st)["task"]["pos"] == 1
    assert me(st)["task"]["near"] == "swamp_a" and me(st)["task"]["far"] == "swamp_b"
    st, _ = act(st, 0, "roll", "roll", dice=[2, 6])    # grey 3, then off the end
    assert me(st)["at"] == "swamp_b"


def test_swamp_throw_and_move_until_across():
    st, _ = cross(position("swamp_a"), "swamp", [1, 3, 5])
    assert me(st)["at"] == "swamp_b"


def test_swamp_red_stone_grappling_hook_keeps_rolling():
    st, ev = act(position("swamp_a", ["hook"]), 0, "cross swamp", "roll", "roll", "roll", dice=[2, 3, 5])
    assert "red stone" in text(ev) and me(st)["at"] == "swamp_b" and me(st)["equip"] == ["hook"]


def test_swamp_red_stone_hook_even_throw_onto_red_stops_the_turn():
    # 2: red (hook out); 3 onto red 5 with an odd throw: keep going; 2 onto red 7, even: stop
    st, _ = act(position("swamp_a", ["hook"]), 0, "cross swamp", "roll", "roll", "roll", dice=[2, 3, 2])
    assert task_at(st) == "swamp.red" and me(st)["task"]["pos"] == 7 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["at"] == "swamp_b" and me(st)["equip"] == ["hook"]


def test_swamp_red_stone_net_to_the_next_grey_stone_and_roll_on_at_once():
    st, _ = act(position("swamp_a", ["net"]), 0, "cross swamp", "roll", "roll", dice=[2, 7])
    assert me(st)["at"] == "swamp_b" and me(st)["equip"] == []


def test_swamp_red_stone_without_hook_or_net_lose_one_and_wait_on_the_next_grey_stone():
    st, _ = act(position("swamp_a", ["food"]), 0, "cross swamp", "roll", dice=[5])
    assert task_at(st) == "swamp.wade" and me(st)["task"]["pos"] == 6 and me(st)["equip"] == [] and ended(st)


# ============================================================ Ring of Stones
def ring_visit(entry_face, lost_equip=(), lost=(), demon="h12"):
    st = position("h4")
    st.data["demon"] = demon
    st.data["lost_equip"] = [{"item": i, "owner": 1} for i in lost_equip]
    st.data["lost_treasure"] = list(lost)
    st, _ = act(st, 0, "roll", dice=[entry_face])
    st = safe_demon(st)
    st, ev = act(st, 0, "move ring")
    return st


def test_ring_of_stones_needs_no_exact_count_and_grants_a_choice_of_magic():
    st = ring_visit(5)
    assert me(st)["at"] == "ring" and sorted(actions(st)) == ["use cards", "use deep"]


def test_ring_of_stones_three_lost_cards_chosen_next_turn_then_move_away_the_turn_after():
    st = ring_visit(5, lost_equip=["rope", "net"], lost=["crown"])
    st, _ = act(st, 0, "use cards")
    assert ended(st)
    st = later(st)
    assert sorted(actions(st)) == ["done", "take holder", "take net", "take rope"]
    st, ev = act(st, 0, "take rope", "take holder", "take net")
    assert sorted(me(st)["equip"]) == ["net", "rope"] and me(st)["hand"] == ["crown"] and ended(st)
    st = later(st)
    assert me(st)["task"] is None and actions(st) == ["roll"]


def test_ring_of_stones_deep_magic_the_throw_that_brought_you_counts():
    st = ring_visit(8, demon="h9")
    st, ev = act(st, 0, "use deep")
    assert me(st)["deep"] == 1 and st.data["deep_left"] == 1
    assert actions(st) == ["roll"] and not ended(st)    # roll and move out at once


def test_ring_of_stones_deep_magic_one_throw_per_turn_for_a_one_or_an_eight():
    st = ring_visit(5)
    st, _ = act(st, 0, "use deep")
    assert ended(st)
    st = later(st)
    st, _ = act(st, 0, "use roll", "roll", dice=[4])
    assert ended(st) and me(st)["deep"] == 0
    st = later(st)
    st, _ = act(st, 0, "use roll", "roll", dice=[1])
    assert me(st)["deep"] == 1 and actions(st) == ["roll"]


def test_ring_of_stones_giving_up_on_deep_magic_waits_a_turn():
    st = ring_visit(5)
    st, _ = act(st, 0, "use deep")
    st = later(st)
    st, _ = act(st, 0, "use giveup")
    assert me(st)["task"] is None and ended(st)


def test_ring_of_stones_no_deep_magic_left_only_cards():
    st = position("h4")
    st.data["deep_left"] = 0
    st.data["demon"] = "h12"
    st, _ = act(st, 0, "roll", dice=[5])
    st = safe_demon(st)
    st, _ = act(st, 0, "move ring")
    assert task_at(st) == "ring_of_stones.pick" and ended(st)


def test_the_cobra_bites_whoever_takes_it_and_slides_back():
    st = ring_visit(5, lost=["cobra"])
    me(st)["equip"] = ["sword"]
    st, _ = act(st, 0, "use cards")
    st = later(st)
    st, ev = act(st, 0, "take holder")
    assert "Cobra" in text(ev) and me(st)["hand"] == [] and st.data["lost_treasure"] == ["cobra"]
    assert me(st)["equip"] == [] and {"item": "sword", "owner": 0} in st.data["lost_equip"]


# ============================================================ Sleeping Giant and the dungeons
def test_sleeping_giant_across_in_two_throws():
    st, _ = cross(position("giant_a"), "sleeping_giant", [3, 4])
    assert me(st)["at"] == "giant_b" and ended(st)


def giant(equip):
    st, ev = act(position("giant_a", equip), 0, "cross sleeping_giant", "roll", "roll", dice=[2, 3])
    assert "Banshee Towers Dungeon" in text(ev)
    return st


def test_sleeping_giant_wakes_and_sword_fire_and_axe_threaten_him_same_turn():
    st = giant(["sword", "fire", "axe"])
    st, _ = act(st, 0, "go btk_s")                    # the only way: no choice to make
    assert me(st)["at"] == "btk_s" and sorted(me(st)["equip"]) == ["axe", "fire", "sword"]


def test_sleeping_giant_dungeon_net_climbs_out_on_an_even_number_one_throw_per_turn():
    st = giant(["net"])
    st, _ = act(st, 0, "roll", dice=[3])
    assert task_at(st) == "bt_dungeon.escape" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", "go btk_n", dice=[4])
    assert me(st)["at"] == "btk_n" and me(st)["equip"] == ["net"]


def test_sleeping_giant_dungeon_otherwise_give_up_one_piece_of_equipment():
    st = giant(["sword", "rope"])
    st, _ = act(st, 0, "drop rope", "go btk_n")
    assert me(st)["at"] == "btk_n" and me(st)["equip"] == ["sword"]


def test_sleeping_giant_dungeon_with_nothing_to_give_a_one_or_an_eight():
    st = giant([])
    st, _ = act(st, 0, "roll", dice=[8])
    assert actions(st) == ["go btk_n", "go btk_s"]


def test_demon_dungeon_gives_the_same_ways_out_at_the_gate():
    st = position("gate")
    put(st, 0, spot="dungeon", equip=["net", "food"], task=None)
    from games.kingdom import hazards as hzm
    me(st)["task"] = hzm.new_task("demon_dungeon")
    st.data["demon"] = "h1"
    st = later(st)
    assert actions(st) == ["roll"] and task_at(st) == "demon_dungeon.climb"   # the Net: an even number
    st, _ = act(st, 0, "roll", dice=[6])
    assert me(st)["at"] == "gate" and me(st)["spot"] is None   # out where he cannot reach


def test_leaving_the_demon_dungeon_onto_the_gate_with_the_key_and_another_treasure_wins():
    st = position("gate")
    put(st, 0, spot="dungeon", equip=["net"], hand=["key", "orb"], task=None)
    from games.kingdom import hazards as hzm
    me(st)["task"] = hzm.new_task("demon_dungeon")
    st.data["demon"] = "h1"
    st = later(st)
    st, ev = act(st, 0, "roll", dice=[6])
    assert st.over and st.result["winners"] == [0] and "escapes the Kingdom" in text(ev)


# ============================================================ Snake Pit
def test_snake_pit_eleven_or_more_in_three_throws_gets_round():
    st, _ = cross(et("snake_a"), "snake_pit", [4, 3, 5])
    assert me(st)["at"] == "snake_b"


def test_snake_pit_under_eleven_falls_in_grappling_hook_five_to_eight():
    st, ev = act(et("snake_a", ["hook"]), 0, "cross snake_pit", "roll", "roll", "roll", "roll", "go snake_a",
                 dice=[1, 2, 3, 7])
    assert "Snake Pit" in text(ev) and me(st)["at"] == "snake_a" and me(st)["equip"] == ["hook"]


def test_snake_pit_rope_one_to_four_one_throw_per_turn():
    st, _ = act(et("snake_a", ["rope"]), 0, "cross snake_pit", "roll", "roll", "roll", "roll",
                dice=[1, 2, 3, 7])
    assert task_at(st) == "snake_pit.way" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", "go snake_b", dice=[2])
    assert me(st)["at"] == "snake_b" and me(st)["equip"] == ["rope"]


def test_snake_pit_hook_and_rope_choose_one_before_throwing():
    st, _ = act(et("snake_a", ["hook", "rope"]), 0, "cross snake_pit", "roll", "roll", "roll", dice=[1, 2, 3])
    assert sorted(actions(st)) == ["use hook", "use rope"]


def test_snake_pit_without_rope_or_hook_lose_one_and_climb_straight_out():
    st, _ = act(et("snake_a", ["food"]), 0, "cross snake_pit", "roll", "roll", "roll", "go snake_b",
                dice=[1, 2, 3])
    assert me(st)["at"] == "snake_b" and me(st)["equip"] == []


# ============================================================ Spider's Web
def test_spiders_web_a_four_in_four_throws_gets_past():
    st, _ = cross(position("web_a"), "spiders_web", [1, 2, 4])
    assert me(st)["at"] == "web_b"


def web(equip):
    st, ev = act(position("web_a", equip), 0, "cross spiders_web", "roll", "roll", "roll", "roll",
                 dice=[1, 2, 3, 5])
    assert "web" in text(ev)
    return st


def test_spiders_web_sword_announced_one_or_six_escapes_onto_the_spiders():
    st = web(["sword", "shield"])
    st, _ = act(st, 0, "use sword", "roll", dice=[6])
    assert task_at(st) == "spiders_web.crawl" and me(st)["task"]["pos"] == 1 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "web_b" and sorted(me(st)["equip"]) == ["shield", "sword"]


def test_spiders_web_shield_two_or_five_and_axe_three_or_four():
    st = web(["shield", "axe"])
    st2, _ = act(st, 0, "use shield", "roll", dice=[5])
    assert task_at(st2) == "spiders_web.crawl"
    st3, _ = act(st, 0, "use axe", "roll", dice=[3])
    assert task_at(st3) == "spiders_web.crawl"


def test_spiders_web_each_failure_costs_equipment_of_your_choice_four_chances():
    st = web(["sword", "sword", "axe", "rope"])
    st, _ = act(st, 0, "use sword", "roll", "drop rope", dice=[2])
    assert sorted(me(st)["equip"]) == ["axe", "sword", "sword"] and not ended(st)
    st, _ = act(st, 0, "use axe", "roll", "drop sword", dice=[8])
    st, _ = act(st, 0, "use axe", "roll", "drop sword", dice=[8])
    st, _ = act(st, 0, "roll", dice=[8])            # the Axe alone is left: fourth chance
    assert me(st)["equip"] == [] and task_at(st) == "spiders_web.crawl" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[5])           # along the spiders' backs
    assert me(st)["at"] == "web_b"


def test_spiders_web_without_sword_shield_or_axe_an_eight_one_throw_per_turn():
    st = web(["rope"])
    st, _ = act(st, 0, "roll", dice=[7])
    assert task_at(st) == "spiders_web.bare" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[8])
    assert task_at(st) == "spiders_web.crawl" and me(st)["task"]["pos"] == 1 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[2])
    assert me(st)["task"]["pos"] == 3 and ended(st)      # landing on a spider waits a turn


# ============================================================ Tiger Pen
def test_tiger_pen_rope_swings_across_and_spends_the_points_left():
    st = position("i9", ["rope"])
    st.data["demon"] = "h4"
    st, _ = act(st, 0, "roll", dice=[3])
    st = safe_demon(st)
    st, _ = act(st, 0, "move tiger_a")
    assert me(st)["at"] == "tiger_a" and st.data["turn_info"]["left"] == 2
    st, _ = act(st, 0, "cross tiger_pen")                      # a Rope: no jump, the swing at once
    assert me(st)["at"] == "tiger_b" and me(st)["equip"] == [] and st.data["phase"] == "move"
    assert sorted(actions(st)) == ["move i3", "move ipk"]       # 2 points left: on past the Palace


def test_tiger_pen_without_rope_five_to_eight_jumps_over():
    st, _ = cross(position("tiger_a"), "tiger_pen", [5])
    assert me(st)["at"] == "tiger_b" and ended(st)


def test_tiger_pen_with_a_rope_you_swing_the_jump_is_for_those_without():
    st, ev = act(position("tiger_a", ["rope", "food"]), 0, "cross tiger_pen")
    assert me(st)["at"] == "tiger_b" and me(st)["equip"] == ["food"] and "swings across" in text(ev)
    st, _ = act(position("tiger_a", ["food"]), 0, "cross tiger_pen")
    assert actions(st) == ["roll"]                              # no Rope: the jump


def pen(equip):
    st, ev = act(position("tiger_a", equip), 0, "cross tiger_pen", "roll", dice=[2])
    assert "Tiger Pen" in text(ev)
    return st


def test_tiger_pen_fallen_in_food_feeds_the_tiger_and_you_throw_and_move_on():
    st = pen(["food", "shield"])
    st, _ = act(st, 0, "use food")
    assert me(st)["at"] == "tiger_b" and actions(st) == ["roll"] and not ended(st)


def test_tiger_pen_fallen_in_shield_an_eight_in_four_throws():
    st = pen(["shield"])
    st, _ = act(st, 0, "roll", "roll", dice=[3, 8])
    assert me(st)["at"] == "tiger_b" and me(st)["equip"] == ["shield"] and actions(st) == ["roll"]


def test_tiger_pen_fallen_in_shield_fails_and_tries_again_next_turn():
    st = pen(["shield"])
    st, _ = act(st, 0, *["roll"] * 4, dice=[1, 2, 3, 4])
    assert task_at(st) == "tiger_pen.way" and ended(st)


def test_tiger_pen_fallen_in_fire_six_seven_or_eight():
    st = pen(["fire"])
    st, _ = act(st, 0, "roll", dice=[7])
    assert me(st)["at"] == "tiger_b" and me(st)["equip"] == ["fire"]
    st2 = pen(["fire"])
    st2, _ = act(st2, 0, "roll", dice=[5])
    assert task_at(st2) == "tiger_pen.way" and ended(st2)


def test_tiger_pen_fallen_in_with_none_a_four_per_turn_then_lose_one():
    st = pen(["net"])
    st, _ = act(st, 0, "roll", dice=[2])
    assert task_at(st) == "tiger_pen.claw" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[4])
    assert me(st)["at"] == "tiger_b" and me(st)["equip"] == [] and ended(st)


# ============================================================ Well of Doom
def test_well_of_doom_around_in_two_throws():
    st, _ = cross(position("well_a"), "well_of_doom", [3, 4])
    assert me(st)["at"] == "well_b"


def well(equip):
    st, ev = act(position("well_a", equip), 0, "cross well_of_doom", "roll", "roll", dice=[2, 2])
    assert "Well of Doom" in text(ev)
    return st


def test_well_of_doom_rope_or_hook_a_two_in_four_back_onto_the_wall_then_roll_high_enough():
    st = well(["rope"])
    st, _ = act(st, 0, "roll", "roll", dice=[5, 2])
    assert task_at(st) == "well_of_doom.edge" and me(st)["task"]["pos"] == 4 and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[3])
    assert me(st)["at"] == "well_b" and me(st)["equip"] == ["rope"]


def test_well_of_doom_back_on_the_wall_too_low_falls_in_again():
    st = well(["hook"])
    st, _ = act(st, 0, "roll", dice=[2])
    st = later(st)
    st, ev = act(st, 0, "roll", dice=[1])
    assert task_at(st) == "well_of_doom.dangle" and "falls into the Well" in text(ev)


def test_well_of_doom_shield_ten_or_more_in_three_throws():
    st = well(["shield"])
    st, _ = act(st, 0, "roll", "roll", dice=[6, 5])
    assert task_at(st) == "well_of_doom.edge"


def test_well_of_doom_failing_or_empty_handed_a_five_per_turn_then_lose_one():
    st = well(["shield", "food"])
    st, _ = act(st, 0, "roll", "roll", "roll", dice=[1, 2, 3])       # the Shield: 10 in 3 throws
    assert task_at(st) == "well_of_doom.five" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", "drop food", "go well_a", dice=[5])
    assert me(st)["at"] == "well_a" and me(st)["equip"] == ["shield"]
    st2 = well([])
    st2, _ = act(st2, 0, "roll", dice=[5])
    assert actions(st2) == ["go well_b", "go well_a"]  # the board letters them west to east


# ============================================================ Wild Boar
def boar(equip):
    return with_tom(position("boar_a", equip))


def test_wild_boar_with_food_six_to_eight_leaps_over():
    st, _ = cross(boar(["food"]), "wild_boar", [6])
    assert me(st)["at"] == "boar_b" and me(st)["equip"] == ["food"]


def test_wild_boar_with_food_two_to_five_stays_put_until_next_turn():
    st, _ = cross(boar(["food"]), "wild_boar", [3])
    assert me(st)["at"] == "boar_a" and ended(st)
    st = later(st)
    assert "cross wild_boar" in actions(st)


def test_wild_boar_with_food_a_one_falls_in_surrenders_equipment_and_goes_back():
    st, ev = act(boar(["food", "net"]), 0, "cross wild_boar", "roll", "drop net", dice=[1])
    assert me(st)["at"] == "boar_a" and me(st)["equip"] == ["food"] and ended(st)


def test_wild_boar_without_food_a_one_or_an_eight():
    st, _ = cross(boar([]), "wild_boar", [8])
    assert me(st)["at"] == "boar_b"
    st, _ = cross(boar(["sword"]), "wild_boar", [4])
    assert me(st)["at"] == "boar_a" and ended(st)


# ============================================================ Boats
def boats(equip=(), hand=()):
    st = with_tom(position("epool", list(equip), hand=list(hand)))
    st.data["demon"] = "h4"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move boat_a")
    return st


def test_boats_stop_on_the_first_boat_and_row_on_the_next_turn():
    st = boats()
    st, ev = act(st, 0, "cross boats")
    assert task_at(st) == "boats.row" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", "roll", dice=[2, 5])
    assert me(st)["at"] == "boat_b"


def test_boats_a_turn_begun_in_the_boat_rows_at_once():
    st = with_tom(position("boat_a"))
    st, _ = cross(st, "boats", [7])
    assert me(st)["at"] == "boat_b"


def serpent(equip, hand=()):
    st = with_tom(position("boat_a", list(equip), hand=list(hand)))
    st, ev = act(st, 0, "cross boats", "roll", dice=[3])
    assert "Sea Serpent" in text(ev)
    return st


def test_boats_sea_serpent_sword_axe_or_fire_two_eights_in_six_escapes():
    st = serpent(["axe"])
    st, _ = act(st, 0, *["roll"] * 3, dice=[8, 2, 8])
    assert me(st)["at"] == "boat_b" and me(st)["equip"] == ["axe"]


def test_boats_sea_serpent_no_eights_sinks_the_boat_losing_equipment_and_a_treasure():
    st = serpent(["fire"], hand=["crown"])
    st, ev = act(st, 0, *["roll"] * 6, dice=[8, 1, 2, 3, 4, 5])
    assert me(st)["equip"] == [] and me(st)["hand"] == [] and task_at(st) == "boats.rocks" and ended(st)
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[6])
    assert me(st)["at"] == "tp"


def test_boats_sea_serpent_without_weapons_the_boat_sinks():
    st = serpent(["rope"], hand=[])
    assert me(st)["equip"] == [] and task_at(st) == "boats.rocks" and ended(st)


# ============================================================ Key Locations and monsters
def fight(equip, monster):
    st = position("btk_n", equip)
    st.data["monster_deck"].append(monster)
    st, ev = act(st, 0, "fight")
    assert "Monster card" in text(ev)
    return st


def test_key_location_win_the_fight_and_take_the_treasure_holder_secretly():
    st = fight(["fire"], "troll")              # strength 6, fears Fire +3
    assert sorted(actions(st)) == ["use bare", "use fire"]
    treasure = st.data["locations"]["btk_n"]
    st, ev = act(st, 0, "use fire", "roll", dice=[3])
    assert me(st)["hand"] == [treasure] and st.data["locations"]["btk_n"] is None and ended(st)
    name = GAME.view(st, 0)["hand"]
    assert name == [treasure]
    secret = TREASURE_NAMES[treasure]
    assert not any(secret in en(e.text) for e in ev if e.to is None)
    assert any(secret in en(e.text) for e in ev if e.to == (0,))


def test_key_location_losing_the_fight_leaves_the_treasure_and_you_may_try_next_turn():
    st = fight([], "troll")
    st, ev = act(st, 0, "roll", dice=[5])
    assert me(st)["hand"] == [] and st.data["locations"]["btk_n"] is not None and ended(st)
    st = later(st)
    assert "fight" in actions(st)


def test_key_location_with_no_treasure_left_offers_no_fight():
    st = position("btk_n")
    st.data["locations"]["btk_n"] = None
    assert "fight" not in actions(st)


def test_stopping_on_a_key_location_offers_the_fight_at_once():
    st = position("b3")
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[3])
    st = safe_demon(st)
    st, _ = act(st, 0, "move btk_n")
    assert sorted(actions(st)) == ["fight", "stay"]


# ============================================================ Whirlpools and the folding board
def jump(seats=3, **where):
    """Seat 0 by the Banshee Towers Whirlpool throws 1 and jumps in; others placed by `where`."""
    st = position("bp", seats=seats)
    st.data["demon"] = "h9"
    for seat, at in where.items():
        put(st, int(seat[1:]), at)
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, ev = act(st, 0, "move wpool")
    return st, ev


def test_whirlpool_jumping_in_needs_no_exact_count():
    st = position("bp")
    assert BOARD.destinations(st.data["fold"], "bp", 6, demon="h9")["wpool"] == 5


def test_whirlpool_in_banshee_towers_opens_the_board_out_and_the_jumper_stays_in_it():
    st, ev = jump(seats=2)
    assert st.data["fold"] == {"west": "out", "east": "in"} and me(st)["at"] == "wpool" and ended(st)
    assert "Evil Tower" in text(ev)
    st = later(st)
    assert actions(st) == ["roll"]
    assert set(BOARD.neighbours("wpool", st.data["fold"])) == {"e4"}


def test_whirlpool_in_the_evil_tower_folds_the_board_back_in():
    st = et("e4")
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, ev = act(st, 0, "move wpool")
    assert st.data["fold"]["west"] == "in" and "Banshee Towers" in text(ev)


def test_whirlpool_others_in_the_affected_world_get_three_throws_to_escape():
    st, ev = jump(s1="b5", s2="i10")            # seat 2 is in the Ice Palace: unaffected
    assert st.data["phase"] == "fold" and GAME.to_move(st) == 1
    assert actions(st, 1) == ["roll"] and actions(st, 2) == [] and actions(st, 0) == []
    st, _ = act(st, 1, "roll", dice=[2])
    assert "move h2" in actions(st, 1)
    st, ev = act(st, 1, "move h2")
    assert "escapes to safety" in text(ev)
    assert st.data["fold"]["west"] == "out" and me(st, 1)["at"] == "h2" and me(st, 2)["at"] == "i10"
    assert st.data["current"] == 1 and st.data["phase"] == "act"   # the jumper's turn is over


def test_whirlpool_a_runner_may_jump_into_the_whirlpool_too():
    st, _ = jump(s1="bp")
    st, _ = act(st, 1, "roll", "move wpool", dice=[3])
    assert me(st, 1)["at"] == "wpool" and me(st, 1)["spot"] is None and st.data["fold"]["west"] == "out"


def test_whirlpool_runners_throw_at_the_same_time():
    st, _ = jump(s1="b3", s2="b8")
    assert actions(st, 1) == ["roll"] and actions(st, 2) == ["roll"]
    st, _ = act(st, 2, "roll", dice=[1])
    assert actions(st, 1) == ["roll"]                      # seat 1's prompt is untouched


def test_whirlpool_not_escaping_in_three_throws_drops_you_in_the_hole_when_the_board_opens_out():
    st, _ = jump(seats=2, s1="b3")
    for _ in range(3):
        st, _ = act(st, 1, "roll", dice=[1])
        st, ev = act(st, 1, [a for a in actions(st, 1) if a != "move btk_n"][0])
    assert me(st, 1)["spot"] == "hole_west" and task_at(st, 1) == "caught.struggle"
    assert "caught by the folding board" in text(ev)


def test_whirlpool_caught_one_or_eight_in_three_throws_keeps_your_treasure():
    st = position("gate")
    put(st, 0, spot="hole_west", hand=["crown"])
    from games.kingdom import hazards as hzm
    me(st)["task"] = hzm.new_task("caught", spot="hole_west")
    st, _ = act(st, 0, "roll", "roll", dice=[3, 8])
    assert sorted(actions(st)) == ["go h3", "go h4"]
    st, _ = act(st, 0, "go h4")
    assert me(st)["at"] == "h4" and me(st)["hand"] == ["crown"] and ended(st)


def test_whirlpool_caught_no_one_or_eight_rejoins_but_loses_every_treasure():
    st = position("gate")
    put(st, 0, spot="black_east", hand=["crown", "key"])
    from games.kingdom import hazards as hzm
    me(st)["task"] = hzm.new_task("caught", spot="black_east")
    st, ev = act(st, 0, "roll", "roll", "roll", "go h11", dice=[2, 3, 4])
    assert me(st)["at"] == "h11" and me(st)["hand"] == [] and sorted(st.data["lost_treasure"]) == ["cobra", "crown", "key"]


def test_whirlpool_folding_in_drops_the_caught_into_the_black_edged_whirlpool():
    st = et("e4", seats=2)
    put(st, 1, "e3")
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move wpool")
    for _ in range(3):
        st, _ = act(st, 1, "roll", dice=[1])
        st, _ = act(st, 1, actions(st, 1)[0])
    assert st.data["fold"]["west"] == "in" and me(st, 1)["spot"] == "black_west"


def test_whirlpool_an_adventurer_inside_a_hazard_on_the_folding_panel_is_caught():
    st = position("bp", seats=2)
    in_hazard(st, 1, "bone_pit", "climb", near="bone_a", lane="skulls", pos=2)
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move wpool")
    assert me(st, 1)["spot"] == "hole_west" and task_at(st, 1) == "caught.struggle"


def jump_by_deep_magic(st, runner_at):
    """Seat 0 (by the West Whirlpool) jumps in; seat 1 stands at `runner_at`, seat 2 holds Deep Magic."""
    put(st, 1, runner_at)
    me(st, 2)["deep"] = 1
    st.data["deep_left"] = 1
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    return act(safe_demon(st), 0, "move wpool")


def test_whirlpool_deep_magic_stops_the_board_folding():
    st, ev = jump_by_deep_magic(position("bp", seats=3), "b5")
    assert actions(st, 2) == ["deep", "let"] and actions(st, 1) == []
    st, ev = act(st, 2, "deep")
    assert st.data["fold"]["west"] == "in" and me(st, 2)["deep"] == 0 and st.data["deep_left"] == 2
    assert me(st, 1)["at"] == "b5" and me(st)["at"] == "wpool" and st.data["current"] == 1


def test_whirlpool_declining_deep_magic_lets_the_fold_go_ahead():
    st = position("bp", seats=2)
    me(st, 1)["deep"] = 1
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move wpool", )
    st, _ = act(st, 1, "let")
    assert st.data["fold"]["west"] == "out" and me(st, 1)["deep"] == 1


def test_whirlpool_the_demon_king_is_not_repositioned_by_a_fold():
    st, _ = jump(seats=2, s1="b5")
    demon = st.data["demon"]
    st, _ = act(st, 1, "roll", dice=[1])
    st, _ = act(st, 1, actions(st, 1)[0])
    assert st.data["demon"] == demon


# ============================================================ every hazard is data
def test_every_hazard_on_the_board_has_a_step_table_and_each_handbook_hazard_is_there():
    handbook = {"beam_bridge", "boats", "bone_pit", "bridge_of_glass", "broken_bridge", "cyclops",
                "demon_castle_moat", "evil_tower_bridge", "ice_caves", "living_forest", "magic_rainbow",
                "rat_trap", "ring_of_stones", "sleeping_giant", "snake_pit", "spiders_web", "swamp",
                "tiger_pen", "well_of_doom", "wild_boar", "wizard"}
    assert handbook <= set(HAZARDS)
    assert set(BOARD.hazards) <= set(HAZARDS)


def test_a_bad_hazard_table_fails_at_load():
    from games.kingdom import hazards as hzm
    bad = {"oops": {"name": "Oops", "start": "a", "steps": [{"id": "a", "op": "teleport", "go": "a"}]}}
    with pytest.raises(ValueError, match="unknown op"):
        hzm.load({**hzm.RAW, **bad})
    bad = {"oops": {"name": "Oops", "start": "a", "steps": [{"id": "a", "op": "wait", "go": "nowhere"}]}}
    with pytest.raises(ValueError, match="unknown step"):
        hzm.load({**hzm.RAW, **bad})


def test_crossing_onto_a_rival_at_the_far_dagger_lets_you_steal_then_the_turn_ends():
    st = position("bone_a", seats=3)
    put(st, 1, "bone_b", hand=["amulet"])
    st, _ = act(st, 0, "cross bone_pit", "roll", dice=[2])
    assert me(st)["at"] == "bone_b" and actions(st) == ["steal blue", "leave"]
    st, ev = act(st, 0, "steal blue")
    assert me(st)["hand"] == ["amulet"] and me(st, 1)["hand"] == [] and st.data["current"] == 1
    st = position("bone_a", seats=3)
    put(st, 1, "bone_b", hand=["amulet"])
    st, _ = act(st, 0, "cross bone_pit", "roll", "leave", dice=[2])
    assert me(st, 1)["hand"] == ["amulet"] and st.data["current"] == 1


def test_a_rope_swing_onto_a_rival_steals_then_spends_the_points_left():
    st = position("tiger_a", ["rope"], seats=2)
    put(st, 1, "tiger_b", hand=["orb"])
    st.data["turn_info"] = {"moved": True, "left": 2, "entry": 5}
    st, _ = act(st, 0, "cross tiger_pen", "steal blue")
    assert me(st)["hand"] == ["orb"] and st.data["phase"] == "move" and st.data["turn_info"]["die"] == 2


def test_climbing_out_of_the_fold_never_lands_on_the_demon_king():
    from games.kingdom import hazards as hzm
    st = position("gate")
    put(st, 0, spot="hole_west")
    me(st)["task"] = hzm.new_task("caught", spot="hole_west")
    st.data["demon"] = "h4"
    st, _ = act(st, 0, "roll", dice=[8])
    assert me(st)["at"] == "h3" and me(st)["spot"] is None and ended(st)


def test_the_demon_king_stays_put_on_a_hazards_throws():
    st = position("bone_a")
    st.data["demon"] = "h7"
    st, _ = cross(st, "bone_pit", [1])
    st = later(st)
    st, _ = act(st, 0, "roll", dice=[3])
    assert st.data["demon"] == "h7" and task_at(st) == "bone_pit.climb"


def test_rat_trap_the_turn_after_the_missed_ones_is_spent_climbing_over_the_wall():
    st, _ = cross(position("rat_a"), "rat_trap", [1])
    events = []
    for _ in range(3):
        GAME.end_turn(st, Rng(1), events)
    last = [en(e.text) for e in events if "misses a turn" in en(e.text)][-1]
    assert "free" not in last and "over the wall" in last
    page = (BOARD_DOC).read_text(encoding="utf-8")
    assert "free next turn" not in page and "ends that turn" in page.split("**Rat Trap**")[1].split("\n-")[0]


def test_whirlpool_deep_magic_stops_a_fold_out_but_not_a_fold_in():
    st, _ = jump_by_deep_magic(et("e4", seats=3), "etk")   # the Evil Tower folds in
    assert actions(st, 2) == [] and actions(st, 1) == ["roll"]
    assert st.data["fold_job"]["stage"] == "run"

"""The Warlock of Firetop Mountain, typed moves: what players see on the buttons and in /hand can be
typed (phones' curly apostrophes too), and a refused move says what could be typed instead."""
from __future__ import annotations

import pytest

from games.firetop import GAME
from games.firetop.board import BOARD
from tests.rules_helpers import act, refused
from tests.test_firetop_rules import fresh, player, put, turn_of

FULL = ["goblet", "crown", "idol", "shield", "clover", "keys_a"]


def over_the_limit() -> object:
    """Seat 0 carries 7 treasure cards, Gaoler's Keys among them, and must leave one."""
    st = fresh()
    turn_of(st, 0, "done")
    player(st, 0)["items"] = FULL[:5] + ["keys_d", "keys_b"]
    st.data["queue"] = [{"seat": 0, "kind": "drop"}]
    return st


@pytest.mark.parametrize("typed", ["drop Gaoler's Keys (1, 4, 7)", "drop Gaoler’s Keys (1, 4, 7)",
                                   "drop gaolers keys", "drop the Gaoler‘s Keys", "drop keys_d"])
def test_a_card_is_dropped_by_the_name_hand_shows(typed):
    st, _ = act(GAME, over_the_limit(), 0, typed)
    assert "keys_d" not in player(st, 0)["items"] and st.data["queue"] == []


def at_a_door(room: str) -> object:
    st = fresh()
    turn_of(st, 0, "move")
    st.data["roll"] = 1
    put(st, 0, BOARD.rooms[room]["doors"][0])
    return st


@pytest.mark.parametrize("typed", ["move Warlock’s Study", "move warlock's study", "move the Warlock's Study",
                                   "move study"])
def test_a_room_is_typed_by_its_name_with_any_apostrophe(typed):
    st, _ = act(GAME, at_a_door("study"), 0, typed)
    assert player(st, 0)["pos"] == "study"


@pytest.mark.parametrize("typed, ware", [("buy a Healing Draught", "draught"), ("buy healing draught", "draught"),
                                         ("buy a Fine Sword", "blade"), ("buy Runed Sword", "runesword"),
                                         ("buy provisions", None)])
def test_the_pedlars_wares_are_typed_as_his_buttons_name_them(typed, ware):
    st = at_a_door("pedlar")
    player(st, 0)["gold"] = 9
    st.data["rooms"]["pedlar"]["treasure"] = None
    st, _ = act(GAME, st, 0, "move pedlar")
    provisions = player(st, 0)["provisions"]
    st, _ = act(GAME, st, 0, typed)
    mine = player(st, 0)
    assert (ware in mine["items"] + mine["swords"]) if ware else mine["provisions"] == provisions + 1


def test_spoils_name_a_seen_card_as_the_button_does():
    st = fresh()
    player(st, 1)["items"] = ["goblet", "shield"]
    player(st, 1)["revealed"] = ["shield"]
    turn_of(st, 0, "done")
    st.data["queue"] = [{"seat": 0, "kind": "spoils", "from": 1}, {"seat": 1, "kind": "flee"}]
    taken, _ = act(GAME, st, 0, "spoils their Studded Shield and lantern")
    assert player(taken, 0)["items"] == ["shield"] and not player(taken, 1)["lantern"]


def test_a_refused_move_lists_the_words_to_type():
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K11")
    reason = refused(GAME, st, 0, "jump", "I don't understand", "You can type:", "`roll`")
    assert "`eat`" not in reason  # only what is legal now
    st = over_the_limit()
    refused(GAME, st, 0, "drop the golden fleece", "You can type:", "drop gaoler's keys")
    mover = at_a_door("study")
    refused(GAME, mover, 0, "move V15", "You can type:", "`move A")

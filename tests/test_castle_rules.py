"""Rule-by-rule tests for Keys to the Castle on hand-built positions."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from tests import rules_helpers

from games.castle import GAME
from games.castle.engine import CONFIG, MAX_TURNS, NET_TURNS, full_deck, on_edge, parse_coord
from data.locales import render
from games.core import IllegalAction, apply, setup

# ------------------------------------------------------------------ helpers

def blank(seats: int = 2, seed: int = 1):
    """A fresh game with every tile a closed red plain door and every hand empty."""
    st = setup(GAME, seats, None, seed)
    d = st.data
    for t in d["tiles"]:
        t.update(colour="red", face="open", open=False, revealed=False, padlock=False, hacksaw=False)
    for pl in d["players"]:
        d["draw"] += pl["hand"]
        pl["hand"] = []
    return st


def tile(st, c):
    return st.data["tiles"][parse_coord(c, st.data["rows"], st.data["cols"])]


def put(st, c, **kw):
    t = tile(st, c)
    if kw.get("open"):
        kw.setdefault("revealed", True)
    t.update(kw)
    return t


def hand(st, seat, *cards):
    st.data["players"][seat]["hand"] = list(cards)


def at(st, seat, pos):
    st.data["players"][seat]["pos"] = pos


def act(st, seat, action):
    return rules_helpers.act(GAME, st, seat, action)


def refused(st, seat, action, *fragments):
    return rules_helpers.refused(GAME, st, seat, action, *fragments)


def to_move_phase(st, seat=0):
    st.data["current"] = seat
    st.data["phase"] = "move"
    return st


def en(words) -> str:
    """Engine words (a message id with its parameters) as an English reader reads them."""
    return render("en", words)


def texts(events, public=True):
    return [en(e.text) for e in events if e.public == public]


# ------------------------------------------------------------------ setup, sizes and counts

def test_registry_metadata():
    from games import get
    g = get("castle")
    assert g is GAME and g.name == "castle" and g.title == "Keys to the Castle"
    assert (g.min_seats, g.max_seats) == (2, 4)
    assert g.colours == ("red", "blue", "green", "yellow")
    assert len(g.colour_rgb) == 4 and all(len(c) == 3 for c in g.colour_rgb)
    assert g.pitch and "\n" not in g.pitch


def test_counts_from_data():
    deck = Counter(full_deck())
    assert sum(deck.values()) == 54
    for colour in ("red", "blue", "green", "yellow"):
        assert deck[f"key-{colour}"] == 7
    assert (deck["skeleton"], deck["padlock"], deck["passage"], deck["hacksaw"], deck["net"]) == \
        (10, 6, 5, 3, 2)
    st = setup(GAME, 2, None, 3)
    d = st.data
    tiles = d["tiles"] + d["unused"]
    assert len(tiles) == 40
    per = Counter((t["colour"], t["face"]) for t in tiles)
    for colour in ("red", "blue", "green", "yellow"):
        assert per[(colour, "open")] == 6 and per[(colour, "barred")] == 2
        assert per[(colour, "extra_key")] == 1 and per[(colour, "extra_turn")] == 1
    assert CONFIG["rules"]["max_turns"] == MAX_TURNS == 400


@pytest.mark.parametrize("seats,rows,cols,sides,unused", [
    (2, 8, 5, ["S", "N"], 0), (3, 6, 6, ["S", "W", "N"], 4), (4, 6, 6, ["S", "W", "N", "E"], 4)])
def test_board_sizes_and_sides(seats, rows, cols, sides, unused):
    st = setup(GAME, seats, None, 11)
    d = st.data
    assert (d["rows"], d["cols"]) == (rows, cols)
    assert len(d["tiles"]) == rows * cols and len(d["unused"]) == unused
    assert [pl["side"] for pl in d["players"]] == sides
    assert all(pl["pos"] is None for pl in d["players"])
    # every door starts closed but those the seat balance opens on a seat's own edge
    opened = [i for i, t in enumerate(d["tiles"]) if t["open"]]
    assert all(d["tiles"][i]["revealed"] for i in opened)
    assert all(t["open"] for t in d["tiles"] if t["revealed"])
    for seat, doors in enumerate(CONFIG["seat_balance"]["open_doors"][str(seats)]):
        edge = [i for i in opened if on_edge(sides[seat], i, rows, cols)]
        assert len(edge) == doors, seat
    assert len(opened) == sum(CONFIG["seat_balance"]["open_doors"][str(seats)])
    # seat 0 starts and has already drawn its first card; the others hold the 3 dealt
    assert d["current"] == 0 and d["phase"] == "play" and st.turn == 1
    assert [len(pl["hand"]) for pl in d["players"]] == [4] + [3] * (seats - 1)
    assert len(d["draw"]) == 54 - 3 * seats - 1
    v = GAME.view(st, None)
    assert len(v["tiles"]) == rows * cols
    assert sum(t["face"] is not None for t in v["tiles"]) == len(opened)


def test_seat_count_limits():
    with pytest.raises(IllegalAction):
        setup(GAME, 1, None, 1)
    with pytest.raises(IllegalAction):
        setup(GAME, 5, None, 1)


# ------------------------------------------------------------------ keys

def test_key_opens_and_closes_its_own_colour_only():
    st = blank()
    put(st, "C8", colour="blue", face="extra_turn")
    hand(st, 0, "key-red", "key-blue")
    reason = refused(st, 0, "play key-red C8", "blue door", "Blue Key", "Skeleton Key")
    assert "C8" in reason
    st, ev = act(st, 0, "play key-blue C8")
    t = tile(st, "C8")
    assert t["open"] and t["revealed"]
    assert st.data["discard"][-1] == "key-blue" and st.data["phase"] == "move"
    assert texts(ev) == ["{p0} played a Blue Key and opened C8: an Extra Turn door!"]
    assert st.data["players"][0]["hand"] == ["key-red"]
    assert st.data["players"][0]["bonuses_used"] == []  # opening alone gives no bonus
    # close it again on a later play
    st = to_move_phase(st)
    st.data["phase"] = "play"
    hand(st, 0, "key-blue")
    st, ev = act(st, 0, "play key-blue C8")
    assert not tile(st, "C8")["open"] and tile(st, "C8")["revealed"]
    assert texts(ev) == ["{p0} played a Blue Key and closed C8."]
    assert GAME.view(st, None)["tiles"][parse_coord("C8", 8, 5)]["face"] == "extra_turn"


def test_cannot_close_an_occupied_door():
    st = blank()
    put(st, "C3", open=True)
    at(st, 1, "C3")
    hand(st, 0, "key-red", "skeleton")
    refused(st, 0, "play key-red C3", "can't be closed", "another character is standing on it")
    refused(st, 0, "play skeleton C3", "can't be closed")
    at(st, 0, "C3")
    at(st, 1, None)
    refused(st, 0, "play key-red C3", "you are standing on it")


def test_card_must_be_in_hand():
    st = blank()
    hand(st, 0, "key-red")
    refused(st, 0, "play key-blue C3", "no Blue Key")
    refused(st, 0, "discard net", "no Net")


# ------------------------------------------------------------------ skeleton keys and padlocks

def test_skeleton_key_opens_any_colour_and_unlocks():
    st = blank()
    put(st, "A8", colour="green")
    hand(st, 0, "skeleton", "skeleton", "padlock")
    st, _ = act(st, 0, "play skeleton A8")
    assert tile(st, "A8")["open"]
    assert st.data["discard"][-1] == "skeleton"


@pytest.mark.parametrize("is_open", [False, True])
def test_padlock_blocks_doors_until_a_skeleton_removes_it(is_open):
    st = blank()
    put(st, "B5", colour="yellow", open=is_open)
    hand(st, 0, "padlock", "padlock")
    st, ev = act(st, 0, "play padlock B5")
    assert tile(st, "B5")["padlock"] and tile(st, "B5")["open"] is is_open
    assert "Padlock" in texts(ev)[0]
    st.data["phase"] = "play"
    refused(st, 0, "play padlock B5", "already has a padlock", "don't stack")
    hand(st, 0, "key-yellow", "skeleton", "hacksaw")
    refused(st, 0, "play key-yellow B5", "padlocked", "Skeleton Key")
    refused(st, 0, "play skeleton B5", "padlocked")
    refused(st, 0, "play hacksaw B5")
    discard_before = len(st.data["discard"])
    st, ev = act(st, 0, "play skeleton B5 unlock")
    t = tile(st, "B5")
    assert not t["padlock"] and t["open"] is is_open  # door state kept under the lock
    assert st.data["discard"][discard_before:] == ["skeleton", "padlock"]
    assert "remove" in texts(ev)[0].lower()


def test_padlocked_door_blocks_movement_onto_it():
    """A Padlock blocks a door (rulebook), open or not: no entering, stepping or passage onto it."""
    st = blank()
    st.data["passages"] = [["B6", "C7"]]
    for c in ("C8", "C7", "B6", "D7", "C6"):
        put(st, c, open=True, padlock=c != "C7")
    to_move_phase(st)
    refused(st, 0, "move C8", "padlocked", "Skeleton Key")  # entering from outside
    at(st, 0, "C7")
    for c in ("C8", "B6", "D7", "C6"):  # back, along the passage, sideways, ahead
        refused(st, 0, f"move {c}", "padlocked")
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["stay"]
    hand(st, 0, "skeleton")
    st.data["phase"] = "play"
    st, _ = act(st, 0, "play skeleton C6 unlock")
    st, _ = act(st, 0, "move C6")
    assert st.data["players"][0]["pos"] == "C6"


def test_padlocked_door_on_the_far_row_cannot_be_reached_to_win():
    st = blank()
    put(st, "B2", open=True)
    put(st, "B1", open=True, padlock=True)
    at(st, 0, "B2")
    to_move_phase(st)
    refused(st, 0, "move B1", "padlocked")
    assert not st.over


def test_character_under_a_new_padlock_may_step_off_it():
    """House rule: a Padlock may go on an occupied door; it keeps others out, not the occupant in."""
    st = blank()
    put(st, "C8", open=True)
    put(st, "C7", open=True)
    at(st, 1, "C8")
    hand(st, 0, "padlock")
    st, _ = act(st, 0, "play padlock C8")
    st, _ = act(st, 0, "stay")
    hand(st, 1, "key-red")
    st, _ = act(st, 1, "discard key-red")
    st, _ = act(st, 1, "move C7")
    assert st.data["players"][1]["pos"] == "C7"
    st.data["current"], st.data["phase"] = 1, "move"
    refused(st, 1, "move C8", "padlocked")


def test_unlock_needs_a_padlock_and_a_skeleton():
    st = blank()
    hand(st, 0, "skeleton", "key-red")
    refused(st, 0, "play skeleton C3 unlock", "no padlock")
    put(st, "C3", padlock=True)
    refused(st, 0, "play key-red C3 unlock", "play key-red C3")


# ------------------------------------------------------------------ hacksaws

def test_hacksaw_only_on_an_opened_barred_door_and_is_permanent():
    st = blank()
    put(st, "D7", face="barred")  # closed: its bars are not visible yet
    put(st, "E7", open=True)  # open but plain
    hand(st, 0, "hacksaw", "key-red")
    refused(st, 0, "play hacksaw D7", "closed")
    refused(st, 0, "play hacksaw E7", "not barred")
    put(st, "D7", open=True)
    # an open barred door still blocks
    st2 = to_move_phase(st.copy())
    st2.data["players"][0]["pos"] = "D8"
    put(st2, "D8", open=True)
    refused(st2, 0, "move D7", "barred")
    st, ev = act(st, 0, "play hacksaw D7")
    t = tile(st, "D7")
    assert t["hacksaw"] and t["open"]
    assert "hacksaw" not in st.data["discard"]  # it stays on the tile
    st.data["phase"] = "play"
    hand(st, 0, "key-red", "skeleton", "hacksaw", "padlock")
    refused(st, 0, "play key-red D7", "stays open for good")
    refused(st, 0, "play skeleton D7", "stays open for good")
    refused(st, 0, "play hacksaw D7", "already")
    # it is passable now
    st2 = to_move_phase(st.copy())
    st2.data["players"][0]["pos"] = "D8"
    put(st2, "D8", open=True)
    st2, _ = act(st2, 0, "move D7")
    assert st2.data["players"][0]["pos"] == "D7"
    st, _ = act(st, 0, "play padlock D7")  # and may still be padlocked, which blocks it again
    assert tile(st, "D7")["padlock"] and tile(st, "D7")["open"]
    st.data["players"][0]["pos"] = "D8"
    put(st, "D8", open=True)
    refused(st, 0, "move D7", "padlocked")


def test_barred_door_can_be_closed_before_it_is_sawn():
    st = blank()
    put(st, "A3", face="barred", open=True)
    hand(st, 0, "key-red")
    st, _ = act(st, 0, "play key-red A3")
    assert not tile(st, "A3")["open"] and tile(st, "A3")["revealed"]


# ------------------------------------------------------------------ secret passages

def test_passage_diagonal_only_canonical_and_unique():
    st = blank()
    hand(st, 0, "passage", "passage")
    refused(st, 0, "play passage C3 C4", "diagonally")
    refused(st, 0, "play passage C3 E5", "diagonally")
    refused(st, 0, "play passage C3 C3", "diagonally")
    refused(st, 0, "play passage C3", "two tiles")
    st, ev = act(st, 0, "play passage d4 c3")
    assert st.data["passages"] == [["C3", "D4"]]
    assert "passage" not in st.data["discard"]
    assert st.data["last"] == {"seat": 0, "tiles": ["C3", "D4"]}
    st.data["phase"] = "play"
    refused(st, 0, "play passage C3 D4", "already")
    refused(st, 0, "play passage D3 C4", "crosses")
    st, _ = act(st, 0, "play passage B2 C3")  # sharing a tile is fine
    assert ["B2", "C3"] in st.data["passages"]


def test_moving_along_a_passage_needs_both_ends_open():
    st = blank()
    st.data["passages"] = [["B6", "C7"]]
    at(st, 0, "C7")
    put(st, "C7", open=True)
    to_move_phase(st)
    refused(st, 0, "move B6", "closed")
    put(st, "B6", face="barred", open=True)
    refused(st, 0, "move B6", "barred")
    put(st, "B6", face="open")
    refused(st, 0, "move D6", "not next to you")
    choices = [c.action for c in GAME.prompt(st, 0).choices]
    assert "move B6" in choices
    st, ev = act(st, 0, "move B6")
    assert st.data["players"][0]["pos"] == "B6"
    assert texts(ev)[0] == "{p0} took the Secret Passage to B6."


# ------------------------------------------------------------------ nets

def test_net_rules_and_duration():
    st = blank()
    put(st, "C1", open=True)
    at(st, 1, "C1")
    at(st, 0, "C8")
    put(st, "C8", open=True)
    put(st, "C2", open=True)
    hand(st, 0, "net", "net")
    refused(st, 0, "play net C5", "nobody")
    refused(st, 0, "play net C8", "yourself")
    st, ev = act(st, 0, "play net C1")
    assert st.data["players"][1]["netted"] == NET_TURNS == 2
    assert "{p1}" in texts(ev)[0]
    v = GAME.view(st, None)
    assert v["tiles"][parse_coord("C1", 8, 5)]["net"] == 1 and v["players"][1]["netted"] == 2
    st.data["phase"] = "play"
    refused(st, 0, "play net C1", "already")
    st.data["players"][0]["hand"] = ["key-red"]
    st, _ = act(st, 0, "discard key-red")
    st, _ = act(st, 0, "stay")
    for left in (2, 1):
        # the netted player still draws and plays
        assert st.data["current"] == 1 and st.data["phase"] == "play"
        assert len(st.data["players"][1]["hand"]) == 1
        card = st.data["players"][1]["hand"][0]
        st, _ = act(st, 1, f"discard {card}")
        prompt = GAME.prompt(st, 1)
        assert [(c.action, en(c.path[0].label)) for c in prompt.choices] == [("stay", "Stay (netted)")]
        refused(st, 1, "move C2", "net")
        refused(st, 1, "move out", "net")
        st, ev = act(st, 1, "stay")
        assert st.data["players"][1]["netted"] == left - 1
        st.data["players"][0]["hand"] = ["key-red"]
        st, _ = act(st, 0, "play key-red C5")
        st, _ = act(st, 0, "stay")
    assert "net" in st.data["discard"]
    st.data["players"][1]["hand"] = ["key-red"]
    st, _ = act(st, 1, "discard key-red")
    st, _ = act(st, 1, "move C2")  # free again
    assert st.data["players"][1]["pos"] == "C2"


def test_net_needs_an_opponent_inside():
    st = blank()
    hand(st, 0, "net")
    choices = [c.action for c in GAME.prompt(st, 0).choices]
    assert choices == ["discard net"]


# ------------------------------------------------------------------ bonus tiles

def test_extra_key_on_moving_onto_it_once_per_player():
    st = blank()
    put(st, "B5", face="extra_key", open=True)
    put(st, "A1", colour="blue")
    put(st, "E4", padlock=True)
    put(st, "B6", open=True)
    at(st, 0, "B6")
    to_move_phase(st)
    st, ev = act(st, 0, "move B5")
    assert st.data["phase"] == "bonus" and st.data["current"] == 0
    assert st.data["players"][0]["bonuses_used"] == ["B5"]
    assert GAME.prompt(st, 0).private is False
    actions = [c.action for c in GAME.prompt(st, 0).choices]
    assert "bonus A1" in actions and "bonus skip" in actions
    assert "bonus E4" not in actions and "bonus B5" not in actions  # padlocked / occupied
    refused(st, 0, "bonus E4", "padlocked")
    refused(st, 0, "bonus B5", "can't be closed")
    refused(st, 0, "move B6", "Extra Key")
    refused(st, 0, "stay", "Extra Key")
    st, ev = act(st, 0, "bonus a1")  # any colour
    assert tile(st, "A1")["open"]
    assert st.data["current"] == 1  # no extra move: the turn is over
    assert st.data["players"][0]["pos"] == "B5"
    # stepping off and back on gives nothing the second time
    st.data["current"], st.data["phase"] = 0, "move"
    st, _ = act(st, 0, "move B6")
    st.data["current"], st.data["phase"] = 0, "move"
    st, _ = act(st, 0, "move B5")
    assert st.data["phase"] == "play" and st.data["current"] == 1
    # but another player can claim it
    at(st, 0, None)
    at(st, 1, "B6")
    st.data["phase"] = "move"
    st, _ = act(st, 1, "move B5")
    assert st.data["phase"] == "bonus" and st.data["players"][1]["bonuses_used"] == ["B5"]
    st, ev = act(st, 1, "bonus skip")
    assert st.data["current"] == 0
    assert st.data["players"][1]["bonuses_used"] == ["B5"]  # skipping still uses it


def test_extra_turn_once_per_player():
    st = blank()
    put(st, "C8", face="extra_turn", open=True)
    put(st, "C7", open=True)
    to_move_phase(st)
    turn = st.turn
    st, ev = act(st, 0, "move C8")
    assert st.data["current"] == 0 and st.data["phase"] == "play" and st.turn == turn + 1
    assert len(st.data["players"][0]["hand"]) == 1  # drew for the extra turn
    assert any("extra turn" in t.lower() for t in texts(ev))
    st.data["phase"] = "move"
    st, _ = act(st, 0, "move C7")
    assert st.data["current"] == 1
    st.data["current"], st.data["phase"] = 0, "move"
    st, _ = act(st, 0, "move C8")
    assert st.data["current"] == 1  # already used


# ------------------------------------------------------------------ moving

def test_enter_and_leave_only_on_own_side():
    st = blank()
    for c in ("C8", "C1", "C7", "A4"):
        put(st, c, open=True)
    to_move_phase(st)
    refused(st, 0, "move C1", "own edge", "row 8")
    refused(st, 0, "move C7", "row 8")
    refused(st, 0, "move out", "already outside")
    st, ev = act(st, 0, "move C8")
    assert texts(ev)[0] == "{p0} entered the castle at C8."
    st.data["current"], st.data["phase"] = 0, "move"
    st, ev = act(st, 0, "move out")
    assert st.data["players"][0]["pos"] is None
    # the north player can only leave from row 1
    at(st, 1, "C7")
    st.data["phase"] = "move"
    refused(st, 1, "move out", "row 1")
    at(st, 1, "C1")
    st, _ = act(st, 1, "move out")
    assert st.data["players"][1]["pos"] is None


def test_re_entering_takes_another_door_than_the_one_just_left():
    st = blank()
    for c in ("C8", "D8"):
        put(st, c, open=True)
    at(st, 0, "C8")
    to_move_phase(st)
    st, ev = act(st, 0, "move out")
    assert st.data["players"][0]["pos"] is None
    to_move_phase(st)
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["move D8", "stay"]
    refused(st, 0, "move C8", "another door", "C8")
    st, ev = act(st, 0, "move D8")
    assert texts(ev)[0] == "{p0} entered the castle at D8."
    # only the door last left is barred to a re-entry: out by D8, in by C8 again
    to_move_phase(st)
    st, _ = act(st, 0, "move out")
    to_move_phase(st)
    assert [c.action for c in GAME.prompt(st, 0).choices] == ["move C8", "stay"]
    refused(st, 0, "move D8", "another door")


def test_west_and_east_edges_in_four_player_game():
    st = blank(4)
    put(st, "A3", open=True)
    put(st, "F3", open=True)
    to_move_phase(st, 1)  # seat 1 sits west
    refused(st, 1, "move F3", "column A")
    st, _ = act(st, 1, "move A3")
    st.data["phase"] = "move"
    st.data["current"] = 3  # seat 3 sits east
    st, _ = act(st, 3, "move F3")
    assert st.data["players"][3]["pos"] == "F3"


def test_one_character_per_tile_and_closed_doors_block():
    st = blank()
    put(st, "C8", open=True)
    put(st, "C7", open=True)
    at(st, 1, "C8")
    to_move_phase(st)
    refused(st, 0, "move C8", "Another character is already on C8")
    refused(st, 0, "move D8", "closed")
    at(st, 0, "C7")
    refused(st, 0, "move C6", "closed", "Red Key")
    refused(st, 0, "move C7", "already there")
    refused(st, 0, "move C5", "not next to you")
    moves = [c.action for c in GAME.prompt(st, 0).choices]
    assert moves == ["stay"]


def test_win_on_far_row_open_door():
    st = blank()
    put(st, "B2", open=True)
    put(st, "B1", open=True)
    put(st, "C1", face="barred", open=True)
    at(st, 0, "B2")
    put(st, "C2", open=True)
    to_move_phase(st)
    st, ev = act(st, 0, "move B1")
    assert st.over and st.result == {"winners": [0], "reason": st.result["reason"], "scores": None}
    assert "{p0} wins by reaching B1!" in texts(ev)
    v = GAME.view(st, None)
    assert v["phase"] == "over" and v["winner"] == 0 and v["current"] is None
    assert GAME.prompt(st, 0) is None and GAME.prompt(st, 1) is None
    with pytest.raises(IllegalAction):
        apply(GAME, st, 1, "stay")


def test_win_beats_bonus_and_barred_far_door_does_not_win():
    st = blank()
    put(st, "B1", face="extra_turn", open=True)
    put(st, "B2", open=True)
    at(st, 0, "B2")
    to_move_phase(st)
    st2, _ = act(st, 0, "move B1")
    assert st2.over and st2.result["winners"] == [0]
    put(st, "B1", face="barred", open=True)
    refused(st, 0, "move B1", "barred")


# ------------------------------------------------------------------ piles

def test_discard_pile_reshuffles_into_draw_pile():
    st = blank()
    d = st.data
    d["draw"] = []
    d["discard"] = ["net", "padlock", "key-red"]
    d["players"][1]["hand"] = []
    hand(st, 0, "skeleton")
    st, ev = act(st, 0, "discard skeleton")
    st, ev = act(st, 0, "stay")
    d = st.data
    assert len(d["players"][1]["hand"]) == 1 and len(d["draw"]) == 3 and d["discard"] == []
    assert Counter(d["draw"] + d["players"][1]["hand"]) == Counter(["net", "padlock", "key-red",
                                                                     "skeleton"])
    assert "The discard pile is shuffled into a new draw pile." in texts(ev)


def test_no_cards_anywhere_skips_play():
    st = blank()
    d = st.data
    d["draw"], d["discard"] = [], []
    hand(st, 1)
    to_move_phase(st)
    st, ev = act(st, 0, "stay")
    assert st.data["current"] == 1 and st.data["phase"] == "move"
    assert any("no card" in t for t in texts(ev))
    assert [c.action for c in GAME.prompt(st, 1).choices] == ["stay"]


def test_turn_limit_ends_with_no_winner():
    st = blank()
    to_move_phase(st)
    st.turn = MAX_TURNS
    st, ev = act(st, 0, "stay")
    assert st.over and st.result["winners"] == [] and st.result["scores"] is None
    assert GAME.view(st, None)["phase"] == "over" and GAME.view(st, None)["winner"] is None


def test_turn_counter_and_rotation():
    st = blank(3)
    to_move_phase(st)
    t0 = st.turn
    st, _ = act(st, 0, "stay")
    assert st.turn == t0 + 1 and st.data["current"] == 1
    hand(st, 1, "padlock")
    st.data["phase"] = "move"
    st, _ = act(st, 1, "stay")
    st.data["phase"] = "move"
    st, _ = act(st, 2, "stay")
    assert st.data["current"] == 0 and st.turn == t0 + 3


# ------------------------------------------------------------------ parsing, turn and phase

def test_not_your_turn_and_wrong_phase():
    st = blank()
    hand(st, 0, "key-red")
    assert refused(st, 1, "stay") == "It's {p0}'s turn."
    refused(st, 0, "move C8", "Play a card first")
    refused(st, 0, "stay", "Play a card first")
    refused(st, 0, "bonus skip", "Play a card first")
    st, _ = act(st, 0, "discard key-red")
    refused(st, 0, "discard key-red", "already played")
    refused(st, 0, "bonus C3", "already played")


@pytest.mark.parametrize("bad,fragment", [
    ("", "empty"), ("dance", "play key-red C3"), ("play", "play key-red C3"),
    ("play key-purple C3", "not a card"), ("play key-red Z9", "not a tile"),
    ("play key-red C9", "row number 1-8"), ("play key-red C3 D4", "one tile"),
    ("discard", "discard padlock"), ("discard banana", "not a card"), ("move", "move C4"),
    ("move 3C", "not a tile"), ("stay now", "stay"), ("bonus", "bonus skip")])
def test_malformed_actions(bad, fragment):
    st = blank()
    hand(st, 0, "key-red")
    refused(st, 0, bad, fragment)


@pytest.mark.parametrize("typed", ["play key-green A²", "play key-green A２", "play key-green A٣",
                                   "move C¹", "bonus B⁴", "play passage A1 B²",
                                   "play key-green A" + "9" * 5000])
def test_tiles_are_named_with_ascii_digits_only(typed):
    """Non-ASCII digits pass str.isdigit; the parser used to crash on them instead of refusing."""
    st = blank()
    hand(st, 0, "key-green", "passage")
    put(st, "A1", colour="green")
    reason = refused(st, 0, typed, "not a tile", "like C3")
    assert len(reason) < 200


def test_parsing_is_case_and_space_insensitive():
    st = blank()
    hand(st, 0, "key-red")
    put(st, "C8")
    assert GAME.canonical(st, "  PLAY   Key-Red   c8 ") == "play key-red C8"
    assert GAME.canonical(st, "play passage D4 c3") == "play passage C3 D4"
    assert GAME.canonical(st, "Play Skeleton b2 UNLOCK") == "play skeleton B2 unlock"
    assert GAME.canonical(st, "MOVE out") == "move out"
    assert GAME.canonical(st, "bonus SKIP") == "bonus skip"
    st, _ = act(st, 0, "  PLAY   Key-Red   c8 ")
    assert tile(st, "C8")["open"]
    st, _ = act(st, 0, "MOVE c8")
    assert st.data["players"][0]["pos"] == "C8"


# ------------------------------------------------------------------ prompts and views

def test_play_prompt_lists_every_play_and_deduplicates():
    st = blank()
    put(st, "C8", colour="blue")
    put(st, "D8", colour="blue", open=True)
    put(st, "A1", padlock=True)
    put(st, "B7", open=True)
    at(st, 1, "B7")
    hand(st, 0, "key-blue", "key-blue", "skeleton", "net")
    pr = GAME.prompt(st, 0)
    assert pr.private and en(pr.text) == "Play a card" and pr.seat == 0
    assert GAME.prompt(st, 1) is None
    acts = [c.action for c in pr.choices]
    assert len(acts) == len(set(acts))
    blue = [c for c in pr.choices if c.path[0].key == "key-blue"]
    assert [(c.action, en(c.path[1].label)) for c in blue] == [
        ("play key-blue C8", "Open C8"), ("play key-blue D8", "Close D8"),
        ("discard key-blue", "Discard it")]
    assert en(blue[0].path[0].label) == "Blue Key"
    assert "play skeleton A1 unlock" in acts and "play skeleton A1" not in acts
    assert "play skeleton B7" not in acts  # occupied open door
    net = [c for c in pr.choices if c.path[0].key == "net"]
    assert [(c.action, en(c.path[1].label)) for c in net] == [
        ("play net B7", "Net on B7 ({p1})"), ("discard net", "Discard it")]
    for c in pr.choices:  # every listed choice is legal
        apply(GAME, st, 0, c.action)


def test_passage_prompt_labels():
    st = blank()
    hand(st, 0, "passage")
    pr = GAME.prompt(st, 0)
    passages = [c for c in pr.choices if c.action.startswith("play passage")]
    # 7 row gaps x 4 column gaps x 2 diagonals
    assert len(passages) == 56
    assert en(passages[0].path[1].label) == "Passage A1–B2"
    assert all(c.action.split()[2] < c.action.split()[3] for c in passages)


def test_move_prompt_is_public():
    st = blank()
    put(st, "C8", open=True)
    to_move_phase(st)
    pr = GAME.prompt(st, 0)
    assert not pr.private
    assert [(c.action, c.path[0].key, en(c.path[0].label)) for c in pr.choices] == [
        ("move C8", "C8", "Move to C8"), ("stay", "stay", "Stay")]
    at(st, 0, "C8")
    pr = GAME.prompt(st, 0)
    assert [c.action for c in pr.choices] == ["move out", "stay"]


def test_view_shape_and_secrecy():
    st = blank()
    put(st, "C8", face="extra_key", open=True)
    put(st, "D8", face="barred")
    at(st, 0, "C8")
    hand(st, 0, "key-red", "net")
    hand(st, 1, "skeleton")
    pub = GAME.view(st, None)
    assert set(pub) == {"game", "rows", "cols", "tiles", "passages", "players", "current", "phase",
                        "turn", "draw_pile", "discard_top", "discard_count", "last", "winner"}
    assert pub["game"] == "castle" and (pub["rows"], pub["cols"]) == (8, 5)
    first = pub["tiles"][0]
    assert set(first) == {"coord", "row", "col", "colour", "open", "face", "padlock", "hacksaw",
                          "net", "occupant"}
    assert (first["coord"], first["row"], first["col"]) == ("A1", 0, 0)
    c8 = pub["tiles"][parse_coord("C8", 8, 5)]
    assert c8 == {"coord": "C8", "row": 7, "col": 2, "colour": "red", "open": True,
                  "face": "extra_key", "padlock": False, "hacksaw": False, "net": None, "occupant": 0}
    assert pub["tiles"][parse_coord("D8", 8, 5)]["face"] is None
    assert set(pub["players"][0]) == {"seat", "colour", "side", "pos", "hand_size", "netted",
                                      "bonuses_used"}
    assert pub["players"][0] == {"seat": 0, "colour": "red", "side": "S", "pos": "C8",
                                 "hand_size": 2, "netted": 0, "bonuses_used": []}
    assert pub["current"] == 0 and pub["phase"] == "play" and pub["winner"] is None
    assert GAME.view(st, 0)["hand"] == ["key-red", "net"]
    assert GAME.view(st, 1)["hand"] == ["skeleton"]
    assert "barred" not in json.dumps(pub) and "skeleton" not in json.dumps(pub)
    json.dumps(GAME.view(st, 0))  # JSON-serialisable


def test_discard_is_public_and_draws_are_private():
    st = blank()
    hand(st, 0, "hacksaw")
    st.data["draw"].append("passage")  # seat 1 will draw this
    st, ev = act(st, 0, "discard hacksaw")
    assert texts(ev) == ["{p0} discarded a Hacksaw."]
    assert GAME.view(st, None)["discard_top"] == "hacksaw"
    st, ev = act(st, 0, "stay")
    assert "{p1} draws a card." in texts(ev)
    assert texts(ev, public=False) == ["You drew a Secret Passage."]
    assert [e.to for e in ev if not e.public] == [(1,)]
    assert not any("Passage" in t for t in texts(ev))


def test_last_action_highlight():
    st = blank()
    put(st, "C8", open=True)
    hand(st, 0, "key-red")
    st, _ = act(st, 0, "play key-red D8")
    assert GAME.view(st, None)["last"] == {"seat": 0, "tiles": ["D8"]}
    st, _ = act(st, 0, "move C8")
    assert GAME.view(st, None)["last"] == {"seat": 0, "tiles": ["C8"]}


def test_a_skeleton_key_asks_what_it_does_before_which_door():
    """Open, close or unlock first, then the door: never one list of forty doors."""
    from bot.choices import walk
    game = GAME
    state = setup(game, 2, {}, 1)
    seat = game.to_move(state)
    state.data["players"][seat]["hand"][0] = "skeleton"
    prompt = game.prompt(state, seat)
    cards = walk(prompt.choices, []).options
    skeleton = next(i for i, step in enumerate(cards) if step.key == "skeleton")
    uses = walk(prompt.choices, [skeleton]).options
    assert {en(step.label) for step in uses} <= {"Open a door", "Close a door", "Unlock a door",
                                                 "Discard it"}
    assert "Discard it" in {en(step.label) for step in uses}
    for index, use in enumerate(uses):
        position = walk(prompt.choices, [skeleton, index])
        if position.complete is not None:
            continue
        assert position.options and all(re.fullmatch(r"[A-Z][0-9]+", step.label) for step in position.options)
        assert len(position.options) <= 2 * 25  # two selects of doors at most

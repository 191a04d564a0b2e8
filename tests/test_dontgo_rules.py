"""Rule-by-rule tests for Don't Go In There on hand-built positions."""
from __future__ import annotations

import json

import pytest

from tests import rules_helpers

from data.locales import render
from games.core import IllegalAction, Rng, apply, decide, setup
from games.dontgo import GAME
from games.dontgo.engine import (SEAT_BONUS, BOARDS, CARDS, CONFIG, DIE, ROOMS, TOKEN_VALUE, TYPES, ghosts,
                                 give_ghosts, pool_value, take_ghosts)

SLOT = {name: slot for slot, sides in enumerate(BOARDS) for name in sides}


# ------------------------------------------------------------------ helpers

def ids(ctype: str, curse: int | None = None, dice: int | None = None) -> list[int]:
    return [c["id"] for c in CARDS if c["type"] == ctype and (curse is None or c["curse"] == curse)
            and (dice is None or c["dice"] == dice)]


def quiet(ctype: str, curse: int | None = None) -> int:
    """A card of `ctype` with no dice icon (so the room rolls nothing)."""
    return ids(ctype, curse, 0)[0]


FILLER = [quiet("amulet"), ids("amulet", 4, 0)[0], quiet("cat")]  # dull cards for other rooms


def fresh(seats: int = 2, seed: int = 1):
    st = setup(GAME, seats, None, seed)
    return st


def room(st, name: str, cards: list[int], meeples: dict[int, int] | None = None, hidden=False):
    """Turn the slot holding `name` to that side with `cards` and meeples {space(1-based): seat}."""
    d = st.data
    slot = SLOT[name]
    r = d["rooms"][slot]
    r["side"] = BOARDS[slot].index(name)
    r["removed"] = False
    r["cards"] = list(cards)
    r["spaces"] = [None] * len(ROOMS[name]["flashlights"])
    r["hidden"], r["seen"], r["lib"] = hidden, [], None
    if name == "library" and len(cards) == 3:
        r["lib"] = [cards[0], cards[-1]]
    for space, seat in (meeples or {}).items():
        r["spaces"][space - 1] = seat
        d["players"][seat]["meeples"] -= 1
    return slot


def only_room(st, name: str, cards: list[int], meeples=None, hidden=False):
    """The last room of the game: the others are gone and the deck is empty."""
    d = st.data
    d["deck"] = []
    for r in d["rooms"]:
        r.update(removed=True, cards=[], hidden=False, seen=[], lib=None)
        r["spaces"] = [None] * len(r["spaces"])
    return room(st, name, cards, meeples, hidden)


def hold(st, seat: int, *cards: int, dispelled=()):
    st.data["players"][seat]["cards"] += [{"id": c, "dispelled": c in dispelled, "used": False}
                                          for c in cards]


def haunt(st, seat: int, n: int):
    give_ghosts(st.data, seat, n)


def g(st, seat: int) -> int:
    return ghosts(st.data["players"][seat])


def up(st, seat: int) -> list[int]:
    return [c["id"] for c in st.data["players"][seat]["cards"] if not c["dispelled"]]


def down(st, seat: int) -> list[int]:
    return [c["id"] for c in st.data["players"][seat]["cards"] if c["dispelled"]]


def act(st, seat, action):
    return rules_helpers.act(GAME, st, seat, action)


def refused(st, seat, action, *fragments):
    return rules_helpers.refused(GAME, st, seat, action, *fragments)


def turn_to(st, seat):
    st.data["current"] = st.data["active"] = seat
    st.data["phase"] = "place"


def en(words) -> str:
    """Engine words (message ids) as an English reader reads them."""
    return render("en", words)


def label(choice) -> str:
    """A choice's label as an English reader reads it."""
    return " → ".join(en(step.label) for step in choice.path)


def public_text(events) -> str:
    return " | ".join(en(e.text) for e in events if e.public)


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("seats,types,removed", [(2, 5, 16), (3, 6, 12), (4, 7, 8), (5, 8, 4)])
def test_setup_counts(seats, types, removed):
    st = fresh(seats, 7)
    d = st.data
    in_play = [c for r in d["rooms"] for c in r["cards"]] + d["deck"]
    assert len({CARDS[c]["type"] for c in in_play + d["removed"]}) == types
    assert len(d["removed"]) == removed
    assert len(d["unused"]) == (12 - types) * 8
    assert len(in_play) == types * 8 - removed
    assert len(in_play) % 3 == 0  # so the deck never runs out mid-room
    assert sorted(in_play + d["removed"] + d["unused"]) == list(range(96))
    assert all(len(r["cards"]) == 3 and not r["removed"] for r in d["rooms"])
    assert [pl["meeples"] for pl in d["players"]] == [5] * seats
    assert d["pool"] == {"1": 24, "2": 20, "5": 2} and TOKEN_VALUE == 74
    assert st.turn == 1 and d["current"] == 0 and d["phase"] == "place"


def test_starting_sides_are_random_and_rooms_come_in_pairs():
    sides = set()
    for seed in range(20):
        d = fresh(2, seed).data
        sides |= {(slot, r["side"]) for slot, r in enumerate(d["rooms"])}
    assert sides == {(s, k) for s in range(3) for k in range(2)}
    assert sorted(n for b in BOARDS for n in b) == sorted(ROOMS)


def test_twelve_types_of_eight_with_curses_one_to_four():
    assert len(CARDS) == 96 and len(TYPES) == 12
    for t in TYPES:
        cards = [c for c in CARDS if c["type"] == t]
        assert len(cards) == 8
        assert all(1 <= c["curse"] <= 4 and c["dice"] >= 0 for c in cards)
    for c in CARDS:
        assert (c["amulet"] is not None) == (c["type"] == "amulet")
        if c["amulet"] is not None:
            assert c["amulet"] != c["curse"] and 1 <= c["amulet"] <= 4


def test_library_lays_cards_by_curse_then_draw_order_and_secret_card_face_down():
    st = fresh()
    d = st.data
    a, b, c = ids("cat", 3)[0], ids("mask", 1)[0], ids("doll", 3)[0]
    d["deck"] += [c, b, a]  # drawn a, b, c
    d["rooms"][SLOT["library"]]["side"] = BOARDS[SLOT["library"]].index("library")
    GAME._deal(d, SLOT["library"])
    assert d["rooms"][SLOT["library"]]["cards"] == [b, a, c]
    assert d["rooms"][SLOT["library"]]["lib"] == [b, c]
    d["deck"] += [c, b, a]
    d["rooms"][SLOT["secret"]]["side"] = BOARDS[SLOT["secret"]].index("secret")
    GAME._deal(d, SLOT["secret"])
    r = d["rooms"][SLOT["secret"]]
    assert r["cards"] == [a, b, c] and r["hidden"]
    assert GAME.view(st, None)["rooms"][SLOT["secret"]]["cards"][2] == {"hidden": True}


# ------------------------------------------------------------------ ghost tokens

def test_tokens_make_change_and_are_conserved():
    st = fresh()
    d = st.data
    give_ghosts(d, 0, 7)
    assert d["players"][0]["tokens"] == {"1": 0, "2": 1, "5": 1, "sub": 0}
    assert take_ghosts(d, 0, 1) == 1 and g(st, 0) == 6
    assert d["players"][0]["tokens"]["5"] == 1  # the 2 was broken into change
    assert take_ghosts(d, 0, 4) == 4 and g(st, 0) == 2
    assert take_ghosts(d, 0, 5) == 2 and g(st, 0) == 0  # can't discard more than you have
    assert pool_value(d) == TOKEN_VALUE


def test_substitutes_when_the_pile_runs_out():
    st = fresh()
    d = st.data
    give_ghosts(d, 0, 74)
    assert pool_value(d) == 0
    give_ghosts(d, 1, 3)
    assert g(st, 1) == 3 and d["players"][1]["tokens"]["sub"] == 3
    take_ghosts(d, 1, 2)
    assert g(st, 1) == 1
    real = sum(int(k) * v for pl in d["players"] for k, v in pl["tokens"].items() if k != "sub")
    assert pool_value(d) + real == TOKEN_VALUE


# ------------------------------------------------------------------ placing

def test_place_moves_a_meeple_and_passes_the_turn():
    st = fresh(3)
    room(st, "attic", FILLER)
    st, ev = act(st, 0, "Place ATTIC 3")
    d = st.data
    assert d["rooms"][SLOT["attic"]]["spaces"][2] == 0
    assert d["players"][0]["meeples"] == 4
    assert d["current"] == 1 and st.turn == 2 and d["phase"] == "place"
    assert d["last"]["seat"] == 0 and d["last"]["slot"] == SLOT["attic"]


def test_illegal_placements_change_nothing():
    st = fresh(3)
    room(st, "attic", FILLER, {2: 1})
    refused(st, 1, "place attic 1", "not your move")
    refused(st, 0, "place attic 2", "taken")
    refused(st, 0, "place attic 9", "spaces 1-4")
    refused(st, 0, "place library 1", "isn't in play")
    refused(st, 0, "place kitchen 1", "not a room")
    refused(st, 0, "pick 1", "place a meeple")
    refused(st, 0, "dance", "don't understand")
    refused(st, 0, "", "empty")


def test_attic_top_space_takes_a_ghost():
    st = fresh()
    room(st, "attic", FILLER)
    st, ev = act(st, 0, "place attic 1")
    assert g(st, 0) == 1
    st, _ = act(st, 1, "place attic 2")
    assert g(st, 1) == 0


def test_nursery_bottom_space_discards_a_ghost():
    st = fresh()
    room(st, "nursery", FILLER)
    haunt(st, 0, 3)
    st, ev = act(st, 0, "place nursery 4")
    assert g(st, 0) == 2
    st, ev = act(st, 1, "place nursery 1")
    assert g(st, 1) == 0
    turn_to(st, 1)
    st.data["rooms"][SLOT["nursery"]]["spaces"][3] = None
    st, ev = act(st, 1, "place nursery 4")  # nothing to discard: still 0
    assert g(st, 1) == 0
    assert any("no ghost" in en(e.text) and e.to == (1,) for e in ev)


def test_secret_passage_card_is_seen_only_by_placers_then_revealed():
    st = fresh(3)
    secret = ids("ring", 4)[0]
    slot = room(st, "secret", [quiet("cat"), quiet("doll"), secret], hidden=True)
    pub = GAME.view(st, None)
    assert pub["rooms"][slot]["cards"][2] == {"hidden": True} and pub["secret"] is None
    st, ev = act(st, 0, "place secret 1")
    assert GAME.view(st, 0)["secret"] == {"slot": slot, "card": GAME.card_view(secret)}
    assert GAME.view(st, 1)["secret"] is None and GAME.view(st, None)["secret"] is None
    assert any(e.to == (0,) and "Ring" in en(e.text) for e in ev)
    assert "Ring" not in public_text(ev)
    assert f'"id": {secret}' not in json.dumps(GAME.view(st, 1)["rooms"][slot])
    assert "Ring" in en(GAME.private_text(st, 0)) and "Ring" not in en(GAME.private_text(st, 1))
    st, ev = act(st, 1, "place secret 2")
    assert GAME.view(st, 1)["secret"]["card"]["id"] == secret
    st, ev = act(st, 2, "place passage 3")  # third meeple: revealed to all
    assert "Ring" in public_text(ev)
    assert GAME.view(st, None)["rooms"][slot]["cards"][2]["id"] == secret
    assert all(GAME.view(st, s)["secret"] is None for s in range(3))


# ------------------------------------------------------------------ resolving

def test_third_meeple_rolls_dice_per_icon_and_flashlights_protect():
    st = fresh(3, seed=5)
    cards = [ids("clocks", 1, 2)[0], ids("clocks", 1, 2)[1], ids("mirror", 1, 2)[0]]  # 6 dice
    room(st, "attic", cards, {2: 1, 4: 0})
    st, ev = act(st, 0, "place attic 3")
    d = st.data
    faces = d["dice"]["faces"]
    assert len(faces) == 6 and set(faces) <= set(DIE) and d["dice"]["slot"] == SLOT["attic"]
    rolled = sum(faces)
    assert g(st, 1) == max(0, rolled - 1)
    assert g(st, 0) == max(0, rolled - 2) + max(0, rolled - 3)
    assert d["phase"] == "pick" and d["current"] == 1  # top meeple picks first
    assert st.turn == 1  # still seat 0's turn


def test_picks_go_top_down_and_turn_continues_from_the_resolver():
    st = fresh(3)
    a, b, c = quiet("cat", 3), quiet("doll", 4), quiet("ring", 3)
    slot = room(st, "attic", [a, b, c], {4: 1, 2: 2})
    turn_to(st, 0)
    st, _ = act(st, 0, "place attic 3")
    assert st.data["current"] == 2
    refused(st, 1, "pick 1", "not your move")
    refused(st, 2, "pick 4", "pick 1-3")
    st, _ = act(st, 2, "pick 2")
    assert up(st, 2) == [b] and st.data["current"] == 0
    st, _ = act(st, 0, "pick 2")  # two cards left
    assert up(st, 0) == [c]
    assert up(st, 1) == [a]  # the last card goes to the last meeple automatically
    d = st.data
    assert [pl["meeples"] for pl in d["players"]] == [5, 5, 5]
    assert d["phase"] == "place" and d["current"] == 1 and st.turn == 2
    r = d["rooms"][slot]
    assert r["side"] == BOARDS[slot].index("library") and len(r["cards"]) == 3
    assert all(s is None for s in r["spaces"])


def test_room_is_removed_when_the_deck_is_empty():
    st = fresh(2)
    d = st.data
    slot = room(st, "hallway", [quiet("cat", 3), quiet("doll", 4), quiet("ring", 3)], {1: 1, 2: 1})
    d["deck"] = []
    st, _ = act(st, 0, "place hallway 3")
    st, _ = act(st, 1, "pick 1")
    st, _ = act(st, 1, "pick 1")
    r = st.data["rooms"][slot]
    assert r["removed"] and r["cards"] == []
    assert GAME.view(st, None)["rooms"][slot]["removed"]
    assert not st.over  # other rooms still hold cards
    refused(st, st.data["current"], "place hallway 1", "isn't in play")


def test_short_deck_lays_what_is_left_and_late_meeples_get_nothing():
    st = fresh(2)
    d = st.data
    slot = room(st, "attic", [quiet("cat", 3), quiet("doll", 4), quiet("ring", 3)], {1: 1, 2: 1})
    d["deck"] = [quiet("mask"), quiet("twin")]
    st, _ = act(st, 0, "place attic 3")
    st, _ = act(st, 1, "pick 1")
    st, _ = act(st, 1, "pick 1")
    r = st.data["rooms"][slot]
    assert len(r["cards"]) == 2 and st.data["deck"] == []
    assert st.data["players"][0]["meeples"] == 5


def test_short_room_resolution():
    st = fresh(2)
    slot = room(st, "attic", [quiet("cat", 3), quiet("doll", 4)], {1: 1, 2: 1})
    st, _ = act(st, 0, "place attic 3")
    st, _ = act(st, 1, "pick 1")
    assert len(st.data["players"][1]["cards"]) == 2
    assert st.data["players"][0]["cards"] == [] and st.data["players"][0]["meeples"] == 5
    assert st.data["rooms"][slot]["side"] == BOARDS[slot].index("library")


def test_player_without_meeples_is_skipped():
    st = fresh(3)
    room(st, "attic", FILLER)
    st.data["players"][1]["meeples"] = 0
    st, ev = act(st, 0, "place attic 4")
    assert st.data["current"] == 2
    assert "skips" in public_text(ev)


def test_basement_reroll_and_keep():
    st = fresh(2, seed=3)
    cards = [ids("clocks", 1, 2)[0], ids("clocks", 1, 2)[1], ids("mirror", 1, 2)[0]]
    room(st, "basement", cards, {1: 1, 2: 1})
    st, _ = act(st, 0, "place basement 4")
    d = st.data
    assert d["phase"] == "reroll" and d["current"] == 0 and g(st, 1) == 0
    refused(st, 0, "pick 1", "re-roll")
    refused(st, 1, "reroll", "not your move")
    st2, _ = act(st, 0, "keep")
    rolled = sum(st.data["dice"]["faces"])
    assert g(st2, 1) == max(0, rolled) + max(0, rolled - 1)
    st3, ev = act(st, 0, "reroll")
    assert st3.data["dice"]["rerolled"] and len(st3.data["dice"]["faces"]) == 6
    rolled = sum(st3.data["dice"]["faces"])
    assert g(st3, 1) == max(0, rolled) + max(0, rolled - 1)
    assert g(st3, 0) == max(0, rolled - 2)
    assert st3.data["phase"] == "pick"


def test_basement_with_no_dice_skips_the_reroll():
    st = fresh(2)
    room(st, "basement", FILLER, {1: 1, 2: 1})
    st, _ = act(st, 0, "place basement 4")
    assert st.data["phase"] == "pick" and st.data["dice"]["faces"] == []


def test_hallway_change_one_die():
    st = fresh(2, seed=4)
    cards = [ids("clocks", 1, 2)[0], ids("clocks", 1, 2)[1], ids("mirror", 1, 2)[0]]
    room(st, "hallway", cards, {1: 1, 2: 1})
    st, _ = act(st, 0, "place hallway 3")
    d = st.data
    assert d["phase"] == "change"
    faces = list(d["dice"]["faces"])
    refused(st, 0, f"change 1 to {faces[0]}", "already shows")
    refused(st, 0, "change 9 to 0", "die 1-6")
    refused(st, 0, "change 1 to 7", "not 7")
    new = 2 if faces[0] != 2 else 0
    st2, _ = act(st, 0, f"change 1 to {new}")
    faces[0] = new
    assert st2.data["dice"]["faces"] == faces and st2.data["dice"]["changed"]
    rolled = sum(faces)
    assert g(st2, 1) == max(0, rolled) + max(0, rolled - 1)
    assert g(st2, 0) == max(0, rolled - 2)
    choices = [c.action for c in GAME.prompt(st, 0).choices]
    assert "keep" in choices and len(choices) == 6 * 2 + 1


def test_library_leftmost_takes_and_rightmost_discards_a_ghost():
    st = fresh(3)
    a, b, c = quiet("portrait", 2), quiet("doll", 3), quiet("twin", 4)
    room(st, "library", [a, b, c], {1: 1, 2: 2})
    haunt(st, 2, 2)
    st, _ = act(st, 0, "place library 4")
    prompt = GAME.prompt(st, 1)
    assert "card 1 also gives you a ghost; card 3 discards one of yours" in en(prompt.text)
    assert not any("ghost" in label(ch) for ch in prompt.choices)
    st, _ = act(st, 1, "pick 1")  # leftmost
    assert g(st, 1) == 1
    st, _ = act(st, 2, "pick 2")  # the rightmost card, now second of two
    assert up(st, 2) == [c] and g(st, 2) == 1
    assert up(st, 0) == [b] and g(st, 0) == 0  # middle card: no ghost change


# ------------------------------------------------------------------ cursed cards

def take(st, seat, card, *, others=(quiet("portrait"), ids("portrait", 4, 0)[0])):
    """Make `seat` take `card` as the first pick of a fresh attic resolution."""
    st.data["phase"] = "place"
    st.data["res"] = None
    st.data["pending"] = []
    turn_to(st, seat)
    other = (seat + 1) % st.seats
    room(st, "attic", [card, *others], {1: seat, 2: other})
    st, ev = act(st, seat, "place attic 4")
    st, ev2 = act(st, seat, "pick 1")
    return st, ev + ev2


def test_mirror_takes_a_ghost_and_three_dispel():
    st = fresh()
    m = ids("mirror")
    hold(st, 0, m[4])
    st, _ = take(st, 0, m[6])
    assert g(st, 0) == 1 and up(st, 0)[:2] == [m[4], m[6]]
    st, ev = take(st, 0, m[7])
    assert g(st, 0) == 2 and {m[4], m[6], m[7]} <= set(down(st, 0))
    # sets repeat
    hold(st, 0, m[0], m[1])
    st, _ = take(st, 0, m[2])
    assert {m[0], m[1], m[2]} <= set(down(st, 0))


def test_dispelled_mirrors_do_not_count_toward_a_set():
    st = fresh()
    m = ids("mirror")
    hold(st, 0, m[0], m[1], dispelled=(m[0],))
    st, _ = take(st, 0, m[7])
    assert down(st, 0) == [m[0]]


def test_rings_four_dispel_and_repeat():
    st = fresh()
    r = ids("ring")
    hold(st, 0, r[0], r[1], r[2])
    st, _ = take(st, 0, r[6])
    assert set(down(st, 0)) == {r[0], r[1], r[2], r[6]}
    hold(st, 0, r[3], r[4], r[5])
    st, _ = take(st, 0, r[7])
    assert set(down(st, 0)) == set(r)


def test_twins_of_the_same_value_dispel():
    st = fresh()
    t = ids("twin")
    hold(st, 0, t[2])  # curse 2
    st, _ = take(st, 0, ids("twin", 3, 0)[0])
    assert down(st, 0) == []
    st, _ = take(st, 0, ids("twin", 2)[1])
    assert set(down(st, 0)) == {t[2], t[3]}


def test_dolls_exactly_six():
    st = fresh()
    d4, d3 = ids("doll", 4), ids("doll", 3)
    hold(st, 0, d4[0])
    st, _ = take(st, 0, quiet("doll", 4))  # 8: nothing
    assert down(st, 0) == []
    st.data["players"][0]["cards"] = []
    hold(st, 0, d3[0])
    st, _ = take(st, 0, quiet("doll", 3))  # 3 + 3 = 6
    assert set(down(st, 0)) == set(d3)


def test_dolls_prefer_the_set_with_most_cards():
    st = fresh()
    one, three, four = ids("doll", 1)[0], ids("doll", 3)[0], ids("doll", 4)[0]
    hold(st, 0, one, three, four)
    two = ids("doll", 2)[0]
    st, _ = take(st, 0, two)
    assert set(down(st, 0)) == {one, three, two} and up(st, 0) == [four]


def test_clocks_first_player_only_and_choice_of_two():
    st = fresh()
    c = ids("clocks")  # curses 1 1 2 2 3 3 4 4
    hold(st, 0, c[0], c[2], c[4])  # 1 + 2 + 3 = 6
    st, ev = take(st, 0, c[6])  # + 4 = 10 >= 8
    d = st.data
    assert d["clocks"] == 0 and d["phase"] == "choose" and d["current"] == 0
    refused(st, 0, "dispel 999", "not one of your face-up")
    refused(st, 0, "pick 1", "choose 2 clocks")
    labels = [ch.action for ch in GAME.prompt(st, 0).choices]
    assert len(labels) == 4
    st, _ = act(st, 0, f"dispel {c[6]}")
    assert d is not st.data and st.data["phase"] == "choose"
    st, _ = act(st, 0, f"dispel {c[4]}")
    assert set(down(st, 0)) == {c[6], c[4]}
    assert st.data["phase"] == "pick"  # back to the room
    # nobody else ever gets the effect
    hold(st, 1, c[5], c[7])
    st.data["pending"] = []
    st, _ = take(st, 1, c[1])
    assert down(st, 1) == []


def test_clocks_auto_when_the_choice_cannot_matter():
    st = fresh()
    c = ids("clocks", 4)
    hold(st, 0, c[0])
    st, _ = take(st, 0, c[1])
    assert set(down(st, 0)) == set(c) and st.data["phase"] != "choose"


def test_holy_water_pair_discards_half_and_repeats():
    st = fresh()
    h = ids("holywater")
    haunt(st, 0, 9)
    hold(st, 0, h[0])
    st, ev = take(st, 0, h[4])
    assert g(st, 0) == 5
    assert "5" not in public_text(ev) and "4 ghosts" not in public_text(ev)
    assert any(e.to == (0,) and "4 ghosts" in en(e.text) for e in ev)
    st, _ = take(st, 0, h[7])  # third: no pair yet
    assert g(st, 0) == 5
    st, _ = take(st, 0, h[1])
    assert g(st, 0) == 3
    assert not any(c["dispelled"] for c in st.data["players"][0]["cards"])


def test_tome_pair_dispels_a_chosen_type():
    st = fresh()
    tm = ids("tome")
    hold(st, 0, tm[0], ids("cat", 4)[0], ids("cat", 3)[0], ids("ring", 2)[0])
    st, _ = take(st, 0, tm[4])
    assert st.data["phase"] == "choose"
    acts = [c.action for c in GAME.prompt(st, 0).choices]
    assert acts == ["tome cat", "tome ring"]  # types in play, never tome; the taken portrait is not here
    refused(st, 0, "tome tome", "can't dispel tomes")
    refused(st, 0, "tome mask", "no face-up mask")
    st, _ = act(st, 0, "tome CAT")
    assert set(down(st, 0)) == {ids("cat", 4)[0], ids("cat", 3)[0]}


def test_tome_auto_with_one_type_and_fizzle_with_none():
    st = fresh()
    tm = ids("tome")
    hold(st, 0, tm[0], ids("ring", 2)[0])
    st, _ = take(st, 0, tm[4], others=(quiet("cat"), ids("cat", 4, 0)[0]))
    assert down(st, 0) == [ids("ring", 2)[0]]
    st.data["players"][1]["cards"] = []
    hold(st, 1, tm[1])
    st, ev = take(st, 1, tm[6], others=(quiet("cat"), ids("cat", 4, 0)[0]))
    assert down(st, 1) == [] and "no other cards" in public_text(ev)


def test_dispelled_twin_does_not_pair():
    st = fresh()
    t2 = ids("twin", 2)
    hold(st, 0, t2[0], dispelled=(t2[0],))
    st, _ = take(st, 0, t2[1])
    assert up(st, 0)[-1] == t2[1] and down(st, 0) == [t2[0]]


def test_mask_passes_ghosts_to_the_right():
    mk = ids("mask")
    quiet_masks = ids("mask", None, 0)
    st = fresh(3)
    haunt(st, 1, 5)
    hold(st, 1, mk[0])
    st, ev = take(st, 1, quiet_masks[0])  # 2 masks: pass 2 to seat 0 (on seat 1's right)
    assert g(st, 1) == 3 and g(st, 0) == 2 and g(st, 2) == 0
    assert "2 masks" in public_text(ev) and "3 ghosts" not in public_text(ev)
    assert any(e.to == (0,) and "passes you 2 ghosts" in en(e.text) for e in ev)
    st = fresh(3)
    haunt(st, 0, 1)
    hold(st, 0, mk[0], mk[1])
    st, ev = take(st, 0, quiet_masks[1])  # 3 masks, only 1 ghost: it goes to seat 2 (wrapping)
    assert g(st, 0) == 0 and g(st, 2) == 1 and g(st, 1) == 0
    st = fresh(3)
    hold(st, 2, mk[0], mk[1], mk[2], dispelled=(mk[2],))
    haunt(st, 2, 5)
    st, ev = take(st, 2, quiet_masks[0])  # the dispelled mask doesn't count: pass 3
    assert g(st, 2) == 2 and g(st, 1) == 3


# ------------------------------------------------------------------ game end

END_CARDS = [ids("ring", 3, 0)[0], quiet("doll", 3), quiet("twin", 4)]  # 3, 3, 4 curses, no dice


def finish(st, seat=0, cards=None):
    """Resolve the last room: seat 1's two meeples take cards 1 and 2, `seat` the third."""
    only_room(st, "attic", cards or END_CARDS, {1: 1, 2: 1})
    turn_to(st, seat)
    st, ev = act(st, seat, "place attic 4")
    while st.data["phase"] == "pick":
        st, ev2 = act(st, st.data["current"], "pick 1")
        ev += ev2
    return st, ev


def test_game_ends_when_every_room_is_gone_and_scores():
    st = fresh(2)
    hold(st, 0, ids("ring", 1)[0])
    hold(st, 1, ids("ring", 4)[0])
    haunt(st, 0, 4)
    haunt(st, 1, 7)
    st, ev = finish(st)
    assert st.over and st.data["phase"] == "over"
    assert st.result["scores"]["rows"] == [[0, 1 + 4, 4, 0, 0, 5], [1, 4 + 3 + 3, 7, 3, 0.5, 12.5]]
    assert [render("en", name) for name in st.result["scores"]["header"]] == \
        ["Curses", "Ghosts", "Penalty", "Bonus", "Total"]
    assert render("en", st.result["reason"]) == "fewest curses" and st.result["winners"] == [0]
    view = GAME.view(st, None)
    assert view["phase"] == "over" and view["winners"] == [0] and view["current"] is None
    assert view["scores"][1] == {"seat": 1, "curses": 10, "ghosts": 7, "penalty": 3, "bonus": 0.5, "total": 12.5}
    assert [p["ghosts"] for p in view["players"]] == [4, 7]
    assert "7 ghosts" in public_text(ev)  # revealed at the end
    refused(st, 0, "place attic 1", "over")


def test_the_later_seats_are_forgiven_curses_at_the_end():
    """Seat balance (house rule): with 3 players seat 2 scores 1 curse less and seat 3 one and a
    half, and the win goes by that total; seat 1 gets nothing off."""
    st = fresh(3)
    hold(st, 0, ids("ring", 1)[0])
    hold(st, 2, ids("ring", 1)[0])
    st, ev = finish(st, seat=2)  # the last room: seat 2 takes two cards, seat 3 the third
    rows = {r["seat"]: r for r in st.data["scores"]}
    assert [rows[s]["bonus"] for s in range(3)] == [0, 1, 1.5]
    assert rows[2]["total"] == rows[2]["curses"] + rows[2]["penalty"] - 1.5
    assert [render("en", name) for name in st.result["scores"]["header"]] == \
        ["Curses", "Ghosts", "Penalty", "Bonus", "Total"]
    assert "1.5 seat bonus" in public_text(ev)
    # two players: half a curse for seat 2, which wins a tie
    st, _ = finish(fresh(2))
    assert [r["bonus"] for r in st.data["scores"]] == [0, 0.5]


def test_penalty_goes_to_everyone_tied_for_most_ghosts():
    st = fresh(3)
    haunt(st, 0, 7)
    haunt(st, 1, 7)
    haunt(st, 2, 2)
    st, _ = finish(st)
    pen = {r[0]: r[3] for r in st.result["scores"]["rows"]}
    assert pen == {0: 3, 1: 3, 2: 0}


def test_no_penalty_when_nobody_has_ghosts():
    st = fresh(2)
    st, _ = finish(st)
    assert [r[3] for r in st.result["scores"]["rows"]] == [0, 0]


def test_tie_break_fewer_ghosts_then_shared_victory(monkeypatch):
    monkeypatch.setitem(SEAT_BONUS, 2, [0, 0])  # the tie-breaks themselves, without the seat bonus
    st = fresh(2)
    hold(st, 0, ids("ring", 3)[0])  # seat 0: 3 + 4 (twin) = 7
    haunt(st, 0, 2)
    haunt(st, 1, 3)  # seat 1: 3 + 3 = 6, +1 penalty = 7
    st, _ = finish(st)
    rows = st.result["scores"]["rows"]
    assert rows[0][5] == rows[1][5] == 7
    assert st.result["winners"] == [0]
    st = fresh(2)
    hold(st, 0, ids("ring", 2)[0])  # 2 + 4 = 6
    haunt(st, 0, 3)
    haunt(st, 1, 3)  # both most ghosts: both +1
    st, ev = finish(st)
    rows = st.result["scores"]["rows"]
    assert rows[0][1:] == rows[1][1:] == [6, 3, 1, 0, 7]
    assert st.result["winners"] == [0, 1]
    assert "share" in public_text(ev)


def test_amulets_dispel_matching_amulets_at_game_end():
    st = fresh(2)
    am = {c["id"]: (c["curse"], c["amulet"]) for c in CARDS if c["type"] == "amulet"}
    a13 = next(i for i, v in am.items() if v == (1, 3))  # curse 1, names 3
    a31 = next(i for i, v in am.items() if v == (3, 1))  # curse 3, names 1
    a32 = next(i for i, v in am.items() if v == (3, 2))  # curse 3, names 2
    hold(st, 0, a13, a31, a32)
    a14 = next(i for i, v in am.items() if v == (1, 4))
    hold(st, 1, a14)  # names 4 but holds no 4: nothing
    st, ev = finish(st)
    # all amulets act together: a13 dispels one 3 (a31, the first), a31 dispels a13; a32 finds no 2
    assert set(down(st, 0)) == {a13, a31} and a32 in up(st, 0)
    assert down(st, 1) == []
    assert "amulets dispel" in public_text(ev)


def test_amulet_dispelled_before_game_end_does_nothing():
    st = fresh(2)
    am = [c for c in CARDS if c["type"] == "amulet"]
    names3 = next(c["id"] for c in am if c["amulet"] == 3)
    three = next(c["id"] for c in am if c["curse"] == 3 and c["id"] != names3)
    hold(st, 0, names3, three, dispelled=(names3,))
    st, _ = finish(st)
    assert three not in down(st, 0)


def test_cats_keep_one_when_nine_ghosts_or_fewer():
    st = fresh(2)
    cats = ids("cat")
    hold(st, 0, cats[0], cats[4], cats[6])  # curses 1, 3, 4
    hold(st, 1, cats[1], cats[7])
    haunt(st, 0, 9)
    haunt(st, 1, 10)
    st, _ = finish(st)
    d = st.data
    assert d["phase"] == "choose" and d["current"] == 0 and not st.over
    acts = [c.action for c in GAME.prompt(st, 0).choices]
    assert acts == [f"save {cats[0]}", f"save {cats[4]}", f"save {cats[6]}"]
    refused(st, 0, f"save {cats[1]}", "not one of your face-up cats")
    st, _ = act(st, 0, f"save {cats[0]}")
    assert set(down(st, 0)) == {cats[4], cats[6]}
    assert down(st, 1) == []  # ten ghosts: no effect
    assert st.over


def test_music_boxes_most_curses_with_ties():
    st = fresh(3)
    mb = ids("musicbox")  # 1 1 2 2 3 3 4 4
    hold(st, 0, mb[0], mb[2], mb[6])  # 7
    hold(st, 1, mb[3], mb[4], mb[7])  # 9
    hold(st, 2, mb[5], mb[1])  # 4
    st, _ = finish(st, seat=1)
    assert st.over and set(down(st, 1)) == {mb[4], mb[7]} or st.data["current"] == 1
    if not st.over:
        st, _ = act(st, 1, f"dispel {mb[7]}")
        st, _ = act(st, 1, f"dispel {mb[4]}")
    assert set(down(st, 1)) == {mb[4], mb[7]} and down(st, 0) == [] and down(st, 2) == []
    tie = fresh(2)
    hold(tie, 0, mb[0], mb[6])  # 5
    hold(tie, 1, mb[2], mb[4])  # 5
    tie, _ = finish(tie)
    while not tie.over:
        s = tie.data["current"]
        best = max(GAME.prompt(tie, s).choices, key=lambda c: CARDS[int(c.action.split()[1])]["curse"])
        tie, _ = act(tie, s, best.action)
    assert len(down(tie, 0)) == 2 and len(down(tie, 1)) == 2


def test_portraits_half_rounded_down():
    st = fresh(2)
    pt = ids("portrait")  # 1 2 2 2 3 3 4 4
    hold(st, 0, pt[0], pt[1], pt[4], pt[6], pt[7])  # 5 face up -> 2
    st.data["players"][0]["cards"].append({"id": pt[5], "dispelled": True, "used": False})
    st, _ = finish(st)
    assert st.data["current"] == 0 and st.data["phase"] == "choose"
    st, _ = act(st, 0, f"dispel {pt[6]}")
    st, _ = act(st, 0, f"dispel {pt[4]}")
    assert st.over and set(down(st, 0)) == {pt[5], pt[6], pt[4]}


def test_game_end_choices_go_in_seat_order_from_the_active_player():
    st = fresh(3)
    pt = ids("portrait")
    st.data["players"][0]["cards"] = [{"id": pt[0], "dispelled": False, "used": False},
                                      {"id": pt[7], "dispelled": False, "used": False}]
    st.data["players"][1]["cards"] = [{"id": pt[1], "dispelled": False, "used": False},
                                      {"id": pt[6], "dispelled": False, "used": False}]
    st.data["players"][2]["cards"] = [{"id": pt[3], "dispelled": False, "used": False},
                                      {"id": pt[5], "dispelled": False, "used": False}]
    st, _ = finish(st, seat=2)
    order = []
    while not st.over:
        s = st.data["current"]
        order.append(s)
        st, _ = act(st, s, GAME.prompt(st, s).choices[0].action)
    assert order == [2, 0, 1]


# ------------------------------------------------------------------ grammar, views, data

def test_parse_is_case_insensitive_and_canonical():
    st = fresh()
    assert GAME.canonical(st, "PLACE Secret Passage 2") == "place secret 2"
    assert GAME.canonical(st, "change 3 0") == "change 3 to 0"
    assert GAME.canonical(st, "Tome Holy Water") == "tome holywater"
    with pytest.raises(IllegalAction):
        GAME.canonical(st, "tome spoon")


def test_every_prompt_choice_is_labelled_and_legal():
    st = fresh(4, 9)
    p = GAME.prompt(st, 0)
    assert p and all(len(c.path) == 2 for c in p.choices)
    assert all("flashlight" in label(c) for c in p.choices)
    for c in p.choices:
        apply(GAME, st, 0, c.action)
    assert GAME.prompt(st, 1) is None


def test_view_shape():
    st = fresh(3)
    v = GAME.view(st, 1)
    assert set(v) == {"game", "turn", "current", "phase", "rooms", "deck", "dice", "players", "last",
                      "scores", "winners", "secret", "clocks"}
    assert v["game"] == "dontgo" and len(v["rooms"]) == 3
    r = v["rooms"][0]
    assert set(r) == {"slot", "name", "side", "removed", "spaces", "cards", "lib"}
    assert set(r["spaces"][0]) == {"flashlights", "meeple"}
    assert [p["ghosts"] for p in v["players"]] == [None, 0, None]
    assert v["players"][0]["colour"] == "red"
    assert len(GAME.colour_rgb) == len(GAME.colours) == 5


def test_house_rule_numbers_in_docs():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "games" / "dontgo.md").read_text()
    secs = {s.split("\n", 1)[0].strip(): s for s in doc.split("\n## ")[1:]}
    for name in ("Overview", "Setup", "Turn", "Rooms", "Cards", "Scoring", "House rules", "Commands"):
        assert name in secs, name
        assert len("## " + secs[name]) < 1800, name
    assert str(CONFIG["ghosts"]["die"]).replace(" ", "") in doc.replace(" ", "")
    for form in ("place attic 2", "reroll", "keep", "change 3 to 0", "pick 2", "dispel 17",
                 "save 17", "tome mirror"):
        assert form in secs["Commands"], form


def test_engine_never_reads_shared_folder():
    from pathlib import Path
    for path in (Path(__file__).resolve().parents[1] / "games" / "dontgo").rglob("*.py"):
        assert "/work/shared" not in path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ hidden deck, timing, flips

def reshuffle_unseen(st, seed: int):
    """A copy of `st` whose deck below the next 3 cards and set-aside cards are dealt otherwise."""
    other = st.copy()
    d = other.data
    keep = d["deck"][-3:]
    unseen = d["deck"][:-3] + d["removed"]
    Rng(seed).shuffle(unseen)
    below = len(d["deck"]) - len(keep)
    d["deck"] = unseen[:below] + keep
    d["removed"] = sorted(unseen[below:])
    return other


def test_deck_order_is_unknown_to_every_seat():
    """No view and no event depends on the order of the deck below the cards about to be dealt."""
    for seats in range(2, 6):
        st = fresh(seats, seats)
        rng = Rng(seats)
        while not st.over:
            other = reshuffle_unseen(st, st.version)
            seat = GAME.to_move(st)
            for s in [None, *range(seats)]:
                assert GAME.view(other, s) == GAME.view(st, s)
                if s is not None:
                    assert GAME.private_text(other, s) == GAME.private_text(st, s)
            action = decide(GAME, st, seat, rng, "random")
            a, b = apply(GAME, st, seat, action), apply(GAME, other, seat, action)
            assert [(en(e.text), e.to, e.kind) for e in a.events] == [(en(e.text), e.to, e.kind) for e in b.events]
            st = a.state


def test_game_end_cards_do_nothing_until_the_game_ends():
    st = fresh(2)
    am = {c["id"]: (c["curse"], c["amulet"]) for c in CARDS if c["type"] == "amulet"}
    a13 = next(i for i, v in am.items() if v == (1, 3))
    a31 = next(i for i, v in am.items() if v == (3, 1))
    cats, boxes, portraits = ids("cat"), ids("musicbox"), ids("portrait")
    hold(st, 0, a13, cats[0], cats[4], boxes[6], portraits[1], portraits[4])
    for card in (a31, cats[6], boxes[7], portraits[7]):  # each completes its game-end condition
        st, ev = take(st, 0, card)
        assert down(st, 0) == [] and st.data["pending"] == [] and st.data["phase"] != "choose"
        assert "dispel" not in public_text(ev)
    st, _ = finish(st)
    assert {a13, a31} <= set(down(st, 0))  # at the end they all act
    assert st.data["phase"] == "choose" and st.data["pending"]


def test_secret_passage_card_turns_up_on_the_third_meeple_before_the_roll():
    st = fresh(3, seed=3)
    hidden = ids("mirror", 1, 2)[0]  # two dice icons, face down
    slot = room(st, "secret", [quiet("cat"), quiet("doll"), hidden], {1: 1, 2: 2}, hidden=True)
    st, ev = act(st, 0, "place secret 3")
    texts = [en(e.text) for e in ev if e.public]
    revealed = next(i for i, t in enumerate(texts) if "revealed" in t)
    rolled = next(i for i, t in enumerate(texts) if "roll" in t and "ghost" in t)
    assert revealed < rolled
    assert len(st.data["dice"]["faces"]) == 2 and st.data["dice"]["slot"] == slot
    assert GAME.view(st, None)["rooms"][slot]["cards"][2]["id"] == hidden


@pytest.mark.parametrize("old,new", [("attic", "library"), ("basement", "nursery"),
                                     ("hallway", "secret"), ("library", "attic"),
                                     ("nursery", "basement"), ("secret", "hallway")])
def test_a_flipped_room_uses_its_new_sides_effect(old, new):
    st = fresh(2, seed=4)
    slot = room(st, old, [quiet("cat", 3), quiet("doll", 4), quiet("ring", 3)], {1: 1, 2: 1},
                hidden=old == "secret")
    low, mid, high = ids("twin", 1, 1)[0], ids("mask", 2, 1)[0], ids("clocks", 4, 0)[0]
    st.data["deck"] += [low, high, mid]  # drawn mid, high, low
    st, _ = act(st, 0, f"place {old} 3")
    while st.data["phase"] == "pick":
        st, _ = act(st, st.data["current"], "pick 1")
    r = st.data["rooms"][slot]
    assert BOARDS[slot][r["side"]] == new and len(r["spaces"]) == len(ROOMS[new]["flashlights"])
    seat = st.data["current"]
    haunt(st, seat, 2)
    before = g(st, seat)
    bottom = len(r["spaces"])
    if new == "library":
        assert r["cards"] == [low, mid, high] and r["lib"] == [low, high]
    elif new == "secret":
        assert r["hidden"] and r["cards"][2] == low
        assert GAME.view(st, None)["rooms"][slot]["cards"][2] == {"hidden": True}
    else:
        assert r["cards"] == [mid, high, low] and not r["hidden"] and r["lib"] is None
    if new == "attic":
        st, _ = act(st, seat, "place attic 1")
        assert g(st, seat) == before + 1
    elif new == "nursery":
        st, _ = act(st, seat, f"place nursery {bottom}")
        assert g(st, seat) == before - 1
    elif new in ("basement", "hallway"):
        other = 1 - seat
        r["spaces"][0], r["spaces"][1] = other, other
        st, _ = act(st, seat, f"place {new} 3")
        assert st.data["phase"] == ("reroll" if new == "basement" else "change")
    elif new == "secret":
        st, ev = act(st, seat, "place secret 1")
        assert any(e.to == (seat,) and "face-down card is" in en(e.text) for e in ev)


def test_library_and_secret_passage_lay_their_cards_at_setup_too():
    seen = set()
    for seed in range(40):
        st = setup(GAME, 3, None, seed)
        replayed = Rng(seed)  # the same draws setup made, to know the draw order
        n_types, n_removed = CONFIG["setup"]["3"]
        types = list(TYPES)
        replayed.shuffle(types)
        deck = [c["id"] for c in CARDS if c["type"] in set(types[:n_types])]
        replayed.shuffle(deck)
        deck = deck[n_removed:]
        for slot, r in enumerate(st.data["rooms"]):
            drawn = [deck.pop() for _ in range(3)]
            replayed.below(2)
            name = BOARDS[slot][r["side"]]
            seen.add(name)
            if name == "library":
                assert r["cards"] == sorted(drawn, key=lambda i: (CARDS[i]["curse"], drawn.index(i)))
                assert r["lib"] == [r["cards"][0], r["cards"][2]] and not r["hidden"]
            elif name == "secret":
                assert r["cards"] == drawn and r["hidden"] and r["cards"][2] == drawn[2]
                assert GAME.view(st, None)["rooms"][slot]["cards"][2] == {"hidden": True}
            else:
                assert r["cards"] == drawn and not r["hidden"] and r["lib"] is None
    assert {"library", "secret"} <= seen

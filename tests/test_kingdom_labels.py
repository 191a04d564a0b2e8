"""Key to the Kingdom's choices say which piece moves and whom they touch, and the board's alt
text names places in the buttons' own words.

Seen in the sandbox: after a throw the buttons "A · Path in the Heartland" moved the Demon King
without saying so; the alt text said "moat (far side)" where the board said "castle side"; and
"2 Grappling Hook".
"""
from __future__ import annotations

from games.kingdom import GAME
from games.kingdom.board import BOARD
from render.words.kingdom import describe, place_names
from tests.kingdom_helpers import act, en, labels, position


def demon_to_move():
    st = position("h1")
    st.data["demon"] = "h7"
    st, _ = act(st, 0, "roll", dice=[2])
    assert st.data["phase"] == "demon"
    return st


def test_the_demon_kings_moves_say_that_he_is_the_one_moving():
    st = demon_to_move()
    prompt = GAME.prompt(st, 0)
    assert prompt.choices and all(" · DK " in label for label in labels(prompt))  # his piece reads "DK"
    assert "move the Demon King (DK) 2 spaces first" in en(prompt.text)


def test_a_catch_and_a_theft_name_the_player_not_the_colour():
    st = demon_to_move()
    target = GAME.prompt(st, 0).choices[0].action.split()[1]
    st.data["players"][1]["at"] = target
    prompt = GAME.prompt(st, 0)
    letter = GAME.marks(st.data)[target]
    assert f"The Demon King catches {{p1}} at {letter}." in en(prompt.text)
    assert not any("{p1}" in label for label in labels(prompt))  # the buttons stay short


def test_alt_text_names_a_white_dagger_as_the_board_does():
    names = place_names()
    for space in ("moat_a", "moat_b", "giant_b", "boat_b"):
        assert names[space] == BOARD.name(space)
    assert names["moat_b"] == "the Demon Castle moat, castle side"


def test_alt_text_counts_equipment_in_agreement():
    view = GAME.view(position("h1", equip=["hook", "hook", "rope"]), None)
    text = describe(view)
    assert "2 Grappling Hook cards and Rope" in text


def test_spaces_alike_are_told_apart_by_where_they_lead():
    """A throw of 1 moves the Demon King one space either way round the Heartland: two plain
    path spaces, which read alike; their labels say which way each goes."""
    st = position("h1")
    st.data["demon"] = "h7"
    st, _ = act(st, 0, "roll", dice=[1])
    said = [label.split(" · ", 1)[1] for label in labels(GAME.prompt(st, 0))]
    assert len(said) == 2 and len(set(said)) == 2, said
    assert all(label.startswith("DK toward ") for label in said), said


def test_alt_text_says_where_each_adventurer_stands_in_their_panels_words():
    """The board's panel says "at the Demon Castle moat, castle side": so does the alt text."""
    view = GAME.view(position("moat_b"), None)
    panel = next(p for p in view["players"] if p["seat"] == 0)["where"]
    assert panel == "at the Demon Castle moat, castle side"
    assert f"is {panel}." in describe(view)


def test_a_throw_needed_twice_reads_as_a_sentence():
    """"Roll for 2 × an 8 (0 so far) (throw 1 of 6)" read as a formula; now as words."""
    from tests.kingdom_helpers import fresh, in_hazard
    st = in_hazard(fresh(), 0, "boats", "fight")
    prompt = GAME.prompt(st, 0)
    assert "Roll for an 8 twice" in labels(prompt), prompt.choices
    assert en(prompt.text).endswith("(0 so far, throw 1 of 6)"), en(prompt.text)

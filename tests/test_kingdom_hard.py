"""Key to the Kingdom's hard policy (games/kingdom/hard.py) races for the Key without wasting turns:
it never yields a Key Location, prices the Demon King by the faces that bring him within reach,
and does not hide Treasures that are not the Key, in built positions where smart does otherwise."""
from __future__ import annotations

from games.core import Prompt, Rng
from games.kingdom import GAME
from games.kingdom.ai import FIGHT, PREFS, Smart
from games.kingdom.hard import Hard, catch_odds
from games.kingdom.hard import choose as hard_choose
from tests.kingdom_helpers import act, position, put


def picks(st, seat: int = 0) -> tuple[str, str]:
    """The hard policy's and smart's choices for `seat`, from smart's view of it."""
    prompt = GAME.prompt(st, seat)
    view = GAME.ai_view(st, seat, "smart", prompt)
    return hard_choose(view, prompt, Rng(3)), GAME.ai_action(view, prompt, Rng(3), "smart")


def thrown(st, face: int):
    """Seat 0 has thrown `face` and moved the Demon King the first way offered: now to move."""
    st, _ = act(st, 0, "roll", dice=[face])
    if st.data["phase"] == "demon":
        st, _ = act(st, 0, GAME.prompt(st, 0).choices[0].action)
    assert st.data["phase"] == "move"
    return st


def test_it_does_not_leave_a_key_location_to_a_nearer_rival():
    st = position("h2", seats=2)
    put(st, 1, "h4")  # nearer to the Demon Castle than seat 0
    view = GAME.view(st, 0)
    prompt = Prompt(0, "", [])
    assert ("castle", FIGHT + PREFS["crowded"]) in Smart(view, prompt, Rng(1)).targets
    assert ("castle", FIGHT) in Hard(view, prompt, Rng(1)).targets


def test_the_demon_king_s_reach_is_the_share_of_faces_that_bring_him_beside_a_space():
    st = position("h1", seats=2)
    put(st, 1, "hs")
    st.data["demon"] = "h6"
    view = GAME.view(st, 0)
    # from h6: a 1 to h5 (beside h4), a 2 onto h4 (or h7), a 3 to h3 (beside h4); 4 and on miss it
    assert catch_odds(view, 0, "h4") == 3 / 8
    assert catch_odds(view, 0, "gate") == 0.0  # safe ground
    put(st, 1, spot="dungeon")  # the only rival throws no die to move him next
    assert catch_odds(GAME.view(st, 0), 0, "h4") == 0.0


def test_it_heads_out_where_smart_turns_back_to_the_gate_from_the_demon_king():
    st = position("h1", seats=2)
    put(st, 1, "hs")
    st.data["demon"] = "h9"
    st = thrown(st, 2)
    assert st.data["demon"] == "h7"
    hard, smart = picks(st)
    assert smart == "move gate" and hard == "move b6"  # only a 6 or a 7 brings him beside b6


def test_it_does_not_hide_a_treasure_that_is_not_the_key_from_a_rival_s_throw():
    st = position("gate", seats=2)
    put(st, 0, hand=["crown"])
    put(st, 1, "h7")
    st.data["demon"] = "h6"
    st = thrown(st, 8)
    hard, smart = picks(st)
    assert (hard, smart) == ("move moat_a", "move giant_a")  # the moat's White Dagger is in reach
    put(st, 0, hand=["key"])  # the Key is worth hiding
    assert picks(st)[0] == "move giant_a"


def test_it_goes_to_rob_a_rival_farther_out_than_smart_s_key_holder_would():
    from games.kingdom.ai import cost
    from games.kingdom.hard import REACH, ROB
    st = position("h1", seats=2)
    put(st, 1, "b8", hand=["crown"])
    assert 2.5 < cost("h1", st.data["fold"], "b8") <= REACH  # beyond the 2.5 turns smart chases
    assert ("b8", ROB) in Hard(GAME.view(st, 0), Prompt(0, "", []), Rng(1)).targets
    assert ROB < FIGHT  # a robbery within reach comes before a fight for a Key Location

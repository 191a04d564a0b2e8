"""Firetop's hard policy (games/firetop/hard.py), in built positions: where it leaves smart's play."""
from __future__ import annotations

from games.core import Prompt, Rng, State, decide
from games.firetop import GAME
from games.firetop.ai import Smart
from games.firetop.hard import CHASE_ODDS, FIGHT_ODDS, Hard, choose
from games.firetop.sample import search
from tests.test_firetop_rules import fresh, put, rolled_to, turn_of


def hard(st: State, seat: int = 0) -> str:
    prompt = GAME.prompt(st, seat)
    return choose(GAME.ai_view(st, seat, "smart", prompt), prompt, Rng(3))


def smart(st: State, seat: int = 0) -> str:
    return decide(GAME, st, seat, Rng(3), "smart", GAME.prompt(st, seat))


def met(strong: int, weak: int) -> State:
    """Early in a two-player game, both on K9 and out of a room: seat 0 of Skill `strong`, his
    rival of Skill `weak` carrying a treasure card nobody has seen."""
    st = fresh(2)
    d = st.data
    for s, skill in enumerate((strong, weak)):
        put(st, s, "K9")
        d["players"][s].update(skill=skill, skill0=skill, stamina=18, stamina0=18)
    d["players"][0]["keys"], d["players"][1]["keys"] = [1, 7, 9], [2, 6, 8]
    d["players"][1]["items"] = ["goblet"]
    turn_of(st, 0)
    return st


def rolled_one() -> State:
    """Seat 0 of two has rolled a 1: it may make a Key Challenge before it moves."""
    st = fresh(2)
    st.data["players"][0]["keys"], st.data["players"][1]["keys"] = [1, 7, 9], [2, 6, 8]
    return rolled_to(turn_of(st, 0), 0, 1)


def test_it_attacks_a_rival_carrying_treasure_whenever_it_likely_wins():
    """Smart attacks early only a rival seen with a number it lacks; hard attacks any rival with
    a treasure card it likely beats, and not one with an empty rucksack or a better Skill."""
    st = met(11, 9)
    view = GAME.view(st, 0)
    assert Hard(view, ["roll"], Rng(1)).win_odds(view["players"][1]) > FIGHT_ODDS
    fight = f"fight {GAME.colours[1]}"
    assert smart(st) != fight and hard(st) == fight
    st.data["players"][1]["items"] = []
    assert hard(st) != fight
    assert hard(met(9, 11)) != fight


def test_it_walks_after_a_rival_carrying_treasure_it_likely_beats():
    """Smart leaves a rival alone while rooms are left and he has shown no number it lacks; hard
    goes after him when the fight would likely be won."""
    st = met(11, 9)
    put(st, 1, "E11")
    view = GAME.view(st, 0)
    mine = Hard(view, ["roll"], Rng(1))
    assert mine.win_odds(view["players"][1]) > CHASE_ODDS and mine.keys_on(view["players"][1]) > 0
    assert "E11" in dict(mine.targets())
    assert "E11" not in dict(Smart(view, ["roll"], Rng(1)).targets())
    weaker = met(9, 11)
    put(weaker, 1, "E11")
    assert "E11" not in dict(Hard(GAME.view(weaker, 0), ["roll"], Rng(1)).targets())


def test_its_first_key_challenge_names_one_of_its_own_key_cards():
    """A bluff: a lone rival reads the number asked about as lying under the chest. Later
    challenges are smart's, which learn something."""
    st = rolled_one()
    asked = smart(st)
    assert asked.startswith("challenge") and int(asked.split()[1]) not in (1, 7, 9)
    bluff = hard(st)
    assert bluff.startswith("challenge") and int(bluff.split()[1]) in (1, 7, 9)
    st.data["challenges"].append({"seat": 0, "n": 7})
    assert hard(st) == smart(st) == asked
    st.data["challenges"] = [{"seat": 1, "n": 4}]  # the rival's question is no reason to stop bluffing
    assert int(hard(st).split()[1]) in (1, 7, 9)


def test_the_search_stands_on_the_hard_policy_s_pick():
    """With no sample searched, the search's answer is the policy's own pick, not smart's."""
    st = met(11, 9)
    picked = search(GAME, GAME.view(st, 0), GAME.prompt(st, 0), Rng(3), None, iterations=0)
    assert picked == hard(st) == f"fight {GAME.colours[1]}" != smart(st)


def test_the_search_leaves_the_bluff_to_the_policy():
    """A bluff pays off turns past the rollouts' horizon: the search keeps the policy's, however
    long it looks; the next challenge is searched again."""
    st = rolled_one()
    view, prompt = GAME.view(st, 0), GAME.prompt(st, 0)
    assert search(GAME, view, prompt, Rng(3), None, iterations=12) == hard(st)
    assert int(hard(st).split()[1]) in (1, 7, 9)


def test_a_rival_misled_by_a_bluff_counts_only_what_the_facts_tell_him():
    """The evaluation scores a belief that leaves out the chest's triple as no belief: the rival
    who takes our own number to lie under the chest is as far as one never told anything."""
    from games.firetop.evaluate import progress
    st = fresh(2)
    d = st.data
    d["chest"] = [3, 4, 5]
    d["players"][0]["keys"], d["players"][1]["keys"] = [1, 7, 9], [2, 6, 8]
    told_nothing = progress(d, 1)
    d["challenges"] = [{"seat": 0, "n": 7}]  # our bluff
    assert progress(d, 1) == told_nothing
    d["challenges"] = [{"seat": 0, "n": 4}]  # a true question tells him 4 is under the chest
    assert progress(d, 1) > told_nothing

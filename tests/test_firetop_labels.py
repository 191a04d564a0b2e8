"""Firetop's choices say what they do and to whom, and a fight can run to its end in one go.

Seen in the sandbox: three buttons "Corridor south of the river" told apart only by their
letters, players named by colour ("Confer with blue"), a first choice "0 Gold, 1 Provision"
that did not say what it was for, and a fight that took 16 "Attack" clicks.
"""
from __future__ import annotations

from collections import Counter

from bot.table import named_prompt
from data.locales import render
from games.core import replay
from games.firetop import GAME
from games.firetop.board import BOARD
from games.firetop.engine import COLOURS, PRESS_FLOOR
from games.firetop.places import ARROWS
from tests.rules_helpers import refused
from tests.test_firetop_rules import act, actions, fresh, in_battle, player, put, rig, turn_of
from games.core import setup


SEATS = [f"{{p{seat}}}" for seat in range(6)]  # players stay {p0}.. as the engine writes them


def english(st, seat: int):
    """The seat's prompt as an English reader reads it."""
    return named_prompt(GAME.prompt(st, seat), SEATS)


def labels(st, seat: int) -> list[str]:
    return [c.label for c in english(st, seat).choices]


def test_a_new_adventurer_is_told_what_gold_and_provisions_are_for():
    st = setup(GAME, 2, {}, 1)
    prompt = english(st, 0)
    assert all(label.startswith("Start with ") for label in labels(st, 0))
    assert "Gold pays" in prompt.text and "Stamina" in prompt.text


def test_players_are_named_not_coloured_in_the_choices_about_them():
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    put(st, 1, "K13")
    shown = labels(st, 0)
    assert "Attack {p1}" in shown and "Compare Key cards with {p1}" in shown
    battle = in_battle(fresh(), 0, "orc")
    assert "Fight, {p1} rolls" in labels(battle, 0)
    for label in shown + labels(battle, 0):
        assert not any(colour in label.lower().split() for colour in COLOURS), label


def test_corridor_squares_a_roll_reaches_are_told_apart_by_what_is_near():
    """From K13 a 6 reaches several corridor squares; their words differ, not just letters."""
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    st, _ = act(rig(st, 6), 0, "roll")
    moves = [c for c in GAME.prompt(st, 0).choices if c.action.startswith("move ")]
    words = [c.label.split(" · ", 1)[1] for c in moves]
    corridors = [c.label.split(" · ", 1)[1] for c in moves
                 if c.action.split()[1] in BOARD.corridors and c.action.split()[1] not in BOARD.crossing_at]
    assert "Rope Bridge, south bank" in words  # passed on the way: a move may stop there
    assert len(corridors) >= 3 and not any("of the river" in w for w in corridors)
    assert all(w.startswith(("Near ", "By ")) or w[0] in ARROWS.values() for w in corridors), corridors
    assert Counter(words).most_common(1)[0][1] == 1, words


def test_who_stands_where_and_treasure_on_the_floor_are_the_text_above_the_buttons():
    """A place's button stays short: who is already there, and treasure lying there, are told
    by the letters the buttons and the board share."""
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    put(st, 1, "K11")
    st.data["piles"].append({"node": "K11", "items": ["gold"], "owner": None})
    st, _ = act(rig(st, 2), 0, "roll")
    letter = GAME.marks(st)["K11"]
    prompt = english(st, 0)
    assert "Already there: " in prompt.text and f"{{p1}} at {letter}. Treasure lies at {letter}" in prompt.text
    assert not any("{p1}" in c.label or "treasure" in c.label for c in prompt.choices)


def test_a_roll_of_one_offers_the_moves_first_then_the_key_challenge():
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    st, _ = act(rig(st, 1), 0, "roll")
    prompt = english(st, 0)
    assert prompt.choices[0].action.startswith("move ")
    assert "Key Challenge" in prompt.text


def strong(st, seat: int = 0):
    player(st, seat)["skill"] = 30  # wins every round
    return st


def test_fight_to_the_end_is_one_action_and_every_round_is_told():
    st = strong(in_battle(fresh(), 0, "orc"))
    assert labels(st, 0)[0] == "Fight to the end"
    foe = st.data["battle"]["stamina"]
    after, events = act(st, 0, "press")
    said = [render("en", e.text) for e in events]
    rounds = [line for line in said if line.startswith("Round ")]
    assert len(rounds) == (foe + 1) // 2  # a wound of 2 each round
    assert [r.split(":")[0] for r in rounds] == [f"Round {n}" for n in range(1, len(rounds) + 1)]
    assert any("slays" in line for line in said) and after.data["battle"] is None


def test_fight_to_the_end_stops_for_an_escape_when_stamina_runs_low():
    st = in_battle(fresh(), 0, "orc")
    player(st, 0)["skill"], player(st, 0)["stamina"] = 0, PRESS_FLOOR + 5  # loses every round
    after, events = act(st, 0, "press")
    assert player(after, 0)["stamina"] <= PRESS_FLOOR and after.data["battle"] is not None
    assert "stops to choose" in render("en", events[-1].text)
    assert actions(after, 0) == ["attack", "escape"]  # no more fighting to the end: escape matters
    refused(GAME, after, 0, "press", "stamina")


def test_fight_to_the_end_replays_exactly_from_the_log():
    st = strong(in_battle(fresh(), 0, "orc"))
    once, _ = act(st, 0, "press")
    again, _ = act(st, 0, "press")
    assert once.to_json() == again.to_json()


def test_fight_to_the_end_is_not_offered_while_a_player_rolls_for_the_monster():
    st = in_battle(fresh(), 0, "orc")
    st, _ = act(st, 0, "nominate blue")
    st, _ = act(st, 1, "dice")
    assert "press" not in actions(st, 0) and "attack" in actions(st, 0)


def test_a_whole_game_with_fights_to_the_end_replays_from_its_actions():
    """Self-play where every battle is fought to the end when it may be: the log replays."""
    from games.core import Rng, advance, decide
    st = setup(GAME, 2, {}, 4)
    rng, log = Rng(11), []
    while not st.over and len(log) < 3000:
        seat = GAME.to_move(st)
        prompt = GAME.prompt(st, seat)
        if prompt is None:
            timer = GAME.next_timer(st)
            advance(GAME, st, timer["seat"], timer["action"], timer["due"])
            log.append((timer["seat"], timer["action"], timer["due"]))
            continue
        wanted = [c.action for c in prompt.choices]
        action = "press" if "press" in wanted else decide(GAME, st, seat, rng)
        advance(GAME, st, seat, action)
        log.append((seat, action, 0.0))
    assert any(a == "press" for _, a, _ in log)
    assert replay(GAME, 2, {}, 4, log).to_json() == st.to_json()


def test_the_rules_page_tells_of_fighting_to_the_end_as_the_engine_does_it():
    page = GAME.rules_text()
    assert f"Stamina is down to {PRESS_FLOOR}" in page and "not a rule" in page
    assert "`press`" in page


def test_the_key_challenge_reads_as_one_group_of_short_buttons():
    """Nine buttons "Key Challenge → Key 1" … "Key Challenge → Key 9" filled a phone: the
    first names the kind, the rest only their key."""
    import games
    from bot.table import Seat, Table
    from bot.ui import choice_labels
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    st, _ = act(rig(st, 1), 0, "roll")
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("firetop"), host_id=1, seed=1,
                  options={}, seats=[Seat("Ana", 1), Seat("Bo", 2), Seat("Cy", 3)], state=st)
    table.prompts = [GAME.prompt(st, seat) for seat in range(3)]
    shown = choice_labels(table.prompt(0).choices, table.names())
    keys = shown[shown.index("Key Challenge → Key 1"):]
    assert keys == ["Key Challenge → Key 1"] + [f"Key {n}" for n in range(2, 10)]


def test_alt_text_counts_provisions_in_agreement():
    from render.words.firetop import describe
    st = fresh()
    player(st, 0)["provisions"] = 1
    assert "1 Provision," in describe(GAME.view(st, None))


def test_the_key_challenge_is_one_select_on_the_live_table():
    """On the table the nine keys share one select (its placeholder names the kind), so the
    player's other choices keep their buttons and a phone shows one row for the keys."""
    import games
    from bot import ui
    from bot.table import Seat, Table
    st = fresh()
    turn_of(st, 0)
    put(st, 0, "K13")
    st, _ = act(rig(st, 1), 0, "roll")
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("firetop"), host_id=1, seed=1,
                  options={}, seats=[Seat("Ana", 1), Seat("Bo", 2), Seat("Cy", 3)], state=st,
                  status="running")
    table.prompts = [GAME.prompt(st, seat) for seat in range(3)]
    table.tokens = [0, 0, 0]
    rows = ui.turn_rows(table, "en")
    selects = [item for row in rows for item in row.children if isinstance(item, ui.discord.ui.Select)
               and ":c:kind" in item.custom_id]
    assert len(selects) == 1 and selects[0].placeholder.startswith("Key Challenge")
    assert [o.label for o in selects[0].options] == [f"Key {n}" for n in range(1, 10)]
    buttons = [item.label for row in rows for item in row.children
               if isinstance(item, ui.discord.ui.Button)]
    assert not any(label.startswith("Key") for label in buttons)

"""A game's opening lines (`Game.opening`): the house rules that change play at this table, told
as the game begins. Every game has them for every seat count and lobby option; each names a real
house rule with the numbers its data holds (read here from the TOML itself, not the engine's
tables), and names only seats at the table. The first table shows them, names filled in, and a
restart never reads them back as the turn's lines."""
from __future__ import annotations

import itertools
import re

import pytest

import games
from bot import livetable
from bot.table import Seat, Table
from data import load_toml
from data.locales import DEFAULT, LANGUAGES, render
from games.core import count, setup

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def tables(name: str, lang: str = DEFAULT):
    """(seats, options, opening lines in `lang`) for every seat count and every mix of lobby
    options."""
    game = games.get(name)
    options = game.option_choices
    for seats in range(game.min_seats, game.max_seats + 1):
        for values in itertools.product(*options.values()):
            chosen = dict(zip(options, values))
            yield seats, chosen, [render(lang, line) for line in game.opening(setup(game, seats, chosen, 1))]


def step(points: list, x: float):
    return next(value for start, value in reversed(points) if x >= start)


@pytest.mark.parametrize("name", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
def test_every_table_hears_a_few_short_lines_naming_only_its_own_seats(name):
    for lang in LANGUAGES:
        for seats, options, lines in tables(name, lang):
            assert 1 <= len(lines) <= 3, (seats, options, lines)
            for line in lines:
                assert 20 <= len(line) <= 200 and line.endswith("."), line
                assert all(int(seat) < seats for seat in re.findall(r"\{p(\d+)\}", line)), line


def test_dontgo_tells_each_later_seat_its_bonus_from_the_data():
    toml = load_toml("dontgo", "dontgo.toml")
    words = {0.5: "half a curse", 1: "1 curse", 1.5: "1½ curses", 2: "2 curses"}
    for seats, _, lines in tables("dontgo"):
        bonus = toml["seat_balance"]["bonus"][str(seats)]
        said = [f"{{p{seat}}} {words[b]}" for seat, b in enumerate(bonus) if b]
        assert said and all(part in lines[0] for part in said), (bonus, lines)
        assert "{p0}" not in lines[0]
        faces = toml["ghosts"]["die"]
        assert lines[1] == f"The ghost die's faces show {', '.join(map(str, faces[:-1]))} and {faces[-1]} ghosts."


def test_castle_tells_which_seats_start_with_open_doors_from_the_data():
    toml = load_toml("castle", "castle.toml")
    for seats, _, lines in tables("castle"):
        doors = toml["seat_balance"]["open_doors"][str(seats)]
        opened = [(seat, n) for seat, n in enumerate(doors) if n]
        first = opened[0]
        assert lines[0].startswith(f"Seat balance: {{p{first[0]}}} starts with {count(first[1], 'door')} ")
        assert all(f"{{p{seat}}} with {n}" in lines[0] for seat, n in opened[1:]), lines
        assert sum(f"{{p{seat}}}" in lines[0] for seat in range(seats)) == len(opened)
        assert f"in {toml['rules']['max_turns']} turns" in lines[-1]
        board = toml["boards"][str(seats)]
        assert (f"{board['cols']} by {board['rows']}" in " ".join(lines)) == (seats > 2)


def test_kingdom_tells_the_two_player_equipment_the_demon_kings_stride_and_the_round_limit():
    toml = load_toml("kingdom", "cards.toml")["setup"]
    extra = toml["seat_balance"]["equipment_extra"]
    for seats, options, lines in tables("kingdom"):
        more = extra.get(str(seats), [0] * seats)
        told = [line for line in lines if line.startswith("Seat balance")]
        assert told == [f"Seat balance: {{p{seat}}} is dealt {count(n, 'more Equipment card')} "
                        f"({toml['equipment_each'] + n} in all)." for seat, n in enumerate(more) if n]
        assert any("strides over the Gate road" in line and "the Gate and the Ring of Stones are safe"
                   in line for line in lines), lines
        assert f"within {options['rounds']} rounds" in lines[-1]


def test_atmosfear_tells_the_head_start_the_wells_fears_the_miss_and_the_stacked_deck():
    rules = load_toml("atmosfear", "board.toml")["rules"]
    deck = load_toml("atmosfear", "time.toml")["deck"]
    game = games.get("atmosfear")
    for seats, options, lines in tables("atmosfear"):
        each = options["minutes"] / seats
        head = step(rules["head_start"], each)
        state = setup(game, seats, options, 1)
        fears = len(state.data["well"])  # the Gatekeeper's own, as the game set them out
        assert fears == max(0, step(rules["well_fears"], each) - seats)
        text = " ".join(lines)
        assert (f"you each start with {count(head, 'key')}" in text) == bool(head), text
        assert all(len(rack) == head for rack in (p["rack"] for p in state.data["players"]))
        assert (f"puts {count(fears, 'fear')} of his own" in text) == bool(fears), text
        waits = step(rules["well_miss"], each) == "stay"
        assert ("leaves you there to read again" in text) == waits
        assert ("sends you back to your headstone" in text) == (not waits)
        assert ("Time cards are stacked" in lines[-1]) == deck["skip_passed"]


def test_firetop_tells_the_round_limit_the_roll_wait_and_fighting_to_the_end():
    toml = load_toml("firetop", "game.toml")
    for _, options, lines in tables("firetop"):
        assert lines[0].startswith(f"The Warlock wakes at the end of round {options['rounds']}:")
        assert f"has {toml['timing']['roll_wait']} seconds a roll" in lines[1]
        assert lines[2].startswith("Fight to the end:")


def first_table(name: str, seats: int, options: dict) -> Table:
    game = games.get(name)
    state = setup(game, seats, options, 1)
    return Table(id=1, guild_id=1, channel_id=1, game=game, host_id=1, seed=1, options=options,
                 seats=[Seat(n, user_id=i + 1) for i, n in enumerate(NAMES[:seats])],
                 status="running", state=state, prompts=[game.prompt(state, s) for s in range(seats)],
                 tokens=[1] * seats)


def texts(view) -> dict[int | None, str]:
    """The layout's text displays by component id."""
    found, stack = {}, list(view.children)
    while stack:
        item = stack.pop()
        if hasattr(item, "content"):
            found[item.id] = item.content
        stack += list(getattr(item, "children", None) or [])
    return found


@pytest.mark.parametrize("name", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
def test_the_first_table_tells_them_by_name_and_a_restart_does_not_take_them_for_moves(name):
    game = games.get(name)
    table = first_table(name, 3, {})
    who = livetable.acting(table, game.view(table.state, None), 0.0, "en")
    view = livetable.table_layout(table, who, [], [], None, None, "en", began=table.state.turn)
    opening = texts(view)[livetable.OPENING_ID]
    assert opening.startswith("The game begins! House rules at this table:\n")
    for line in game.opening(table.state):
        assert f"- {table.fill(line)}" in opening
    assert "{p" not in opening
    assert livetable.lines_from(view.children) == []
    later = livetable.table_layout(table, who, ["Ana moves."], [], None, None, "en")
    assert livetable.OPENING_ID not in texts(later) and livetable.lines_from(later.children) == ["Ana moves."]

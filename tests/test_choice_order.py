"""A turn's choices show the likeliest kind first, from public data alone (issue 37, bot/order.py).

The order is each game's data/<game>/order.toml: kinds of action (an action's first word)
ranked by smart self-play, the do-nothing kinds kept last. The live table's buttons and selects
and the panel's buttons follow it; a button's custom id keeps the engine's index, so a click
means what the engine offered under it. What a seat holds never moves a button: states whose
hidden parts differ but offer the same kinds show them in the same order. The files are what
`python -m tests.choice_order` makes: their rank and layout are rebuilt from their tallies, and
their small run (`check`) is played again.
"""
from __future__ import annotations

import json
import tomllib
from collections import defaultdict

import discord
import pytest

import games
from bot import order, ui
from bot.choices import parse_path, walk
from bot.simulate import play
from bot.table import Seat, Table
from games.core import Choice, Prompt, Rng, Step, advance, setup
from tests import choice_order

GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")


def stored(name: str) -> dict:
    return tomllib.loads(order.order_file(games.get(name)).read_text(encoding="utf-8"))


def table_of(name: str, seats: int, seat: int, prompt: Prompt) -> Table:
    """A running table where only `seat`, a person, has `prompt` to answer."""
    return Table(id=1, guild_id=1, channel_id=1, game=games.get(name), host_id=1, seed=1,
                 options={}, seats=[Seat(f"P{i}", i + 1) for i in range(seats)],
                 status="running", prompts=[prompt if s == seat else None for s in range(seats)],
                 tokens=[0] * seats)


def shown_indexes(rows: list[discord.ui.ActionRow]) -> list[int]:
    """The engine's indexes of the choices on the live table, in the order shown: a button's
    from its custom id, a select's from its options' values."""
    indexes = []
    for row in rows:
        for item in row.children:
            route = ui.ROUTE.fullmatch(item.custom_id)
            if route is None or route["op"] != "c":
                continue
            if isinstance(item, discord.ui.Select):
                indexes += [int(option.value) for option in item.options]
            else:
                indexes.append(int(route["arg"]))
    return indexes


def collapsed(kinds: list[str]) -> list[str]:
    """Each kind once, where it first shows."""
    return list(dict.fromkeys(kinds))


def expected(name: str, kinds: list[str]) -> list[str]:
    """`kinds` in the file's order: its rank, then kinds it does not rank, then its `last`."""
    data = stored(name)
    rank, last = data["rank"], data["last"]
    return sorted(kinds, key=lambda k: rank.index(k) if k in rank
                  else len(rank) + 1 + last.index(k) if k in last else len(rank))


def one_of_each(name: str) -> list[Choice]:
    """A choice of every kind the file names, in the engine order the file would most change:
    a `last` kind first, then the ranked kinds from the least likely."""
    data = stored(name)
    kinds = data["last"][:1] + data["rank"][::-1]
    return [Choice(f"{k} x", (Step(k, f"Do {k}"),)) for k in kinds]


@pytest.mark.parametrize("name", GAMES)
def test_the_live_table_shows_the_files_rank_and_nothing_last_but_doing_nothing(name):
    choices = one_of_each(name)
    table = table_of(name, 2, 0, Prompt(0, "Your turn", choices))
    rows = ui.turn_rows(table, "en")
    indexes = shown_indexes(rows)
    data = stored(name)
    assert [order.kind(choices[i]) for i in indexes] == data["rank"] + data["last"][:1]
    labels = {item.custom_id: item.label for row in rows for item in row.children}
    for custom_id, label in labels.items():  # a button still carries the engine's index
        route = ui.ROUTE.fullmatch(custom_id)
        if route and route["op"] == "c":
            assert label == choices[int(route["arg"])].label


@pytest.mark.parametrize("name", GAMES)
def test_the_panel_shows_the_files_rank_and_each_button_keeps_its_choice(name):
    choices = one_of_each(name)
    table = table_of(name, 2, 0, Prompt(0, "Your turn", choices, private=True))
    view = ui.panel_view(table, 0, walk(choices, []), "en")
    picked = [walk(choices, parse_path(ui.ROUTE.fullmatch(item.custom_id)["arg"])).complete
              for item in view.children if ":p:" in (item.custom_id or "")]
    data = stored(name)
    assert [order.kind(choice) for choice in picked] == data["rank"] + data["last"][:1]
    assert [item.label for item in view.children if ":p:" in item.custom_id] == \
        [choice.label for choice in picked]


def test_a_panels_later_step_ranks_options_by_the_kinds_beneath_them():
    """A card may be played or discarded: after the card, the castle's panel offers playing
    first, as the file ranks it, whatever order the engine named them in."""
    choices = [Choice("discard key-red", (Step("key-red", "Red Key"), Step("discard", "Discard"))),
               Choice("play key-red A1", (Step("key-red", "Red Key"), Step("A1", "Open A1")))]
    table = table_of("castle", 2, 0, Prompt(0, "Your turn", choices, private=True))
    view = ui.panel_view(table, 0, walk(choices, [0]), "en")
    buttons = [item for item in view.children if ":p:0." in item.custom_id]
    assert [b.label for b in buttons] == ["Open A1", "Discard"]
    assert [walk(choices, parse_path(ui.ROUTE.fullmatch(b.custom_id)["arg"])).complete.action
            for b in buttons] == ["play key-red A1", "discard key-red"]


def test_a_choice_that_ends_a_step_early_is_passed_over():
    """A step that is itself a whole choice and leads to more: the next step's options are
    ranked by the longer choices alone."""
    choices = [Choice("discard key-red", (Step("key-red", "Red Key"),)),
               Choice("discard key-red now", (Step("key-red", "Red Key"), Step("now", "Now"))),
               Choice("play key-red A1", (Step("key-red", "Red Key"), Step("A1", "Open A1")))]
    assert order.options_in_order(games.get("castle"), walk(choices, [0])) == [1, 0]


def test_a_game_without_a_file_keeps_the_engines_order():
    """A plugin game that ships no order.toml: its choices as its engine offers them."""
    class Plain:
        name = "plain"
        rules_page = ("data", "plain/rules.md")
    choices = [Choice("pass", (Step("pass", "Pass"),)), Choice("take 1", (Step("1", "Take 1"),)),
               Choice("take 2", (Step("2", "Take 2"),))]
    assert order.runs_in_order(Plain(), choices, [[0], [1], [2]]) == [[0], [1], [2]]
    assert order.options_in_order(Plain(), walk(choices, [])) == [0, 1, 2]


def decisions(name: str, count: int):
    """(state, seat, prompt) at every decision between two kinds or more in `count` of the
    command's self-play games (its seeds, its seat counts)."""
    game = games.get(name)
    span = range(game.min_seats, game.max_seats + 1)
    for index in range(count):
        seats, seed = span[index % len(span)], choice_order.SEED + index
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed, log=log)
        state = setup(game, seats, None, seed)
        rng = Rng(0)
        for seat, action, now in log:
            prompt = game.prompt(state, seat) if seat >= 0 else None
            if prompt is not None and len({order.kind(c) for c in prompt.choices}) > 1:
                yield state, seat, prompt
            advance(game, state, seat, action, now, rng)


@pytest.mark.parametrize("name", GAMES)
def test_what_a_seat_holds_never_moves_a_button(name):
    """Along real games, every public choice between kinds is on the live table once, in the
    file's order, and prompts offering the same kinds show them in the same order, however
    what the seat holds (its own view of the game) differs. A private panel (the seat's own
    hand) shows each option at the likeliest kind it leads to."""
    game = games.get(name)
    orders: dict[frozenset[str], set[tuple[str, ...]]] = defaultdict(set)
    hidden: dict[frozenset[str], set[str]] = defaultdict(set)
    for state, seat, prompt in decisions(name, 3):
        kinds = [order.kind(c) for c in prompt.choices]
        if prompt.private:
            shown = [expected(name, [order.kind(c) for c in walk(prompt.choices, [i]).remaining])[0]
                     for i in order.options_in_order(game, walk(prompt.choices, []))]
            assert shown == expected(name, shown)
            continue
        indexes = shown_indexes(ui.turn_rows(table_of(name, state.seats, seat, prompt), "en"))
        if not indexes:  # too many: behind "Take my turn"
            continue
        assert sorted(indexes) == list(range(len(prompt.choices)))
        shown = collapsed([kinds[i] for i in indexes])
        assert shown == expected(name, shown)
        orders[frozenset(kinds)].add(tuple(shown))
        hidden[frozenset(kinds)].add(json.dumps(game.view(state, seat), sort_keys=True))
    assert orders and all(len(seen) == 1 for seen in orders.values()), dict(orders)
    assert max(len(views) for views in hidden.values()) > 1


@pytest.mark.parametrize("name", GAMES)
def test_each_file_is_what_the_command_makes(name):
    """The file's rank follows from its tally, laid out as the command writes it, and its
    small run is what the command's first games give today."""
    game = games.get(name)
    data = stored(name)
    small, _ = choice_order.tally(name, data["seed"], choice_order.CHECK)
    text = choice_order.file_text(game, data["last"], data["seed"], data["games"],
                                  data["tally"], small)
    assert order.order_file(game).read_text(encoding="utf-8") == text
    assert data["games"] >= 200 and set(data["rank"]) | set(data["last"]) >= set(data["tally"])

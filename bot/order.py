"""The order a turn's choices are shown in: the kind of action players pick most often first.

A phone wraps a row of buttons, so the likeliest choice should lead (issue 37). What this seat's
AI would pick depends on its hand, and the buttons are public, so the order comes from public
data alone: each game's kinds of action (an action's first word: "play", "move", "pass") ranked
in `order.toml` beside its rules page (data/<game>/order.toml), a file `python -m
tests.choice_order` makes from smart self-play. So the order of what is offered depends only on
which kinds are offered and the engine's order, never on a hidden card.

Within a kind the engine's order holds. The kinds the file lists as `last` (pass, end the turn,
keep what you have) come last whatever their frequency: a wrapped row's first button is the one
a thumb hits by mistake, and doing nothing must not be that button; and they stay where players
find them in every game. A kind the file does not rank, or a game without the file (a plugin),
keeps the engine's order. Only the order shown changes: a button's custom id still carries the
engine's index (`bot.choices`), so a click on an older board means what it meant.
"""
from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import PurePosixPath

from games.core import Choice, Game

from .choices import Position

FILE = "order.toml"


def kind(choice: Choice) -> str:
    """A choice's kind: its action's first word, as public as the button itself."""
    return choice.action.split(" ", 1)[0]


def order_file(game: Game) -> Traversable:
    """Where `game` keeps its order: beside its rules page, in its own package."""
    package, page = game.rules_page
    return files(package).joinpath(*PurePosixPath(page).parent.parts, FILE)


@cache
def places(game: Game) -> tuple[dict[str, int], int]:
    """Each kind the game's file names with its place (smaller first), and the place of a kind
    it does not name: after the ranked kinds, before the `last` ones."""
    path = order_file(game)
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    ranked, last = list(data.get("rank", [])), list(data.get("last", []))
    named = {name: place for place, name in enumerate(ranked)}
    named.update({name: len(ranked) + 1 + place for place, name in enumerate(last)})
    return named, len(ranked)


def place(game: Game, choices: Iterable[Choice]) -> int:
    """Where a group of choices goes: at the place of its likeliest kind."""
    named, unnamed = places(game)
    return min(named.get(kind(choice), unnamed) for choice in choices)


def runs_in_order(game: Game, choices: list[Choice], runs: list[list[int]]) -> list[list[int]]:
    """`runs` of `choices`' indexes (`bot.ui.runs_of_a_kind`), the likeliest kind first; runs
    of one place keep the engine's order (a stable sort)."""
    return sorted(runs, key=lambda run: place(game, (choices[index] for index in run)))


def options_in_order(game: Game, position: Position) -> list[int]:
    """The indexes of `position.options` in the order to show them: each option at the place
    of the likeliest kind it leads to; options of one place in the engine's order."""
    depth = len(position.path)
    return sorted(range(len(position.options)), key=lambda index: place(game, (
        choice for choice in position.remaining
        if len(choice.path) > depth and choice.path[depth].key == position.options[index].key)))

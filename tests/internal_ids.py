"""The internal ids of each game: what no player may ever read (tests/test_no_internal_ids.py).

Built from the data, never listed by hand: every key and id-shaped value of data/<game>/*.toml,
and the keys of the engines' id tables (board spaces, stones, cards). An id that is also a word
of the game's own prose (its rules page, the sentences of its TOML) is a word players may meet
("gate", "ring", "armoury"), so it is left out; an id with a digit, "_" or "-" never is.
"""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib.resources import files
from typing import Any, Callable, Iterable

ID_SHAPE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]+$")
MARKED = re.compile(r"[0-9_-]")  # an id with one of these is no word in any language players use


def _kingdom_tables() -> Iterable[Iterable[str]]:
    from games.kingdom import stock
    from games.kingdom.board import BOARD
    return BOARD.spaces, BOARD.hazards, BOARD.spots, stock.ITEMS, stock.TREASURES, stock.MONSTERS


def _firetop_tables() -> Iterable[Iterable[str]]:
    from games.firetop import content
    from games.firetop.board import BOARD
    return BOARD.adj, content.TREASURES, content.CARDS, content.FIXED, content.WARES


def _atmosfear_tables() -> Iterable[Iterable[str]]:
    from games.atmosfear import engine
    return engine.ALL_STONES, engine.FATE, engine.TIME


# The engines' id tables, per game (a game without one has only its TOML's ids).
ENGINE_TABLES: dict[str, Callable[[], Iterable[Iterable[str]]]] = {
    "kingdom": _kingdom_tables, "firetop": _firetop_tables, "atmosfear": _atmosfear_tables,
}


def _walk(node: Any, keys: set[str], values: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            keys.add(key)
            _walk(value, keys, values)
    elif isinstance(node, list):
        for value in node:
            _walk(value, keys, values)
    elif isinstance(node, str):
        values.append(node)


def _toml(game: str) -> tuple[set[str], list[str]]:
    """(every key, every string value) of the game's TOML files."""
    keys: set[str] = set()
    values: list[str] = []
    for entry in sorted(files("data").joinpath(game).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            _walk(tomllib.loads(entry.read_text(encoding="utf-8")), keys, values)
    return keys, values


def _prose(game: str) -> list[str]:
    """The game's sentences and names: its rules page, and its TOML's text values (a value all of
    whose words are keys, such as a path "gate hs hc moat_a", is ids, not text; a one-word value
    is a name when capitalised, "Ghoul", and an id otherwise)."""
    keys, values = _toml(game)
    prose = [v for v in values if (" " in v and not set(v.split()) <= keys) or v[:1].isupper()]
    prose.append(files("data").joinpath(game, "rules.md").read_text(encoding="utf-8"))
    return prose


@lru_cache(maxsize=1)
def english() -> frozenset[str]:
    """The words of every game's prose: the plain words players may meet in any game."""
    text = " ".join(p for entry in files("data").iterdir() if entry.joinpath("rules.md").is_file()
                    for p in _prose(entry.name))
    return frozenset(w.lower() for w in re.findall(r"[A-Za-z]+", text))


@lru_cache(maxsize=None)
def internal_ids(game: str) -> frozenset[str]:
    keys, values = _toml(game)
    engine = {str(i) for table in ENGINE_TABLES.get(game, lambda: ())() for i in table}
    candidates = {k for k in keys | set(values) if ID_SHAPE.match(k) and MARKED.search(k)}
    candidates |= {i for i in engine if ID_SHAPE.match(i)}
    words = english()
    return frozenset(i for i in candidates if MARKED.search(i) or i.lower() not in words)


def id_pattern(game: str) -> re.Pattern[str]:
    """Any of the game's ids as a whole word: not inside a longer word, number or id."""
    ids = sorted(internal_ids(game), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")

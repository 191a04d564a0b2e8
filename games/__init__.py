"""The registry of games, found by discovery rather than named in code.

A game is a plugin: a package whose `Game` instance is advertised under the entry-point group
`gatekeeper.games` (the built-in games in pyproject.toml, any other game in its own
distribution). Discovery is lazy, sorted by name for determinism, and forgiving: a game that
fails to import is logged and listed in `broken()`; the others still load.

May import: data.
"""
from __future__ import annotations

import logging
from importlib.metadata import EntryPoint, entry_points
from importlib.resources import files
from typing import Iterable

from data.locales import add_catalogs

from .core import Game

GROUP = "gatekeeper.games"
log = logging.getLogger("gatekeeper.games")

_games: dict[str, Game] | None = None
_broken: dict[str, str] = {}


def discover(found: Iterable[EntryPoint] | None = None) -> tuple[dict[str, Game], dict[str, str]]:
    """Load every advertised game: (games by name, broken entry point -> reason)."""
    games: dict[str, Game] = {}
    broken: dict[str, str] = {}
    points = entry_points(group=GROUP) if found is None else found
    for point in sorted(points, key=lambda p: p.name):
        try:
            game = point.load()
        except Exception as exc:  # one bad plugin never stops the others
            broken[point.name] = f"{type(exc).__name__}: {exc}"
            continue
        if not isinstance(game, Game):
            broken[point.name] = f"{point.value} is not a Game"
        elif game.name != point.name:
            broken[point.name] = f"advertised as {point.name!r} but named {game.name!r}"
        elif game.name in games:
            broken[point.name] = "a second game with this name"
        else:
            games[game.name] = game
            if game.catalogs is not None:  # a plugin's words, in its own package
                add_catalogs(files(game.catalogs[0]).joinpath(game.catalogs[1]))
    for name, reason in broken.items():
        log.error("game plugin %s not loaded: %s", name, reason)
    return games, broken


def _registry() -> dict[str, Game]:
    global _games, _broken
    if _games is None:
        _games, _broken = discover()
    return _games


def reload() -> None:
    """Forget what was discovered (after installing a plugin, or in a test that adds one)."""
    global _games
    _games = None
    _broken.clear()


class UnknownGame(KeyError):
    """No game by that name; the message lists the games there are."""

    def __str__(self) -> str:
        return str(self.args[0])


def registry() -> dict[str, Game]:
    """The live registry (tests add a tiny game to it with monkeypatch.setitem)."""
    return _registry()


def get(name: str) -> Game:
    registry = _registry()
    try:
        return registry[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(registry)) or "none"
        raise UnknownGame(f"There is no game called {name!r}. Games: {known}.") from None


def all_games() -> list[Game]:
    return list(_registry().values())


def broken() -> dict[str, str]:
    """Plugins that failed to load, with why (for logs and /games)."""
    _registry()
    return dict(_broken)

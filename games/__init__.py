"""Registry of games. Each game package exposes one `Game` instance as `GAME`."""
from __future__ import annotations

from importlib import import_module

from .core import Game

_PACKAGES = ("castle", "dontgo", "atmosfear")
REGISTRY: dict[str, Game] = {}
_loaded = False


def _load() -> None:
    """Import the game packages once, on first use (keeps `import games` cheap)."""
    global _loaded
    if not _loaded:
        for package in _PACKAGES:
            module = import_module(f"games.{package}")
            REGISTRY.setdefault(module.GAME.name, module.GAME)
        _loaded = True


def get(name: str) -> Game:
    _load()
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(REGISTRY))}") from None


def all_games() -> list[Game]:
    _load()
    return list(REGISTRY.values())

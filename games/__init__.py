"""Registry of games. Each game package registers one `Game` instance here."""
from __future__ import annotations

from importlib import import_module

from .core import Game

_PACKAGES = ("castle",)
REGISTRY: dict[str, Game] = {}


def get(name: str) -> Game:
    if not REGISTRY:
        for package in _PACKAGES:
            module = import_module(f"games.{package}")
            REGISTRY[module.GAME.name] = module.GAME
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(REGISTRY))}") from None


def all_games() -> list[Game]:
    get(_PACKAGES[0])
    return list(REGISTRY.values())

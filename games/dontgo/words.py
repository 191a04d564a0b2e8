"""Don't Go In There's words as message ids (data/dontgo/locales/*.po): the engine says what
happened and what to do as `Msg`s, and each reader gets them in their own language.

The messages that recur all game (a card, a count of ghosts, a room's name) are made once here
and shared: a `Msg` is a read-only value, and the engine is speed-measured.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from data.locales import Msg
from games.core import IllegalAction

ID = "game.dontgo."


@lru_cache(maxsize=None)
def say(name: str, **params: Any) -> Msg:
    """The game's message `name` (its id without the game's prefix), made once per parameters."""
    return Msg(ID + name, **params)


@lru_cache(maxsize=None)
def counted(noun: str, n: int) -> Msg:
    """`n` of a noun as the language agrees them: counted("ghost", 2) reads "2 ghosts"."""
    return Msg(f"{ID}n.{noun}", count=n)


@lru_cache(maxsize=None)
def type_name(ctype: str) -> Msg:
    """A card type's printed name ("Mirror")."""
    return Msg(f"{ID}type.{ctype}")


@lru_cache(maxsize=None)
def room_name(room: str) -> Msg:
    """A room's printed name ("Secret Passage")."""
    return Msg(f"{ID}room.{room}")


def lines(*parts: Msg) -> Msg:
    """Several messages as one, a line each (a private text is one message)."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Msg(ID + "lines", first=part, rest=joined)
    return joined


def refusal(name: str, **params: Any) -> IllegalAction:
    """An IllegalAction in the game's words (its message `name`, rendered for each reader)."""
    return IllegalAction(Msg(ID + name, **params))

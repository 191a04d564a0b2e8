"""Key to the Kingdom's words as message ids (data/kingdom/locales/<language>.po), so every
reader gets the log, the buttons and the refusals in their own language.

The data names things by id (a space, an item, a hazard's step); this module turns an id into
the message that says it. The English catalog holds the words data/kingdom/*.toml writes (a test
keeps them equal), so the TOML stays where a hazard's story is written. Messages that never
change are built once here: the engine is speed-measured and names places at every move.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from data import load_toml
from data.locales import Msg

from .board import BOARD, FACES, PANELS

GAME = "game.kingdom."
_CARDS: dict[str, Any] = load_toml("kingdom", "cards.toml")
_HAZARDS: dict[str, Any] = load_toml("kingdom", "hazards.toml")


def say(key: str, **params: Any) -> Msg:
    """One of the game's messages, `key` under game.kingdom."""
    return Msg(GAME + key, **params)


# Things by id, each as a name ("Sword") and, for equipment, as a sentence's object ("the Sword").
ITEM = {k: say(f"item.{k}") for k in _CARDS["equipment"]}
THE_ITEM = {k: say(f"item.{k}.the") for k in _CARDS["equipment"]}
TREASURE = {k: say(f"treasure.{k}") for k in (*_CARDS["treasures"], "cobra")}
MONSTER = {k: say(f"monster.{k}") for k in _CARDS["monsters"]}
HAZARD = {k: say(f"hazard.{k}") for k in _HAZARDS}
WORLD = {(panel, face): say(f"world.{panel}.{face}") for panel in PANELS for face in FACES}
HEARTLAND = say("world.heart")
PANEL = {panel: say(f"panel.{panel}") for panel in PANELS}
SPOT = {k: say(f"spot.{k}") for k in BOARD.spots}
NAMED = sorted({k for k, v in BOARD.names.items() if isinstance(v, str)} | set(BOARD.locations))
PLACE = {k: say(f"place.{k}") for k in NAMED}              # "the Sleeping Giant, near side"
BARE = {k: say(f"place.{k}.bare") for k in NAMED}          # "Sleeping Giant, near side"
LANDMARK = {k: say(f"landmark.{k}") for k in NAMED}        # "Sleeping Giant"
CROSS = {k: say("choice.cross", hazard=HAZARD[k]) for k in BOARD.hazards}  # "Cross the Bone Pit"


def chain(key: str, items: list[Any]) -> Any:
    """`items` joined pairwise by message `key` ("{first}; {then}", "{first}\n{then}"): a list
    with a separator of its own, which a list parameter (written "a, b and c") is not."""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = say(key, first=item, then=joined)
    return joined


def step(hazard: str, step_id: str, part: str, **params: Any) -> Msg:
    """A hazard step's words from hazards.toml: its `say`, `show` or `verb`, or a choice's label
    (`part` is the option's key)."""
    return Msg(f"{GAME}hazard.{hazard}.{step_id}.{part}", **params)


@cache
def world(space: str) -> Msg:
    """The World a space lies in (a Whirlpool: its panel's inner face; it has a name anyway)."""
    s = BOARD.spaces[space]
    return HEARTLAND if s.area == "heart" else WORLD[(s.area, s.face or "in")]


@cache
def place(space: str) -> Msg:
    """A space as a sentence names it: "the Sleeping Giant, near side", "a path in the Heartland"."""
    if space in PLACE:
        return PLACE[space]
    return say(f"place.{BOARD.spaces[space].kind}", world=world(space))


@cache
def bare(space: str) -> Msg:
    """A space as a button names it, a name without its article: "Path in the Heartland"."""
    if space in BARE:
        return BARE[space]
    return say(f"place.{BOARD.spaces[space].kind}.bare", world=world(space))


@cache
def short(space: str) -> Msg:
    """A space as a sentence on a button names it, a cache shortly: "a cache in the Heartland"."""
    if space in PLACE:
        return PLACE[space]
    return say(f"place.{BOARD.spaces[space].kind}.short", world=world(space))

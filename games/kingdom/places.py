"""Places as a choice names them, told apart by where they lead.

Plain path spaces share their words ("a path in the Heartland"), so a throw that could end on
two of them showed two buttons alike but for their letters. Where a choice names several spaces
alike, each is told by the first named place beyond it, going on the way the move goes: "path
toward Gate", "cache toward Snake Pit" (the place beyond by its name alone: its side would not
tell the way apart, and a phone shows ~34 characters a button).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from data.locales import Msg

from .board import BOARD
from .words import LANDMARK, bare, say

KINDS = {"supply": "supply"}  # a plain space's short word by its kind ("cache"); the rest are "path"


def named(space: str) -> bool:
    """Does `space` have words of its own (a hazard's end, a Key Location, the Gate)?"""
    return space in BOARD.locations or isinstance(BOARD.names.get(space), str)


def toward(space: str, start: str, fold: dict[str, str]) -> str | None:
    """The first named place beyond `space` seen from `start`: along the paths that lead on
    away from `start` (the nearest, the first by id among equals); None if there is none."""
    return _toward(space, start, fold["west"], fold["east"])


@lru_cache(maxsize=4096)
def _toward(space: str, start: str, west: str, east: str) -> str | None:
    """`toward`, kept: every move's buttons ask it, the hard AI's rollouts thousands of times."""
    fold = {"west": west, "east": east}
    adj = BOARD.adjacency(fold)
    away = BOARD.distances(fold, start)
    seen, frontier = {space}, [space]
    while frontier:
        ahead = sorted({nb for here in frontier for nb in adj.get(here, ())
                        if nb not in seen and away.get(nb, 0) > away.get(here, 0)})
        found = [nb for nb in ahead if named(nb)]
        if found:
            return found[0]
        seen.update(ahead)
        frontier = ahead
    return None


def beyond_alike(spaces: list[str], start: str, d: dict[str, Any]) -> dict[str, str | None]:
    """Each of `spaces` (one choice's places, reached from `start`) -> the named place beyond it
    when two of them would read alike, else None (its own name tells it)."""
    said = [BOARD.name(space) for space in spaces]
    return {space: toward(space, start, d["fold"]) if said.count(BOARD.name(space)) > 1 else None
            for space in spaces}


def toward_words(space: str, beyond: str) -> Msg:
    """ "Path toward Gate", "Cache toward Snake Pit": a plain space by where it leads."""
    return say(f"place.toward.{KINDS.get(BOARD.spaces[space].kind, 'track')}", place=LANDMARK[beyond])


def place_words(spaces: list[str], start: str, d: dict[str, Any]) -> dict[str, Msg]:
    """Each of `spaces` as a button names it: its name without article ("Sleeping Giant, near
    side"), or where two would read alike, by where it leads ("Path toward Gate")."""
    return {space: bare(space) if beyond is None else toward_words(space, beyond)
            for space, beyond in beyond_alike(spaces, start, d).items()}

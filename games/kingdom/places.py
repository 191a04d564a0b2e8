"""Places as a choice names them, told apart by where they lead.

Plain path spaces share their words ("a path in the Heartland"), so a throw that could end on
two of them showed two buttons alike but for their letters. Where a choice names several spaces
alike, each is told by the first named place beyond it, going on the way the move goes: "path
toward Gate", "cache toward Snake Pit" (the place beyond by its name alone: its side would not
tell the way apart, and a phone shows ~34 characters a button).
"""
from __future__ import annotations

from typing import Any

from .board import BOARD

KINDS = {"supply": "cache"}  # a plain space's short word by its kind; the rest are "path"


def named(space: str) -> bool:
    """Does `space` have words of its own (a hazard's end, a Key Location, the Gate)?"""
    return space in BOARD.locations or isinstance(BOARD.names.get(space), str)


def toward(space: str, start: str, fold: dict[str, str]) -> str | None:
    """The first named place beyond `space` seen from `start`: along the paths that lead on
    away from `start` (the nearest, the first by id among equals); None if there is none."""
    adj = BOARD.adjacency(fold)
    away = BOARD.distances(fold, start)
    seen, frontier = {space}, [space]
    while frontier:
        ahead = sorted({nb for here in frontier for nb in adj.get(here, ())
                        if nb not in seen and away.get(nb, 0) > away.get(here, 0)})
        found = [nb for nb in ahead if named(nb)]
        if found:
            return landmark(found[0])
        seen.update(ahead)
        frontier = ahead
    return None


def landmark(space: str) -> str:
    """A named space as a landmark, without its article and side: "Bridge of Glass"."""
    return BOARD.name(space).split(", ")[0].removeprefix("the ")


def button_words(words: str, article: bool = True) -> str:
    """A place's words as a button says them, shorter: an equipment cache is "a cache";
    without `article`, without a leading "the", "a" or "an" ("Out to cache in the Heartland")."""
    words = words.replace("an equipment cache", "a cache")
    if not article:
        for lead in ("the ", "a ", "an "):
            words = words.removeprefix(lead)
    return words


def place_words(spaces: list[str], start: str, d: dict[str, Any]) -> dict[str, str]:
    """Each of `spaces` (one choice's places, reached from `start`) in the board's words; where
    two would read alike, by where it leads instead ("path toward the Gate")."""
    words = {space: BOARD.name(space) for space in spaces}
    said = list(words.values())
    for space in spaces:
        if said.count(words[space]) > 1:
            beyond = toward(space, start, d["fold"])
            if beyond is not None:
                words[space] = f"{KINDS.get(BOARD.spaces[space].kind, 'path')} toward {beyond}"
    return words

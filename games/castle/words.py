"""Keys to the Castle's words as message ids (data/castle/locales/*.po): the engine names a
message and its parameters, players as "{pN}", and each reader gets it in their language
(data.locales). Game terms as data/locales/glossary/castle.md writes them.
"""
from __future__ import annotations

from typing import Any

from data.locales import Msg


def say(id: str, /, **params: Any) -> Msg:
    """Castle's message `id` (the part after "game.castle.")."""
    return Msg(f"game.castle.{id}", **params)


def edge_name(side: str, rows: int, cols: int) -> Msg:
    """A seat's own edge as the board's coordinates name it: "row 8", "column A"."""
    if side in ("N", "S"):
        return say("edge.row", row=1 if side == "N" else rows)
    return say("edge.column", column="A" if side == "W" else chr(64 + cols))


def lines(*parts: Msg) -> Msg:
    """Several messages as one text, a line each (a seat's private text)."""
    return say(f"lines.{len(parts)}", **{f"line{i}": part for i, part in enumerate(parts)})

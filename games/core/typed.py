"""Typed moves as people type them, for every game.

Phones turn ' into ’ and " into “ ”: `straighten` gives the plain quotes back before a game reads a
typed action, so "Warlock’s Study" names the same room as "Warlock's Study". Only quotes change:
digits and letters from other scripts stay as typed, for the game to refuse rather than guess.

A refused typed move says what could be typed instead: `typed_forms` lists the legal typed
forms, grouped by their first word and cut short, for the refusal's message (in the reader's
language) to hold.
"""
from __future__ import annotations

from typing import Iterable

QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2039": "'", "\u203a": "'",
    "\u02bc": "'", "\u02b9": "'", "\u2032": "'", "\u00b4": "'", "\uff07": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2033": '"', "\u02ba": '"', "\uff02": '"',
})


def straighten(text: str) -> str:
    """`text` with typographic quotes and apostrophes as the ASCII ones."""
    return text.translate(QUOTES)


def squash(text: str) -> str:
    """The letters and digits of `text`, lower case: names compared this way ignore spaces,
    apostrophes and brackets ("Gaoler's Keys (1, 4, 7)" and "gaolers keys 147" agree)."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def typed_forms(forms: Iterable[str], most: int = 6) -> str:
    """The typed forms `forms` (e.g. "roll", "move A", "move B") grouped by their first word
    and cut short, for a refusal's message to hold: "`roll` · `move A/B`". A first word with
    more than `most` endings shows the first ones and "…". Empty when there is nothing to type."""
    order: list[str] = []
    bare: set[str] = set()
    endings: dict[str, list[str]] = {}
    for form in forms:
        verb, _, rest = form.strip().partition(" ")
        if not verb:
            continue
        if verb not in order:
            order.append(verb)
        if not rest:
            bare.add(verb)
            continue
        shown = endings.setdefault(verb, [])
        if rest not in shown:
            shown.append(rest)
    parts = []
    for verb in order:
        if verb in bare:
            parts.append(f"`{verb}`")
        rest = endings.get(verb)
        if rest:
            more = "/…" if len(rest) > most else ""
            parts.append(f"`{verb} " + "/".join(rest[:most]) + more + "`")
    return " · ".join(parts)

"""Board markers: the letters a board image draws on the places a set of choices names.

A game orders the places its current choices name (in the order its buttons show them) and hands
that list to both its choice labels and its public view, so the letter on a button and the letter
on the picture come from one list and cannot disagree.
"""
from __future__ import annotations

from string import ascii_uppercase


def marker(index: int) -> str:
    """The marker of the `index`-th marked place: A-Z, then AA, AB, … (never needed in practice:
    a die reaches fewer than 26 places, but a marker must never repeat)."""
    if index < len(ascii_uppercase):
        return ascii_uppercase[index]
    high, low = divmod(index, len(ascii_uppercase))
    return marker(high - 1) + ascii_uppercase[low]


def marked(places: list[str]) -> dict[str, str]:
    """Place -> its marker, in the given order (duplicates keep their first marker)."""
    out: dict[str, str] = {}
    for place in places:
        if place not in out:
            out[place] = marker(len(out))
    return out


ARTICLES = ("a ", "an ", "the ")


def mark_label(mark: str, words: str) -> str:
    """A choice's label that repeats the board's marker, its words without a leading article (a
    label is a name, not a sentence): "A · Sleeping Giant, near side"."""
    for article in ARTICLES:
        if words.lower().startswith(article):
            words = words[len(article):]
            break
    return f"{mark} · {words[:1].upper()}{words[1:]}"

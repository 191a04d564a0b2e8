"""Board pictures in words: the alt text a screen reader says instead of "image".

One module per game (`render.words.<game>`, named by the game plugin's `describer` hook) turns
the same public view the board image is drawn from into a few sentences. Like the renderers they
read only that view (and the game's data files for place names), never an engine or a clock; and
they never load Pillow, so the bot can describe a board without the render worker.

Sentences come in order of importance (who acts, where everyone is, what they hold, the rest):
`fit` keeps as many whole sentences as Discord's limit for a media description allows.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

LIMIT = 1024  # Discord's limit for a media item's description
ELLIPSIS = "…"
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def fit(sentences: Iterable[str], limit: int = LIMIT) -> str:
    """The sentences joined with spaces, stopping before the first that would pass `limit`
    characters, so the text never ends mid-sentence. A first sentence longer than the limit on
    its own (absurdly long names) is cut at a word and marked with an ellipsis."""
    kept: list[str] = []
    used = 0
    for sentence in sentences:
        sentence = sentence.strip()
        if not sentence:
            continue
        extra = len(sentence) + (1 if kept else 0)
        if used + extra > limit:
            if not kept:
                cut = sentence[: limit - len(ELLIPSIS)]
                head = cut.rsplit(" ", 1)[0] if " " in cut else cut
                kept.append(head + ELLIPSIS)
            break
        kept.append(sentence)
        used += extra
    return " ".join(kept)


def clamp(text: str, limit: int = LIMIT) -> str:
    """`text` cut to `limit` characters at the end of a sentence (`fit` of its sentences)."""
    return fit(SENTENCE_END.split(text), limit)


def name_of(view: dict[str, Any], seat: Any) -> str:
    """The seat's player name as the board shows it ("Player 2" when the view has none)."""
    names = view.get("names") or []
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Player {seat + 1}" if isinstance(seat, int) else "nobody"


def sentence(text: str) -> str:
    """`text` ending as a sentence does."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def acting(view: dict[str, Any], default: str) -> str:
    """Who acts now as one sentence: the bot's own words when it gives them (`view["acting"]`,
    the same line as the message header), else the game's `default`. (A finished game's result
    is the view's own fact: describers say it with `sentence`.)"""
    return sentence(str(view.get("acting") or "").strip() or default)

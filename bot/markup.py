"""Discord Markdown that stays whole when a line is shortened.

A line cut in the middle of `**5 1 2**` leaves an opening `**` that turns the rest of the
message bold (and shows a stray `**` where the next span closes). Here a cut falls only between
spans, never inside one: inside bold, italics, underline, strike-through, spoilers, code, an
escape (`\\*`) or an angle-bracket tag (a mention, `<t:…:R>`). A marker with no partner, cut or
not, is escaped so Discord shows it as the character it is.

Markers pair left to right per kind (`**`, `__`, `~~`, `||`, `*`), as `**` is read before `*`;
a run of backticks opens code closed by the next run of the same length, and markers inside
code are plain text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

ELLIPSIS = "…"
_TOKEN = re.compile(r"\\.|`+|<[^<>\s]*>|\*\*|__|~~|\|\||\*", re.S)


@dataclass
class _Parsed:
    spans: list[tuple[int, int]] = field(default_factory=list)  # start, end of what is whole
    strays: list[tuple[int, int]] = field(default_factory=list)  # markers with no partner


def _parse(text: str) -> _Parsed:
    parsed = _Parsed()
    opened: dict[str, int] = {}
    position = 0
    while (token := _TOKEN.search(text, position)) is not None:
        start, end, marker = token.start(), token.end(), token.group()
        position = end
        if marker.startswith(("\\", "<")):
            parsed.spans.append((start, end))
        elif marker.startswith("`"):
            closing = re.compile(rf"(?<!`){marker}(?!`)").search(text, end)
            if closing is None:
                parsed.strays.append((start, end))
            else:
                parsed.spans.append((start, closing.end()))
                position = closing.end()
        elif marker in opened:
            parsed.spans.append((opened.pop(marker), end))
        else:
            opened[marker] = start
    parsed.strays += [(start, start + len(marker)) for marker, start in opened.items()]
    return parsed


def balanced(text: str) -> str:
    """`text` with every marker that has no partner escaped: what Discord shows is the text
    as written, and no style runs on past it."""
    for start, end in sorted(_parse(text).strays, reverse=True):
        text = text[:start] + "".join(f"\\{c}" for c in text[start:end]) + text[end:]
    return text


def clip(text: str, limit: int) -> str:
    """`text` balanced and at most `limit` characters: whole if it fits, else cut before the
    last word or span that does not, and ended with an ellipsis."""
    whole = balanced(text)
    if len(whole) <= limit:
        return whole
    spans = _parse(text).spans
    budget = limit - len(ELLIPSIS)
    while budget > 0:
        cut = _safe_cut(text, spans, budget)
        head = balanced(text[:cut].rstrip()) + ELLIPSIS
        if len(head) <= limit:
            return head
        budget -= len(head) - limit
    return ELLIPSIS[:limit]


def _safe_cut(text: str, spans: list[tuple[int, int]], budget: int) -> int:
    """The last position at or before `budget` outside every span, at a space if one is found
    in the second half (a word is not cut then)."""
    cut = budget
    while True:
        inside = [start for start, end in spans if start < cut < end]
        if inside:
            cut = min(inside)
            continue
        space = text.rfind(" ", 0, cut + 1)
        if space > cut // 2 and space != cut:
            cut = space
            continue
        return cut

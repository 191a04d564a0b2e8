"""An independent reading of Discord Markdown for the tests: which markers a text leaves open.

Written apart from bot.markup (no shared code), by removal rather than by pairing: escapes,
closed code spans and angle-bracket tags become spaces (leftmost first), then each marker kind
must occur an even number of times (`**` counted before `*`)."""
from __future__ import annotations

import re

# what is whole, leftmost first: an escape, a closed code span, an angle-bracket tag
WHOLE = re.compile(r"\\.|(`+)(?!`).*?(?<!`)\1(?!`)|<[^<>\s]*>", re.S)


def open_markers(text: str) -> list[str]:
    """The marker kinds that `text` leaves unbalanced (empty when all are closed)."""
    text = WHOLE.sub(" ", text)  # a gap: markers on either side stay apart
    left = []
    if "`" in text:
        left.append("`")
    for marker in ("**", "__", "~~", "||", "*"):
        if text.count(marker) % 2:
            left.append(marker)
        text = text.replace(marker, " ")
    return left

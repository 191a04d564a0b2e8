"""A game's rules page as /rules sends it: its `## ` sections, with paragraphs that flow, and
the English names of a translated page's topics.

The pages are Markdown wrapped at about 100 columns for reading in an editor; Discord keeps every
newline, so a wrapped page would break its sentences mid-line on a phone. Lines that continue a
paragraph or a list item are joined; headings, list items, table rows, quotes and code blocks
keep their own lines.
"""
from __future__ import annotations

import re

# A line that starts a block of its own (or is blank): everything else continues the line above.
BLOCK_START = re.compile(r"\s*($|#|[-*+] |\d+\. |\||>|```)")
# A line nothing continues: a heading, a table row or a blank line.
WHOLE_LINE = re.compile(r"\s*($|#|\|)")


def flowing(markdown: str) -> str:
    """`markdown` with each paragraph and list item on one line (code blocks untouched)."""
    lines: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            lines.append(line)
            continue
        if not in_code and lines and not BLOCK_START.match(line) and not WHOLE_LINE.match(lines[-1]):
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line)
    return "\n".join(lines)


def sections(markdown: str) -> dict[str, str]:
    """The page's `## ` sections, flowing, keyed by lower-case heading; each starts with its
    heading in bold."""
    found: dict[str, str] = {}
    for chunk in flowing(markdown).split("\n## ")[1:]:
        heading, _, body = chunk.partition("\n")
        found[heading.strip().lower()] = f"**{heading.strip()}**\n{body.strip()}"
    return found


def english_topics(page: str, english: str) -> dict[str, str]:
    """Each topic of the `english` page -> the same topic of the translated `page`: a translation
    keeps the headings in the same order, so a reader who types a topic in English (or from a
    help written in English) still finds its section."""
    return dict(zip(sections(english), sections(page)))

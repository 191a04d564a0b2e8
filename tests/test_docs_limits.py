"""The docs stay short enough to be read: the architecture page and the performance report have a
line budget, and no paragraph of any doc runs past 1,000 characters (a longer one is a table, a
list, or two paragraphs waiting to happen). A paragraph is a run of prose lines: blank lines,
headings, table rows, code fences and HTML comments (the report's section markers) end one, and
each list item is one of its own."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = {"docs/architecture.md": 200, "docs/performance.md": 150}
MAX_PARAGRAPH = 1_000
DOCS = sorted({*ROOT.glob("docs/**/*.md"), ROOT / "README.md", ROOT / "CONTRIBUTING.md"})
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
BREAK = re.compile(r"^\s*(?:$|#|\||<!--|```)")


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a Markdown text (see the module docstring), each joined by spaces."""
    found: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or BREAK.match(line) or LIST_ITEM.match(line):
            if current:
                found.append(current)
            current = [line.strip()] if not fenced and LIST_ITEM.match(line) else []
            continue
        current.append(line.strip())
    if current:
        found.append(current)
    return [" ".join(lines) for lines in found]


def test_paragraphs_split_at_blank_lines_headings_tables_fences_and_list_items():
    text = ("# Title\none\ntwo\n\n- item a\n  more a\n- item b\n| a | b |\n"
            "```\ncode line\n```\n<!-- bench:x -->\nlast\n")
    assert paragraphs(text) == ["one two", "- item a more a", "- item b", "last"]


@pytest.mark.parametrize("doc", sorted(MAX_LINES))
def test_a_doc_with_a_line_budget_keeps_to_it(doc):
    lines = len((ROOT / doc).read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES[doc], f"{doc} has {lines} lines, at most {MAX_LINES[doc]}"


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_no_paragraph_runs_past_a_thousand_characters(doc):
    long = [p for p in paragraphs(doc.read_text(encoding="utf-8")) if len(p) > MAX_PARAGRAPH]
    assert long == [], "\n\n".join(f"{len(p)} characters: {p[:160]}..." for p in long)

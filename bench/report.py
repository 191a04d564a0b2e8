"""docs/performance.md, written section by section: each benchmark command rewrites its own
section and nothing else, so the file never drifts from the code that measures it.

A section sits between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` and holds its heading,
the command that produced it, the machine and the date, and its table. Text outside the markers
(the budgets at the top) is written by hand and left alone.
"""
from __future__ import annotations

import os
import platform
import time
from pathlib import Path

TITLE = "# Performance"


def produced_by(command: str) -> str:
    """The line under a section's heading: how to reproduce it, where and when it was measured."""
    return (f"`{command}` · {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()} · {time.strftime('%Y-%m-%d')}")


def tight(lines: list[str]) -> list[str]:
    """`lines` without a blank line just before a table: Markdown starts a table under a line of
    text as well, and the report has a line budget (tests/test_docs_limits.py)."""
    return [line for line, after in zip(lines, [*lines[1:], ""]) if line or not after.startswith("|")]


def replace_section(text: str, name: str, lines: list[str]) -> str:
    """`text` with section `name` replaced by `lines` (marked, `tight`), or with it added at the
    end."""
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    section = "\n".join([start, *tight(lines), end])
    if start in text and end in text:
        before, rest = text.split(start, 1)
        return before + section + rest.split(end, 1)[1]
    return text.rstrip("\n") + "\n\n" + section + "\n"


def write_section(path: Path, name: str, lines: list[str]) -> None:
    """Rewrite section `name` of the report at `path` (a new report if there is none yet)."""
    text = path.read_text() if path.exists() else TITLE + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replace_section(text, name, lines))


def publish(path: Path, name: str, lines: list[str]) -> None:
    """Print a section and rewrite it in the report at `path`."""
    print("\n".join(lines))
    write_section(path, name, lines)


def budget(limit: str, met: bool) -> str:
    """A section's verdict on its budget, worked out from the figures it writes beside it."""
    return f"Budget, {limit}: {'met' if met else '**not met**'}."

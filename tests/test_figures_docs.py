"""The self-play figures on the rules pages are what `python -m tests.figures` prints.

The big samples (2,000 games a seed for seat balance, a few hundred for the rest) take minutes,
too long for a test, so the command stores its lines (`--write tests/data/figures/<file>`) and
this test checks that every page shows the row each stored line gives (`tests.figures.rows`),
and every translated page (rules.<lang>.md) the same numbers in its own words.
That the stored lines come from today's code is checked cheaply: `check.txt` holds small runs of
the same command (`--check`), stored with the big ones, and the test runs them again: a change to a
game or its AI that moves the figures fails here until the figures are made again (the commands
are in each file's page, and in tests/figures.py).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from data.locales import DEFAULT, LANGUAGES
from tests.figures import rows, run
from tests.page_numbers import numbers, table_rows

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "tests" / "data" / "figures"
PAGES = {
    "seats-castle.txt": "castle", "seats-dontgo.txt": "dontgo", "seats-kingdom.txt": "kingdom",
    "seats-atmosfear.txt": "atmosfear", "kingdom.txt": "kingdom", "firetop.txt": "firetop",
    "atmosfear.txt": "atmosfear", "seats-firetop.txt": "firetop",
}


def stored(name: str) -> list[str]:
    return [line for line in (FIGURES / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_shows_every_stored_figure(name):
    page = (ROOT / "data" / PAGES[name] / "rules.md").read_text(encoding="utf-8")
    missing = [r for r in rows(stored(name)) if r not in page]
    assert stored(name) and not missing, missing


@pytest.mark.parametrize("name, lang", [pytest.param(name, lang, id=f"{name}-{lang}")
                                        for name in sorted(PAGES) for lang in LANGUAGES
                                        if lang != DEFAULT])
def test_the_translated_page_shows_every_stored_figure(name, lang):
    """A translation writes the rows in its own words and number format: each English row's
    numbers, in order, are a row of its table."""
    page = (ROOT / "data" / PAGES[name] / f"rules.{lang}.md").read_text(encoding="utf-8")
    missing = [r for r in rows(stored(name)) if numbers(r, DEFAULT) not in table_rows(page, lang)]
    assert stored(name) and not missing, missing


@pytest.mark.parametrize("check", stored("check.txt"), ids=lambda c: c.split(" => ")[0])
def test_the_command_still_prints_the_stored_small_runs(check):
    argv, _, printed = check.partition(" => ")
    assert " | ".join(run(argv.split())) == printed


def test_every_stored_file_has_a_small_run_checked():
    topics = {line.split(" => ")[0].split()[0 if not line.startswith("seats") else 1]
              for line in stored("check.txt")}
    assert {"castle", "dontgo", "kingdom", "atmosfear", "firetop"} <= topics

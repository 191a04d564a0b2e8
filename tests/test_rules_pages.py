"""/rules as Discord shows it: paragraphs flow (no newline in mid-sentence), lists, tables and
headings keep their lines, and each game's terms are explained where the page first uses them."""
from __future__ import annotations

import re

import pytest

import games
from bot.app import rules_sections
from bot.rulebook import flowing

NAMES = [g.name for g in games.all_games()]
# Lines that stand on their own: list items, table rows, headings (Markdown or a bold title line).
OWN_LINE = re.compile(r"(- |\* |\d+\. |\||#|\*\*[^*]+\*\*$)")


def broken_lines(text: str) -> list[str]:
    """The places where `text` breaks a paragraph or list item across two lines."""
    lines = text.splitlines()
    return [f"{above!r} / {below!r}" for above, below in zip(lines, lines[1:])
            if above.strip() and below.strip() and not OWN_LINE.match(below.lstrip())
            and not re.match(r"\||#|\*\*[^*]+\*\*$", above)]


def test_flowing_joins_wrapped_lines_and_keeps_blocks():
    page = ("## Turn\nRoll the die and\nmove.\n\n1. Draw a card; when the pile\n   runs out, shuffle.\n"
            "2. Play it.\n- **Keys**: six of\n  each colour.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
            "```\ncode stays\nas it is\n```")
    assert flowing(page).splitlines() == [
        "## Turn", "Roll the die and move.", "", "1. Draw a card; when the pile runs out, shuffle.",
        "2. Play it.", "- **Keys**: six of each colour.", "", "| a | b |", "|---|---|", "| 1 | 2 |",
        "```", "code stays", "as it is", "```"]
    assert broken_lines("**Turn**\nRoll the die and\nmove.") == ["'Roll the die and' / 'move.'"]


@pytest.mark.parametrize("name", NAMES)
def test_no_rules_section_breaks_a_sentence(name):
    sections = rules_sections(name, "en")
    assert sections
    for heading, text in sections.items():
        assert broken_lines(text) == [], heading
        assert len(text) <= 2000, heading  # one Discord message


# The terms a newcomer meets, and words that must stand near where the page first uses each.
TERMS = {
    "kingdom": {"holder": "face-down card", "Deep Magic": "a card you keep", "fold": "side panels",
                "Key Location": "guarded places", "hazard": "obstacles",
                "White Dagger": "each end of a hazard", "Black Dagger": "before its monster"},
    "firetop": {"Luck": "roll under", "Skill": "how well you fight", "Stamina": "health",
                "Double six": "double 6", "Key Challenge": "learn what is in the chest",
                "Provision": "meals", "Bunches of Keys": "numbered keys"},
    "atmosfear": {"Harbinger": "characters", "realm": "sixth of the board", "headstone": "start",
                  "Black Hole": "out of play", "Chosen One": "draws the fears",
                  "Fate card": "an order", "Well": "fear"},
    "castle": {"Secret Passage": "diagonally touching tiles", "net": "holds a player",
               "discard pile": "card"},
    "dontgo": {"meeple": "playing pieces", "curse": "penalty points",
               "flashlight": "keeps one ghost away", "planchette": "marker"},
}


@pytest.mark.parametrize("name", NAMES)
def test_each_term_is_explained_where_it_is_first_used(name):
    lines = [line for line in flowing(games.get(name).rules_text()).lower().splitlines()
             if not line.startswith("#")]
    for term, explanation in TERMS[name].items():
        first_use = next((line for line in lines if term.lower() in line), None)
        assert first_use is not None, term
        assert explanation.lower() in first_use, (term, first_use)

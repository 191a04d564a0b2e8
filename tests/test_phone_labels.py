"""Buttons a phone can show: no label a game offers is longer than `LONGEST` characters.

A phone wraps a row of buttons, and a long label wraps inside its button, so a choice must say
what it does in a few words (the letter of a place, the place by what tells it apart) and leave
the rest (who stands there, what a card does) to the text above. Each game is played by the
AI at every seat count, and every choice offered to every seat along the way is read as the
live table shows it (`bot.ui.choice_labels`: a run of one kind names the kind once) and as the
private panel shows it, step by step, in every language; players' names are short ones ("Ana"),
as most are.
"""
from __future__ import annotations

import pytest

import games
from bot.simulate import play
from bot.table import fill_names, named_prompt
from data.locales import LANGUAGES
from bot.ui import choice_labels
from games.core import advance, setup

LONGEST = 34  # characters: about what a phone's button shows on one line
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
SEED = 1

GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")


def offered_labels(name: str, seats: int, seed: int) -> set[str]:
    """Every label one AI game offers, on the live table and step by step in a panel."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    play(name, seats, seed, log=log)
    state = setup(game, seats, None, seed)
    names = NAMES[:seats]
    seen: set[str] = set()
    for index in range(len(log) + 1):
        for seat in range(seats):
            raw = game.prompt(state, seat)
            for prompt in [named_prompt(raw, names, lang) for lang in LANGUAGES] if raw else []:
                seen.update(choice_labels(prompt.choices, names))
                seen.update(fill_names(step.label, names) for c in prompt.choices for step in c.path)
        if index < len(log):
            advance(game, state, *log[index])
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_no_label_is_longer_than_a_phone_shows(name):
    game = games.get(name)
    long = sorted({label for seats in range(game.min_seats, game.max_seats + 1)
                   for label in offered_labels(name, seats, SEED) if len(label) > LONGEST}, key=len)
    assert long == [], f"{len(long)} labels over {LONGEST} characters, the longest: {long[-5:]}"


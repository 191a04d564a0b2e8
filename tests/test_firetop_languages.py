"""Firetop reads in German and Spanish: no English is left in any word the game writes, and every
word fits where Discord shows it.

Seeded games of the smart AI at every seat count are played, and along the way everything a
player reads is rendered in German and in Spanish: every public and private event, every
prompt's text and its choices' labels, refusals of a few illegal actions, the adventure sheet,
the opening lines, the result, the board's drawn text (`render.textrecord`) and its words (alt
text and panel). English is found by its words: those of the English renderings that no German
or Spanish catalog entry uses (player names, figures and typed moves in `backticks` aside: the
typed syntax is the same in every language). Every label, as a button or a select option shows
it, must fit a phone's button (`test_phone_labels.LONGEST` characters, well under Discord's 80
for a button and 100 for an option)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import pytest

from bot.rendering import board_view
from bot.simulate import play
from bot.table import fill_names, named_prompt
from bot.ui import choice_labels
from data.locales import messages
from games.core import IllegalAction, advance, apply, setup
from games.firetop import GAME
from render.firetop import draw_firetop
from render.textrecord import TextRecorder
from render.words.firetop import describe, panel
from tests.test_phone_labels import LONGEST

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
LANGS = ("de", "es")
SEEDS = (1, 2)
BOARDS = 6  # board views drawn per game, spread over it
# refusals provoked at each sampled moment: a word we do not know, bad arguments, and moves
# that are only sometimes possible
ILLEGAL = ("fly away", "move Z99", "open 1 2", "eat", "challenge 12", "buy dragon", "fight red", "show 9",
           "drop crown", "extras 99", "spoils idol", "cross", "press", "roll now", "nominate grey", "")
PROPER = {"Grubb"}  # the pedlar's name, the same in every language
WORD = re.compile(r"[^\W\d_]{2,}")
TYPED = re.compile(r"`[^`]*`")


def words_of(line: str) -> set[str]:
    """The words of `line`, typed moves (in backticks) left out."""
    return {w.lower() for w in WORD.findall(TYPED.sub(" ", line))}


@lru_cache(maxsize=None)
def catalog_words(lang: str) -> frozenset[str]:
    """Every word any of `lang`'s messages uses (not their {placeholders})."""
    found: set[str] = set()
    for message in messages(lang):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            found |= words_of(re.sub(r"\{\w+\}", "", string or ""))
    return frozenset(found)


class Reading:
    """Everything a player reads in one game, as the engine and the renderers give it."""

    def __init__(self) -> None:
        self.words: list[Any] = []  # engine words: Msg, stored messages or plain strings
        self.prompts: list[Any] = []
        self.views: list[dict[str, Any]] = []


@lru_cache(maxsize=None)
def reading(seats: int, seed: int) -> Reading:
    log: list[tuple[int, str, float]] = []
    assert play("firetop", seats, seed, log=log).over
    state = setup(GAME, seats, None, seed)
    seen = Reading()
    seen.words += GAME.opening(state)
    every = max(1, len(log) // BOARDS)
    for index, (seat, action, now) in enumerate(log):
        for s in range(seats):
            prompt = GAME.prompt(state, s)
            if prompt is not None:
                seen.prompts.append(prompt)
        if index % every == 0:
            seen.views.append(board_view(GAME, state, NAMES[:seats]))
            seen.words += [GAME.private_text(state, s) for s in range(seats)]
            for tried in ILLEGAL:
                try:
                    apply(GAME, state, seat, tried, now)
                except IllegalAction as refusal:
                    assert refusal.msg is not None, refusal.reason
                    seen.words.append(refusal.msg)
        seen.words += [event.text for event in advance(GAME, state, seat, action, now)]
    seen.words += [GAME.private_text(state, s) for s in range(seats)]
    seen.words.append(state.result["reason"])
    seen.views.append(board_view(GAME, state, NAMES[:seats]))
    return seen


def prompt_lines(prompts: list[Any], names: list[str], lang: str) -> tuple[list[str], list[str]]:
    """The prompts' texts, and their labels as buttons and panels show them, in `lang`."""
    texts, labels = [], []
    for raw in prompts:
        prompt = named_prompt(raw, names, lang)
        texts.append(prompt.text)
        labels += choice_labels(prompt.choices, names)
        labels += [step.label for choice in prompt.choices for step in choice.path]
    return texts, labels


def drawn(view: dict[str, Any], lang: str, recorder: TextRecorder) -> list[str]:
    """The strings the board of `view` shows in `lang`, its alt text and its panel."""
    view = dict(view, lang=lang)
    shown = [mark.meant for mark in recorder.texts(draw_firetop(view)) if len(mark.meant or "") > 1]
    return [*shown, describe(view), *panel(view)]


def renderings(seats: int, seed: int, lang: str) -> tuple[list[str], list[str]]:
    """Every line and every label a reader of `lang` reads in the game."""
    seen = reading(seats, seed)
    names = NAMES[:seats]
    lines = [fill_names(words, names, lang) for words in seen.words]
    texts, labels = prompt_lines(seen.prompts, names, lang)
    with TextRecorder() as recorder:
        boards = [line for view in seen.views for line in drawn(view, lang, recorder)]
    return lines + texts + boards, labels


CASES = [(seats, seed) for seats in range(GAME.min_seats, GAME.max_seats + 1) for seed in SEEDS]


@pytest.mark.parametrize("seats,seed", CASES)
def test_no_english_is_left_in_german_or_spanish(seats, seed):
    lines, labels = renderings(seats, seed, "en")
    english = set().union(*(words_of(line) for line in lines + labels))
    english -= {name.lower() for name in NAMES} | {name.lower() for name in PROPER}
    for lang in LANGS:
        only_english = english - catalog_words(lang)
        lines, labels = renderings(seats, seed, lang)
        left = sorted({(word, line) for line in lines + labels for word in words_of(line) & only_english})
        assert not left, f"{lang}: {len(left)} English words left, e.g. " + "; ".join(
            f"{word!r} in {line[:90]!r}" for word, line in left[:12])


@pytest.mark.parametrize("seats,seed", CASES)
@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_every_label_fits_a_phone_and_discord(seats, seed, lang):
    _, labels = renderings(seats, seed, lang)
    long = sorted({label for label in labels if len(label) > LONGEST}, key=len)
    assert not long, f"{lang}: {len(long)} labels over {LONGEST} characters: {long[-6:]}"


def test_the_english_words_are_found_and_would_fail_a_german_table():
    """The scan finds English: the English renderings hold words no German message uses."""
    lines, labels = renderings(2, SEEDS[0], "en")
    english = set().union(*(words_of(line) for line in lines + labels))
    assert {"the", "warlock", "adventurer", "moves"} <= english
    assert not {"the", "warlock", "adventurer", "moves"} & (catalog_words("de") | catalog_words("es"))

"""Don't Go In There reads in German and Spanish: no English word is left, and every word fits.

Smart-AI games at every seat count are played from seeds and everything a player reads is
gathered: every public and private event, every seat's prompt and its step labels, the
refusals a few illegal moves provoke, the private text, the opening lines, and the board (its
drawn text, its alt text and the table's panel lines). Each is rendered in English, German and
Spanish. A word of an English rendering that neither the German (Spanish) catalog of the game
nor a proper name (the title, the players' names) holds is English only: no German (Spanish)
rendering may hold one. Typed-move words (`place attic 2`: rooms, card types, verbs) are the
protocol, not words, so a refusal that lists them (or echoes what was typed) may show them in
any language. Every label fits a button (a phone's), every text a message, every board its
boxes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.refusal import said
from bot.rendering import board_view
from bot.simulate import play
from bot.table import fill_names, named_prompt
from bot.ui import choice_labels
from data import resource
from games.core import IllegalAction, Prompt, State, apply, setup
from games.dontgo import GAME
from games.dontgo.engine import ROOMS, TYPES
from render import dontgo as board
from render.textrecord import TextRecorder
from render.words.dontgo import TITLE, describe, panel
from tests.test_render_text_fit import dontgo_areas, problems

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
SEEDS = (3, 4)
OTHERS = ("de", "es")
WORD = re.compile(r"[^\W\d_]+")
PLACEHOLDER = re.compile(r"\{[^}]*\}")  # a catalog's {name}s are no words of its language
# Illegal moves for the seat to move (a syntax slip, a wrong kind, an out-of-range number).
JUNK = ("", "flub 3", "place", "place nowhere 1", "place attic 9", "pick", "pick 9", "change 9 to 1",
        "change 1 to 7", "dispel 999", "save 999", "tome", "tome tome", "tome foo", "keep", "pick 1")
# What a refusal may show in any language: typed-move words, and the player's own words echoed.
PROTOCOL = {word for name in (*ROOMS, *TYPES, *GAME.verbs, "to", *JUNK) for word in WORD.findall(name)}
BOARD_SAMPLES = 4  # boards drawn per game, spread over it, besides its end
LABEL = 80  # characters: Discord's limit for a button's or a select option's label
PHONE = 34  # characters: what a phone's button shows on one line (tests/test_phone_labels.py)
MESSAGE = 2000  # characters: Discord's limit for a message


@dataclass
class Read:
    """What players of one game read, as the engine and the board give it (any language)."""

    words: list[Any] = field(default_factory=list)  # events, prompt texts, private texts, openings
    prompts: list[Prompt] = field(default_factory=list)
    refusals: list[IllegalAction] = field(default_factory=list)
    boards: list[State] = field(default_factory=list)  # the states whose boards are drawn


@cache
def game_read(seats: int, seed: int) -> Read:
    """One smart-AI game, replayed move by move, and what its players read along it (every
    third move, the refusals of `JUNK` for the seat to move too)."""
    log: list[tuple[int, str, float]] = []
    assert play("dontgo", seats, seed, "smart", log=log).over
    state = setup(GAME, seats, None, seed)
    read = Read(words=list(GAME.opening(state)))
    step = max(1, len(log) // BOARD_SAMPLES)
    for index, (seat, action, now) in enumerate(log):
        if index % step == 0:
            read.boards.append(state)
        if index % 3 == 0:
            for junk in JUNK:
                try:
                    apply(GAME, state, seat, junk, now)
                except IllegalAction as exc:
                    read.refusals.append(exc)
        outcome = apply(GAME, state, seat, action, now)
        state = outcome.state
        read.words += [event.text for event in outcome.events]
        for who in range(seats):
            prompt = GAME.prompt(state, who)
            if prompt is not None:
                read.prompts.append(prompt)
                read.words.append(prompt.text)
        read.words.append(GAME.private_text(state, seat))
    read.boards.append(state)
    return read


CASES = [(seats, seed) for seats in range(GAME.min_seats, GAME.max_seats + 1) for seed in SEEDS]


def words_of(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


@cache
def catalog_words(lang: str) -> frozenset[str]:
    """Every word of the game's own catalog in `lang` (its placeholders left out)."""
    with resource("dontgo", "locales", f"{lang}.po").open("rb") as source:
        found: set[str] = set()
        for message in read_po(source, locale=lang):
            for form in message.string if isinstance(message.string, tuple) else (message.string,):
                found |= words_of(PLACEHOLDER.sub(" ", form or ""))
    return frozenset(found)


PROPER = words_of(TITLE) | words_of(" ".join(NAMES)) | {"a", "b"}  # and the rooms' sides, A and B


@dataclass
class Rendered:
    """Everything one game's players read, in one language: (what it is, the text)."""

    texts: list[tuple[str, str]]
    refusals: list[str]
    labels: list[str]  # each step's label
    buttons: list[str]  # each choice as a button or select option shows it


def rendered(read: Read, seats: int, lang: str) -> Rendered:
    names = list(NAMES[:seats])
    texts = [("words", fill_names(words, names, lang)) for words in read.words]
    labels, buttons = [], []
    for prompt in read.prompts:
        worded = named_prompt(prompt, names, lang)
        labels += [step.label for choice in worded.choices for step in choice.path]
        buttons += choice_labels(worded.choices, names)
    texts += [("label", label) for label in labels + buttons]
    for state in read.boards:
        shown = board_view(GAME, state, names, lang=lang)
        texts += [("alt text", describe(shown))] + [("panel", line) for line in panel(shown)]
    return Rendered(texts, [fill_names(said(lang, exc), names, lang) for exc in read.refusals], labels, buttons)


def english_only(lang: str, english: Rendered) -> set[str]:
    """The words English renderings hold that `lang`'s catalog and the proper names don't."""
    said_in_english = set().union(*(words_of(text) for _, text in english.texts),
                                  *(words_of(text) for text in english.refusals))
    return said_in_english - catalog_words(lang) - PROPER


def drawn_texts(read: Read, seats: int, lang: str) -> tuple[list[str], list[str]]:
    """The strings each board of the game shows in `lang`, and any that do not fit."""
    names = tuple(NAMES[:seats])
    shown, crowded = [], []
    with TextRecorder() as recorder:
        for state in read.boards:
            worded = board_view(GAME, state, list(names), lang=lang)
            image = board.draw_dontgo_naive(worded)
            marks = recorder.texts(image)
            shown += [mark.text for mark in marks if not mark.picture]
            crowded += problems(image, marks, dontgo_areas(worded), names)
    return shown, crowded


@pytest.mark.parametrize("seats,seed", CASES)
def test_no_english_word_is_left_in_german_or_spanish(seats, seed):
    read = game_read(seats, seed)
    english = rendered(read, seats, "en")
    english_board, _ = drawn_texts(read, seats, "en")
    english.texts += [("board", text) for text in english_board]
    for lang in OTHERS:
        only = english_only(lang, english)
        assert {"the", "takes", "ghosts", "curses", "meeple"} <= only  # the scan has English to find
        ours = rendered(read, seats, lang)
        drawn, _ = drawn_texts(read, seats, lang)
        offenders = {f"{kind}: {text!r} says {sorted(words_of(text) & only)}"
                     for kind, text in [*ours.texts, *(("board", text) for text in drawn)]
                     if words_of(text) & only}
        offenders |= {f"refusal: {text!r} says {sorted(words_of(text) & only - PROTOCOL)}"
                      for text in ours.refusals if words_of(text) & only - PROTOCOL}
        assert not offenders, f"{lang}: {len(offenders)} English leftovers:\n" + "\n".join(sorted(offenders)[:40])


@pytest.mark.parametrize("seats,seed", CASES[::len(SEEDS)])
@pytest.mark.parametrize("lang", ("en", *OTHERS))
def test_every_word_fits_where_discord_shows_it(seats, seed, lang):
    read = game_read(seats, seed)
    ours = rendered(read, seats, lang)
    assert ours.labels and ours.refusals and ours.buttons
    assert [label for label in ours.labels if len(label) > LABEL] == []
    assert [button for button in ours.buttons if len(button) > PHONE] == []
    assert [text for _, text in ours.texts if len(text) > MESSAGE] == []
    assert [text for text in ours.refusals if not text.strip() or len(text) > MESSAGE] == []
    _, crowded = drawn_texts(read, seats, lang)
    assert crowded == []

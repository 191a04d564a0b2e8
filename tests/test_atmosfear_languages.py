"""Atmosfear in German and Spanish: no English word left, and every label fits Discord.

Seeded games of the smart AI at every seat count are played, and everything a player reads
along the way is rendered in each language: every event (public, private and the Gatekeeper's
lines), every prompt and step label, refusals of a few illegal moves, each seat's private
sheet, the opening lines, the result, the board's drawn words (`render.textrecord`), its alt
text and panel, and the Gatekeeper's picture in words. A German or Spanish rendering may hold
no word of the English renderings unless that language's catalogs use it too (a shared word:
"Harbinger", "Gatekeeper") or it is a name (a Harbinger's, a player's), a typed move (protocol,
the same in every language) or the answer he demands, which stays in English.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from bot.rendering import alt_text, board_view, speaker_alt_text
from bot.simulate import play
from bot.table import fill_names, named_prompt
from bot.ui import choice_labels
from data.locales import messages
from games.atmosfear import GAME
from games.atmosfear.engine import AI_FEARS, ANSWER, NAMES as HARBINGERS
from games.core import IllegalAction, State, advance, apply, setup
from render.atmosfear import draw_atmosfear
from render.textrecord import TextRecorder
from tests.test_render_text_fit import AREAS, problems

LANGS = ("de", "es")
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]
SEEDS = (3, 8)
BOARDS = 5  # board pictures looked at per game, spread over it
LABEL, OPTION, PHONE = 80, 100, 34  # a button's label, a select option's, what a phone shows
WORD = re.compile(r"[^\W\d_]{2,}(?:'[^\W\d_]+)?")  # a letter alone marks a colour on the board
# Typed moves are protocol: refusals quote them as they are typed in every language.
TYPED = set(GAME.verbs) | {"fear", "yes"}
# Words that are not English to flag: the game's proper names and the players'.
NAMED = {w.lower() for text in (*HARBINGERS, "Atmosfear: The Harbingers", *PLAYERS) for w in WORD.findall(text)}


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def catalog_words(lang: str) -> set[str]:
    """Every word `lang`'s catalogs use (the bot's and every game's)."""
    found: set[str] = set()
    for message in messages(lang):
        for said in message.string if isinstance(message.string, tuple) else (message.string,):
            found |= words(said or "")
    return found


def as_played(said: str) -> str:
    """`said` less what is not the game's words: the AI seats' fears (typed, as a player types
    theirs) and the answer he demands (English in every language)."""
    for fear in AI_FEARS:
        said = said.replace(fear, "")
    return said.replace(ANSWER, "")


class Reading:
    """What the players read in one game, as words to render in each language: messages and
    strings as the engine gives them, with the board views in every language."""

    def __init__(self, seats: int) -> None:
        self.names = PLAYERS[:seats]
        self.words: list[Any] = []
        self.labels: list[tuple[Any, ...]] = []  # a prompt's choices, per seat and moment
        self.said: dict[str, list[str]] = {lang: [] for lang in ("en", *LANGS)}  # board words, already in lang
        self.misfits: list[str] = []

    def rendered(self, lang: str) -> list[str]:
        return [fill_names(w, self.names, lang) for w in self.words] + self.said[lang]

    def prompt(self, state: State, seat: int) -> None:
        raw = GAME.prompt(state, seat)
        if raw is None:
            return
        self.words.append(raw.text)
        self.words += [step.label for choice in raw.choices for step in choice.path]
        for lang in ("en", *LANGS):
            worded = named_prompt(raw, self.names, lang)
            for choice in worded.choices:
                for step in choice.path:
                    if len(step.label) > LABEL:
                        self.misfits.append(f"{lang} label over {LABEL}: {step.label}")
                if len(choice.label) > OPTION:
                    self.misfits.append(f"{lang} option over {OPTION}: {choice.label}")
            self.misfits += [f"{lang} button over {PHONE}: {label}"
                             for label in choice_labels(worded.choices, self.names) if len(label) > PHONE]

    def refusals(self, state: State, now: float) -> None:
        """A few moves no step allows, by every seat: each refusal says why, in words."""
        for seat in range(state.seats):
            for move in ("roll 7", "fly 99", "duel 9", "pass 9", "yes", "take", "cw", "fear again", "dance"):
                try:
                    apply(GAME, state, seat, move, now)
                except IllegalAction as refused:
                    self.words.append(refused.msg if refused.msg is not None else refused.reason)

    def board(self, state: State, recorder: TextRecorder) -> None:
        gatekeeper = GAME.interlude(GAME.view(state, None))
        for lang in ("en", *LANGS):
            view = board_view(GAME, state, self.names, lang=lang)
            image = draw_atmosfear(view)
            marks = recorder.texts(image)
            self.said[lang] += [m.text for m in marks if not m.picture]
            self.said[lang].append(alt_text(GAME, view, lang))
            self.said[lang] += GAME.hook("panel_text")(view)
            self.misfits += [f"{lang}: {p}" for p in problems(image, marks, AREAS["atmosfear"](view), tuple(self.names))]
            if gatekeeper is not None:
                line = fill_names(gatekeeper["line"], self.names, lang)
                self.said[lang].append(speaker_alt_text(GAME, line, lang))


def read_a_game(seats: int, seed: int, recorder: TextRecorder) -> Reading:
    log: list[tuple[int, str, float]] = []
    play("atmosfear", seats, seed, "smart", log=log)
    state = setup(GAME, seats, None, seed)
    reading = Reading(seats)
    reading.words += GAME.opening(state)
    looks = {len(log) * k // BOARDS for k in range(BOARDS)}
    for index, (seat, action, now) in enumerate(log):
        for who in range(seats):
            reading.prompt(state, who)
        if index in looks:
            reading.refusals(state, now)
            reading.words += [GAME.private_text(state, who) for who in range(seats)]
            reading.board(state, recorder)
        reading.words += [event.text for event in advance(GAME, state, seat, action, now)]
    reading.words += [GAME.private_text(state, who) for who in range(seats)]
    if state.result and state.result.get("reason"):
        reading.words.append(state.result["reason"])
    reading.board(state, recorder)
    return reading


@pytest.mark.parametrize("seats", range(GAME.min_seats, GAME.max_seats + 1))
def test_every_word_a_player_reads_is_in_their_language_and_fits(seats):
    english: set[str] = set()
    theirs: dict[str, list[str]] = {lang: [] for lang in LANGS}
    misfits: list[str] = []
    with TextRecorder() as recorder:
        for seed in SEEDS:
            reading = read_a_game(seats, seed, recorder)
            for said in reading.rendered("en"):
                english |= words(as_played(said))
            for lang in LANGS:
                theirs[lang] += reading.rendered(lang)
            misfits += reading.misfits
    assert len(english) > 300, "the games said too little to judge"
    unworded = {said for lang in LANGS for said in theirs[lang] if "game.atmosfear." in said}
    assert unworded == set(), f"message ids with no words: {sorted(unworded)[:5]}"
    for lang in LANGS:
        foreign = english - catalog_words(lang) - NAMED - TYPED
        left = {}
        for said in theirs[lang]:
            for word in words(as_played(said)) & foreign:
                left.setdefault(word, said)
        assert left == {}, f"English left in {lang}: " + "; ".join(f"{w!r} in {s!r}" for w, s in sorted(left.items()))
    assert misfits == [], "\n".join(sorted(set(misfits)))

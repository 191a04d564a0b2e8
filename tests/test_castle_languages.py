"""Keys to the Castle reads in German and in Spanish, and no English is left in either.

Smart-AI games are played from seeds at every seat count. Along the way everything the game
writes is gathered as its engine gives it (message ids): every public and private event, every
prompt and its steps' labels, every seat's private text, the house rules told at the start, the
result, refusals provoked from each position (every card on every tile, every step, a few
malformed and out-of-turn moves), and, on some boards, the board's description (alt text), its
players' panel and every string drawn on the picture (`render.textrecord`). Each is rendered in
English, German and Spanish, players named.

English left over is found by words: the words of the English renderings that no German (or
Spanish) message uses beyond its English form (a few words both spell alike, such as "Bonus",
excepted), less the game's title and the players' names, must not occur in a German (Spanish)
rendering. What a player types (`'play key-red C3'`, quoted) and the card ids a
refusal lists are the moves' protocol, the same in every language, and are not read as words.

And every rendering fits Discord: a button's label at most 34 characters (what a phone shows on
one line, as tests/test_phone_labels.py holds), so also under the 80 of a label and the 100 of a
select's option; a prompt (a select's placeholder) at most 150. And the board's words fit on
it, as tests/test_render_text_fit.py holds for English.
"""
from __future__ import annotations

import re
from functools import cache
from typing import Any, Callable

import pytest

import games
from bot.rendering import board_view
from bot.simulate import play
from bot.table import fill_names, named_prompt
from bot.ui import choice_labels
from data.locales import messages
from games.castle.engine import CARD_ORDER
from games.core import IllegalAction, advance, apply, setup
from render.castle import draw_castle
from render.textrecord import TextRecorder
from render.words.castle import describe, panel
from tests.test_render_text_fit import NAME_SETS, castle_areas, game_views, problems

GAME = games.get("castle")
LANGS = ("de", "es")
NAMES = ["Ana", "Bo", "Cy", "Di"]
PLAYS = [(seats, seed) for seats in range(GAME.min_seats, GAME.max_seats + 1) for seed in (1, 2)]
REFUSE_EVERY = 5  # actions between two positions refusals are provoked from
BOARDS = 3  # boards per game drawn and described, and the final one
BUTTON = 34  # characters: a phone's button (tests/test_phone_labels.py)
PLACEHOLDER = 150
WORD = re.compile(r"[^\W\d_]{2,}")
PROTOCOL = re.compile(r"'[^']*'")  # a typed move, quoted: the same in every language
CARD_IDS = ", ".join(CARD_ORDER)  # the cards a refusal lists, as they are typed
NAMED = re.compile(rf"\b(?:{'|'.join(NAMES)})\b")  # a player's name ("Bo", not "Bonus")
COGNATES = {"de": {"bonus", "hand"}, "es": {"extra"}}  # words English shares with them
MALFORMED = ["", "dance", "play banana", "discard banana", "play key-red Z99", "play passage C3",
             "play padlock C3 D4", "play skeleton C3 D4", "move", "bonus"]


def refusals(state, seat: int) -> list[Any]:
    """The reasons every move `seat` may try from this position is refused for: each card on
    each tile, each step, a move in the wrong step, a few malformed ones, and another seat's."""
    d = state.data
    tiles = [f"{chr(65 + c)}{r + 1}" for r in range(d["rows"]) for c in range(d["cols"])]
    tried = list(MALFORMED) + ["bonus skip", "stay", "move out", "discard net", "play net A1"]
    if d["phase"] == "play":
        tried += [f"play {card} {tile}" for card in CARD_ORDER for tile in tiles]
        tried += [f"play skeleton {tile} unlock" for tile in tiles]
        tried += [f"play passage {a} {b}" for a, b in zip(tiles, tiles[d["cols"] + 1:])]
    elif d["phase"] == "move":
        tried += [f"move {tile}" for tile in tiles]
    else:
        tried += [f"bonus {tile}" for tile in tiles]
    reasons = []
    for by, action in [(seat, a) for a in tried] + [((seat + 1) % state.seats, "stay")]:
        try:
            apply(GAME, state, by, action)
        except IllegalAction as refused:
            reasons.append(getattr(refused, "msg", None) or refused.reason)  # its message
    return reasons


def drawn(view: dict[str, Any]) -> list[str]:
    """Every string the board picture of `view` shows."""
    with TextRecorder() as recorder:
        image = draw_castle(view)
        return [mark.meant for mark in recorder.texts(image) if mark.text]


@cache
def gathered() -> tuple[list[Any], list[Any], list[dict[str, Any]]]:
    """What the games wrote, as the engine gives it: (words: events, private texts, house rules,
    results and refusals; prompts, with their seat's names; public views of some boards)."""
    words: list[Any] = []
    prompts: list[tuple[Any, list[str]]] = []
    views: list[tuple[Any, list[str]]] = []
    for seats, seed in PLAYS:
        names = NAMES[:seats]
        log: list[tuple[int, str, float]] = []
        end = play("castle", seats, seed, log=log)
        assert end.over
        state = setup(GAME, seats, None, seed)
        words += [(line, names) for line in GAME.opening(state)]
        every = max(1, len(log) // BOARDS)
        for index, (seat, action, now) in enumerate(log):
            for at in range(seats):
                words.append((GAME.private_text(state, at), names))
                prompt = GAME.prompt(state, at)
                if prompt is not None:
                    prompts.append((prompt, names))
            if index % REFUSE_EVERY == 0:
                words += [(reason, names) for reason in refusals(state, seat)]
            if index % every == 0:
                views.append((GAME.view(state, None), names))
            words += [(event.text, names) for event in advance(GAME, state, seat, action, now)]
        words.append((state.result["reason"], names))
        views.append((GAME.view(state, None), names))
    return words, prompts, views


@cache
def shown(lang: str) -> list[tuple[str, str]]:
    """(what, the words a reader of `lang` reads) for everything the games wrote."""
    words, prompts, views = gathered()
    said = [("words", fill_names(w, names, lang)) for w, names in words]
    for prompt, names in prompts:
        worded = named_prompt(prompt, names, lang)
        said.append(("prompt", worded.text))
        said += [("button", label) for label in choice_labels(worded.choices, names)]
        said += [("step", step.label) for choice in worded.choices for step in choice.path]
    for public, names in views:
        view = board_view(GAME, None, names, lang=lang, public=public)
        said += [("alt text", describe(view)), *(("panel", line) for line in panel(view)),
                 *(("drawn", text) for text in drawn(view))]
    return list(dict.fromkeys(said))


def spoken(words: str) -> str:
    """`words` less what is no language's: typed moves, the card ids, the title, the names."""
    words = PROTOCOL.sub(" ", words.replace(CARD_IDS, " ").replace(GAME.title, " "))
    return NAMED.sub(" ", words)


def vocabulary(of: Callable[[], list[str]]) -> set[str]:
    return {word.lower() for text in of() for word in WORD.findall(spoken(text))}


def words_of(forms: Any) -> set[str]:
    """The words of a message's forms (placeholders and typed moves left out), lower case."""
    forms = forms if isinstance(forms, (list, tuple)) else [forms]
    return {w.lower() for form in forms for w in WORD.findall(spoken(re.sub(r"\{\w+\}", " ", form or "")))}


@cache
def catalog_words(lang: str) -> set[str]:
    """The words `lang`'s catalogs use (placeholders left out): each message's own, those its
    English form does not have too (an English word left in a translation is no evidence of
    the language), and the words both languages spell alike (`COGNATES`)."""
    english = {m.id: m.string for m in messages("en")}
    return COGNATES[lang].union(*(words_of(m.string) - words_of(english.get(m.id, ""))
                                  for m in messages(lang)))


def english_only(lang: str) -> set[str]:
    """Words of the English renderings that `lang`'s catalogs never use."""
    return vocabulary(lambda: [text for _, text in shown("en")]) - catalog_words(lang)


def test_the_games_write_every_kind_of_words():
    """The scan below reads enough: every kind of words, and refusals of many kinds."""
    kinds = {what for what, _ in shown("en")}
    assert kinds == {"words", "prompt", "button", "step", "alt text", "panel", "drawn"}
    words, _, _ = gathered()
    ids = {w.id for w, _ in words if hasattr(w, "id")}
    assert len({i for i in ids if ".refuse." in i}) >= 15, sorted(ids)
    assert len({i for i in ids if ".event." in i}) >= 15, sorted(ids)
    assert all(hasattr(w, "id") or isinstance(w, dict) for w, _ in words), \
        [w for w, _ in words if isinstance(w, str)][:5]


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_the_game_writes_is_left_in_english(lang):
    english = english_only(lang)
    assert {"door", "card", "turn"} <= english  # the scan knows English when it sees it
    left = {}
    for what, text in shown(lang):
        words = {w.lower() for w in WORD.findall(spoken(text))} & english
        if words:
            left.setdefault(what, []).append((sorted(words), text))
    assert left == {}, left


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalog_entry_of_the_game_is_an_english_copy(lang):
    """Also the messages no game above happened to write: a form that reads as the English one
    does, with a word the language's other messages never use, is a copy left untranslated
    (a copy of words the language shares, such as "Bonus", is not)."""
    english = {m.id: m.string for m in messages("en") if str(m.id).startswith("game.castle.")}
    copied = {m.id for m in messages(lang) if m.id in english and m.string == english[m.id]}
    own = set().union(*(words_of(m.string) for m in messages(lang) if m.id not in copied))
    untranslated = sorted(id for id in copied if words_of(english[id]) - own)
    assert len(english) > 150 and untranslated == []


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_every_rendering_fits_discord(lang):
    too_long = [(what, text) for what, text in shown(lang)
                if (what in ("button", "step") and len(text) > BUTTON)
                or (what == "prompt" and len(text) > PLACEHOLDER)
                or (what in ("words", "panel") and len(text) > 2000)
                or (what == "alt text" and len(text) > 1024)]
    assert too_long == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("names", sorted(NAME_SETS))
def test_the_board_clips_and_crowds_no_words_in_either_language(lang, names):
    """As tests/test_render_text_fit.py holds for English: the longest names, every phase."""
    chosen = NAME_SETS[names]
    found: set[str] = set()
    with TextRecorder() as recorder:
        for seats in range(GAME.min_seats, GAME.max_seats + 1):
            for view in game_views("castle", seats, seed=7 + seats, names=chosen):
                image = draw_castle(dict(view, lang=lang))
                found.update(problems(image, recorder.texts(image), castle_areas(view), chosen[:seats]))
    assert not found, "\n".join(sorted(found))

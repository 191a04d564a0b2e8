"""Key to the Kingdom speaks German and Spanish: every word its engine writes is a message id.

Seeded games of the smart AI at every seat count are replayed; every event (public and
private), every prompt's text and button, the refusals a player can provoke, every seat's
private text and the opening lines are rendered in German and Spanish. None may keep a word
that only the English catalog uses, and every button fits a phone. The hazards' English is
hazards.toml's own: the English catalog says exactly what the TOML says.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

import games
from bot.clock import FakeClock
from bot.rendering import alt_text, board_view
from bot.simulate import play
from bot.table import fill_names
from data import load_toml
from data.locales import DEFAULT, messages, render
from games.core import IllegalAction, State, apply, setup
from games.kingdom.board import BOARD
from render.textrecord import TextRecorder
from render.words.kingdom import panel
from tests.harness import InThreadHarness, Players
from tests.test_languages import leftover_english
from tests.test_no_internal_ids import message_texts
from tests.test_phone_labels import LONGEST
from tests.test_render_text_fit import AREAS, NAME_SETS, drawn, game_views, problems

GAME = games.get("kingdom")
NAMES = ["Ana", "Bo", "Cy", "Di"]
SEEDS = (1, 2)
OTHERS = ("de", "es")
WORD = re.compile(r"[A-Za-z]{4,}")
# What a refusal quotes back: the player's own typing ('…') and the typed forms (`…`), which
# are the moves' syntax in every language.
QUOTED = re.compile(r"'[^']*'|`[^`]*`")
LINK = re.compile(r"https?://\S+")  # a jump link back to the table
TYPED = ("dance", "move nowhere", "use banana")  # moves no game state accepts


def catalog_words(lang: str) -> set[str]:
    """The words of four letters or more of every message of `lang`'s catalog."""
    found: set[str] = set()
    for message in messages(lang):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            found |= set(WORD.findall(re.sub(r"\{\w+\}", "", form or "")))
    return found


def played(seats: int, seed: int) -> Iterator[tuple[str, Any]]:
    """(what, words) for everything the engine writes along one AI game: events, prompts and
    their buttons, refusals, private texts, the opening, and board views ("board") now and then."""
    log: list[tuple[int, str, float]] = []
    play("kingdom", seats, seed, log=log, max_actions=600)
    state = setup(GAME, seats, None, seed)
    yield from (("opening", line) for line in GAME.opening(state))
    for index, (seat, action, now) in enumerate(log):
        yield from asked(state)
        if index % 25 == 0:
            yield from refusals(state, seat)
            yield "board", board_view(GAME, state, NAMES[:seats])
        out = apply(GAME, state, seat, action, now)
        state = out.state
        yield from (("event", event.text) for event in out.events)
    yield from asked(state)
    yield "board", board_view(GAME, state, NAMES[:seats])


def asked(state: State) -> Iterator[tuple[str, Any]]:
    for seat in range(state.seats):
        yield "private", GAME.private_text(state, seat)
        prompt = GAME.prompt(state, seat)
        if prompt is not None:
            yield "prompt", prompt.text
            yield from (("button", step.label) for choice in prompt.choices for step in choice.path)


def refusals(state: State, seat: int) -> Iterator[tuple[str, Any]]:
    """The refusals a player meets: a move the game can't read, a turn that is someone else's
    (a finished game's refusal is the platform's, games/core's, not the game's)."""
    if state.over:
        return
    for who in {seat, (seat + 1) % state.seats}:
        for typed in TYPED:
            try:
                apply(GAME, state, who, typed, 0.0)
            except IllegalAction as refusal:
                yield "refusal", refusal.msg or refusal.reason  # its message, else its words


@pytest.fixture(scope="module")
def written() -> list[tuple[str, Any]]:
    said: dict[str, tuple[str, Any]] = {}
    for seats in range(GAME.min_seats, GAME.max_seats + 1):
        for seed in SEEDS:
            for what, words in played(seats, seed):
                said.setdefault(repr((what, words)), (what, words))
    return list(said.values())


def shown(what: str, words: Any, lang: str) -> list[tuple[str, str]]:
    """(what, text) as a reader of `lang` reads it: engine words with names filled; a board
    view as its alt text and its panel's lines (in the view's language, as the bot draws it)."""
    if what != "board":
        return [(what, fill_names(words, NAMES, lang))]
    view = dict(words, lang=lang)
    return [("alt", alt_text(GAME, view, lang)), *(("panel", line) for line in panel(view))]


def test_every_kind_of_word_is_met(written):
    kinds = {what for what, _ in written}
    assert kinds == {"opening", "event", "private", "prompt", "button", "refusal", "board"}, kinds
    assert sum(what == "event" for what, _ in written) > 300


def leftover(lang: str, names: list[str]) -> tuple[set[str], set[str]]:
    """(the words only the English catalog uses, the words kept in every language: the title's
    and the players' names)."""
    return catalog_words(DEFAULT) - catalog_words(lang), set(WORD.findall(" ".join([*names, GAME.title])))


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_is_left_in_german_or_spanish(written, lang):
    english_only, keep = leftover(lang, NAMES)
    left: dict[str, str] = {}
    for kind, words in written:
        for what, said in shown(kind, words, lang):
            said = QUOTED.sub(" ", said)
            for word in set(WORD.findall(said)) & english_only - keep:
                left.setdefault(word, f"{what}: {said}")
    assert not left, "\n".join(f"{word!r} in {where}" for word, where in sorted(left.items()))


@pytest.mark.parametrize("lang", (DEFAULT, *OTHERS))
def test_every_button_fits_a_phone_and_every_text_discord(written, lang):
    most = {"button": LONGEST, "alt": 1024}  # a media description: 1024; a message: 2000
    too_long = [(what, said) for kind, words in written for what, said in shown(kind, words, lang)
                if len(said) > most.get(what, 2000)]
    assert not too_long, too_long[:5]


def test_the_english_catalog_says_what_the_data_says():
    """hazards.toml, board.toml and cards.toml keep the English they are written in: the
    catalog's English of each hazard step, place and card is theirs."""
    hazards = load_toml("kingdom", "hazards.toml")
    cards = load_toml("kingdom", "cards.toml")
    en = lambda key: render(DEFAULT, {"msg": f"game.kingdom.{key}", "who": "{p}", "item": "{item}"})
    for hid, hazard in hazards.items():
        assert en(f"hazard.{hid}") == hazard["name"]
        for step in hazard["steps"]:
            base = f"hazard.{hid}.{step['id']}"
            for part in ("say", "show"):
                if part in step:
                    assert en(f"{base}.{part}") == step[part], (base, part)
            if "verb" in step:
                assert en(f"{base}.verb") == f"{{p}} {step['verb']} {{item}}."
            for option in step.get("options", ()):
                assert en(f"{base}.{option['key']}") == option["label"]
    for space, name in {**{k: v for k, v in BOARD.names.items() if isinstance(v, str)},
                        **BOARD.locations}.items():
        assert en(f"place.{space}") == name
    for spot, spec in BOARD.spots.items():
        assert en(f"spot.{spot}") == spec["name"]
    for item, (label, _) in cards["equipment"].items():
        assert en(f"item.{item}") == label
    for monster, spec in cards["monsters"].items():
        assert en(f"monster.{monster}") == spec["name"]


@pytest.mark.parametrize("seats", range(GAME.min_seats, GAME.max_seats + 1))
@pytest.mark.parametrize("lang", OTHERS)
def test_the_board_draws_its_words_in_the_channels_language_and_they_fit(lang, seats):
    """The picture's names (hazards, Worlds, the header) are the view's language's, and the
    longer German and Spanish names still fit as tests/test_render_text_fit.py holds them."""
    names = NAME_SETS["long"]
    english_only, keep = leftover(lang, list(names))
    left: dict[str, str] = {}
    found: set[str] = set()
    with TextRecorder() as recorder:
        for view in game_views("kingdom", seats, seed=7 + seats, names=names):
            image, marks = drawn("kingdom", dict(view, lang=lang), recorder)
            found.update(problems(image, marks, AREAS["kingdom"](view), names[:seats]))
            for mark in marks:
                for word in set(WORD.findall(mark.text)) & english_only - keep:
                    left.setdefault(word, mark.text)
    assert not found, "\n".join(sorted(found))
    assert not left, left


@pytest.mark.parametrize("lang", (DEFAULT, *OTHERS))
def test_every_way_a_hazard_offers_fits_a_phone(lang):
    """A hazard's ways out are buttons: each fits a phone in every language, met in play or not."""
    long = [said for hid, hazard in load_toml("kingdom", "hazards.toml").items() for step in hazard["steps"]
            for option in step.get("options", ())
            if len(said := render(lang, {"msg": f"game.kingdom.hazard.{hid}.{step['id']}.{option['key']}"}))
            > LONGEST]
    assert not long, long


@pytest.mark.parametrize("locale, lang", [("de", "de"), ("es-ES", "es")])
async def test_a_kingdom_table_on_a_german_or_spanish_server_reads_in_its_language(
        locale, lang, fake_discord, tmp_path):
    """Through the fake Discord: the channel (every version of every message: the log, the
    buttons, the board's alt text, the panel) and the players' DMs keep no English word."""
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock, turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"], locale=locale)
        table = await players.start_game("Ana", ["Bo"], game="kingdom")
        for _ in range(40):
            waiting = [s for s, p in enumerate(table.prompts) if p is not None]
            if table.status != "running" or not waiting:
                break
            await players.play_by_buttons(table, seat=waiting[0])
            clock.advance(4.0)
            await players.settle(table)
        read = [*players.every_version(),
                *(dm for name in ("Ana", "Bo") for dm in fake_discord.dms(players.users[name]))]
        assert len(read) > 20
        roll = render(lang, {"msg": "game.kingdom.choice.roll"})  # the game's own button, worded
        assert any(roll in "\n".join(message_texts(message)) for message in read), roll
        for message in read:
            said = LINK.sub(" ", QUOTED.sub(" ", "\n".join(message_texts(message))))
            assert leftover_english(said, lang) == set(), said
    finally:
        await harness.stop()

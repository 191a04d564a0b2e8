"""Words the games show people: counts agree with their nouns and players have no assumed gender.

Two checks: every string the engines and their data could show (string literals outside
docstrings, TOML text) is scanned for "he", "his", "him" said of a player: a masculine pronoun
may stand only in a text that names one of the games' male characters. And games are played,
from the fewest seats to the most, reading every event, prompt, choice and hand text for a
count of one with a plural noun ("1 games", "1 Provisions")."""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from babel.messages.pofile import read_po
import pytest

import games
from bot.simulate import play
from bot.table import named_prompt
from data.locales import DEFAULT, render
from games.core import SYSTEM, apply, count, plural, setup

ROOT = Path(__file__).resolve().parents[1]
PRONOUN = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.I)
# The characters the games call "he": a text naming one may say "he" of him.
MEN = ("Gatekeeper", "Demon King", "Warlock", "Wizard", "pedlar", "hermit")
ONE_OF_MANY = re.compile(r"(?<![\d.,])\b1 ([A-Za-z]+s)\b")
SINGULAR_IN_S = {"is", "was", "has", "does", "Luck", "Stamina", "plus", "Bonus", "minus", "bonus"}


def literals(path: Path):
    """(line, text) of every string literal in a module but its docstrings; an f-string's
    fields read as "{}"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    inside_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                       for part in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(part.value if isinstance(part, ast.Constant) else "{}"
                                       for part in node.values)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and id(node) not in inside_fstrings):
            yield node.lineno, node.value


def toml_texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from toml_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from toml_texts(item)


def gendered(text: str) -> bool:
    return bool(PRONOUN.search(text)) and not any(man in text for man in MEN)


def test_the_count_helper_agrees_with_its_number():
    assert [count(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert count(1, "die", "dice") == "1 die" and count(3, "die", "dice") == "3 dice"
    assert plural(1, "win") == "win" and plural(5, "win") == "wins"


def test_the_scan_finds_a_player_called_he():
    assert gendered("{p} rolls a 1: he may make a Key Challenge.")
    assert gendered("{}'s lantern lights the passage; his turn ends.")
    assert not gendered("{p} rolls a 1: they may make a Key Challenge.")
    assert not gendered("The Gatekeeper calls your name! Answer him!")


def test_no_text_of_the_games_calls_a_player_he():
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        found += [f"{path.relative_to(ROOT)}:{line}: {text}"
                  for line, text in literals(path) if gendered(text)]
    for path in sorted((ROOT / "data").rglob("*.toml")):
        texts = toml_texts(tomllib.loads(path.read_text(encoding="utf-8")))
        found += [f"{path.relative_to(ROOT)}: {text}" for text in texts if gendered(text)]
    for path in sorted((ROOT / "data").glob("*/locales/en.po")):  # a game's words, in English
        with path.open("rb") as source:
            for message in read_po(source):
                said = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [f"{path.relative_to(ROOT)}: {text}" for text in said if gendered(text)]
    assert found == []


def shown_texts(name: str, seats: int, seed: int):
    """Every text a played game shows: events, prompts, choice labels and each seat's hand."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    play(name, seats, seed=seed, level="random", max_actions=1500, log=log)
    state = setup(game, seats, {}, seed)
    for seat, action, now in log:
        outcome = apply(game, state, seat, action, now)
        state = outcome.state
        yield from (render(DEFAULT, event.text) for event in outcome.events)
        for who in range(seats):
            prompt = named_prompt(game.prompt(state, who), [])  # in English, players as {pN}
            if prompt is not None:
                yield render(DEFAULT, prompt.text)
                yield from (choice.label for choice in prompt.choices)
            if seat != SYSTEM and who == seat:
                yield render(DEFAULT, game.private_text(state, who))


def one_of_many(text: str) -> list[str]:
    """The plural nouns counted as one in `text` ("1 games" -> ["games"])."""
    return [noun for noun in ONE_OF_MANY.findall(text) if noun not in SINGULAR_IN_S]


def test_the_one_of_many_check_finds_a_count_that_disagrees():
    assert one_of_many("Choose: 2 Gold, 1 Provisions; 1 games") == ["Provisions", "games"]
    assert one_of_many("1 Provision, 11 keys, 2.1 seconds, round 1 is over") == []


@pytest.mark.parametrize("name", [g.name for g in games.all_games()])
def test_a_played_game_never_says_one_with_a_plural(name):
    game = games.get(name)
    wrong = set()
    for seats in (game.min_seats, game.max_seats):
        for text in shown_texts(name, seats, seed=70 + seats):
            wrong |= {f"1 {noun}: {text}" for noun in one_of_many(text)}
    assert sorted(wrong) == []

"""Small helpers for words shown to people: counts that agree with their nouns, and how a lobby
option reads. Engines and the bot both use them, so "1 games" is written nowhere."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def name_seats(text: str, names: list[str]) -> str:
    """`text` with the seats an engine wrote as {p0}, {p1}.. replaced by the players' `names`
    (an engine knows seats, the bot knows who sits in them)."""
    for index, name in enumerate(names):
        text = text.replace(f"{{p{index}}}", name)
    return text


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`noun` in the form that agrees with `n`: the given plural, or the noun plus "s".
    Only the noun: `count` is the usual door; this one serves "won of 3 games"-style phrases."""
    return noun if n == 1 else many or noun + "s"


def with_article(word: str) -> str:
    """`word` with its indefinite article, as it is said: "a red key", "an orange key", "an 8",
    "an 11" (a rolled number), "a 6"."""
    head = word.split(" ", 1)[0].lower()
    spoken_vowel = head[:1] in "aeio8" or head in ("11", "18") if head.isdigit() \
        else head[:1] in "aeiou"
    return f"{'an' if spoken_vowel else 'a'} {word}"


def count(n: int, noun: str, many: str | None = None) -> str:
    """`n` and its noun in agreement: count(1, "game") is "1 game", count(0, "game") "0 games";
    irregular plurals are given (count(2, "key of fear", "keys of fear"))."""
    return f"{n} {plural(n, noun, many)}"


@dataclass(frozen=True)
class OptionText:
    """How a lobby option reads to people: its label ("Double six"), one line of help, and the
    unit its values count ("minutes": 40 reads "40 minutes"; no unit: the value as it is)."""

    label: str
    help: str
    unit: str = ""

    def value(self, value: Any) -> str:
        if self.unit and isinstance(value, int):
            return count(value, self.unit.removesuffix("s"), self.unit)
        return str(value)


def option_text(texts: dict[str, OptionText], name: str) -> OptionText:
    """The words of option `name`; an option a game left without words reads as its name."""
    return texts.get(name) or OptionText(label=name.replace("_", " ").capitalize(), help="")

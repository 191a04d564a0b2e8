"""Small helpers for words shown to people: seats named, and how a lobby option of a game
without catalogs reads (its English: counts that agree with their nouns, so "1 games" is
written nowhere). A game's own words are message ids in its catalogs (data.locales)."""
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

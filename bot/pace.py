"""How long a turn may last, and what happens when it runs out: the bot's own lobby options.

A turn-based game (one without a game clock: not `Game.pausable`) is played at a pace the host
picks in the lobby, from a couple of minutes a turn to a day, and with a deadline action: the
AI plays the turn, the turn is skipped where the rules offer a pass, or the others may vote the
player out. These options belong to the bot, not to any game, so they are kept beside the
game's own options in `Table.options` but offered, validated and worded here; a real-time game
keeps its own clock and none of this.

Reminders: half way through a turn, and one hour before the deadline when the turn is long
enough for that to come later (a correspondence day). Long games (`notifies`) also DM the
player whose turn it is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.locales import Msg, has, text
from games.core import Choice, Game, OptionText, Prompt

# pace -> seconds a turn lasts; None: the process default (GATEKEEPER_TURN_TIMEOUT).
PACES: dict[str, float | None] = {"standard": None, "live": 120.0, "relaxed": 3600.0,
                                  "correspondence": 86400.0}
DEADLINE_ACTIONS = ("ai", "skip", "vote")
# Where the deadline action lets the others vote a player out, the first missed turn opens the
# vote; otherwise a player must miss this many in a row first.
VOTE_AFTER_TIMEOUTS = 2
# Paces slow enough that the player is likely away from the channel: a DM tells them their turn.
NOTIFIED = ("relaxed", "correspondence")
HOUR = 3600.0
# An action that does nothing but let the turn go by: a choice whose action has one of these
# words ("pass", "bonus skip", "stay") is how a turn is skipped.
PASS_WORDS = frozenset({"pass", "skip", "stay"})

OPTIONS: dict[str, tuple[str, ...]] = {"pace": tuple(PACES), "deadline": DEADLINE_ACTIONS}
# The lobby has room for three selects; both of these share one.
SELECT = "pace"


def applies(game: Game) -> bool:
    """Turn-based games have a pace; a game with its own real-time clock does not."""
    return not game.pausable


def offered(game: Game) -> dict[str, tuple[Any, ...]]:
    """Every lobby option of `game`: its own, then the bot's where a pace applies."""
    return {**game.option_choices, **(OPTIONS if applies(game) else {})}


@dataclass(frozen=True)
class GameOption(OptionText):
    """A game's lobby option in words from its catalog (`game.<game>.option.<name>.…`), its
    values too: a number of a unit in the language's plural, or a word per value."""

    key: str = ""  # the option's message ids begin with it
    lang: str = ""

    def value(self, value: Any) -> str:
        if isinstance(value, int) and has(f"{self.key}.value"):
            return text(self.lang, f"{self.key}.value", count=value)
        word = f"{self.key}.value.{value}"
        return text(self.lang, word) if has(word) else str(value)


def texts(game: Game, lang: str) -> dict[str, OptionText]:
    """Every lobby option's words in `lang`: the game's own (from its catalog, or as the game
    words them when it brings none), then the bot's."""
    own = {}
    for name, words in game.option_texts.items():
        key = f"game.{game.name}.option.{name}"
        own[name] = GameOption(text(lang, f"{key}.label"), text(lang, f"{key}.help"), key=key,
                               lang=lang) if has(f"{key}.label") else words
    ours = {name: OptionText(text(lang, f"{name}.label"), text(lang, f"{name}.help"))
            for name in OPTIONS} if applies(game) else {}
    return {**own, **ours}


def value_words(name: str, value: Any, lang: str) -> str:
    """A bot option's value as the lobby reads it ("relaxed", "the AI plays")."""
    return text(lang, f"{name}.value.{value}") if value in OPTIONS.get(name, ()) else str(value)


def select_choices(game: Game, lang: str) -> list[tuple[str, str]]:
    """The shared select's entries, (label, value): each value is `name=value`."""
    return [(f"{text(lang, f'{name}.label')}: {value_words(name, value, lang)}", f"{name}={value}")
            for name, values in OPTIONS.items() for value in values] if applies(game) else []


def parse_select(value: str) -> tuple[str, str]:
    """`pace=relaxed` -> ("pace", "relaxed")."""
    name, _, chosen = value.partition("=")
    return name, chosen


def pace_of(options: dict[str, Any]) -> str | None:
    return options.get("pace")


def turn_seconds(options: dict[str, Any], default: float) -> float:
    """How long a turn lasts in a game with these options."""
    length = PACES.get(options.get("pace") or "standard")
    return default if length is None else length


def reminders(length: float) -> list[tuple[str, float]]:
    """(timer id, seconds into the turn) of each reminder of a turn `length` long: half time,
    and an hour before the deadline when that comes after half time."""
    found = [("warn", length / 2)]
    if length - HOUR > length / 2:
        found.append(("warn:hour", length - HOUR))
    return found


def deadline_action(options: dict[str, Any]) -> str:
    return options.get("deadline") or "ai"


def votes_after(options: dict[str, Any]) -> int:
    """Missed turns in a row after which the others may vote a player out."""
    return 1 if deadline_action(options) == "vote" else VOTE_AFTER_TIMEOUTS


def notifies(options: dict[str, Any]) -> bool:
    """Does a turn coming to a person deserve a DM (besides the channel's ping)?"""
    return options.get("pace") in NOTIFIED


def pass_choice(prompt: Prompt | None) -> Choice | None:
    """The prompt's way of letting the turn go by, if the rules offer one now."""
    if prompt is None:
        return None
    return next((c for c in prompt.choices
                 if not c.input and PASS_WORDS & set(c.action.split())), None)


def describe(options: dict[str, Any], lang: str) -> str:
    """The pace in a few words for the table and /games ("relaxed pace"); "" without one."""
    pace = pace_of(options)
    return text(lang, "pace.describe", pace=Msg(f"pace.value.{pace}")) if pace else ""


def reminder(options: dict[str, Any], reminded: list[str], deadline: str, lang: str) -> str:
    """A reminder's words after the player's mention: which one it is (the last sent,
    `reminded[-1]`) and what the deadline (`deadline`, a Discord timestamp) will bring."""
    which = "pace.reminder.hour" if reminded and reminded[-1] == "warn:hour" \
        else "pace.reminder.half"
    return text(lang, "pace.reminder", which=Msg(which), deadline=deadline,
                then=Msg(f"pace.then.{deadline_action(options)}"))

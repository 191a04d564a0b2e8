"""The AI levels as people meet them: the lobby's Add AI buttons, the level beside an AI's
name, and what `/rules` and /help say the levels are. The levels themselves are the games'
(`games.core.LEVELS`: easy, smart, hard; smart by default)."""
from __future__ import annotations

from typing import Any, Iterable

from games.core import DEFAULT_LEVEL, LEVELS

# What each level plays like, for the player choosing one (the lobby's buttons, /rules).
WHAT = {"easy": "plays sensible moves but makes a new player's mistakes: good for a first game",
        "smart": "follows a sound plan every turn: a fair match for most players",
        "hard": "thinks ahead, trying out many ways the game could go from what its seat has "
                "seen (never the cards it cannot see): for a strong player"}
RULES_TOPIC = "ai levels"


def button_label(level: str) -> str:
    return f"Add {level} AI"



RULES = "\n".join(["**AI levels**",
                   "The host picks each AI player's level by the button that adds it ("
                   + ", ".join(f"**{button_label(level)}**" for level in LEVELS)
                   + "); the level shows beside its name.",
                   *(f"- **{level}**: {WHAT[level]}." for level in LEVELS),
                   f"An AI that takes over a player's seat plays at the {DEFAULT_LEVEL} level."])
HELP_LINE = ("**AI players:** the host adds them at " + ", ".join(LEVELS[:-1]) + f" or {LEVELS[-1]} "
             f"({DEFAULT_LEVEL} unless chosen); `/rules` and a game's name, topic `{RULES_TOPIC}`, "
             "says how they play.")


def parse(op: str) -> tuple[str, str | None]:
    """A lobby op and its level: "ai.easy" -> ("ai", "easy"); "ai" alone adds the default."""
    name, _, level = op.partition(".")
    return name, level or None


def ai_op(level: str) -> str:
    """The lobby op that adds an AI at `level` (the default's is plain "ai", as before levels)."""
    return "ai" if level == DEFAULT_LEVEL else f"ai.{level}"


def tag(ai: bool, level: str) -> str:
    """What follows a seat's name to say it is an AI, and at which level."""
    return f" · {level} AI" if ai else ""


def named(seats: Iterable[Any]) -> list[str]:
    """The seats' names, each AI's with its level ("AI 2 (easy)"): the table's players' panel."""
    return [f"{seat.name} ({seat.level})" if seat.ai else seat.name for seat in seats]

"""What a newcomer reads first: /help, and the answer to "help" typed in a channel.

Built from the games found by discovery and the command tree's own descriptions, so a new game
or command shows up here without an edit.
"""
from __future__ import annotations

from typing import Any, Iterable

import games

from . import levels

# the commands a newcomer needs, in the order they need them; the rest follow alphabetically
FIRST = ("play", "help", "rules", "hand", "move", "status", "log")
TYPED = ("help", "!help", "/help", "help?")  # what a newcomer types in a channel


def asks_for_help(text: str) -> bool:
    return text.strip().lower() in TYPED


def game_lines() -> list[str]:
    return [f"• **{g.title}** (`/play {g.name}`, {g.min_seats}–{g.max_seats} players): "
            f"{first_sentence(g.pitch)}" for g in games.all_games()]


def first_sentence(text: str) -> str:
    return text.split(". ")[0].rstrip(".") + "."


def full_help(commands: Iterable[Any]) -> str:
    """The whole help: the bot, how to start, the games, the commands, where the rules are."""
    commands = list(commands)
    known = {c.name: c.description for c in commands if not hasattr(c, "commands")}
    order = [n for n in FIRST if n in known] + sorted(n for n in known if n not in FIRST)
    groups = sorted(c.name for c in commands if hasattr(c, "commands"))
    return "\n".join([
        "**Gatekeeper** hosts board games about keys in this channel: everyone sees the board, "
        "your own cards come to you privately.",
        "**To start:** type `/play`, pick a game; others click **Join** (or the host adds AI "
        "players), then the host clicks **Start**. On your turn, click your buttons or "
        "**Take my turn**.",
        "",
        "**The games**",
        *game_lines(),
        "",
        "**Commands**",
        *(f"`/{name}`: {known[name]}" for name in order),
        *([", ".join(f"`/{name}`" for name in groups) + ": type a move in that game "
           f"(`/{groups[0]} …`), the same as its buttons"] if groups else []),
        "",
        "**Rules:** `/rules` and a game's name, with a `topic:` for one part.",
        levels.HELP_LINE,
    ])


def short_help() -> str:
    """The answer to "help" typed in a channel: public, so short."""
    names = ", ".join(f"`{g.name}`" for g in games.all_games())
    return ("I'm Gatekeeper: I host board games here. Type `/play` and pick a game "
            f"({names}) to open a lobby; `/help` tells you everything else, privately.")

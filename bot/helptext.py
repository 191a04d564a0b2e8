"""What a newcomer reads first: /help, and the answer to "help" typed in a channel.

Built from the games found by discovery and the command tree's commands (their words from the
catalogs, in the reader's language), so a new game or command shows up here without an edit.
"""
from __future__ import annotations

from typing import Any, Iterable

import games
from data.locales import Msg, has, text

from .present import pitch
from .rendering import title_of

from . import levels

# the commands a newcomer needs, in the order they need them; the rest follow alphabetically
FIRST = ("play", "help", "rules", "hand", "move", "status", "log")
# what a newcomer types in a channel, in each language we speak
TYPED = ("help", "!help", "/help", "help?", "hilfe", "hilfe?", "ayuda", "¿ayuda?")


def asks_for_help(typed: str) -> bool:
    return typed.strip().lower() in TYPED


def game_lines(lang: str) -> list[str]:
    return [text(lang, "help.game", title=title_of(g), play=f"{slash(lang, 'play')} {g.name}",
                 players=f"{g.min_seats}–{g.max_seats}", pitch=first_sentence(pitch(g, lang)))
            for g in games.all_games()]


def first_sentence(words: str) -> str:
    return words.split(". ")[0].rstrip(".") + "."


def slash(lang: str, name: str) -> str:
    """A command as a reader of `lang` sees it in Discord: `/play` is `/spielen` in German."""
    id = f"cmd.{name}.name"
    return f"/{text(lang, id) if has(id) else name}"


def full_help(commands: Iterable[Any], lang: str) -> str:
    """The whole help: the bot, how to start, the games, the commands, where the rules are."""
    commands = list(commands)
    known = {c.name for c in commands if not hasattr(c, "commands")}
    order = [n for n in FIRST if n in known] + sorted(n for n in known if n not in FIRST)
    groups = sorted(c.name for c in commands if hasattr(c, "commands"))
    return "\n".join([
        text(lang, "help.intro"),
        text(lang, "help.start", play=slash(lang, "play"), join=Msg("lobby.button.join"),
             start=Msg("lobby.button.start"), take_turn=Msg("table.button.take_turn")),
        "",
        text(lang, "help.games"),
        *game_lines(lang),
        "",
        text(lang, "help.commands"),
        *(f"`{slash(lang, name)}`: {text(lang, f'cmd.{name}.description')}" for name in order),
        *([text(lang, "help.groups", groups=", ".join(f"`/{name}`" for name in groups),
                example=f"`/{groups[0]} …`")] if groups else []),
        "",
        text(lang, "help.rules", rules=slash(lang, "rules")),
        levels.help_line(lang, slash(lang, "rules")),
    ])


def short_help(lang: str) -> str:
    """The answer to "help" typed in a channel: public, so short."""
    names = ", ".join(f"`{g.name}`" for g in games.all_games())
    return text(lang, "help.short", play=slash(lang, "play"), games=names,
                help=slash(lang, "help"))

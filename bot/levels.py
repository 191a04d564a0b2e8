"""The AI levels as people meet them: the lobby's Add AI buttons, the level beside an AI's
name, and what `/rules` and /help say the levels are, in the reader's language. The levels
themselves are the games' (`games.core.LEVELS`: easy, smart, hard; smart by default)."""
from __future__ import annotations

from typing import Any, Iterable

from data.locales import DEFAULT, Msg, text
from games.core import DEFAULT_LEVEL, LEVELS

def name(level: str, lang: str = DEFAULT) -> str:
    """A level as `lang`'s readers call it ("easy", "leicht", "fácil")."""
    return text(lang, f"level.{level}")


def button_label(level: str, lang: str = DEFAULT) -> str:
    return text(lang, "level.button", level=Msg(f"level.{level}"))


def either(lang: str) -> str:
    """Every level: "easy, smart or hard"."""
    return text(lang, "level.either")


def rules(lang: str) -> str:
    """The `/rules` topic on the levels."""
    return "\n".join([
        text(lang, "level.rules.title"),
        text(lang, "level.rules.pick",
             buttons=", ".join(f"**{button_label(level, lang)}**" for level in LEVELS)),
        *(text(lang, "level.rules.line", level=name(level, lang),
               what=Msg(f"level.what.{level}")) for level in LEVELS),
        "",
        text(lang, "level.rules.takeover", level=name(DEFAULT_LEVEL, lang))])


def topic(lang: str) -> str:
    """The `/rules` topic on the levels, as `lang`'s readers ask for it ("ai levels")."""
    return text(lang, "level.topic")


def help_line(lang: str, rules_command: str) -> str:
    return text(lang, "help.levels", levels=either(lang), default=name(DEFAULT_LEVEL, lang),
                rules=rules_command, topic=topic(lang))


def parse(op: str) -> tuple[str, str | None]:
    """A lobby op and its level: "ai.easy" -> ("ai", "easy"); "ai" alone adds the default."""
    op_name, _, level = op.partition(".")
    return op_name, level or None


def ai_op(level: str) -> str:
    """The lobby op that adds an AI at `level` (the default's is plain "ai", as before levels)."""
    return "ai" if level == DEFAULT_LEVEL else f"ai.{level}"


def tag(ai: bool, level: str, lang: str = DEFAULT) -> str:
    """What follows a seat's name to say it is an AI, and at which level."""
    return f" · {text(lang, 'level.tag', level=name(level, lang))}" if ai else ""


def named(seats: Iterable[Any], lang: str = DEFAULT) -> list[str]:
    """The seats' names, each AI's with its level ("AI 2 (easy)"): the table's players' panel."""
    return [text(lang, "level.named", name=seat.name, level=name(seat.level, lang))
            if seat.ai else seat.name for seat in seats]

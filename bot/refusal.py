"""The bot's refusals in its readers' languages: an IllegalAction that carries a message id.

Apart from bot.i18n (which speaks to Discord) so that modules a render worker loads, such as
bot.table and bot.replay, can refuse in words without importing discord.py.
"""
from __future__ import annotations

from typing import Any

from data.locales import Msg, render
from games.core import IllegalAction, name_seats


class Refusal(IllegalAction):
    """An IllegalAction in the bot's words: its message is rendered in the reader's language
    (`reason` stays the English one, for logs)."""

    def __init__(self, id: str, /, **params: Any) -> None:
        super().__init__(Msg(id, **params))


def said(lang: str, exc: IllegalAction) -> str:
    """A refusal's words for a reader of `lang`, its players named (an engine's refusal in
    plain words reads as written)."""
    words = render(lang, exc.msg) if exc.msg is not None else exc.reason
    return name_seats(words, exc.names)

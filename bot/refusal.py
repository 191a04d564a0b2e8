"""The bot's refusals in its readers' languages: an IllegalAction that carries a message id.

Apart from bot.i18n (which speaks to Discord) so that modules a render worker loads, such as
bot.table and bot.replay, can refuse in words without importing discord.py.
"""
from __future__ import annotations

from typing import Any

from data.locales import DEFAULT, Msg, render, text
from games.core import IllegalAction


class Refusal(IllegalAction):
    """An IllegalAction in the bot's words: its message is rendered in the reader's language
    (`reason` stays the English one, for logs)."""

    def __init__(self, id: str, /, **params: Any) -> None:
        self.msg = Msg(id, **params)
        super().__init__(text(DEFAULT, id, **params))


def said(lang: str, exc: IllegalAction) -> str:
    """A refusal's words for a reader of `lang`: the bot's own (`Refusal`), or an engine's
    `IllegalAction(Msg(...))` (a reason given as a plain string reads as it is)."""
    msg = getattr(exc, "msg", None)
    return render(lang, msg if isinstance(msg, Msg) else exc.reason)

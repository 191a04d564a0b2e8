"""The channel permissions a game needs, and how to tell a host which one is missing.

Discord refuses a message the bot may not send (403, code 50013) and an interaction says what
the bot may do in its channel (`app_permissions`). A game in a channel where the bot cannot
post its boards would otherwise retry and stay silent, so /play checks first, and a running
game that loses one tells its host once (bot.publisher) and goes on when it is granted.
"""
from __future__ import annotations

import discord

from data.locales import text

MISSING_PERMISSIONS = 50013  # Discord's error code for a refused write

# attributes of discord.Permissions; their names as Discord's settings show them are messages
# (`permission.<attribute>`), in the language of whoever reads them
FOR_A_GAME = ("view_channel", "send_messages", "embed_links", "attach_files",
              "read_message_history")
FOR_A_THREAD = ("create_public_threads", "send_messages_in_threads")


def missing(permissions: discord.Permissions, in_thread: bool = False) -> list[str]:
    """The permissions (attributes) a game needs that `permissions` lacks."""
    needed = FOR_A_GAME + (FOR_A_THREAD if in_thread else ())
    return [attribute for attribute in needed if not getattr(permissions, attribute)]


def how_to_grant(attributes: list[str], channel_mention: str, lang: str) -> str:
    """A host-facing sentence: what is missing and where to grant it."""
    listed = ", ".join(f"**{text(lang, f'permission.{name}')}**" for name in attributes)
    return text(lang, "permission.missing", count=len(attributes), channel=channel_mention,
                listed=listed)

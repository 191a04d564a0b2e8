"""The channel permissions a game needs, and how to tell a host which one is missing.

Discord refuses a message the bot may not send (403, code 50013) and an interaction says what
the bot may do in its channel (`app_permissions`). A game in a channel where the bot cannot
post its boards would otherwise retry and stay silent, so /play checks first, and a running
game that loses one tells its host once (bot.publisher) and goes on when it is granted.
"""
from __future__ import annotations

import discord

MISSING_PERMISSIONS = 50013  # Discord's error code for a refused write

# (attribute of discord.Permissions, the name Discord's settings show)
FOR_A_GAME = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
    ("read_message_history", "Read Message History"),
)
FOR_A_THREAD = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)


def missing(permissions: discord.Permissions, in_thread: bool = False) -> list[str]:
    """The names of the permissions a game needs that `permissions` lacks."""
    needed = FOR_A_GAME + (FOR_A_THREAD if in_thread else ())
    return [name for attribute, name in needed if not getattr(permissions, attribute)]


def how_to_grant(names: list[str], channel_mention: str) -> str:
    """A host-facing sentence: what is missing and where to grant it."""
    listed = ", ".join(f"**{name}**" for name in names)
    plural = "these permissions" if len(names) > 1 else "this permission"
    return (f"I'm missing {plural} in {channel_mention}: {listed}. Someone who can manage the "
            "channel can grant it there: Edit Channel → Permissions → Gatekeeper (or give it "
            "to the Gatekeeper role in Server Settings → Roles).")

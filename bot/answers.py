"""Answering a player, whatever Discord makes of the bot's first answer.

A click or a modal submit must be acknowledged within 3 s, and its move must not hang on that
acknowledgement: Discord may refuse it (10008: the message clicked was replaced meanwhile;
10062: the interaction expired; 40060: an earlier try landed after all) or fail with a 5xx.
`acknowledge` tries the silent update a move wants, then a private "thinking" answer, and says
which one landed; the move is applied either way. `reply` then reaches the player through the
interaction while Discord takes answers to it, and by DM once it does not.
"""
from __future__ import annotations

import enum
import logging

import aiohttp
import discord

log = logging.getLogger("gatekeeper.discord")
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062
UNKNOWN_WEBHOOK = 10015  # a follow-up to an interaction that was never acknowledged
MESSAGE_LIMIT = 2000


class Ack(enum.Enum):
    UPDATE = "update"  # a silent update of the message clicked: the board can be edited through it
    PRIVATE = "private"  # a private "thinking" message: follow-ups replace it
    NONE = "none"  # Discord took no answer: the player hears back by DM


async def acknowledge(interaction: discord.Interaction) -> Ack:
    """Acknowledge a click or submit before its move runs, as a silent update if Discord takes
    one, else as a private answer to follow up."""
    try:
        await interaction.response.defer()
        return Ack.UPDATE
    except discord.HTTPException as exc:
        log.warning("discord-error what=acknowledge status=%s code=%s", exc.status, exc.code)
        if exc.code == ALREADY_ACKNOWLEDGED:
            return Ack.PRIVATE  # an earlier try landed, we cannot know as what: follow up
        if exc.code == UNKNOWN_INTERACTION:
            return Ack.NONE
    except (aiohttp.ClientError, OSError) as exc:  # the answer may have landed: try again
        log.warning("discord-error what=acknowledge error=%s", type(exc).__name__)
    try:  # the message is gone, or Discord stumbled: answer privately instead
        await interaction.response.defer(ephemeral=True, thinking=True)
        return Ack.PRIVATE
    except discord.HTTPException as exc:
        log.warning("discord-error what=acknowledge-privately status=%s code=%s",
                    exc.status, exc.code)
        return Ack.PRIVATE if exc.code == ALREADY_ACKNOWLEDGED else Ack.NONE
    except (aiohttp.ClientError, OSError) as exc:
        log.warning("discord-error what=acknowledge-privately error=%s", type(exc).__name__)
        return Ack.NONE


async def reply(interaction: discord.Interaction, text: str) -> int | None:
    """A private answer, whether or not the interaction was already acknowledged; by DM when
    Discord no longer takes answers to it. The id of the message it became, if known."""
    text = text[:MESSAGE_LIMIT]
    try:
        if interaction.response.is_done():
            return (await interaction.followup.send(text, ephemeral=True, wait=True)).id
        try:
            sent = await interaction.response.send_message(text, ephemeral=True)
            return sent.message_id if sent else None
        except discord.HTTPException as exc:
            if exc.code != ALREADY_ACKNOWLEDGED:
                raise
            return (await interaction.followup.send(text, ephemeral=True, wait=True)).id
    except discord.HTTPException as exc:
        log.warning("discord-error what=reply status=%s code=%s", exc.status, exc.code)
        if exc.code not in (UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK) and exc.status < 500:
            return None
    await by_dm(interaction, text)
    return None


async def by_dm(interaction: discord.Interaction, text: str) -> None:
    """Tell the person behind `interaction` by DM (their DMs may be closed: then nothing)."""
    dms = getattr(interaction.client, "dms", None)
    try:
        channel = await dms.of(interaction.user.id) if dms else await interaction.user.create_dm()
        await channel.send(text[:MESSAGE_LIMIT])
    except discord.HTTPException as exc:
        log.warning("discord-error what=reply-by-dm status=%s code=%s", exc.status, exc.code)

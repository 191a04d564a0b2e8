"""Telling a player of a long game that their turn has come: a DM with a link to the table and
what happened since their last turn.

A game at a relaxed or correspondence pace (bot.pace.notifies) may sit for hours between turns,
so the table's ping in the channel is not enough: TableService calls `turn_came` once when a turn
passes to a person, and this DMs them, unless they turned DMs off (/notify off, stored per user)
or closed their DMs. The catch-up is the public log since that seat's last action, the newest
lines kept to fit one message.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from . import present
from .delivery import Slot
from .table import Table, TableService

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.notify")

CATCH_UP_CHARACTERS = 1500  # of a DM's 2,000: the rest is the heading and the link
DMS_CLOSED = 50007


async def catch_up(service: TableService, table: Table, seat: int,
                   limit: int = CATCH_UP_CHARACTERS) -> list[str]:
    """What happened in public since `seat` last acted, newest lines kept within `limit`."""
    lines = present.public_lines(table, await service.public_events(table, since_seat=seat))
    return present.fitting(lines, limit) if lines else []


def table_link(table: Table, board: tuple[int, int] | None) -> str:
    """The live table's message, or the channel when no table was posted yet."""
    if board is None:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    return f"https://discord.com/channels/{table.guild_id}/{board[0]}/{board[1]}"


def turn_text(table: Table, seat: int, lines: list[str], link: str) -> str:
    heading = (f"🎲 Your turn in **{table.game.title}** (game #{table.id}) in "
               f"<#{table.channel_id}>: {link}")
    if not lines:
        return heading
    return "\n".join([heading, "**Since your last turn:**", *lines])[:2000]


class Notifier:
    """Sends the turn DMs of one bot (a delivery per seat: a newer turn replaces one waiting)."""

    def __init__(self, bot: "GatekeeperBot") -> None:
        self.bot = bot

    def turn_came(self, table: Table, seat: int) -> None:
        """Queue the DM (called under the table's lock, so the store is asked only when the
        delivery runs: whether they turned DMs off is read there)."""
        user = table.seats[seat].user_id
        if user is None or table.seats[seat].dm_closed:
            return
        self.bot.delivery.send(("turn", table.id, seat), user, (table, seat), self._dm)

    async def _dm(self, turn: tuple[Table, int], slot: Slot) -> None:
        table, seat = turn
        if not (await self.bot.store.person(slot.channel_id))["notify"]:
            return
        link = table_link(table, self.bot.store.messages(table.id).get("board"))
        text = turn_text(table, seat, await catch_up(self.bot.service, table, seat), link)
        channel = await self.bot.dms.of(slot.channel_id)
        try:
            await channel.send(text, nonce=slot.nonce)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                raise
            log.info("turn dm refused: dms closed game=%s seat=%s", table.id, seat)

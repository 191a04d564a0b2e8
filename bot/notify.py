"""Telling a player of a long game that their turn has come: a DM with a link to the table and
what happened since their last turn.

A game at a relaxed or correspondence pace (bot.pace.notifies) may sit for hours between turns,
so the table's ping in the channel is not enough: TableService calls `turn_came` once when a turn
passes to a person, and this DMs them, unless they closed their DMs. The catch-up is the public
log since that seat's last action, the newest lines kept to fit one message, then the private
news that came to them since their previous turn (a card drawn): at these paces this is their
one DM a turn (bot.publisher adds only the start's and the end's). Someone who turned turn DMs off (/notify off,
stored per user) gets that news alone, when there is some.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from data.locales import text
from games.core import Event, Game, State, apply, setup

from . import present
from .rendering import title_of
from .delivery import Slot
from .store import Store
from .table import Table

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.notify")

CATCH_UP_CHARACTERS = 1500  # of a DM's 2,000: the rest is the heading and the link
DMS_CLOSED = 50007


async def since_last_turn(store: Store, table: Table, seat: int) -> tuple[list[Event], list[Event]]:
    """What `seat` has not seen, replaying the game's log up to `table`'s version: the public
    events since it last acted (what it did, it knows), and the private news to it since its
    previous turn came (the turn DM of that turn told what came before). A turn comes as
    TableService says (the seat is asked to act, newly or on a new turn: an extra turn is one)."""
    game = table.game
    state = setup(game, len(table.seats), table.options, table.seed)
    asked = game.prompt(state, seat) is not None
    public: list[Event] = []
    private: list[list[Event]] = [[], []] if asked else [[]]  # per turn of the seat's
    for row in await store.actions(table.id):
        if state.version >= table.version:
            break
        before = state
        outcome = apply(game, state, row["seat"], row["action"], row["at"])
        state = outcome.state
        if row["seat"] == seat:
            public = []
        else:
            public += [e for e in outcome.events if e.public]
        private[-1] += [e for e in outcome.events if e.to is not None and seat in e.to]
        now_asked = game.prompt(state, seat) is not None
        if now_asked and (not asked or turn_changed(game, before, state)):
            private.append([])
        asked = now_asked
    return public, [e for turn in private[-2:] for e in turn]


def turn_changed(game: Game, before: State, after: State) -> bool:
    """Did an action pass the turn (TableService's test: a new turn, or someone else to move)?"""
    return after.turn != before.turn or after.over or game.to_move(after) != game.to_move(before)


def catch_up(table: Table, events: list[Event], lang: str,
             limit: int = CATCH_UP_CHARACTERS) -> list[str]:
    """The public `events` as lines, the newest kept within `limit` (the pointer to the rest
    in the reader's `lang`)."""
    lines = present.public_lines(table, events, lang)
    return present.fitting(lines, lang, limit) if lines else []


def table_link(table: Table, board: tuple[int, int] | None) -> str:
    """The live table's message, or the channel when no table was posted yet."""
    if board is None:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    return f"https://discord.com/channels/{table.guild_id}/{board[0]}/{board[1]}"


def turn_text(table: Table, lines: list[str], link: str, news: list[str], lang: str) -> str:
    parts = [text(lang, "notify.turn", game=title_of(table.game), id=table.id,
                  channel=f"<#{table.channel_id}>", link=link)]
    if lines:
        parts += [text(lang, "notify.since"), *lines]
    if news:
        parts += [text(lang, "notify.alone"), *news]
    return "\n".join(parts)[:2000]


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
        store = self.bot.store
        public, private = await since_last_turn(store, table, seat)
        lang = self.bot.languages.person(slot.channel_id, table.guild_id)
        news = present.news_lines(table, seat, private, lang)
        link = table_link(table, store.messages(table.id).get("board"))
        if (await store.person(slot.channel_id))["notify"]:
            told = turn_text(table, catch_up(table, public, lang), link, news, lang)
        elif news:  # turn DMs off: the news alone, which no other DM carries at this pace
            told = present.hand_message(table, seat, private, link, lang, whole=False)
        else:
            return
        channel = await self.bot.dms.of(slot.channel_id)
        try:
            await channel.send(told, nonce=slot.nonce)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                raise
            log.info("turn dm refused: dms closed game=%s seat=%s", table.id, seat)

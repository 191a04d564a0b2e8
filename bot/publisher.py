"""Turns committed snapshots into Discord messages: boards, DMs, notices.

Called by each game's Feed (bot.feed), outside the game lock, in commit order, one burst at a
time. Message economy, as players want it:
- a new board message (pinging the player) when the turn passes to another person, or the game
  ends; the new board is posted before the old one loses its buttons (retired through the
  clicker's interaction when possible, which costs no channel write);
- otherwise the current board is edited, and its log keeps every line of the current turn;
- at most one DM per player per turn, and only when their private state changed (or an event
  was addressed to them).
A board that cannot be drawn twice goes out as text. Rendering runs in worker processes.
"""
from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord

from . import present, ui
from games.core import Event

from .feed import Change, Snapshot
from .rendering import RenderFailed, board_view
from .table import Table

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.discord")
DMS_CLOSED = 50007
MAX_TURN_LINES = 30  # lines of the current turn kept on the board (the rest: /log)


class DiscordPublisher:
    def __init__(self, bot: "GatekeeperBot") -> None:
        self.bot = bot
        self._sent_private: dict[tuple[int, int], str] = {}
        self._drawn: dict[int, str] = {}  # the view each live board image was drawn from
        self._lines: dict[int, list[str]] = {}  # log lines shown on each live board
        self._unsent: dict[tuple[int, int], list[Event]] = {}  # private events awaiting a DM

    # -- helpers ----------------------------------------------------------------------------
    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    @staticmethod
    def board_view(table: Table) -> dict:
        """The public view the board image is drawn from (minus what only the text shows)."""
        assert table.state is not None
        return board_view(table.game, table.state, table.names())

    async def board_file(self, table: Table, view: dict | None = None) -> discord.File | None:
        """The board image, or None if it cannot be drawn (the board then goes out as text)."""
        try:
            png = await self.bot.renderer.png(view or self.board_view(table))
        except RenderFailed:
            log.error("render failed twice game=%s version=%s", table.id, table.version)
            return None
        return discord.File(io.BytesIO(png), filename="board.png")

    def jump_url(self, table: Table) -> str | None:
        ids = self.bot.store.messages(table.id).get("board")
        if ids is None:
            return None
        return f"https://discord.com/channels/{table.guild_id}/{ids[0]}/{ids[1]}"

    async def _safely(self, what: str, table: Table, coro) -> Any:
        try:
            return await coro
        except discord.HTTPException as exc:
            log.warning("discord-error game=%s what=%s status=%s code=%s", table.id, what,
                        exc.status, exc.code)
            return None

    # -- Publisher -----------------------------------------------------------------------------
    async def lobby_changed(self, table: Table) -> None:
        ids = self.bot.store.messages(table.id).get("lobby")
        if ids is None:
            return
        await self._safely("lobby", table, self.channel(ids[0]).get_partial_message(ids[1]).edit(
            embed=present.lobby_embed(table), view=ui.lobby_view(table)))

    async def publish(self, snapshot: Snapshot) -> None:
        table, change = snapshot.table, snapshot.change
        if table.state is None:
            return
        if change is not None:
            await self.post_interjections(table, change)
        old = self.bot.store.messages(table.id).get("board")
        new_board = old is None or snapshot.fresh_board or table.status != "running" \
            or (change is not None and change.turn_changed and self._person_to_ping(table))
        lines = present.public_lines(table, change.events) if change else []
        if new_board:
            self._lines[table.id] = lines[-MAX_TURN_LINES:]
            posted = await self.post_board(table)
            if posted and old is not None:
                await self._retire(table, old, change)
        else:
            kept = self._lines.get(table.id, []) + lines
            self._lines[table.id] = kept[-MAX_TURN_LINES:]
            await self.edit_board(table, old)
        await self.send_private(table, change)
        if table.status != "running":
            self.forget(table)

    def forget(self, table: Table) -> None:
        self.bot.store.forget(table.id)
        self._drawn.pop(table.id, None)
        self._lines.pop(table.id, None)
        for seat in range(len(table.seats)):
            self._sent_private.pop((table.id, seat), None)
            self._unsent.pop((table.id, seat), None)

    @staticmethod
    def _person_to_ping(table: Table) -> bool:
        """Does the new turn belong to a person (who should be pinged by a new message)?"""
        assert table.state is not None
        mover = table.game.to_move(table.state)
        return any(p is not None and not table.seats[s].ai for s, p in enumerate(table.prompts)) \
            or (mover is not None and not table.seats[mover].ai)

    async def post_interjections(self, table: Table, change: Change) -> None:
        """A speaking character (the game's `speakers`) gets messages of their own, with a picture."""
        for event in change.events:
            if not event.public or event.kind not in table.game.speakers:
                continue
            text = table.fill(event.text)
            embed = discord.Embed(title=table.game.speakers[event.kind], description=text[:4000],
                                  colour=discord.Colour.dark_red())
            png = await self.bot.renderer.speaker(table.game.name, text)
            kwargs: dict = {}
            if png is not None:
                kwargs["file"] = discord.File(io.BytesIO(png), filename="speaker.png")
                embed.set_image(url="attachment://speaker.png")
            mentions = " ".join(f"<@{s.user_id}>" for s in table.seats
                                if s.user_id and not s.ai and s.name in text)
            await self._safely("interjection", table, self.channel(table.channel_id).send(
                content=mentions or None, embed=embed,
                allowed_mentions=discord.AllowedMentions(users=True), **kwargs))

    def _board_message(self, table: Table) -> tuple[str, discord.Embed, str]:
        content, embed = present.turn_embed(table, self._lines.get(table.id, []))
        return content, embed, json.dumps(self.board_view(table), sort_keys=True)

    async def post_board(self, table: Table) -> bool:
        content, embed, drawn = self._board_message(table)
        file = await self.board_file(table)
        if file is None:
            embed.set_image(url=None)
            embed.set_footer(text=f"{embed.footer.text} · (the board picture could not be drawn)")
        sent = await self._safely("board", table, self.channel(table.channel_id).send(
            content=content, embed=embed, view=ui.turn_view(table),
            allowed_mentions=discord.AllowedMentions(users=True), **({"file": file} if file else {})))
        if not isinstance(sent, discord.Message):
            return False
        self._drawn[table.id] = drawn if file else ""
        self.bot.store.set_message(table.id, "board", sent.channel.id, sent.id, table.version)
        return True

    async def edit_board(self, table: Table, ids: tuple[int, int]) -> None:
        content, embed, drawn = self._board_message(table)
        extra: dict = {}
        if self._drawn.get(table.id) != drawn:  # an unchanged picture is not drawn again
            file = await self.board_file(table)
            extra["attachments"] = [file] if file else []
            if file is None:
                embed.set_image(url=None)
        message = self.channel(ids[0]).get_partial_message(ids[1])
        sent = await self._safely("board-edit", table, message.edit(
            content=content, embed=embed, view=ui.turn_view(table), **extra))
        if sent is None:  # the message is gone or refused: post a fresh board instead
            await self.post_board(table)
            return
        if "attachments" in extra:
            self._drawn[table.id] = drawn if extra["attachments"] else ""
        self.bot.store.set_message(table.id, "board", ids[0], ids[1], table.version)

    async def _retire(self, table: Table, ids: tuple[int, int], change: Change | None) -> None:
        """Strip the buttons from the previous board, through the click that moved on from it
        when there is one (an interaction edit, not a channel write)."""
        origin = change.origin if change else None
        message = getattr(origin, "message", None)
        if isinstance(origin, discord.Interaction) and message is not None and message.id == ids[1]:
            done = await self._safely("retire-via-click", table,
                                      origin.edit_original_response(view=None))
            if done is not None:
                return
        await self._safely("retire", table, self.channel(ids[0]).get_partial_message(
            ids[1]).edit(view=None))

    async def send_private(self, table: Table, change: Change | None) -> None:
        """DM a person at most once a turn: when the turn passes (or the game ends), if their
        private state changed or events were addressed to them meanwhile (gathered until then).
        Within a turn the mover sees their hand in the "Take my turn" panel and /hand."""
        if table.state is None:
            return
        turn_over = change is None or change.turn_changed or table.status != "running"
        for seat_index, seat in enumerate(table.seats):
            if seat.ai or seat.user_id is None or seat.dm_closed:
                continue
            key = (table.id, seat_index)
            unsent = self._unsent.setdefault(key, [])
            unsent += [e for e in (change.events if change else [])
                       if e.to is not None and seat_index in e.to]
            if not turn_over:
                continue
            text = table.game.private_text(table.state, seat_index)
            if not unsent and (not text or self._sent_private.get(key) == text):
                continue
            self._sent_private[key] = text
            body = present.hand_message(table, seat_index, unsent, self.jump_url(table))
            self._unsent[key] = []
            try:
                dm = await self.bot.create_dm(discord.Object(seat.user_id))
                await dm.send(body)
            except discord.Forbidden as exc:
                if exc.code != DMS_CLOSED:
                    raise
                await self.bot.dms_closed(table.id, seat_index)
            except discord.HTTPException as exc:
                log.warning("discord-error game=%s what=dm seat=%s status=%s", table.id,
                            seat_index, exc.status)

    async def timeout_warning(self, table: Table, seat: int) -> None:
        deadline = f"<t:{int(table.deadline)}:R>" if table.deadline else "soon"
        await self.notice(table, f"⏳ {present.mention(table, seat)}, half your time is gone: "
                                 f"the AI plays for you {deadline}.")

    async def notice(self, table: Table, text: str) -> None:
        await self._safely("notice", table, self.channel(table.channel_id).send(
            text[:2000], allowed_mentions=discord.AllowedMentions(users=True)))

    async def notice_channel(self, channel_id: int, text: str) -> None:
        try:
            await self.channel(channel_id).send(text[:2000])
        except discord.HTTPException as exc:
            log.warning("discord-error channel=%s what=notice status=%s", channel_id, exc.status)

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
Every message goes out through bot.delivery: an attempt that fails for a passing reason is
retried until the channel shows what was committed.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from . import present, ui
from games.core import Event

from .delivery import Delivery, ServerError, Slot
from .feed import Change, Snapshot, coalesce
from .rendering import RenderFailed, board_view
from .table import Table

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.discord")
DMS_CLOSED = 50007
UNKNOWN_MESSAGE = 10008  # someone deleted the message: post it again
MAX_TURN_LINES = 30  # lines of the current turn kept on the board (the rest: /log)


class DiscordPublisher:
    def __init__(self, bot: "GatekeeperBot", delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery
        self._sent_private: dict[tuple[int, int], int] = {}  # fingerprints handed to DMs
        self._drawn: dict[int, str] = {}  # the view each live board image was drawn from
        self._lines: dict[int, list[str]] = {}  # log lines shown on each live board
        self._unsent: dict[tuple[int, int], list[Event]] = {}  # private events awaiting a DM
        self._notices = itertools.count()

    # -- helpers ----------------------------------------------------------------------------
    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    @staticmethod
    def board_view(table: Table) -> dict:
        """The public view the board image is drawn from (minus what only the text shows)."""
        assert table.state is not None
        return board_view(table.game, table.state, table.names())

    async def board_file(self, table: Table, drawn: str, slot: Slot) -> discord.File | None:
        """The board image, or None if it cannot be drawn (the board then goes out as text).
        Kept on the delivery slot while it lasts, so a retry does not draw it again."""
        png = slot.kept.get(drawn)
        if png is None:
            try:
                png = await self.bot.renderer.png(self.board_view(table))
            except RenderFailed:
                log.error("render failed twice game=%s version=%s", table.id, table.version)
                return None
            slot.kept = {drawn: png}
        return discord.File(io.BytesIO(png), filename="board.png")

    def jump_url(self, table: Table) -> str | None:
        ids = self.bot.store.messages(table.id).get("board")
        if ids is None:
            return None
        return f"https://discord.com/channels/{table.guild_id}/{ids[0]}/{ids[1]}"

    # -- lobby ----------------------------------------------------------------------------------
    async def lobby_changed(self, table: Table, answering: discord.Interaction | None = None
                            ) -> None:
        """Show the lobby as committed. A new lobby is the answer to the /play that opened it
        (`answering`: its deferred reply is edited, which is safe to repeat); a lobby without a
        message (in a thread, or its answer expired) or whose message was deleted is posted."""
        await self.delivery.deliver(("lobby", table.id), table.channel_id,
                                    (table.snapshot(), answering), self._show_lobby)

    def lobby_behind(self, table: Table) -> bool:
        """Does the lobby message show another lobby than the committed one? (A started game
        whose lobby was never posted has nothing to catch up.)"""
        shown = self.bot.store.shown_version(table.id, "lobby")
        if shown is None:
            return table.status == "lobby"
        return shown != lobby_fingerprint(table)

    async def _show_lobby(self, lobby: tuple[Table, discord.Interaction | None],
                          slot: Slot) -> None:
        table, answering = lobby
        ids = self.bot.store.messages(table.id).get("lobby")
        embed, view = present.lobby_embed(table), ui.lobby_view(table)
        if ids is None and answering is not None:
            ids = await self._answered(answering, embed=embed, view=view)
        elif ids is not None and not await self._edited(
                self.channel(ids[0]).get_partial_message(ids[1]), embed=embed, view=view):
            ids = None
        if ids is None:
            if table.status != "lobby":
                return  # a closed lobby that nobody can see need not come back
            sent = await self.channel(table.channel_id).send(embed=embed, view=view,
                                                             nonce=slot.nonce)
            ids = (sent.channel.id, sent.id)
        self.bot.store.set_message(table.id, "lobby", *ids, lobby_fingerprint(table))

    @staticmethod
    async def _answered(interaction: discord.Interaction, **fields: Any) -> tuple[int, int] | None:
        """Put the lobby in the deferred reply to /play; None if that reply is gone (expired or
        deleted: the lobby is then posted in the channel)."""
        try:
            sent = await interaction.edit_original_response(**fields)
        except discord.NotFound:
            return None
        return sent.channel.id, sent.id

    @staticmethod
    async def _edited(message: discord.PartialMessage, **fields: Any) -> bool:
        """Edit a message; False if someone deleted it (it is then posted again)."""
        try:
            await message.edit(**fields)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            return False
        return True

    # -- boards -----------------------------------------------------------------------------------
    async def publish(self, snapshot: Snapshot) -> None:
        table, change = snapshot.table, snapshot.change
        if table.state is None:
            return
        if change is not None:
            await self.post_interjections(table, change)
        await self.delivery.deliver(("board", table.id), table.channel_id, snapshot,
                                    self._show_board, merge=lambda old, new: coalesce([old, new]))
        await self.send_private(table, change)

    async def _show_board(self, snapshot: Snapshot, slot: Slot) -> None:
        """Post a new board or edit the live one, so the channel shows `snapshot`."""
        table, change = snapshot.table, snapshot.change
        old = self.bot.store.messages(table.id).get("board")
        new_board = old is None or snapshot.fresh_board or table.status != "running" \
            or (change is not None and change.turn_changed and self._person_to_ping(table))
        lines = present.public_lines(table, change.events) if change else []
        if not new_board:
            assert old is not None
            kept = (self._lines.get(table.id, []) + lines)[-MAX_TURN_LINES:]
            if await self.edit_board(table, old, kept, slot):
                return
            lines = kept  # the live board was deleted: post it again, with its lines
        posted = await self.post_board(table, lines[-MAX_TURN_LINES:], slot)
        if old is not None and old != posted:  # (before anything else can fail)
            origin = change.origin if change else None
            self.delivery.send(("retire", old[1]), old[0], (origin,),
                               lambda state, _: self._retire(table, old, state[0]))
        if slot.tries:  # an earlier try may have landed with an older state: show this one
            self._drawn[table.id] = ""  # (and its picture)
            await self.edit_board(table, posted, lines[-MAX_TURN_LINES:], slot)
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
        for index, event in enumerate(change.events):
            if not event.public or event.kind not in table.game.speakers:
                continue
            text = table.fill(event.text)
            png = await self.bot.renderer.speaker(table.game.name, text)
            mentions = " ".join(f"<@{s.user_id}>" for s in table.seats
                                if s.user_id and not s.ai and s.name in text)
            line = (table.game.speakers[event.kind], text, png, mentions or None)
            await self.delivery.deliver(("say", table.id, table.version, index), table.channel_id,
                                        line, self._say)

    async def _say(self, line: tuple[str, str, bytes | None, str | None], slot: Slot) -> None:
        speaker, text, png, content = line
        embed = discord.Embed(title=speaker, description=text[:4000],
                              colour=discord.Colour.dark_red())
        kwargs: dict = {}
        if png is not None:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="speaker.png")
            embed.set_image(url="attachment://speaker.png")
        await self.channel(slot.channel_id).send(
            content=content, embed=embed, nonce=slot.nonce,
            allowed_mentions=discord.AllowedMentions(users=True), **kwargs)

    def _board_message(self, table: Table, lines: list[str]) -> tuple[str, discord.Embed, str]:
        content, embed = present.turn_embed(table, lines)
        return content, embed, json.dumps(self.board_view(table), sort_keys=True)

    async def post_board(self, table: Table, lines: list[str], slot: Slot) -> tuple[int, int]:
        """Post a new board (once: a retry carries the first try's nonce, so a post that landed
        unseen is returned, not repeated) and record it as the live board."""
        content, embed, drawn = self._board_message(table, lines)
        file = await self.board_file(table, drawn, slot)
        if file is None:
            embed.set_image(url=None)
            embed.set_footer(text=f"{embed.footer.text} · (the board picture could not be drawn)")
        sent = await self.channel(table.channel_id).send(
            content=content, embed=embed, view=ui.turn_view(table), nonce=slot.nonce,
            allowed_mentions=discord.AllowedMentions(users=True), **({"file": file} if file else {}))
        ids = (sent.channel.id, sent.id)
        self._drawn[table.id] = drawn if file else ""
        self._lines[table.id] = lines
        self.bot.store.set_message(table.id, "board", ids[0], ids[1], table.version)
        return ids

    async def edit_board(self, table: Table, ids: tuple[int, int], lines: list[str],
                         slot: Slot) -> bool:
        """Edit the live board to show `table`; False if someone deleted it."""
        content, embed, drawn = self._board_message(table, lines)
        extra: dict = {}
        if self._drawn.get(table.id) != drawn:  # an unchanged picture is not drawn again
            file = await self.board_file(table, drawn, slot)
            extra["attachments"] = [file] if file else []
            if file is None:
                embed.set_image(url=None)
        message = self.channel(ids[0]).get_partial_message(ids[1])
        if not await self._edited(message, content=content, embed=embed,
                                  view=ui.turn_view(table), **extra):
            return False
        if "attachments" in extra:
            self._drawn[table.id] = drawn if extra["attachments"] else ""
        self._lines[table.id] = lines
        self.bot.store.set_message(table.id, "board", ids[0], ids[1], table.version)
        return True

    async def _retire(self, table: Table, ids: tuple[int, int], origin: Any) -> None:
        """Strip the buttons from the previous board, through the click that moved on from it
        when there is one (an interaction edit, not a channel write)."""
        message = getattr(origin, "message", None)
        if isinstance(origin, discord.Interaction) and message is not None and message.id == ids[1]:
            try:
                await origin.edit_original_response(view=None)
                return
            except (discord.HTTPException, ServerError) as exc:  # the channel edit does it
                log.info("retire-via-click failed game=%s error=%s", table.id, exc)
        await self._edited(self.channel(ids[0]).get_partial_message(ids[1]), view=None)

    # -- DMs and notices ----------------------------------------------------------------------------
    async def send_private(self, table: Table, change: Change | None) -> None:
        """DM a person at most once a turn: when the turn passes (or the game ends), if their
        private state differs from what their DMs last showed or events were addressed to them
        meanwhile (gathered until then). Within a turn the mover sees their hand in the "Take
        my turn" panel and /hand. With no change (start-up, a republish) only seats whose DMs
        are behind get one."""
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
            shown = fingerprint(text)
            if not unsent and (not text or self._private_wanted(table.id, seat_index) == shown):
                continue
            self._sent_private[key] = shown
            self._unsent[key] = []
            await self.delivery.deliver(("dm", table.id, seat_index), seat.user_id,
                                        PrivateNote(table, seat_index, unsent), self._dm,
                                        merge=PrivateNote.merge)

    def _private_wanted(self, game_id: int, seat: int) -> int | None:
        """The private state last handed to a seat's DM (its fingerprint): remembered, or after
        a restart what the store says the last delivered DM showed."""
        key = (game_id, seat)
        if key in self._sent_private:
            return self._sent_private[key]
        return self.bot.store.shown_version(game_id, dm_kind(seat))

    async def _dm(self, note: PrivateNote, slot: Slot) -> None:
        table, seat = note.table, note.seat
        body = present.hand_message(table, seat, note.events, self.jump_url(table))
        channel = await self.bot.create_dm(discord.Object(table.seats[seat].user_id))
        try:
            sent = await channel.send(body, nonce=slot.nonce)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                raise
            await self.bot.dms_closed(table.id, seat)  # not retried: told once to use /hand
            return
        self.bot.store.set_message(table.id, dm_kind(seat), channel.id, sent.id,
                                   private_fingerprint(table, seat))

    async def tell_dms_closed(self, table: Table, seat: int) -> None:
        """Tell a player in the channel that their DMs are closed, so they use /hand. Unlike
        other notices this one lasts (no DM will come), so its delivery is recorded: start-up
        tells a seat whose notice never landed."""
        text = (f"<@{table.seats[seat].user_id}> I can't DM you (your DMs are closed); use "
                "`/hand` in this channel to see your cards.")
        await self.delivery.deliver(("dms closed", table.id, seat), table.channel_id,
                                    (table.id, seat, text), self._dms_closed_notice)

    def untold_dms_closed(self, table: Table) -> list[int]:
        """Seats whose DMs are closed and who were never told so in the channel."""
        told = self.bot.store.messages(table.id)
        return [index for index, seat in enumerate(table.seats)
                if seat.dm_closed and not seat.ai and dms_closed_kind(index) not in told]

    async def _dms_closed_notice(self, notice: tuple[int, int, str], slot: Slot) -> None:
        game_id, seat, text = notice
        sent = await self.channel(slot.channel_id).send(
            text, nonce=slot.nonce, allowed_mentions=discord.AllowedMentions(users=True))
        self.bot.store.set_message(game_id, dms_closed_kind(seat), sent.channel.id, sent.id)

    async def timeout_warning(self, table: Table, seat: int) -> None:
        deadline = f"<t:{int(table.deadline)}:R>" if table.deadline else "soon"
        await self.notice(table, f"⏳ {present.mention(table, seat)}, half your time is gone: "
                                 f"the AI plays for you {deadline}.")

    async def notice(self, table: Table, text: str) -> None:
        await self.notice_channel(table.channel_id, text, mentions=True)

    async def notice_channel(self, channel_id: int, text: str, mentions: bool = False) -> None:
        await self.delivery.deliver(("notice", channel_id, next(self._notices)), channel_id,
                                    (text[:2000], mentions), self._notice)

    async def _notice(self, notice: tuple[str, bool], slot: Slot) -> None:
        text, mentions = notice
        await self.channel(slot.channel_id).send(
            text, nonce=slot.nonce, allowed_mentions=discord.AllowedMentions(users=mentions))


@dataclass
class PrivateNote:
    """What a DM tells a seat: the private state of `table`, and the events addressed to the
    seat since its last DM."""

    table: Table
    seat: int
    events: list[Event]

    @staticmethod
    def merge(older: PrivateNote, newer: PrivateNote) -> PrivateNote:
        """A DM still waiting when the next is due: one DM with the latest private state and
        the events of both, so nothing the player should learn is lost."""
        latest = newer if newer.table.version >= older.table.version else older
        return PrivateNote(latest.table, latest.seat, older.events + newer.events)


def dm_kind(seat: int) -> str:
    """The `messages` kind of a seat's last DM."""
    return f"dm:{seat}"


def dms_closed_kind(seat: int) -> str:
    """The `messages` kind of the notice telling a seat that its DMs are closed."""
    return f"dms-closed:{seat}"


def private_fingerprint(table: Table, seat: int) -> int:
    assert table.state is not None
    return fingerprint(table.game.private_text(table.state, seat))


def fingerprint(shown: Any) -> int:
    """A stable number for what a message without a game version of its own shows (a lobby, a
    DM): stored as its `messages.version`, so start-up can tell whether it is behind. 31 bits,
    to fit both stores' INTEGER."""
    digest = hashlib.blake2b(json.dumps(shown, sort_keys=True).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF


def lobby_fingerprint(table: Table) -> int:
    """What a lobby message shows: seats, options and whether it is still open."""
    return fingerprint([table.status, [(s.name, s.user_id, s.ai) for s in table.seats],
                        sorted(table.options.items())])

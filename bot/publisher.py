"""Turns committed snapshots into Discord messages: boards, DMs, notices.

Called by each game's Feed (bot.feed), outside the game lock, in commit order, one burst at a
time. Message economy, as players want it:
- a new board message (pinging the player) when the turn passes to another person, or the game
  ends; the new board is posted before the old one loses its buttons (retired through the
  clicker's interaction when possible, which costs no channel write);
- otherwise the current board is edited, and its log keeps every line of the current turn;
- a DM only for private news that reached a player away from the table (`send_private`); DMs
  go out in the background, never ahead of the next board.
A board that cannot be drawn twice goes out as text. Rendering runs in worker processes.
Every message goes out through bot.delivery: an attempt that fails for a passing reason is
retried until the channel shows what was committed.

No dead buttons: Discord allows 5 posts and 5 edits per 5 s in a channel, so the budget goes to
whoever must act now. An edit caused by a click goes through that click's interaction (free: a
"Take my turn" click is answered silently and its panel comes as a follow-up, so the panel's
choice can edit the board through it too). The Feed waits for the channel's budget *before*
taking a burst (`ready`), so a wait never delays a newer state. A new turn whose post would wait
more than SHORT_WAIT is shown at once by an edit, and posted (with its ping) when the posts
reset. A post under way is marked in the store, so after a crash `retire_orphans` finds a board
that landed unrecorded or an old one that kept its buttons.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from data import locales

from . import livetable, pace, permissions, present, ui
from games.core import Event

from .delivery import Delivery, ServerError, Slot
from .feed import Change, Snapshot, coalesce
from .ratelimits import Budget
from .livetable import Acting, Picture, Trail
from .rendering import RenderFailed, alt_text, board_view, speaker_alt_text, title_of
from .table import Table

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.discord")
DMS_CLOSED = 50007
UNKNOWN_MESSAGE = 10008  # someone deleted the message: post it again
POSTING = "posting"  # `messages` kind: 1 while a message of ours may show stale buttons
OWED = "owed"  # `messages` kind: 1 while a new turn is shown by an edit and its post (the ping) waits
ORPHAN_SCAN = 50  # recent channel messages looked through for them at start-up
MAX_TURN_LINES = 30  # lines of the current turn kept on the board (the rest: /log)
# A new board whose post can go within this many seconds waits for it; past that, the live board
# is edited to show the new turn at once and the post (with its ping) follows (`owe_board`).
SHORT_WAIT = 0.5


class DiscordPublisher:
    def __init__(self, bot: "GatekeeperBot", delivery: Delivery, budget: Budget | None = None
                 ) -> None:
        self.bot = bot
        self.delivery = delivery
        self.budget = budget or Budget()
        self._sent_private: dict[tuple[int, int], int] = {}  # fingerprints handed to DMs
        self._drawn: dict[int, str] = {}  # what each live table's picture was drawn from
        self._lines: dict[int, list[str]] = {}  # log lines shown on each live board
        self._trail: dict[int, Trail] = {}  # summaries each live table carries
        self._first_turn: dict[int, int] = {}  # the turn each live table was posted at
        self._unsent: dict[tuple[int, int], list[Event]] = {}  # private events awaiting a DM
        self._owed: set[int] = set()  # games whose new turn is shown by an edit, its post waiting
        self._unsettled: dict[int, int] = {}  # posts and retirements under way per game
        self._scans: dict[int, asyncio.Future[None]] = {}  # orphan scans under way per game
        self._told_refused: set[int] = set()  # games whose host heard of a missing permission
        self._issued: dict[int, set[tuple[int, int]]] = {}  # (seat, token) on each live board
        self._notices = itertools.count()

    # -- helpers ----------------------------------------------------------------------------
    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def picture_file(self, table: Table, draft: "Draft", slot: Slot) -> discord.File | None:
        """The table's picture (the board, or the speaking character), or None if it cannot be
        drawn (the table then goes out without it). Kept on the delivery slot while it lasts,
        so a retry does not draw it again."""
        png = slot.kept.get(draft.drawn)
        if png is None:
            try:
                png = await (self.bot.renderer.speaker(table.game.name, draft.said)
                             if draft.said is not None else self.bot.renderer.png(draft.view))
            except RenderFailed:
                log.error("render failed twice game=%s version=%s", table.id, table.version)
                png = None
            if png is None:
                return None
            slot.kept = {draft.drawn: png}
        return discord.File(io.BytesIO(png), filename=draft.picture.filename)

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
        lang = self.bot.languages.server(table.guild_id)
        embed, view = present.lobby_embed(table, lang), ui.lobby_view(table, lang)
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
        self.bot.panels.sync(table)
        live = self.bot.store.messages(table.id).get("board")
        await self.delivery.deliver(("board", table.id), table.channel_id, snapshot,
                                    self._show_board, merge=lambda old, new: coalesce([old, new]),
                                    now=live is not None and clicked_on(change, live))
        await self.send_private(table, change)

    async def ready(self, pending: list[Snapshot], arrival: asyncio.Event) -> None:
        """The Feed's wait before it takes a burst: while the channel has no budget for a write
        that would show the burst, wait for its bucket to reset, then look again (commits that
        arrive meanwhile join `pending`, so one write shows the newest state). An edit through
        the click that caused the change spends no channel budget and never waits; a new turn
        whose post must wait is shown at once by an edit of the live board when the channel's
        edits have room (the post, with its ping, follows when the posts do: `owe_board`)."""
        while pending:
            snapshot = coalesce(pending)
            table = snapshot.table
            if table.state is None:
                return
            old = self.bot.store.messages(table.id).get("board")
            if old is not None and clicked_on(snapshot.change, old):
                return
            keep = 0 if self._urgent(snapshot) else 1  # a spare write for whoever must act
            waits = []
            if self._new_board(snapshot, old):  # a post that can go within SHORT_WAIT goes
                waits.append(max(0.0, self._post_wait(snapshot, old) - SHORT_WAIT))
            if old is not None and self._editable(snapshot, old):
                waits.append(self.budget.wait_needed(table.channel_id, "PATCH", keep))
            if min(waits, default=0.0) <= 0:
                return
            arrival.clear()
            with contextlib.suppress(asyncio.TimeoutError):  # a reset, or a new commit
                await asyncio.wait_for(arrival.wait(), min(waits))

    def _urgent(self, snapshot: Snapshot) -> bool:
        """Does someone who must act lack their current buttons on the live board? (Not the
        seat that just acted in its private panel: the panel shows its next choices.) Other
        edits leave the channel one spare edit, so a hand-over never waits behind them."""
        table, change = snapshot.table, snapshot.change
        covered = {change.seat} if change is not None and change.source == "panel" else set()
        lacking = controls(table) - self._issued.get(table.id, set())
        return any(seat not in covered for seat, _ in lacking)

    def _post_wait(self, snapshot: Snapshot, old: tuple[int, int] | None) -> float:
        """Seconds until a new board may be posted. A turn passed by a click (which can show
        the new turn through its own interaction) and a post owed for one leave the channel
        one post spare, for a turn passed by the AI or a timer, which has no click to use."""
        spare = 1 if old is not None and (snapshot.change is None
                                          or clicked_on(snapshot.change, old)) else 0
        return self.budget.wait_needed(snapshot.table.channel_id, "POST", spare)

    def _new_board(self, snapshot: Snapshot, old: tuple[int, int] | None) -> bool:
        table, change = snapshot.table, snapshot.change
        return old is None or snapshot.fresh_board or table.status != "running" \
            or table.id in self._owed \
            or (change is not None and change.turn_changed and self._person_to_ping(table))

    def _editable(self, snapshot: Snapshot, old: tuple[int, int]) -> bool:
        """May the live board show `snapshot` by an edit (now, or while its post waits)? Not
        for the end of a game or /status (they post), nor when it already shows this version
        and only the owed post is missing."""
        table = snapshot.table
        if snapshot.fresh_board or table.status != "running":
            return False
        return not self._new_board(snapshot, old) \
            or self.bot.store.shown_version(table.id) != table.version

    async def _show_board(self, snapshot: Snapshot, slot: Slot) -> None:
        """Post a new table message or edit the live one, so the channel shows `snapshot`.

        A new message (a hand-over, the end, /status) carries the summary of the turn the live
        one showed, and the live one retires: deleted, or kept as its chapter's summary
        (`livetable.Trail`). Before its turn is over (a hand-over within the turn) it carries
        that turn's lines instead, so each turn has one summary."""
        table, change = snapshot.table, snapshot.change
        old = self.bot.store.messages(table.id).get("board")
        new_board = self._new_board(snapshot, old)
        lines = present.public_lines(table, change.events,
                                     self.bot.languages.server(table.guild_id)) if change else []
        if old is not None and self._editable(snapshot, old) and (
                not new_board or self._post_wait(snapshot, old) > SHORT_WAIT):
            kept = (self._lines.get(table.id, []) + lines)[-MAX_TURN_LINES:]
            if await self.edit_board(table, old, kept, slot, change):
                if new_board:
                    self.owe_board(table)
                return
            lines, old = kept, None  # the live table was deleted: post it again, with its lines
        carried, chapter = list(self._trail.get(table.id, Trail()).carried), None
        fresh = lines  # what this change brought
        if old is not None:  # the live table retires: its turn's summary, or its lines, move on
            trail = await self._trail_of(table, old)
            carried = list(trail.carried)
            ending = table.status != "running"  # the final table shows the last lines itself
            first = self._first_turn.get(table.id, trail.next_turn())
            first = table.state.turn if first is None else first
            earlier = self._lines.get(table.id, [])
            if not ending and table.state.turn <= first:
                lines = earlier + lines  # a hand-over within the turn: one summary, later
            else:
                shown = self._floor_words(table)
                happened = [line for line in earlier + ([] if ending else lines)
                            if line and (shown is None or shown not in line)]
                lines = lines if ending else []
                if happened:  # a turn cut short before anything happened in it leaves no summary
                    summary = livetable.turn_summary(
                        first, max(first, table.state.turn - 1), happened,
                        self.bot.languages.server(table.guild_id))
                    if trail.closes_chapter(summary):
                        chapter, carried = carried + [summary], []
                    else:
                        carried = carried + [summary]
        await self.retire_orphans(table)  # a dead process's mark is read before ours is set
        self._unsettle(table)
        try:
            posted = await self.post_board(table, lines[-MAX_TURN_LINES:], carried, slot)
        except discord.RateLimited as exc:
            # the channel's posts are spent (a restart does not know it until told): for more
            # than a moment, show the new turn on the live table now, and post when they reset
            if exc.retry_after <= SHORT_WAIT or old is None \
                    or not self._editable(snapshot, old) or not await self.edit_board(
                    table, old, (self._lines.get(table.id, []) + fresh)[-MAX_TURN_LINES:],
                    slot, change):
                raise
            self._settle(table)
            self.owe_board(table)
            return
        self._paid(table)
        if old is not None and old != posted:  # (before anything else can fail)
            origin = change.origin if change else None
            self.delivery.send(("retire", old[1]), old[0], (origin, chapter),
                               lambda state, _: self._retire(table, old, *state))
        else:
            self._settle(table)
        if slot.tries:  # an earlier try may have landed with an older state: show this one
            self._drawn[table.id] = ""  # (and its picture)
            await self.edit_board(table, posted, lines[-MAX_TURN_LINES:], slot)
        if table.status != "running":
            self.forget(table)

    def _floor_words(self, table: Table) -> str | None:
        """The words of a character now holding the floor, if any: the new table shows them
        beside his picture, so the summary above it leaves them out."""
        assert table.state is not None
        if table.status != "running":
            return None
        interlude = table.game.interlude(table.game.view(table.state, None))
        return table.fill(interlude["line"], self.bot.languages.server(table.guild_id)) \
            if interlude is not None else None

    async def _trail_of(self, table: Table, live: tuple[int, int]) -> Trail:
        """The summaries the live table carries: remembered, or after a restart read back from
        the message itself (one read; a message that is gone carries nothing)."""
        trail = self._trail.get(table.id)
        if trail is not None:
            return trail
        try:
            message = await self.channel(live[0]).fetch_message(live[1])
        except discord.NotFound:
            return Trail()
        trail = self._trail[table.id] = Trail(livetable.carried_from(message.components))
        began = livetable.began_from(message.components)
        if began is not None:
            self._first_turn.setdefault(table.id, began)
        if table.id not in self._lines:
            self._lines[table.id] = livetable.lines_from(message.components)
        return trail

    def owe_board(self, table: Table) -> None:
        """The turn passed while the channel's posts were spent, and the live board was edited
        to show it: post the new board (which pings whoever must act) once a post is allowed.
        The store keeps the debt (OWED), so a restart meanwhile still posts it (on_ready)."""
        if table.id in self._owed:
            return  # its post is already waiting
        self._owed.add(table.id)
        if not self.bot.store.shown_version(table.id, OWED):
            self.bot.store.set_message(table.id, OWED, table.channel_id, 0, 1)

        async def post_when_allowed() -> None:
            await self.budget.room(table.channel_id, "POST", keep=1)
            current = self.bot.service.tables.get(table.id)
            if current is not None and table.id in self._owed:
                self.bot.service.republish(current)

        self.bot.service._spawn(post_when_allowed())

    def _paid(self, table: Table) -> None:
        """The new board is posted: no post is owed any more."""
        self._owed.discard(table.id)
        if self.bot.store.shown_version(table.id, OWED):
            self.bot.store.set_message(table.id, OWED, table.channel_id, 0, 0)

    def forget(self, table: Table) -> None:
        self.bot.store.forget(table.id)
        self._owed.discard(table.id)
        self._unsettled.pop(table.id, None)
        for memo in (self._issued, self._drawn, self._lines, self._trail, self._first_turn):
            memo.pop(table.id, None)
        for seat in range(len(table.seats)):
            self.bot.panel_origins.pop((table.id, seat), None)
            self._sent_private.pop((table.id, seat), None)
            self._unsent.pop((table.id, seat), None)

    @staticmethod
    def _person_to_ping(table: Table) -> bool:
        """Does the new turn belong to a person (who should be pinged by a new message)?"""
        assert table.state is not None
        mover = table.game.to_move(table.state)
        return any(p is not None and not table.seats[s].ai for s, p in enumerate(table.prompts)) \
            or (mover is not None and not table.seats[mover].ai)

    def draft(self, table: Table, lines: list[str], carried: list[str],
              began: int | None = None) -> "Draft":
        """The table message for `table` as committed: its layout and its picture. `began`:
        the turn the live table began at (a new one: the current turn)."""
        assert table.state is not None
        game = table.game
        public = game.view(table.state, None)
        lang = self.bot.languages.server(table.guild_id)  # what the channel shows
        who = livetable.acting(table, public, self.bot.service.clock.now(), lang)
        interlude = who.interlude
        view = board_view(game, table.state, table.names(), who.plain, public, lang)
        said = None
        if interlude is not None and game.speaker is not None:
            said = table.fill(interlude["line"], lang)
            picture = Picture(livetable.SPEAKER_FILE, speaker_alt_text(game, said, lang))
            drawn = json.dumps(["speaker", said])
        else:
            picture = Picture(livetable.BOARD_FILE, board_alt(table, view, lang))
            drawn = json.dumps(view, sort_keys=True)
        return Draft(table, who, lines, carried, view, picture, drawn, said,
                     table.state.turn if began is None else began, lang)

    async def post_board(self, table: Table, lines: list[str], carried: list[str],
                         slot: Slot) -> tuple[int, int]:
        """Post a new table message (once: a retry carries the first try's nonce, so a post
        that landed unseen is returned, not repeated) and record it as the live table."""
        draft = self.draft(table, lines, carried)
        file = await self.picture_file(table, draft, slot)
        sent = await self.channel(table.channel_id).send(
            view=draft.layout(file is not None), nonce=slot.nonce,
            allowed_mentions=discord.AllowedMentions(users=True), **({"file": file} if file else {}))
        ids = (sent.channel.id, sent.id)
        self._drawn[table.id] = draft.drawn if file else ""
        self._lines[table.id] = lines
        self._trail[table.id] = Trail(carried)
        self._first_turn[table.id] = table.state.turn if table.state else 0
        self._issued[table.id] = controls(table)
        self.bot.store.set_message(table.id, "board", ids[0], ids[1], table.version)
        return ids

    def _unsettle(self, table: Table) -> None:
        """A board post is under way, or an old board still waits to lose its buttons: if the
        process died now, a message of ours would keep live buttons, so say so in the store
        (read at start-up by retire_orphans). One write when the first such job starts."""
        self._unsettled[table.id] = self._unsettled.get(table.id, 0) + 1
        if self._unsettled[table.id] == 1:
            self.bot.store.set_message(table.id, POSTING, table.channel_id, 0, 1)

    def _settle(self, table: Table) -> None:
        """One such job is done; the last one clears the mark."""
        left = self._unsettled.get(table.id, 0) - 1
        if left > 0:
            self._unsettled[table.id] = left
            return
        self._unsettled.pop(table.id, None)
        self.bot.store.set_message(table.id, POSTING, table.channel_id, 0, 0)

    async def retire_orphans(self, table: Table) -> None:
        """After a restart: if the process died while a table post was under way (it may have
        landed without being recorded) or an old table still waited to retire, delete every
        recent message of ours that shows this game's controls, but the live table.

        A mark set while none of our own posts or retirements is under way was left by a dead
        process. Start-up looks for its orphans, and so does our first post before it goes:
        its own mark would otherwise be cleared by `_settle` with the dead process's unread (a
        timer or a click can publish before start-up looks, or start-up's look may fail). Both
        wait for the same scan; one that failed leaves the mark for the next to try again."""
        if table.id in self._unsettled or not self.bot.store.shown_version(table.id, POSTING):
            return
        scan = self._scans.get(table.id)
        if scan is None:
            scan = self._scans[table.id] = asyncio.ensure_future(self._scan_orphans(table))
            scan.add_done_callback(lambda _: self._scans.pop(table.id, None))
        await asyncio.shield(scan)

    async def look_for_orphans(self, table: Table) -> None:
        """Start-up's `retire_orphans`, retried as a message is when it fails for a passing
        reason (the board is republished meanwhile): until it has looked, an orphan may show a
        current button beside the live board."""
        async def attempt(table: Table, slot: Slot) -> None:
            await self.retire_orphans(table)

        await self.delivery.deliver(("orphans", table.id), table.channel_id, table, attempt)

    async def _scan_orphans(self, table: Table) -> None:
        retired = 0
        async for message in self.channel(table.channel_id).history(limit=ORPHAN_SCAN):
            live = self.bot.store.messages(table.id).get("board")
            if message.author.id != self.bot.application_id or (live and message.id == live[1]) \
                    or not shows_controls(message, table.id):
                continue
            with contextlib.suppress(discord.NotFound):
                await message.delete()
            retired += 1
        self.bot.store.set_message(table.id, POSTING, table.channel_id, 0, 0)
        if retired:
            log.warning("retired orphaned boards game=%s count=%d", table.id, retired)

    async def edit_board(self, table: Table, ids: tuple[int, int], lines: list[str],
                         slot: Slot, change: Change | None = None) -> bool:
        """Edit the live table to show `table`; False if someone deleted it. When a click on
        that message caused the change, the edit goes through the click's interaction, which
        spends none of the channel's 5 edits per 5 s."""
        carried = (await self._trail_of(table, ids)).carried
        draft = self.draft(table, lines, carried, self._first_turn.get(table.id))
        picture: list[discord.File] | None = None  # None: the attached picture stays
        if self._drawn.get(table.id) != draft.drawn:  # an unchanged picture is not sent again
            file = await self.picture_file(table, draft, slot)
            picture = [file] if file else []
        shows_picture = bool(picture) or (picture is None and bool(self._drawn.get(table.id)))
        fields: dict[str, Any] = {"view": draft.layout(shows_picture)}
        if picture is not None:
            fields["attachments"] = picture
        if not await self._edited_through_click(table, change, ids, fields):
            message = self.channel(ids[0]).get_partial_message(ids[1])
            if picture:  # a failed try may have spent the file: open it again
                fields["attachments"] = [await self.picture_file(table, draft, slot)]
            if not await self._edited(message, **fields):
                return False
        if picture is not None:
            self._drawn[table.id] = draft.drawn if picture else ""
        self._lines[table.id] = lines
        self._issued[table.id] = controls(table)
        self.bot.store.set_message(table.id, "board", ids[0], ids[1], table.version)
        return True

    @staticmethod
    async def _edited_through_click(table: Table, change: Change | None, ids: tuple[int, int],
                                    fields: dict[str, Any]) -> bool:
        """Edit the table through the interaction of the click on it; False if there is none
        or it failed (the channel edit then does it)."""
        if change is None or not clicked_on(change, ids):
            return False
        try:
            await change.origin.edit_original_response(**fields)
        except CLICK_EDIT_FAILURES as exc:
            log.info("edit-via-click failed game=%s error=%s", table.id, exc)
            return False
        return True

    async def _retire(self, table: Table, ids: tuple[int, int], origin: Any,
                      chapter: list[str] | None) -> None:
        """Retire the previous table message: delete it (its summary went on to the new one),
        or, at the end of a chapter, shrink it to the chapter's summaries. Through the click
        that moved on from it when there is one (not a channel write)."""
        lang = self.bot.languages.server(table.guild_id)
        fields = {"view": livetable.chapter_layout(chapter, lang), "attachments": []} \
            if chapter else {}
        if can_edit_through(origin, ids):
            try:
                if chapter:
                    await origin.edit_original_response(**fields)
                else:
                    await origin.delete_original_response()
            except CLICK_EDIT_FAILURES as exc:  # the channel write does it
                log.info("retire-via-click failed game=%s error=%s", table.id, exc)
            else:
                self._settle(table)
                return
        message = self.channel(ids[0]).get_partial_message(ids[1])
        if chapter:
            await self._edited(message, **fields)
        else:
            with contextlib.suppress(discord.NotFound):
                await message.delete()
        self._settle(table)

    # -- DMs and notices ----------------------------------------------------------------------------
    async def send_private(self, table: Table, change: Change | None) -> None:
        """DM a person the private news (a card drawn, a secret shown to them) that reached them
        away from the table; what their panel shows is no news (docs/architecture.md, "The
        table in the channel"). So:
        - once at the start (or a seat never told), their private state: their hand;
        - at a pace where players sit at the table, news that comes with a private prompt of
          theirs (the card drawn as their turn begins) is none: they answer that prompt in
          their "Take my turn" panel, which opens on their private state; other news is
          gathered, and sent as their turn ends (what their own move showed them: a card
          peeked at) or begins (what came in others' turns);
        - at a relaxed or correspondence pace, the turn DM (bot.notify) tells the news of a
          turn coming to them, so none of ours adds to it;
        - at the end, whatever is left.
        Never the same DM twice in a row; a DM still waiting merges with the next."""
        if table.state is None:
            return
        over = table.status != "running"
        passed = change is None or change.turn_changed
        slow = pace.notifies(table.options)
        for seat_index, seat in enumerate(table.seats):
            if seat.ai or seat.user_id is None or seat.dm_closed:
                continue
            key = (table.id, seat_index)
            unsent = self._unsent.setdefault(key, [])
            news = [e for e in (change.events if change else [])
                    if e.to is not None and seat_index in e.to]
            prompt = None if over or self.bot.service.is_away(seat.user_id) \
                else table.prompts[seat_index]
            last = self._private_wanted(table.id, seat_index)
            if prompt is not None and last is not None:
                if slow and change is not None and change.turn_changed:
                    unsent.clear()  # the turn DM tells it all (bot.notify.since_last_turn)
                    continue
                if not slow and prompt.private:
                    news = []  # their panel shows it
            unsent += news
            ends_or_begins = passed and (prompt is not None
                                         or (change is not None and change.seat == seat_index))
            if last is None:
                if not unsent and not table.game.private_text(table.state, seat_index):
                    continue  # nothing private yet
                note = PrivateNote(table, seat_index, list(unsent), whole=True)
            elif unsent and (over or (ends_or_begins and not slow)):
                note = PrivateNote(table, seat_index, list(unsent))
            else:
                continue
            self._unsent[key] = []
            if note.shown == last:
                continue
            self._sent_private[key] = note.shown
            # in the background: a DM waiting on its recipient's rate limit never holds up
            # the game's next board (one pending DM per seat: a newer one merges into it)
            self.delivery.send(("dm", table.id, seat_index), seat.user_id, note, self._dm,
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
        lang = self.bot.languages.person(table.seats[seat].user_id, table.guild_id)
        body = present.hand_message(table, seat, note.events, self.jump_url(table), lang,
                                    whole=note.whole)
        channel = await self.bot.dms.of(table.seats[seat].user_id)
        try:
            sent = await channel.send(body, nonce=slot.nonce)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                raise
            await self.bot.dms_closed(table.id, seat)  # not retried: told once to use /hand
            return
        self.bot.store.set_message(table.id, dm_kind(seat), channel.id, sent.id, note.shown)

    def refused(self, channel_id: int, gave_up: str | None = None) -> None:
        """Discord refused a write in a game's channel for a missing permission (or, with
        `gave_up`, a message there gave up after its retries): tell the host once, by DM,
        which permission and where to grant it (the game waits, and goes on by itself when it
        is granted: bot.delivery parks the write), or that the channel is behind."""
        table = self.bot.service.in_channel(channel_id)
        if table is None or table.id in self._told_refused:
            return
        self._told_refused.add(table.id)
        where = f"<#{channel_id}>"
        lang = self.bot.languages.person(table.host_id, table.guild_id)  # a DM to the host
        if gave_up is not None:
            self.delivery.send(("refused", table.id), table.host_id, locales.text(
                lang, "permission.gave_up", channel=where, why=gave_up, game=title_of(table.game)),
                self._dm_host)
            return
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        names = permissions.missing(channel.permissions_for(guild.me),  # type: ignore[union-attr]
                                    in_thread=isinstance(channel, discord.Thread)) \
            if guild is not None and guild.me is not None else []
        why = permissions.how_to_grant(names, where, lang) if names else \
            locales.text(lang, "permission.refused", channel=where)
        told = locales.text(lang, "permission.waiting", game=title_of(table.game), why=why)
        self.delivery.send(("refused", table.id), table.host_id, told, self._dm_host)

    async def _dm_host(self, text: str, slot: Slot) -> None:
        channel = await self.bot.dms.of(slot.channel_id)
        await channel.send(text, nonce=slot.nonce)

    async def tell_dms_closed(self, table: Table, seat: int) -> None:
        """Tell a player in the channel that their DMs are closed, so they use /hand. Unlike
        other notices this one lasts (no DM will come), so its delivery is recorded: start-up
        tells a seat whose notice never landed."""
        lang = self.bot.languages.server(table.guild_id)
        text = locales.text(lang, "table.dms_closed", who=f"<@{table.seats[seat].user_id}>",
                            command=f"/{locales.text(lang, 'cmd.hand.name')}")
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
        lang = self.bot.languages.server(table.guild_id)
        deadline = f"<t:{int(table.deadline)}:R>" if table.deadline \
            else locales.text(lang, "pace.soon")
        await self.notice(table, f"⏳ {present.mention(table, seat)}, "
                                 f"{pace.reminder(table.options, table.reminded, deadline, lang)}")

    async def notice(self, table: Table, told: str | locales.Msg) -> None:
        """Tell the game's channel, in the server's language."""
        await self.notice_channel(table.channel_id, locales.render(
            self.bot.languages.server(table.guild_id), told), mentions=True)

    async def notice_channel(self, channel_id: int, text: str, mentions: bool = False) -> None:
        await self.delivery.deliver(("notice", channel_id, next(self._notices)), channel_id,
                                    (text[:2000], mentions), self._notice)

    async def _notice(self, notice: tuple[str, bool], slot: Slot) -> None:
        text, mentions = notice
        await self.channel(slot.channel_id).send(
            text, nonce=slot.nonce, allowed_mentions=discord.AllowedMentions(users=mentions))


@dataclass
class Draft:
    """A table message before it is sent: who acts, its lines, the summaries it carries, the
    board view its picture is drawn from, and that picture (the board, or the speaking
    character saying `said`). `drawn` tells whether the attached picture must change."""

    table: Table
    who: Acting
    lines: list[str]
    carried: list[str]
    view: dict[str, Any]
    picture: Picture
    drawn: str
    said: str | None
    began: int  # the turn the live table began at: kept in the message, for after a restart
    lang: str  # the server's language, which the channel reads

    def layout(self, with_picture: bool) -> discord.ui.LayoutView:
        picture = self.picture if with_picture else None
        return livetable.table_layout(
            self.table, self.who, self.lines, self.carried,
            board=picture if self.said is None else None,
            speaker=picture if self.said is not None else None, lang=self.lang,
            began=self.began)


def board_alt(table: Table, view: dict[str, Any], lang: str) -> str:
    """The board picture's alt text: the public state in words."""
    return alt_text(table.game, view, lang)


@dataclass
class PrivateNote:
    """What a DM tells a seat: the events addressed to it since its last DM, and with `whole`
    (the first DM of a game) its private state."""

    table: Table
    seat: int
    events: list[Event]
    whole: bool = False

    @property
    def shown(self) -> int:
        """What the DM tells, and the private state it leaves the seat in, as a fingerprint:
        the same news is not sent twice in a row (a secret seen again changes nothing; a
        second ghost lost does), and start-up knows whether a seat was ever told."""
        assert self.table.state is not None
        # (what it tells, whatever the language it is told in)
        return fingerprint([present.news_lines(self.table, self.seat, self.events,
                                               locales.DEFAULT), self.whole,
                            self.table.fill(self.table.game.private_text(self.table.state,
                                                                         self.seat))])

    @staticmethod
    def merge(older: PrivateNote, newer: PrivateNote) -> PrivateNote:
        """A DM still waiting when the next is due: one DM with the events of both (and the
        latest private state if either was to show it), so nothing the player should learn
        is lost."""
        latest = newer if newer.table.version >= older.table.version else older
        return PrivateNote(latest.table, latest.seat, older.events + newer.events,
                           older.whole or newer.whole)


def shows_controls(message: discord.Message, game_id: int) -> bool:
    """Does the message still carry enabled buttons or selects of this game (at any depth of
    its layout)?"""
    prefix = f"gk:{game_id}:"
    stack = list(message.components)
    while stack:
        item = stack.pop()
        if str(getattr(item, "custom_id", "") or "").startswith(prefix) \
                and not getattr(item, "disabled", False):
            return True
        stack += list(getattr(item, "children", None) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return False


def controls(table: Table) -> set[tuple[int, int]]:
    """(seat, token) of the buttons a board of `table` issues to the people who must act."""
    return {(seat, table.tokens[seat]) for seat, prompt in enumerate(table.prompts)
            if prompt is not None and not table.seats[seat].ai}


# answers after which an interaction's original response is the message it was clicked on
UPDATES = (discord.InteractionResponseType.deferred_message_update,
           discord.InteractionResponseType.message_update)


# what an edit through a click may meet (the channel edit is then made instead)
CLICK_EDIT_FAILURES = (discord.HTTPException, ServerError, aiohttp.ClientError,
                       asyncio.TimeoutError)


def clicked_on(change: Change | None, ids: tuple[int, int]) -> bool:
    """Was the change caused by a click on the message `ids` (whose interaction can edit it)?"""
    return can_edit_through(change.origin if change is not None else None, ids)


def can_edit_through(origin: Any, ids: tuple[int, int]) -> bool:
    """Is `origin` an interaction whose original response is the message `ids`?"""
    message = getattr(origin, "message", None)
    return isinstance(origin, discord.Interaction) and message is not None \
        and message.id == ids[1] and origin.response.type in UPDATES


def dm_kind(seat: int) -> str:
    """The `messages` kind of a seat's last DM."""
    return f"dm:{seat}"


def dms_closed_kind(seat: int) -> str:
    """The `messages` kind of the notice telling a seat that its DMs are closed."""
    return f"dms-closed:{seat}"


def fingerprint(shown: Any) -> int:
    """A stable number for what a message without a game version of its own shows (a lobby, a
    DM): stored as its `messages.version`, so start-up can tell whether it is behind. 31 bits,
    to fit both stores' INTEGER."""
    digest = hashlib.blake2b(json.dumps(shown, sort_keys=True).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF


def lobby_fingerprint(table: Table) -> int:
    """What a lobby message shows: seats, host, options and whether it is still open."""
    return fingerprint([table.status, [(s.name, s.user_id, s.ai, s.level) for s in table.seats],
                        table.host_id, sorted(table.options.items())])

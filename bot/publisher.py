"""Turns table changes into Discord messages: boards, DMs, notices. Runs after each commit.

One board message per turn: a new turn posts a fresh message (and strips the buttons from the
previous one); actions within a turn edit the current one. Rendering runs in a worker process (bot.rendering).
"""
from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING

import discord

from . import present, ui
from .table import ActResult, Table

if TYPE_CHECKING:
    from .app import GatekeeperBot

log = logging.getLogger("gatekeeper.discord")
DMS_CLOSED = 50007


class DiscordPublisher:
    def __init__(self, bot: "GatekeeperBot") -> None:
        self.bot = bot
        self._sent_private: dict[tuple[int, int], str] = {}
        self._drawn: dict[int, str] = {}  # the view each live board image was drawn from

    # -- helpers ----------------------------------------------------------------------------
    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    @staticmethod
    def board_view(table: Table) -> dict:
        """The public view the board image is drawn from (minus what only the text shows)."""
        assert table.state is not None
        view = table.game.view(table.state, None)
        for key in table.game.image_ignores:
            view.pop(key, None)
        view["names"] = table.names()
        return view

    async def board_file(self, table: Table, view: dict | None = None) -> discord.File:
        png = await self.bot.renderer.png(view or self.board_view(table))
        return discord.File(io.BytesIO(png), filename="board.png")

    def jump_url(self, table: Table) -> str | None:
        ids = self.bot.store.messages(table.id).get("board")
        if ids is None:
            return None
        return f"https://discord.com/channels/{table.guild_id}/{ids[0]}/{ids[1]}"

    async def _safely(self, what: str, table: Table, coro) -> object | None:
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

    async def game_changed(self, table: Table, result: ActResult | None) -> None:
        if table.state is None:
            return
        if result is not None:
            await self.post_interjections(table, result)
        if result is None or result.turn_changed or table.status != "running":
            await self._retire_board(table)
        await self.post_board(table, result, edit=result is not None and not result.turn_changed
                              and table.status == "running")
        await self.send_private(table, result)
        if table.status != "running":
            self.bot.store.forget(table.id)
            self._drawn.pop(table.id, None)
            for seat in range(len(table.seats)):
                self._sent_private.pop((table.id, seat), None)

    async def post_interjections(self, table: Table, result: ActResult) -> None:
        """A speaking character (the Gatekeeper) gets messages of his own, with his picture."""
        for event in result.events:
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

    async def post_board(self, table: Table, result: ActResult | None, *, edit: bool = False) -> None:
        assert table.state is not None
        content, embed = present.turn_embed(table, result)
        mover = table.game.to_move(table.state)
        prompt = table.game.prompt(table.state, mover) if mover is not None else None
        view = ui.turn_view(table, prompt)
        picture = self.board_view(table)
        drawn = json.dumps(picture, sort_keys=True)
        ids = self.bot.store.messages(table.id).get("board")
        if edit and ids is not None:
            # An unchanged picture is not drawn or uploaded again: the edit keeps the image.
            files = {} if self._drawn.get(table.id) == drawn else {
                "attachments": [await self.board_file(table, picture)]}
            message = self.channel(ids[0]).get_partial_message(ids[1])
            sent = await self._safely("board-edit", table, message.edit(
                content=content, embed=embed, view=view, **files))
            if sent is not None:
                self._drawn[table.id] = drawn
                return
        sent = await self._safely("board", table, self.channel(table.channel_id).send(
            content=content, embed=embed, file=await self.board_file(table, picture), view=view,
            allowed_mentions=discord.AllowedMentions(users=True)))
        if isinstance(sent, discord.Message):
            self._drawn[table.id] = drawn
            self.bot.store.set_message(table.id, "board", sent.channel.id, sent.id)

    async def _retire_board(self, table: Table) -> None:
        """Strip the buttons from the previous turn's board so history shows no live buttons."""
        ids = self.bot.store.messages(table.id).get("board")
        if ids is not None:
            await self._safely("retire", table, self.channel(ids[0]).get_partial_message(
                ids[1]).edit(view=None))

    async def send_private(self, table: Table, result: ActResult | None) -> None:
        """DM each person whose private state changed; once only, tell the DM-closed to use /hand."""
        if table.state is None:
            return
        for seat_index, seat in enumerate(table.seats):
            if seat.ai or seat.user_id is None or seat.dm_closed:
                continue
            text = table.game.private_text(table.state, seat_index)
            key = (table.id, seat_index)
            if not text or self._sent_private.get(key) == text:
                continue
            self._sent_private[key] = text
            body = present.hand_message(table, seat_index, result.events if result else [],
                                        self.jump_url(table))
            try:
                dm = await self.bot.create_dm(discord.Object(seat.user_id))
                await dm.send(body)
            except discord.Forbidden as exc:
                if exc.code != DMS_CLOSED:
                    raise
                seat.dm_closed = True
                self.bot.store.save_game(table.id, {"seats": [vars(s) for s in table.seats]})
                await self.notice(table, f"<@{seat.user_id}> I can't DM you (your DMs are closed); "
                                         "use `/hand` in this channel to see your cards.")
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

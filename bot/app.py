"""The discord.py client: slash commands, button routing, start-up and shutdown.

Thin by design: every handler maps Discord input to a TableService call and turns the game's
IllegalAction into an ephemeral reply. Rules live in games/, words in bot.present.
"""
from __future__ import annotations

import asyncio
import datetime
import gc
import io
import logging
import re
import time
from typing import Any, Callable

import discord
import yarl
from discord import app_commands

import games
from data.locales import DEFAULT, LANGUAGES, Msg, has, language, render, text
from games.core import DEFAULT_LEVEL, IllegalAction

from . import health, helptext, levels, pace, permissions, present, rulebook, ui
from .answers import Ack, acknowledge, by_dm, reply
from .choices import parse_path, walk
from .clock import Clock, RealClock
from .config import Settings
from .delivery import Delivery, single_retry_layer
from .dms import DmChannels
from .i18n import CommandWords, Languages, command_text
from .notify import Notifier
from .panels import Panels
from .ratelimits import Budget, answer_before_waiting
from .publisher import OWED, POSTING, DiscordPublisher
from .rendering import Renderer, title_of, titled
from .replay import Replays, describe, replay_alt, replay_format
from .refusal import Refusal, said
from .store import Store, Unavailable
from .story import STORY_OP, show_story, turn_page
from .table import Seat, Stale, Table, TableService

log = logging.getLogger("gatekeeper.bot")

# Shutdown: how long in-flight clicks and timers may take to finish, and Discord to say goodbye.
DRAIN_SECONDS = 4.0
PANEL_ORIGIN_LIFE = datetime.timedelta(minutes=14)  # an interaction token lives 15 minutes
DISCONNECT_SECONDS = 3.0
TYPED_ANSWER_WITHIN = 1.0  # seconds a typed move may run before its answer is deferred


def point_at(settings: Settings) -> None:
    """Aim discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL (a proxy or compatible server)."""
    discord.http.Route.BASE = settings.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class GatekeeperBot(discord.AutoShardedClient):
    # Everything alive once the games are loaded (libraries, games) lives for the whole run:
    # setup_hook moves it out of the cyclic GC's reach, so full collections don't pause every
    # game (measured: 100-250 ms pauses at 1,000 games without this; see docs/performance.md).
    # A process that starts many bots (the test suite) may turn it off: each start's full
    # collection of that process's heap costs it 60-150 ms.
    freeze_heap = True

    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Typed answers ("YES! MY GATEKEEPER!") need to read channel messages: a privileged
        # intent, so it is opt-in (GATEKEEPER_READ_MESSAGES=1 and the switch in the portal).
        intents.guild_messages = intents.message_content = settings.read_messages
        budget = Budget()  # what is left of each channel's rate limits (bot.ratelimits)
        super().__init__(intents=intents, shard_count=settings.shard_count or 1,
                         shard_ids=list(settings.shard_ids) if settings.shard_ids else None,
                         allowed_mentions=discord.AllowedMentions.none(),
                         # no message cache: we edit by id (partial messages), and discord.py
                         # scans that cache linearly on every message event
                         max_messages=None,
                         guild_ready_timeout=settings.guild_ready_timeout,
                         # one retry layer for message sends and edits: bot.delivery
                         http_trace=single_retry_layer(budget),
                         max_ratelimit_timeout=30.0)
        answer_before_waiting()  # a post that empties a bucket returns at once (bot.ratelimits)
        self.settings = settings
        self.store = store
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.on_command_error
        self.renderer = Renderer(settings.render_workers)
        clock = clock or RealClock()
        self.replays = Replays(store, self.renderer)
        self.delivery = Delivery(clock, lambda coro: self.service._spawn(coro),
                                 refused=lambda *stuck: self.publisher.refused(*stuck))
        self.publisher = DiscordPublisher(self, self.delivery, budget)
        self.dms = DmChannels(self)
        self.service = TableService(store, self.publisher, clock,
                                    turn_timeout=settings.turn_timeout, ai_delay=settings.ai_delay,
                                    shards=settings.shards)
        self.languages = Languages(store, self.guild_locale, lambda coro: self.service._spawn(coro))
        self.service.on_turn = Notifier(self).turn_came  # DMs for games at a slow pace
        self.loaded_games = 0
        # (game, seat) -> the board click that opened the seat's private panel (panel_origin)
        self.panel_origins: dict[tuple[int, int], discord.Interaction] = {}
        self.panels = Panels(self.panel_contents, lambda coro: self.service._spawn(coro),
                             lambda interaction: self.languages.personal(interaction))
        # Shutdown (close): stop taking interactions, let those in flight finish, then close.
        self.accepting = True
        self._inflight: set[asyncio.Task[Any]] = set()
        self._closing: asyncio.Future[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self.heartbeat_path = health.heartbeat_path(settings.db_path)
        self.tree.interaction_check = self.check_interaction
        throttle_bucket_sweep(self.http)
        register_commands(self)

    async def setup_hook(self) -> None:
        self.loaded_games = await self.service.load()
        await self.languages.load()
        log.info("loaded games=%d quarantined=%d", self.loaded_games, len(self.service.quarantined))
        if self.freeze_heap:
            gc.collect()
            gc.freeze()
        self.renderer.warm()
        self._heartbeat = asyncio.create_task(health.beat(self.heartbeat_path, self.connected,
                                                          self.wait_until_ready))
        await self.tree.set_translator(CommandWords())
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        """Catch the channels up: what was committed but not shown when the process stopped
        (its publish or a retry was still to come), and games that had to be set aside."""
        behind = {table.id for table in self.service.behind()}
        for table in list(self.service.tables.values()):
            if self.publisher.lobby_behind(table):
                self.service._spawn(self.publisher.lobby_changed(table))
            if table.status != "running":
                continue
            if table.id in behind or self.store.shown_version(table.id, POSTING):
                self.service._spawn(self._catch_up_after_restart(table, table.id in behind))
            else:
                self.service._spawn(self.publisher.send_private(table.snapshot(), None))
            if self.store.shown_version(table.id, OWED):  # its ping's post was still waiting
                self.publisher.owe_board(table)
            for seat in self.publisher.untold_dms_closed(table):
                self.service._spawn(self.publisher.tell_dms_closed(table, seat))
        for game_id, problem in list(self.service.quarantined.items()):
            row = await self.store.game(game_id)
            self.service.quarantined.pop(game_id)
            await self.publisher.notice_channel(row["channel_id"], text(
                self.languages.server(row["guild_id"]), "error.suspended", game=game_id))
            log.warning("suspended game=%s told its channel problem=%s", game_id, problem)

    async def _catch_up_after_restart(self, table: Table, behind: bool) -> None:
        """First take the buttons off any board posted but never recorded (the process died
        mid-post), then republish a board that is behind (with the DMs that are behind)."""
        await self.publisher.look_for_orphans(table)
        if behind:
            self.service.republish(table)
        else:
            await self.publisher.send_private(table.snapshot(), None)

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        """A channel's permissions may have changed: retry what a missing one held back."""
        self.delivery.retry_parked()

    async def on_guild_role_update(self, before: Any, after: Any) -> None:
        self.delivery.retry_parked()

    async def dms_closed(self, game_id: int, seat: int) -> None:
        """A player's DMs are closed (50007): remember it and tell them once, in the channel."""
        table = self.service.tables.get(game_id)
        if table is None:
            return
        await self.service.mark_dm_closed(table, seat)
        await self.publisher.tell_dms_closed(table, seat)

    def guild_locale(self, guild_id: int) -> str | None:
        """Discord's locale of a server we are in (a Community server's language), if known."""
        guild = self.get_guild(guild_id)
        return guild.preferred_locale.value if guild is not None else None

    def words(self, interaction: discord.Interaction, id: str, /, **params: Any) -> str:
        """Message `id` in the language of the person behind `interaction`."""
        return text(self.languages.personal(interaction), id, **params)

    def connected(self) -> bool:
        """Ready, and every shard's gateway connection open (what the heartbeat vouches for)."""
        return self.is_ready() and not self.is_closed() \
            and all(not shard.is_closed() for shard in self.shards.values())

    def _track(self, interaction: discord.Interaction) -> None:
        """Count the running handler as in flight: close() lets it finish; and note the
        language of the person acting."""
        self.languages.heard(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    async def check_interaction(self, interaction: discord.Interaction) -> bool:
        """The command tree's gate for slash commands and autocomplete."""
        if not self.accepting:
            if interaction.type is discord.InteractionType.application_command:
                await reply(interaction, self.words(interaction, "error.restarting"))
            return False
        self._track(interaction)
        return True

    async def close(self) -> None:
        """Stop cleanly (SIGTERM, SIGINT, or the end of a test); safe to call more than once."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._shutdown())
        await asyncio.shield(self._closing)

    async def _shutdown(self) -> None:
        self.accepting = False  # new clicks and commands get RESTARTING from here on
        # In flight: interaction handlers (a click being applied and published) and timers that
        # already fired (TableService keeps those in _tasks). They are short; wait a little.
        pending = (self._inflight | set(getattr(self.service, "_tasks", ()))) \
            - {asyncio.current_task()}
        log.info("shutdown: waiting for in-flight work count=%d", len(pending))
        if pending:
            _, late = await asyncio.wait(pending, timeout=DRAIN_SECONDS)
            if late:
                log.warning("shutdown: cancelling unfinished work count=%d", len(late))
        self.delivery.close()  # retries still waiting are dropped; start-up republishes boards
        try:
            await self.service.close()  # timers disarmed, anything still running cancelled
        finally:
            if self._heartbeat is not None:
                self._heartbeat.cancel()
            health.remove_heartbeat(self.heartbeat_path)
            try:
                await asyncio.wait_for(asyncio.shield(super().close()), DISCONNECT_SECONDS)
            except asyncio.TimeoutError:
                log.warning("shutdown: Discord did not acknowledge the close in %.0f s",
                            DISCONNECT_SECONDS)
            finally:
                await asyncio.to_thread(self.renderer.close)  # waits until the workers exit
                if self.freeze_heap:
                    gc.unfreeze()  # hand what setup_hook froze back to the collector
                log.info("shutdown: done")

    async def on_command_error(self, interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, IllegalAction):
            await reply(interaction, said(self.languages.personal(interaction), original))
            return
        if isinstance(original, Unavailable):
            await reply(interaction, self.words(interaction, "error.store"))
            return
        log.error("command failed command=%s", interaction.command and interaction.command.name,
                  exc_info=original)
        await reply(interaction, self.words(interaction, "error.unexpected"))

    # -- routing for buttons and selects ------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route every gk: component by its custom_id alone.

        Not DynamicItem: discord.py drops a dynamic click whose custom_id is no longer on the
        message (a stale client), and the player would see "interaction failed" instead of our
        "that prompt is out of date".
        """
        if interaction.type not in (discord.InteractionType.component,
                                    discord.InteractionType.modal_submit):
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = str(data.get("custom_id", ""))
        match = ui.ROUTE.fullmatch(custom_id)
        seat: int | None = None
        if match is not None:
            seat = None if match["seat"] == ui.ANYONE else int(match["seat"])
        else:
            match = ui.LEGACY_ROUTE.fullmatch(custom_id)
            if match is None:
                return
        if not self.accepting:
            await reply(interaction, self.words(interaction, "error.restarting"))
            return
        self._track(interaction)
        values = data.get("values")
        if interaction.type is discord.InteractionType.modal_submit:
            values = [ui.modal_text(data)]
        await self.on_component(interaction, match["op"], int(match["game"]), seat,
                                int(match["token"]), match["arg"], values,
                                legacy=match.re is ui.LEGACY_ROUTE)

    async def on_message(self, message: discord.Message) -> None:
        """A player may type the label of one of their buttons instead of clicking it; a
        newcomer typing "help" is pointed to /play and /help."""
        if message.author.bot or not message.content or not self.accepting:
            return
        if helptext.asks_for_help(message.content):
            await self.answer_help(message)
            return
        table = self.service.in_channel(message.channel.id) \
            or await self.service.resting_in(message.channel.id)
        seat = table.seat_of(message.author.id) if table and table.status == "running" else None
        if table is None or seat is None or table.state is None:
            return
        typed = spoken(message.content)
        guild_id = message.guild.id if message.guild else None
        matches = []  # the typed words in the player's language, else in English
        for lang in dict.fromkeys((self.languages.person(message.author.id, guild_id), DEFAULT)):
            prompt = table.prompt(seat, lang)
            matches = [c for c in prompt.choices if spoken(c.label) == typed] if prompt else []
            if matches:
                break
        if len(matches) != 1:
            return  # table talk, not a move
        try:
            await self.service.act(table.id, message.author.id, matches[0].action, None,
                                   source="typed")
        except (IllegalAction, Unavailable) as exc:
            log.info("typed move refused game=%s reason=%r", table.id, str(exc))

    async def answer_help(self, message: discord.Message) -> None:
        """A short public answer, as a reply to the question (it cannot be private)."""
        try:
            lang = self.languages.server(message.guild.id if message.guild else None)
            await message.reply(helptext.short_help(lang), mention_author=False)
        except discord.HTTPException as exc:
            log.warning("discord-error what=help status=%s code=%s", exc.status, exc.code)

    async def on_component(self, interaction: discord.Interaction, op: str, game_id: int,
                           seat: int | None, token: int, arg: str,
                           values: list[str] | None = None, *, legacy: bool = False) -> None:
        try:
            if legacy and op not in ("lobby", "opt", "again", "hand"):
                raise Stale()
            await self._component(interaction, op, game_id, seat, token, arg, values)
        except IllegalAction as exc:
            if isinstance(exc, Stale) and await self.current_choices(interaction, game_id, exc):
                return
            lang = self.languages.personal(interaction)
            answer = self.stale_reason(game_id, exc, lang) if isinstance(exc, Stale) \
                else said(lang, exc)
            await reply(interaction, answer + written_back(interaction, values, lang))
        except Unavailable as exc:
            log.warning("component refused game=%s op=%s: %s", game_id, op, exc)
            lang = self.languages.personal(interaction)
            await reply(interaction, text(lang, "error.store")
                        + written_back(interaction, values, lang))
        except Exception:
            log.exception("component failed game=%s op=%s", game_id, op)
            lang = self.languages.personal(interaction)
            if await self.store.interaction_seen(interaction.id):
                await reply(interaction, text(lang, "error.counted_unanswered"))
            else:
                await reply(interaction, text(lang, "error.unexpected")
                            + written_back(interaction, values, lang))

    async def current_choices(self, interaction: discord.Interaction, game_id: int,
                              exc: IllegalAction) -> bool:
        """A stale click from a seat that has something to do now is never a dead end: it is
        answered with that seat's current choices (a private panel with fresh buttons), and a
        board that is behind is republished. False when the clicker has nothing to do now,
        the game is over, or the click was a modal's (the plain answer then says why)."""
        table = self.service.tables.get(game_id)
        seat = table.seat_of(interaction.user.id) if table and table.status == "running" \
            else None
        if table is None or seat is None or interaction.type is not \
                discord.InteractionType.component or interaction.response.is_done():
            return False
        lang = self.languages.personal(interaction)
        prompt = table.prompt(seat, lang)
        if prompt is None:
            return False
        self.catch_up(table)
        position = walk(prompt.choices, [])
        heading = text(lang, "panel.stale", reason=said(lang, exc), prompt=prompt.text)
        content = panel_text(table, seat, heading, position, lang)
        try:
            sent = await interaction.response.send_message(
                content, view=ui.panel_view(table, seat, position, lang), ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("discord-error what=current-choices status=%s code=%s", exc.status, exc.code)
            return False
        self.panels.shown(table, seat, interaction, sent.message_id if sent else None)
        return True

    def panel_contents(self, table: Table, seat: int, lang: str) -> tuple[str, discord.ui.View]:
        """What the seat's panel shows when it opens at its current prompt."""
        prompt = table.prompt(seat, lang)
        assert prompt is not None
        position = walk(prompt.choices, [])
        return (panel_text(table, seat, prompt.text, position, lang),
                ui.panel_view(table, seat, position, lang))

    def catch_up(self, table: Table) -> bool:
        """Republish the board if the channel shows an older version than the committed one
        (and no publish is under way); True if the channel is behind."""
        behind = (self.store.shown_version(table.id) or -1) < table.version
        if behind and not (table.feed and table.feed.busy):
            self.service.republish(table)
        return behind

    def stale_reason(self, game_id: int, exc: IllegalAction, lang: str) -> str:
        """A stale click: say so, link the newest board, and republish it if the channel is behind."""
        table = self.service.tables.get(game_id)
        if table is None:
            return text(lang, "refusal.no_game")
        if self.catch_up(table):
            return text(lang, "stale.catching_up", reason=said(lang, exc))
        url = self.publisher.jump_url(table)
        return text(lang, "stale.newest", reason=said(lang, exc), url=url) if url \
            else said(lang, exc)

    def lobby_catch_up(self, game_id: int) -> None:
        """Republish a lobby whose message shows an older lobby than the committed one."""
        table = self.service.tables.get(game_id)
        if table is not None and self.publisher.lobby_behind(table):
            self.service._spawn(self.publisher.lobby_changed(table))

    async def _component(self, interaction: discord.Interaction, op: str, game_id: int,
                         issued_to: int | None, token: int, arg: str,
                         values: list[str] | None) -> None:
        service, user = self.service, interaction.user
        if op == STORY_OP:  # a /log page button
            await turn_page(service, interaction, game_id, arg,
                            self.languages.personal(interaction))
            return
        if op in ("lobby", "opt"):
            await interaction.response.defer()
            try:
                if op == "lobby":
                    await service.lobby(game_id, user.id, user.display_name, arg)
                else:
                    await service.set_option(game_id, user.id, arg, (values or [""])[0])
            except IllegalAction:
                self.lobby_catch_up(game_id)  # the click may come from a lobby that is behind
                raise
            return
        if op == "again":
            await self.play_again(interaction, game_id)
            return
        table = await service.get(game_id)
        if op == "hand":
            await reply(interaction, hand_text(table, user.id,
                                               self.languages.personal(interaction)))
            return
        if op == "vote":
            await interaction.response.defer(ephemeral=True, thinking=True)
            told = await service.vote_remove(game_id, user.id, int((values or [arg])[0]))
            await interaction.followup.send(render(self.languages.personal(interaction), told),
                                            ephemeral=True)
            return
        if op == "x":
            if issued_to is not None:
                self.panels.take(game_id, issued_to)
            await interaction.response.edit_message(
                content=self.words(interaction, "panel.cancelled"), view=None)
            return
        seat, prompt = service.turn_of(table, user.id, token, issued_to)
        prompt = table.prompt(seat, self.languages.personal(interaction)) or prompt
        if op in ("c", "m"):
            try:
                index = int(values[0] if op == "c" and values else arg)  # a select's: its value
            except ValueError:
                raise Stale() from None
            if not 0 <= index < len(prompt.choices):
                raise Stale()
            choice = prompt.choices[index]
            if choice.input == "text" and op == "c":
                await interaction.response.send_modal(ui.text_modal(table, seat, index, choice))
                return
            action = f"{choice.action} {values[0]}" if op == "m" and values else choice.action
            on_panel = op == "m" and is_private(interaction.message)  # a modal from the panel
            if on_panel:
                self.panels.take(game_id, seat)
            # a silent update of the message clicked (a modal's: the board its button is on),
            # so the board can be edited through this interaction (bot.publisher.clicked_on)
            ack = await acknowledge(interaction)
            await service.act(game_id, user.id, action, token, seat=issued_to, source="button",
                              interaction_id=interaction.id,
                              origin=interaction if ack is Ack.UPDATE else None)
            if on_panel:
                await self.refresh_panel(interaction, table, seat, choice.path[-1].label, ack)
            elif op == "m" or ack is not Ack.UPDATE:
                await self.tell_done(interaction, table, choice.path[-1].label, ack)
            return
        if op not in ("panel", "p"):
            raise Refusal("refusal.unknown_button")
        if op == "panel" and len(prompt.choices) == 1 and prompt.choices[0].input == "text":
            # one thing to write (a fear): the text box at once, not a panel first
            await interaction.response.send_modal(ui.text_modal(table, seat, 0, prompt.choices[0]))
            return
        path = parse_path(arg.split("~")[0]) if op == "p" else []
        if values:
            path.append(int(values[0]))
        try:
            position = walk(prompt.choices, path)
        except IndexError:
            raise Stale() from None
        if position.complete is None:
            lang = self.languages.personal(interaction)
            content = panel_text(table, seat, prompt.text, position, lang)
            view = ui.panel_view(table, seat, position, lang)
            if op == "panel":
                await self.open_panel(interaction, table, seat, content, view)
            else:
                await self.turn_panel_page(interaction, table, seat, content, view)
            return
        if position.complete.input == "text":
            index = prompt.choices.index(position.complete)
            await interaction.response.send_modal(ui.text_modal(table, seat, index,
                                                                position.complete))
            return
        self.panels.take(game_id, seat)
        ack = await acknowledge(interaction)
        await service.act(game_id, user.id, position.complete.action, token, seat=issued_to,
                          source="panel", interaction_id=interaction.id,
                          origin=self.panel_origin(game_id, seat))
        await self.refresh_panel(interaction, table, seat, position.complete.label, ack)

    async def open_panel(self, interaction: discord.Interaction, table: Table, seat: int,
                         content: str, view: discord.ui.View) -> None:
        """The click on the board is answered by a silent update, and the panel comes as its
        private follow-up: the click's interaction can then edit the board when the panel's
        choice lands, which spends none of the channel's edits."""
        ack = await acknowledge(interaction)
        if ack is Ack.NONE:
            await by_dm(interaction, self.words(interaction, "panel.too_late",
                                                take_turn=Msg("table.button.take_turn")))
            return
        if ack is Ack.UPDATE:
            self.panel_origins[(table.id, seat)] = interaction
        sent = await interaction.followup.send(content, view=view, ephemeral=True, wait=True)
        self.panels.shown(table, seat, interaction, sent.id, original=False)

    async def turn_panel_page(self, interaction: discord.Interaction, table: Table, seat: int,
                              content: str, view: discord.ui.View) -> None:
        """A step within the panel (a card, then its target) changes the panel in place; a
        panel that is gone meanwhile is sent again."""
        try:
            await interaction.response.edit_message(content=content, view=view)
            message_id = interaction.message.id if interaction.message else None
        except discord.HTTPException as exc:
            log.warning("discord-error what=panel-page status=%s code=%s", exc.status, exc.code)
            sent = await interaction.response.send_message(content, view=view, ephemeral=True)
            message_id = sent.message_id if sent else None
        self.panels.shown(table, seat, interaction, message_id)

    def panel_origin(self, game_id: int, seat: int) -> discord.Interaction | None:
        """The board click that opened the seat's panel, while its token may still edit the
        board (Discord allows 15 minutes; we stop a minute short)."""
        origin = self.panel_origins.pop((game_id, seat), None)
        if origin is None or discord.utils.utcnow() - origin.created_at > PANEL_ORIGIN_LIFE:
            return None
        self.panel_origins[(game_id, seat)] = origin  # a later step of the turn may use it too
        return origin

    async def refresh_panel(self, interaction: discord.Interaction, table: Table, seat: int,
                            done: str, ack: Ack) -> None:
        """After a panel choice, the same panel shows what this seat may do next (a move after
        a card), or that the choice is done when the seat has nothing more to do."""
        prompt = table.prompts[seat] if table.status == "running" else None
        content, view = f"✅ {done}.", None
        if prompt is not None:
            next_text, view = self.panel_contents(table, seat,
                                                  self.languages.personal(interaction))
            content += "\n" + next_text
        if ack is Ack.NONE:
            await by_dm(interaction, self.words(interaction, "done.by_dm",
                                                done=content.splitlines()[0],
                                                game=title_of(table.game), id=table.id))
            return
        if ack is Ack.UPDATE:
            await interaction.edit_original_response(content=content, view=view)
            message_id = interaction.message.id if interaction.message else None
            if prompt is not None:
                self.panels.shown(table, seat, interaction, message_id)
            return
        sent = await interaction.followup.send(content, view=view or discord.utils.MISSING,
                                               ephemeral=True, wait=True)
        if prompt is not None:
            self.panels.shown(table, seat, interaction, sent.id, original=False)

    async def tell_done(self, interaction: discord.Interaction, table: Table, done: str,
                        ack: Ack) -> None:
        """Confirm a move whose message did not change to show it (a modal's, or a click whose
        silent update Discord refused)."""
        if ack is Ack.NONE:
            done_words = self.words(interaction, "done.move", done=done)
            await by_dm(interaction, self.words(interaction, "done.by_dm", done=done_words,
                                                game=title_of(table.game), id=table.id))
        else:
            await interaction.followup.send(self.words(interaction, "done.move", done=done),
                                            ephemeral=True)

    async def play_again(self, interaction: discord.Interaction, game_id: int) -> None:
        row = await self.store.game(game_id)
        if interaction.user.id not in [s["user_id"] for s in row["seats"]] + [row["host_id"]]:
            raise Refusal("refusal.rematch")
        seats = [Seat(name=s["name"], user_id=s["user_id"]) for s in row["seats"] if not s["ai"]]
        seats += [Seat(name=f"AI {n + 1}", ai=True, level=seat.get("level", DEFAULT_LEVEL))
                  for n, seat in enumerate(seat for seat in row["seats"] if seat["ai"])]
        await open_lobby(self, interaction, row["game"], seats=seats, host_id=interaction.user.id)


def throttle_bucket_sweep(http: Any, every: float = 30.0,
                          clock: Callable[[], float] = time.monotonic) -> None:
    """Sweep discord.py's idle rate-limit buckets at most every `every` seconds.

    discord.py 2.x scans *all* buckets whenever a new one appears once there are 256. Every
    interaction token makes new buckets (callback, follow-up), so at tens of moves per second the
    scan runs over tens of thousands of buckets per request: measured at 1,000 games, it was the
    largest cost in the process. Throttling keeps the sweep and removes the quadratic cost.
    The first call always sweeps: the monotonic clock starts near zero at boot, so no time
    value can stand for "never swept".
    """
    sweep = http._try_clear_expired_ratelimits  # a private hook: tests/test_bot_units pins it
    last: float | None = None

    def throttled() -> None:
        nonlocal last
        now = clock()
        if last is None or now - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = throttled


def spoken(text: str) -> str:
    """Letters and digits only, lower case: how typed words are compared with button labels."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def is_private(message: discord.Message | None) -> bool:
    """Is `message` an ephemeral one (a player's panel)?"""
    return message is not None and message.flags.ephemeral


def written_back(interaction: discord.Interaction, values: list[str] | None, lang: str) -> str:
    """For a modal submit that could not be applied: the player's own words, so nothing typed
    is lost."""
    if interaction.type is discord.InteractionType.modal_submit and values and values[0]:
        return "\n" + text(lang, "modal.written_back", words=values[0][:1500])
    return ""


def require_seat(table: Table, user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("refusal.not_playing", players=", ".join(table.names()))
    return seat


def panel_text(table: Table, seat: int, heading: str, position: Any, lang: str) -> str:
    trail = " → ".join(step.label for step in position.trail)
    hand = table.fill(table.game.private_text(table.state, seat), lang)
    return "\n".join(p for p in (hand, f"**{heading}**" + (f": {trail} →" if trail else ""),
                                 text(lang, "panel.pick")) if p)[:2000]


def hand_text(table: Table, user_id: int, lang: str) -> str:
    seat = require_seat(table, user_id)
    if table.state is None:
        return text(lang, "refusal.not_started")
    if table.status != "running":
        return text(lang, "hand.over", id=table.id, result=present.result_text(table, lang))
    return present.hand_message(table, seat, [], None, lang) or text(lang, "hand.nothing")


# -- slash commands ---------------------------------------------------------------------------------
async def open_lobby(bot: GatekeeperBot, interaction: discord.Interaction, game_name: str, *,
                     seats: list[Seat] | None = None, host_id: int | None = None) -> None:
    if interaction.guild_id is None:
        raise Refusal("refusal.play_in_dm")
    user = interaction.user
    game = game_named(game_name)
    channel_id = interaction.channel_id
    busy = await bot.service.here(channel_id) is not None
    if busy and not isinstance(interaction.channel, discord.TextChannel):
        raise Refusal("refusal.channel_busy")
    lacking = permissions.missing(interaction.app_permissions, in_thread=busy)
    if lacking:
        raise Refusal("refusal.permissions", how=permissions.how_to_grant(
            lacking, f"<#{channel_id}>", bot.languages.personal(interaction)))
    await interaction.response.defer(thinking=True)
    if busy:
        channel = interaction.channel
        server = bot.languages.server(interaction.guild_id, interaction.guild_locale)
        thread = await channel.create_thread(name=text(server, "lobby.thread", game=title_of(game),
                                                       host=user.display_name)[:100],
                                             type=discord.ChannelType.public_thread)
        channel_id = thread.id
    table = await bot.service.open_lobby(game.name, interaction.guild_id, channel_id,
                                         host_id or user.id, user.display_name, seats=seats)
    if channel_id != interaction.channel_id:
        await bot.publisher.lobby_changed(table)  # posted in the thread (and retried if need be)
        await interaction.followup.send(text(server, "lobby.in_thread", game=title_of(game),
                                             thread=f"<#{channel_id}>"))
        return
    await bot.publisher.lobby_changed(table, answering=interaction)


def game_named(name: str) -> Any:
    """The game a player named (by id or title, any case), or a refusal listing the games."""
    wanted = name.strip().lower()
    for game in games.all_games():
        if wanted in (game.name, *(titled(game, lang).lower() for lang in LANGUAGES)):
            return game
    listing = tuple(Msg("games.title_and_name", title=title_of(g), name=g.name)
                    for g in games.all_games())
    raise Refusal("refusal.no_such_game", name=name, games=listing)


async def complete_game(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    needle = current.lower()
    lang = language(str(interaction.locale)) or DEFAULT
    return [app_commands.Choice(name=titled(g, lang), value=g.name) for g in games.all_games()
            if needle in g.name or needle in titled(g, lang).lower()][:25]


def rules_sections(game_name: str, lang: str) -> dict[str, str]:
    """`## ` sections of the game's rules page in `lang` (English when the game has no page in
    it), keyed by lower-case heading, their paragraphs unwrapped for Discord (`bot.rulebook`),
    and for a turn-based game the bot's own "pace" topic."""
    game = games.get(game_name)
    sections = rulebook.sections(game.rules_text(lang))
    if pace.applies(game):
        sections["pace"] = text(lang, "pace.rules")
    sections[levels.topic(lang)] = levels.rules(lang)
    return sections


def topics_named(game_name: str, lang: str, typed: str) -> list[str]:
    """The topics of the game's rules in `lang` that `typed` (part of a topic, any case) names:
    those whose heading in `lang` holds it, then those whose English heading does."""
    wanted = typed.lower()
    game = games.get(game_name)
    english = rulebook.english_topics(game.rules_text(lang), game.rules_text())
    mine = [k for k in rules_sections(game_name, lang) if wanted in k]
    return mine + [k for theirs, k in english.items() if wanted in theirs and k not in mine]


def parse_until(text: str, now: float) -> float:
    """When /away ends: a date (2026-12-24, the start of that day in UTC), a number of days
    ("3d") or hours ("12h"), or "back" (until /back)."""
    text = text.strip().lower()
    if text in ("", "back"):
        return float("inf")
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([dh])", text)
    if match:
        return now + float(match[1]) * (86400 if match[2] == "d" else 3600)
    try:
        day = datetime.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        raise Refusal("refusal.bad_date", typed=text) from None
    if day.timestamp() <= now:
        raise Refusal("refusal.past_date")
    return day.timestamp()


async def games_lines(bot: GatekeeperBot, guild_id: int, user_id: int, lang: str) -> list[str]:
    """/games: the server's lobbies and running games, those waiting on `user_id` first, each
    with its pace, whose turn it is, the deadline and a link; read from the store, so a game
    not in memory is listed without being loaded."""
    rows = await bot.store.running_in_guild(guild_id)
    rows.sort(key=lambda row: user_id not in (row["waiting"] or []))
    titles = {g.name: titled(g, lang) for g in games.all_games()}
    lines = []
    for row in rows[:20]:
        title = titles.get(row["game"], row["game"])
        speed = pace.describe(row["options"] or {}, lang)
        waiting = row["waiting"] or []
        if row["status"] == "lobby":
            who = text(lang, "games.lobby")
        elif user_id in waiting:
            who = text(lang, "games.your_turn")
        else:
            who = text(lang, "games.waiting_on", who=", ".join(f"<@{u}>" for u in waiting)
                       or Msg("games.the_ai"))
        deadline = text(lang, "games.ends", when=f"<t:{int(row['deadline'])}:R>") \
            if row["deadline"] else ""
        # A game in memory has the newest ids (a store may write them behind); a resting one's
        # are those stored.
        board = bot.store.messages(row["id"]).get("board") if row["id"] in bot.service.tables \
            else (row["board_channel"], row["board_message"]) if row["board_message"] else None
        link = f"https://discord.com/channels/{guild_id}/{board[0]}/{board[1]}" if board \
            else f"<#{row['channel_id']}>"
        parts = [f"#{row['id']} {title}", speed, f"{who}{deadline}", link]
        lines.append(" · ".join(p for p in parts if p))
    return lines


async def table_here(bot: GatekeeperBot, interaction: discord.Interaction) -> Table:
    table = await bot.service.here(interaction.channel_id or 0)
    if table is None:
        raise Refusal("refusal.no_game_here")
    return table


async def table_or_last(bot: GatekeeperBot, interaction: discord.Interaction) -> Table:
    """The channel's running game, or else its most recent finished one (/log, /status and
    /hand still answer about a game that just ended)."""
    table = await bot.service.here(interaction.channel_id or 0)
    if table is None and interaction.guild_id is not None:
        table = await bot.service.last_finished(interaction.guild_id, interaction.channel_id or 0)
    if table is None:
        raise Refusal("refusal.no_game_here")
    return table


async def typed_move(bot: GatekeeperBot, interaction: discord.Interaction, action: str) -> None:
    """Play a typed move and answer it once: "Done" (or the refusal) as the interaction's
    response, one request and no "thinking…" in between; only a move still running after
    TYPED_ANSWER_WITHIN (a slow store) is deferred first, to stay within Discord's 3 s."""
    table = await table_here(bot, interaction)
    turn = table.state.turn if table.state else 0
    acting = asyncio.ensure_future(bot.service.act(
        table.id, interaction.user.id, action, None, source="command",
        interaction_id=interaction.id, origin=interaction))
    done, _ = await asyncio.wait({acting}, timeout=TYPED_ANSWER_WITHIN)
    if not done:
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:  # the move goes on; its board will show it
            log.warning("discord-error what=defer status=%s code=%s", exc.status, exc.code)
    await acting
    answer = await reply(interaction, bot.words(interaction, "done.typed", action=action))
    seat = table.seat_of(interaction.user.id)
    if seat is not None and table.status == "running":  # one private message a turn
        bot.panels.shown(table, seat, interaction, answer, live=False, turn=turn)


def legal_completions(bot: GatekeeperBot, verb: str):
    """Autocomplete offering only this player's legal actions (those starting with `verb`)."""
    async def complete(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        channel = interaction.channel_id or 0
        table = bot.service.in_channel(channel) or await bot.service.resting_in(channel)
        seat = table.seat_of(interaction.user.id) if table else None
        if table is None or seat is None or table.state is None or table.status != "running":
            return []
        prompt = table.prompt(seat, bot.languages.personal(interaction))
        if prompt is None:
            return []
        needle = current.lower()
        found = [c for c in prompt.choices if c.action.startswith(verb)
                 and (needle in c.action.lower() or needle in c.label.lower())]
        return [app_commands.Choice(name=c.label[:100],
                                    value=c.action.removeprefix(verb).strip() or c.action)
                for c in found[:25]]
    return complete


def verb_words(game: Any, verb: str, part: str, english: str) -> app_commands.locale_str | str:
    """A move subcommand's name, description or choice help in every language the game's
    catalogs word it in (`game.<game>.verb.<verb>.<part>`), else as the game wrote it."""
    id = f"game.{game.name}.verb.{verb}.{part}"
    return command_text(id) if has(id) else english


def verb_command(bot: GatekeeperBot, game: Any, verb: str, help_text: str) -> app_commands.Command:
    """/<game> <verb>: its name is the verb each language types (Discord shows the reader's),
    while the move it sends is the game's own verb."""
    name = verb_words(game, verb, "name", verb)
    if not help_text:
        async def bare(interaction: discord.Interaction) -> None:
            await typed_move(bot, interaction, verb)
        return app_commands.Command(
            name=name, description=verb_words(game, verb, "description", verb.capitalize()),
            callback=bare)

    @app_commands.describe(choice=verb_words(game, verb, "choice", help_text[:100]))
    @app_commands.rename(choice=command_text("cmd.move.choice.name"))
    async def with_choice(interaction: discord.Interaction, choice: str) -> None:
        await typed_move(bot, interaction, f"{verb} {choice}")
    command = app_commands.Command(
        name=name, callback=with_choice, description=verb_words(
            game, verb, "description", f"{verb.capitalize()}: {help_text}"[:100]))
    command.autocomplete("choice")(legal_completions(bot, f"{verb} "))
    return command


def game_commands(bot: GatekeeperBot, game: Any) -> app_commands.Group:
    """/<game> <verb> [choice]: typed moves, one subcommand per verb the game declares."""
    group = app_commands.Group(name=game.name,
                               description=command_text("cmd.game.description", game=title_of(game)))
    for verb, help_text in game.verbs.items():
        group.add_command(verb_command(bot, game, verb, help_text))
    return group


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


async def pause_or_resume(bot: GatekeeperBot, interaction: discord.Interaction, action: str) -> None:
    table = await table_here(bot, interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot.service.pause(table.id, interaction.user.id, can_manage(interaction), action)
    await interaction.followup.send(bot.words(interaction, f"done.{action}"), ephemeral=True)


async def post_replay(bot: GatekeeperBot, interaction: discord.Interaction,
                      game_id: int | None) -> None:
    """Draw a finished game's replay in the render pool and post it in this channel. Refusals
    (no such game here, still running) come before the defer, so they stay ephemeral."""
    if interaction.guild_id is None:
        raise Refusal("refusal.replay_in_dm")
    row = await bot.replays.choose(interaction.guild_id, interaction.channel_id or 0, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    fmt = replay_format()
    lang = bot.languages.server(interaction.guild_id, interaction.guild_locale)  # the channel's
    data = await bot.replays.build(row, fmt, lang)
    try:
        await bot.get_partial_messageable(interaction.channel_id or 0).send(
            text(lang, "replay.posted", game=describe(row, lang), who=interaction.user.display_name),
            file=discord.File(io.BytesIO(data), filename=f"replay-{row['id']}.{fmt}",
                              description=replay_alt(row, len(await bot.store.actions(row["id"])),
                                                     lang)))
    except discord.HTTPException as exc:
        log.warning("discord-error what=replay game=%s status=%s code=%s", row["id"], exc.status,
                    exc.code)
        raise Refusal("refusal.replay_refused", id=row["id"], status=exc.status,
                      why=exc.text or "-") from None
    await interaction.followup.send(bot.words(interaction, "replay.done", id=row["id"]),
                                    ephemeral=True)


def finished_completions(bot: GatekeeperBot):
    """Autocomplete offering this server's finished games, the latest first."""
    async def complete(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
        rows = await bot.store.finished_games(interaction.guild_id or 0, limit=100)
        needle = current.strip().lstrip("#").lower()
        lang = bot.languages.personal(interaction)
        shown = [(describe(row, lang), row["id"]) for row in rows]
        return [app_commands.Choice(name=name[:100], value=id) for name, id in shown
                if needle in name.lower()][:25]
    return complete


def described(name: str) -> dict[str, app_commands.locale_str]:
    """A slash command's name and description, each with its message id (bot.i18n)."""
    return {"name": command_text(f"cmd.{name}.name"),
            "description": command_text(f"cmd.{name}.description")}


def option(command: str, param: str, suffix: str) -> app_commands.locale_str:
    """An option's name, description or choice of a slash command, with its message id."""
    return command_text(f"cmd.{command}.{param}.{suffix}")


def choice(command: str, param: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=option(command, param, value), value=value)


def register_commands(bot: GatekeeperBot) -> None:
    tree = bot.tree

    @tree.command(**described("play"))
    @app_commands.rename(game=option("play", "game", "name"))
    @app_commands.describe(game=option("play", "game", "description"))
    @app_commands.autocomplete(game=complete_game)
    async def play(interaction: discord.Interaction, game: str) -> None:
        await open_lobby(bot, interaction, game)

    @tree.command(**described("help"))
    async def help_cmd(interaction: discord.Interaction) -> None:
        lang = bot.languages.personal(interaction)
        embed = discord.Embed(description=helptext.full_help(tree.get_commands(), lang),
                              colour=discord.Colour.dark_gold())
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tree.command(**described("hand"))
    async def hand(interaction: discord.Interaction) -> None:
        table = await table_or_last(bot, interaction)
        await reply(interaction, hand_text(table, interaction.user.id,
                                           bot.languages.personal(interaction)))

    @tree.command(**described("status"))
    async def status(interaction: discord.Interaction) -> None:
        table = await table_or_last(bot, interaction)
        if table.state is None:
            raise Refusal("refusal.lobby_above")
        if table.status != "running":
            await reply(interaction, bot.words(interaction, "status.over", id=table.id,
                                               game=title_of(table.game),
                                               result=present.result_text(
                                                   table, bot.languages.personal(interaction))))
            return
        bot.service.republish(table, fresh_board=True)
        await reply(interaction, bot.words(interaction, "status.posted"))

    @tree.command(**described("log"))
    @app_commands.rename(since=option("log", "since", "name"))
    @app_commands.describe(since=option("log", "since", "description"))
    @app_commands.choices(since=[choice("log", "since", "start"), choice("log", "since", "mine")])
    async def log_cmd(interaction: discord.Interaction, since: str = "start") -> None:
        table = await table_or_last(bot, interaction)
        await show_story(bot.service, interaction, table, since == "mine",
                         bot.languages.personal(interaction))

    @tree.command(**described("replay"))
    @app_commands.rename(game=option("replay", "game", "name"))
    @app_commands.describe(game=option("replay", "game", "description"))
    async def replay(interaction: discord.Interaction, game: int | None = None) -> None:
        await post_replay(bot, interaction, game)

    replay.autocomplete("game")(finished_completions(bot))

    @tree.command(**described("move"))
    @app_commands.rename(action=option("move", "action", "name"))
    @app_commands.describe(action=option("move", "action", "description"))
    async def move(interaction: discord.Interaction, action: str) -> None:
        await typed_move(bot, interaction, action)

    move.autocomplete("action")(legal_completions(bot, ""))
    for game in games.all_games():
        tree.add_command(game_commands(bot, game))

    @tree.command(**described("rules"))
    @app_commands.rename(game=option("rules", "game", "name"),
                         topic=option("rules", "topic", "name"))
    @app_commands.describe(game=option("rules", "game", "description"),
                           topic=option("rules", "topic", "description"))
    @app_commands.autocomplete(game=complete_game)
    async def rules(interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        name = game_named(game).name
        lang = bot.languages.personal(interaction)
        sections = rules_sections(name, lang)
        if topic is None:
            first = next(iter(sections.values()), "")
            answer = text(lang, "rules.first", first=first, topics=", ".join(sections),
                          example=f"/{text(lang, 'cmd.rules.name')} {name}")
        else:
            key = next(iter(topics_named(name, lang, topic)), None)
            if key is None:
                raise Refusal("refusal.no_topic", topic=topic, topics=", ".join(sections))
            answer = sections[key]
        await reply(interaction, answer)

    @rules.autocomplete("topic")
    async def rules_topics(interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        try:
            names = topics_named(game_named(interaction.namespace.game or "").name,
                                 bot.languages.personal(interaction), current)
        except (OSError, IllegalAction):
            return []
        return [app_commands.Choice(name=n, value=n) for n in names][:25]

    @tree.command(**described("games"))
    async def games_cmd(interaction: discord.Interaction) -> None:
        lines = await games_lines(bot, interaction.guild_id or 0, interaction.user.id,
                                  bot.languages.personal(interaction))
        await reply(interaction, "\n".join(lines) if lines else
                    bot.words(interaction, "games.none"))

    @tree.command(**described("notify"))
    @app_commands.rename(setting=option("notify", "setting", "name"))
    @app_commands.describe(setting=option("notify", "setting", "description"))
    @app_commands.choices(setting=[choice("notify", "setting", "on"),
                                   choice("notify", "setting", "off")])
    async def notify(interaction: discord.Interaction, setting: str) -> None:
        await bot.store.set_notify(interaction.user.id, setting == "on")
        await reply(interaction, bot.words(interaction, f"notify.{setting}"))

    @tree.command(**described("away"))
    @app_commands.rename(until=option("away", "until", "name"))
    @app_commands.describe(until=option("away", "until", "description"))
    async def away(interaction: discord.Interaction, until: str = "back") -> None:
        ends = parse_until(until, bot.service.clock.now())
        await interaction.response.defer(ephemeral=True, thinking=True)
        touched = await bot.service.set_away(interaction.user.id, ends)
        when = Msg("away.until_back") if ends == float("inf") \
            else Msg("away.until", when=f"<t:{int(ends)}>")
        await interaction.followup.send(
            bot.words(interaction, "away.set", when=when, count=touched), ephemeral=True)

    @tree.command(**described("back"))
    async def back(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.service.set_away(interaction.user.id, None)
        await interaction.followup.send(bot.words(interaction, "away.back"), ephemeral=True)

    @tree.command(**described("end"))
    async def end(interaction: discord.Interaction) -> None:
        table = await table_here(bot, interaction)
        if interaction.user.id != table.host_id and not can_manage(interaction):
            raise Refusal("refusal.end_host")
        await interaction.response.defer(thinking=True)
        await bot.service.end(table.id, interaction.user.id, can_manage(interaction))
        server = bot.languages.server(interaction.guild_id, interaction.guild_locale)
        await interaction.followup.send(text(server, "end.done", id=table.id,
                                             who=interaction.user.display_name))

    @tree.command(**described("pause"))
    async def pause(interaction: discord.Interaction) -> None:
        await pause_or_resume(bot, interaction, "pause")

    @tree.command(**described("resume"))
    async def resume(interaction: discord.Interaction) -> None:
        await pause_or_resume(bot, interaction, "resume")

    @tree.command(**described("leave"))
    async def leave(interaction: discord.Interaction) -> None:
        table = await table_here(bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if table.status == "lobby":  # a host who leaves hands the lobby on (see TableService.lobby)
            await bot.service.lobby(table.id, interaction.user.id, interaction.user.display_name,
                                    "leave")
            await interaction.followup.send(bot.words(interaction, "leave.lobby"), ephemeral=True)
            return
        await bot.service.leave(table.id, interaction.user.id)
        await interaction.followup.send(bot.words(interaction, "leave.game"), ephemeral=True)

    @tree.command(**described("stats"))
    async def stats(interaction: discord.Interaction) -> None:
        rows = await bot.store.stats(interaction.guild_id or 0, interaction.user.id)
        board = await bot.store.leaderboard(interaction.guild_id or 0)
        lang = bot.languages.personal(interaction)
        titles = {g.name: titled(g, lang) for g in games.all_games()}
        mine = "\n".join(text(lang, "stats.mine", game=titles.get(r["game"], r["game"]),
                              won=r["won"], count=r["played"]) for r in rows) \
            or text(lang, "stats.none_mine")
        top = "\n".join(text(lang, "stats.top", place=i + 1, who=f"<@{r['user_id']}>",
                             wins=Msg("stats.wins", count=r["won"]),
                             games=Msg("stats.games", count=r["played"]))
                        for i, r in enumerate(r for r in board if r["won"])) \
            or text(lang, "stats.no_wins")
        await reply(interaction, text(lang, "stats.answer", mine=mine, top=top))

    @tree.command(**described("language"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(chosen=option("language", "language", "name"))
    @app_commands.describe(chosen=option("language", "language", "description"))
    @app_commands.choices(chosen=[
        *(app_commands.Choice(name=command_text(f"language.name.{lang}"), value=lang)
          for lang in LANGUAGES),
        choice("language", "language", "auto")])
    async def language_cmd(interaction: discord.Interaction, chosen: str) -> None:
        if interaction.guild_id is None:
            raise Refusal("refusal.language_in_dm")
        if not can_manage(interaction):
            raise Refusal("refusal.language_manager")
        await bot.languages.choose(interaction.guild_id, None if chosen == "auto" else chosen)
        server = bot.languages.server(interaction.guild_id, interaction.guild_locale)
        await reply(interaction, text(server, "language.set",
                                      language=Msg(f"language.name.{server}")))

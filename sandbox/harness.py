"""Drive the real GatekeeperBot against the fake Discord: start it, stop it, restart it.

Used by the end-to-end tests (tests/harness.py adds simulated players on top) and by the
benchmark (bench: move latency under load).
"""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from bot.app import GatekeeperBot
from bot.livetable import BEGAN_ID
from bot.config import Settings
from bot.store import Store

from fakediscord import FakeDiscord, Message
from fakediscord.models import walk_components

# The fake sends READY and every GUILD_CREATE in one burst: no need for discord.py's 2 s wait
# for late guilds (Settings.guild_ready_timeout) before the bot is ready.
GUILD_READY_TIMEOUT = 0.1


def is_board(message: Message) -> bool:
    """A table message (live or final), in any language: its container's id says the turn it
    began at. A retired turn message, shrunk to its summary, is not one."""
    return any((part.get("id") or 0) >= BEGAN_ID for part in walk_components(message.components))


async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll bot-side state (which the fake cannot notify us about) until it holds; the
    predicate may be a coroutine function (one that reads the store)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.002)


async def settle(bot: GatekeeperBot, table: Any = None) -> None:
    """Wait until the bot has finished with everything it started (and, given a table, that
    table's move and its publishing)."""
    service = bot.service
    await until(lambda: not service._tasks and not (table and (
        table.lock.locked() or (table.feed and table.feed.busy))), what="the bot to settle")


class BotHarness:
    def __init__(self, fake: FakeDiscord, db_path: Path, clock: Any = None, seed: int | None = 1,
                 **overrides: Any) -> None:
        self.fake = fake
        self.seed = seed
        self.clock = clock
        self.settings = replace(Settings(token=fake.token, db_path=db_path, ai_delay=0.0,
                                         turn_timeout=3600.0, api_base=fake.api_base,
                                         gateway_url=fake.gateway_url,
                                         guild_ready_timeout=GUILD_READY_TIMEOUT), **overrides)
        self.bot: GatekeeperBot | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> GatekeeperBot:
        store = Store(self.settings.database, **self.settings.store_options)
        self.bot = GatekeeperBot(self.settings, store, self.clock)
        if self.seed is not None:  # same games every run (None: the bot's own random seeds)
            self.bot.service.next_seed = itertools.count(self.seed).__next__
        self.task = asyncio.create_task(self.bot.start(self.fake.token))
        await until(lambda: self.bot.is_ready() or self.task.done(), timeout=15,
                    what="the bot to be ready")
        if self.task.done():
            self.task.result()
        await self.fake.wait_commands()
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            await self.bot.store.close()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.bot = self.task = None

    async def restart(self) -> GatekeeperBot:
        await self.stop()
        return await self.start()

"""The local sandbox: the real, unmodified GatekeeperBot against the fake Discord
(fakediscord) on 127.0.0.1, with a web client (fakediscord.web) to play in a browser.

`gatekeeper sandbox`, and `gatekeeper run` without DISCORD_TOKEN, run it until SIGTERM or
Ctrl-C; the browser tests start the same Sandbox in-process, on a fake clock.

The fake is seeded with a guild, `#general`, a channel per installed game and a first user. The
bot runs with the operator's settings except the token, the endpoints and the database: its own
file (GATEKEEPER_SANDBOX_DB, refused if it is GATEKEEPER_DB), emptied at each start under the
store's lock, since the fake's users, channels and messages live in memory. Typed moves are on.
"""
from __future__ import annotations

import asyncio
import signal
import time
from dataclasses import fields
from pathlib import Path
from typing import Any, Callable, TextIO

import games

from bot.app import GatekeeperBot
from bot.clock import Clock, RealClock
from bot.config import SandboxSettings, Settings
from fakediscord import FakeDiscord, patch_discord
from sandbox.harness import BotHarness
from fakediscord.web import WebClient
from bot.store import StoreError
from bot.store.sqlite import _claim as claim_database  # the Store's own single-process lock

GUILD = "Gatekeeper sandbox"
FIRST_USER = "Player 1"
# What the bot needs from the operator's settings; the rest is the sandbox's own (its fake
# Discord sends every guild at once, so the harness's short wait for late guilds applies).
_SANDBOX_OWNED = {"token", "db_path", "db_url", "api_base", "gateway_url", "dev_guild_id", "shard_ids",
                  "shard_count", "read_messages", "guild_ready_timeout"}


class Sandbox:
    """A seeded fake Discord (a guild with a channel per game and a first user), its web page,
    and the bot logged into it with its own database."""

    def __init__(self, settings: Settings, sandbox: SandboxSettings, clock: Clock | None = None,
                 seed: int | None = None, **overrides: Any) -> None:
        self.sandbox = sandbox
        self.clock = clock or RealClock()
        self.seed = seed
        # the operator's turn timeout, AI delay, render workers...; typed answers always on
        self.overrides = {f.name: getattr(settings, f.name) for f in fields(Settings)
                          if f.name not in _SANDBOX_OWNED}
        self.overrides.update(read_messages=True, **overrides)
        self.fake = FakeDiscord()
        self.guild = self.fake.add_guild(GUILD)
        self.channels = {name: self.fake.add_channel(self.guild.id, name).id
                         for name in ["general", *sorted(g.name for g in games.all_games())]}
        self.first_user = self.fake.add_user(FIRST_USER)
        self.fake.add_member(self.guild.id, self.first_user.id)
        self.web = WebClient(self.fake, self.guild.id, str(sandbox.db_path), self.clock.now,
                             game_in=self.running_game)
        self.harness: BotHarness | None = None
        self._restore: Callable[[], None] | None = None

    @property
    def bot(self) -> GatekeeperBot:
        assert self.harness is not None and self.harness.bot is not None, "the sandbox is not started"
        return self.harness.bot

    def running_game(self, channel_id: int) -> str | None:
        """The game being played in a channel (its commands lead the page's command list there)."""
        table = self.harness.bot.service.in_channel(channel_id) \
            if self.harness is not None and self.harness.bot is not None else None
        return table.game.name if table is not None and table.status == "running" else None

    @property
    def url(self) -> str:
        return f"{self.fake.base_url}/"

    async def start(self) -> None:
        """Listen, then log the bot in; returns once the page is served and the bot is ready."""
        fresh_database(self.sandbox.db_path)
        await self.fake.start(self.sandbox.port, extend=self.web.install)
        self._restore = patch_discord(self.fake)
        self.harness = BotHarness(self.fake, self.sandbox.db_path, self.clock, seed=self.seed,
                                  **self.overrides)
        await self.harness.start()

    async def stop(self) -> None:
        if self.harness is not None:
            await self.harness.stop()
        await self.fake.stop()
        if self._restore is not None:
            self._restore()


def fresh_database(db_path: Path) -> None:
    """The sandbox's Discord lives in memory, so its games cannot outlive a run: start each run
    with an empty database rather than games whose channels are gone. Refuses (StoreError) while
    another sandbox uses the file, under the same lock the bot's Store takes."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        lock = claim_database(db_path)
    except StoreError:
        raise StoreError(f"{db_path} is in use by another Gatekeeper sandbox: stop it, or give "
                         "this one its own GATEKEEPER_SANDBOX_DB.") from None
    with lock:
        for suffix in ("", "-wal", "-shm", ".heartbeat"):
            db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)


async def serve(settings: Settings, sandbox: SandboxSettings, started: float, out: TextIO) -> None:
    """Run the sandbox until SIGTERM or SIGINT, telling the user what to open."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    box = Sandbox(settings, sandbox)
    try:
        await box.start()
        print(banner(box.url, sandbox.db_path, time.perf_counter() - started), file=out, flush=True)
        await stop.wait()
    finally:
        await box.stop()


def banner(url: str, db_path: Path, seconds: float) -> str:
    return (f"Gatekeeper sandbox: the bot is playing on a local, Discord-compatible server "
            f"(not Discord).\n"
            f"  Open {url} in a browser (one tab per player).\n"
            f"  Games are kept in {db_path}, emptied at each start.\n"
            f"  Ready in {seconds:.1f} s. Ctrl-C stops it.\n"
            f"  To run the bot on Discord instead, set DISCORD_TOKEN (README: \"Getting a token\").")

"""Many concurrent two-person castle games on one bot, driven through the fake Discord."""
from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.table import Seat
from games.core import Rng, decide
from bot.fakediscord import FakeDiscord, patch_discord
from bot.fakediscord.harness import BotHarness, until

CHANNELS_PER_GUILD = 100


class Harness:
    def __init__(self, games: int, game: str = "castle", seats: int = 2,
                 latency: float = 0.0, db_url: str | None = None) -> None:
        self.games = games
        self.db_url = db_url  # a PostgreSQL database to use instead of a new SQLite file
        self.game = game
        self.seats = seats
        self.latency = latency  # seconds the fake Discord takes per REST request
        self.errors: list[str] = []
        self.done: dict[int, asyncio.Event] = {}
        self.publish_ms: list[float] = []
        self.act_ms: list[float] = []  # the bot's own time per move (see TableService.act)

    async def __aenter__(self) -> "Harness":
        self.tmp = tempfile.TemporaryDirectory()
        self.fake = FakeDiscord(keep_attachment_bytes=False, latency=self.latency)
        await self.fake.start()
        self.restore = patch_discord(self.fake)
        self.harness = BotHarness(self.fake, Path(self.tmp.name) / "bench.db", db_url=self.db_url)
        bot = await self.harness.start()
        self.service = bot.service
        act = self.service.act

        async def timed_act(*args, **kwargs):  # lock, checks, apply, commit, hand-off to the feed
            start = time.perf_counter()
            try:
                return await act(*args, **kwargs)
            finally:
                self.act_ms.append((time.perf_counter() - start) * 1000)

        self.service.act = timed_act  # type: ignore[method-assign]
        publish = bot.publisher.publish

        async def published(snapshot):  # a hook: the board reached the fake Discord
            start = time.perf_counter()
            await publish(snapshot)
            self.publish_ms.append((time.perf_counter() - start) * 1000)
            if snapshot.table.id in self.done:
                self.done[snapshot.table.id].set()

        bot.publisher.publish = published  # type: ignore[method-assign]
        self.tables = []
        guild = None
        semaphore = asyncio.Semaphore(50)

        async def create(index: int, guild_id: int, channel_id: int, users: list[int]):
            async with semaphore:
                table = self.service.open_lobby(
                    self.game, guild_id, channel_id, users[0], "A", seed=index,
                    seats=[Seat(f"P{n}", user) for n, user in enumerate(users)])
                await self.service.lobby(table.id, users[0], "A", "start")
                return table

        jobs = []
        for index in range(self.games):
            if index % CHANNELS_PER_GUILD == 0:
                guild = self.fake.add_guild(f"g{index}")
            channel = self.fake.add_channel(guild.id, f"c{index}")
            users = []
            for n in range(self.seats):
                user = self.fake.add_user(f"u{index}-{n}")
                self.fake.add_member(guild.id, user.id)
                users.append(user.id)
            jobs.append(create(index, guild.id, channel.id, users))
        self.tables = await asyncio.gather(*jobs)
        await self.fake.wait_for(lambda: all(self.fake.guilds), timeout=60)
        # every game's first board is published (outside the start) before anything is measured
        await until(lambda: not self.service._tasks, timeout=300, what="the first boards")
        # as the bot does after loading its games at start-up (GatekeeperBot.setup_hook)
        gc.collect()
        gc.freeze()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        gc.unfreeze()
        await self.harness.stop()
        self.restore()
        await self.fake.stop()
        self.tmp.cleanup()

    async def move(self, table) -> float | None:
        seat = table.game.to_move(table.state)
        if seat is None or table.status != "running":
            return None
        action = decide(table.game, table.state, seat, Rng(table.version), "random")
        user = table.seats[seat].user_id
        event = self.done[table.id] = asyncio.Event()
        start = time.perf_counter()
        ix = await self.fake.slash(user, table.channel_id, "move", {"action": action})
        try:
            await asyncio.wait_for(event.wait(), 10)
        except asyncio.TimeoutError:
            self.errors.append(f"game {table.id}: no board after {action!r}: {ix.errors}")
            return None
        finally:
            self.done.pop(table.id, None)
        return (time.perf_counter() - start) * 1000

    async def drive(self, moves: int, rate: float) -> list[float]:
        """Send `moves` moves at `rate` per second in all, round-robin over idle games."""
        latencies: list[float] = []
        busy: set[int] = set()
        tasks = []

        async def one(table) -> None:
            busy.add(table.id)
            try:
                latency = await self.move(table)
                if latency is not None:
                    latencies.append(latency)
            finally:
                busy.discard(table.id)

        start = time.perf_counter()
        cursor = 0
        for sent in range(moves):
            await asyncio.sleep(max(0.0, start + sent / rate - time.perf_counter()))
            for _ in range(len(self.tables)):
                table = self.tables[cursor % len(self.tables)]
                cursor += 1
                if table.id not in busy and table.status == "running":
                    tasks.append(asyncio.create_task(one(table)))
                    break
        await asyncio.gather(*tasks)
        return latencies

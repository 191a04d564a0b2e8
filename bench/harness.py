"""Many concurrent games on one bot, driven through the fake Discord; the move benchmark
(`bench_e2e`), which `gatekeeper bench` and the store comparison (bench.stores) run."""
from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from fakediscord import patch_discord
from sandbox.harness import BotHarness, until
from bot.table import Seat

from . import scenarios
from .figures import pct, rss_mb, workers_rss_mb
from .players import PlayersProcess
from .report import budget, produced_by

OWN_P99_MS = 20.0  # the bot's own time for a move, 99 times in 100, at its largest run


class Harness:
    """`games` tables of `game` (default: the first turn-based game, bench.scenarios) with
    a person in each of `seats` seats; the fake Discord and the people run in a process of their
    own (bench.players), so this process's event loop does only the bot's work."""

    def __init__(self, games: int, game: str | None = None, seats: int = 2,
                 latency: float = 0.0, db_url: str | None = None,
                 store_hook: Callable[[Any], None] | None = None) -> None:
        self.games = games
        self.store_hook = store_hook  # given the bot's store once it runs (bench.stores)
        self.db_url = db_url  # a PostgreSQL database to use instead of a new SQLite file
        self.game = game or scenarios.turn_based(seats)[0].name
        self.seats = seats
        self.latency = latency  # seconds the fake Discord takes per REST request
        self.errors: list[str] = []
        self.publish_ms: list[float] = []
        self.act_ms: list[float] = []  # the bot's own time per move (see TableService.act)
        self.lag_ms: list[float] = []  # how late the event loop woke a sleeper, while driven

    async def __aenter__(self) -> "Harness":
        self.tmp = tempfile.TemporaryDirectory()
        self.players = await PlayersProcess(self.games, self.seats, self.latency).__aenter__()
        self.restore = patch_discord(self.players)
        self.harness = BotHarness(self.players, Path(self.tmp.name) / "bench.db",
                                  db_url=self.db_url)
        bot = await self.harness.start()
        if self.store_hook is not None:
            self.store_hook(bot.store)
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

        async def published(snapshot):  # a hook: the board was handed to Discord
            start = time.perf_counter()
            await publish(snapshot)
            self.publish_ms.append((time.perf_counter() - start) * 1000)

        bot.publisher.publish = published  # type: ignore[method-assign]
        semaphore = asyncio.Semaphore(50)

        async def create(index: int, guild_id: int, channel_id: int, users: list[int]):
            async with semaphore:
                table = await self.service.open_lobby(
                    self.game, guild_id, channel_id, users[0], "A", seed=index,
                    seats=[Seat(f"P{n}", user) for n, user in enumerate(users)])
                await self.service.lobby(table.id, users[0], "A", "start")
                return table

        self.tables = await asyncio.gather(*(
            create(index, *place) for index, place in enumerate(self.players.world)))
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
        await self.players.__aexit__(*exc)
        self.tmp.cleanup()

    async def drive(self, moves: int, rate: float) -> list[float]:
        """`moves` moves at `rate` per second in all, round-robin over idle games, sent by the
        players' process; milliseconds from each slash command to its board."""
        watching = asyncio.create_task(self.watch_loop())
        try:
            latencies, errors = await self.players.drive(
                [(t.id, t.channel_id, t.game.name, t.seed, t.options,
                  [seat.user_id for seat in t.seats]) for t in self.tables], moves, rate)
        finally:
            watching.cancel()
        self.errors += errors
        return latencies

    async def watch_loop(self, every: float = 0.005) -> None:
        """Record how late the loop wakes a sleeper: how long a move whose commit has answered
        may wait before it runs again."""
        while True:
            start = time.perf_counter()
            await asyncio.sleep(every)
            self.lag_ms.append((time.perf_counter() - start - every) * 1000)


async def bench_e2e(concurrent: int, moves: int, rate: float, latency: float,
                    db_url: str | None = None,
                    store_hook: Callable[[Any], None] | None = None,
                    on_measure: Callable[[], None] | None = None) -> dict[str, Any]:
    """`concurrent` two-person games; `moves` typed moves spread over them at `rate` moves/s
    (on a new SQLite file, or on the PostgreSQL database `db_url`: bench.stores, whose
    `store_hook` sees the bot's store and `on_measure` is told when the moves begin).

    Latency: from the slash command leaving the fake client to the board message for that move
    arriving at the fake Discord (post or edit), i.e. the whole trip through discord.py and back.
    The bot's own time is `TableService.act`: the game's lock, the checks, the rules, the commit
    and the hand-off to the game's feed, on the event loop; Discord's round trips and rendering
    happen outside it (in the feed and the render worker). Loop lag: how late the bot's event
    loop wakes a 5 ms sleeper, the wait a move has each time it awaits something.
    """
    async with Harness(concurrent, latency=latency, db_url=db_url,
                       store_hook=store_hook) as harness:
        if on_measure is not None:  # the games are open: what follows is the moves'
            on_measure()
        latencies = await harness.drive(moves, rate)
        own = harness.act_ms
        return {"game": harness.game, "games": concurrent, "moves": len(latencies),
                "p50": pct(latencies, 50), "p99": pct(latencies, 99), "max": max(latencies, default=0.0),
                "rss_mb": rss_mb(), "latency_ms": latency * 1000, "own_p50": pct(own, 50),
                "own_p99": pct(own, 99), "lag_p50": pct(harness.lag_ms, 50),
                "lag_p99": pct(harness.lag_ms, 99), "workers_mb": workers_rss_mb(),
                "errors": harness.errors}


def own_budget(results: list[dict[str, Any]]) -> tuple[str, bool]:
    """The budget for the bot's own time, checked at the largest run without injected latency."""
    run = max((r for r in results if not r["latency_ms"]), key=lambda r: r["games"])
    return (f"own p99 <= {OWN_P99_MS:g} ms at {run['games']:,} games, {run['rate']:.0f} moves/s",
            run["own_p99"] <= OWN_P99_MS)


def moves_section(results: list[dict[str, Any]], command: str) -> list[str]:
    return [
        "## A move through the fake Discord",
        f"{produced_by(command)}. {budget(*own_budget(results))} "
        f"Two-person {results[0]['game']} games; `/move` over the gateway "
        "until the board reaches the fake Discord, with `latency` added to every REST request. "
        "Own: the bot's time for the move (`TableService.act`: lock, checks, rules, commit). Loop "
        "lag: how late the bot's event loop wakes a 5 ms sleeper. The fake Discord and the "
        "players run in a process of their own (bench.players), so the bot's loop does the "
        "bot's work alone. RSS: the bot process and its render worker.",
        "",
        "| games | moves | moves/s | latency ms | p50 ms | p99 ms | max ms | own p50 ms "
        "| own p99 ms | lag p50 ms | lag p99 ms | RSS MB | worker MB | errors |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: |",
        *(f"| {r['games']} | {r['moves']} | {r['rate']:.0f} | {r['latency_ms']:.0f} | "
          f"{r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['own_p50']:.2f} | "
          f"{r['own_p99']:.2f} | {r['lag_p50']:.2f} | {r['lag_p99']:.2f} | {r['rss_mb']:.0f} | "
          f"{r['workers_mb']:.0f} | {len(r['errors'])} |"
          for r in results),
    ]

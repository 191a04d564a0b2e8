"""100,000 stored games at a correspondence pace, most of them idle for hours, on SQLite and on
PostgreSQL: how soon the bot serves clicks after start, what an idle game costs in memory, and
how long the first click on a game that is not in memory takes (docs/performance.md, section
"idle").

The database is built once (`build`): copies of one started game of the first turn-based game
found by discovery (`scenarios.turn_based`), each in its own channel, their turns started at
spread times over the last day, so a few have a reminder or deadline due within the service's
LOAD_AHEAD and the rest are idle. The figures are taken in a fresh process (`measure`), so its
resident memory is the bot's and not the builder's: start-up is `TableService.load` (only the
games due soon are loaded), then clicks on games not in memory are each timed from `get` (the
load from the store) through `act` (apply and commit), which is what a button's interaction
waits for before its deferral; Discord's own round trips are not in it.

    python -m bench.idle_games [--games 100000] [--clicks 300] [--store sqlite|postgres|both]
        [--postgres URL] [--out docs/performance.md]

PostgreSQL: a new database on --postgres's server, or on a throw-away server (Debian's binaries).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from games.core import ai_rng, decide

from bot.clock import FakeClock, RealClock
from bot.store import Store
from bot.store.common import is_url
from bot.table import LOAD_AHEAD, TableService
from .databases import database
from .report import budget, produced_by, publish
from .scenarios import turn_based

DAY = 86400.0
CLICK_BUDGET = 3.0  # seconds: Discord's window to answer an interaction
START_BUDGET = 3.0  # seconds from start until clicks are served
IDLE_BUDGET = 5 * 1024  # bytes resident per idle game


class Quiet:
    """A publisher that shows nothing: the figures are the service's and the store's."""

    async def lobby_changed(self, table: Any) -> None: ...
    async def publish(self, snapshot: Any) -> None: ...
    async def timeout_warning(self, table: Any, seat: int) -> None: ...
    async def notice(self, table: Any, text: str) -> None: ...


async def template(path: Path, now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One started correspondence game's row and timers, to copy."""
    game = turn_based()[0]
    service = TableService(Store(path), Quiet(), FakeClock(now))
    table = await service.open_lobby(game.name, 1, 1, 11, "Ana",
                                     options={"pace": "correspondence"}, seed=1)
    await service.lobby(table.id, 12, "Bo", "join")
    await service.lobby(table.id, 11, "Ana", "start")
    row, timers = await service.store.game(table.id), await service.store.timers_of([table.id])
    await service.close()
    await service.store.close()
    return row, timers[table.id]


def build(target: str, count: int, now: float) -> None:
    """`count` copies of the template game; turn n started (n * 7919 mod a day) ago."""
    with tempfile.TemporaryDirectory() as scratch:
        row, timers = asyncio.run(template(Path(scratch) / "one.db", now))
    # one long transaction: PostgreSQL's store is given the time a bot's calls are not
    store = Store(target, answer_within=3600.0) if is_url(target) else Store(target)
    asyncio.run(copies(store, row, timers, count, now))


async def copies(store: Store, row: dict[str, Any], timers: list[dict[str, Any]], count: int,
                 now: float) -> None:
    """Insert the copies in one transaction: one commit, not one per game."""
    fields = {k: v for k, v in row.items() if k != "id"}
    async with store.transaction():
        for n in range(count):
            started = now - (n * 7919) % DAY
            shift = started - row["turn_started"]
            due = [{**t, "due_at": t["due_at"] + shift} for t in timers]
            sent = [t["timer_id"] for t in due if t["due_at"] <= now]  # reminders already sent
            game_id = await store.insert_game({**fields, "guild_id": 1 + n // 1000,
                                         "channel_id": 10_000 + n, "turn_started": started,
                                         "updated_at": started, "created_at": started,
                                         "reminded": sent})
            await store._execute_many(
                "INSERT INTO timers (game_id, timer_id, due_at, kind, payload) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, t["timer_id"], t["due_at"], t["kind"], json.dumps(t["payload"]))
                 for t in due if t["due_at"] > now])
    await store.close()


def resident() -> int:
    """This process's resident memory, in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise OSError("no VmRSS in /proc/self/status")


async def measure(target: str, clicks: int) -> dict[str, Any]:
    began = time.perf_counter()
    store = Store(target)
    stored = (await store._rows("SELECT COUNT(*) AS n FROM games WHERE status = 'running'"))[0]["n"]
    # Paid once whatever the number of games: the engine's modules and data, read with the
    # first game (counted in the start-up time, not in the memory per game).
    first = (await store._rows("SELECT id FROM games ORDER BY id LIMIT 1"))[0]["id"]
    await TableService(store, Quiet(), RealClock()).get(first)
    warm = time.perf_counter() - began
    before = resident()
    began = time.perf_counter()
    service = TableService(store, Quiet(), RealClock(), ai_delay=3600.0)
    loaded = await service.load()
    started = warm + time.perf_counter() - began
    memory = resident() - before
    running = await store._rows("SELECT id FROM games WHERE status = 'running'")
    unloaded = [r["id"] for r in running if r["id"] not in service.tables]
    times = []
    for game_id in random.Random(1).sample(unloaded, min(clicks, len(unloaded))):
        began = time.perf_counter()
        table = await service.get(game_id)
        seat = table.game.to_move(table.state)
        action = decide(table.game, table.state, seat, ai_rng(game_id, table.version))
        await service.act(game_id, table.seats[seat].user_id, action, None, source="bench")
        times.append(time.perf_counter() - began)
    await service.close()
    await store.close()
    times.sort()
    return {"stored": stored, "loaded": loaded, "start": started, "warm": warm, "memory": memory,
            "per_game": memory / max(stored, 1), "clicks": len(times),
            "p50": times[len(times) // 2], "p99": times[min(len(times) - 1, len(times) * 99 // 100)],
            "max": times[-1], "load_ahead": LOAD_AHEAD}


STORES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def section(figures: dict[str, dict[str, Any]], command: str) -> list[str]:
    """The figures of each store measured (`figures`: store -> measure's result)."""
    stores = list(figures)
    first = figures[stores[0]]

    def row(label: str, show: Any) -> str:
        return f"| {label} | " + " | ".join(show(figures[s]) for s in stores) + " |"

    return [
        "## Idle games at scale",
        f"{produced_by(command)}. "
        + " ".join((budget("serving clicks within 3 s of start",
                           all(f["start"] <= START_BUDGET for f in figures.values())),
                    budget("at most 5 KB resident per idle game",
                           all(f["per_game"] <= IDLE_BUDGET for f in figures.values())),
                    budget("first click on an unloaded game within 3 s (p99)",
                           all(f["p99"] <= CLICK_BUDGET for f in figures.values()))))
        + f" {first['stored']:,} running games stored at a correspondence "
        "pace, their turns started at spread times over the last day; at start-up only those "
        f"with a timer due within {first['load_ahead'] / 60:.0f} minutes are loaded (their "
        "timers and message ids read 500 games per round trip). PostgreSQL runs on the same "
        "machine (loopback).",
        "",
        "| figure | " + " | ".join(STORES[s] for s in stores) + " |",
        "| --- |" + " ---: |" * len(stores),
        row("games loaded at start-up", lambda f: f"{f['loaded']:,} of {f['stored']:,}"),
        row("start-up until clicks are served: the store opened and the engine warmed, then "
            "`TableService.load`", lambda f: f"{f['warm']:.2f} + {f['start'] - f['warm']:.2f} s"),
        row("resident memory after start-up, per stored game",
            lambda f: f"{f['per_game']:.0f} bytes ({f['memory'] / 2**20:.1f} MiB in all)"),
        row(f"first click on a game not in memory (load, apply, commit): p50 / p99 / max of "
            f"{first['clicks']}",
            lambda f: f"{f['p50'] * 1000:.1f} / {f['p99'] * 1000:.1f} / {f['max'] * 1000:.1f} ms"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="a server where this may CREATE DATABASE (default: a throw-away one)")
    parser.add_argument("--out", type=Path, default=Path("docs/performance.md"))
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the fresh process's database
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if args.measure is not None:
        print(json.dumps(asyncio.run(measure(args.measure, args.clicks))))
        return 0
    figures = {}
    for store in ("sqlite", "postgres") if args.store == "both" else (args.store,):
        with tempfile.TemporaryDirectory() as home, \
                database(store, Path(home), args.postgres) as target:
            began = time.perf_counter()
            build(target, args.games, time.time())
            print(f"{store}: built {args.games:,} games in {time.perf_counter() - began:.1f} s",
                  flush=True)
            out = subprocess.run([sys.executable, "-m", "bench.idle_games", "--measure",
                                  target, "--clicks", str(args.clicks)],
                                 check=True, capture_output=True, text=True).stdout
        figures[store] = json.loads(out.strip().splitlines()[-1])
        print(f"{store}: {figures[store]}", flush=True)
    command = "python -m bench.idle_games" + \
        (f" --games {args.games}" if args.games != 100_000 else "") + \
        (f" --store {args.store}" if args.store != "both" else "")
    publish(args.out, "idle", section(figures, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())

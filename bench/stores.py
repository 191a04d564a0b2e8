"""The move benchmark on both stores: the same end-to-end run (bench.harness.bench_e2e) on a
new SQLite file and on a PostgreSQL database, to show what the shared store costs a move ("own"
columns: the bot's time per move, lock to hand-off, commit included; on PostgreSQL the commit's
round trip is awaited, so other games run meanwhile).

Then the same run on PostgreSQL through a proxy that holds each of the server's answers back
(bench.delayproxy), first for no time, then for `INJECTED` seconds: a move's own time may
rise by its round trips (counted by `RoundTrips`, a hook on the store) times the latency the
proxy delivered (a lone client's round trip through it, measured first), and no more; nor may
the games' clicks. And
whether SQLite's calls belong on the event loop: a save there against a hop to a thread.

Run: `python -m bench.stores postgresql://user@host:port/database [--out FILE]` with a user
that may create databases: each run gets a new, empty one (gk_bench_<n>), dropped afterwards.
Writes the `stores` and `store-latency` sections of docs/performance.md under the current
directory (or FILE).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .databases import empty_database
from .delayproxy import DelayProxy
from .figures import pct
from .harness import bench_e2e, own_budget
from .report import budget, produced_by, write_section

RUNS = [(1, 200, 20.0), (100, 1000, 50.0), (1000, 1500, 50.0)]  # games, moves, moves/s
LATENCY_RUN = (100, 1000, 50.0)
LATENCY_REPEATS = 5  # runs without and with the injected latency, in turn
INJECTED = 0.005  # seconds added to every round trip to PostgreSQL in the latency run
LONE_TRIPS = 1000  # round trips of a lone client, to see the latency the proxy delivers


class RoundTrips:
    """A hook on a PostgreSQL store (Harness' store_hook) that counts the statements it sends;
    message rows written behind (off the move's path) are counted apart."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Count from now (the moves, not the opening of the games)."""
        self.moves = 0  # statements of moves (and of anything else on their path)
        self.behind = 0  # batches of message rows

    def __call__(self, store: Any) -> None:
        for name in ("_execute", "_execute_many", "_rows"):
            setattr(store, name, self._counted(getattr(store, name)))

    def _counted(self, send: Any) -> Any:
        async def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
            if sql.startswith("INSERT INTO messages"):
                self.behind += 1
            else:
                self.moves += 1
            return await send(sql, *args, **kwargs)
        return counted


def compare(server_url: str, runs: list[tuple[int, int, float]] = RUNS) -> list[dict[str, Any]]:
    results = []
    for index, (games, moves, rate) in enumerate(runs):
        gc.collect()
        sqlite = asyncio.run(bench_e2e(games, moves, rate, 0.0))
        with empty_database(server_url, f"gk_bench_{index}") as url:
            gc.collect()
            postgres = asyncio.run(bench_e2e(games, moves, rate, 0.0, db_url=url))
        for store, result in (("SQLite", sqlite), ("PostgreSQL", postgres)):
            results.append({**result, "store": store, "rate": rate})
            print(f"{store} {games} games: {result}", file=sys.stderr, flush=True)
    return results


def with_latency(server_url: str, run: tuple[int, int, float] = LATENCY_RUN,
                 repeats: int = LATENCY_REPEATS) -> list[dict[str, Any]]:
    """The move benchmark on PostgreSQL through the delay proxy: without, then with, INJECTED
    per round trip, `repeats` times in turn (the machine's own hiccups fall on both); before
    each, the round trip a lone client meets through the same proxy (the latency as the
    network delivers it, jitter included)."""
    games, moves, rate = run
    results = []
    for index, delay in enumerate([0.0, INJECTED] * repeats):
        trips = RoundTrips()
        with empty_database(server_url, f"gk_bench_latency_{index}") as url, \
                DelayProxy(url, delay) as slower:
            alone = asyncio.run(lone_round_trips(slower))
            gc.collect()
            result = asyncio.run(bench_e2e(games, moves, rate, 0.0, db_url=slower,
                                           store_hook=trips, on_measure=trips.reset))
        results.append({**result, "rate": rate, "injected_ms": delay * 1000,
                        "trips": trips.moves, "behind": trips.behind,
                        "alone_p50": pct(alone, 50), "alone_p99": pct(alone, 99)})
        print(f"PostgreSQL +{delay * 1000:g} ms: {results[-1]}", file=sys.stderr, flush=True)
    return results


async def lone_round_trips(url: str, count: int = LONE_TRIPS) -> list[float]:
    """Milliseconds per round trip of one client alone on `url`: a small statement at a time,
    as a move's save (one statement, one answer)."""
    import psycopg
    times = []
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        for n in range(count):
            began = time.perf_counter()
            await (await conn.execute("SELECT %s::int", [n])).fetchone()
            times.append((time.perf_counter() - began) * 1000)
    return times


async def loop_or_thread(saves: int = 2000) -> dict[str, float]:
    """A SQLite save made on the event loop, and the same save handed to a worker thread (the
    store's coroutines never wait, so a thread can run one to its end): milliseconds per save
    one after another, and the longest 1% of the gaps another coroutine sees between two of its
    turns meanwhile (how long the loop is held)."""
    from bot.store import Store
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "loop.db")
        game_id = await store.insert_game({"guild_id": 1, "status": "running", "version": 0})
        version = 0

        def save() -> Any:
            nonlocal version
            version += 1
            return store.save_game(
                game_id, {"version": version, "state": "{}"}, expect_version=version - 1,
                actions=[{"game_id": game_id, "seq": version, "seat": 0, "user_id": 1,
                          "action": "stay", "source": "button", "interaction_id": version,
                          "at": 0.0}],
                timers=[{"timer_id": "timeout", "kind": "timeout", "due_at": 1.0,
                         "payload": {"seat": 0}}])

        async def on_loop() -> None:
            await save()

        async def on_thread() -> None:
            await asyncio.to_thread(run_to_end, save())

        for name, one in (("loop", on_loop), ("thread", on_thread)):
            gaps: list[float] = []
            done = asyncio.Event()

            async def other() -> None:
                last = time.perf_counter()
                while not done.is_set():
                    await asyncio.sleep(0)
                    now = time.perf_counter()
                    gaps.append(now - last)
                    last = now
            watcher = asyncio.create_task(other())
            start = time.perf_counter()
            for _ in range(saves):
                await one()
                await asyncio.sleep(0)  # the other coroutine's turn, as between two moves
            results[f"{name}_ms"] = (time.perf_counter() - start) / saves * 1000
            done.set()
            await watcher
            results[f"{name}_gap_p99_ms"] = pct([g * 1000 for g in gaps], 99)
        await store.close()
    return results


def run_to_end(coroutine: Any) -> Any:
    """A coroutine that never waits (a SQLite store call), run to its end outside a loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("the store call waited: it cannot run outside the event loop")


def latency_allowance(results: list[dict[str, Any]]) -> dict[str, float]:
    """What the slower network may add to a move at p99: its round trips per move times the
    latency the proxy delivered at p99 (a lone client's round trip, with less without). Each
    figure is the median of the runs with, and of the runs without."""
    def median(injected: bool, key: str) -> float:
        return statistics.median(r[key] for r in results if bool(r["injected_ms"]) == injected)

    def rise(key: str) -> float:
        return median(True, key) - median(False, key)

    slow = [r for r in results if r["injected_ms"]]
    per_move = sum(r["trips"] for r in slow) / max(1, sum(r["moves"] for r in slow))
    return {"per_move": per_move, "added_p50": rise("alone_p50"), "added_p99": rise("alone_p99"),
            "allowed": per_move * rise("alone_p99"), "own_rise": rise("own_p99"),
            "click_rise": rise("p99")}


def latency_section(results: list[dict[str, Any]], sqlite: dict[str, float],
                    command: str) -> list[str]:
    """The runs without and with the latency side by side, and their medians: the budget's
    figures (rises, round trips, latency delivered) are read from the median row."""
    bar = latency_allowance(results)
    met = bar["own_rise"] <= bar["allowed"] and bar["click_rise"] <= bar["allowed"]
    columns = {"alone p50 ms": ("alone_p50", ".2f"), "alone p99 ms": ("alone_p99", ".2f"),
               "moves": ("moves", "g"), "round trips per move": ("per_move", ".2f"),
               "behind batches": ("behind", "g"), "p50 ms": ("p50", ".1f"),
               "p99 ms": ("p99", ".1f"), "own p50 ms": ("own_p50", ".2f"),
               "own p99 ms": ("own_p99", ".2f"), "lag p99 ms": ("lag_p99", ".2f"),
               "errors": ("errors", "g")}

    def figures(r: dict[str, Any]) -> dict[str, float]:
        worked_out = {"per_move": r["trips"] / max(1, r["moves"]), "errors": len(r["errors"])}
        return {key: worked_out[key] if key in worked_out else r[key]
                for key, _ in columns.values()}

    def median(runs: list[dict[str, float]]) -> dict[str, float] | None:
        return {key: statistics.median(r[key] for r in runs) for key in runs[0]} if runs else None

    def row(label: str, pair: tuple[dict[str, float] | None, ...]) -> str:
        return f"| {label} | " + " | ".join(
            " / ".join("-" if r is None else format(r[key], shown) for r in pair)
            for key, shown in columns.values()) + " |"

    without = [figures(r) for r in results if not r["injected_ms"]]
    slow = [figures(r) for r in results if r["injected_ms"]]
    runs = [(without[n] if n < len(without) else None, slow[n] if n < len(slow) else None)
            for n in range(max(len(without), len(slow)))]
    return [
        "## PostgreSQL with a slower network",
        f"{produced_by(command)}. Budget: own and click-to-board p99 rise (medians, with against "
        f"without: {bar['own_rise']:+.1f} and {bar['click_rise']:+.1f} ms) by no more than round "
        f"trips per move x the latency delivered at p99 ({bar['per_move']:.2f} x "
        f"{bar['added_p99']:+.1f} = {bar['allowed']:.1f} ms): {'met' if met else '**not met**'}.",
        f"Runs of {results[0]['games']} games at {results[0]['rate']:.0f} moves/s on PostgreSQL "
        "through bench.delayproxy (a process of its own that holds each server answer for no "
        f"time, then {INJECTED * 1000:g} ms), taken in turn; each cell: without / with. Alone: "
        f"a lone client's round trip through the proxy ({LONE_TRIPS:,} small statements), "
        "jitter included. Round trips: statements the bot sends while the moves are played "
        "(`RoundTrips`); message rows are written behind, in batches, off the move's path. "
        "p50/p99: click to board, every game's clicks; own: the bot's time per move; lag: how "
        "late the bot's loop woke a 5 ms sleeper.",
        "",
        "| run | " + " | ".join(columns) + " |",
        "| --- |" + " ---: |" * len(columns),
        *(row(str(n + 1), pair) for n, pair in enumerate(runs)),
        row("median", (median(without), median(slow))),
        "",
        f"SQLite, a save (update, action row, timer) after another: "
        f"{sqlite['loop_ms']:.3f} ms on the event loop, {sqlite['thread_ms']:.3f} ms through a "
        f"worker thread; another coroutine's longest 1% of waits meanwhile: "
        f"{sqlite['loop_gap_p99_ms']:.3f} ms and {sqlite['thread_gap_p99_ms']:.3f} ms. "
        + ("SQLite's calls stay on the loop." if sqlite["loop_ms"] <= sqlite["thread_ms"] else
           "A thread would be cheaper."),
    ]


def section(results: list[dict[str, Any]], command: str) -> list[str]:
    checks = [own_budget([r for r in results if r["store"] == store])
              for store in ("SQLite", "PostgreSQL")]
    sqlite = [r for r in results if r["store"] == "SQLite"]
    postgres = [r for r in results if r["store"] == "PostgreSQL"]

    def both(n: int, show: Any) -> str:
        return " / ".join("-" if n >= len(runs) else show(runs[n]) for runs in (sqlite, postgres))

    columns = (("moves", lambda r: f"{r['moves']}"), ("moves/s", lambda r: f"{r['rate']:.0f}"),
               ("p50 ms", lambda r: f"{r['p50']:.1f}"), ("p99 ms", lambda r: f"{r['p99']:.1f}"),
               ("own p50 ms", lambda r: f"{r['own_p50']:.2f}"),
               ("own p99 ms", lambda r: f"{r['own_p99']:.2f}"),
               ("errors", lambda r: f"{len(r['errors'])}"))
    return [
        "## SQLite and PostgreSQL",
        f"{produced_by(command)}, PostgreSQL on the same machine (loopback). "
        + budget(checks[0][0] + ", on both stores", all(met for _, met in checks))
        + " The move benchmark "
        "above on a new SQLite file, then on a new PostgreSQL database; own: the bot's time per "
        "move, the commit included (on PostgreSQL awaited: other games run meanwhile). Each "
        "cell: SQLite / PostgreSQL.",
        "",
        "| games | " + " | ".join(name for name, _ in columns) + " |",
        "| ---: |" + " ---: |" * len(columns),
        *(f"| {next(runs[n] for runs in (sqlite, postgres) if n < len(runs))['games']} | "
          + " | ".join(both(n, show) for _, show in columns) + " |"
          for n in range(max(len(sqlite), len(postgres)))),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.stores")
    parser.add_argument("server", help="postgresql://user@host:port/database (may CREATE DATABASE)")
    parser.add_argument("--out", type=Path, default=Path("docs") / "performance.md")
    args = parser.parse_args()
    command = "python -m bench.stores postgresql://..."
    lines = section(compare(args.server), command)
    write_section(args.out, "stores", lines)
    print("\n".join(lines))
    lines = latency_section(with_latency(args.server), asyncio.run(loop_or_thread()), command)
    write_section(args.out, "store-latency", lines)
    print("\n".join(lines))

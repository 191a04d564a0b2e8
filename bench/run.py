"""`gatekeeper bench`: engine self-play speed, render+encode time, moves through the fake Discord
under load, timers under load, restart and memory per game, replays.

Each part writes its own section of docs/performance.md (relative to the current directory, or
the file given with --out) as soon as it is measured (bench.report); the soaks and the store
comparison write theirs from their own commands. Every discovered game is measured
(bench.scenarios), a plugin's included.

Run: `gatekeeper bench` (or `python -m bench.run`). `--quick` shrinks every run (about a
minute); `--smoke` runs each part once at toy size (seconds): it checks the benchmark works, and
its figures mean nothing. `--only engine,render`: those parts alone (PARTS names them).
"""
from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import games
from games.core import Rng, count, decide

from . import replay_timing, scenarios
from .figures import pct, rss_mb, workers_rss_mb
from .harness import Harness, bench_e2e, moves_section
from .report import budget, produced_by, write_section

RENDER_P95_MS = 10.0  # a board renders and encodes within this, 95 times in 100
LATE_P99_MS = 100.0  # a timer fires at most this late, 99 times in 100


# -- engine ----------------------------------------------------------------------------------------
def bench_engines(games_count: int) -> list[dict[str, Any]]:
    """AI self-play speed (bench.selfplay) for every game and every AI level it has."""
    from .selfplay import measure
    results = []
    for game in games.all_games():
        for level in game.ai_levels:
            print(f"engine {game.name} {level}...", flush=True)
            results.append(measure(game.name, level, games_count))
            print(results[-1], flush=True)
    return results


def bench_strength(games_count: int) -> dict[str, dict[str, Any]]:
    """Smart against easy (bench.strength) in every game, by game name."""
    from .strength import match
    results = {}
    for game in games.all_games():
        print(f"strength {game.name} smart vs easy...", flush=True)
        results[game.name] = match(game.name, games_count)
        print(results[game.name], flush=True)
    return results


def engine_section(results: list[dict[str, Any]], command: str,
                   strength: dict[str, dict[str, Any]]) -> list[str]:
    """A row per game, a pair of columns per AI level ("-" where a game has no such level), then
    smart's and easy's shares of the games won when they meet (`strength`)."""
    from .strength import LIMIT, cell, holds
    levels = list(dict.fromkeys(r["level"] for r in results))
    by_game: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_game.setdefault(r["game"], {})[r["level"]] = r

    def cells(r: dict[str, Any] | None) -> str:
        return "- | -" if r is None else f"{r['games_per_s']:.1f} | {r['turns_per_s']:.0f}"

    return [
        "## Engine: AI self-play",
        f"{produced_by(command)}. Games and turns per CPU second of the benchmark process (other "
        "load does not count), seeds 1000 on, every player count in turn, that AI in every seat; "
        f"games per game and level: {results[0]['games']}. "
        + budget(LIMIT, all(holds(r) for name, r in strength.items() if games.get(name).easy))
        + " Smart vs easy: shares of "
        f"{count(next(iter(strength.values()))['games'], 'game')} won, two players (Atmosfear: smart and "
        "two easy) rotating through the seats, seeds 1 on; the rest had no winner.",
        "",
        "| game | " + " | ".join(f"{level} games/s | {level} turns/s" for level in levels)
        + " | smart vs easy |",
        "| --- |" + " ---: | ---: |" * len(levels) + " --- |",
        *(f"| {game} | " + " | ".join(cells(played.get(level)) for level in levels)
          + f" | {cell(strength.get(game))} |" for game, played in by_game.items()),
    ]


# -- render ----------------------------------------------------------------------------------------
def bench_render(game_name: str, samples: int) -> dict[str, Any]:
    """Render+encode times of mid-game public views through the game's declared renderer, and
    against a naive full redraw where the game's render module keeps one for comparison."""
    from bot.rendering import draw
    from bot.simulate import play
    game = games.get(game_name)
    module = game.hook("renderer").__module__
    naive = getattr(__import__(module, fromlist=["_"]), f"render_{game_name}_naive", None)
    sizes = range(game.min_seats, game.max_seats + 1)
    views = []
    for index in range(min(20, samples)):
        state = play(game_name, sizes[index % len(sizes)], 50 + index, max_actions=30 + index * 3)
        view = game.view(state, None)
        view["names"] = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][: state.seats]
        views.append(view)
    result: dict[str, Any] = {"game": game_name}
    for name, fn in (("cached", draw), ("naive", naive)):
        if fn is None:
            continue
        fn(views[0])  # warm caches and fonts
        times, sizes = [], []
        for index in range(samples):
            view = views[index % len(views)]
            t0 = time.perf_counter()
            png = fn(view)
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(png))
        result[name] = {"p50": pct(times, 50), "p95": pct(times, 95),
                        "bytes_mean": statistics.mean(sizes), "bytes_max": max(sizes)}
    return result


def render_section(results: list[dict[str, Any]], command: str) -> list[str]:
    rows = []
    for r in results:
        cached, naive = r["cached"], r.get("naive")
        rows.append(f"| {r['game']} | {cached['p50']:.2f} | {cached['p95']:.2f} | "
                    f"{cached['bytes_mean']:.0f} | {cached['bytes_max']} | "
                    f"{'-' if naive is None else format(naive['p50'], '.2f')} |")
    return [
        "## Board render + PNG encode",
        f"{produced_by(command)}. "
        + budget(f"p95 <= {RENDER_P95_MS:g} ms for every game",
                 all(r["cached"]["p95"] <= RENDER_P95_MS for r in results))
        + " Mid-game public views through the game's renderer (cached layers, palette PNG). "
        "Naive: a full redraw saved with Pillow's defaults, where the render module keeps one.",
        "",
        "| game | p50 ms | p95 ms | mean PNG bytes | max PNG bytes | naive p50 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        *rows,
    ]


# -- timers ----------------------------------------------------------------------------------------
async def bench_timers(concurrent: int, seconds: float) -> dict[str, Any]:
    """Games of the first discovered game with timers of its own (bench.scenarios), people
    in every seat: each table is played by the AI until its game sets a timer, then left idle,
    so only the game's timers act, each firing published. Lateness is the real time between a
    timer's due time and its action being applied on the bot's event loop."""
    game = scenarios.timed()
    async with Harness(concurrent, game=game.name, seats=game.min_seats) as harness:
        service = harness.service
        semaphore = asyncio.Semaphore(50)

        async def until_timed(table) -> None:
            async with semaphore:
                while not game.timers(table.state):
                    seat = game.to_move(table.state)
                    action = decide(game, table.state, seat, Rng(table.version), "random")
                    await service.act(table.id, table.seats[seat].user_id, action, None,
                                      source="bench")
        await asyncio.gather(*(until_timed(t) for t in harness.tables))
        service.lateness.clear()
        harness.publish_ms.clear()
        await asyncio.sleep(seconds)
        late = [x * 1000 for x in service.lateness]
        return {"game": game.name, "games": concurrent, "seconds": seconds, "timers": len(late),
                "p50": pct(late, 50), "p99": pct(late, 99), "max": max(late, default=0.0),
                "publish_p99": pct(harness.publish_ms, 99), "rss_mb": rss_mb(),
                "workers_mb": workers_rss_mb()}


def timers_section(t: dict[str, Any], command: str) -> list[str]:
    return [
        "## Timers under load",
        f"{produced_by(command)}. " + budget(f"late p99 < {LATE_P99_MS:g} ms", t["p99"] < LATE_P99_MS)
        + f" Games of {t['game']} with idle people, so only the game's own timers act, each firing "
        "published through the fake Discord. Late: from the due time to the action applied; "
        "publish: from then until Discord has the board (outside the game's lock).",
        "",
        "| game | games | seconds | timers fired | late p50 ms | late p99 ms | late max ms "
        "| publish p99 ms | RSS MB | worker MB |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {t['game']} | {t['games']} | {t['seconds']:.0f} | {t['timers']} | {t['p50']:.1f} | "
        f"{t['p99']:.1f} | {t['max']:.1f} | {t['publish_p99']:.0f} | {t['rss_mb']:.0f} | "
        f"{t['workers_mb']:.0f} |",
    ]


# -- restart ---------------------------------------------------------------------------------------
def bench_restart(count: int) -> dict[str, Any]:
    """`count` running two-person games stored, then loaded with their timers re-armed by a new
    `TableService`, as at a restart: how long it takes and the memory the games hold."""
    from bot.clock import FakeClock
    from bot.store import Store
    from bot.store.common import encode
    from bot.table import LOAD_AHEAD, Seat, Table, TableService
    from games.core import setup

    class Quiet:
        async def lobby_changed(self, table): ...
        async def publish(self, snapshot): ...
        async def timeout_warning(self, table, seat): ...
        async def notice(self, table, text): ...

    game = scenarios.turn_based()[0]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        clock = FakeClock()
        rows, timers = [], []
        for index in range(count):
            state = setup(game, 2, {}, index)
            table = Table(id=index + 1, guild_id=1, channel_id=10_000 + index, game=game, host_id=1,
                          seed=index, options={}, seats=[Seat("A", 1), Seat("B", 2)],
                          status="running", state=state)
            rows.append({**table.row(), "id": index + 1, "created_at": 0.0, "updated_at": 0.0})
            timers.append({"game_id": index + 1, "timer_id": "timeout", "kind": "timeout",
                           # due soon, so a restart loads every game (idle ones would wait in
                           # the store: bench.idle_games measures those)
                           "due_at": clock.now() + LOAD_AHEAD / 2,
                           "payload": '{"seat":0,"turn":0,"version":0}'})

        async def fill() -> None:
            async with store.transaction():
                store.db["games"].insert_all(encode(r) for r in rows)
                store.db["timers"].insert_all(timers)
            await store.close()
        asyncio.run(fill())

        async def load() -> tuple[int, float, float]:
            gc.collect()
            before = rss_mb()
            t0 = time.perf_counter()
            service = TableService(Store(Path(tmp) / "bench.db"), Quiet(), clock)
            loaded = await service.load()
            seconds = time.perf_counter() - t0
            gc.collect()
            return loaded, seconds, rss_mb() - before
        loaded, seconds, grew = asyncio.run(load())
    return {"game": game.name, "games": loaded, "seconds": seconds,
            "mb_per_1000": grew / loaded * 1000}


def restart_section(r: dict[str, Any], command: str) -> list[str]:
    return [
        "## Restart and memory per game",
        f"{produced_by(command)}. Running two-person games stored, then loaded and their timers "
        "re-armed by a new `TableService`, as at a restart; memory: the process's growth.",
        "",
        "| game | games | load s | MB per 1,000 games |",
        "| --- | ---: | ---: | ---: |",
        f"| {r['game']} | {r['games']} | {r['seconds']:.2f} | {r['mb_per_1000']:.1f} |",
    ]


# How big each run is: concurrent games, moves and rate for the end-to-end runs; games and real
# seconds for the timers; stored games for the restart; games and samples per game for the
# engine, smart against easy, and the renderer.
SIZES: dict[str, dict[str, Any]] = {
    "full": {"e2e": [(1, 100, 10.0, 0.0), (100, 500, 50.0, 0.0), (1000, 1500, 50.0, 0.0),
                     (1000, 1500, 50.0, 0.1)], "timers": (1000, 150),
             "restart": 10_000, "engine": 200, "strength": 400, "render": 400},
    "quick": {"e2e": [(1, 20, 10.0, 0.0), (10, 50, 20.0, 0.0), (10, 50, 20.0, 0.1)],
              "timers": (20, 40), "restart": 500, "engine": 20, "strength": 40, "render": 50},
    "smoke": {"e2e": [(1, 5, 20.0, 0.0)], "timers": (2, 1), "restart": 20, "engine": 1, "strength": 1,
              "render": 2},
}


PARTS = ("moves", "timers", "restart", "engine", "render", "replays")


def main(size: str = "full", out: Path | None = None, parts: tuple[str, ...] = PARTS) -> int:
    """Run the benchmarks `parts` (every one by default) at `size` ("full", "quick" or
    "smoke"), each rewriting its section of `out` (default: docs/performance.md under the
    current directory). Exit status 1 if a move was lost."""
    plan = SIZES[size]
    out = out or Path("docs") / "performance.md"
    command = "gatekeeper bench" + ("" if size == "full" else f" --{size}") + (
        "" if set(PARTS) <= set(parts) else f" --only {','.join(parts)}")
    moves = []
    if "moves" in parts:
        for games_count, count, rate, latency in plan["e2e"]:
            print(f"e2e {games_count} games, {latency * 1000:.0f} ms latency...", flush=True)
            gc.collect()
            moves.append({**asyncio.run(bench_e2e(games_count, count, rate, latency)),
                          "rate": rate})
            print(moves[-1], flush=True)
        write_section(out, "moves", moves_section(moves, command))
    if "timers" in parts:
        print("timers...", flush=True)
        gc.collect()
        write_section(out, "timers", timers_section(asyncio.run(bench_timers(*plan["timers"])),
                                                    command))
    if "restart" in parts:
        print("restart...", flush=True)
        write_section(out, "restart", restart_section(bench_restart(plan["restart"]), command))
    if "engine" in parts:
        write_section(out, "engine", engine_section(bench_engines(plan["engine"]), command,
                                                    bench_strength(plan["strength"])))
    if "render" in parts:
        rendered = []
        for game in games.all_games():
            print(f"render {game.name}...", flush=True)
            rendered.append(bench_render(game.name, plan["render"]))
            print(rendered[-1], flush=True)
        write_section(out, "render", render_section(rendered, command))
    if "replays" in parts:
        write_section(out, "replays", replay_timing.section(replay_timing.run(size), command))
    print(out.read_text())
    return 1 if any(r["errors"] for r in moves) else 0


if __name__ == "__main__":
    raise SystemExit(main(next((a[2:] for a in sys.argv[1:] if a in ("--quick", "--smoke")), "full")))

"""The move benchmark on both stores: the same end-to-end run (bot.bench.harness.bench_e2e) on a
new SQLite file and on a PostgreSQL database, to show what the shared store costs a move. The bot
calls the store synchronously on its event loop, so a database round trip is paid inside the
move ("own" columns: the bot's time per move, lock to hand-off, commit included).

Round trips, not the server's work, make PostgreSQL's cost: a move is the interaction check and a
save (BEGIN, UPDATE .. WHERE version, INSERT action, DELETE and INSERT timers, COMMIT), each a
round trip that also waits for the server process to be scheduled. Alone, a save costs about
0.6 ms on PostgreSQL against 0.07 ms on SQLite (loopback, 2026-11-24).

Run: `python -m bot.bench.stores postgresql://user@host:port/database [--out FILE]` with a user
that may create databases: each run gets a new, empty one (gk_bench_<n>), dropped afterwards.
Writes the `stores` section of docs/performance.md under the current directory (or FILE).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import psycopg

from .harness import bench_e2e, own_budget
from .report import budget, produced_by, write_section

RUNS = [(1, 200, 20.0), (100, 1000, 50.0), (1000, 1500, 50.0)]  # games, moves, moves/s


@contextmanager
def empty_database(server_url: str, name: str) -> Iterator[str]:
    """A new database on the server of `server_url`; its URL. Dropped afterwards."""
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlsplit(server_url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


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


def section(results: list[dict[str, Any]], command: str) -> list[str]:
    checks = [own_budget([r for r in results if r["store"] == store])
              for store in ("SQLite", "PostgreSQL")]
    return [
        "## SQLite and PostgreSQL",
        f"{produced_by(command)}, PostgreSQL on the same machine (loopback). "
        + budget(checks[0][0] + ", on both stores", all(met for _, met in checks))
        + " The move benchmark "
        "above on a new SQLite file, then on a new PostgreSQL database; own: the bot's time per "
        "move, the commit included, spent on the event loop.",
        "",
        "| store | games | moves | moves/s | p50 ms | p99 ms | own p50 ms | own p99 ms | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {r['store']} | {r['games']} | {r['moves']} | {r['rate']:.0f} | {r['p50']:.1f} | "
          f"{r['p99']:.1f} | {r['own_p50']:.2f} | {r['own_p99']:.2f} | {len(r['errors'])} |"
          for r in results),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bot.bench.stores")
    parser.add_argument("server", help="postgresql://user@host:port/database (may CREATE DATABASE)")
    parser.add_argument("--out", type=Path, default=Path("docs") / "performance.md")
    args = parser.parse_args()
    lines = section(compare(args.server), "python -m bot.bench.stores postgresql://...")
    write_section(args.out, "stores", lines)
    print("\n".join(lines))

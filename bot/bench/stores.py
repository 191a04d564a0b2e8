"""The move benchmark on both stores: the same end-to-end run (bot.bench.run.bench_e2e) on a new
SQLite file and on a PostgreSQL database, to show what the shared store costs a move. The bot
calls the store synchronously on its event loop, so a database round trip is paid inside the
move ("own" columns: the bot's time per move, lock to hand-off, commit included).

Run: `python -m bot.bench.stores postgresql://user@host:port/database` with a user that may
create databases: each run gets a new, empty one (gk_bench_<n>), dropped afterwards. Prints a
Markdown table.
"""
from __future__ import annotations

import asyncio
import gc
import sys
from contextlib import contextmanager
from typing import Any, Iterator
from urllib.parse import urlsplit

import psycopg

from .run import bench_e2e

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


def table(results: list[dict[str, Any]]) -> str:
    lines = ["| store | concurrent games | moves | rate (moves/s) | end-to-end p50 ms | p99 ms "
             "| own p50 ms | own p99 ms | errors |", "| --- | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: |"]
    for r in results:
        lines.append(f"| {r['store']} | {r['games']} | {r['moves']} | {r['rate']:.0f} | "
                     f"{r['p50']:.1f} | {r['p99']:.1f} | {r['own_p50']:.2f} | {r['own_p99']:.2f} "
                     f"| {len(r['errors'])} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].startswith(("postgresql://", "postgres://")):
        raise SystemExit("usage: python -m bot.bench.stores postgresql://user@host:port/database")
    print(table(compare(sys.argv[1])))

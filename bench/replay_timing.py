"""Replay size and build time for a long game of each kind: ``measure(game_name)``.

A long game is the one with the most actions among a few AI self-play games at the game's
largest table (``bot.simulate.play``, timers included). It is turned into what the bot stores
(a finished game's row and its action log) and built as the bot builds it for ``/replay``:
``bot.replay.make`` sending its jobs to a render pool of one worker process. The times are
wall-clock on this machine, so they depend on its load; the bytes, frames and the bot
process's memory (tracemalloc, which sees this process only, not the worker) do not.

    .venv/bin/python -c "from bench.replay_timing import measure; print(measure('GAME'))"

`gatekeeper bench` runs `run` for every discovered game and writes `section` into
docs/performance.md.
"""
from __future__ import annotations

import asyncio
from time import perf_counter
from typing import Any

from render.replay import ATTACHMENT_LIMIT

from .report import budget, produced_by

NAMES = ("Ana", "Bartholomew", "Cy", "Dolores-Jean", "Ed", "Fatima Zahra")


def long_game(game_name: str, tries: int = 5, seed: int = 1,
              max_actions: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The longest of `tries` finished self-play games at the largest table, as a stored row
    and action log; with `max_actions`, the first game cut short there and ended (as by /end)."""
    import games
    from bot.simulate import play
    game = games.get(game_name)
    seats = game.max_seats
    longest: tuple[Any, list[tuple[int, str, float]], int] | None = None
    for index in range(tries):
        log: list[tuple[int, str, float]] = []
        state = play(game_name, seats, seed + index, log=log,
                     **({} if max_actions is None else {"max_actions": max_actions}))
        if (state.over or max_actions) and (longest is None or len(log) > len(longest[1])):
            longest = (state, log, seed + index)
    if longest is None:
        raise RuntimeError(f"no {game_name} self-play game finished in {tries} tries")
    state, log, game_seed = longest
    row = {"id": game_seed, "game": game_name, "status": "over" if state.over else "ended",
           "seed": game_seed,
           "options": state.options, "seats": [{"name": n} for n in NAMES[:seats]],
           "state": state.to_json(), "state_format": game.state_format, "result": state.result}
    actions = [{"seq": seq, "seat": seat, "action": action, "at": at}
               for seq, (seat, action, at) in enumerate(log, 1)]
    return row, actions


def measure(game_name: str, fmt: str = "webp", tries: int = 5, max_actions: int | None = None,
            renderer: Any = None) -> dict[str, Any]:
    """Frames, bytes and build seconds of the replay of a long game of `game_name` (see
    `long_game`), the longest single job (how long the render worker is kept from other games'
    boards) and the bot process's peak extra memory while it is built. `renderer`: a render
    pool to reuse (else one of one worker, started and closed here)."""
    import os
    import tracemalloc

    from bot.rendering import Renderer
    from bot.replay import JOB_EXCEPTIONS, make, scenes
    row, actions = long_game(game_name, tries, max_actions=max_actions)
    pool = renderer or Renderer(workers=1)
    jobs: list[float] = []

    async def timed(fn: Any, *args: Any) -> Any:
        start = perf_counter()
        try:
            return await pool.job(fn, *args, expected=JOB_EXCEPTIONS)
        finally:
            jobs.append(perf_counter() - start)

    async def build() -> tuple[bytes, float, int]:
        await pool.job(os.getpid)  # the worker started and warmed up
        tracemalloc.start()
        try:
            before, _ = tracemalloc.get_traced_memory()
            start = perf_counter()
            data = await make(row, actions, fmt, timed)
            return data, perf_counter() - start, tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()

    try:
        data, seconds, memory = asyncio.run(build())
    finally:
        if renderer is None:
            pool.close()
    return {"game": game_name, "format": fmt, "seats": len(row["seats"]), "actions": len(actions),
            "frames": len(scenes(row, actions)), "bytes": len(data), "seconds": seconds,
            "jobs": len(jobs), "longest_job": max(jobs), "bot_memory": memory}


# Self-play games tried per game, and where a game is cut short (smoke: seconds, not minutes).
PLAN: dict[str, tuple[int, int | None]] = {"full": (5, None), "quick": (2, None), "smoke": (1, 12)}


def run(size: str) -> list[dict[str, Any]]:
    """Every discovered game's long replay as WebP, and as the GIF fallback, on one render pool
    of one worker (as the bot has)."""
    import games
    from bot.rendering import Renderer
    tries, max_actions = PLAN[size]
    results = []
    renderer = Renderer(workers=1)
    try:
        for game in games.all_games():
            for fmt in ("webp", "gif"):
                print(f"replay {game.name} {fmt}...", flush=True)
                results.append(measure(game.name, fmt, tries, max_actions, renderer))
                print(results[-1], flush=True)
    finally:
        renderer.close()
    return results


def section(results: list[dict[str, Any]], command: str) -> list[str]:
    """The "Replays" section of docs/performance.md: a row per game, its WebP and GIF side by
    side (the build figures are the WebP's, what the bot posts)."""
    by_game: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_game.setdefault(r["game"], {})[r["format"]] = r
    return [
        "## Replays",
        f"{produced_by(command)}. "
        + budget("every file under Discord's 10 MiB", all(r["bytes"] <= ATTACHMENT_LIMIT for r in results))
        + " The longest of a few self-play games at the largest table, built as `/replay` "
        "builds it (jobs sent to a render pool of one worker). Longest job: how long other "
        "boards may wait; bot memory: the bot process's peak extra allocation (tracemalloc).",
        "",
        "| game | seats | actions | frames | WebP bytes | GIF bytes | build s | jobs "
        "| longest job s | bot memory MB |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {game} | {w['seats']} | {w['actions']} | {w['frames']} | {w['bytes']:,} | "
          f"{pair['gif']['bytes']:,} | {w['seconds']:.1f} | {w['jobs']} | "
          f"{w['longest_job']:.1f} | {w['bot_memory'] / 1e6:.1f} |"
          for game, pair in by_game.items() for w in [pair["webp"]]),
    ]

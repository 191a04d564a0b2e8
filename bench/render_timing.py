"""Render + encode timing of real boards: ``measure(game_name)``.

A measuring tool for the renderers (kept in the benchmark, not in render/). Unlike them it plays
games (AI self-play through ``bot.simulate``) and reads a clock, so it imports ``games`` and
``bot`` lazily, inside :func:`measure`.

    .venv/bin/python -c "from bench.render_timing import measure; print(measure('GAME'))"

Boards are public views (``game.view(state, None)`` plus seat names, as the bot draws them)
taken at spread-out points of AI games with every seat count the game allows, some of them
finished (results table and winner banner). Each board goes through ``bot.rendering.draw``
(render + PNG encode), the same call the render worker makes.

Two passes: the first one (``cold_*``) starts right after the renderer's ``warm_up`` and also
pays for sprites and layers not cached yet; the second one (``p50``/``p95``/``max``) is the
steady state of a long-running render worker. Those are wall-clock times and so depend on the
machine's load: compare figures taken together, and prefer the median of a few runs.
``cpu_p50``/``cpu_p95`` (steady pass, this process's CPU time) suffer less from other
processes on a busy machine.
"""
from __future__ import annotations

import statistics
from time import perf_counter, process_time
from typing import Any

NAMES = ("Ana", "Bartholomew", "Cy", "Dolores-Jean", "Ed", "Fatima Zahra")


def _percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def sample_views(game_name: str, count: int = 200, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` public views of AI self-play games, reproducible from ``seed``."""
    import games
    from bot.simulate import play

    game = games.get(game_name)
    sizes = range(game.min_seats, game.max_seats + 1)
    views: list[dict[str, Any]] = []
    for index in range(count):
        seats, game_seed = sizes[index % len(sizes)], seed + index
        log: list[tuple[int, str, float]] = []
        play(game_name, seats, game_seed, log=log)  # the whole game, to learn its length
        # a spread of moments, ~10% of them after the end (finished boards)
        stage = (index * 0.6180339887) % 1.0
        actions = int(stage * 1.1 * (len(log) + 1))
        state = play(game_name, seats, game_seed, max_actions=actions)
        view = game.view(state, None)
        view["names"] = list(NAMES[:seats])
        views.append(view)
    return views


def measure(game_name: str, boards: int = 200, seed: int = 1) -> dict[str, Any]:
    """Render + encode times (ms) and PNG sizes of ``boards`` real boards of ``game_name``."""
    import games
    from bot.rendering import draw

    views = sample_views(game_name, boards, seed)
    warm = games.get(game_name).hook("warm_up")
    if warm is not None:
        warm()
    result: dict[str, Any] = {"game": game_name, "boards": len(views), "seed": seed}
    for prefix in ("cold_", ""):
        times, cpu, sizes = [], [], []
        for view in views:
            start, start_cpu = perf_counter(), process_time()
            png = draw(view)
            times.append((perf_counter() - start) * 1000)
            cpu.append((process_time() - start_cpu) * 1000)
            sizes.append(len(png))
        result[prefix + "p50"] = round(_percentile(times, 50), 2)
        result[prefix + "p95"] = round(_percentile(times, 95), 2)
        result[prefix + "max"] = round(max(times), 2)
    result["cpu_p50"] = round(_percentile(cpu, 50), 2)
    result["cpu_p95"] = round(_percentile(cpu, 95), 2)
    result["bytes_mean"] = round(statistics.mean(sizes))
    result["bytes_max"] = max(sizes)
    result["over"] = sum(v.get("phase") == "over" for v in views)
    return result


if __name__ == "__main__":  # python -m bench.render_timing [game ...] (default: every game)
    import sys

    import games

    for name in sys.argv[1:] or [game.name for game in games.all_games()]:
        print(measure(name), flush=True)

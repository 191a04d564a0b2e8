"""Board rendering off the event loop, in a worker process by default.

Why a process and not a thread: drawing holds the GIL, and under load the event loop then waits
behind render threads at every I/O step (the GIL "convoy"). Measured at 1,000 games and 50
moves/s: p99 move latency 300-900 ms with threads, well under 100 ms with one render process
(docs/performance.md). `workers=0` renders in a thread instead (handy for quick tests).
"""
from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import render


class Renderer:
    def __init__(self, workers: int = 1) -> None:
        self.pool: Executor | None = None
        if workers > 0:
            self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=render.warm_up)

    async def png(self, view: dict[str, Any]) -> bytes:
        if self.pool is None:
            return await asyncio.to_thread(render.render, view)
        return await asyncio.get_running_loop().run_in_executor(self.pool, render.render, view)

    async def speaker(self, game: str, line: str) -> bytes | None:
        """A speaking character's picture with their line, if the game has one."""
        if game not in render.SPEAKERS:
            return None
        if self.pool is None:
            return await asyncio.to_thread(render.speak, game, line)
        return await asyncio.get_running_loop().run_in_executor(self.pool, render.speak, game,
                                                                line)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

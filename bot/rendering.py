"""Board rendering off the event loop, in a worker process by default.

Why a process and not a thread: drawing holds the GIL, and under load the event loop then waits
behind render threads at every I/O step (the GIL "convoy"). Measured at 1,000 games and 50
moves/s: p99 move latency 300-900 ms with threads, well under 100 ms with one render process
(docs/performance.md). `workers=0` renders in a thread instead (handy for quick tests).

Which renderer draws a view is the game plugin's business (`Game.renderer`): `draw` looks it up.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any

import games

log = logging.getLogger("gatekeeper.render")


def draw(view: dict[str, Any]) -> bytes:
    """PNG bytes of a public view, by its game's renderer; games.UnknownGame if there is none."""
    return games.get(view.get("game")).hook("renderer")(view)  # type: ignore[arg-type,misc]


@lru_cache(maxsize=512)
def speak(game_name: str, line: str) -> bytes:
    """PNG of the game's speaking character saying `line` (lines repeat: cached)."""
    return games.get(game_name).hook("speaker")(line)  # type: ignore[misc]


def warm_up() -> None:
    """Pay every renderer's one-off costs (palettes, static layers) before the first board."""
    for game in games.all_games():
        warm = game.hook("warm_up")
        if warm is not None:
            warm()


class RenderFailed(Exception):
    """A picture could not be drawn, even after a retry on a fresh pool."""


class Renderer:
    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.pool: Executor | None = self._new_pool()
        self.replaced = 0  # pools replaced after a worker died

    def _new_pool(self) -> Executor | None:
        if self.workers <= 0:
            return None
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=warm_up)

    async def _once(self, fn: Any, *args: Any) -> Any:
        if self.pool is None:
            return await asyncio.to_thread(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def _call(self, fn: Any, *args: Any) -> Any:
        """Run `fn` in the pool; a dead worker breaks the pool for good, so replace it and try
        once more. Two failures: RenderFailed (the caller sends text instead)."""
        for attempt in range(2):
            try:
                return await self._once(fn, *args)
            except BrokenProcessPool:
                log.error("render pool broken; replacing it")
                broken, self.pool = self.pool, self._new_pool()
                self.replaced += 1
                if broken is not None:
                    broken.shutdown(wait=False, cancel_futures=True)
            except Exception:  # noqa: BLE001 - a renderer bug must not stop the game
                log.exception("render failed attempt=%s", attempt)
        raise RenderFailed(getattr(fn, "__name__", str(fn)))

    async def png(self, view: dict[str, Any]) -> bytes:
        return await self._call(draw, view)

    async def speaker(self, game: str, line: str) -> bytes | None:
        """A speaking character's picture with their line, if the game has one."""
        if games.get(game).speaker is None:
            return None
        try:
            return await self._call(speak, game, line)
        except RenderFailed:
            return None  # the words still go out

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

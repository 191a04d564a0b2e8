"""The hard AI off the event loop: its search runs in a worker process, like the boards.

A search is 0.2 s of pure Python: on the loop it would stall every game, and in a thread it
would hold the GIL against the loop just the same (see bot/rendering.py). So the bot owns one
worker process; a decision sends it the seat's view and prompt (never the state) and the AI's
dice, and waits at most the search's budget plus GRACE_S. A worker that fails (raises, dies, is
killed) or answers late, or an answer that is not one of the prompt's actions, gives way to the
smart policy for that decision, logged. The pool starts when the table first sets a hard seat's
AI timer (`prestart`), and is replaced at once when its worker dies; a decision that comes while
a worker starts up (imports take a second) is smart's too, without waiting.
`workers=0` searches in a thread instead (tests of the table, where the loop waits anyway).
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

import games
from games.core import Game, Prompt, Rng, State, decide
from games.core.search import BUDGET_S

from .rendering import quiet_worker, stop_pool

log = logging.getLogger("gatekeeper.ai")

GRACE_S = 0.3  # how much later than its budget a search may answer before smart plays instead


def search_job(game_name: str, view: dict[str, Any], prompt: Prompt, dice: int, budget_s: float) -> str:
    """In the worker: the game's searcher on the seat's view (`dice`: the AI's Rng state)."""
    game = games.get(game_name)
    return game.hook("searcher")(game, view, prompt, Rng(dice), budget_s)  # type: ignore[misc]


def warm_up() -> None:
    """In a new worker: load every game's engine and searcher now, so its first search is not
    spent importing them (the decision waits until this has run: `ready`)."""
    for game in games.all_games():
        if getattr(game, "searcher", None):
            game.hook("searcher")


Job = Callable[[str, dict[str, Any], Prompt, int, float], str]


class AiWorker:
    def __init__(self, workers: int = 1, budget_s: float = BUDGET_S, grace_s: float = GRACE_S,
                 job: Job = search_job) -> None:
        self.workers, self.budget_s, self.grace_s, self.job = workers, budget_s, grace_s, job
        self.pool: Executor | None = None
        self.ready: Future[Any] | None = None  # the new pool's warm-up: done once it has run
        self.fallbacks = 0  # decisions smart took over, for tests and logs
        self.closed = False  # shut down with the bot: no new worker is started

    def _start(self) -> None:
        self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=quiet_worker)
        self.ready = self.pool.submit(warm_up)

    async def decide(self, game: Game, state: State, seat: int, rng: Rng) -> str:
        """The hard AI's action for `seat` in `state`, or the smart policy's if the search fails
        or is late. `rng`: the AI's dice for this decision."""
        prompt = game.prompt(state, seat)
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to do")
        dice = rng.state
        reason = None
        try:
            action = await self._search(game, game.view(state, seat), prompt, dice)
            if action not in {c.action for c in prompt.choices}:
                reason = f"answered {action!r}, not one of the prompt's actions"
        except (asyncio.TimeoutError, TimeoutError):
            reason = f"no answer within {self.budget_s + self.grace_s:.1f} s"
        except BrokenProcessPool:
            reason = "the worker died"
            self._replace()
        except NotReady as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - any failure of the search: smart plays instead
            reason = f"the search failed: {exc!r}"
        if reason is None:
            return action
        self.fallbacks += 1
        log.warning("hard ai fell back to smart game=%s seat=%s version=%s: %s", game.name, seat,
                    state.version, reason)
        return decide(game, state, seat, Rng(dice), "smart", prompt)

    async def _search(self, game: Game, view: dict[str, Any], prompt: Prompt, dice: int) -> str:
        args = (game.name, view, prompt, dice, self.budget_s)
        if self.workers == 0:
            return await asyncio.to_thread(self.job, *args)
        if self.closed:
            raise NotReady("the worker is shut down")
        self.prestart()  # if no hard seat's timer has started it yet
        if self.ready is None or not self.ready.done():
            raise NotReady("the worker is starting")
        running = asyncio.get_running_loop().run_in_executor(self.pool, self.job, *args)
        return await asyncio.wait_for(running, self.budget_s + self.grace_s)

    def prestart(self) -> None:
        """Start the worker process now if there is none (a table with a hard seat is under way:
        its first decision should not find the worker starting)."""
        if self.workers > 0 and not self.closed and self.pool is None:
            self._start()

    async def started(self) -> None:
        """Start the worker process now if there is none, and wait until it can search (the
        benchmark and tests time searches, not Python's start-up)."""
        self.prestart()
        if self.ready is not None:
            await asyncio.wrap_future(self.ready)

    def _replace(self) -> None:
        """A new pool for one whose worker died (concurrent.futures never mends a broken one)."""
        old = self.pool
        self._start()
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

    def close(self, timeout: float = 3.0) -> None:
        """Shut the pool down and wait until its worker has exited (a search ends within its
        budget; one that does not is terminated after `timeout`). Call it through
        asyncio.to_thread from the loop."""
        self.closed = True
        pool, self.pool, self.ready = self.pool, None, None
        if pool is None:
            return
        stop_pool(pool, timeout, "ai")


class NotReady(Exception):
    """No worker to ask now (starting, or shut down): the decision does not wait for one."""

"""Board rendering off the event loop, in a worker process by default.

Why a process and not a thread: drawing holds the GIL, and under load the event loop then waits
behind render threads at every I/O step (the GIL "convoy"). Measured at 1,000 games and 50
moves/s: p99 move latency 300-900 ms with threads, well under 100 ms with one render process
(docs/performance.md). `workers=0` renders in a thread instead (handy for quick tests).

Which renderer draws a view is the game plugin's business (`Game.renderer`): `draw` looks it up.
A pool whose worker died (killed, out of memory) is broken for good in concurrent.futures: it is
replaced and the render tried once more; a picture that fails twice raises RenderFailed (the
board then goes out as text). `close()` shuts the pool down and waits until its worker processes
have exited (stopping any that a long render holds up), so a stopped bot leaves no process behind.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any, Callable

from babel.lists import format_list

import games
from data.locales import DEFAULT, Msg, has, render, text
from games.core import Game, State
from render.words import acting, clamp, fit, name_of

log = logging.getLogger("gatekeeper.render")


def board_view(game: Game, state: State, names: list[str], who: str | None = None,
               public: dict[str, Any] | None = None, lang: str = DEFAULT) -> dict[str, Any]:
    """The public view a board image is drawn from: the spectator's view (`public`, if the
    caller has it), minus what only the message text shows (`image_ignores`), plus the seat
    names, the language of the words drawn and described ("lang": the channel's) and who acts
    now in words (`who`, kept as "acting": the picture's header says what the message's
    header says)."""
    view = dict(public) if public is not None else game.view(state, None)
    for key in game.image_ignores:
        view.pop(key, None)
    view["names"] = names
    view["lang"] = lang
    if who:
        view["acting"] = who
    return view


def alt_text(game: Game, view: dict[str, Any], lang: str) -> str:
    """The board picture of `view` (from `board_view`) in words, for its media description:
    the game's `describer`, or, for a game without one, its title, who acts and who plays, in
    the server's language `lang` (who acts: the view's "acting", already in it). Either way at
    most 1024 characters, cut at a sentence."""
    describe = game.hook("describer")
    if describe is not None:
        return clamp(describe(view))
    names = [name_of(view, seat) for seat in range(len(view.get("names") or []))]
    current = view.get("current")
    now = text(lang, "alt.to_play", who=name_of(view, current)) if isinstance(current, int) \
        else text(lang, "alt.nobody")
    return fit([text(lang, "alt.board", game=title_of(game)), acting(view, now),
                text(lang, "alt.players", names=format_list(names, locale=lang))])


def title_of(game: Game) -> Msg | str:
    """The game's title in its reader's language, rendered with the message it is put in:
    the game's catalog's `game.<game>.title` where it has one (a published edition's), else
    the game's own (a game of our own keeps one title everywhere)."""
    id = f"game.{game.name}.title"
    return Msg(id) if has(id) else game.title


def titled(game: Game, lang: str) -> str:
    """The game's title as a reader of `lang` reads it (`title_of`)."""
    return render(lang, title_of(game))


def speaker_name(game: Game, kind: str, lang: str) -> str:
    """A speaking character's name (`Game.speakers`) in `lang`: the game's catalog's
    `game.<game>.speaker.<kind>` where it has one, else as the game wrote it."""
    id = f"game.{game.name}.speaker.{kind}"
    return text(lang, id) if has(id) else game.speakers.get(kind, kind)


def speaker_alt_text(game: Game, line: str, lang: str) -> str:
    """The speaking character's picture with `line` (`speak`) in words: the game's
    `speaker_describer`, or the character's name and the line (in `lang`)."""
    describe = game.hook("speaker_describer")
    if describe is not None:
        return clamp(describe(line, lang=lang))
    who = next((speaker_name(game, kind, lang).title() for kind in game.speakers), None) \
        or text(lang, "alt.a_character")
    return clamp(text(lang, "alt.speaking", who=who, line=" ".join(line.split())))


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


def _worker_init() -> None:
    quiet_worker()
    warm_up()


def quiet_worker() -> None:
    """In each worker process the bot owns: Ctrl-C in a terminal reaches the whole process group,
    but stopping is the bot's business (it shuts the pool down), so a worker ignores SIGINT
    rather than dying mid-job with a traceback; and it leaves when the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="exit-with-parent", daemon=True).start()


def _exit_with_parent() -> None:
    """A bot killed outright (SIGKILL, the OOM killer) never shuts its pool down, and its workers
    would live on, each holding a warmed-up renderer: a worker leaves when its parent is gone."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)


class RenderFailed(Exception):
    """A picture could not be drawn, even after a retry on a fresh pool."""


class Renderer:
    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.pool: Executor | None = self._new_pool() if workers > 0 else None
        self.replaced = 0  # pools replaced after a worker died

    def _new_pool(self) -> Executor:
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init)

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

    async def job(self, fn: Callable[..., Any], *args: Any,
                  expected: tuple[type[Exception], ...] = ()) -> Any:
        """Any other picture-making job (a replay) in the same pool, with the same retry. An
        `expected` exception (the job's own refusal, with its reason) is raised as it is."""
        return await self._call(fn, *args, expected=expected)

    async def _call(self, fn: Callable[..., Any], *args: Any,
                    expected: tuple[type[Exception], ...] = ()) -> Any:
        """Run `fn` in the pool, twice at most; a broken pool is replaced in between."""
        for attempt in range(2):
            pool = self.pool
            try:
                if pool is None:
                    return await asyncio.to_thread(fn, *args)
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except expected:
                raise
            except BrokenProcessPool:
                if self.pool is None:  # closed meanwhile
                    raise RenderFailed("the render pool is closed") from None
                if self.pool is pool:  # the first to notice replaces it; the others just retry
                    log.warning("render pool broken (a worker died): starting a new one")
                    self.pool = self._new_pool()
                    self.replaced += 1
                    pool.shutdown(wait=False, cancel_futures=True)
            except Exception:  # noqa: BLE001 - a renderer bug must not stop the game
                log.exception("render failed attempt=%s", attempt)
        raise RenderFailed(getattr(fn, "__name__", str(fn)))

    def warm(self) -> None:
        """Start the worker processes now (they otherwise start at the first board), so the
        first move does not wait for Python and Pillow to load."""
        if self.pool is not None:
            for _ in range(self.workers):
                self.pool.submit(os.getpid)

    def close(self, timeout: float = 3.0) -> None:
        """Shut the pool down: queued renders are cancelled, the workers finish what they are
        drawing and exit. A worker still busy after `timeout` seconds is terminated, then
        killed. Blocks until they are gone (call it through asyncio.to_thread from the loop)."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        stop_pool(pool, timeout, "render")


def stop_pool(pool: ProcessPoolExecutor, timeout: float, name: str) -> None:
    """Shut a process pool down: queued jobs are cancelled, its workers finish the job at hand
    and exit; one still busy after `timeout` seconds is terminated, then killed. Blocks until
    they are gone (the render and AI pools; call it through asyncio.to_thread from the loop)."""
    # CPython keeps the worker processes in _processes; shutdown() forgets them, so look first.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    closer = threading.Thread(target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True},
                              name=f"{name}-pool-shutdown", daemon=True)
    closer.start()
    closer.join(timeout)
    for stop in ("terminate", "kill"):
        if not closer.is_alive():
            break
        log.warning("%s workers still busy after %.0f s: %s", name, timeout, stop)
        for process in processes:
            if process.is_alive():
                getattr(process, stop)()
        closer.join(2.0)

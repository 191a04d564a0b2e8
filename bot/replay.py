"""Replays of finished games, rebuilt from their action log and drawn as an animation.

A game replays exactly from its row (seed, options, the seats in play order) and its action
log, timers included (they are SYSTEM actions in the log). `scenes` rebuilds every state and
keeps one picture per move. A move, here, is a committed action after which the board picture
differs from the previous frame: an action that changed nothing on the public board (a card
drawn in secret, a timer that only rearmed itself) adds no frame, and its public log lines go
in the next frame's caption instead. Only the public view is ever drawn and only public events are
captioned: a replay shows what the channel saw, never a hand.

The replay must end on the stored final state. When it does not (the game was played under
rules that have changed since), it is refused with that reason rather than drawn wrong.

`make` builds the file in short jobs, plain data in and out, that `Replays` (the bot's side:
which games may be replayed, one build at a time per game) sends to the render pool, so a long
replay never keeps other games' boards waiting for long; `build` runs them in this process.
Each job draws and encodes a part of the file, so what comes back to the bot is bytes of the
final file, not pictures: a replay costs the bot about twice its file in memory (the parts,
then the file joined from them; 8.5 MB at the peak for a 630-frame replay, where frames
sent back as pictures cost 110 MB).
"""
from __future__ import annotations

import asyncio
import pickle
import re
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

import games
from games.core import SYSTEM, IllegalAction, State, apply, setup
from render.replay import (
    ATTACHMENT_LIMIT,
    WIDTHS,
    Frame,
    animated_webp,
    compose,
    describe_replay,
    durations,
    gif_palette,
    gif_part,
    join_gif,
    join_webp,
    webp_part,
)

from .refusal import Refusal
from .rendering import Renderer, RenderFailed, board_view, draw
from .store import Store
from .table import fill_names, upgrade

FINISHED = ("over", "ended")
# Frames drawn and encoded per render job: 0.2-0.8 s of a worker's time, like a board batch
# (busier boards, a busier machine; docs/performance.md). Each job also draws the frame
# before its part, so shorter parts cost more drawing, but hardly more bytes.
PART = 10
FORMATS = ("webp", "gif")
# Emoji and variation selectors: the board font has no glyphs for them.
_NO_GLYPH = re.compile("[\U00010000-\U0010FFFF\uFE0F\u200D]")


class ReplayError(Refusal):
    """A replay that cannot be made; the reason is safe to show whoever asked."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its message (raised in a render worker, it is told in the main process)."""
        return (replay_error, (self.msg.id, dict(self.msg.params)))


def replay_error(id: str, params: dict[str, Any]) -> ReplayError:
    return ReplayError(id, **params)


@dataclass(frozen=True)
class Scene:
    """One frame to draw: a public board view and the caption shown above it."""

    view: dict[str, Any]
    caption: str


def replay_format() -> str:
    """What the bot posts: animated WebP, or GIF where this Pillow cannot write it."""
    return "webp" if animated_webp() else "gif"


def scenes(row: dict[str, Any], actions: list[dict[str, Any]]) -> list[Scene]:
    """Every public board of a finished game, one per move, from its row and action log."""
    require_finished(row)
    if not row["state"]:
        raise ReplayError("replay.never_started", id=row["id"])
    try:
        game = games.get(row["game"])
    except games.UnknownGame:
        raise ReplayError("replay.unknown_game", id=row["id"], game=row["game"]) from None
    names = [seat["name"] for seat in row["seats"]]
    state = setup(game, len(names), row["options"], row["seed"])
    shots = [Scene(board_view(game, state, names), f"{game.title} · game #{row['id']} · the start")]
    lines: list[str] = []
    moves = 0
    for number, entry in enumerate(actions, 1):
        try:
            outcome = apply(game, state, entry["seat"], entry["action"], entry["at"])
        except IllegalAction as exc:
            raise ReplayError("replay.refused_move", id=row["id"], number=number,
                              action=entry["action"], reason=exc.reason) from None
        state = outcome.state
        lines += [fill_names(e.text, names) for e in outcome.events
                  if e.public and e.kind not in game.speakers]
        view = board_view(game, state, names)
        if view != shots[-1].view:
            moves += 1
            who = "Timer" if entry["seat"] == SYSTEM else names[entry["seat"]]
            shots.append(Scene(view, _caption(moves, lines or [f"{who} moved."])))
            lines = []
    _check_final(row, game, state)
    ending = _ending(row, names)
    last = shots[-1]
    shots[-1] = Scene(last.view, f"{last.caption} · {ending}" if len(shots) > 1 else ending)
    return shots


def require_finished(row: dict[str, Any]) -> None:
    status = row["status"]
    if status == "running":
        raise ReplayError("replay.running", id=row["id"])
    if status not in FINISHED:
        raise ReplayError("replay.lobby" if status == "lobby" else "replay.unfinished",
                          id=row["id"], status=status)


def _caption(number: int, lines: list[str]) -> str:
    text = _NO_GLYPH.sub("", " · ".join(lines)).replace("**", "")
    return f"{number}. {' '.join(text.split())}"


def _ending(row: dict[str, Any], names: list[str]) -> str:
    result = row.get("result") or {}
    winners = [names[s] for s in result.get("winners") or [] if 0 <= s < len(names)]
    if winners:
        return f"won by {' and '.join(winners)}"
    return fill_names(result["reason"], names) if result.get("reason") else "game over"


def _check_final(row: dict[str, Any], game: games.Game, replayed: State) -> None:
    """The replay must reproduce the stored final state, or it would show a different game."""
    stored = upgrade(game, State.from_json(row["state"]), row.get("state_format") or 1)
    if replayed.to_json() != stored.to_json():
        raise ReplayError("replay.diverged", id=row["id"])


@dataclass(frozen=True)
class Outline:
    """A replay at one width, as the bot needs it to send out the jobs that draw it: each
    part's scenes, pickled and deflated (tens of KB for a whole game; a part's first scene is
    the last one of the part before, which its frames are encoded as changes from), the
    height of the last frame (the canvas, unless a taller frame turns up) and the palette of
    a GIF."""

    parts: list[bytes]
    frames: int
    height: int
    palette: list[int]


class TallerFrame(Exception):
    """A part has a frame taller than the canvas: the parts must be made again on a taller one
    (boards of some games grow during a game)."""

    def __init__(self, height: int) -> None:
        super().__init__(height)
        self.height = height


# What a replay's jobs raise on purpose, to come back from the pool as they are (any other
# exception is a crash: the pool retries the job once, then gives up with RenderFailed).
JOB_EXCEPTIONS = (ReplayError, TallerFrame)


def outline(row: dict[str, Any], actions: list[dict[str, Any]], width: int) -> Outline:
    """The first job of a replay: the game replayed, its scenes cut into parts."""
    shots = scenes(row, actions)
    last = _picture(shots[-1], width)
    parts = [zlib.compress(pickle.dumps(shots[max(0, start - 1):end]))
             for start, end in spans(len(shots), PART)]
    return Outline(parts, len(shots), last.height, gif_palette(last))


def encode_part(packed: bytes, follows: bool, times: list[int], canvas: tuple[int, int],
                fmt: str, palette: list[int]) -> bytes:
    """A part of the replay file: its scenes (from `outline`) drawn and encoded. `follows`:
    the first scene is the previous part's last frame, drawn only to encode the others as
    changes from it."""
    shots: list[Scene] = pickle.loads(zlib.decompress(packed))
    images = [_picture(shot, canvas[0]) for shot in shots]
    tallest = max(image.height for image in images)
    if tallest > canvas[1]:
        raise TallerFrame(tallest)
    if fmt == "gif":
        return gif_part(images, times, palette, canvas, follows)
    return webp_part(images, times, canvas, follows)


def _picture(shot: Scene, width: int) -> Image.Image:
    return compose(Frame(draw(shot.view), shot.caption), width)


def spans(count: int, size: int) -> list[tuple[int, int]]:
    """[start, end) runs of about `size` items covering `count`, none of a single item when
    there are several (a part may have to be encoded without the frame before it, and a
    one-frame WebP is a still picture, which cannot be joined)."""
    bounds = list(range(0, count, size)) + [count]
    if len(bounds) > 2 and bounds[-1] - bounds[-2] == 1:
        del bounds[-2]
    return list(zip(bounds, bounds[1:]))


Run = Callable[..., Awaitable[Any]]  # runs fn(*args) somewhere (a render worker) and awaits it


async def make(row: dict[str, Any], actions: list[dict[str, Any]], fmt: str, run: Run) -> bytes:
    """The replay file of a finished game, under Discord's attachment limit.

    Made in short jobs (`run` sends each to the render pool): the outline, then PART frames
    at a time drawn and encoded as parts of one file, joined here. The pool serves every
    game's boards in order, so boards of other games go between the jobs of a long replay.
    """
    if fmt not in FORMATS:
        raise ValueError(f"replays are {' or '.join(FORMATS)}, not {fmt!r}")
    join = join_gif if fmt == "gif" else join_webp
    size = frames = 0
    for width in WIDTHS:
        plan: Outline = await run(outline, row, actions, width)
        frames, times = plan.frames, durations(plan.frames)
        canvas = (width, plan.height)
        while True:
            try:
                parts = [await run(encode_part, packed, start > 0, times[max(0, start - 1):end],
                                   canvas, fmt, plan.palette)
                         for packed, (start, end) in zip(plan.parts, spans(frames, PART))]
                break
            except TallerFrame as taller:
                canvas = (width, taller.height)
        data = join(parts)
        if len(data) <= ATTACHMENT_LIMIT:
            return data
        size = len(data)
    raise ReplayError("replay.too_long", id=row["id"], frames=frames, count=size,
                      width=WIDTHS[-1])


async def here(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a job in this process (the CLI and the benchmark)."""
    return fn(*args)


def build(row: dict[str, Any], actions: list[dict[str, Any]], fmt: str) -> bytes:
    """`make` in this process, start to finish (the CLI and the benchmark)."""
    return asyncio.run(make(row, actions, fmt, here))


def format_of(filename: str) -> str:
    """"webp" or "gif", from a file name's extension."""
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in FORMATS:
        raise ValueError(f"a replay is written as .webp or .gif, not {filename!r}")
    return suffix


class Replays:
    """The bot's replays: finished games of a guild, built in the render pool, one at a time
    per game (a second request for the same game is refused while the first is drawn)."""

    def __init__(self, store: Store, renderer: Renderer) -> None:
        self.store = store
        self.renderer = renderer
        self.building: set[int] = set()

    async def choose(self, guild_id: int, channel_id: int, game_id: int | None) -> dict[str, Any]:
        """The game to replay: `game_id` if it is a finished game of this guild, else the
        latest finished game of this channel. ReplayError says why not."""
        if game_id is None:
            latest = await self.store.finished_games(guild_id, channel_id, limit=1)
            if not latest:
                raise ReplayError("replay.none_here")
            game_id = latest[0]["id"]
        try:
            row = await self.store.game(game_id)
        except LookupError:
            row = None
        if row is None or row["guild_id"] != guild_id:
            raise ReplayError("replay.no_such_game", id=game_id)
        require_finished(row)
        return row

    async def _job(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.renderer.job(fn, *args, expected=JOB_EXCEPTIONS)

    async def build(self, row: dict[str, Any], fmt: str) -> bytes:
        """The replay file, drawn in a render worker; ReplayError if it cannot be made."""
        game_id = row["id"]
        if game_id in self.building:
            raise ReplayError("replay.drawing", id=game_id)
        self.building.add(game_id)
        try:
            return await make(row, await self.store.actions(game_id), fmt, self._job)
        except RenderFailed:
            raise ReplayError("replay.failed", id=game_id) from None
        finally:
            self.building.discard(game_id)


def replay_alt(row: dict[str, Any], moves: int) -> str:
    """The replay's alt text: game, players, moves shown, who won."""
    game = games.registry().get(row["game"])
    names = [seat["name"] for seat in row["seats"]]
    result = row.get("result") or {}
    winners = [names[w] for w in result.get("winners") or [] if w < len(names)]
    return describe_replay(game.title if game else row["game"], names, moves, winners,
                           fill_names(result["reason"], names) if result.get("reason") else "")


def describe(row: dict[str, Any]) -> str:
    """A finished game in a few words (autocomplete, captions): "#12 <game title>: Ana, Bo"."""
    game = games.registry().get(row["game"])
    title = game.title if game is not None else row["game"]
    return f"#{row['id']} {title}: {', '.join(seat['name'] for seat in row['seats'])}"

"""Animated replays: a game's board pictures in order, out as one animated WebP (or GIF).

Pure, like every renderer: it is given the boards (PNG bytes, already drawn from public views)
and a caption for each, and knows nothing of games, the bot or Discord. A whole game must fit
in one Discord attachment (10 MiB), so frames are scaled down and the encoder settings step
down a ladder (smaller frames, lower quality) until the file fits. The first frame and the
last one are held longer, so a viewer sees the set-up and the result.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, features

from .core import BG, HEADER_BG, TEXT, Draw, adaptive_palette, fit_text, font

ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's limit for one file
# A move shows for MOVE_MS, or less in a long game so the whole replay lasts about
# PLAYING_MS (never under FAST_MS a move: the eye must still follow the board).
MOVE_MS = 800
FAST_MS = 250
PLAYING_MS = 150_000
FIRST_MS = 2500  # the set-up
LAST_MS = 6000  # the result
CAPTION_HEIGHT = 0.06  # of the frame's width: a line of text under the board
# (frame width in px, WebP quality): the first setting whose file fits is used. Boards are
# 1,200 px wide; Discord shows an attachment at most about 550 px wide in chat.
LADDER: tuple[tuple[int, int], ...] = ((600, 55), (480, 50), (400, 45), (320, 40))
# libwebp's effort (0-6). Measured on a 630-frame Atmosfear game at 600 px: 2 takes half the
# time of the default 4 for 3% more bytes; 0 makes 25% more (docs/performance.md).
WEBP_METHOD = 2


class TooLarge(ValueError):
    """Even the smallest setting of the ladder makes a file over the limit."""


@dataclass(frozen=True)
class Frame:
    """One board picture (PNG bytes) and the line shown under it."""

    png: bytes
    caption: str


def animated_webp() -> bool:
    """Can this Pillow write animated WebP? Pillow 11.2 and later can whenever it has WebP at
    all (the separate "webp_anim" feature flag is gone); older releases say so by that flag."""
    if not features.check_module("webp"):
        return False
    return "webp_anim" not in features.features or bool(features.check_feature("webp_anim"))


def compose(frame: Frame, width: int, height: int = 0) -> Image.Image:
    """The caption in a band on top, the board scaled to `width` under it (RGB), on a canvas
    at least `height` tall: an animation's frames all have one size, and boards may differ."""
    board = Image.open(io.BytesIO(frame.png)).convert("RGB")
    board_height = round(board.height * width / board.width)
    band = caption_band(width)
    out = Image.new("RGB", (width, max(height, band + board_height)), BG)
    # BOX: a plain average, right for shrinking by about half and 3x faster than LANCZOS.
    out.paste(board.resize((width, board_height), Image.Resampling.BOX), (0, band))
    draw = Draw(out)
    draw.rectangle((0, 0, width, band - 1), fill=HEADER_BG)
    fnt = font(max(10, round(band * 0.55)))
    pad = round(band * 0.3)
    draw.text((pad, band / 2), fit_text(frame.caption, fnt, width - 2 * pad), fill=TEXT,
              font=fnt, anchor="lm")
    return out


def caption_band(width: int) -> int:
    return max(16, round(width * CAPTION_HEIGHT))


def frame_height(frame: Frame, width: int) -> int:
    """The height `compose` gives `frame` at `width` (read from the PNG header, not decoded)."""
    with Image.open(io.BytesIO(frame.png)) as board:
        return caption_band(width) + round(board.height * width / board.width)


def durations(count: int) -> list[int]:
    """Milliseconds per frame: the first and last held longer than the moves between."""
    if count == 1:
        return [LAST_MS]
    move = max(FAST_MS, min(MOVE_MS, PLAYING_MS // count))
    return [FIRST_MS] + [move] * (count - 2) + [LAST_MS]


def animate(frames: Sequence[Frame], fmt: str = "webp",
            limit: int = ATTACHMENT_LIMIT) -> bytes:
    """The animation, looping forever, in `fmt` ("webp" or "gif"), at the largest setting of
    LADDER under `limit` bytes; TooLarge if none fits."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    if fmt not in ("webp", "gif"):
        raise ValueError(f"replays are WebP or GIF, not {fmt!r}")
    size = 0
    for width, quality in LADDER:
        height = max(frame_height(f, width) for f in frames)
        data = _encode([compose(f, width, height) for f in frames], fmt, quality)
        if len(data) <= limit:
            return data
        size = len(data)
    raise TooLarge(f"{len(frames)} frames make {size:,} bytes even at {LADDER[-1][0]} px "
                   f"(the limit is {limit:,})")


def _encode(images: list[Image.Image], fmt: str, quality: int) -> bytes:
    buf = io.BytesIO()
    first, rest = images[0], images[1:]
    if fmt == "webp":
        first.save(buf, "WEBP", save_all=True, append_images=rest, duration=durations(len(images)),
                   loop=0, quality=quality, method=WEBP_METHOD, background=(*BG, 255))
    else:
        # One palette for every frame (made from the last board, which shows the most), so
        # unchanged pixels keep their index and the GIF writer stores only what changed.
        palette = adaptive_palette(images[-1])
        mapped = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
        mapped[0].save(buf, "GIF", save_all=True, append_images=mapped[1:],
                       duration=durations(len(images)), loop=0, optimize=False, disposal=1)
    return buf.getvalue()

"""Animated replays: a game's board pictures in order, out as one animated WebP (or GIF).

Pure, like every renderer: it is given the boards (PNG bytes, already drawn from public views)
and a caption for each, and knows nothing of games, the bot or Discord. `compose` makes one
frame (caption band, board scaled down); `webp_part` encodes a run of frames and `join_webp`
strings the parts into one animated WebP, so the work can be cut into short jobs; `gif` is the
fallback where Pillow cannot write animated WebP. A whole game must fit in one Discord
attachment (10 MiB): the caller steps down LADDER (smaller frames, lower quality) until the
file fits. The first frame and the last one are held longer, so a viewer sees the set-up and
the result.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, features

from .core import BG, HEADER_BG, TEXT, Draw, adaptive_palette, fit_text, font

ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's limit for one file
# A move shows for MOVE_MS, or less in a long game so the whole replay lasts about
# PLAYING_MS (never under FAST_MS a move: the eye must still follow the board).
MOVE_MS = 800
FAST_MS = 250
PLAYING_MS = 150_000
FIRST_MS = 2500  # the set-up
LAST_MS = 6000  # the result
CAPTION_HEIGHT = 0.06  # of the frame's width: a line of text above the board
# (frame width in px, WebP quality): the first setting whose file fits is used. Boards are
# 1,200 px wide; Discord shows an attachment at most about 550 px wide in chat.
LADDER: tuple[tuple[int, int], ...] = ((600, 55), (480, 50), (400, 45), (320, 40))
# libwebp's effort (0-6). Measured on a 630-frame replay at 600 px: 2 takes half the
# time of the default 4 for 3% more bytes; 0 makes 25% more (docs/performance.md).
WEBP_METHOD = 2
# A full frame at most every KEYFRAMES frames (and at the start of each part), the others only
# what changed. Measured on a 115-frame replay: 50 makes the file 23% smaller and 40%
# faster to encode than Pillow's default for lossy frames (a keyframe every 3-5 frames); a
# replay is watched, not seeked.
KEYFRAMES = 50


@dataclass(frozen=True)
class Frame:
    """One board picture (PNG bytes) and the line shown with it."""

    png: bytes
    caption: str


def animated_webp() -> bool:
    """Can this Pillow write animated WebP? Pillow 11.2 and later can whenever it has WebP at
    all (the separate "webp_anim" feature flag is gone); older releases say so by that flag."""
    if not features.check_module("webp"):
        return False
    return "webp_anim" not in features.features or bool(features.check_feature("webp_anim"))


def compose(frame: Frame, width: int) -> Image.Image:
    """The caption in a band on top and the board scaled to `width` under it (RGB)."""
    board = Image.open(io.BytesIO(frame.png)).convert("RGB")
    board_height = round(board.height * width / board.width)
    band = max(16, round(width * CAPTION_HEIGHT))
    out = Image.new("RGB", (width, band + board_height), BG)
    # BOX: a plain average, right for shrinking by about half and 3x faster than LANCZOS.
    out.paste(board.resize((width, board_height), Image.Resampling.BOX), (0, band))
    draw = Draw(out)
    draw.rectangle((0, 0, width, band - 1), fill=HEADER_BG)
    fnt = font(max(10, round(band * 0.55)))
    pad = round(band * 0.3)
    draw.text((pad, band / 2), fit_text(frame.caption, fnt, width - 2 * pad), fill=TEXT,
              font=fnt, anchor="lm")
    return out


def durations(count: int) -> list[int]:
    """Milliseconds per frame: the first and last held longer than the moves between."""
    if count == 1:
        return [LAST_MS]
    move = max(FAST_MS, min(MOVE_MS, PLAYING_MS // count))
    return [FIRST_MS] + [move] * (count - 2) + [LAST_MS]


def webp_part(images: Sequence[Image.Image], times: Sequence[int], quality: int,
              size: tuple[int, int]) -> bytes:
    """A run of consecutive frames as an animated WebP of its own, on a canvas of `size`
    (boards may differ in height: frames are padded at the bottom). `join_webp` strings the
    parts of a replay together, so the encoding can be spread over several short jobs; each
    part starts with a full frame. A part of one frame is a still picture."""
    frames = [im if im.size == size else _padded(im, size) for im in images]
    buf = io.BytesIO()
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=list(times),
                   loop=0, quality=quality, method=WEBP_METHOD, kmin=KEYFRAMES - 1,
                   kmax=KEYFRAMES, background=(*BG, 255))
    return buf.getvalue()


def join_webp(parts: Sequence[bytes]) -> bytes:
    """One animated WebP, looping forever, of parts made by `webp_part` on one canvas.

    The container (RIFF "WEBP": a VP8X header with the canvas size, ANIM, then one ANMF chunk
    per frame, each with its own position, size and duration) lets frames be concatenated as
    they are: a part's frames only refer to the frames before them in that part, and its first
    one covers the whole canvas.
    """
    if len(parts) == 1:
        return parts[0]
    first = _riff_chunks(parts[0])
    header = next(payload for tag, payload in first if tag == "VP8X")
    anim = next(payload for tag, payload in first if tag == "ANIM")  # background, loop count
    flags = 0
    frames: list[bytes] = []
    for part in parts:
        chunks = _riff_chunks(part)
        vp8x = next(payload for tag, payload in chunks if tag == "VP8X")
        if vp8x[4:10] != header[4:10]:
            raise ValueError("the parts of an animation must share one canvas size")
        flags |= vp8x[0]
        frames += [_riff_chunk("ANMF", payload) for tag, payload in chunks if tag == "ANMF"]
    body = b"".join([b"WEBP", _riff_chunk("VP8X", bytes([flags]) + header[1:]),
                     _riff_chunk("ANIM", anim), *frames])
    return b"RIFF" + len(body).to_bytes(4, "little") + body


def _riff_chunks(data: bytes) -> list[tuple[str, bytes]]:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise ValueError("not a WebP file")
    chunks, at = [], 12
    while at + 8 <= len(data):
        size = int.from_bytes(data[at + 4:at + 8], "little")
        chunks.append((data[at:at + 4].decode("ascii"), data[at + 8:at + 8 + size]))
        at += 8 + size + (size & 1)  # chunks are padded to an even length
    return chunks


def _riff_chunk(tag: str, payload: bytes) -> bytes:
    return tag.encode("ascii") + len(payload).to_bytes(4, "little") + payload \
        + b"\0" * (len(payload) & 1)


UNCHANGED = 255  # the GIF palette index that means "as in the previous frame" (transparent)


def gif(images: Sequence[Image.Image]) -> bytes:
    """The frames as one GIF looping forever (where Pillow cannot write animated WebP),
    padded at the bottom to the tallest frame.

    One palette of 255 colours for every frame (made from the last board, which shows the
    most), and in each frame after the first, every pixel that did not change is the
    transparent 256th index: frames are kept, not cleared (disposal 1), so those pixels show
    the frame before, and their long runs cost LZW almost nothing. Measured on a 630-frame
    replay at 400 px: 3.0 MB instead of 16.9 MB.
    """
    size = (max(im.width for im in images), max(im.height for im in images))
    frames = [im if im.size == size else _padded(im, size) for im in images]
    palette = adaptive_palette(frames[-1], UNCHANGED)
    mapped = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in frames]
    same = [255] + [0] * 255  # index difference 0 -> in the mask
    out = [mapped[0]]
    for before, now in zip(mapped, mapped[1:]):
        frame = now.copy()
        frame.paste(UNCHANGED, mask=ImageChops.difference(_indices(before), _indices(now)).point(same))
        out.append(frame)
    buf = io.BytesIO()
    out[0].save(buf, "GIF", save_all=True, append_images=out[1:], duration=durations(len(out)),
                loop=0, transparency=UNCHANGED, disposal=1, optimize=False)
    return buf.getvalue()


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare frames index by index)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    canvas = Image.new("RGB", size, BG)
    canvas.paste(image, (0, 0))
    return canvas

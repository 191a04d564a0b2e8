"""Animated replays: a game's board pictures in order, out as one animated WebP (or GIF).

Pure, like every renderer: it is given the boards (PNG bytes, already drawn from public views)
and a caption for each, and knows nothing of games, the bot or Discord. `compose` makes one
frame (caption band, board scaled down); `webp_part` encodes a run of frames and `join_webp`
strings the parts into one animated WebP, so the work can be cut into short jobs that return
only bytes of the final file; `gif_part` and `join_gif` do the same for the fallback where
Pillow cannot write animated WebP. A whole game must fit in one Discord attachment (10 MiB):
the caller steps down WIDTHS until the file fits. The first frame and the last one are held longer, so a viewer sees the set-up and
the result.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, features

from data.locales import DEFAULT, text

from .core import BG, HEADER_BG, TEXT, Draw, adaptive_palette, fit_text, font
from .words import fit

ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's limit for one file
# A move shows for MOVE_MS, or less in a long game so the whole replay lasts about
# PLAYING_MS (never under FAST_MS a move: the eye must still follow the board).
MOVE_MS = 800
FAST_MS = 250
PLAYING_MS = 150_000
FIRST_MS = 2500  # the set-up
LAST_MS = 6000  # the result
CAPTION_HEIGHT = 0.06  # of the frame's width: a line of text above the board
# Frame widths in px: the first whose file fits is used. Boards are 1,200 px wide; Discord
# shows an attachment at most about 550 px wide in chat.
WIDTHS: tuple[int, ...] = (600, 480, 400, 320)
# Lossless WebP: flat board artwork makes files as small as lossy quality 55 did, or 20-30%
# smaller for long games (2026-11-24, the longest self-play game of each at its largest table:
# Atmosfear 4.04 MB against 5.16 MB, Firetop 2.03 against 2.58, Kingdom 1.22 against 1.78;
# Castle and Don't Go In There within 3%), and the frames decode exactly, which lets a
# part be encoded as changes from the previous part's last frame (`webp_part`). In lossless
# mode "quality" is libwebp's effort. Measured on 40 Atmosfear frames at 600 px: method 1
# encodes them as fast as lossy method 2 (0.29 s); more effort or a higher method saved under
# 1% for up to twice the time, method 0 made them 7 times larger.
WEBP_EFFORT = 50
WEBP_METHOD = 1
# libwebp's keyframes (whole frames) at most this far apart: a replay is watched, not
# seeked, and a part is shorter than this, so only the very first frame is whole.
KEYFRAMES = 50
_DISPOSE_TO_BACKGROUND = 1  # bit 0 of an ANMF frame's flags


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


def describe_replay(title: str, names: Sequence[str], moves: int, winners: Sequence[str],
                    how: str = "", lang: str = DEFAULT) -> str:
    """The replay in words (in `lang`), for its attachment's description: which game, who
    played, how many moves it shows, who won and how (the last frame's result)."""
    told = text(lang, "replay.alt.between", game=title, names=tuple(names), count=moves) \
        if names else text(lang, "replay.alt.game", game=title, count=moves)
    result = text(lang, "replay.alt.won", names=tuple(winners), count=len(winners)) \
        if winners else text(lang, "replay.alt.nobody")
    result += f": {how.rstrip('.')}." if how else "."
    return fit([told, result])


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


def webp_part(images: Sequence[Image.Image], times: Sequence[int], size: tuple[int, int],
              follows: bool) -> bytes:
    """A run of consecutive frames as an animated WebP on a canvas of `size` (boards may differ
    in height: frames are padded at the bottom); `join_webp` strings the parts of a replay
    together, so a replay is encoded in several short jobs.

    `follows`: the first image is the previous part's last frame, encoded only so that the
    others are stored as what changed since it (lossless, the joined file's canvas holds
    exactly that frame when this part starts), then left out. Should libwebp have chosen to
    clear that frame before the next (its "dispose to background", which the previous part
    did not do), the part is encoded again from a whole frame. A part of one frame is a still
    picture, which cannot be joined.
    """
    frames = [im if im.size == size else _padded(im, size) for im in images]
    data = _animated_webp(frames, times)
    if not follows:
        return data
    chunks = _riff_chunks(data)
    anmf = [chunk for tag, chunk in chunks if tag == "ANMF"]
    if anmf[0][8 + 15] & _DISPOSE_TO_BACKGROUND:  # the flags end the frame header
        return _animated_webp(frames[1:], times[1:])
    return _riff_file([*(chunk for tag, chunk in chunks if tag in ("VP8X", "ANIM")), *anmf[1:]])


def _animated_webp(frames: Sequence[Image.Image], times: Sequence[int]) -> bytes:
    buf = io.BytesIO()
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=list(times),
                   loop=0, lossless=True, quality=WEBP_EFFORT, method=WEBP_METHOD,
                   kmin=KEYFRAMES - 1, kmax=KEYFRAMES, background=(*BG, 255))
    return buf.getvalue()


def join_webp(parts: Sequence[bytes]) -> bytes:
    """One animated WebP, looping forever, of parts made by `webp_part` on one canvas.

    The container (RIFF "WEBP": a VP8X header with the canvas size, ANIM, then one ANMF chunk
    per frame, each with its own position, size and duration) lets frames be concatenated as
    they are: a part's first frame is whole, or (`follows`) stored as changes from the frame
    that ends the part before, as are the frames after it.
    """
    if len(parts) == 1:
        return parts[0]
    first = dict(_riff_chunks(parts[0]))
    header = first["VP8X"][8:]
    flags = 0
    frames: list[memoryview] = []
    for part in parts:
        chunks = _riff_chunks(part)
        vp8x = dict(chunks)["VP8X"][8:]
        if vp8x[4:10] != header[4:10]:
            raise ValueError("the parts of an animation must share one canvas size")
        flags |= vp8x[0]
        frames += [chunk for tag, chunk in chunks if tag == "ANMF"]
    return _riff_file([_riff_chunk("VP8X", bytes([flags]) + header[1:]), first["ANIM"],
                       *frames])


def _riff_file(chunks: Sequence[bytes | memoryview]) -> bytes:
    """Chunks in a RIFF WebP file, copied once (a replay's parts add up to megabytes)."""
    size = 4 + sum(len(chunk) for chunk in chunks)
    return b"".join([b"RIFF", size.to_bytes(4, "little"), b"WEBP", *chunks])


def _riff_chunks(data: bytes) -> list[tuple[str, memoryview]]:
    """A WebP file's chunks, each whole (header, payload, padding) as a view into `data`."""
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise ValueError("not a WebP file")
    view, chunks, at = memoryview(data), [], 12
    while at + 8 <= len(data):
        size = int.from_bytes(data[at + 4:at + 8], "little")
        end = at + 8 + size + (size & 1)  # chunks are padded to an even length
        chunks.append((bytes(view[at:at + 4]).decode("ascii"), view[at:end]))
        at = end
    return chunks


def _riff_chunk(tag: str, payload: bytes) -> bytes:
    return tag.encode("ascii") + len(payload).to_bytes(4, "little") + payload \
        + b"\0" * (len(payload) & 1)


UNCHANGED = 255  # the GIF palette index that means "as in the previous frame" (transparent)
GIF_TRAILER = b";"


def gif_palette(image: Image.Image) -> list[int]:
    """The palette every frame of a GIF replay is mapped onto: 255 colours made from one frame
    (the last board, which shows the most), the 256th left for "unchanged"."""
    return adaptive_palette(image, UNCHANGED).getpalette() or []


def gif_part(images: Sequence[Image.Image], times: Sequence[int], palette: list[int],
             size: tuple[int, int], follows: bool) -> bytes:
    """A run of consecutive frames as a GIF on a canvas of `size` (padded at the bottom), all on
    one `palette`; `join_gif` strings the parts together. The fallback where Pillow cannot
    write animated WebP.

    In each frame after the first, every pixel that did not change is the transparent index:
    frames are kept, not cleared (disposal 1), so those pixels show the frame before, and
    their long runs cost LZW almost nothing (measured on a 630-frame replay at 400 px: 3.0 MB
    instead of 16.9 MB). `follows`: the first image is the previous part's last frame, left
    out once the others are stored as changes from it (a GIF is lossless on one palette).
    """
    frames = [im if im.size == size else _padded(im, size) for im in images]
    shared = Image.new("P", (1, 1))
    shared.putpalette(palette)
    mapped = [im.quantize(palette=shared, dither=Image.Dither.NONE) for im in frames]
    same = [255] + [0] * 255  # index difference 0 -> in the mask
    out = [mapped[0]]
    for before, now in zip(mapped, mapped[1:]):
        frame = now.copy()
        frame.paste(UNCHANGED, mask=ImageChops.difference(_indices(before), _indices(now)).point(same))
        out.append(frame)
    buf = io.BytesIO()
    out[0].save(buf, "GIF", save_all=True, append_images=out[1:], duration=list(times),
                loop=0, transparency=UNCHANGED, disposal=1, optimize=False)
    if not follows:
        return buf.getvalue()
    head, extensions, kept = _gif_blocks(buf.getvalue())
    return b"".join([head, *extensions, *kept[1:], GIF_TRAILER])


def join_gif(parts: Sequence[bytes]) -> bytes:
    """One GIF of parts made by `gif_part` on one canvas and palette: the first part's header
    (signature, logical screen, global colour table) and loop extension, then every part's
    frames (each a graphic control extension and an image) in order."""
    head, extensions, frames = _gif_blocks(parts[0])
    for part in parts[1:]:
        other, _, more = _gif_blocks(part)
        if other != head:
            raise ValueError("the parts of a GIF must share one canvas and palette")
        frames += more
    return b"".join([head, *extensions, *frames, GIF_TRAILER])


def _gif_blocks(data: bytes) -> tuple[memoryview, list[memoryview], list[memoryview]]:
    """A GIF's header, its extensions that belong to no image, and its frames (each a graphic
    control extension and the image after it), as views into `data`."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF file")
    view = memoryview(data)
    at = 13 + _colour_table(data[10])
    head, extensions, frames = view[:at], [], []
    control: int | None = None  # where the graphic control extension before an image starts
    while data[at:at + 1] != GIF_TRAILER:
        start = at
        if data[at] == 0x21:  # an extension: introducer, label, sub-blocks
            at = _sub_blocks(data, at + 2)
            if data[start + 1] == 0xF9:
                control = start
            else:
                extensions.append(view[start:at])
        elif data[at] == 0x2C:  # an image: descriptor, local colour table, LZW code size, data
            at = _sub_blocks(data, at + 10 + _colour_table(data[at + 9]) + 1)
            frames.append(view[start if control is None else control:at])
            control = None
        else:
            raise ValueError(f"not a GIF block at byte {at}")
    return head, extensions, frames


def _colour_table(flags: int) -> int:
    """Bytes of the colour table a logical screen or image descriptor's flags announce."""
    return 3 << ((flags & 7) + 1) if flags & 0x80 else 0


def _sub_blocks(data: bytes, at: int) -> int:
    """Where a chain of data sub-blocks starting at `at` ends (after its empty block)."""
    while data[at]:
        at += data[at] + 1
    return at + 1


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare frames index by index)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    canvas = Image.new("RGB", size, BG)
    canvas.paste(image, (0, 0))
    return canvas

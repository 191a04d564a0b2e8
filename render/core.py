"""Shared rendering helpers: fonts, colour palette, PNG encoding.

Everything here is pure: no discord, no clock, no network. Fonts are loaded
from the ``data`` package's ``fonts`` folder (DejaVu Sans, see
``data/fonts/LICENSE-DejaVu.txt``), read as package resources.
"""

from __future__ import annotations

import io
import math
import struct
import weakref
from functools import lru_cache
from typing import Callable, cast

from PIL import Image, ImageDraw, ImageFont
from zlib_ng import zlib_ng

from data import resource

FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

RGB = tuple[int, int, int]


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Cached DejaVu Sans font. BASIC layout: fast and identical everywhere."""
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), size,
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    return resource("fonts", FONT_FILES[bold]).read_bytes()


# Set only while a `render.textrecord.TextRecorder` records: (fitted, meant, font, room) -> None.
fit_listener: Callable[[str, str, ImageFont.FreeTypeFont, float], None] | None = None


@lru_cache(maxsize=8192)
def text_length(fnt: ImageFont.FreeTypeFont, text: str) -> float:
    """``fnt.getlength(text)``, cached: boards measure the same strings over and over."""
    return fnt.getlength(text)


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """Shorten ``text`` with an ellipsis so it fits in ``max_width`` pixels (cached).

    While a `render.textrecord.TextRecorder` records, it hears of every fit (``fit_listener``),
    so a test knows the whole string a shortened one stands for and the room it was given."""
    fitted = _fit_text(text, fnt, max_width)
    if fit_listener is not None:
        fit_listener(fitted, text, fnt, max_width)
    return fitted


@lru_cache(maxsize=4096)
def _fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    if text_length(fnt, text) <= max_width:
        return text
    while text and text_length(fnt, text + "…") > max_width:
        text = text[:-1]
    return text + "…"


NAME_KEEPS = 12  # a shortened name still shows this many characters


def smallest_size(size: int, smallest: int | None = None) -> int:
    """How far a font of ``size`` may shrink to fit: three quarters of it unless told."""
    return smallest if smallest is not None else max(14, (size * 3 + 3) // 4)


@lru_cache(maxsize=2048)
def largest_font(text: str, size: int, width: float, bold: bool = False,
                 smallest: int | None = None) -> ImageFont.FreeTypeFont | None:
    """The largest font from ``size`` down to `smallest_size` in which ``text`` fits ``width``."""
    for px in range(size, smallest_size(size, smallest) - 1, -1):
        if text_length(font(px, bold), text) <= width:
            return font(px, bold)
    return None


def fit_font(text: str, size: int, width: float, bold: bool = False,
             smallest: int | None = None) -> tuple[ImageFont.FreeTypeFont, str]:
    """``text`` in the largest font that holds it in ``width`` (see `largest_font`), or
    shortened by `fit_text` in the smallest: a long name loses a little size before it loses
    letters."""
    fnt = largest_font(text, size, width, bold, smallest) or font(smallest_size(size, smallest), bold)
    return fnt, fit_text(text, fnt, width)


def line_height(fnt: ImageFont.FreeTypeFont) -> int:
    ascent, descent = fnt.getmetrics()
    return ascent + descent


@lru_cache(maxsize=1024)
def _wrap_lines(text: str, fnt: ImageFont.FreeTypeFont, width: float, lines: int) -> tuple[str, ...] | None:
    """``text`` in at most ``lines`` lines of ``width``, broken at spaces, balanced so the
    longest line is as short as it can be; None when it does not fit."""
    words = text.split(" ")
    if lines <= 1 or len(words) == 1:
        return (text,) if text_length(fnt, text) <= width else None
    best: tuple[float, tuple[str, ...]] | None = None
    for cut in range(1, len(words)):
        head = " ".join(words[:cut])
        if text_length(fnt, head) > width:
            break
        rest = _wrap_lines(" ".join(words[cut:]), fnt, width, lines - 1)
        if rest is None:
            continue
        longest = max(text_length(fnt, line) for line in (head, *rest))
        if best is None or longest < best[0]:
            best = (longest, (head, *rest))
    return best[1] if best is not None else None


def fit_block(text: str, size: int, width: float, height: float, bold: bool = False,
              smallest: int | None = None) -> tuple[ImageFont.FreeTypeFont, tuple[str, ...]]:
    """``text`` laid out in a ``width`` x ``height`` box: one line in the largest font from
    ``size`` down to `smallest_size` that holds it, else as many lines as the height allows in
    the largest font that holds them, else one line at the smallest size, shortened."""
    fnt, lines = _block(text, size, width, height, bold, smallest)
    return fnt, lines or (fit_text(text, fnt, width),)


@lru_cache(maxsize=512)
def _block(text: str, size: int, width: float, height: float, bold: bool,
           smallest: int | None) -> tuple[ImageFont.FreeTypeFont, tuple[str, ...] | None]:
    fnt = largest_font(text, size, width, bold, smallest)
    if fnt is not None:
        return fnt, (text,)
    low = smallest_size(size, smallest)
    for px in range(size, low - 1, -1):
        f = font(px, bold)
        for lines in range(2, int(height // line_height(f)) + 1):
            wrapped = _wrap_lines(text, f, width, lines)
            if wrapped is not None:
                return f, wrapped
    return font(low, bold), None


def draw_lines(d: ImageDraw.ImageDraw, x: float, mid: float, lines: tuple[str, ...],
               fnt: ImageFont.FreeTypeFont, fill: RGB, align: str = "r") -> float:
    """Draw ``lines`` as a block centred on ``mid``, each line's right end at ``x`` (``align``
    "r"), its left end ("l") or its middle ("m"); returns the widest line's width."""
    step = line_height(fnt)
    top = mid - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        d.text((x, top + i * step), line, font=fnt, fill=fill, anchor=align + "m")
    return max(text_length(fnt, line) for line in lines)


def seat_names(view: dict) -> tuple[str, ...]:
    """The players' names a view carries (``view["names"]``), for phrases that mention them."""
    return tuple(str(n) for n in view.get("names") or () if n)


PHRASE_SMALLEST = 15  # px: how far a header phrase may shrink before its names are shortened


def fit_phrase(text: str, names: tuple[str, ...], size: int, width: float, height: float,
               bold: bool = True, smallest: int = PHRASE_SMALLEST) -> tuple[ImageFont.FreeTypeFont, tuple[str, ...]]:
    """A header phrase naming players ("Ana and Bo to answer") in a ``width`` x ``height``
    box: whole, on as many lines as fit, in a font down to ``smallest``; if that cannot hold
    it, with each long name cut to `NAME_KEEPS` characters; only then shortened at the end."""
    fnt, lines = _block(text, size, width, height, bold, smallest)
    if lines is not None:
        return fnt, lines
    for name in sorted(names, key=len, reverse=True):
        if len(name) > NAME_KEEPS + 1:
            text = text.replace(name, name[:NAME_KEEPS].rstrip() + "…")
    fnt, lines = _block(text, size, width, height, bold, smallest)
    return fnt, lines or (fit_text(text, fnt, width),)


NAME_FLOOR = 14  # px: the smallest a name is drawn
PHONE_WIDTH = 360  # px: how wide Discord's mobile client shows a picture
PHONE_TEXT = 9  # px: the smallest text a phone shows that reads without zooming


def phone_floor(width: int) -> int:
    """The smallest font, in px, that a picture ``width`` px wide may draw: its text still
    `PHONE_TEXT` px tall when a phone shows it `PHONE_WIDTH` px wide."""
    return -(-width * PHONE_TEXT // PHONE_WIDTH)


def fit_name(name: str, size: int, width: float, bold: bool = True) -> tuple[ImageFont.FreeTypeFont, str]:
    """A player's name in ``width``: whole in the largest font down to three quarters of
    ``size``; when it must be shortened, in a font small enough (down to `NAME_FLOOR`) that
    it keeps `NAME_KEEPS` characters."""
    fnt, text = fit_font(name, size, width, bold)
    px = fnt.size
    while text != name and len(text) - 1 < NAME_KEEPS and px > NAME_FLOOR:
        px -= 1
        fnt = font(px, bold)
        text = fit_text(name, fnt, width)
    return fnt, text


@lru_cache(maxsize=2048)  # masks are a few KB each: a few MB at most
def _text_mask(fnt: ImageFont.FreeTypeFont, text: str, anchor: str | None, stroke_width: float,
               start: tuple[float, float]) -> tuple[object, tuple[int, int]]:
    """The antialiased coverage mask of one line of text and its offset, as ImageDraw makes it."""
    return fnt.getmask2(text, "L", None, None, None, stroke_width, anchor, 0, start, stroke_filled=True)


Box = tuple[int, int, int, int]


class Board(Image.Image):
    """A board being drawn on a copy of a cached static layer (`board`): it notes the box of
    everything pasted on it, and a `Draw` on it the box of every shape and string, so that
    `encode_png` maps onto the palette only those boxes and takes the rest from the layer,
    mapped once (a full-image quantize costs 1-1.5 ms a board, in proportion to its pixels; the
    boxes cover a quarter to three quarters of a board, see `map_board`). Draw on a Board with
    `Draw` only: plain ``ImageDraw`` notes nothing."""

    base: Image.Image
    noted: list[Box]

    def paste(self, im, box=None, mask=None) -> None:  # type: ignore[override]
        if isinstance(box, Image.Image):
            box, mask = None, box
        if box is not None and len(box) == 4:
            self.noted.append(tuple(int(v) for v in box))  # type: ignore[arg-type]
        else:  # a corner (or none): Pillow takes the size from the image pasted, or the mask
            x, y = (int(box[0]), int(box[1])) if box is not None else (0, 0)
            source = im if isinstance(im, Image.Image) else mask
            w, h = source.size if source is not None else self.size
            self.noted.append((x, y, x + w, y + h))
        super().paste(im, box, mask)


def board(base: Image.Image) -> Board:
    """A copy of the static layer ``base`` to draw one board on (see `Board`)."""
    im = base.copy()
    im.__class__ = Board
    drawn = cast(Board, im)
    drawn.base, drawn.noted = base, []
    return drawn


def _reach(xy, width: float) -> Box:
    """The pixels a shape given by ``xy`` (points, flat or paired, or a box) and an outline or
    line ``width`` may touch: its bounds, widened by the width and a pixel of antialiasing."""
    if isinstance(xy[0], (int, float)):
        xs, ys = xy[0::2], xy[1::2]
    else:
        xs, ys = [p[0] for p in xy], [p[1] for p in xy]
    pad = (width or 0) + 2
    return (int(min(xs) - pad), int(min(ys) - pad), int(max(xs) + pad) + 1, int(max(ys) + pad) + 1)


def _noting(name: str, width_at: int):
    """``ImageDraw.ImageDraw``'s shape ``name`` (looked up at each call, so a test's wrapper of
    it still runs), noting the shape's `_reach` on a `Board`; ``width_at``: where in the
    arguments after ``xy`` the outline width comes."""
    def shape(self: "Draw", xy, *args, **kwargs) -> None:
        if self.noted is not None:
            width = kwargs.get("width", args[width_at] if len(args) > width_at else 1)
            self.noted.append(_reach(xy, width))
        getattr(ImageDraw.ImageDraw, name)(self, xy, *args, **kwargs)
    shape.__name__ = shape.__qualname__ = name
    return shape


def _refused(name: str):
    """``ImageDraw.ImageDraw``'s ``name``, which the boards do not use: on a `Board` it would go
    unnoted, so there it is refused."""
    def refused(self: "Draw", *args, **kwargs):
        if self.noted is not None:
            raise TypeError(f"Draw.{name} is not noted on a Board")
        return getattr(ImageDraw.ImageDraw, name)(self, *args, **kwargs)
    refused.__name__ = refused.__qualname__ = name
    return refused


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.ImageDraw`` whose ``text`` reuses glyph masks, and which notes on a `Board`
    the box of whatever it draws.

    Rendering a string with FreeType is most of the cost of a board's text; the same strings
    (labels, names, numbers) come back on every board, so their masks are cached (keyed by
    font, string, anchor, stroke and sub-pixel start) and only blended per call. The pixels are
    exactly those of ``ImageDraw.text`` for one line of ``str`` in an "RGB"/"RGBA"/"L" image;
    anything else (several lines, other arguments) goes to ``ImageDraw.text`` itself.
    """

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        self.noted: list[Box] | None = im.noted if isinstance(im, Board) else None

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, stroke_width: float = 0,  # type: ignore[override]
             stroke_fill=None, **kwargs) -> None:
        if (args or kwargs or self.fontmode != "L" or not isinstance(text, str) or "\n" in text
                or not isinstance(font, ImageFont.FreeTypeFont)):
            if self.noted is not None:
                self.noted.append((0, 0, *self._image.size))  # rare: no need to know better
            super().text(xy, text, fill, font, anchor, *args, stroke_width=stroke_width,
                         stroke_fill=stroke_fill, **kwargs)
            return
        if anchor is not None and len(anchor) != 2:
            raise ValueError("anchor must be a 2 character string")
        ink = self._ink(fill)
        if ink is None:
            return
        x, y = xy
        ix, iy = int(x), int(y)
        start = (math.modf(x)[0], math.modf(y)[0])
        anchor = anchor or "la"
        if stroke_width:
            stroke_ink = self._ink(stroke_fill) if stroke_fill is not None else ink
            mask, (ox, oy) = _text_mask(font, text, anchor, stroke_width, start)
            self._bitmap(ix + ox, iy + oy, mask, stroke_ink)
            if ink == stroke_ink:
                return
        mask, (ox, oy) = _text_mask(font, text, anchor, 0, start)
        self._bitmap(ix + ox, iy + oy, mask, ink)

    def _bitmap(self, x: int, y: int, mask, ink) -> None:
        if self.noted is not None:
            w, h = mask.size
            self.noted.append((x, y, x + w, y + h))
        self.draw.draw_bitmap((x, y), mask, ink)

    def _ink(self, fill):
        ink, fill_ink = self._getink(fill)
        return fill_ink if ink is None else ink

    def regular_polygon(self, bounding_circle, *args, **kwargs) -> None:  # type: ignore[override]
        if self.noted is not None:
            *centre, r = bounding_circle
            x, y = centre[0] if len(centre) == 1 else centre
            width = kwargs.get("width", args[4] if len(args) > 4 else 1)
            self.noted.append(_reach((x - r, y - r, x + r, y + r), width))
        ImageDraw.ImageDraw.regular_polygon(self, bounding_circle, *args, **kwargs)

    line = _noting("line", 1)
    rectangle = _noting("rectangle", 2)
    ellipse = _noting("ellipse", 2)
    polygon = _noting("polygon", 2)
    rounded_rectangle = _noting("rounded_rectangle", 3)
    arc = _noting("arc", 3)
    chord = _noting("chord", 4)
    pieslice = _noting("pieslice", 4)
    point = _refused("point")
    bitmap = _refused("bitmap")
    circle = _refused("circle")
    shape = _refused("shape")
    multiline_text = _refused("multiline_text")


# --- palette ---------------------------------------------------------------
# Seat / door colours: saturated, distinct in lightness too (yellow is light,
# blue darkest) and always paired with a letter or a seat number.
SEAT_COLOURS: dict[str, RGB] = {
    "red": (200, 40, 40),
    "blue": (40, 90, 210),
    "green": (30, 150, 70),
    "yellow": (230, 190, 30),
    "purple": (150, 70, 200),
    "orange": (235, 120, 20),
    "cyan": (40, 185, 200),
}
COLOUR_LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "orange": "O",
                  "cyan": "C"}
COLOUR_NAMES = {name: name.capitalize() for name in SEAT_COLOURS}
NEUTRAL: RGB = (120, 120, 128)  # unknown colour names fall back to this

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
BG: RGB = (36, 39, 46)  # opaque canvas: dark slate, framed so it reads on light themes too
HEADER_BG: RGB = (24, 26, 31)
PANEL_BG: RGB = (52, 56, 66)
PANEL_HI: RGB = (78, 84, 98)  # current player's row
GROUT: RGB = (18, 18, 20)
STONE: RGB = (226, 217, 196)
STONE_EDGE: RGB = (160, 148, 126)
BAND_NEUTRAL: RGB = (66, 70, 80)
TEXT: RGB = (245, 245, 245)
TEXT_DIM: RGB = (185, 190, 200)
WARN: RGB = (255, 165, 60)
DOORWAY: RGB = (30, 26, 24)
BARS: RGB = (205, 210, 220)
KEY_GOLD: RGB = (245, 195, 40)
TURN_GREEN: RGB = (120, 235, 130)
ROPE: RGB = (70, 45, 20)
PASSAGE: RGB = (120, 50, 170)
HIGHLIGHT: RGB = (0, 235, 255)
GOLD: RGB = (250, 205, 45)
CARD_FACE: RGB = (250, 248, 240)
CARD_BACK: RGB = (90, 40, 50)


def seat_rgb(colour: str | None) -> RGB:
    return SEAT_COLOURS.get(colour or "", NEUTRAL)


def ink_on(colour: str | None) -> RGB:
    """Text colour that contrasts with a seat/door colour fill."""
    return BLACK if colour == "yellow" else WHITE


def shade(rgb: RGB, f: float) -> RGB:
    """Darken (f < 1) a colour."""
    return tuple(max(0, min(255, int(round(c * f)))) for c in rgb)  # type: ignore[return-value]


def tint(rgb: RGB, f: float) -> RGB:
    """Mix a colour towards white by fraction ``f``."""
    return tuple(int(round(c + (255 - c) * f)) for c in rgb)  # type: ignore[return-value]


# --- encoding --------------------------------------------------------------
PNG_COMPRESS_LEVEL = 1  # Pillow's encoder (zlib), for the rare image that is not a palette one
# zlib-ng, for palette images (palette_png): level 5 makes a board's PNG 15-20% smaller than
# level 2 (mean boards 49-78 KB) for ~1.5 ms more a board.
DEFLATE_LEVEL = 5
PALETTE_COLOURS = 256


def adaptive_palette(img: Image.Image, colours: int = PALETTE_COLOURS) -> Image.Image:
    """A "P" image whose palette suits ``img`` (fast octree, no dithering)."""
    return img.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(
    img: Image.Image,
    *,
    palette: Image.Image | None = None,
    adaptive: bool = True,
    compress_level: int = PNG_COMPRESS_LEVEL,
) -> bytes:
    """Encode an RGB image as PNG bytes, tuned for speed.

    Board images are flat-colour artwork plus antialiased edges, so a
    256-colour palette is visually lossless, makes the PNG ~3x smaller and
    leaves zlib a third of the bytes.

    * ``palette`` (a "P" image, e.g. from :func:`adaptive_palette` on a
      representative picture): map onto that fixed palette, ~1.1 ms per
      megapixel; a `Board` only where it was drawn on (`map_board`).
      Renderers compute theirs once and pass it here.
    * otherwise, if ``adaptive``: build a palette for this image (fast octree,
      ~11 ms per megapixel).
    * ``adaptive=False`` and no palette: plain RGB PNG.

    Palette images are written by :func:`palette_png` (zlib-ng); others by
    Pillow at ``compress_level`` 1, zlib's measured sweet spot (6 costs ~40%
    more time for ~15% fewer bytes).

    On a 1200 px wide board (1-1.4 megapixels) mapping what was drawn onto the
    palette takes ~0.5-1.5 ms and deflating ~2.5-3.5 ms; drawing, with cached
    layers, sprites and glyphs, ~1 ms (``bench.render_timing.measure``
    times it all).
    """
    if img.mode == "RGB":
        if palette is not None:
            img = map_board(img, palette) if isinstance(img, Board) else \
                img.quantize(palette=palette, dither=Image.Dither.NONE)
        elif adaptive:
            img = adaptive_palette(img)
    if img.mode == "P" and "transparency" not in img.info and img.palette is not None \
            and img.palette.mode == "RGB" and img.getpalette("RGB"):
        return palette_png(img)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()


MAP_BAND = 32  # rows: a Board's noted boxes are mapped in bands this high
MAP_GAP = 96  # px: boxes in a band closer than this are mapped as one
MAP_SHARE = 0.6  # above this share of the image drawn on, mapping it all is cheaper


def map_board(img: Board, palette: Image.Image) -> Image.Image:
    """``img`` mapped onto ``palette``, as ``img.quantize(palette=...)`` maps it, but only where
    something was drawn (its noted boxes): the rest comes from its static layer, mapped once.
    Pillow maps each pixel by its colour alone, so the pixels are the same either way."""
    regions = _regions(img.noted, *img.size)
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions) > MAP_SHARE * img.width * img.height:
        return img.quantize(palette=palette, dither=Image.Dither.NONE)
    out = _mapped_layer(img.base, palette).copy()
    for box in regions:
        out.paste(img.crop(box).quantize(palette=palette, dither=Image.Dither.NONE), box[:2])
    return out


def _regions(boxes: list[Box], width: int, height: int) -> list[Box]:
    """``boxes`` clipped to the image and merged into few rectangles that hold them all: per
    band of `MAP_BAND` rows, runs of boxes less than `MAP_GAP` apart; a run the same as the one
    in the band above extends it (a panel is one rectangle, not one per band)."""
    bands: dict[int, list[tuple[int, int]]] = {}
    for x0, y0, x1, y1 in boxes:
        x0, x1 = max(0, x0), min(width, x1)
        y0, y1 = max(0, y0), min(height, y1)
        if x0 < x1 and y0 < y1:
            for band in range(y0 // MAP_BAND, (y1 - 1) // MAP_BAND + 1):
                bands.setdefault(band, []).append((x0, x1))
    done: list[Box] = []
    open_runs: dict[tuple[int, int], int] = {}  # run -> top of the rectangle it extends
    end = 0  # the bottom of the last band seen
    for band in sorted(bands):
        runs: list[tuple[int, int]] = []
        for x0, x1 in sorted(bands[band]):
            if runs and x0 <= runs[-1][1] + MAP_GAP:
                runs[-1] = (runs[-1][0], max(runs[-1][1], x1))
            else:
                runs.append((x0, x1))
        top = band * MAP_BAND
        still = {run: open_runs.pop(run, top) for run in runs} if top == end else \
            {run: top for run in runs}
        done.extend((x0, y, x1, end) for (x0, x1), y in open_runs.items())
        open_runs, end = still, min(height, top + MAP_BAND)
    return done + [(x0, y, x1, end) for (x0, x1), y in open_runs.items()]


_MAPPED: dict[int, tuple[weakref.ref, Image.Image, Image.Image]] = {}


def _mapped_layer(base: Image.Image, palette: Image.Image) -> Image.Image:
    """The static layer ``base`` mapped onto ``palette``, once for as long as ``base`` lives
    (layers are cached by the renderers; this follows them)."""
    key = id(base)
    entry = _MAPPED.get(key)
    if entry is None or entry[0]() is not base or entry[1] is not palette:
        entry = (weakref.ref(base, lambda _: _MAPPED.pop(key, None)), palette,
                 base.quantize(palette=palette, dither=Image.Dither.NONE))
        _MAPPED[key] = entry
    return entry[2]


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data \
        + struct.pack(">I", zlib_ng.crc32(data, zlib_ng.crc32(tag)))


def palette_png(img: Image.Image, level: int = DEFLATE_LEVEL) -> bytes:
    """PNG bytes of a "P" image (8-bit indices, RGB palette, no filtering), written directly.

    The file Pillow writes for such an image (IHDR, PLTE, IDAT, IEND; filter type 0 on every
    row, as Pillow uses for palette images), but deflated by zlib-ng at `DEFLATE_LEVEL`
    (~3 ms a board, quiet machine). The scanlines are laid out
    by one paste (a column of zeros for the filter bytes) and deflated in one call.
    """
    w, h = img.size
    framed = Image.new("P", (w + 1, h), 0)
    framed.paste(img, (1, 0))
    z = zlib_ng.compressobj(level, zlib_ng.DEFLATED, 15, 8)
    idat = z.compress(framed.tobytes()) + z.flush()
    plte = bytes(img.getpalette("RGB") or [])
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", plte), _chunk(b"IDAT", idat), _chunk(b"IEND", b"")))


def default_png(img: Image.Image) -> bytes:
    """Pillow's default PNG encoding: the benchmark's baseline for `encode_png`."""
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()

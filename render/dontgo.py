"""Board image for "Don't Go In There".

``render_dontgo(view) -> bytes`` turns the public *view dict* into a PNG.
``draw_dontgo(view) -> PIL.Image`` gives the RGB image before encoding.
``render_dontgo_naive(view)`` draws the very same picture from scratch (no
caches) and encodes with Pillow's default PNG settings; it exists for
benchmarks.

Picture, top to bottom: header (title, turn and phase, then who moves; the
winner banner once the game is over) and the house: three rooms side by side,
each with its three cards above it and the dice roll below it.

Phones first: the picture is the house alone, `WIDTH` px wide, so a phone
showing it 360 px wide still reads every number on it (no font under
`FLOOR`). What only reads large is the table's text
(`render.words.dontgo.panel`): the players' tableaus, meeples and curses,
the cards' names, the deck, and the results.

Only public data is drawn: ``view["secret"]`` and players' ``ghosts`` are
never read.

Speed: the background (header band, house wall) is one cached layer; rooms
(without meeples), cards, dice and meeples are sprites drawn once at 3x,
downsampled (antialiased) and cached (room cards already laid on the wall, so
they paste as plain copies). Per render only text (glyphs cached, see
``core.Draw``), highlights and pastes happen, then a fixed-palette PNG encode.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from PIL import Image, ImageDraw

from data.locales import DEFAULT

from . import core
from .core import BLACK, WHITE, fit_text, font, ink_on, seat_rgb, shade, text_length, tint
from .words.dontgo import room_word, say

# --------------------------------------------------------------------------
# geometry

WIDTH = 900
FLOOR = core.phone_floor(WIDTH)  # px: the smallest font drawn
TITLE = "Don't Go In There"
SS = 3  # supersampling factor for sprites
PAD = 12
HEADER_H = 104  # two rows: the title, turn and phase, then who moves
ROW_MID = (28, 76)  # the rows' middles
COL_W = 284  # one room column
COL_GAP = 12
COL_X0 = (WIDTH - 3 * COL_W - 2 * COL_GAP) // 2
CARD_W, CARD_H = 88, 132
CARD_GAP = (COL_W - 3 * CARD_W) // 2
ROOM_NAME_H = 46
ROOM_BODY_H = 300  # spaces area (5 spaces of 60 px)
ROOM_H = ROOM_NAME_H + ROOM_BODY_H + 10
DIE = 52
DICE_H = 100
HOUSE_TOP = HEADER_H + 24
CARDS_Y = HOUSE_TOP + 10
ROOM_Y = CARDS_Y + CARD_H + 12
DICE_Y = ROOM_Y + ROOM_H + 8
HOUSE_BOTTOM = DICE_Y + DICE_H + 6
HEIGHT = HOUSE_BOTTOM + PAD
MEEPLE = 54  # meeple height, on a space and in the header

# colours of this game (seat colours come from render.core)
WALL: core.RGB = (44, 36, 56)  # the house behind the rooms
WALL_EDGE: core.RGB = (70, 58, 88)
CURSE: core.RGB = (126, 46, 160)
CURSE_INK: core.RGB = (92, 26, 120)
GHOST: core.RGB = (240, 244, 255)
BEAM: core.RGB = (255, 232, 120)
BOARD_WOOD: core.RGB = (150, 104, 60)
CLOSED: core.RGB = (74, 74, 80)
DIE_FACE: core.RGB = (78, 52, 110)

ROOM_TINTS: dict[str, core.RGB] = {
    "Attic": (120, 88, 58),
    "Basement": (72, 80, 92),
    "Hallway": (124, 48, 58),
    "Library": (42, 96, 70),
    "Nursery": (150, 92, 128),
    "Secret Passage": (84, 58, 130),
}
ROOM_DEFAULT: core.RGB = (90, 90, 100)

CARD_TYPES = ("amulet", "mirror", "cat", "musicbox", "clocks", "portrait", "doll", "ring", "holywater", "tome",
              "mask", "twin")
TYPE_TINTS: dict[str, core.RGB] = {
    "amulet": (246, 214, 120), "mirror": (176, 206, 226), "cat": (200, 196, 210), "musicbox": (232, 190, 150),
    "clocks": (214, 222, 170), "portrait": (222, 196, 160), "doll": (246, 190, 210), "ring": (190, 214, 246),
    "holywater": (170, 226, 236), "tome": (214, 176, 176), "mask": (226, 210, 236), "twin": (186, 230, 190),
}
TYPE_DEFAULT_TINT: core.RGB = (210, 210, 214)
PHASES = ("place", "reroll", "change", "pick", "choose", "over")  # the phases the header names


def column_x(slot: int) -> int:
    return COL_X0 + slot * (COL_W + COL_GAP)


# --------------------------------------------------------------------------
# icon primitives (drawn into supersampled canvases; float coordinates)


def _down(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    return im.resize(size, Image.Resampling.BOX)  # an average: no ringing, fewer colours


def _ghost(d: ImageDraw.ImageDraw, box, fill=GHOST, outline=BLACK) -> None:
    """Friendly sheet ghost: dome, scalloped hem, two eyes."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    lw = max(1.5, w * 0.07)

    def shape(k: float, col) -> None:
        l, t, r, b = x0 - k, y0 - k, x1 + k, y1 + k
        ww = r - l
        hem = b - ww / 6
        d.pieslice((l, t, r, t + ww), 180, 360, fill=col)
        d.rectangle((l, t + ww / 2 - 1, r, hem), fill=col)
        for i in range(3):
            cx = l + ww * (i + 0.5) / 3
            rr = ww / 6
            d.ellipse((cx - rr, hem - rr, cx + rr, hem + rr), fill=col)

    shape(lw, outline)
    shape(0, fill)
    ex = w * 0.16
    for cx in (x0 + w * 0.34, x0 + w * 0.66):
        d.ellipse((cx - ex / 2, y0 + h * 0.3, cx + ex / 2, y0 + h * 0.3 + ex * 1.5), fill=BLACK)


def _flashlight(d, box) -> None:
    """Torch pointing right with a pale beam."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cy = (y0 + y1) / 2
    lw = max(1.5, h * 0.08)
    hx = x0 + 0.42 * w  # body/head joint
    lx = x0 + 0.58 * w  # lens
    d.polygon([(lx, cy - 0.22 * h), (x1, cy - 0.5 * h), (x1, cy + 0.5 * h), (lx, cy + 0.22 * h)], fill=BEAM)
    d.rounded_rectangle((x0, cy - 0.2 * h - lw, hx + lw, cy + 0.2 * h + lw), radius=h * 0.08, fill=BLACK)
    d.rounded_rectangle((x0 + lw, cy - 0.2 * h, hx, cy + 0.2 * h), radius=h * 0.06, fill=(86, 88, 104))
    d.polygon([(hx - lw, cy - 0.2 * h - lw), (lx + lw, cy - 0.32 * h - lw), (lx + lw, cy + 0.32 * h + lw),
               (hx - lw, cy + 0.2 * h + lw)], fill=BLACK)
    d.polygon([(hx, cy - 0.2 * h), (lx, cy - 0.32 * h), (lx, cy + 0.32 * h), (hx, cy + 0.2 * h)],
              fill=(200, 204, 214))
    d.rectangle((x0 + 0.18 * w, cy - 0.2 * h - lw * 0.8, x0 + 0.28 * w, cy - 0.2 * h + lw * 0.4), fill=(220, 60, 50))


def _hand(d, box, fill=CURSE, outline=BLACK) -> None:
    """Cursed open hand (the curse symbol)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    fw = w * 0.15
    parts = [("rr", (x0 + 0.2 * w, y0 + 0.42 * h, x0 + 0.84 * w, y1 - 0.02 * h), w * 0.18)]
    for i, top in enumerate((0.14, 0.04, 0.08, 0.2)):
        fx = x0 + 0.2 * w + i * (0.64 * w - fw) / 3
        parts.append(("rr", (fx, y0 + top * h, fx + fw, y0 + 0.62 * h), fw / 2))
    thumb = [(x0 + 0.02 * w, y0 + 0.44 * h), (x0 + 0.14 * w, y0 + 0.38 * h), (x0 + 0.34 * w, y0 + 0.66 * h),
             (x0 + 0.26 * w, y0 + 0.8 * h)]
    lw = max(1.5, w * 0.06)
    for col, k in ((outline, lw), (fill, 0.0)):
        for _, (l, t, r, b), rad in parts:
            d.rounded_rectangle((l - k, t - k, r + k, b + k), radius=rad + k, fill=col)
        if k:
            d.line(thumb + [thumb[0]], fill=col, width=int(2 * k), joint="curve")
        d.polygon(thumb, fill=col)
    # a swirl on the palm marks the curse
    cx, cy = x0 + 0.52 * w, y0 + 0.72 * h
    r = w * 0.13
    d.arc((cx - r, cy - r, cx + r, cy + r), 40, 330, fill=WHITE, width=max(1, int(w * 0.05)))


MEEPLE_POLY = ((0.30, 0.38), (0.70, 0.38), (0.97, 0.50), (0.93, 0.63), (0.70, 0.58), (0.82, 0.98), (0.57, 0.98),
               (0.50, 0.82), (0.43, 0.98), (0.18, 0.98), (0.30, 0.58), (0.07, 0.63), (0.03, 0.50))


def _meeple(d, box, colour: str | None, label: str, text_px: int) -> None:
    """Meeple in seat colour, white halo + black edge, seat number on the chest."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pts = [(x0 + px * w, y0 + py * h) for px, py in MEEPLE_POLY]
    hc, hr = (x0 + 0.5 * w, y0 + 0.2 * h), 0.18 * h
    lw = h * 0.05
    for col, k in ((WHITE, 2.6 * lw), (BLACK, lw), (seat_rgb(colour), 0.0)):
        if k:
            d.line(pts + [pts[0], pts[1]], fill=col, width=int(2 * k), joint="curve")
        d.polygon(pts, fill=col)
        d.ellipse((hc[0] - hr - k, hc[1] - hr - k, hc[0] + hr + k, hc[1] + hr + k), fill=col)
    ink = ink_on(colour)
    d.text((x0 + 0.5 * w, y0 + 0.64 * h), label, font=font(text_px, True), fill=ink, anchor="mm",
           stroke_width=max(1, text_px // 12), stroke_fill=BLACK if ink == WHITE else WHITE)


def _small_die(d, box, pips: int = 3) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    d.rounded_rectangle(box, radius=s * 0.2, fill=WHITE, outline=BLACK, width=max(2, int(s * 0.09)))
    r = s * 0.09
    for fx, fy in ((0.3, 0.3), (0.5, 0.5), (0.7, 0.7))[:pips]:
        cx, cy = x0 + fx * s, y0 + fy * s
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLACK)


def _type_icon(d, kind: str, box) -> None:
    """Distinct little picture per card type (unknown types get a "?")."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    lw = max(2, int(s * 0.06))
    ol = BLACK

    def P(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * s, y0 + fy * s

    def B(a: float, b: float, c: float, e: float) -> tuple[float, float, float, float]:
        return x0 + a * s, y0 + b * s, x0 + c * s, y0 + e * s

    if kind == "amulet":
        d.line([P(0.22, 0.04), P(0.5, 0.46), P(0.78, 0.04)], fill=(120, 100, 60), width=lw, joint="curve")
        d.ellipse(B(0.24, 0.4, 0.76, 0.92), fill=(236, 184, 40), outline=ol, width=lw)
        d.polygon([P(0.5, 0.5), P(0.64, 0.66), P(0.5, 0.82), P(0.36, 0.66)], fill=(200, 30, 60), outline=ol)
    elif kind == "mirror":
        d.rounded_rectangle(B(0.43, 0.7, 0.57, 0.98), radius=s * 0.05, fill=(150, 100, 40), outline=ol, width=lw)
        d.ellipse(B(0.18, 0.02, 0.82, 0.78), fill=(222, 176, 60), outline=ol, width=lw)
        d.ellipse(B(0.27, 0.1, 0.73, 0.7), fill=(150, 200, 235), outline=ol, width=max(1, lw // 2))
        d.line([P(0.38, 0.46), P(0.56, 0.22)], fill=WHITE, width=lw * 2)
    elif kind == "cat":
        fur = (40, 40, 48)
        d.polygon([P(0.12, 0.5), P(0.16, 0.04), P(0.44, 0.3)], fill=fur)
        d.polygon([P(0.88, 0.5), P(0.84, 0.04), P(0.56, 0.3)], fill=fur)
        d.ellipse(B(0.1, 0.22, 0.9, 0.94), fill=fur)
        for ex in (0.34, 0.66):
            d.ellipse(B(ex - 0.11, 0.44, ex + 0.11, 0.64), fill=(250, 220, 40))
            d.ellipse(B(ex - 0.03, 0.45, ex + 0.03, 0.63), fill=BLACK)
        d.polygon([P(0.45, 0.72), P(0.55, 0.72), P(0.5, 0.78)], fill=(240, 140, 160))
    elif kind == "musicbox":
        d.rectangle(B(0.08, 0.5, 0.92, 0.96), fill=(170, 100, 50), outline=ol, width=lw)
        d.line([P(0.08, 0.62), P(0.92, 0.62)], fill=ol, width=lw)
        d.rectangle(B(0.8, 0.7, 0.98, 0.76), fill=(230, 190, 70), outline=ol)
        d.ellipse(B(0.28, 0.3, 0.46, 0.44), fill=BLACK)
        d.rectangle(B(0.41, 0.04, 0.46, 0.38), fill=BLACK)
        d.polygon([P(0.46, 0.04), P(0.66, 0.14), P(0.66, 0.24), P(0.46, 0.14)], fill=BLACK)
    elif kind == "clocks":
        for (a, b, r), face in (((0.64, 0.36, 0.32), (236, 224, 190)), ((0.4, 0.6, 0.38), (252, 248, 236))):
            d.ellipse(B(a - r, b - r, a + r, b + r), fill=face, outline=ol, width=lw)
        d.line([P(0.4, 0.6), P(0.4, 0.34)], fill=ol, width=lw)
        d.line([P(0.4, 0.6), P(0.58, 0.68)], fill=ol, width=lw)
    elif kind == "portrait":
        d.rectangle(B(0.1, 0.02, 0.9, 0.98), fill=(200, 150, 40), outline=ol, width=lw)
        d.rectangle(B(0.22, 0.14, 0.78, 0.86), fill=(60, 50, 70))
        d.pieslice(B(0.28, 0.56, 0.72, 1.12), 180, 360, fill=(170, 160, 180))
        d.ellipse(B(0.38, 0.26, 0.62, 0.52), fill=(170, 160, 180))
        d.line([P(0.22, 0.86), P(0.78, 0.86)], fill=(200, 150, 40), width=lw)
    elif kind == "doll":
        d.polygon([P(0.5, 0.4), P(0.84, 0.98), P(0.16, 0.98)], fill=(235, 110, 150), outline=ol)
        d.ellipse(B(0.22, 0.04, 0.78, 0.52), fill=(120, 70, 40))
        d.ellipse(B(0.3, 0.12, 0.7, 0.52), fill=(250, 214, 190), outline=ol, width=lw)
        for ex in (0.42, 0.58):
            d.ellipse(B(ex - 0.04, 0.26, ex + 0.04, 0.34), fill=BLACK)
        d.line([P(0.43, 0.44), P(0.57, 0.42)], fill=(200, 40, 60), width=lw)
    elif kind == "ring":
        d.ellipse(B(0.14, 0.3, 0.86, 0.98), outline=ol, width=lw * 4)
        d.ellipse(B(0.14 + 0.03, 0.33, 0.86 - 0.03, 0.95), outline=(236, 190, 50), width=lw * 2)
        d.polygon([P(0.5, 0.42), P(0.32, 0.2), P(0.4, 0.04), P(0.6, 0.04), P(0.68, 0.2)],
                  fill=(90, 170, 240), outline=ol, width=lw)
    elif kind == "holywater":
        d.rectangle(B(0.4, 0.02, 0.6, 0.16), fill=(160, 110, 60), outline=ol, width=lw)
        d.rectangle(B(0.42, 0.16, 0.58, 0.34), fill=(190, 230, 245), outline=ol, width=lw)
        d.rounded_rectangle(B(0.18, 0.32, 0.82, 0.98), radius=s * 0.16, fill=(120, 200, 235), outline=ol,
                            width=lw)
        d.rectangle(B(0.46, 0.44, 0.54, 0.88), fill=WHITE)
        d.rectangle(B(0.34, 0.56, 0.66, 0.64), fill=WHITE)
    elif kind == "tome":
        d.rectangle(B(0.2, 0.1, 0.9, 0.96), fill=(240, 232, 210), outline=ol, width=lw)
        d.rectangle(B(0.1, 0.04, 0.82, 0.9), fill=(120, 30, 40), outline=ol, width=lw)
        d.rectangle(B(0.1, 0.04, 0.22, 0.9), fill=(80, 20, 28))
        d.ellipse(B(0.34, 0.3, 0.74, 0.64), fill=(236, 190, 50))
        d.ellipse(B(0.47, 0.39, 0.61, 0.55), fill=BLACK)
    elif kind == "mask":
        d.pieslice(B(0.1, -0.3, 0.9, 0.96), 0, 180, fill=(250, 250, 250), outline=ol, width=lw)
        for ex in (0.34, 0.66):
            d.ellipse(B(ex - 0.1, 0.4, ex + 0.1, 0.54), fill=(40, 20, 60))
        d.arc(B(0.34, 0.68, 0.66, 0.9), 200, 340, fill=ol, width=lw)
        d.line([P(0.1, 0.2), P(0.02, 0.1)], fill=(160, 40, 120), width=lw * 2)
        d.line([P(0.9, 0.2), P(0.98, 0.1)], fill=(160, 40, 120), width=lw * 2)
    elif kind == "twin":
        for ox, col in ((0.0, (90, 150, 220)), (0.4, (220, 120, 90))):
            d.ellipse(B(ox + 0.1, 0.06, ox + 0.5, 0.44), fill=(250, 214, 190), outline=ol, width=lw)
            d.pieslice(B(ox + 0.04, 0.48, ox + 0.56, 1.3), 180, 360, fill=col, outline=ol, width=lw)
    else:
        d.ellipse(B(0.04, 0.04, 0.96, 0.96), fill=(120, 120, 130), outline=ol, width=lw)
        d.text((cx, cy + s * 0.02), "?", font=font(int(s * 0.7), True), fill=WHITE, anchor="mm")


# --------------------------------------------------------------------------
# sprites (pure builders; cached versions below)


def build_meeple(h: int, colour: str | None, seat: int) -> Image.Image:
    w = int(h * 0.92)
    u, v = w * SS, h * SS
    im = Image.new("RGBA", (u, v), (0, 0, 0, 0))
    d = core.Draw(im)
    m = 0.09 * v  # room for the halo
    _meeple(d, (m, m, u - m, v - m * 0.7), colour, str(seat + 1), text_px=int(0.44 * v))
    return _down(im, (w, h))


def build_icon(kind: str, size: int) -> Image.Image:
    """Standalone icons: "ghost", "hand", "flashlight", "die", "back", "crown" or a card type."""
    w = int(size * 1.6) if kind == "flashlight" else size
    u, v = w * SS, size * SS
    im = Image.new("RGBA", (u, v), (0, 0, 0, 0))
    d = core.Draw(im)
    m = 0.08 * v
    box = (m, m, u - m, v - m)
    if kind == "ghost":
        _ghost(d, (0.16 * u, 0.08 * v, 0.84 * u, 0.92 * v))
    elif kind == "hand":
        _hand(d, box)
    elif kind == "flashlight":
        _flashlight(d, (m, 0.12 * v, u - m, 0.88 * v))
    elif kind == "die":
        _small_die(d, box)
    elif kind == "back":
        d.rounded_rectangle((0.18 * u, 0.02 * v, 0.82 * u, 0.98 * v), radius=0.1 * u, fill=core.CARD_BACK,
                            outline=BLACK, width=2 * SS)
        d.text((u / 2, v / 2), "?", font=font(int(0.56 * v), True), fill=core.GOLD, anchor="mm")
    elif kind == "crown":
        d.polygon([(0.06 * u, 0.3 * v), (0.3 * u, 0.55 * v), (0.5 * u, 0.16 * v), (0.7 * u, 0.55 * v),
                   (0.94 * u, 0.3 * v), (0.84 * u, 0.86 * v), (0.16 * u, 0.86 * v)], fill=WHITE, outline=BLACK,
                  width=2 * SS)
    else:
        _type_icon(d, kind, box)
    return _down(im, (w, size))


def build_card(kind: str, curse: int, dice: int, amulet: int | None) -> Image.Image:
    """A face-up room card: type band with icon, curse value, dice (its name is the table's text)."""
    u, v = CARD_W * SS, CARD_H * SS
    im = Image.new("RGBA", (u, v), (0, 0, 0, 0))
    d = core.Draw(im)
    band = TYPE_TINTS.get(kind, TYPE_DEFAULT_TINT)
    d.rounded_rectangle((0, 0, u - 1, v - 1), radius=0.1 * u, fill=core.CARD_FACE, outline=BLACK, width=2 * SS)
    d.rounded_rectangle((2 * SS, 2 * SS, u - 1 - 2 * SS, 0.62 * v), radius=0.08 * u, fill=band)
    d.rectangle((2 * SS, 0.5 * v, u - 1 - 2 * SS, 0.62 * v), fill=band)
    isz = 0.46 * v
    _type_icon(d, kind, (u / 2 - isz / 2, 0.1 * v, u / 2 + isz / 2, 0.1 * v + isz))
    hs = 0.2 * v
    _hand(d, (0.06 * u, 0.72 * v, 0.06 * u + hs * 0.9, 0.72 * v + hs))
    for i in range(max(0, min(int(dice), 3))):
        ds = 0.11 * v
        dx = u - 0.08 * u - ds
        dy = 0.75 * v + i * (ds + 0.02 * v) if dice <= 2 else 0.74 * v + i * ds * 0.75
        _small_die(d, (dx, dy, dx + ds, dy + ds))
    im = _down(im, (CARD_W, CARD_H))
    d = core.Draw(im)
    d.text((0.06 * CARD_W + 0.2 * CARD_H * 0.9 + 4, 0.82 * CARD_H), str(curse), font=font(34, True),
           fill=CURSE_INK, anchor="lm")
    if amulet is not None:
        r = 16
        d.ellipse((3, 3, 3 + 2 * r, 3 + 2 * r), fill=core.GOLD, outline=BLACK, width=2)
        d.text((3 + r, 3 + r), str(amulet), font=font(FLOOR, True), fill=BLACK, anchor="mm")
    return im


def build_card_back(lang: str = DEFAULT) -> Image.Image:
    """The face-down (Secret Passage) card, its "hidden" in `lang`."""
    u, v = CARD_W * SS, CARD_H * SS
    im = Image.new("RGBA", (u, v), (0, 0, 0, 0))
    d = core.Draw(im)
    d.rounded_rectangle((0, 0, u - 1, v - 1), radius=0.1 * u, fill=core.CARD_BACK, outline=BLACK, width=2 * SS)
    k = 0.08 * u
    d.rounded_rectangle((k, k, u - k, v - k), radius=0.07 * u, outline=core.GOLD, width=2 * SS)
    _ghost(d, (0.32 * u, 0.5 * v, 0.68 * u, 0.74 * v), fill=(200, 170, 180))
    im = _down(im, (CARD_W, CARD_H))
    d = core.Draw(im)
    d.text((CARD_W / 2, 0.3 * CARD_H), "?", font=font(52, True), fill=core.GOLD, anchor="mm")
    f_hidden, hidden = core.fit_font(say({"lang": lang}, "board.hidden"), FLOOR, CARD_W - 8, smallest=FLOOR)
    d.text((CARD_W / 2, 0.87 * CARD_H), hidden, font=f_hidden, fill=WHITE, anchor="mm")
    return im


def build_die(ghosts: int) -> Image.Image:
    """A ghost die face showing ``ghosts`` ghosts (a number above 2)."""
    u = DIE * SS
    im = Image.new("RGBA", (u, u), (0, 0, 0, 0))
    d = core.Draw(im)
    d.rounded_rectangle((0, 0, u - 1, u - 1), radius=0.2 * u, fill=DIE_FACE, outline=(200, 190, 220), width=2 * SS)
    g = int(ghosts)
    if g == 1:
        _ghost(d, (0.26 * u, 0.2 * u, 0.74 * u, 0.8 * u), fill=WHITE)
    elif g == 2:
        _ghost(d, (0.1 * u, 0.1 * u, 0.48 * u, 0.56 * u), fill=WHITE)
        _ghost(d, (0.52 * u, 0.44 * u, 0.9 * u, 0.9 * u), fill=WHITE)
    im = _down(im, (DIE, DIE))
    if g < 0 or g > 2:
        core.Draw(im).text((DIE / 2, DIE / 2), str(g), font=font(30, True), fill=WHITE, anchor="mm")
    return im


def _space_geometry(n: int) -> tuple[float, float]:
    """(top offset inside the body, space height) for n spaces."""
    n = max(1, n)
    sh = min(72.0, ROOM_BODY_H / n)
    return (ROOM_BODY_H - sh * n) / 2, sh


def build_room(name: str, flashlights: tuple[int, ...], lang: str = DEFAULT) -> Image.Image:
    """An open room without meeples: name bar (in `lang`), spaces with flashlights, empty spots."""
    tint_rgb = ROOM_TINTS.get(name, ROOM_DEFAULT)
    im = Image.new("RGB", (COL_W, ROOM_H), shade(tint_rgb, 0.55))
    d = core.Draw(im)
    d.rectangle((0, 0, COL_W - 1, ROOM_NAME_H - 1), fill=shade(tint_rgb, 0.7))
    d.rectangle((0, 0, COL_W - 1, ROOM_H - 1), outline=BLACK, width=2)
    f_name, shown = core.fit_font(room_word({"lang": lang}, name), 26, COL_W - 24, True, smallest=FLOOR)
    d.text((12, ROOM_NAME_H / 2), shown, font=f_name, fill=WHITE, anchor="lm")
    off, sh = _space_geometry(len(flashlights))
    light = build_icon("flashlight", 30)
    for i, n in enumerate(flashlights):
        y0 = ROOM_NAME_H + 5 + off + i * sh
        fill = tint_rgb if i % 2 == 0 else shade(tint_rgb, 0.88)
        d.rectangle((6, y0 + 2, COL_W - 7, y0 + sh - 2), fill=fill)
        d.text((22, y0 + sh / 2), str(i + 1), font=font(FLOOR, True), fill=tint(tint_rgb, 0.55), anchor="mm")
        if n:  # one flashlight and how many: a phone reads the number
            x = 44
            im.paste(light, (x, int(y0 + sh / 2 - light.height / 2)), light)
            d.text((x + light.width + 8, y0 + sh / 2), f"×{n}", font=font(26, True), fill=BEAM, anchor="lm",
                   stroke_width=2, stroke_fill=BLACK)
        # the spot where a meeple stands
        cx, cy = COL_W - 52, y0 + sh / 2
        d.ellipse((cx - 30, cy + sh / 2 - 16, cx + 30, cy + sh / 2 - 4), fill=shade(tint_rgb, 0.6))
    return im


def build_closed_room(name: str, lang: str = DEFAULT) -> Image.Image:
    """A removed room: greyed and boarded up, its name and "Room closed" in `lang`."""
    u, v = COL_W * SS, ROOM_H * SS
    im = Image.new("RGB", (u, v), CLOSED)
    d = core.Draw(im)
    d.rectangle((0, 0, u - 1, ROOM_NAME_H * SS), fill=shade(CLOSED, 0.75))
    top = ROOM_NAME_H * SS
    d.rectangle((6 * SS, top + 6 * SS, u - 6 * SS, v - 6 * SS), fill=(40, 40, 44))
    bw = 30 * SS
    for (a, b) in (((0, top + 0.18 * (v - top)), (u, top + 0.72 * (v - top))),
                   ((0, top + 0.78 * (v - top)), (u, top + 0.22 * (v - top)))):
        d.line([a, b], fill=BLACK, width=bw + 4 * SS)
        d.line([a, b], fill=BOARD_WOOD, width=bw)
    for fy in (0.08, 0.9):
        y = top + fy * (v - top)
        d.rectangle((0, y - bw / 2 - 2 * SS, u, y + bw / 2 + 2 * SS), fill=BLACK)
        d.rectangle((0, y - bw / 2, u, y + bw / 2), fill=shade(BOARD_WOOD, 0.9))
    im = _down(im, (COL_W, ROOM_H))
    d = core.Draw(im)
    d.rectangle((0, 0, COL_W - 1, ROOM_H - 1), outline=BLACK, width=2)
    words = {"lang": lang}
    f_name, shown = core.fit_font(room_word(words, name), 26, COL_W - 24, True, smallest=FLOOR)
    d.text((12, ROOM_NAME_H / 2), shown, font=f_name, fill=(200, 200, 204), anchor="lm")
    cy = ROOM_NAME_H + ROOM_BODY_H / 2
    fb, closed = core.fit_font(say(words, "board.closed"), 30, COL_W - 40, True, smallest=FLOOR)
    tw = text_length(fb, closed)
    d.rounded_rectangle((COL_W / 2 - tw / 2 - 16, cy - 26, COL_W / 2 + tw / 2 + 16, cy + 26), radius=8,
                        fill=(236, 232, 220), outline=BLACK, width=3)
    d.text((COL_W / 2, cy), closed, font=fb, fill=BLACK, anchor="mm")
    return im


def _on_wall(sprite: Image.Image) -> Image.Image:
    """An opaque copy of a sprite over the house wall: room cards always lie on the plain wall,
    so pasting this (a plain copy) gives the same pixels as blending the sprite there, ~10x
    faster."""
    flat = Image.new("RGB", sprite.size, WALL)
    flat.paste(sprite, (0, 0), sprite)
    return flat


@lru_cache(maxsize=512)
def _card_on_wall(kind: str, curse: int, dice: int, amulet: int | None) -> Image.Image:
    return _on_wall(build_card(kind, curse, dice, amulet))


@lru_cache(maxsize=4)
def _card_back_on_wall(lang: str = DEFAULT) -> Image.Image:
    return _on_wall(build_card_back(lang))


# cached sprite factories (the naive renderer calls the builders directly)
_meeple_cached = lru_cache(maxsize=64)(build_meeple)
_icon_cached = lru_cache(maxsize=64)(build_icon)
_die_cached = lru_cache(maxsize=16)(build_die)
_room_cached = lru_cache(maxsize=128)(build_room)
_closed_cached = lru_cache(maxsize=16)(build_closed_room)


@dataclass(frozen=True)
class _Sprites:
    meeple: Callable[..., Image.Image]
    icon: Callable[..., Image.Image]
    card: Callable[..., Image.Image]
    card_back: Callable[..., Image.Image]
    die: Callable[..., Image.Image]
    room: Callable[..., Image.Image]
    closed: Callable[..., Image.Image]
    draw: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw  # per-board drawing


CACHED = _Sprites(_meeple_cached, _icon_cached, _card_on_wall, _card_back_on_wall, _die_cached, _room_cached,
                  _closed_cached, core.Draw)
UNCACHED = _Sprites(build_meeple, build_icon, build_card, build_card_back, build_die, build_room,
                    build_closed_room)


# --------------------------------------------------------------------------
# static layer


def build_static() -> Image.Image:
    """Background, header band, house wall."""
    im = Image.new("RGB", (WIDTH, HEIGHT), core.BG)
    d = core.Draw(im)
    d.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=core.HEADER_BG)
    # the house: wall with a little roof line
    d.rounded_rectangle((4, HOUSE_TOP - 8, WIDTH - 5, HOUSE_BOTTOM), radius=12, fill=WALL, outline=WALL_EDGE,
                        width=2)
    return im


_static_cached = lru_cache(maxsize=1)(build_static)


# --------------------------------------------------------------------------
# composition


def _players(view: dict) -> list[dict]:
    return sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))


def _name(view: dict, seat: Any) -> str:
    if not isinstance(seat, int):
        return "-"
    names = view.get("names") or []
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"P{seat + 1}"


def _int(x: Any, default: int = 0) -> int:
    try:
        return int(x)
    except (TypeError, ValueError):
        return default


def _compose(view: dict, sprites: _Sprites, static: Callable[..., Image.Image]) -> Image.Image:
    im = core.board(static())
    d = sprites.draw(im)
    colour_of = {p.get("seat"): p.get("colour") for p in _players(view)}
    _draw_header(im, d, view, sprites, colour_of)
    _draw_house(im, d, view, sprites, colour_of)
    return im


def _draw_header(im, d, view, sprites, colour_of) -> None:
    mid = HEADER_H // 2
    winners = view.get("winners")
    if view.get("phase") == "over" and winners:
        d.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=core.GOLD)
        d.rectangle((0, HEADER_H - 4, WIDTH - 1, HEADER_H - 1), fill=BLACK)
        names = [_name(view, s) for s in winners]
        n_icons = min(len(winners), 5)
        step = sprites.meeple(MEEPLE, None, 0).width + 4
        won = say(view, "board.wins", count=len(names), names=" & ".join(names))
        f, lines = core.fit_phrase(won, core.seat_names(view), 36,
                                   WIDTH - 2 * PAD - 50 - n_icons * step - 10, HEADER_H - 8, smallest=FLOOR)
        total = max(text_length(f, line) for line in lines) + n_icons * step + 10
        x = (WIDTH - total) / 2 + 25
        crown = sprites.icon("crown", 40)
        im.paste(crown, (int(x - 50), mid - 22), crown)
        for s in winners[:n_icons]:
            m = sprites.meeple(MEEPLE, colour_of.get(s), _int(s))
            im.paste(m, (int(x), mid - m.height // 2 - 2), m)
            x += step
        core.draw_lines(d, x + 10, mid - 2, lines, f, BLACK, align="l")
        return
    top, low = ROW_MID
    ghost = sprites.icon("ghost", 44)
    im.paste(ghost, (PAD, top - 23), ghost)
    title_font = font(30, True)
    d.text((PAD + 52, top), TITLE, font=title_font, fill=GHOST, anchor="lm")
    right = WIDTH - PAD - 4
    phase = view.get("phase")
    room = right - (PAD + 52 + text_length(title_font, TITLE) + 12)
    named = say(view, f"board.phase.{phase}") if phase in PHASES else str(phase or "")
    f_tail, tail = core.fit_font(say(view, "board.turn", turn=_int(view.get("turn")), phase=named), 24,
                                 room, smallest=FLOOR)
    d.text((right, top), tail, font=f_tail, fill=core.TEXT_DIM, anchor="rm")
    x = PAD + 4
    height = HEADER_H - top - 16
    current = view.get("current")
    acting = view.get("acting")
    if acting:
        fb, lines = core.fit_phrase(str(acting), core.seat_names(view), 26, right - x, height, smallest=FLOOR)
        core.draw_lines(d, x, low, lines, fb, core.TEXT, align="l")
    elif isinstance(current, int) and phase != "over":
        m = sprites.meeple(MEEPLE, colour_of.get(current), current)
        im.paste(m, (x, low - m.height // 2), m)
        x += m.width + 8
        to_move = say(view, "board.to_move", name=_name(view, current))
        fb, lines = core.fit_phrase(to_move, core.seat_names(view), 26, right - x, height, smallest=FLOOR)
        core.draw_lines(d, x, low, lines, fb, core.TEXT, align="l")
    elif phase == "over":
        d.text((x, low), say(view, "board.over"), font=font(26, True), fill=core.TEXT, anchor="lm")


def _draw_house(im, d, view, sprites, colour_of) -> None:
    rooms = {}
    for room in view.get("rooms") or []:
        slot = room.get("slot")
        if isinstance(slot, int) and 0 <= slot < 3:
            rooms[slot] = room
    dice = view.get("dice") if isinstance(view.get("dice"), dict) else None
    last = view.get("last") if isinstance(view.get("last"), dict) else {}
    lang = str(view.get("lang") or DEFAULT)
    for slot in range(3):
        x = column_x(slot)
        room = rooms.get(slot)
        if room is None:
            d.rounded_rectangle((x, ROOM_Y, x + COL_W - 1, ROOM_Y + ROOM_H - 1), radius=8, outline=WALL_EDGE,
                                width=2)
            continue
        name = str(room.get("name") or "?")
        # cards
        for i, card in enumerate((room.get("cards") or [])[:3]):
            cx = x + i * (CARD_W + CARD_GAP)
            if card.get("hidden"):
                sp = sprites.card_back(lang)
            else:
                amulet = card.get("amulet")
                sp = sprites.card(str(card.get("type")), _int(card.get("curse")), _int(card.get("dice")),
                                  amulet if isinstance(amulet, int) else None)
            im.paste(sp, (cx, CARDS_Y), sp if sp.mode == "RGBA" else None)
        # room panel + meeples
        if room.get("removed"):
            im.paste(sprites.closed(name, lang), (x, ROOM_Y))
        else:
            spaces = room.get("spaces") or []
            lights = tuple(max(0, min(_int(s.get("flashlights")), 9)) for s in spaces)
            im.paste(sprites.room(name, lights, lang), (x, ROOM_Y))
            off, sh = _space_geometry(len(spaces))
            mh = int(min(MEEPLE, sh - 6))
            for i, space in enumerate(spaces):
                seat = space.get("meeple")
                if isinstance(seat, int):
                    m = sprites.meeple(mh, colour_of.get(seat), seat)
                    cy = ROOM_Y + ROOM_NAME_H + 5 + off + i * sh + sh / 2
                    im.paste(m, (x + COL_W - 52 - m.width // 2, int(cy - m.height / 2)), m)
        # the dice roll under its room
        if dice is not None and dice.get("slot") == slot:
            _draw_dice(im, d, x, dice, sprites)
        if last.get("slot") == slot:
            box = (x - 7, HOUSE_TOP - 3, x + COL_W + 6, DICE_Y + DICE_H + 1)
            d.rounded_rectangle(box, radius=10, outline=BLACK, width=7)
            d.rounded_rectangle(box, radius=10, outline=core.HIGHLIGHT, width=5)
            # the tag sits on the frame's top edge, clear of the dice row and its flags
            f = font(FLOOR, True)
            tag = say(view, "board.last_move")
            tw = text_length(f, tag)
            tx = x + (COL_W - tw) / 2
            d.rounded_rectangle((tx - 8, HOUSE_TOP - 17, tx + tw + 8, HOUSE_TOP + 11), radius=8,
                                fill=core.HIGHLIGHT)
            d.text((tx, HOUSE_TOP - 3), tag, font=f, fill=BLACK, anchor="lm")


def _draw_dice(im, d, x, dice, sprites) -> None:
    faces = [_int(f) for f in (dice.get("faces") or [])]
    d.rounded_rectangle((x, DICE_Y, x + COL_W - 1, DICE_Y + DICE_H - 1), radius=10, fill=(30, 24, 40),
                        outline=WALL_EDGE, width=2)
    n = len(faces)
    step = DIE + 8 if n <= 1 else min(DIE + 8, (COL_W - 24 - DIE) / (n - 1))
    dx = x + 12
    for g in faces:
        sp = sprites.die(g)
        im.paste(sp, (int(dx), DICE_Y + 8), sp)
        dx += step
    total = sum(faces)
    f = font(26, True)
    ty = DICE_Y + DIE + 8 + 20
    gi = sprites.icon("ghost", 28)
    im.paste(gi, (x + 10, ty - 15), gi)
    d.text((x + 12 + gi.width + 4, ty), f"= {total}", font=f, fill=GHOST, anchor="lm")


# --------------------------------------------------------------------------
# public API


def draw_dontgo(view: dict[str, Any]) -> Image.Image:
    """RGB board image for a Don't Go In There view (cached layers and sprites)."""
    return _compose(view, CACHED, _static_cached)


def render_dontgo(view: dict[str, Any]) -> bytes:
    """PNG bytes for a Don't Go In There view: cached drawing + fixed-palette PNG."""
    return core.encode_png(draw_dontgo(view), palette=dontgo_palette())


def draw_dontgo_naive(view: dict[str, Any]) -> Image.Image:
    """Same picture as :func:`draw_dontgo`, drawn from scratch without caches."""
    return _compose(view, UNCACHED, build_static)


def render_dontgo_naive(view: dict[str, Any]) -> bytes:
    """Benchmark baseline: no caches, RGB PNG with Pillow's default settings."""
    return core.default_png(draw_dontgo_naive(view))


def _calibration_views() -> list[dict[str, Any]]:
    """Boards showing every room, card type, chip look, die and banner.

    Only used to derive the fixed PNG palette (see :func:`dontgo_palette`).
    """
    colours = list(core.SEAT_COLOURS)[:5]
    names = list(ROOM_TINTS)
    views = []
    for k in range(2):
        players = []
        for seat in range(5):
            cards = [{"id": i, "type": CARD_TYPES[(i + seat + k) % 12], "curse": 1 + i % 4, "dice": i % 3,
                      "amulet": None, "dispelled": i % 4 == 3} for i in range(8)]
            players.append({"seat": seat, "colour": colours[seat], "meeples": seat, "cards": cards,
                            "curses": 3 * seat, "ghosts": seat})
        rooms = []
        for slot in range(3):
            name = names[3 * k + slot]
            cards = [{"id": j, "type": CARD_TYPES[(4 * slot + j + 6 * k) % 12], "curse": 1 + j, "dice": j,
                      "amulet": 2 if j == 1 else None, "hidden": False} for j in range(3)]
            if name == "Secret Passage":
                cards[0] = {"hidden": True}
            spaces = [{"flashlights": (i + slot) % 4, "meeple": (i + slot) % 5 if i % 2 else None}
                      for i in range(5 - slot % 2)]
            rooms.append({"slot": slot, "name": name, "side": slot % 2, "removed": k == 1 and slot == 2,
                          "spaces": spaces, "cards": cards})
        over = k == 1
        views.append({
            "game": "dontgo", "turn": 9, "current": None if over else 2, "phase": "over" if over else "place",
            "rooms": rooms, "deck": 20,
            "dice": {"slot": k, "faces": [0, 1, 2, 1], "rerolled": True, "changed": True},
            "players": players, "last": {"seat": 1, "slot": 1},
            "scores": [{"seat": s, "curses": 3 * s, "ghosts": s, "penalty": 0, "total": 4 * s} for s in range(5)]
            if over else None,
            "winners": [0] if over else None,
        })
    return views


@lru_cache(maxsize=1)
def dontgo_palette() -> Image.Image:
    """Fixed 256-colour palette, computed once (lazily) from calibration boards."""
    images = [_compose(v, CACHED, _static_cached) for v in _calibration_views()]
    swatch = Image.new("RGB", (WIDTH, sum(im.height for im in images)))
    y = 0
    for im in images:
        swatch.paste(im, (0, y))
        y += im.height
    return core.adaptive_palette(swatch)


def warm_up() -> None:
    """Pay the one-off costs (palette, common sprites, the static layer) ahead of time."""
    dontgo_palette()
    _static_cached()


__all__ = ["WIDTH", "draw_dontgo", "draw_dontgo_naive", "dontgo_palette", "render_dontgo", "render_dontgo_naive",
           "warm_up"]

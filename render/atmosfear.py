"""Board image for "Atmosfear: The Harbingers", and THE GATEKEEPER's portrait.

``render_atmosfear(view) -> bytes`` turns the public *view dict* into a PNG;
``draw_atmosfear(view) -> PIL.Image`` gives the RGB image before encoding;
``render_atmosfear_naive(view)`` draws the same picture from scratch (no
caches) and encodes with Pillow's default PNG settings (benchmark baseline).
``render_gatekeeper(line) -> bytes`` is a separate dramatic square portrait
of THE GATEKEEPER for his interjections (his line is the table's text).

Pure: no discord, no games package, no clock, no network. Private fields of
a view (``rack``, ``time_cards``) are never read.

Phones first: the picture is the map alone, 824 px wide, so a phone showing
it 360 px wide still reads every label (no font under `FLOOR`). The players'
keys and states, the dice, the black key and the Well's count are the
table's text (`render.words.atmosfear.panel`), and so are the Gatekeeper's
words: his picture is a square portrait without them.

Speed: the board (``view["board"]``) never changes during a game, so the
whole board picture (track, realm bands and labels, stone icons, radials,
inner ring, Well) is one static layer cached on a hashable signature of the
board's stones and realms. Stones and pieces are sprites drawn at 3x and
downsampled (antialiased), cached. Per render only the dynamic bits are
drawn: keys left, last path, pieces, header, banners.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from PIL import Image, ImageDraw, ImageFilter

from data.locales import DEFAULT, text

from . import core
from .core import BLACK, WHITE, fit_text, font, shade, text_length, tint

TITLE = "Atmosfear: The Harbingers"
HEADER_H = 104  # two rows: the title and the turn, then who acts
ROW_MID = (28, 76)  # the rows' middles
PAD = 12
BOARD = 800  # board region (square)
WIDTH = BOARD + 2 * PAD
FLOOR = core.phone_floor(WIDTH)  # px: the smallest font drawn
BX, BY = PAD, HEADER_H + PAD
HEIGHT = BY + BOARD + PAD
CX, CY = BX + BOARD // 2, BY + BOARD // 2
HALF = 368  # track centreline half side (rounded square)
CORNER = 96  # track corner radius
INNER_R = 152  # inner ring radius (stone centres)
INNER_D = 38
WELL_R = 76
WAIT_Y = CY - 106  # waiting stone (outside the Well, inside the inner ring)
SS = 3  # supersampling factor for sprites
PIECE_R = 18

# realm / seat colours (core has no orange; keep the lookup local)
COLOURS: dict[str, core.RGB] = dict(core.SEAT_COLOURS)
COLOURS.update({"orange": (235, 120, 20), "purple": (150, 70, 200), "white": (235, 235, 235),
                "black": (40, 40, 40), "pink": (235, 110, 180), "brown": (140, 90, 50)})
LETTERS = {"red": "R", "yellow": "Y", "blue": "B", "green": "G", "purple": "P", "orange": "O",
           "white": "W", "black": "K", "pink": "K", "brown": "N"}
LIGHT = {"yellow", "orange", "white", "pink"}
GK_RED = (150, 10, 16)
GK_DARK = (30, 4, 6)
BONE = (236, 230, 214)
STEEL = (60, 64, 74)
HOLE_PURPLE = (120, 60, 190)
KINDS = ("plain", "headstone", "key", "black_key", "black_hole", "duel", "flight", "fate", "time", "branch")
PHASES = ("fears", "play", "gatekeeper", "paused", "over")  # game.atmosfear.board.phase.<phase>


def rgb(colour: str | None) -> core.RGB:
    return COLOURS.get(colour or "", core.NEUTRAL)


def ink(colour: str | None) -> core.RGB:
    return BLACK if colour in LIGHT else WHITE


def letter(colour: str | None) -> str:
    return LETTERS.get(colour or "", "?")


# --------------------------------------------------------------------------
# geometry


def _track_point(s: float) -> tuple[float, float, float]:
    """Point on the rounded-square track at arc length ``s`` from top centre,
    clockwise; returns (x, y, tangent angle in radians)."""
    straight = HALF - CORNER
    arc = math.pi / 2 * CORNER
    side = 2 * straight + arc  # one quarter: half edge, corner, half edge
    total = 4 * side
    s %= total
    q, t = divmod(s, side)
    # local frame: start at the middle of the top edge heading +x (for q=0)
    if t < straight:
        lx, ly, ang = t, -HALF, 0.0
    elif t < straight + arc:
        a = (t - straight) / CORNER  # 0..pi/2
        ox, oy = straight, -straight
        lx, ly = ox + CORNER * math.sin(a), oy - CORNER * math.cos(a)
        ang = a
    else:
        lx, ly, ang = HALF, -straight + (t - straight - arc), math.pi / 2
    for _ in range(int(q)):  # rotate 90° clockwise (screen coords)
        lx, ly = -ly, lx
        ang += math.pi / 2
    return CX + lx, CY + ly, ang


def track_length() -> float:
    return 8 * (HALF - CORNER) + 2 * math.pi * CORNER


@dataclass(frozen=True)
class Geometry:
    pos: dict  # stone id -> (x, y)
    size: dict  # stone id -> sprite diameter
    stone_d: int
    labels: dict  # realm index -> label box (l, t, r, b)
    outer_ids: tuple


Spec = tuple  # hashable board signature (see board_spec)


def board_spec(view: dict) -> Spec:
    """Hashable signature of the static board (stone ids, kinds, realms, links)."""
    board = view.get("board") or {}
    outer = tuple((str(s.get("id")), int(s.get("realm") or 0), str(s.get("kind") or "plain"), s.get("colour"))
                  for s in board.get("outer") or [])
    radials = tuple(tuple(str(i) for i in r) for r in board.get("radials") or [])
    inner = tuple(str(i) for i in board.get("inner") or [])
    lang = view.get("lang") or DEFAULT
    realms = tuple((index, str(r.get("harbinger") or said(lang, "realm", number=index + 1)), r.get("colour"))
                   for index, r in ((int(r.get("index", k)), r) for k, r in enumerate(view.get("realms") or [])))
    marks = tuple((str(s.get("id")), str(s["mark"])) for s in board.get("outer") or [] if s.get("mark"))
    drawn = tuple(said(lang, key) for key in ("well", "fears", "wait"))  # the board's own words
    return outer, radials, inner, str(board.get("well") or "WELL"), realms, marks, drawn


def said(lang: str, key: str, /, **params: Any) -> str:
    """The board's words in the view's language (`game.atmosfear.board.<key>`)."""
    return text(lang, "game.atmosfear.board." + key, **params)


def _realm_colours(spec: Spec) -> dict[int, str | None]:
    return {idx: colour for idx, _, colour in spec[4]}


LABEL_W, LABEL_H = 226, 82
LABEL_MAX_W = 320  # a realm label widens up to this for a long Harbinger name
LABEL_TEXT_X = 46  # the name starts right of the colour badge
REALM_FONT = 24


def label_width(harbinger: str) -> int:
    """A realm label's width: room for its Harbinger's whole name, within `LABEL_MAX_W`."""
    need = text_length(font(REALM_FONT, True), harbinger) + LABEL_TEXT_X + 12
    return int(min(LABEL_MAX_W, max(LABEL_W, need)))


def _point_rect_dist(p, rect) -> float:
    x, y = p
    l, t, r, b = rect
    dx = max(l - x, 0.0, x - r)
    dy = max(t - y, 0.0, y - b)
    return math.hypot(dx, dy)


def _point_seg_dist(p, a, b) -> float:
    ax, ay = a
    vx, vy = b[0] - ax, b[1] - ay
    L2 = vx * vx + vy * vy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / L2))
    return math.hypot(p[0] - ax - t * vx, p[1] - ay - t * vy)


def _seg_rect_dist(a, b, rect) -> float:
    l, t, r, btm = rect
    # crossing test: sample along the segment (segments are short)
    n = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 6))
    best = 1e9
    for k in range(n + 1):
        f = k / n
        best = min(best, _point_rect_dist((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), rect))
        if best == 0:
            return 0.0
    corners = ((l, t), (r, t), (l, btm), (r, btm))
    return min(best, *(_point_seg_dist(c, a, b) for c in corners))


def _rects_overlap(p, q, margin: float = 0) -> bool:
    return not (p[2] + margin <= q[0] or q[2] + margin <= p[0] or p[3] + margin <= q[1] or q[3] + margin <= p[1])


def build_geometry(spec: Spec) -> Geometry:
    outer, radials, inner, well, realms, _marks, _drawn = spec
    n = max(1, len(outer))
    L = track_length()
    pitch = L / n
    d = int(max(26, min(44, pitch - 4)))
    pos: dict[str, tuple[float, float]] = {}
    size: dict[str, int] = {}
    for i, (sid, *_rest) in enumerate(outer):
        x, y, _ = _track_point(i * pitch)
        pos[sid] = (x, y)
        size[sid] = d
    ids = [o[0] for o in outer]
    # inner ring: clockwise from the top
    m = max(1, len(inner))
    for k, sid in enumerate(inner):
        a = -math.pi / 2 + 2 * math.pi * k / m
        pos[sid] = (CX + INNER_R * math.cos(a), CY + INNER_R * math.sin(a))
        size[sid] = INNER_D
    pos[well] = (CX, CY)
    # radials: anchor on a branch stone
    branches = [i for i, o in enumerate(outer) if o[2] == "branch"]
    by_realm: dict[int, list[int]] = {}
    for i in branches:
        by_realm.setdefault(outer[i][1], []).append(i)
    anchors: list[int | None] = []
    for k, rad in enumerate(radials):
        if rad and rad[0] in ids:
            anchors.append(ids.index(rad[0]))
        elif len(by_realm.get(k, [])) == 1:
            anchors.append(by_realm[k][0])
        elif k < len(branches):
            anchors.append(branches[k])
        else:
            anchors.append(None)
    radial_d = min(d, 40)
    for k, rad in enumerate(radials):
        a_idx = anchors[k]
        if a_idx is not None:
            px, py = pos[ids[a_idx]]
        else:
            a = -math.pi / 2 + 2 * math.pi * (k + 0.5) / max(1, len(radials))
            px, py = CX + HALF * math.cos(a), CY + HALF * math.sin(a)
        dist = math.hypot(px - CX, py - CY) or 1.0
        ux, uy = (px - CX) / dist, (py - CY) / dist
        steps = [s for s in rad if s not in ids]
        cnt = len(steps)
        for j, sid in enumerate(steps):
            r = dist - (dist - INNER_R) * (j + 1) / (cnt + 1)
            pos[sid] = (CX + ux * r, CY + uy * r)
            size[sid] = radial_d
    # realm labels: inside the track next to their realm, clear of radials,
    # the inner ring and each other; as near the realm's middle as possible
    segs = []
    for k, rad in enumerate(radials):
        chain = [pos[s] for s in rad if s in pos]
        if anchors[k] is not None:
            chain = [pos[ids[anchors[k]]]] + chain
        if chain:
            chain.append((CX + (chain[-1][0] - CX) * INNER_R / max(1.0, math.hypot(chain[-1][0] - CX, chain[-1][1] - CY)),
                          CY + (chain[-1][1] - CY) * INNER_R / max(1.0, math.hypot(chain[-1][0] - CX, chain[-1][1] - CY))))
        segs += list(zip(chain, chain[1:]))
    labels: dict[int, tuple[int, int, int, int]] = {}
    lh = LABEL_H
    inset = HALF - d / 2 - 14
    placed: list[tuple[float, float, float, float]] = []
    for idx, harb, _ in realms:
        lw = label_width(harb)
        members = [i for i, o in enumerate(outer) if o[1] == idx]
        if not members:
            continue
        if members[-1] - members[0] + 1 != len(members):  # wraps round O0
            gap = next(j for j in range(1, len(members)) if members[j] != members[j - 1] + 1)
            members = members[gap:] + members[:gap]
        mid = (len(members) - 1) / 2
        best = None
        for j, i in enumerate(members):
            sx, sy = pos[ids[i]]
            dist = math.hypot(sx - CX, sy - CY) or 1.0
            ux, uy = (CX - sx) / dist, (CY - sy) / dist
            off = d / 2 + 18 + (lw / 2 * abs(ux) + lh / 2 * abs(uy))
            lx = min(max(sx + ux * off, CX - inset + lw / 2), CX + inset - lw / 2)
            ly = min(max(sy + uy * off, CY - inset + lh / 2), CY + inset - lh / 2)
            rect = (lx - lw / 2, ly - lh / 2, lx + lw / 2, ly + lh / 2)
            clear = min((_seg_rect_dist(a, b, rect) for a, b in segs), default=999.0)
            ring = _point_rect_dist((CX, CY), rect) - (INNER_R + INNER_D / 2 + 8)
            hit = any(_rects_overlap(rect, q, 8) for q in placed)
            score = (not hit, min(clear - radial_d / 2 - 6, 0) + min(ring, 0), -abs(j - mid))
            if best is None or score > best[0]:
                best = (score, rect)
        rect = best[1]
        placed.append(rect)
        labels[idx] = tuple(int(round(v)) for v in rect)
    return Geometry(pos, size, d, labels, tuple(ids))


# --------------------------------------------------------------------------
# icon primitives (supersampled canvases; float coordinates)


def _downsample(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    return im.resize(size, Image.Resampling.BOX)  # an average: no ringing, fewer colours


def _key(d, cx, cy, length, colour, outline=BLACK, angle=0.0) -> None:
    """Key centred on (cx, cy), bow left, rotated by ``angle`` (radians)."""
    h = length * 0.42
    lw = max(2.0, h * 0.22)
    r = h * 0.42
    ca, sa = math.cos(angle), math.sin(angle)

    def P(x, y):
        return (cx + x * ca - y * sa, cy + x * sa + y * ca)

    x0 = -length / 2
    bx = x0 + r + lw / 2
    for col, e in ((outline, lw * 0.45), (colour, 0.0)):
        bcx, bcy = P(bx, 0)
        d.ellipse((bcx - r - e, bcy - r - e, bcx + r + e, bcy + r + e), fill=col)
        shaft = [P(bx + r * 0.6, -lw / 2 - e), P(length / 2 + e, -lw / 2 - e),
                 P(length / 2 + e, lw / 2 + e), P(bx + r * 0.6, lw / 2 + e)]
        d.polygon(shaft, fill=col)
        for tx in (length / 2 - lw * 0.6, length / 2 - lw * 2.2):
            d.polygon([P(tx - lw / 2 - e, 0), P(tx + lw / 2 + e, 0), P(tx + lw / 2 + e, h * 0.55 + e),
                       P(tx - lw / 2 - e, h * 0.55 + e)], fill=col)
    bcx, bcy = P(bx, 0)
    hole = r * 0.42
    d.ellipse((bcx - hole, bcy - hole, bcx + hole, bcy + hole), fill=outline)


def _dagger(d, cx, cy, length, angle, blade=(225, 228, 235), grip=(90, 50, 20)) -> None:
    ca, sa = math.cos(angle), math.sin(angle)
    w = length * 0.09

    def P(x, y):
        return (cx + x * ca - y * sa, cy + x * sa + y * ca)

    L = length / 2
    d.polygon([P(-L * 0.1, -w - 2), P(L, 0), P(-L * 0.1, w + 2)], fill=BLACK)
    d.polygon([P(-L * 0.05, -w), P(L * 0.95, 0), P(-L * 0.05, w)], fill=blade)
    d.polygon([P(-L * 0.16, -w * 2.8), P(-L * 0.06, -w * 2.8), P(-L * 0.06, w * 2.8), P(-L * 0.16, w * 2.8)],
              fill=(200, 160, 40))
    d.polygon([P(-L, -w * 0.9), P(-L * 0.16, -w * 0.9), P(-L * 0.16, w * 0.9), P(-L, w * 0.9)], fill=grip)


def _skull(d, cx, cy, s, colour=BONE) -> None:
    d.ellipse((cx - s * 0.5, cy - s * 0.55, cx + s * 0.5, cy + s * 0.3), fill=colour)
    d.rounded_rectangle((cx - s * 0.3, cy + s * 0.05, cx + s * 0.3, cy + s * 0.5), radius=s * 0.08, fill=colour)
    for ex in (-0.2, 0.2):
        d.ellipse((cx + s * ex - s * 0.14, cy - s * 0.2, cx + s * ex + s * 0.14, cy + s * 0.08), fill=BLACK)
    d.polygon([(cx, cy + s * 0.1), (cx - s * 0.07, cy + s * 0.24), (cx + s * 0.07, cy + s * 0.24)], fill=BLACK)
    for tx in (-0.15, 0.0, 0.15):
        d.line([(cx + s * tx, cy + s * 0.34), (cx + s * tx, cy + s * 0.5)], fill=BLACK, width=max(1, int(s * 0.05)))


def _wings(d, cx, cy, s, colour=WHITE) -> None:
    for side in (-1, 1):
        for k, fr in enumerate((1.0, 0.78, 0.56)):
            w = s * 0.5 * fr
            x0 = cx + side * s * 0.06
            box = (min(x0, x0 + side * w), cy - s * 0.32 + k * s * 0.13, max(x0, x0 + side * w),
                   cy + s * 0.02 + k * s * 0.13)
            d.ellipse(box, fill=colour, outline=BLACK, width=max(1, int(s * 0.04)))
    d.ellipse((cx - s * 0.09, cy - s * 0.25, cx + s * 0.09, cy + s * 0.3), fill=BLACK)


def _clock(d, cx, cy, r) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=BLACK, width=max(2, int(r * 0.16)))
    for k in range(12):
        a = k * math.pi / 6
        d.line([(cx + r * 0.72 * math.cos(a), cy + r * 0.72 * math.sin(a)),
                (cx + r * 0.86 * math.cos(a), cy + r * 0.86 * math.sin(a))], fill=BLACK, width=max(1, int(r * 0.06)))
    d.line([(cx, cy), (cx, cy - r * 0.62)], fill=BLACK, width=max(2, int(r * 0.12)))
    d.line([(cx, cy), (cx + r * 0.42, cy + r * 0.18)], fill=(200, 30, 30), width=max(2, int(r * 0.12)))


def _swirl(d, cx, cy, r) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(8, 6, 14))
    w = max(2, int(r * 0.13))
    for k in range(3):
        rr = r * (0.9 - k * 0.25)
        start = k * 120
        d.arc((cx - rr, cy - rr, cx + rr, cy + rr), start, start + 250, fill=tint(HOLE_PURPLE, 0.15 * k), width=w)
    d.ellipse((cx - r * 0.14, cy - r * 0.14, cx + r * 0.14, cy + r * 0.14), fill=BLACK)


def _headstone(d, cx, cy, s) -> None:
    l, r, t, b = cx - s * 0.32, cx + s * 0.32, cy - s * 0.45, cy + s * 0.42
    w = r - l
    e = s * 0.05
    for col, k in ((BLACK, e), ((165, 165, 172), 0)):
        d.pieslice((l - k, t - k, r + k, t + w + k), 180, 360, fill=col)
        d.rectangle((l - k, t + w / 2, r + k, b + k), fill=col)
    lw = s * 0.07
    d.rectangle((cx - lw / 2, t + s * 0.14, cx + lw / 2, t + s * 0.56), fill=(70, 70, 78))
    d.rectangle((cx - s * 0.15, t + s * 0.25, cx + s * 0.15, t + s * 0.25 + lw), fill=(70, 70, 78))


def _arrow(d, cx, cy, s, angle, colour) -> None:
    ca, sa = math.cos(angle), math.sin(angle)

    def P(x, y):
        return (cx + x * ca - y * sa, cy + x * sa + y * ca)

    pts = [(-0.42, -0.12), (0.05, -0.12), (0.05, -0.32), (0.45, 0), (0.05, 0.32), (0.05, 0.12), (-0.42, 0.12)]
    big = [P(x * s * 1.12, y * s * 1.2) for x, y in pts]
    d.polygon(big, fill=BLACK)
    d.polygon([P(x * s, y * s) for x, y in pts], fill=colour)


def _draw_stone(d, u: float, kind: str, colour: str | None, angle: float = 0.0) -> None:
    """One stone of kind ``kind`` in a ``u`` square; ``colour`` is the realm colour."""
    c = u / 2
    r = u / 2 - SS
    rc = rgb(colour)
    d.ellipse((c - r, c - r, c + r, c + r), fill=BLACK)
    r1 = r - 1.5 * SS
    rim = rc
    d.ellipse((c - r1, c - r1, c + r1, c + r1), fill=rim)
    r2 = r1 - max(2 * SS, r * 0.16)
    base = core.STONE
    if kind == "key":
        base = rc
    elif kind in ("black_hole",):
        base = (20, 16, 30)
    elif kind == "fate":
        base = (45, 40, 44)
    elif kind == "flight":
        base = (150, 200, 235)
    elif kind == "black_key":
        base = (250, 225, 120)
    d.ellipse((c - r2, c - r2, c + r2, c + r2), fill=base)
    s = r2 * 2
    if kind == "key":
        ik = ink(colour)  # the realm's letter fills the stone (a phone reads it), its key behind
        _key(d, c, c, s * 0.9, shade(rc, 0.75), outline=shade(rc, 0.6), angle=-math.pi / 4)
        d.text((c, c + s * 0.02), letter(colour), font=font(int(s * 0.82), True), fill=ik, anchor="mm",
               stroke_width=max(1, int(s * 0.03)), stroke_fill=WHITE if ik == BLACK else BLACK)
    elif kind == "black_key":
        _key(d, c, c, s * 0.82, (20, 20, 20), outline=WHITE, angle=-math.pi / 5)
    elif kind == "black_hole":
        _swirl(d, c, c, r2 * 0.92)
    elif kind == "duel":
        _dagger(d, c, c, s * 0.86, -math.pi / 4)
        _dagger(d, c, c, s * 0.86, -3 * math.pi / 4)
    elif kind == "flight":
        _wings(d, c, c + s * 0.02, s * 0.9)
    elif kind == "fate":
        _skull(d, c, c + s * 0.04, s * 0.7)
    elif kind == "time":
        _clock(d, c, c, r2 * 0.8)
    elif kind == "headstone":
        _headstone(d, c, c + s * 0.02, s * 0.78)
    elif kind == "branch":
        _arrow(d, c, c, s * 0.8, angle, rc if colour not in ("white",) else STEEL)


def build_stone(kind: str, colour: str | None, diameter: int, angle_deg: int = 0) -> Image.Image:
    u = diameter * SS
    im = Image.new("RGBA", (u, u), (0, 0, 0, 0))
    _draw_stone(core.Draw(im), u, kind, colour, math.radians(angle_deg))
    return _downsample(im, (diameter, diameter))


def _draw_piece(d, x, y, r, colour: str | None, label: str, px: int) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=BLACK)
    r1 = r * 0.9
    d.ellipse((x - r1, y - r1, x + r1, y + r1), fill=WHITE)
    r2 = r * 0.76
    d.ellipse((x - r2, y - r2, x + r2, y + r2), fill=rgb(colour))
    d.text((x, y + r * 0.04), label, font=font(px, True), fill=ink(colour), anchor="mm")


def build_piece(radius: int, colour: str | None, number: int, crown: bool = False) -> Image.Image:
    extra = int(radius * 0.9) if crown else 0
    w, h = 2 * radius + 2, 2 * radius + 2 + extra
    im = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = core.Draw(im)
    cy = (extra + radius + 1) * SS
    _draw_piece(d, w * SS / 2, cy, radius * SS, colour, str(number), int(radius * SS * 1.2))
    if crown:
        _crown(d, w * SS / 2, extra * SS * 0.55, radius * SS * 1.1)
    return _downsample(im, (w, h))


def _crown(d, cx, cy, s) -> None:
    pts = [(-0.5, 0.35), (-0.5, -0.3), (-0.25, 0.05), (0, -0.45), (0.25, 0.05), (0.5, -0.3), (0.5, 0.35)]
    d.polygon([(cx + x * s * 1.12, cy + y * s * 1.12) for x, y in pts], fill=BLACK)
    d.polygon([(cx + x * s, cy + y * s) for x, y in pts], fill=core.GOLD)


def build_icon(kind: str, size: int) -> Image.Image:
    """Small panel / legend icons (RGBA)."""
    u = size * SS
    im = Image.new("RGBA", (u, u), (0, 0, 0, 0))
    d = core.Draw(im)
    c = u / 2
    if kind == "key_gold":
        _key(d, c, c, u * 0.92, core.KEY_GOLD)
    elif kind == "key_black":
        _key(d, c, c, u * 0.92, (20, 20, 20), outline=WHITE)
    elif kind == "crown":
        _crown(d, c, c + u * 0.05, u * 0.8)
    elif kind == "last":
        d.ellipse((u * 0.08, u * 0.08, u * 0.92, u * 0.92), fill=core.STONE, outline=core.HIGHLIGHT, width=int(u * 0.14))
    elif kind == "hole":
        _swirl(d, c, c, u * 0.46)
    elif kind in KINDS:
        _draw_stone(d, u, kind, "red" if kind in ("key", "branch") else "blue", -math.pi / 2 if kind == "branch" else 0)
    return _downsample(im, (size, size))


def build_die(value: int, size: int) -> Image.Image:
    u = size * SS
    im = Image.new("RGBA", (u, u), (0, 0, 0, 0))
    d = core.Draw(im)
    d.rounded_rectangle((0, 0, u - 1, u - 1), radius=u * 0.18, fill=BONE, outline=BLACK, width=2 * SS)
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    if value in pips:
        pr = u * 0.09
        for px, py in pips[value]:
            x, y = u / 2 + px * u * 0.26, u / 2 + py * u * 0.26
            d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=GK_RED if value == 1 else BLACK)
    else:
        d.text((u / 2, u / 2), str(value), font=font(int(u * 0.5), True), fill=BLACK, anchor="mm")
    return _downsample(im, (size, size))


_stone_cached = lru_cache(maxsize=512)(build_stone)
_piece_cached = lru_cache(maxsize=128)(build_piece)
_icon_cached = lru_cache(maxsize=64)(build_icon)
_die_cached = lru_cache(maxsize=32)(build_die)


@dataclass(frozen=True)
class _Sprites:
    stone: Callable[..., Image.Image]
    piece: Callable[..., Image.Image]
    icon: Callable[..., Image.Image]
    die: Callable[..., Image.Image]
    draw: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw  # per-board drawing


CACHED = _Sprites(_stone_cached, _piece_cached, _icon_cached, _die_cached, core.Draw)
UNCACHED = _Sprites(build_stone, build_piece, build_icon, build_die)


# --------------------------------------------------------------------------
# static layer


def build_static(spec: Spec, sprites: _Sprites = UNCACHED) -> tuple[Image.Image, Geometry]:
    geo = build_geometry(spec)
    outer, radials, inner, well, realms, marks, (well_word, fears_word, wait_word) = spec
    realm_col = _realm_colours(spec)
    im = Image.new("RGB", (WIDTH, HEIGHT), core.BG)
    d = core.Draw(im)
    d.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=core.HEADER_BG)
    d.rounded_rectangle((BX, BY, BX + BOARD, BY + BOARD), radius=18, fill=(26, 22, 30))
    ids = geo.outer_ids
    n = len(ids)
    sd = geo.stone_d
    # realm bands under the outer track: a black outline pass, then the coloured band
    segments = []
    for i, (sid, realm, _kind, _colour) in enumerate(outer):
        p = geo.pos[sid]
        a, b = geo.pos[ids[i - 1]], geo.pos[ids[(i + 1) % n]]
        segments.append(([((a[0] + p[0]) / 2, (a[1] + p[1]) / 2), p,
                          ((b[0] + p[0]) / 2, (b[1] + p[1]) / 2)], realm))
    for points, _realm in segments:
        d.line(points, fill=BLACK, width=sd + 22, joint="curve")
    for points, realm in segments:
        d.line(points, fill=shade(rgb(realm_col.get(realm)), 0.62), width=sd + 16, joint="curve")
    # realm boundaries: short black ticks across the band
    for i in range(n):
        if outer[i][1] != outer[i - 1][1]:
            a, b = geo.pos[ids[i - 1]], geo.pos[ids[i]]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            tx, ty = b[0] - a[0], b[1] - a[1]
            tl = math.hypot(tx, ty) or 1.0
            nx, ny = -ty / tl, tx / tl
            h = sd / 2 + 12
            d.line([(mx - nx * h, my - ny * h), (mx + nx * h, my + ny * h)], fill=BLACK, width=6)
    # radial tracks and the inner ring path
    outer_set = set(ids)
    for rad in radials:
        chain = [geo.pos[s] for s in rad if s in geo.pos]
        anchor = None
        if rad and rad[0] not in outer_set and chain:
            # connect to the branch stone nearest the radial's first stone
            first = chain[0]
            cand = [i for i, o in enumerate(outer) if o[2] == "branch"] or range(n)
            anchor = min((geo.pos[ids[i]] for i in cand), key=lambda q: (q[0] - first[0]) ** 2 + (q[1] - first[1]) ** 2)
        if anchor is not None:
            chain = [anchor] + chain
        if chain:
            last = chain[-1]
            near = min((geo.pos[s] for s in inner), default=None,
                       key=lambda q: (q[0] - last[0]) ** 2 + (q[1] - last[1]) ** 2)
            if near is not None:
                chain = chain + [near]
        if len(chain) > 1:
            d.line(chain, fill=BLACK, width=18, joint="curve")
            d.line(chain, fill=(110, 100, 90), width=10, joint="curve")
    if inner:
        d.ellipse((CX - INNER_R - 12, CY - INNER_R - 12, CX + INNER_R + 12, CY + INNER_R + 12), outline=BLACK, width=26)
        d.ellipse((CX - INNER_R - 7, CY - INNER_R - 7, CX + INNER_R + 7, CY + INNER_R + 7), outline=(110, 100, 90),
                  width=14)
    # the Well of Fears
    for k, col in enumerate(((60, 10, 14), (40, 6, 10), (22, 4, 8), (8, 2, 4))):
        r = WELL_R - k * 12
        d.ellipse((CX - r, CY - r, CX + r, CY + r), fill=col)
    d.ellipse((CX - WELL_R, CY - WELL_R, CX + WELL_R, CY + WELL_R), outline=(190, 30, 40), width=4)
    d.text((CX, CY - 40), well_word, font=font(22, True), fill=(235, 200, 200), anchor="mm")
    d.text((CX, CY + 42), fears_word, font=font(22), fill=(235, 200, 200), anchor="mm")
    # waiting stone
    d.rounded_rectangle((CX - 40, WAIT_Y - 18, CX + 40, WAIT_Y + 18), radius=12, fill=(90, 84, 76), outline=BLACK,
                        width=3)
    d.text((CX, WAIT_Y), wait_word, font=font(22, True), fill=core.TEXT, anchor="mm")
    # stones
    for i, (sid, realm, kind, colour) in enumerate(outer):
        _paste_stone(im, geo, sid, kind, colour or realm_col.get(realm), sprites)
    realm_of_radial: dict[str, str | None] = {}
    for k, rad in enumerate(radials):
        for s in rad:
            realm_of_radial[s] = realm_col.get(k)
    for rad in radials:
        for s in rad:
            if s not in outer_set and s in geo.pos:
                _paste_stone(im, geo, s, "plain", realm_of_radial.get(s), sprites)
    for s in inner:
        _paste_stone(im, geo, s, "plain", None, sprites)
    _draw_marks(d, geo, marks)
    # realm labels (keys left drawn per render)
    fn, fr = font(24, True), font(22)
    for idx, harb, colour in realms:
        box = geo.labels.get(idx)
        if box is None:
            continue
        l, t, r, b = box
        d.rounded_rectangle(box, radius=10, fill=(20, 20, 24), outline=rgb(colour), width=4)
        badge = (l + 8, t + 8, l + 38, t + 38)
        d.rounded_rectangle(badge, radius=6, fill=rgb(colour), outline=BLACK, width=2)
        d.text(((badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2 + 1), letter(colour), font=fn, fill=ink(colour),
               anchor="mm")
        f, name = core.fit_font(harb, REALM_FONT, r - l - LABEL_TEXT_X - 8, True,
                                smallest=FLOOR)
        d.text((l + LABEL_TEXT_X, t + 24), name, font=f, fill=core.TEXT, anchor="lm")
    return im, geo


def _draw_marks(d, geo: Geometry, marks: tuple) -> None:
    """The number beside each stone a button may name ("Fly → Flight stone 30"), just inside
    the track so it never covers a stone."""
    f = font(FLOOR + 1, True)
    for sid, mark in marks:
        if sid not in geo.pos:
            continue
        x, y = geo.pos[sid]
        dist = math.hypot(x - CX, y - CY) or 1.0
        pull = geo.size[sid] * 0.95
        mx, my = x + (CX - x) / dist * pull, y + (CY - y) / dist * pull
        w = text_length(f, mark) + 12
        d.rounded_rectangle((mx - w / 2, my - 15, mx + w / 2, my + 15), radius=6, fill=(20, 20, 24),
                            outline=core.HIGHLIGHT, width=2)
        d.text((mx, my), mark, font=f, fill=WHITE, anchor="mm")


def _paste_stone(im, geo: Geometry, sid: str, kind: str, colour, sprites: _Sprites) -> None:
    x, y = geo.pos[sid]
    dia = geo.size[sid]
    angle = 0
    if kind == "branch":
        angle = int(round(math.degrees(math.atan2(CY - y, CX - x)) / 15.0)) * 15
    sp = sprites.stone(kind if kind in KINDS else "plain", colour, dia, angle)
    im.paste(sp, (int(round(x - dia / 2)), int(round(y - dia / 2))), sp)


def _static_cached_impl(spec: Spec) -> tuple[Image.Image, Geometry]:
    return build_static(spec, CACHED)


_static_cached = lru_cache(maxsize=8)(_static_cached_impl)


def _static_naive(spec: Spec) -> tuple[Image.Image, Geometry]:
    return build_static(spec, UNCACHED)


# --------------------------------------------------------------------------
# composition


def _players(view: dict) -> list[dict]:
    return sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))


def _name(view: dict, seat: int | None) -> str:
    if seat is None:
        return "-"
    names = view.get("names") or []
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    for p in view.get("players") or []:
        if p.get("seat") == seat and p.get("harbinger"):
            return str(p["harbinger"])
    return f"P{seat + 1}" if isinstance(seat, int) else str(seat)


def _player(view: dict, seat) -> dict | None:
    for p in view.get("players") or []:
        if p.get("seat") == seat:
            return p
    return None


_OFFSETS = {
    1: [(0, 0)], 2: [(-11, 0), (11, 0)], 3: [(-11, 7), (11, 7), (0, -11)],
    4: [(-11, -11), (11, -11), (-11, 11), (11, 11)],
}


def _offsets(k: int) -> list[tuple[float, float]]:
    if k in _OFFSETS:
        return _OFFSETS[k]
    return [(15 * math.cos(2 * math.pi * j / k - math.pi / 2), 15 * math.sin(2 * math.pi * j / k - math.pi / 2))
            for j in range(k)]


def _compose(view: dict, sprites: _Sprites, static: Callable[[Spec], tuple[Image.Image, Geometry]]) -> Image.Image:
    lang = view.get("lang") or DEFAULT
    spec = board_spec(view)
    base, geo = static(spec)
    im = core.board(base)
    d = sprites.draw(im)
    players = _players(view)

    # black key taken from its stone
    bk = view.get("black_key") or {}
    if not bk.get("on_board", True):
        for sid, realm, kind, colour in spec[0]:
            if kind == "black_key":
                x, y = geo.pos[sid]
                r = geo.size[sid] / 2 - 4
                d.ellipse((x - r, y - r, x + r, y + r), fill=core.STONE, outline=BLACK, width=2)
                d.line([(x - r * 0.6, y - r * 0.6), (x + r * 0.6, y + r * 0.6)], fill=(160, 30, 30), width=4)

    # keys left per realm
    fr = font(22)
    key_icon = sprites.icon("key_gold", 26)
    for k, realm in enumerate(view.get("realms") or []):
        box = geo.labels.get(int(realm.get("index", k)))
        if box is None:
            continue
        l, t, r, b = box
        n_left = max(0, int(realm.get("keys_left") or 0))
        left = said(lang, "keys_left", n=n_left)
        d.text((l + 10, t + 59), left, font=fr, fill=core.TEXT, anchor="lm")
        x = l + 10 + int(text_length(fr, left)) + 6
        step = min(22, (r - 4 - x - 26) / max(1, n_left - 1)) if n_left > 1 else 0
        for j in range(n_left):
            im.paste(key_icon, (int(x + j * step), t + 46), key_icon)

    # last path
    last = view.get("last") or {}
    path = [geo.pos[s] for s in (last.get("path") or []) if s in geo.pos]
    if path:
        rr = geo.stone_d / 2 + 2
        for (ax, ay), (bx, by) in zip(path, path[1:]):  # links between stones, not over their icons
            L = math.hypot(bx - ax, by - ay)
            if L <= 2 * rr:
                continue
            ux, uy = (bx - ax) / L, (by - ay) / L
            seg = [(ax + ux * rr, ay + uy * rr), (bx - ux * rr, by - uy * rr)]
            d.line(seg, fill=BLACK, width=12)
            d.line(seg, fill=core.HIGHLIGHT, width=6)
        for sid in last.get("path") or []:
            if sid in geo.pos:
                x, y = geo.pos[sid]
                r = geo.size.get(sid, geo.stone_d) / 2 + 3
                d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=BLACK, width=2)
                d.ellipse((x - r, y - r, x + r, y + r), outline=core.HIGHLIGHT, width=5)

    # fears in the well
    d.text((CX, CY + 2), str(int(view.get("fears_in_well") or 0)), font=font(44, True), fill=WHITE, anchor="mm")

    # pieces
    spots: dict[tuple[float, float], list[dict]] = {}
    for p in players:
        if p.get("waiting_at_well"):
            spot = (CX, WAIT_Y)
        else:
            pos = geo.pos.get(str(p.get("pos")))
            if pos is None:
                continue
            spot = pos
        spots.setdefault(spot, []).append(p)
    for (x, y), ps in spots.items():
        offs = _offsets(len(ps))
        if (x, y) == (CX, WAIT_Y) and len(ps) > 1:
            offs = [((j - (len(ps) - 1) / 2) * 22, 0) for j in range(len(ps))]
        for p, (ox, oy) in zip(ps, offs):
            crown = bool(p.get("chosen_one"))
            pc = sprites.piece(PIECE_R, p.get("colour"), int(p.get("number") or p.get("seat", 0) + 1), crown)
            im.paste(pc, (int(x + ox - pc.width / 2), int(y + oy - (pc.height - pc.width / 2))), pc)

    _draw_header(im, d, view, sprites)
    return im


def _draw_header(im, d, view, sprites) -> None:
    mid = HEADER_H // 2
    lang = view.get("lang") or DEFAULT
    if view.get("gatekeeper_won"):
        d.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=GK_RED)
        d.rectangle((0, HEADER_H - 4, WIDTH - 1, HEADER_H - 1), fill=BLACK)
        d.text((WIDTH / 2, mid - 2), said(lang, "gatekeeper_wins"), font=font(40, True), fill=WHITE, anchor="mm",
               stroke_width=2, stroke_fill=BLACK)
        return
    winner = view.get("winner")
    if winner is not None:
        d.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=core.GOLD)
        d.rectangle((0, HEADER_H - 4, WIDTH - 1, HEADER_H - 1), fill=BLACK)
        p = _player(view, winner) or {}
        f = font(38, True)
        around = said(lang, "wins", name="")  # the words the name sits in, given room first
        text = said(lang, "wins", name=fit_text(_name(view, winner), f, WIDTH - 300 - text_length(f, around)))
        tw = text_length(f, text)
        x = (WIDTH - tw) / 2 + 26
        pc = sprites.piece(24, p.get("colour"), int(p.get("number") or winner + 1), False)
        im.paste(pc, (int(x - 60), mid - pc.height // 2 - 2), pc)
        d.text((x, mid - 2), text, font=f, fill=BLACK, anchor="lm")
        return
    top, low = ROW_MID
    title_font = font(28, True)
    d.text((PAD + 4, top), TITLE, font=title_font, fill=(230, 60, 60), anchor="lm")
    turn = view.get("turn", 0)
    phase = said(lang, "phase." + view["phase"]) if view.get("phase") in PHASES else str(view.get("phase") or "")
    right = WIDTH - PAD - 4
    room = right - (PAD + 4 + text_length(title_font, TITLE) + 12)
    f_tail, tail = core.fit_font(said(lang, "turn", turn=turn, phase=phase), 22, room, smallest=FLOOR)
    d.text((right, top), tail, font=f_tail, fill=core.TEXT_DIM, anchor="rm")
    x = PAD + 4
    current = view.get("current")
    acting = view.get("acting")
    height = HEADER_H - top - 16
    if acting:
        f, lines = core.fit_phrase(str(acting), core.seat_names(view), 26, right - x, height, smallest=FLOOR)
        core.draw_lines(d, x, low, lines, f, core.TEXT, align="l")
    elif current is not None:
        p = _player(view, current) or {}
        pc = sprites.piece(20, p.get("colour"), int(p.get("number") or current + 1), False)
        im.paste(pc, (x, low - pc.height // 2), pc)
        x += pc.width + 10
        f, lines = core.fit_phrase(said(lang, "to_play", name=_name(view, current)), core.seat_names(view), 26,
                                   right - x, height, smallest=FLOOR)
        core.draw_lines(d, x, low, lines, f, core.TEXT, align="l")


# --------------------------------------------------------------------------
# public API (board)


def draw_atmosfear(view: dict[str, Any]) -> Image.Image:
    """RGB board image for an Atmosfear view (cached static layer and sprites)."""
    return _compose(view, CACHED, _static_cached)


def render_atmosfear(view: dict[str, Any]) -> bytes:
    """PNG bytes for an Atmosfear view: cached drawing + fixed-palette PNG."""
    return core.encode_png(draw_atmosfear(view), palette=atmosfear_palette())


def draw_atmosfear_naive(view: dict[str, Any]) -> Image.Image:
    """Same picture as :func:`draw_atmosfear`, drawn from scratch without caches."""
    return _compose(view, UNCACHED, _static_naive)


def render_atmosfear_naive(view: dict[str, Any]) -> bytes:
    """Benchmark baseline: no caches, RGB PNG with Pillow's default settings."""
    return core.default_png(draw_atmosfear_naive(view))


def calibration_view() -> dict[str, Any]:
    """A board showing every stone kind, realm colour, piece, banner once (palette only)."""
    colours = ["red", "yellow", "blue", "green", "purple", "orange"]
    kinds = ["plain", "headstone", "key", "black_key", "black_hole", "duel", "flight", "fate", "time"]
    outer = []
    for i in range(66):
        realm = i // 11
        kind = "branch" if i % 11 == 5 else kinds[i % len(kinds)]
        outer.append({"id": f"O{i}", "realm": realm, "kind": kind, "colour": colours[realm] if kind == "key" else None})
    radials = [[f"R{k}_{j}" for j in range(3)] for k in range(6)]
    inner = [f"I{k}" for k in range(12)]
    players = [{"seat": s, "harbinger": f"H{s}", "number": s + 1, "colour": colours[s], "pos": f"O{s * 7}",
                "keys": s, "black_key": s == 0, "in_black_hole": s == 1, "must_roll": 6 if s == 1 else None,
                "chosen_one": s == 2, "waiting_at_well": s == 3} for s in range(6)]
    return {
        "game": "atmosfear", "turn": 3, "current": 0, "phase": "gatekeeper",
        "clock": {"end": None, "paused_at": None, "minutes": 40},
        "board": {"outer": outer, "radials": radials, "inner": inner, "well": "WELL"},
        "realms": [{"index": k, "harbinger": f"Harbinger {k}", "colour": colours[k], "keys_left": 6} for k in range(6)],
        "black_key": {"holder": None, "on_board": True}, "players": players,
        "gatekeeper": {"on_screen": True, "line": "YOU! Yes, you.", "calling": 1, "deadline": None, "next_at": None},
        "dice": [1, 6], "last": {"seat": 0, "path": ["O1", "O2", "O3"]}, "fears_in_well": 3, "fears_read": [],
        "winner": None, "gatekeeper_won": False,
    }


@lru_cache(maxsize=1)
def atmosfear_palette() -> Image.Image:
    """Fixed 256-colour palette for Atmosfear boards, computed once (lazily)."""
    v = calibration_view()
    images = [
        _compose(v, CACHED, _static_cached),
        _compose(dict(v, winner=0, phase="over", current=None), CACHED, _static_cached).crop((0, 0, WIDTH, HEADER_H)),
        _compose(dict(v, gatekeeper_won=True, phase="over"), CACHED, _static_cached).crop((0, 0, WIDTH, HEADER_H)),
    ]
    swatch = Image.new("RGB", (WIDTH, sum(im.height for im in images)))
    y = 0
    for im in images:
        swatch.paste(im, (0, y))
        y += im.height
    return core.adaptive_palette(swatch)


# --------------------------------------------------------------------------
# THE GATEKEEPER

GK_SIZE = 512  # square: whole in the table on his first call, a thumbnail after
GK_FIG_H = 300
GK_FIG_Y = GK_SIZE - GK_FIG_H  # the robe reaches the bottom edge


def build_gatekeeper() -> Image.Image:
    """The hooded figure on a blood-red vignette under his name (the same in every language, so
    one picture serves every table); ~40 ms, cached. No words of his: the table prints them
    beside the picture, where a phone can read them."""
    W = H = GK_SIZE
    top = GK_FIG_Y
    im = Image.new("RGB", (W, H), (10, 0, 2))
    # vignette glow behind the figure
    glow = Image.new("L", (W, H), 0)
    gd = core.Draw(glow)
    gd.ellipse((W / 2 - 240, top - 130, W / 2 + 240, top + 370), fill=200)
    glow = glow.filter(ImageFilter.GaussianBlur(50))
    red = Image.new("RGB", (W, H), (140, 8, 14))
    im.paste(red, (0, 0), glow)
    u = SS
    fig = Image.new("RGBA", (W * u, GK_FIG_H * u), (0, 0, 0, 0))
    d = core.Draw(fig)
    cx = W * u / 2

    def P(x, y):
        return (cx + x * u, y * u)

    # shoulders / robe
    robe = [P(-250, 300), P(-200, 215), P(-120, 175), P(-80, 120), P(80, 120), P(120, 175), P(200, 215), P(250, 300)]
    d.polygon(robe, fill=(12, 6, 8))
    rim = (120, 14, 20)
    d.line(robe[:4] + [robe[4]], fill=rim, width=3 * u)
    d.line(robe[4:], fill=rim, width=3 * u)
    # robe folds
    for xo in (-150, -90, 90, 150):
        d.line([P(xo * 0.7, 200), P(xo, 300)], fill=(40, 8, 12), width=4 * u)
    # hood: pointed top, wide cowl
    hood = [P(0, 8), P(-42, 28), P(-92, 92), P(-112, 170), P(-100, 225), P(-52, 250), P(52, 250), P(100, 225),
            P(112, 170), P(92, 92), P(42, 28)]
    d.polygon(hood, fill=(20, 8, 10))
    d.line(hood + [hood[0]], fill=(150, 20, 28), width=4 * u, joint="curve")
    # face void
    face = [P(0, 66), P(-56, 110), P(-70, 170), P(-50, 228), P(0, 242), P(50, 228), P(70, 170), P(56, 110)]
    d.polygon(face, fill=(0, 0, 0))
    # clasp
    d.ellipse((*P(-14, 258), *P(14, 286)), fill=(150, 120, 40), outline=(60, 40, 10), width=2 * u)
    fig = fig.resize((W, GK_FIG_H), Image.Resampling.LANCZOS)
    im.paste(fig, (0, top), fig)
    # glowing eyes: blurred halo + hot core, slanted (menacing)
    halo = Image.new("L", (W, H), 0)
    hd = core.Draw(halo)
    eyes = Image.new("L", (W * u, H * u), 0)
    ed = core.Draw(eyes)
    for side in (-1, 1):
        ex, ey = W / 2 + side * 28, top + 158
        hd.ellipse((ex - 26, ey - 16, ex + 26, ey + 16), fill=255)
        pts = [(ex - side * 22, ey - 9), (ex + side * 20, ey + 1), (ex + side * 8, ey + 8), (ex - side * 18, ey + 3)]
        ed.polygon([(x * u, y * u) for x, y in pts], fill=255)
    halo = halo.filter(ImageFilter.GaussianBlur(12))
    im.paste(Image.new("RGB", (W, H), (255, 40, 10)), (0, 0), halo)
    eyes = eyes.resize((W, H), Image.Resampling.LANCZOS)
    im.paste(Image.new("RGB", (W, H), (255, 235, 150)), (0, 0), eyes)
    # his title, large enough to read in a thumbnail
    d2 = core.Draw(im)
    d2.text((W / 2, 70), "GATEKEEPER", font=font(44, True), fill=(230, 50, 50), anchor="mm", stroke_width=2,
            stroke_fill=BLACK)
    return im


_gatekeeper = lru_cache(maxsize=1)(build_gatekeeper)


def draw_gatekeeper() -> Image.Image:
    """THE GATEKEEPER's square portrait (a copy: the cached one stays as drawn)."""
    return _gatekeeper().copy()


def render_gatekeeper(line: str = "") -> bytes:
    """PNG of THE GATEKEEPER (hooded, glowing eyes): the game's `speaker` picture. The same
    whatever his ``line``: the table shows his words in its text beside the picture."""
    img = _gatekeeper().quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.FLOYDSTEINBERG)
    return core.encode_png(img)


def warm_up() -> None:
    """Pay one-off costs (palette, sprites, the Gatekeeper's portrait) ahead of time."""
    atmosfear_palette()
    _gatekeeper()


__all__ = ["render_atmosfear", "draw_atmosfear", "render_atmosfear_naive", "draw_atmosfear_naive",
           "render_gatekeeper", "draw_gatekeeper", "warm_up", "board_spec"]

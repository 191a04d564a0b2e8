"""Board image for Key to the Kingdom.

``render_kingdom(view) -> bytes`` turns the public *view dict* into a PNG; ``draw_kingdom(view)``
gives the RGB image. The board's geometry (spaces, paths, hazards, spots) is the game's static data,
read once from the shipped board and hazard tables; everything that changes comes from the view.

Picture, top to bottom: a header (title, round and die; who is to play), a bar naming the World
each panel shows, the Kingdom (Heartland between the West and East panels,
hazards as labelled bands between their White Daggers, Key Locations with or without their
Treasure, the Whirlpools, the Ring, the Gate), the Demon King, every adventurer (on a space, part
way across a hazard, in a dungeon or caught by a fold), the spaces the current throw can reach
(labelled with their names, so they can be typed) and the last move. The adventurers' panels
(equipment, how many Treasure holders, Deep Magic, what they are doing) and the lost pile are
the table's text (`render.words.kingdom.panel`), where a phone reads them.

Colour is never the only cue: seats carry their letter, the Demon King reads "DK", Treasure and
empty Key Locations differ in shape, folding panels are named in words.

Speed: one static layer per fold state (four) is cached; a render copies it, draws the pieces and
text, and encodes with a fixed palette.
"""
from __future__ import annotations

import math
import tomllib
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.locales import DEFAULT, LANGUAGES, text

from . import core
from .core import BLACK, WHITE, font, ink_on, seat_rgb, shade, tint

BOARD: dict[str, Any] = tomllib.loads(core.resource("kingdom", "board.toml").read_text(encoding="utf-8"))
HAZARD_TABLE: dict[str, Any] = tomllib.loads(core.resource("kingdom", "hazards.toml").read_text(encoding="utf-8"))

WIDTH = 1200
TITLE = "Key to the Kingdom"
FLOOR = core.phone_floor(WIDTH)  # px: the smallest font drawn (a phone shows the board 360 px wide)
HEADER_H = 130  # two rows: the title, round and die; then who acts, on up to two lines
ROW_MID = (28, 92)  # the rows' middles
BAR_H = 44
DY = 104                     # board.toml y -> image y
BOARD_TOP = HEADER_H + BAR_H
BOARD_BOTTOM = 976
HEIGHT = BOARD_BOTTOM
R = 15                       # space radius

WORLD_BG = {"The Heartland": (44, 70, 52), "Banshee Towers": (68, 58, 92), "Evil Tower": (92, 44, 48),
            "Ice Palace": (42, 78, 108), "Temple of Martyrs": (104, 84, 50)}
PATH = (196, 186, 160)
BAND = (28, 28, 36)
BAND_EDGE = (235, 200, 90)
STONE = core.STONE
POOL = (60, 150, 215)
DK_RGB = (170, 20, 30)
GOLDEN = core.GOLD
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "orange": "O", "cyan": "C"}
# Hazard names that would sit on another band are written here instead (board coordinates).
LABEL_AT = {"magic_rainbow": (168, 700), "cyclops": (1000, 540), "demon_castle_moat": (600, 558),
            "well_of_doom": (230, 402)}


# --------------------------------------------------------------------------- geometry
def _spaces() -> dict[str, tuple[int, int, str, str, str | None]]:
    """id -> (x, y, kind, area, face) for every space of every face."""
    out: dict[str, tuple[int, int, str, str, str | None]] = {}
    for sid, (x, y, kind) in BOARD["heart"]["spaces"].items():
        out[sid] = (x, y + DY, kind, "heart", None)
    for name, panel in BOARD["panels"].items():
        px, py = panel["pool_xy"]
        out[panel["pool"]] = (px, py + DY, "pool", name, None)
        for face in ("in", "out"):
            for sid, (x, y, kind) in panel[face]["spaces"].items():
                out[sid] = (x, y + DY, kind, name, face)
    return out


SPACES = _spaces()
SPOTS = {k: (v["xy"][0], v["xy"][1] + DY) for k, v in BOARD["spots"].items()}
HAZARDS = {k: tuple(v) for k, v in BOARD["hazards"].items()}
MAIN_LANE = {k: next(iter(v.get("lanes", {"-": 0}))) for k, v in HAZARD_TABLE.items()}


def _lang(view: dict[str, Any]) -> str:
    """The language of the words drawn: the view's (the channel's), English when it has none."""
    return view.get("lang") if view.get("lang") in LANGUAGES else DEFAULT


def _say(lang: str, key: str, **params: Any) -> str:
    """The game's message `key` (data/kingdom/locales) in `lang`."""
    return text(lang, "game.kingdom." + key, **params)


def _present(sid: str, fold: tuple[str, str]) -> bool:
    _, _, _, area, face = SPACES[sid]
    return face is None or dict(zip(("west", "east"), fold))[area] == face


def _paths(fold: tuple[str, str]) -> list[tuple[str, str]]:
    groups = [BOARD["heart"]["paths"], BOARD["panels"]["west"][fold[0]]["paths"],
              BOARD["panels"]["east"][fold[1]]["paths"]]
    out = []
    for group in groups:
        for path in group:
            ids = path.split()
            out += list(zip(ids, ids[1:]))
    return out


def xy(sid: str) -> tuple[int, int]:
    x, y, *_ = SPACES[sid]
    return x, y


def _fold_of(view: dict[str, Any]) -> tuple[str, str]:
    fold = view.get("fold") or {}
    west = fold.get("west") if fold.get("west") in ("in", "out") else "in"
    east = fold.get("east") if fold.get("east") in ("in", "out") else "in"
    return west, east


def _world(panel: str, face: str) -> str:
    return BOARD["panels"][panel][face]["world"]


# --------------------------------------------------------------------------- static layer
def _dagger(d: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int]) -> None:
    d.polygon([(x, y - 10), (x + 3, y + 2), (x - 3, y + 2)], fill=colour)
    d.line((x - 6, y + 3, x + 6, y + 3), fill=colour, width=2)
    d.line((x, y + 3, x, y + 9), fill=colour, width=3)


def _text_outline(d: ImageDraw.ImageDraw, pos: tuple[float, float], text: str, fnt, fill, anchor="mm") -> None:
    d.text(pos, text, font=fnt, fill=fill, anchor=anchor, stroke_width=3, stroke_fill=(12, 12, 16))


def _band_points(hz: str) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = HAZARDS[hz]
    return xy(a), xy(b)


def _vertical_label(im: Image.Image, text: str, centre: tuple[int, int], fnt) -> None:
    w = int(fnt.getlength(text)) + 12
    tile = Image.new("RGBA", (w, 42), (0, 0, 0, 0))
    td = core.Draw(tile)
    td.text((w / 2, 21), text, font=fnt, fill=WHITE, anchor="mm", stroke_width=3, stroke_fill=(12, 12, 16))
    tile = tile.rotate(90, expand=True)
    im.paste(tile, (centre[0] - tile.width // 2, centre[1] - tile.height // 2), tile)


def build_static(fold: tuple[str, str], lang: str = DEFAULT) -> Image.Image:
    """The layer that changes only with the fold (and the language of its names)."""
    im = Image.new("RGB", (WIDTH, HEIGHT), core.BG)
    d = core.Draw(im)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=core.HEADER_BG)
    # world backgrounds
    areas = [("west", 0, 400, _world("west", fold[0])), ("heart", 400, 800, "The Heartland"),
             ("east", 800, 1200, _world("east", fold[1]))]
    for area, x0, x1, world in areas:
        d.rectangle((x0, BOARD_TOP, x1, BOARD_BOTTOM), fill=WORLD_BG[world])
        d.rectangle((x0, HEADER_H, x1, BOARD_TOP - 2), fill=shade(WORLD_BG[world], 0.6))
    for x in (400, 800):  # the folds
        for y in range(BOARD_TOP, BOARD_BOTTOM, 18):
            d.line((x, y, x, y + 9), fill=(235, 235, 240), width=3)
    # the Demon Castle
    cx, cy = xy("castle")
    d.rectangle((cx - 46, cy - 52, cx + 46, cy + 30), fill=(58, 52, 60), outline=(20, 20, 24), width=3)
    for k in range(-2, 3):
        d.rectangle((cx + 18 * k - 6, cy - 62, cx + 18 * k + 6, cy - 52), fill=(58, 52, 60))
    my = (xy("moat_a")[1] + xy("moat_b")[1]) // 2
    d.ellipse((cx - 120, my - 110, cx + 120, my + 40), outline=(50, 110, 170), width=10)
    # paths
    for a, b in _paths(fold):
        d.line((*xy(a), *xy(b)), fill=PATH, width=7)
    # hazards: bands between their White Daggers, with their names
    label = font(FLOOR, True)
    for hz, (a, b) in HAZARDS.items():
        if not (_present(a, fold) and _present(b, fold)):
            continue
        (x0, y0), (x1, y1) = _band_points(hz)
        d.line((x0, y0, x1, y1), fill=BAND_EDGE, width=30)
        d.line((x0, y0, x1, y1), fill=BAND, width=24)
        length = HAZARD_TABLE[hz].get("lanes", {}).get(MAIN_LANE[hz], 0)
        for k in range(1, length + 1):
            t = k / (length + 1)
            px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            d.ellipse((px - 4, py - 4, px + 4, py + 4), fill=(150, 150, 160))
        name, centre, vertical = _hazard_label(hz, lang)
        if vertical:
            _vertical_label(im, name, centre, label)
        else:
            _text_outline(d, centre, name, label, WHITE)
    # spots: dungeon, holes
    for spot, (x, y) in SPOTS.items():
        if spot == "dungeon":
            d.rectangle((x - 22, y - 18, x + 22, y + 18), fill=(20, 18, 22), outline=(120, 120, 130), width=2)
            for k in range(-1, 2):
                d.line((x + 12 * k, y - 16, x + 12 * k, y + 16), fill=(150, 150, 160), width=2)
        elif spot.startswith("hole"):
            d.ellipse((x - 18, y - 18, x + 18, y + 18), fill=(8, 8, 10), outline=(90, 90, 100), width=2)
        else:
            d.ellipse((x - 18, y - 18, x + 18, y + 18), fill=(20, 40, 70), outline=BLACK, width=5)
    # spaces
    for sid, (x, y, kind, area, face) in SPACES.items():
        if not _present(sid, fold):
            continue
        if kind == "pool":
            d.ellipse((x - 26, y - 26, x + 26, y + 26), fill=POOL, outline=(20, 60, 110), width=3)
            for k in range(3):
                r = 20 - 6 * k
                d.arc((x - r, y - r, x + r, y + r), 30 + 90 * k, 300 + 90 * k, fill=WHITE, width=3)
        elif kind == "ring":
            for k in range(8):
                ang = k * math.pi / 4
                sx, sy = x + 20 * math.cos(ang), y + 20 * math.sin(ang)
                d.ellipse((sx - 6, sy - 6, sx + 6, sy + 6), fill=(150, 150, 155), outline=(60, 60, 64))
        elif kind == "gate":
            d.rectangle((x - 26, y - 10, x + 26, y + 22), fill=(90, 70, 50), outline=BLACK, width=2)
            d.pieslice((x - 26, y - 36, x + 26, y + 16), 180, 360, fill=(90, 70, 50), outline=BLACK, width=2)
            d.rectangle((x - 12, y - 8, x + 12, y + 22), fill=(20, 16, 12))
        elif kind == "white":
            d.ellipse((x - R, y - R, x + R, y + R), fill=WHITE, outline=BLACK, width=2)
            _dagger(d, x, y, BLACK)
        elif kind == "black":
            d.ellipse((x - R - 2, y - R - 2, x + R + 2, y + R + 2), fill=BLACK, outline=GOLDEN, width=2)
            _dagger(d, x, y, WHITE)
        else:
            d.ellipse((x - R, y - R, x + R, y + R), fill=STONE, outline=core.STONE_EDGE, width=2)
            if kind == "supply":
                d.line((x - 7, y, x + 7, y), fill=(40, 110, 60), width=4)
                d.line((x, y - 7, x, y + 7), fill=(40, 110, 60), width=4)
    # world names (the World on each panel's back is the table's text)
    bar = font(FLOOR, True)
    for panel, x0 in (("west", 0), ("east", 800)):
        face = fold[0] if panel == "west" else fold[1]
        f_world, world = core.fit_font(_say(lang, f"world.{panel}.{face}"), FLOOR, 380, True, smallest=FLOOR)
        d.text((x0 + 200, HEADER_H + BAR_H // 2), world, font=f_world, fill=WHITE, anchor="mm")
    d.text((600, HEADER_H + BAR_H // 2), _say(lang, "board.heartland"), font=bar, fill=WHITE, anchor="mm")
    return im


_static_cached = lru_cache(maxsize=4 * len(LANGUAGES))(build_static)


# --------------------------------------------------------------------------- pieces
def _name(view: dict[str, Any], seat: int) -> str:
    names = view.get("names") or []
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    players = view.get("players") or []
    colour = players[seat].get("colour") if seat < len(players) else None
    return (colour or f"P{seat + 1}").capitalize()


def _token(d: ImageDraw.ImageDraw, x: float, y: float, colour: str | None, seat: int, ring=None) -> None:
    rgb = seat_rgb(colour)
    r = 19
    if ring:
        d.ellipse((x - r - 5, y - r - 5, x + r + 5, y + r + 5), outline=ring, width=4)
    d.ellipse((x - r, y - r, x + r, y + r), fill=rgb, outline=WHITE, width=2)
    d.text((x, y + 1), LETTERS.get(colour or "", str(seat + 1)), font=font(FLOOR, True), fill=ink_on(colour),
           anchor="mm")


def _demon(d: ImageDraw.ImageDraw, x: float, y: float, lang: str) -> None:
    d.regular_polygon((x, y, 30), 6, fill=DK_RGB, outline=BLACK)
    d.polygon([(x - 20, y - 18), (x - 10, y - 38), (x - 5, y - 20)], fill=DK_RGB, outline=BLACK)
    d.polygon([(x + 20, y - 18), (x + 10, y - 38), (x + 5, y - 20)], fill=DK_RGB, outline=BLACK)
    d.text((x, y + 1), _say(lang, "board.dk"), font=font(FLOOR, True), fill=WHITE, anchor="mm")


OFFSETS = [(0, 0), (-17, -17), (17, -17), (-17, 17), (17, 17)]


def _piece_positions(view: dict[str, Any]) -> dict[int, tuple[float, float]]:
    """Where each adventurer is drawn (pieces sharing a place fan out)."""
    out: dict[int, tuple[float, float]] = {}
    for pl in view.get("players") or []:
        seat = pl.get("seat", 0)
        task = pl.get("task")
        at, spot = pl.get("at"), pl.get("spot")
        if spot in SPOTS:
            out[seat] = SPOTS[spot]
        elif task and task.get("hazard") in HAZARDS and task.get("near") in SPACES and task.get("far") in SPACES \
                and task.get("length"):
            (x0, y0), (x1, y1) = xy(task["near"]), xy(task["far"])
            t = max(0.0, min(1.0, (task.get("pos") or 0) / (task["length"] + 1)))
            px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            if task.get("lane") != MAIN_LANE.get(task["hazard"]):
                nx, ny = y1 - y0, -(x1 - x0)
                norm = math.hypot(nx, ny) or 1
                px, py = px + 24 * nx / norm, py + 24 * ny / norm
            out[seat] = (px, py)
        elif at in SPACES:
            out[seat] = xy(at)
    groups: dict[tuple[int, int], list[int]] = {}
    for seat, (x, y) in out.items():
        groups.setdefault((round(x), round(y)), []).append(seat)
    for (x, y), seats in groups.items():
        if len(seats) > 1:
            for k, seat in enumerate(sorted(seats)):
                ox, oy = OFFSETS[1 + k % 4]
                out[seat] = (x + ox, y + oy)
    return out


def _hazard_label(hz: str, lang: str) -> tuple[str, tuple[int, int], bool]:
    """A hazard's name in `lang`, where it is written (its centre) and whether it runs upwards:
    beside a vertical band, along a level one, or where `LABEL_AT` puts it."""
    (x0, y0), (x1, y1) = _band_points(hz)
    name = _say(lang, f"hazard.{hz}")
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    if hz in LABEL_AT:
        lx, ly = LABEL_AT[hz]
        return name, (lx, ly + DY), False
    if abs(x1 - x0) < abs(y1 - y0):   # a vertical band: write along it, beside it
        return name, (mx + (38 if mx < 600 else -38), my), True
    dy = -30 if 600 < y0 - DY < 760 else 32  # below the band but where that is crowded
    return name, (mx, my + dy), False


@lru_cache(maxsize=None)
def _hazard_label_boxes(lang: str) -> tuple[tuple[float, float, float, float], ...]:
    """Where every hazard's name may be written in `lang` (whichever way the panels are folded)."""
    f = font(FLOOR, True)
    boxes = []
    for hz in HAZARDS:
        name, (cx, cy), vertical = _hazard_label(hz, lang)
        half_long, half_short = f.getlength(name) / 2 + 6, 21
        hw, hh = (half_short, half_long) if vertical else (half_long, half_short)
        boxes.append((cx - hw, cy - hh, cx + hw, cy + hh))
    return tuple(boxes)


def _label(d: ImageDraw.ImageDraw, x: float, y: float, text: str, colour, lang: str,
           placed: list[tuple[float, float, float, float]] | None = None) -> None:
    """A tag naming the space at (x, y): above it, else below, right or left of it (then
    further out above and below), wherever it first covers no hazard's name nor a tag in ``placed``
    (above when none is clear); the tag's box is added to ``placed``."""
    f = font(FLOOR, True)
    w = f.getlength(text) + 12
    spots = [(x - w / 2, y - R - 42), (x - w / 2, y + R + 6), (x + R + 8, y - 18), (x - R - w - 8, y - 18),
             (x - w / 2, y - R - 80), (x - w / 2, y + R + 44), (x - w / 2, y - R - 118), (x - w / 2, y + R + 82)]
    boxes = [(left, top, left + w, top + 36) for left, top in
             ((min(max(4, left), WIDTH - w - 4), top) for left, top in spots)
             if BOARD_TOP + 2 <= top and top + 36 <= BOARD_BOTTOM]
    taken = (*_hazard_label_boxes(lang), *(placed or ()))
    box = next((b for b in boxes if not any(_overlap(b, t) for t in taken)), boxes[0])
    if placed is not None:
        placed.append(box)
    d.rounded_rectangle(box, radius=6, fill=(12, 12, 16), outline=colour, width=2)
    d.text(((box[0] + box[2]) / 2, box[1] + 18), text, font=f, fill=WHITE, anchor="mm")


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_header(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    mid = HEADER_H // 2
    lang = _lang(view)
    players = view.get("players") or []
    winner = view.get("winner")
    if view.get("phase") == "over":
        if isinstance(winner, int) and winner < len(players):
            d.rectangle((0, 0, WIDTH, HEADER_H), fill=core.GOLD)
            said = _say(lang, "board.header_win", who=_name(view, winner))
            f, lines = core.fit_phrase(said, core.seat_names(view), 34, WIDTH - 40, HEADER_H - 6, smallest=FLOOR)
            core.draw_lines(d, WIDTH / 2, mid, lines, f, BLACK, align="m")
        else:
            d.text((WIDTH / 2, mid), _say(lang, "board.header_none"), font=font(FLOOR, True),
                   fill=core.WARN, anchor="mm")
        return
    title = font(FLOOR, True)
    top, low = ROW_MID
    d.text((14, top), TITLE, font=title, fill=GOLDEN, anchor="lm")
    rnd = _say(lang, "board.header_round", round=view.get("round", 1), rounds=view.get("rounds", "?"))
    x = 14 + title.getlength(TITLE) + 20
    d.text((x, top), rnd, font=font(FLOOR), fill=core.TEXT_DIM, anchor="lm")
    left, right = 14, WIDTH - 14
    die = view.get("die")
    if isinstance(die, int):
        d.rounded_rectangle((right - 50, top - 24, right, top + 24), radius=8, fill=WHITE, outline=BLACK, width=2)
        d.text((right - 25, top + 1), str(die), font=font(FLOOR + 2, True), fill=BLACK, anchor="mm")
    height = HEADER_H - top - 28
    current = view.get("current")
    job = view.get("fold_job")
    acting = view.get("acting")
    if acting:
        f, lines = core.fit_phrase(str(acting), core.seat_names(view), FLOOR, right - left, height,
                                   smallest=FLOOR)
        core.draw_lines(d, left, low, lines, f, core.TEXT, align="l")
    elif job:
        panel = job.get("panel") if job.get("panel") in ("west", "east") else "west"
        f, said = core.fit_font(_say(lang, "board.header_fold", panel=_say(lang, f"panel.{panel}")), FLOOR,
                                right - left, True, smallest=FLOOR)
        d.text((left, low), said, font=f, fill=core.WARN, anchor="lm")
    elif isinstance(current, int) and current < len(players):
        phase = view.get("phase") if view.get("phase") in ("demon", "move", "steal") else "act"
        _token(d, left + 24, low, players[current].get("colour"), current)
        f, lines = core.fit_phrase(_say(lang, f"board.header.{phase}", who=_name(view, current)),
                                   core.seat_names(view), FLOOR,
                                   right - left - 58, height, smallest=FLOOR)
        core.draw_lines(d, left + 58, low, lines, f, core.TEXT, align="l")


def _draw_board(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], fold: tuple[str, str]) -> None:
    job = view.get("fold_job")
    if job and job.get("panel") in ("west", "east"):
        x0 = 0 if job["panel"] == "west" else 800
        d.rectangle((x0 + 2, BOARD_TOP + 2, x0 + 398, BOARD_BOTTOM - 2), outline=core.WARN, width=6)
    # Key Locations: a gold chest while the Treasure is there
    for loc, full in (view.get("locations") or {}).items():
        if loc not in SPACES or not _present(loc, fold):
            continue
        x, y = xy(loc)
        if full:
            d.rectangle((x + 9, y - 24, x + 29, y - 10), fill=GOLDEN, outline=BLACK, width=2)
            d.line((x + 9, y - 18, x + 29, y - 18), fill=BLACK, width=2)
        else:
            d.line((x + 10, y - 24, x + 26, y - 10), fill=(170, 170, 170), width=3)
            d.line((x + 26, y - 24, x + 10, y - 10), fill=(170, 170, 170), width=3)
    # the Evil Tower bridge, as built
    bridge = view.get("bridge") or {}
    built = bridge.get("built") or 0
    if built and "evil_tower_bridge" in HAZARDS:
        a, b = HAZARDS["evil_tower_bridge"]
        if _present(a, fold):
            start, end = (a, b) if bridge.get("from") != b else (b, a)
            (x0, y0), (x1, y1) = xy(start), xy(end)
            length = HAZARD_TABLE["evil_tower_bridge"]["lanes"]["bridge"]
            for k in range(1, min(built, length) + 1):
                t = k / (length + 1)
                px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                d.rectangle((px - 12, py - 12, px + 12, py + 12), fill=(40, 40, 44), outline=GOLDEN, width=2)
    players = view.get("players") or []
    colour_of = {p.get("seat"): p.get("colour") for p in players}
    # the last move
    last = view.get("last")
    if last and last.get("from") in SPACES and last.get("to") in SPACES:
        if _present(last["from"], fold) and _present(last["to"], fold):
            rgb = seat_rgb(colour_of.get(last.get("seat")))
            d.line((*xy(last["from"]), *xy(last["to"])), fill=tint(rgb, 0.3), width=5)
    current = view.get("current")
    ring = seat_rgb(colour_of.get(current)) if isinstance(current, int) else core.HIGHLIGHT
    _draw_marks(d, view)
    # the Demon King
    demon = view.get("demon")
    if demon in SPACES:
        _demon(d, *xy(demon), _lang(view))
    # the adventurers
    for seat, (x, y) in sorted(_piece_positions(view).items()):
        pl = players[seat] if seat < len(players) else {}
        _token(d, x, y, pl.get("colour"), seat, ring if seat == current else None)


def _draw_marks(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Ring every place the current choices name and label it with the letter its button
    repeats ("A · The Sleeping Giant, near side"); the Demon King's places in his colour."""
    demon = set(view.get("demon_targets") or [])
    placed: list[tuple[float, float, float, float]] = []
    for mark in view.get("marks") or []:
        sid = mark.get("space")
        if sid in SPACES:
            x, y = xy(sid)
            colour = DK_RGB if sid in demon else core.HIGHLIGHT
            d.ellipse((x - R - 6, y - R - 6, x + R + 6, y + R + 6), outline=colour, width=4)
            _label(d, x, y, str(mark.get("mark", "")), colour, _lang(view), placed)


# --------------------------------------------------------------------------- entry points
def draw_kingdom(view: dict[str, Any]) -> Image.Image:
    fold = _fold_of(view)
    im = core.board(_static_cached(fold, _lang(view)))
    d = core.Draw(im)
    _draw_header(d, view)
    _draw_board(im, d, view, fold)
    return im


def render_kingdom(view: dict[str, Any]) -> bytes:
    """PNG bytes for a Key to the Kingdom view: cached layers + fixed-palette PNG."""
    return core.encode_png(draw_kingdom(view), palette=kingdom_palette())


def _calibration_views() -> list[dict[str, Any]]:
    colours = ["red", "blue", "green", "yellow"]
    views = []
    for k, (west, east) in enumerate((("in", "in"), ("out", "out"))):
        players = [{"seat": s, "colour": colours[s], "at": "gate", "spot": None, "task": None,
                    "equip": ["sword", "fire"], "treasures": s, "deep": s % 2} for s in range(4)]
        views.append({"game": "kingdom", "round": 3, "rounds": 80, "current": k, "phase": "move",
                      "fold": {"west": west, "east": east}, "demon": "ht", "die": 5, "players": players,
                      "locations": {loc: bool(i % 2) for i, loc in enumerate(BOARD["locations"])},
                      "lost_equipment": [{"item": "rope", "owner": 0}], "lost_treasures": 2, "deep_left": 1,
                      "bridge": {"built": 3, "from": "etb_a"}, "targets": ["h3", "h1"], "demon_targets": ["h7"],
                      "marks": [{"space": sid, "mark": m} for sid, m in (("h3", "A"), ("h1", "B"), ("h7", "C"))],
                      "last": {"seat": 0, "from": "gate", "to": "hs"}, "winner": None})
    over = dict(views[0], phase="over", winner=1)
    views.append(over)
    return views


@lru_cache(maxsize=1)
def kingdom_palette() -> Image.Image:
    """Fixed 256-colour palette, computed once from calibration boards in every fold state."""
    images = [draw_kingdom(v) for v in _calibration_views()]
    images += [_static_cached(f) for f in (("in", "out"), ("out", "in"))]
    swatch = Image.new("RGB", (WIDTH, sum(i.height for i in images)))
    y = 0
    for img in images:
        swatch.paste(img, (0, y))
        y += img.height
    return core.adaptive_palette(swatch)


def warm_up() -> None:
    """Pay the one-off costs (palette, the four fold layers) ahead of time."""
    kingdom_palette()
    for fold in (("in", "in"), ("in", "out"), ("out", "in"), ("out", "out")):
        _static_cached(fold)


__all__ = ["WIDTH", "HEIGHT", "draw_kingdom", "render_kingdom", "kingdom_palette", "warm_up"]

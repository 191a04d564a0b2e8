"""Board image for The Warlock of Firetop Mountain.

``render_firetop(view) -> bytes`` turns the public *view dict* into a PNG;
``draw_firetop(view) -> PIL.Image`` gives the RGB image before encoding;
``render_firetop_naive(view)`` draws the same picture without caches (benchmarks).

Picture, top to bottom: a header (round, whose move, what they are doing), the mountain's
board (22 x 15 squares with coordinates: rock, corridors, the river with its ferry, bridge and
raft, rooms with their doors, the Maze, the Secret Passages and the Entrance). The adventurers'
sheets, the battle going on, the last dice and the tries at the chest are the table's text
(`render.words.firetop.panel`), where a phone reads them.

On the board: every adventurer is a disc of his colour with his letter (the player to move
ringed), the last move is a line, rooms show "?" until explored, "✓" once their treasure is
gone and "!" while a monster seen there waits face down; a room barred to someone shows his
letter crossed; treasure on the floor is a gold box with its count (with the owner's letter
when only he may take it); Maze spaces show "?", an open way or a cross as the table has seen.

Only public data is drawn: ``view["secret"]`` is never read. The board geometry comes from the
game's data file (data/firetop/board.toml), read as a package resource.

Speed: the board (everything but what moves) is one cached layer; discs and badges are cached
sprites; a fixed palette makes the PNG encode cheap.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from typing import Any

from PIL import Image, ImageDraw

from . import core
from .core import BLACK, WHITE, fit_text, font, ink_on, seat_rgb, shade, tint

WIDTH = 1200
TITLE = "Firetop Mountain"
CELL = 51
MARGIN_X = (WIDTH - 22 * CELL) // 2  # room for the row numbers
HEADER_H = 62
COORD_H = 28
BOARD_Y = HEADER_H + COORD_H
SS = 3

ROCK = (58, 50, 46)
ROCK_EDGE = (44, 38, 35)
FLOOR = (196, 184, 160)
FLOOR_LINE = (170, 157, 132)
RIVER = (46, 104, 168)
RIVER_LIGHT = (92, 148, 206)
ROOM = (222, 206, 170)
ROOM_EDGE = (110, 78, 46)
ROOM_DONE = (180, 170, 150)
STUDY = (196, 170, 214)
TREASURE = (240, 210, 120)
MAZE = (62, 96, 60)
MAZE_SPACE = (120, 156, 108)
DOOR = (150, 96, 40)
ENTRANCE = (150, 200, 150)
INK = (30, 26, 24)
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "orange": "O", "cyan": "C"}
PASSAGE_RGB = {"red": (200, 40, 40), "blue": (40, 90, 210)}
CROSSING_LABELS = {"ferry": "FERRY", "bridge": "BRIDGE", "raft": "RAFT"}


# ------------------------------------------------------------------ geometry

@lru_cache(maxsize=1)
def board() -> dict[str, Any]:
    raw = tomllib.loads(files("data").joinpath("firetop", "board.toml").read_text(encoding="utf-8"))
    grid = raw["map"]
    rooms: dict[str, dict[str, Any]] = {}
    letters = {spec["letter"]: rid for rid, spec in raw["rooms"].items()}
    entrance: list[tuple[int, int]] = []
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            if ch in letters:
                rooms.setdefault(letters[ch], {"cells": []})["cells"].append((x, y))
            elif ch == "e":
                entrance.append((x, y))
    for rid, room in rooms.items():
        spec = raw["rooms"][rid]
        xs = [c[0] for c in room["cells"]]
        ys = [c[1] for c in room["cells"]]
        room.update(name=spec["name"], doors=spec["doors"], kind=spec.get("kind", "room"),
                    box=(min(xs), min(ys), max(xs) + 1, max(ys) + 1))
    ex = [c[0] for c in entrance]
    ey = [c[1] for c in entrance]
    passages = {}
    for spec in raw["passage"]:
        for square, ring in zip(spec["entrances"], spec["rings"]):
            passages[square] = {"colour": spec["colour"], "ring": ring}
    return {"grid": grid, "rooms": rooms, "entrance": (min(ex), min(ey), max(ex) + 1, max(ey) + 1),
            "passages": passages, "crossings": raw["crossing"], "maze": raw["maze"]}


def cell_xy(name: str) -> tuple[int, int]:
    return "ABCDEFGHIJKLMNOPQRSTUV".index(name[0]), int(name[1:]) - 1


def cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    x0, y0 = MARGIN_X + x * CELL, BOARD_Y + y * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def area_box(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return MARGIN_X + x0 * CELL, BOARD_Y + y0 * CELL, MARGIN_X + x1 * CELL, BOARD_Y + y1 * CELL


def node_box(node: str) -> tuple[int, int, int, int] | None:
    b = board()
    if node in b["rooms"]:
        return area_box(b["rooms"][node]["box"])
    if node == "entrance":
        return area_box(b["entrance"])
    try:
        x, y = cell_xy(node)
    except (ValueError, IndexError):
        return None
    if not (0 <= x < 22 and 0 <= y < 15):
        return None
    return cell_box(x, y)


def node_centre(node: str) -> tuple[int, int] | None:
    """Where a move line ends at `node` (in a room: its lower part, clear of the name)."""
    box = node_box(node)
    if box is None:
        return None
    if node in board()["rooms"]:
        return (box[0] + box[2]) // 2, box[3] - 24
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


HEIGHT = BOARD_Y + 15 * CELL + 10


# ------------------------------------------------------------------ static layer

def _wrap(text: str, fnt: Any, width: int) -> list[str]:
    if fnt.getlength(text) <= width or " " not in text:
        return [fit_text(text, fnt, width)]
    words = text.split()
    best = None
    for cut in range(1, len(words)):
        a, b = " ".join(words[:cut]), " ".join(words[cut:])
        wide = max(fnt.getlength(a), fnt.getlength(b))
        if best is None or wide < best[0]:
            best = (wide, [a, b])
    assert best is not None
    return [fit_text(line, fnt, width) for line in best[1]]


def build_static() -> Image.Image:
    b = board()
    im = Image.new("RGB", (WIDTH, HEIGHT), core.BG)
    d = core.Draw(im)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=core.HEADER_BG)
    fc = font(22, True)
    for x in range(22):
        d.text((MARGIN_X + x * CELL + CELL // 2, HEADER_H + COORD_H // 2 + 1), "ABCDEFGHIJKLMNOPQRSTUV"[x],
               font=fc, fill=core.TEXT_DIM, anchor="mm")
    for y in range(15):
        d.text((MARGIN_X - 5, BOARD_Y + y * CELL + CELL // 2), str(y + 1), font=fc, fill=core.TEXT_DIM,
               anchor="rm")
    grid = b["grid"]
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            box = cell_box(x, y)
            if ch == ".":
                d.rectangle(box, fill=FLOOR)
                d.rectangle(box, outline=FLOOR_LINE)
            elif ch == "~":
                d.rectangle(box, fill=RIVER)
                cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
                for dy in (-10, 8):
                    d.arc((box[0] + 4, cy + dy - 6, cx, cy + dy + 6), 200, 340, fill=RIVER_LIGHT, width=3)
                    d.arc((cx, cy + dy - 6, box[2] - 4, cy + dy + 6), 200, 340, fill=RIVER_LIGHT, width=3)
            elif ch == "m":
                d.rectangle(box, fill=MAZE)
            else:
                d.rectangle(box, fill=ROCK)
                d.rectangle(box, outline=ROCK_EDGE)
    # the Entrance
    ebox = area_box(b["entrance"])
    d.rectangle(ebox, fill=ENTRANCE, outline=ROOM_EDGE, width=3)
    d.text(((ebox[0] + ebox[2]) // 2, ebox[1] + 16), "ENTRANCE", font=font(22, True), fill=INK, anchor="mm")
    # rooms
    fname = font(22, True)
    for rid, room in b["rooms"].items():
        box = area_box(room["box"])
        fill = STUDY if room["kind"] == "study" else TREASURE if room["kind"] == "treasure" else ROOM
        d.rectangle(box, fill=fill, outline=ROOM_EDGE, width=4)
        lines = _wrap(room["name"], fname, box[2] - box[0] - 10)
        for i, line in enumerate(lines):
            d.text(((box[0] + box[2]) // 2, box[1] + 15 + 23 * i), line, font=fname, fill=INK, anchor="mm")
        for door in room["doors"]:
            dx, dy = cell_xy(door)
            # the door is on the room's edge facing its corridor square
            x0, y0, x1, y1 = room["box"]
            if dy < y0:
                seg = (MARGIN_X + dx * CELL + 12, BOARD_Y + y0 * CELL - 3, MARGIN_X + dx * CELL + CELL - 12,
                       BOARD_Y + y0 * CELL + 4)
            elif dy >= y1:
                seg = (MARGIN_X + dx * CELL + 12, BOARD_Y + y1 * CELL - 4, MARGIN_X + dx * CELL + CELL - 12,
                       BOARD_Y + y1 * CELL + 3)
            elif dx < x0:
                seg = (MARGIN_X + x0 * CELL - 3, BOARD_Y + dy * CELL + 12, MARGIN_X + x0 * CELL + 4,
                       BOARD_Y + dy * CELL + CELL - 12)
            else:
                seg = (MARGIN_X + x1 * CELL - 4, BOARD_Y + dy * CELL + 12, MARGIN_X + x1 * CELL + 3,
                       BOARD_Y + dy * CELL + CELL - 12)
            d.rectangle(seg, fill=DOOR)
    # river crossings
    fsmall = font(22, True)
    for c in b["crossings"]:
        sx, sy = cell_xy(c["south"])
        _, ny = cell_xy(c["north"])
        ry = (sy + ny) // 2
        box = cell_box(sx, ry)
        label = CROSSING_LABELS.get(c["id"], c["id"].upper())
        wide = int(fsmall.getlength(label)) + 12
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        if c["id"] == "bridge":
            d.rectangle((box[0] + 10, box[1] - 6, box[2] - 10, box[3] + 6), fill=(140, 100, 60))
            for yy in range(box[1] - 2, box[3] + 4, 8):
                d.line((box[0] + 10, yy, box[2] - 10, yy), fill=(100, 70, 40), width=2)
        d.rounded_rectangle((cx - wide // 2, cy - 14, cx + wide // 2, cy + 14), radius=6, fill=WHITE,
                            outline=INK, width=2)
        d.text((cx, cy), label, font=fsmall, fill=INK, anchor="mm")
    # the Maze: lanes and links
    maze = b["maze"]
    mbox = None
    for space in maze["spaces"]:
        box = cell_box(*cell_xy(space))
        mbox = box if mbox is None else (min(mbox[0], box[0]), min(mbox[1], box[1]), max(mbox[2], box[2]),
                                          max(mbox[3], box[3]))
    if mbox is not None:
        d.rectangle(mbox, outline=(30, 50, 30), width=3)
    for a, c in maze["links"]:
        pa, pc = _centre_of_cell(a), _centre_of_cell(c)
        d.line((*pa, *pc), fill=(170, 200, 150), width=5)
    for gate in maze["gates"]:
        box = cell_box(*cell_xy(gate))
        d.rectangle((box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), outline=MAZE, width=4)
    # Secret Passages: entrance discs (colour + letter), iron rings on their squares
    for square, spec in b["passages"].items():
        box = cell_box(*cell_xy(square))
        rgb = PASSAGE_RGB.get(spec["colour"], core.NEUTRAL)
        # a tunnel mouth: an arch in the rock, outlined in the passage's colour, with its letter
        x0, y0, x1, y1 = box[0] + 6, box[1] + 4, box[2] - 6, box[3] - 4
        d.pieslice((x0, y0, x1, y0 + (x1 - x0)), 180, 360, fill=(12, 10, 10), outline=rgb, width=4)
        d.rectangle((x0, y0 + (x1 - x0) // 2, x1, y1), fill=(12, 10, 10), outline=rgb, width=4)
        d.rectangle((x0 + 4, y0 + (x1 - x0) // 2 - 2, x1 - 4, y0 + (x1 - x0) // 2 + 3), fill=(12, 10, 10))
        d.text(((x0 + x1) // 2, (y0 + y1) // 2 + 4), spec["colour"][0].upper(), font=font(22, True),
               fill=tint(rgb, 0.35), anchor="mm")
        rbox = cell_box(*cell_xy(spec["ring"]))
        rx, ry = rbox[0] + 9, rbox[1] + 9
        d.ellipse((rx - 6, ry - 6, rx + 6, ry + 6), outline=(70, 70, 74), width=3)
    d.rectangle((MARGIN_X - 2, BOARD_Y - 2, MARGIN_X + 22 * CELL + 2, BOARD_Y + 15 * CELL + 2), outline=BLACK, width=2)
    return im


def _centre_of_cell(name: str) -> tuple[int, int]:
    box = cell_box(*cell_xy(name))
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


@lru_cache(maxsize=1)
def _static_cached() -> Image.Image:
    return build_static()


# ------------------------------------------------------------------ sprites

def _disc(colour: str, size: int, ring: bool) -> Image.Image:
    big = size * SS
    pad = 4 * SS
    im = Image.new("RGBA", (big + 2 * pad, big + 2 * pad), (0, 0, 0, 0))
    d = core.Draw(im)
    if ring:
        d.ellipse((0, 0, big + 2 * pad - 1, big + 2 * pad - 1), fill=core.HIGHLIGHT)
    rgb = seat_rgb(colour)
    d.ellipse((pad, pad, pad + big, pad + big), fill=rgb, outline=shade(rgb, 0.45), width=2 * SS)
    d.text((pad + big // 2, pad + big // 2 + SS), LETTERS.get(colour, "?"), font=font(int(big * 0.55), True),
           fill=ink_on(colour), anchor="mm")
    return im.resize((im.width // SS, im.height // SS), Image.Resampling.BOX)  # an average: no ringing, fewer colours


@lru_cache(maxsize=64)
def disc(colour: str, size: int, ring: bool) -> Image.Image:
    return _disc(colour, size, ring)


def _badge(text: str, fill: core.RGB, ink: core.RGB) -> Image.Image:
    big = 30 * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = core.Draw(im)
    d.ellipse((0, 0, big - 1, big - 1), fill=fill, outline=shade(fill, 0.5), width=2 * SS)
    d.text((big // 2, big // 2 + SS), text, font=font(22 * SS, True), fill=ink, anchor="mm")
    return im.resize((30, 30), Image.Resampling.BOX)


@lru_cache(maxsize=32)
def badge(text: str, fill: core.RGB, ink: core.RGB) -> Image.Image:
    return _badge(text, fill, ink)


class Sprites:
    def __init__(self, cached: bool) -> None:
        self.disc = disc if cached else _disc
        self.badge = badge if cached else _badge
        self.header = header_sprite if cached else _header_sprite


# ------------------------------------------------------------------ drawing

def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _name(view: dict[str, Any], seat: int) -> str:
    names = view.get("names") or []
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    colour = _colour(view, seat)
    return colour.capitalize() if colour else f"Seat {seat + 1}"


def _colour(view: dict[str, Any], seat: Any) -> str:
    players = view.get("players") or []
    s = _int(seat, -1)
    if 0 <= s < len(players):
        return str(players[s].get("colour") or "")
    return ""


STEP_TEXT = {"start": "to move", "move": "moving", "maze": "in the Maze", "stop": "meeting someone",
             "offer": "conferring", "ask": "making a Key Challenge", "shop": "at the Pedlar's",
             "open": "at the Warlock's chest", "battle": "fighting", "task": "in a room", "done": "ending the turn"}


def header_key(view: dict[str, Any]) -> tuple[Any, ...]:
    rnd = f"Round {_int(view.get('round'), 1)}/{_int(view.get('limit'), 40)}"
    phase = view.get("phase")
    names = core.seat_names(view)
    acting = view.get("acting")
    if acting and phase != "over":
        return rnd, str(acting), core.TEXT, names
    if phase == "over":
        winner = view.get("winner")
        text = ("The Warlock woke: nobody won" if winner is None
                else f"{_name(view, _int(winner))} opened the chest and wins!")
        return rnd, text, core.GOLD, names
    if phase == "create":
        return rnd, "Rolling up adventurers…", core.TEXT, names
    cur = view.get("current")
    if cur is None:
        return rnd, "", core.TEXT, names
    what = STEP_TEXT.get(str(view.get("step")), "")
    if view.get("step") == "move" and view.get("roll"):
        what = f"rolled {_int(view.get('roll'))}"
    colour = _colour(view, cur)
    return rnd, f"{_name(view, _int(cur))} {what}", seat_rgb(colour) if colour else core.TEXT, names


def _header_sprite(key: tuple[Any, ...]) -> Image.Image:
    rnd, text, rgb, names = key
    im = Image.new("RGB", (WIDTH, HEADER_H), core.HEADER_BG)
    d = core.Draw(im)
    fb, fr = font(26, True), font(22)
    d.text((16, HEADER_H // 2), TITLE, font=fb, fill=core.GOLD, anchor="lm")
    d.text((290, HEADER_H // 2), rnd, font=fr, fill=core.TEXT, anchor="lm")
    if text:
        left = 290 + fr.getlength(rnd) + 24
        f, lines = core.fit_phrase(text, names, 26, WIDTH - 16 - left, HEADER_H - 8)
        core.draw_lines(d, WIDTH - 16, HEADER_H // 2, lines, f, rgb)
    return im


@lru_cache(maxsize=64)
def header_sprite(key: tuple[Any, ...]) -> Image.Image:
    return _header_sprite(key)


def _rooms(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], sprites: Sprites) -> None:
    b = board()
    rooms = view.get("rooms") or {}
    for rid, geo in b["rooms"].items():
        info = rooms.get(rid) or {}
        box = area_box(geo["box"])
        x, y = box[0] + 4, box[3] - 34
        if geo["kind"] == "room":
            if info.get("waiting"):
                im.paste(sprites.badge("!", core.WARN, BLACK), (x, y), sprites.badge("!", core.WARN, BLACK))
            elif not info.get("visited"):
                im.paste(sprites.badge("?", WHITE, INK), (x, y), sprites.badge("?", WHITE, INK))
            elif info.get("looted"):
                im.paste(sprites.badge("✓", core.TURN_GREEN, INK), (x, y), sprites.badge("✓", core.TURN_GREEN, INK))
        barred = info.get("barred")
        if barred is not None:
            colour = _colour(view, barred)
            bx = box[2] - 34
            spr = sprites.badge(LETTERS.get(colour, "?"), seat_rgb(colour), ink_on(colour))
            im.paste(spr, (bx, y), spr)
            d.line((bx + 3, y + 27, bx + 27, y + 3), fill=BLACK, width=4)


def _maze(im: Image.Image, view: dict[str, Any], sprites: Sprites) -> None:
    seen = view.get("maze") or {}
    for space in board()["maze"]["spaces"]:
        box = cell_box(*cell_xy(space))
        state = seen.get(space)
        if state == "open":
            spr = sprites.badge("○", MAZE_SPACE, WHITE)
        elif state == "dead":
            spr = sprites.badge("✕", (120, 30, 30), WHITE)
        else:
            spr = sprites.badge("?", MAZE_SPACE, INK)
        im.paste(spr, (box[0] + 11, box[1] + 11), spr)


def _pile_area(node: str) -> tuple[int, int, int, int] | None:
    """Where a node's pile count goes, in the top right corner of this box: a square's own;
    a room's lowest strip, since the room's name fills its top."""
    box = node_box(node)
    if box is not None and node in board()["rooms"]:
        return box[0], box[3] - 34, box[2], box[3]
    return box


def _piles(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    f = font(22, True)
    counts: dict[tuple[str, Any], int] = {}
    for pile in view.get("piles") or []:
        key = (str(pile.get("node")), pile.get("owner"))
        counts[key] = counts.get(key, 0) + _int(pile.get("count"))
    for (node, owner), count in counts.items():
        box = _pile_area(node)
        if box is None:
            continue
        x1, y0 = box[2] - 4, box[1] + 4
        # "B·3", not "B3": that would read as a square of the board
        label = str(count) if owner is None else f"{LETTERS.get(_colour(view, owner), '?')}·{count}"
        w = int(f.getlength(label)) + 12
        d.rounded_rectangle((x1 - w, y0, x1, y0 + 26), radius=5, fill=core.GOLD, outline=INK, width=2)
        d.text((x1 - w // 2, y0 + 13), label, font=f, fill=INK, anchor="mm")


def _last_move(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last")
    if not isinstance(last, dict):
        return
    path = [node_centre(str(n)) for n in (last.get("path") or [])]
    points = [p for p in path if p is not None]
    if len(points) < 2:
        return
    rgb = seat_rgb(_colour(view, last.get("seat")))
    d.line(points, fill=shade(rgb, 0.6), width=9, joint="curve")
    d.line(points, fill=tint(rgb, 0.25), width=5, joint="curve")
    x, y = points[0]
    d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=tint(rgb, 0.25), outline=shade(rgb, 0.5), width=2)


def _tokens(im: Image.Image, view: dict[str, Any], sprites: Sprites) -> None:
    at: dict[str, list[int]] = {}
    players = view.get("players") or []
    for seat, pl in enumerate(players):
        at.setdefault(str(pl.get("pos")), []).append(seat)
    current = view.get("current")
    for node, seats in at.items():
        box = node_box(node)
        if box is None:
            continue
        roomy = node in board()["rooms"] or node == "entrance"
        n = len(seats)
        if roomy:
            size = 36
            x0, y0, x1, y1 = box
            top = y0 + (52 if node in board()["rooms"] and (y1 - y0) > 60 else 26)
            cols = max(1, min(n, (x1 - x0 - 40) // (size + 2)))
            for i, seat in enumerate(seats):
                cx = x0 + 40 + (i % cols) * (size + 2) + size // 2
                cy = min(y1 - size // 2 - 2, top + (i // cols) * (size - 6) + size // 2)
                _paste_disc(im, sprites, players[seat].get("colour"), size, seat == current, cx, cy)
        else:
            size = 40 if n == 1 else 26 if n <= 4 else 20
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            offsets = [(0, 0)] if n == 1 else [(-12, -12), (12, -12), (-12, 12), (12, 12), (0, -15), (0, 15)]
            for i, seat in enumerate(seats):
                ox, oy = offsets[i % len(offsets)]
                _paste_disc(im, sprites, players[seat].get("colour"), size, seat == current, cx + ox, cy + oy)


def _mark_outlines(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Outline every space the mover's choices name (under the tokens, which may stand there)."""
    for mark in view.get("marks") or []:
        box = node_box(str(mark.get("node")))
        if box is not None:
            d.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=core.HIGHLIGHT, width=4)


def _mark_letters(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The letter each marked space's button repeats ("A · Library"), in the space's top-left
    corner, over any token."""
    f = font(20, True)
    for mark in view.get("marks") or []:
        box = node_box(str(mark.get("node")))
        if box is None:
            continue
        text = str(mark.get("mark", ""))
        w = max(22, int(f.getlength(text)) + 10)
        x0, y0 = box[0] + 2, box[1] + 2
        d.rounded_rectangle((x0, y0, x0 + w, y0 + 24), radius=5, fill=INK, outline=core.HIGHLIGHT, width=2)
        d.text((x0 + w / 2, y0 + 12), text, font=f, fill=WHITE, anchor="mm")


def _paste_disc(im: Image.Image, sprites: Sprites, colour: Any, size: int, ring: bool, cx: int, cy: int) -> None:
    spr = sprites.disc(str(colour or ""), size, bool(ring))
    im.paste(spr, (cx - spr.width // 2, cy - spr.height // 2), spr)


def _compose(view: dict[str, Any], sprites: Sprites, static: Any) -> Image.Image:
    im = core.board(static())
    d = core.Draw(im)
    im.paste(sprites.header(header_key(view)), (0, 0))
    _rooms(im, d, view, sprites)
    _maze(im, view, sprites)
    _last_move(d, view)
    _piles(im, d, view)
    _mark_outlines(d, view)
    _tokens(im, view, sprites)
    _mark_letters(d, view)
    return im


CACHED = Sprites(cached=True)
UNCACHED = Sprites(cached=False)


# ------------------------------------------------------------------ public API

def draw_firetop(view: dict[str, Any]) -> Image.Image:
    return _compose(view, CACHED, _static_cached)


def render_firetop(view: dict[str, Any]) -> bytes:
    return core.encode_png(draw_firetop(view), palette=firetop_palette())


def draw_firetop_naive(view: dict[str, Any]) -> Image.Image:
    return _compose(view, UNCACHED, build_static)


def render_firetop_naive(view: dict[str, Any]) -> bytes:
    return core.default_png(draw_firetop_naive(view))


def _calibration_view() -> dict[str, Any]:
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    players = [{"seat": s, "colour": c, "skill": 10, "skill0": 10, "stamina": 5 + 3 * s, "stamina0": 22,
                "luck": 8, "luck0": 9, "gold": s, "provisions": 3, "lantern": s % 2 == 0, "treasures": s,
                "keycards": 1, "pos": ["K11", "armoury", "entrance", "A3", "B7", "K11"][s], "creating": False,
                "lives": 1 + s % 2, "miss": s % 3 == 0} for s, c in enumerate(colours)]
    rooms = {rid: {"visited": i % 3 != 0, "looted": i % 3 == 1, "barred": 1 if i == 2 else None,
                   "waiting": "Ghoul" if i % 5 == 2 else None} for i, rid in enumerate(board()["rooms"])}
    return {"game": "firetop", "round": 3, "limit": 40, "phase": "play", "current": 0, "step": "battle",
            "players": players, "rooms": rooms, "maze": {"A6": "open", "B6": "dead"},
            "piles": [{"node": "K12", "count": 2, "owner": None}, {"node": "crypt", "count": 3, "owner": 1}],
            "battle": {"kind": "monster", "seat": 0, "name": "Ghoul", "skill": 7, "stamina": 5, "stamina0": 7,
                       "round": 2, "last": {"mine": [6, 5], "theirs": [1, 2], "my_total": 21, "their_total": 10}},
            "last": {"seat": 3, "path": ["K13", "K12", "K11"]}, "attempts": [{"seat": 1, "keys": [1, 2, 3], "wrong": 1}],
            "dice": {"seat": 0, "what": "move", "faces": [4]}, "names": ["Ana", "Bo", "Cy", "Di", "Ed", "Fy"],
            "marks": [{"node": "K9", "mark": "A"}, {"node": "library", "mark": "B"}]}


@lru_cache(maxsize=1)
def firetop_palette() -> Image.Image:
    """A fixed 256-colour palette, computed once from a calibration board."""
    view = _calibration_view()
    images = [_compose(view, CACHED, _static_cached),
              _compose({**view, "battle": None, "phase": "over", "winner": 2}, CACHED, _static_cached)]
    swatch = Image.new("RGB", (WIDTH, sum(im.height for im in images)))
    y = 0
    for im in images:
        swatch.paste(im, (0, y))
        y += im.height
    return core.adaptive_palette(swatch)


def warm_up() -> None:
    firetop_palette()
    _static_cached()


__all__ = ["WIDTH", "draw_firetop", "draw_firetop_naive", "firetop_palette", "render_firetop",
           "render_firetop_naive", "warm_up"]

"""Board image for The Warlock of Firetop Mountain.

``render_firetop(view) -> bytes`` turns the public *view dict* into a PNG;
``draw_firetop(view) -> PIL.Image`` gives the RGB image before encoding;
``render_firetop_naive(view)`` draws the same picture without caches (benchmarks).

Picture, top to bottom: a header (the title and round; then whose move and what they are
doing), the mountain's board (22 x 15 squares with coordinates: rock, corridors, the river with
its ferry, bridge and raft, rooms with their doors, the Maze, the Secret Passages and the
Entrance). The adventurers' sheets, the battle going on, the last dice and the tries at the
chest are the table's text (`render.words.firetop.panel`), where a phone reads them.

For phones: a phone shows the 1200 px picture 360 px wide, so nothing is drawn under `FLOOR`
(30 px, 9 px on the phone). Squares are taller than wide (board.toml's ``[drawing]``): a room's
name sits on its upper row, clear of its doors, and a strip along its lower row holds the letter
of its button, its badge, the adventurers in it, treasure on its floor and who is barred.

On the board: every adventurer is a disc of his colour with his letter (the player to move
ringed), the last move is a line, rooms show "?" until explored, "✓" once their treasure is
gone and "!" while a monster seen there waits face down; a room barred to someone shows his
letter crossed; treasure on the floor is a gold box with its count (with the owner's letter
when only he may take it); Maze spaces show "?", an open way or a cross as the table has seen.

Words are drawn in the view's language (``view["lang"]``, the catalogs' ``game.firetop.board.*``
and room names), English by default.

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

from data.locales import DEFAULT, text

from . import core
from .core import BLACK, WHITE, fit_text, font, ink_on, seat_rgb, shade, tint

WIDTH = 1200
FLOOR = core.phone_floor(WIDTH)  # px: the smallest font drawn (a phone shows the board 360 px wide)
HEADER_H = 130  # two rows: the title and round; then who acts, on up to two lines
ROW_MID = (28, 92)  # the rows' middles
COORD_H = 40  # the column letters
BOARD_Y = HEADER_H + COORD_H
DISC = 40  # px: an adventurer's disc, a room's badge
SPREAD = 30  # px between the centres of discs side by side: each letter stays whole
STRIP = 48  # px: a room's lower strip (see the module docstring)
ROW = 34  # px between a room's rows of discs: the lower covers none of the upper's letters
MARK_H = 30  # px: the box of a button's letter
PILE_H = 34  # px: a box of treasure on the floor
SS = 3

ROCK = (58, 50, 46)
ROCK_EDGE = (44, 38, 35)
CORRIDOR = (196, 184, 160)
CORRIDOR_LINE = (170, 157, 132)
RIVER = (46, 104, 168)
RIVER_LIGHT = (92, 148, 206)
ROOM = (222, 206, 170)
ROOM_EDGE = (110, 78, 46)
STUDY = (196, 170, 214)
TREASURE = (240, 210, 120)
MAZE = (62, 96, 60)
MAZE_SPACE = (120, 156, 108)
DOOR = (150, 96, 40)
ENTRANCE = (150, 200, 150)
INK = (30, 26, 24)
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "orange": "O", "cyan": "C"}
PASSAGE_RGB = {"red": (200, 40, 40), "blue": (40, 90, 210)}


# ------------------------------------------------------------------ geometry

@lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    return tomllib.loads(files("data").joinpath("firetop", "board.toml").read_text(encoding="utf-8"))


CELL_W, CELL_H = _raw()["drawing"]["cell"]
MARGIN_X = WIDTH - 22 * CELL_W - 8  # the row numbers, on the left
HEIGHT = BOARD_Y + 15 * CELL_H + 10


@lru_cache(maxsize=1)
def board() -> dict[str, Any]:
    raw = _raw()
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
        room.update(id=rid, name=spec["name"], doors=spec["doors"], kind=spec.get("kind", "room"),
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
    x0, y0 = MARGIN_X + x * CELL_W, BOARD_Y + y * CELL_H
    return x0, y0, x0 + CELL_W, y0 + CELL_H


def area_box(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return MARGIN_X + x0 * CELL_W, BOARD_Y + y0 * CELL_H, MARGIN_X + x1 * CELL_W, BOARD_Y + y1 * CELL_H


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
        return (box[0] + box[2]) // 2, box[3] - STRIP // 2
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def door_boxes() -> list[tuple[int, int, int, int]]:
    """Every room's doors as drawn: a bar across the room's wall, facing the corridor square
    it is entered from (nothing else is drawn over them)."""
    out = []
    for room in board()["rooms"].values():
        x0, y0, x1, y1 = area_box(room["box"])
        for door in room["doors"]:
            sx, sy, sx1, sy1 = cell_box(*cell_xy(door))
            if sy1 <= y0:
                out.append((sx + 12, y0 - 3, sx1 - 12, y0 + 4))
            elif sy >= y1:
                out.append((sx + 12, y1 - 4, sx1 - 12, y1 + 3))
            elif sx1 <= x0:
                out.append((x0 - 3, sy + 12, x0 + 4, sy1 - 12))
            else:
                out.append((x1 - 4, sy + 12, x1 + 3, sy1 - 12))
    return out


def words(lang: str, key: str, **params: Any) -> str:
    """Board words in `lang`: the catalogs' `game.firetop.<key>`."""
    return text(lang, "game.firetop." + key, **params)


def name_lines(room: dict[str, Any], lang: str = DEFAULT) -> list[str]:
    """A room's name as the board writes it (the catalogs' `game.firetop.board.room.<id>`, where
    "|" marks where a word too wide for the room may break with a hyphen): on one line, or on
    two, broken at a space or a mark so that the wider line is as narrow as can be."""
    name = words(lang, f"board.room.{room['id']}")
    x0, _, x1, _ = area_box(room["box"])
    return _wrap(name, font(FLOOR), x1 - x0 - 12)


# ------------------------------------------------------------------ static layer

def _wrap(line: str, fnt: Any, width: int) -> list[str]:
    whole = line.replace("|", "")
    if fnt.getlength(whole) <= width:
        return [whole]
    best = None
    for cut, mark in enumerate(line):
        if mark not in " |":
            continue
        head = line[:cut].replace("|", "") + ("-" if mark == "|" else "")
        tail = line[cut + 1:].replace("|", "")
        wide = max(fnt.getlength(head), fnt.getlength(tail))
        if best is None or wide < best[0]:
            best = (wide, [head, tail])
    if best is None:
        return [fit_text(whole, fnt, width)]
    return [fit_text(part, fnt, width) for part in best[1]]


def build_static(lang: str = DEFAULT) -> Image.Image:
    b = board()
    im = Image.new("RGB", (WIDTH, HEIGHT), core.BG)
    d = core.Draw(im)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=core.HEADER_BG)
    fc = font(FLOOR)
    for x in range(22):
        d.text((MARGIN_X + x * CELL_W + CELL_W // 2, HEADER_H + COORD_H // 2 + 1), "ABCDEFGHIJKLMNOPQRSTUV"[x],
               font=fc, fill=core.TEXT_DIM, anchor="mm")
    for y in range(15):
        d.text((MARGIN_X - 6, BOARD_Y + y * CELL_H + CELL_H // 2), str(y + 1), font=fc, fill=core.TEXT_DIM,
               anchor="rm")
    _squares(d, b["grid"])
    # the Entrance
    ebox = area_box(b["entrance"])
    d.rectangle(ebox, fill=ENTRANCE, outline=ROOM_EDGE, width=3)
    d.text(((ebox[0] + ebox[2]) // 2, ebox[1] + 8 + FLOOR // 2), words(lang, "board.entrance"),
           font=font(FLOOR, True), fill=INK, anchor="mm")
    # rooms: the name on the upper row, below the wall's doors
    fname = font(FLOOR)
    for room in b["rooms"].values():
        box = area_box(room["box"])
        fill = STUDY if room["kind"] == "study" else TREASURE if room["kind"] == "treasure" else ROOM
        d.rectangle(box, fill=fill, outline=ROOM_EDGE, width=4)
        lines = tuple(name_lines(room, lang))
        core.draw_lines(d, (box[0] + box[2]) / 2, box[1] + 8 + core.line_height(fname) * len(lines) / 2,
                        lines, fname, INK, align="m")
    for door in door_boxes():
        d.rectangle(door, fill=DOOR)
    _crossings(d, b["crossings"], lang)
    _maze_ways(d, b["maze"])
    _passages(d, b["passages"])
    d.rectangle((MARGIN_X - 2, BOARD_Y - 2, MARGIN_X + 22 * CELL_W + 2, BOARD_Y + 15 * CELL_H + 2), outline=BLACK,
                width=2)
    return im


def _squares(d: ImageDraw.ImageDraw, grid: list[str]) -> None:
    """Rock, corridor, river and Maze squares."""
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            box = cell_box(x, y)
            if ch == ".":
                d.rectangle(box, fill=CORRIDOR)
                d.rectangle(box, outline=CORRIDOR_LINE)
            elif ch == "~":
                d.rectangle(box, fill=RIVER)
                cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
                for dy in (-14, 12):
                    d.arc((box[0] + 4, cy + dy - 6, cx, cy + dy + 6), 200, 340, fill=RIVER_LIGHT, width=3)
                    d.arc((cx, cy + dy - 6, box[2] - 4, cy + dy + 6), 200, 340, fill=RIVER_LIGHT, width=3)
            elif ch == "m":
                d.rectangle(box, fill=MAZE)
            else:
                d.rectangle(box, fill=ROCK)
                d.rectangle(box, outline=ROCK_EDGE)


def _crossings(d: ImageDraw.ImageDraw, crossings: list[dict[str, Any]], lang: str) -> None:
    """The ferry, bridge and raft, each named on the river."""
    f = font(FLOOR, True)
    for c in crossings:
        sx, sy = cell_xy(c["south"])
        _, ny = cell_xy(c["north"])
        box = cell_box(sx, (sy + ny) // 2)
        label = words(lang, f"board.crossing.{c['id']}")
        wide = int(f.getlength(label)) + 16
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        if c["id"] == "bridge":
            d.rectangle((box[0] + 10, box[1] - 6, box[2] - 10, box[3] + 6), fill=(140, 100, 60))
            for yy in range(box[1] - 2, box[3] + 4, 8):
                d.line((box[0] + 10, yy, box[2] - 10, yy), fill=(100, 70, 40), width=2)
        d.rounded_rectangle((cx - wide // 2, cy - 20, cx + wide // 2, cy + 20), radius=7, fill=WHITE,
                            outline=INK, width=2)
        d.text((cx, cy + 1), label, font=f, fill=INK, anchor="mm")


def _maze_ways(d: ImageDraw.ImageDraw, maze: dict[str, Any]) -> None:
    """The Maze's outline, the links between its spaces, and its two gates."""
    boxes = [cell_box(*cell_xy(space)) for space in maze["spaces"]]
    if boxes:
        d.rectangle((min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                     max(b[3] for b in boxes)), outline=(30, 50, 30), width=3)
    for a, c in maze["links"]:
        d.line((*_centre_of_cell(a), *_centre_of_cell(c)), fill=(170, 200, 150), width=5)
    for gate in maze["gates"]:
        box = cell_box(*cell_xy(gate))
        d.rectangle((box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), outline=MAZE, width=4)


def _passages(d: ImageDraw.ImageDraw, passages: dict[str, dict[str, Any]]) -> None:
    """Each Secret Passage entrance: a tunnel mouth in the rock, outlined in the passage's colour
    with its letter; an iron ring on the corridor square it is entered from."""
    for square, spec in passages.items():
        box = cell_box(*cell_xy(square))
        rgb = PASSAGE_RGB.get(spec["colour"], core.NEUTRAL)
        x0, y0, x1, y1 = box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5
        top = y0 + (x1 - x0) // 2
        d.pieslice((x0, y0, x1, y0 + (x1 - x0)), 180, 360, fill=(12, 10, 10), outline=rgb, width=4)
        d.rectangle((x0, top, x1, y1), fill=(12, 10, 10), outline=rgb, width=4)
        d.rectangle((x0 + 4, top - 2, x1 - 4, top + 3), fill=(12, 10, 10))
        d.text(((x0 + x1) // 2, (y0 + y1) // 2 + 6), spec["colour"][0].upper(), font=font(FLOOR, True),
               fill=tint(rgb, 0.35), anchor="mm")
        rbox = cell_box(*cell_xy(spec["ring"]))
        rx, ry = rbox[0] + 9, rbox[1] + 9
        d.ellipse((rx - 6, ry - 6, rx + 6, ry + 6), outline=(70, 70, 74), width=3)


def _centre_of_cell(name: str) -> tuple[int, int]:
    box = cell_box(*cell_xy(name))
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


@lru_cache(maxsize=4)
def _static_cached(lang: str = DEFAULT) -> Image.Image:
    return build_static(lang)


# ------------------------------------------------------------------ sprites

def _disc(colour: str, ring: bool) -> Image.Image:
    big = DISC * SS
    pad = 4 * SS
    im = Image.new("RGBA", (big + 2 * pad, big + 2 * pad), (0, 0, 0, 0))
    d = core.Draw(im)
    if ring:
        d.ellipse((0, 0, big + 2 * pad - 1, big + 2 * pad - 1), fill=core.HIGHLIGHT)
    rgb = seat_rgb(colour)
    d.ellipse((pad, pad, pad + big, pad + big), fill=rgb, outline=shade(rgb, 0.45), width=2 * SS)
    d.text((pad + big // 2, pad + big // 2 + SS), LETTERS.get(colour, "?"), font=font(FLOOR * SS, True),
           fill=ink_on(colour), anchor="mm")
    return im.resize((im.width // SS, im.height // SS), Image.Resampling.BOX)  # an average: no ringing, fewer colours


@lru_cache(maxsize=64)
def disc(colour: str, ring: bool) -> Image.Image:
    return _disc(colour, ring)


def _badge(text: str, fill: core.RGB, ink: core.RGB) -> Image.Image:
    big = DISC * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = core.Draw(im)
    d.ellipse((0, 0, big - 1, big - 1), fill=fill, outline=shade(fill, 0.5), width=2 * SS)
    d.text((big // 2, big // 2 + SS), text, font=font(FLOOR * SS, True), fill=ink, anchor="mm")
    return im.resize((DISC, DISC), Image.Resampling.BOX)


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
    return words(_lang(view), f"colour.{colour}").capitalize() if colour else f"#{seat + 1}"


def _lang(view: dict[str, Any]) -> str:
    return str(view.get("lang") or DEFAULT)


def _colour(view: dict[str, Any], seat: Any) -> str:
    players = view.get("players") or []
    s = _int(seat, -1)
    if 0 <= s < len(players):
        return str(players[s].get("colour") or "")
    return ""


STEPS = ("start", "move", "maze", "stop", "offer", "ask", "shop", "open", "battle", "task", "done")


def header_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """What the header shows: (round, the second row's phrase, its colour, the disc beside it
    (a colour, or ""), the names the phrase may shorten, the language of its words)."""
    lang = _lang(view)
    rnd = words(lang, "board.round", round=_int(view.get("round"), 1), limit=_int(view.get("limit"), 40))
    phase = view.get("phase")
    names = core.seat_names(view)
    acting = view.get("acting")
    if acting and phase != "over":
        return rnd, str(acting), core.TEXT, "", names, lang
    if phase == "over":
        winner = view.get("winner")
        said = (words(lang, "board.woke") if winner is None
                else words(lang, "board.won", who=_name(view, _int(winner))))
        return rnd, said, core.GOLD, "", names, lang
    if phase == "create":
        return rnd, words(lang, "board.create"), core.TEXT, "", names, lang
    cur = view.get("current")
    if cur is None:
        return rnd, "", core.TEXT, "", names, lang
    who = _name(view, _int(cur))
    step = str(view.get("step"))
    if step == "move" and view.get("roll"):
        said = words(lang, "board.rolled", who=who, roll=_int(view.get("roll")))
    else:
        said = words(lang, f"board.step.{step}", who=who) if step in STEPS else who
    return rnd, said, core.TEXT, _colour(view, cur), names, lang


def _header_sprite(key: tuple[Any, ...]) -> Image.Image:
    rnd, said, rgb, colour, names, lang = key
    im = Image.new("RGB", (WIDTH, HEADER_H), core.HEADER_BG)
    d = core.Draw(im)
    top, low = ROW_MID
    left, right = 16, WIDTH - 16
    title = font(FLOOR, True)
    heading = words(lang, "board.title")
    d.text((left, top), heading, font=title, fill=core.GOLD, anchor="lm")
    d.text((left + title.getlength(heading) + 24, top), rnd, font=font(FLOOR), fill=core.TEXT_DIM, anchor="lm")
    if not said:
        return im
    if colour:
        spr = _disc(colour, False)
        im.paste(spr, (left, low - spr.height // 2), spr)
        left += spr.width + 14
    f, lines = core.fit_phrase(said, names, FLOOR, right - left, HEADER_H - top - 28, smallest=FLOOR)
    core.draw_lines(d, left, low, lines, f, rgb, align="l")
    return im


@lru_cache(maxsize=64)
def header_sprite(key: tuple[Any, ...]) -> Image.Image:
    return _header_sprite(key)


# --- a room's lower strip, and the top of a square



def _mark_width(text: str) -> int:
    return max(34, int(font(FLOOR, True).getlength(text)) + 12)


def _pile_labels(view: dict[str, Any]) -> dict[str, list[str]]:
    """Each place's treasure on the floor as its box reads: the count, with the owner's letter
    when only he may take it ("B·3", not "B3": that would read as a square of the board)."""
    counts: dict[tuple[str, Any], int] = {}
    for pile in view.get("piles") or []:
        key = (str(pile.get("node")), pile.get("owner"))
        counts[key] = counts.get(key, 0) + _int(pile.get("count"))
    labels: dict[str, list[str]] = {}
    for (node, owner), number in counts.items():
        label = str(number) if owner is None else f"{LETTERS.get(_colour(view, owner), '?')}·{number}"
        labels.setdefault(node, []).append(label)
    return labels


def _pile_width(label: str) -> int:
    return int(font(FLOOR, True).getlength(label)) + 14


def _status(info: dict[str, Any]) -> tuple[str, core.RGB, core.RGB] | None:
    """A room's badge: a monster waits there, not explored yet, or its treasure taken."""
    if info.get("waiting"):
        return "!", core.WARN, BLACK
    if not info.get("visited"):
        return "?", WHITE, INK
    if info.get("looted"):
        return "✓", core.TURN_GREEN, INK
    return None


class Layout:
    """Where a board's changing things go, worked out once per board so that every pass agrees.

    In a room (and the Entrance), along its lower strip: the letter of its button and its badge
    on the left, who is barred and the treasure on its floor on the right, the adventurers
    between; what the strip cannot hold goes to a row above it (treasure on the right, more
    adventurers across the rest). On a square, a letter or treasure takes its top and pushes
    what stands there down."""

    def __init__(self, view: dict[str, Any]) -> None:
        b = board()
        self.marks = {str(m.get("node")): str(m.get("mark", "")) for m in view.get("marks") or []}
        self.piles = _pile_labels(view)
        self.slots: dict[str, dict[str, Any]] = {}
        rooms = view.get("rooms") or {}
        for node in [*b["rooms"], "entrance"]:
            geo = b["rooms"].get(node)
            x0, _, x1, y1 = node_box(node)  # type: ignore[misc]
            info = rooms.get(node) or {}
            left, right, top = x0 + 6, x1 - 6, y1 - STRIP + 4
            slot: dict[str, Any] = {"top": top}
            if node in self.marks:
                slot["mark"] = left
                left += _mark_width(self.marks[node]) + 4
            status = _status(info) if geo is not None and geo["kind"] == "room" else None
            if status is not None:
                slot["badge"] = (left, status)
                left += DISC + 4
            if geo is not None and info.get("barred") is not None:
                right -= DISC
                slot["barred"] = (right, info["barred"])
                right -= 4
            piles, upper = [], x1 - 6
            for label in self.piles.get(node, []):
                wide = _pile_width(label)
                if right - wide >= left:
                    piles.append((right, top, label))
                    right -= wide + 4
                else:
                    piles.append((upper, top - ROW, label))
                    upper -= wide + 4
            slot["piles"] = piles
            slot["tokens"] = (left, right)
            slot["span"] = (x0 + 6, upper)
            self.slots[node] = slot

    def low(self, node: str) -> bool:
        """A square whose top holds a letter or treasure: its pieces go to its lower part."""
        return node in self.marks or node in self.piles


def _rooms(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], sprites: Sprites,
           layout: Layout) -> None:
    for slot in layout.slots.values():
        y = slot["top"]
        if "badge" in slot:
            x, (text, fill, ink) = slot["badge"]
            spr = sprites.badge(text, fill, ink)
            im.paste(spr, (x, y), spr)
        if "barred" in slot:
            bx, seat = slot["barred"]
            colour = _colour(view, seat)
            spr = sprites.badge(LETTERS.get(colour, "?"), seat_rgb(colour), ink_on(colour))
            im.paste(spr, (bx, y), spr)
            d.line((bx + 5, y + DISC - 5, bx + DISC - 5, y + 5), fill=BLACK, width=5)


def _maze(im: Image.Image, view: dict[str, Any], sprites: Sprites, layout: Layout) -> None:
    seen = view.get("maze") or {}
    for space in board()["maze"]["spaces"]:
        state = seen.get(space)
        if state == "open":
            spr = sprites.badge("○", MAZE_SPACE, WHITE)
        elif state == "dead":
            spr = sprites.badge("✕", (120, 30, 30), WHITE)
        else:
            spr = sprites.badge("?", MAZE_SPACE, INK)
        cx, cy = _square_spot(space, layout)
        im.paste(spr, (cx - DISC // 2, cy - DISC // 2), spr)


def _square_spot(node: str, layout: Layout) -> tuple[int, int]:
    """The centre of what stands on a square: its middle, or its lower part under a letter."""
    x0, y0, x1, y1 = node_box(node)  # type: ignore[misc]
    return (x0 + x1) // 2, (y1 - DISC // 2 - 4 if layout.low(node) else (y0 + y1) // 2)


def _piles(d: ImageDraw.ImageDraw, layout: Layout) -> None:
    for node, labels in layout.piles.items():
        box = node_box(node)
        if box is None:
            continue
        if node in layout.slots:
            spots = [(x1, top + (DISC - PILE_H) // 2, label) for x1, top, label in layout.slots[node]["piles"]]
        else:  # right to left from the square's corner, or on from its letter
            right = box[2] - 4
            if node in layout.marks:
                right = box[0] + 6 + _mark_width(layout.marks[node]) + 4 + sum(_pile_width(t) + 4 for t in labels) - 4
            spots = []
            for label in labels:
                spots.append((right, box[1] + 6, label))
                right -= _pile_width(label) + 4
        for x1, y0, label in spots:
            _pile(d, x1, y0, label)


def _pile(d: ImageDraw.ImageDraw, x1: int, y0: int, label: str) -> None:
    w = _pile_width(label)
    d.rounded_rectangle((x1 - w, y0, x1, y0 + PILE_H), radius=6, fill=core.GOLD, outline=INK, width=2)
    d.text((x1 - w / 2, y0 + PILE_H / 2 + 1), label, font=font(FLOOR, True), fill=INK, anchor="mm")


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


def _tokens(im: Image.Image, view: dict[str, Any], sprites: Sprites, layout: Layout) -> None:
    """Every adventurer's disc; the one to move is drawn last, over any other."""
    at: dict[str, list[int]] = {}
    players = view.get("players") or []
    current = view.get("current")
    for seat in sorted(range(len(players)), key=lambda s: s == current):
        at.setdefault(str(players[seat].get("pos")), []).append(seat)
    for node, seats in at.items():
        if node_box(node) is None:
            continue
        for seat, (cx, cy) in zip(seats, _token_spots(node, len(seats), layout)):
            spr = sprites.disc(str(players[seat].get("colour") or ""), seat == current)
            im.paste(spr, (cx - spr.width // 2, cy - spr.height // 2), spr)


def _token_spots(node: str, n: int, layout: Layout) -> list[tuple[int, int]]:
    """Where ``n`` discs stand on ``node``: side by side `SPREAD` apart, so that every letter
    shows whole. On a square, in rows of three; in a room, as many as its strip leaves room
    for, the rest in rows above it across the room. The highest row comes first (drawn first,
    the lower rows overlap it)."""
    if node in layout.slots:
        slot = layout.slots[node]
        cy = slot["top"] + DISC // 2
        rows = [(slot["tokens"], cy, _fits(slot["tokens"][1] - slot["tokens"][0]))]
        full = slot["span"]
        while sum(room for _, _, room in rows) < n:
            rows.append((full, cy - ROW * len(rows), max(1, _fits(full[1] - full[0]))))
    else:
        cx, cy = _square_spot(node, layout)
        lines = -(-n // 3)
        span = (cx - DISC // 2 - SPREAD, cx + DISC // 2 + SPREAD)
        rows = [(span, cy + ROW * r - ROW * (lines - 1) // 2, 3) for r in range(lines)]
    spots: list[tuple[int, int]] = []
    left = n
    for (a, b), y, room in rows:
        count = min(room, left)
        left -= count
        x = (a + b) // 2 - SPREAD * (count - 1) // 2
        spots += [(x + SPREAD * i, y) for i in range(count)]
    return sorted(spots, key=lambda spot: spot[1])


def _fits(width: int) -> int:
    """How many discs fit side by side in ``width``."""
    return 0 if width < DISC else 1 + (width - DISC) // SPREAD


def _mark_outlines(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Outline every space the mover's choices name (under the tokens, which may stand there)."""
    for mark in view.get("marks") or []:
        box = node_box(str(mark.get("node")))
        if box is not None:
            d.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=core.HIGHLIGHT, width=4)


def mark_box(node: str, text: str, layout: Layout) -> tuple[int, int, int, int] | None:
    """The box of the letter a marked place's button repeats ("A · Library"): in a room's strip,
    or a square's top-left corner, clear of the doors on its walls."""
    box = node_box(node)
    if box is None:
        return None
    w = _mark_width(text)
    if node in layout.slots:
        x0, y0 = layout.slots[node]["mark"], layout.slots[node]["top"] + (DISC - MARK_H) // 2
    else:
        x0, y0 = box[0] + 6, box[1] + 6
    return x0, y0, x0 + w, y0 + MARK_H


def _mark_letters(d: ImageDraw.ImageDraw, layout: Layout) -> None:
    """The letters of the marked places, over any token."""
    f = font(FLOOR, True)
    for node, mark in layout.marks.items():
        box = mark_box(node, mark, layout)
        if box is None:
            continue
        d.rounded_rectangle(box, radius=6, fill=INK, outline=core.HIGHLIGHT, width=2)
        d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), mark, font=f, fill=WHITE, anchor="mm")


def _compose(view: dict[str, Any], sprites: Sprites, static: Any) -> Image.Image:
    im = core.board(static(_lang(view)))
    d = core.Draw(im)
    layout = Layout(view)
    im.paste(sprites.header(header_key(view)), (0, 0))
    _rooms(im, d, view, sprites, layout)
    _maze(im, view, sprites, layout)
    _last_move(d, view)
    _piles(d, layout)
    _mark_outlines(d, view)
    _tokens(im, view, sprites, layout)
    _mark_letters(d, layout)
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

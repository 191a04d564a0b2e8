"""Tests for The Warlock of Firetop Mountain's board renderer (render/firetop.py)."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render import core, firetop
from render.firetop import (
    BOARD_Y,
    CELL_H,
    CELL_W,
    DISC,
    HEIGHT,
    MARGIN_X,
    STRIP,
    WIDTH,
    node_box,
    node_centre,
)

PNG_SIG = b"\x89PNG\r\n\x1a\n"
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
ROOMS = ["library", "study", "treasure", "gallery", "chapel", "spring", "torture", "cellar", "kennels",
         "armoury", "crypt", "kitchen", "guardroom", "pedlar"]
NODES = ["K11", "K9", "A3", "V2", "B7", "B5", "entrance", "armoury", "treasure", "S8", "F6"]


def random_view(seed: int, players: int | None = None, over: bool | None = None) -> dict:
    """A random but well-formed public view (2-6 players)."""
    rng = random.Random(seed)
    n = players or rng.randint(2, 6)
    over = rng.random() < 0.2 if over is None else over
    pls = []
    for s in range(n):
        stamina0 = rng.randint(14, 24)
        pls.append({"seat": s, "colour": COLOURS[s], "skill": rng.choice([9, 10, 11]), "skill0": 11,
                    "stamina": rng.randint(0, stamina0), "stamina0": stamina0, "luck": rng.randint(0, 12),
                    "luck0": 12, "gold": rng.randint(0, 30), "provisions": rng.randint(0, 12),
                    "lantern": rng.random() < 0.8, "swords": ["Sword"] + (["Runed Sword"] if rng.random() < 0.2 else []),
                    "treasures": rng.randint(0, 7), "keycards": rng.randint(1, 3), "pos": rng.choice(NODES + ROOMS),
                    "creating": rng.random() < 0.1, "lives": rng.randint(1, 3), "left_room": True,
                    "miss": rng.randint(0, 1), "face": False, "shown": [], "shown_ids": []})
    rooms = {rid: {"name": rid.title(), "visited": rng.random() < 0.5, "looted": rng.random() < 0.5,
                   "barred": rng.choice([None, None, rng.randrange(n)]),
                   "waiting": rng.choice([None, None, "Ghoul"]), "fixed": None} for rid in ROOMS}
    battle = None
    if not over and rng.random() < 0.4:
        last = {"mine": [rng.randint(1, 6), rng.randint(1, 6)], "theirs": [rng.randint(1, 6), rng.randint(1, 6)],
                "my_total": rng.randint(11, 24), "their_total": rng.randint(7, 22)} if rng.random() < 0.7 else None
        if rng.random() < 0.7:
            battle = {"kind": "monster", "seat": rng.randrange(n), "round": rng.randint(0, 9), "last": last,
                      "name": "Cave Troll", "skill": 8, "stamina": rng.randint(0, 8), "stamina0": 8,
                      "roller": None, "waiting": False, "mroll": None}
        else:
            battle = {"kind": "duel", "seat": 0, "foe": n - 1, "round": 2, "last": last}
    return {
        "game": "firetop", "turn": rng.randint(1, 200), "round": rng.randint(1, 40), "limit": 40,
        "phase": "over" if over else rng.choice(["play", "play", "create"]),
        "current": None if over else rng.randrange(n),
        "step": rng.choice(["start", "move", "maze", "stop", "battle", "open", "shop", "done"]),
        "roll": rng.randint(1, 6), "players": pls, "rooms": rooms,
        "piles": [{"node": rng.choice(NODES + ROOMS), "count": rng.randint(1, 9), "owner": rng.choice([None, 0])}
                  for _ in range(rng.randint(0, 3))],
        "maze": {sq: rng.choice([None, "open", "dead"]) for sq in ["A6", "B6", "A7", "B7", "A8", "B8"]},
        "maze_trail": [], "battle": battle, "queue": [], "offers": [], "conferred": [],
        "attempts": [{"seat": rng.randrange(n), "keys": [1, 5, 9], "wrong": rng.randint(0, 3)}
                     for _ in range(rng.randint(0, 4))],
        "last": {"seat": rng.randrange(n), "from": "K13", "to": "K11", "path": ["K13", "K12", "K11"]}
        if rng.random() < 0.7 else None,
        "dice": {"seat": rng.randrange(n), "what": rng.choice(["move", "luck", "escape"]),
                 "faces": [rng.randint(1, 6) for _ in range(rng.randint(1, 2))]} if rng.random() < 0.8 else None,
        "winner": rng.randrange(n) if over and rng.random() < 0.8 else None, "double6": False, "secret": None,
        **({"chest": [2, 4, 6]} if over else {}),
    }


def image(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIG)
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("seed", range(40))
def test_random_views_render_at_the_board_size(seed):
    view = random_view(seed)
    png = firetop.render_firetop(view)
    im = Image.open(io.BytesIO(png))
    assert im.size == (WIDTH, HEIGHT)  # the sheets are the table's text, whatever the table
    assert im.mode in ("P", "RGB") and "transparency" not in im.info  # an opaque picture
    assert len(png) < 400_000


def test_the_board_reads_what_it_needs_and_never_the_secret():
    view = random_view(3, players=4)
    public = firetop.render_firetop(view)
    secret = {**view, "secret": {"seat": 1, "keys": [1, 2], "items": ["keys_a"], "held": {"3": [0]},
                                 "chest": [4], "offer": None, "swords": ["sword"]}}
    assert firetop.render_firetop(secret) == public


def test_every_adventurer_is_a_lettered_disc_and_the_mover_is_ringed():
    view = random_view(5, players=3, over=False)
    for seat, pl in enumerate(view["players"]):
        pl["pos"], pl["creating"] = ["K11", "V6", "D14"][seat], False
    view["current"], view["last"], view["battle"] = 1, None, None
    im = firetop.draw_firetop(view)
    for seat, node in enumerate(["K11", "V6", "D14"]):
        x, y = node_centre(node)
        rgb = core.seat_rgb(COLOURS[seat])
        assert any(_close(im.getpixel((x + dx, y + dy)), rgb) for dx in (-12, 12) for dy in (-12, 12))
    x, y = node_centre("V6")
    ring = [im.getpixel((x + dx, y)) for dx in range(-26, -17)] + [im.getpixel((x + dx, y)) for dx in range(18, 27)]
    assert any(_close(p, core.HIGHLIGHT) for p in ring)
    x, y = node_centre("K11")
    assert not any(_close(im.getpixel((x + dx, y)), core.HIGHLIGHT) for dx in range(-26, 27))


def test_room_badges_show_what_the_table_knows():
    view = random_view(7, players=2, over=False)
    for pl in view["players"]:
        pl["pos"] = "entrance"
    view["rooms"]["kennels"].update(visited=False, looted=False, waiting=None, barred=None)
    view["rooms"]["crypt"].update(visited=True, looted=True, waiting=None, barred=None)
    view["rooms"]["kitchen"].update(visited=True, looted=False, waiting="Ghoul", barred=None)
    im = firetop.draw_firetop(view)
    for room, colour in (("kennels", core.WHITE), ("crypt", core.TURN_GREEN), ("kitchen", core.WARN)):
        x0, _, _, y1 = node_box(room)
        centre = im.getpixel((x0 + 6 + DISC // 2 - 12, y1 - STRIP + 4 + DISC // 2))  # the badge, beside its sign
        assert _close(centre, colour, 40), (room, centre)


def test_treasure_on_the_floor_is_a_gold_box():
    view = random_view(9, players=2, over=False)
    view["piles"] = [{"node": "K12", "count": 3, "owner": None}]
    im = firetop.draw_firetop(view)
    x0, y0, x1, _ = node_box("K12")
    assert any(_close(im.getpixel((x1 - dx, y0 + 8)), core.GOLD) for dx in range(6, 20))


def test_maze_knowledge_is_drawn():
    base = random_view(11, players=2)
    base["maze"] = {sq: None for sq in base["maze"]}
    seen = {**base, "maze": {**base["maze"], "B7": "dead"}}
    a, b = firetop.draw_firetop(base), firetop.draw_firetop(seen)
    x0, y0, x1, y1 = node_box("B7")
    assert a.crop((x0, y0, x1, y1)).tobytes() != b.crop((x0, y0, x1, y1)).tobytes()


def test_long_names_keep_the_size_and_text_stays_big_enough():
    view = random_view(13, players=6)
    short = firetop.draw_firetop({**view, "names": ["Al"] * 6})
    long = firetop.draw_firetop({**view, "names": ["W" * 32] * 6})
    assert short.size == long.size
    assert MARGIN_X + 22 * CELL_W <= WIDTH and CELL_H > CELL_W and BOARD_Y > 60


def test_naive_and_cached_draw_the_same_picture():
    view = random_view(17, players=4)
    assert firetop.draw_firetop(view).tobytes() == firetop.draw_firetop_naive(view).tobytes()


def test_odd_views_still_render():
    view = random_view(19, players=2)
    view["players"][0]["pos"] = "nowhere"
    view["piles"] = [{"node": "Z99", "count": 1, "owner": None}]
    view["last"] = {"seat": 5, "path": ["K11", "??"]}
    view["battle"] = {"kind": "monster", "seat": 0}
    firetop.render_firetop(view)
    firetop.render_firetop({"game": "firetop", "players": []})


def test_the_platform_draws_firetop_views():
    from bot.rendering import draw
    from bot.simulate import play
    from games.firetop import GAME
    state = play("firetop", 4, 2, max_actions=80)
    view = GAME.view(state, None)
    view["names"] = ["Ana", "Bo", "Cy", "Di"]
    assert draw(view).startswith(PNG_SIG)


def _close(a, b, tol: int = 30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_no_name_or_letter_lies_on_a_door():
    """Room names sit below the doors in their walls, and a button's letter stays clear of the
    doors round its square (a letter drawn in a square's corner once covered a room's door)."""
    from games.core.marks import marker
    from render.textrecord import TextRecorder
    doors = firetop.door_boxes()
    assert len(doors) == sum(len(room["doors"]) for room in firetop.board()["rooms"].values())
    beside_doors = sorted({door for room in firetop.board()["rooms"].values() for door in room["doors"]})
    places = [*ROOMS, "entrance", *beside_doors]
    view = random_view(23, players=6, over=False)
    view["marks"] = [{"node": node, "mark": marker(i)} for i, node in enumerate(places)]
    view["piles"] = [{"node": node, "count": 2, "owner": 0} for node in ("kennels", "E11")]
    layout = firetop.Layout(view)
    with TextRecorder() as recorder:
        im = firetop.draw_firetop(view)
        texts = [t for t in recorder.texts(im) if not t.picture]
    letters = [(mark["mark"], firetop.mark_box(mark["node"], mark["mark"], layout)) for mark in view["marks"]]
    assert {t.text for t in texts} >= {"Library", "Guard-", "A", marker(len(places) - 1)}
    for door in doors:
        assert not [t.text for t in texts if _overlap(t.box, door)], door
        assert not [text for text, box in letters if _overlap(box, door)], door


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])

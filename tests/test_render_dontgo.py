"""Tests for the Don't Go In There board renderer (render/dontgo.py). Views are built by hand
from the view-dict spec: no dependency on the games package."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image, ImageChops

from bot.rendering import draw, warm_up
from render import core, dontgo

PNG_SIG = b"\x89PNG\r\n\x1a\n"
COLOURS = ["red", "blue", "green", "yellow", "purple"]
ROOMS = ["Attic", "Basement", "Hallway", "Library", "Nursery", "Secret Passage"]
TYPES = ["amulet", "mirror", "cat", "musicbox", "clocks", "portrait", "doll", "ring", "holywater", "tome",
         "mask", "twin"]
PHASES = ["place", "reroll", "change", "pick", "choose"]


def random_card(rng: random.Random, ident: int) -> dict:
    kind = rng.choice(TYPES)
    return {"id": ident, "type": kind, "curse": rng.randint(1, 4), "dice": rng.randint(0, 2),
            "amulet": rng.randint(1, 3) if kind == "amulet" else None}


def random_view(seed: int, n_players: int | None = None, *, over: bool | None = None,
                dice: bool | None = None) -> dict:
    """A random but well-formed dontgo view (2-5 players)."""
    rng = random.Random(seed)
    n = n_players or rng.randint(2, 5)
    over = rng.random() < 0.2 if over is None else over
    ident = iter(range(1000))
    names = rng.sample(ROOMS, 3)
    rooms = []
    for slot, name in enumerate(names):
        removed = not over and rng.random() < 0.15
        spaces = [{"flashlights": rng.choice([0, 0, 1, 1, 2, 3]),
                   "meeple": rng.randrange(n) if rng.random() < 0.4 else None}
                  for _ in range(rng.choice([4, 5]))]
        cards = [] if removed else [dict(random_card(rng, next(ident)), hidden=False) for _ in range(3)]
        if name == "Secret Passage" and cards:
            cards[rng.randrange(3)] = {"hidden": True}
        rooms.append({"slot": slot, "name": name, "side": rng.randint(0, 1), "removed": removed,
                      "spaces": spaces, "cards": cards})
    players = []
    for seat in range(n):
        cards = [dict(random_card(rng, next(ident)), dispelled=rng.random() < 0.2)
                 for _ in range(rng.randint(0, 12))]
        players.append({"seat": seat, "colour": COLOURS[seat], "meeples": rng.randint(0, 5), "cards": cards,
                        "curses": sum(c["curse"] for c in cards if not c["dispelled"]),
                        "ghosts": rng.randint(0, 9) if over else None})
    has_dice = (rng.random() < 0.6) if dice is None else dice
    view = {
        "game": "dontgo", "turn": rng.randint(1, 60), "current": None if over else rng.randrange(n),
        "phase": "over" if over else rng.choice(PHASES), "rooms": rooms, "deck": rng.randint(0, 40),
        "dice": {"slot": rng.randrange(3), "faces": [rng.randint(0, 2) for _ in range(rng.randint(1, 5))],
                 "rerolled": rng.random() < 0.5, "changed": rng.random() < 0.5} if has_dice else None,
        "players": players,
        "last": {"seat": rng.randrange(n), "slot": rng.choice([None, 0, 1, 2]),
                 "text": "placed a meeple in the " + rng.choice(names)} if rng.random() < 0.8 else None,
        "scores": None, "winners": None,
    }
    if over:
        scores = []
        for p in players:
            penalty = rng.choice([0, 0, 5])
            scores.append({"seat": p["seat"], "curses": p["curses"], "ghosts": p["ghosts"], "penalty": penalty,
                           "total": p["curses"] + p["ghosts"] + penalty})
        scores.sort(key=lambda s: s["total"])
        view["scores"] = scores
        view["winners"] = [s["seat"] for s in scores if s["total"] == scores[0]["total"]]
    if rng.random() < 0.7:
        view["names"] = ["Ana", "Bo", "Cleo", "Dmitri", "Eve"][:n]
    return view


def mid_game_view(n: int = 5) -> dict:
    """A typical 5-player mid-game board: dice rolled, a few cards each."""
    v = random_view(11, n, over=False, dice=True)
    v["phase"] = "reroll"
    v["last"] = None
    for room in v["rooms"]:
        room["removed"] = False
        if not room["cards"]:
            room["cards"] = [dict(random_card(random.Random(5), 900 + i), hidden=False) for i in range(3)]
    return v


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def differ(a: Image.Image, b: Image.Image) -> bool:
    return a.size != b.size or ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_png_basics(n):
    v = random_view(7, n)
    png = dontgo.render_dontgo(v)
    assert png[:8] == PNG_SIG
    im = decode(png)
    assert im.format == "PNG"
    assert 800 <= im.width <= 1000 and im.width == dontgo.WIDTH  # the house alone: a phone shrinks it least
    assert dontgo.draw_dontgo(v).size == im.size
    assert len(png) < 300_000


def test_png_small_and_mid_game_size():
    assert len(dontgo.render_dontgo(mid_game_view())) < 300_000
    assert len(dontgo.render_dontgo(random_view(3, 5, over=True))) < 300_000


def test_deterministic():
    v = random_view(3, 4)
    assert dontgo.render_dontgo(v) == dontgo.render_dontgo(random_view(3, 4))
    assert dontgo.render_dontgo_naive(v) == dontgo.render_dontgo_naive(copy.deepcopy(v))


def test_different_views_differ():
    assert differ(dontgo.draw_dontgo(random_view(1, 4)), dontgo.draw_dontgo(random_view(2, 4)))
    assert dontgo.render_dontgo(random_view(1, 4)) != dontgo.render_dontgo(random_view(2, 4))


def test_small_changes_show():
    v = mid_game_view()
    base = dontgo.draw_dontgo(v)
    for mutate in (
        lambda w: w["rooms"][0]["spaces"][0].__setitem__("meeple", 4),
        lambda w: w["rooms"][1].__setitem__("removed", True),
        lambda w: w["rooms"][2]["cards"].__setitem__(0, {"hidden": True}),
        lambda w: w.__setitem__("dice", None),
    ):
        w = copy.deepcopy(v)
        mutate(w)
        assert differ(base, dontgo.draw_dontgo(w))


def test_what_the_picture_leaves_out_the_tables_text_says():
    """The players' rows, the deck and the dice's flags are the table's text (`panel`), where a
    phone reads them, and no longer in the picture."""
    from render.words.dontgo import panel

    v = mid_game_view()
    base, said = dontgo.draw_dontgo(v), panel(v)
    for mutate in (
        lambda w: w["players"][1].__setitem__("curses", 77),
        lambda w: w["players"][2].__setitem__("meeples", 0),
        lambda w: w.__setitem__("deck", 3),
        lambda w: w["players"][0]["cards"].append({"id": 1, "type": "mask", "curse": 2, "dice": 0,
                                                   "amulet": None, "dispelled": True}),
        lambda w: w["dice"].__setitem__("changed", not w["dice"]["changed"]),
    ):
        w = copy.deepcopy(v)
        mutate(w)
        assert not differ(base, dontgo.draw_dontgo(w))
        assert panel(w) != said


def test_naive_draws_the_same_picture():
    for seed in range(4):
        v = random_view(seed)
        assert not differ(dontgo.draw_dontgo(v), dontgo.draw_dontgo_naive(v))
    naive = decode(dontgo.render_dontgo_naive(mid_game_view()))
    assert naive.mode == "RGB"
    assert not differ(naive, dontgo.draw_dontgo(mid_game_view()))


def test_last_room_highlight():
    v = mid_game_view()
    plain = dontgo.draw_dontgo(v)
    for slot in range(3):
        lit = dontgo.draw_dontgo(dict(v, last={"seat": 0, "slot": slot}))
        text_only = dontgo.draw_dontgo(dict(v, last={"seat": 0, "slot": None}))
        box = ImageChops.difference(text_only, lit).getbbox()
        assert box is not None
        x = dontgo.column_x(slot)
        # only the chosen column (plus its outline) changed ...
        assert x - 8 <= box[0] and box[2] <= x + dontgo.COL_W + 8
        # ... and the outline is the highlight colour
        assert lit.getpixel((x - 5, dontgo.ROOM_Y + 50)) == core.HIGHLIGHT
        assert plain.getpixel((x - 5, dontgo.ROOM_Y + 50)) != core.HIGHLIGHT
    assert dontgo.render_dontgo(v) != dontgo.render_dontgo(dict(v, last={"seat": 0, "slot": 1}))


def test_hidden_info_ignored_until_over():
    v = mid_game_view()
    for p in v["players"]:
        p["ghosts"] = None
    leaky = copy.deepcopy(v)
    leaky["secret"] = {"seat": 0, "ghosts": 7, "hand": [1, 2, 3], "passage": {"type": "mask", "curse": 4}}
    for p in leaky["players"]:
        p["ghosts"] = 5 + p["seat"]
    assert dontgo.render_dontgo(leaky) == dontgo.render_dontgo(v)
    assert draw(leaky) == draw(v)
    assert dontgo.render_dontgo_naive(leaky) == dontgo.render_dontgo_naive(v)


def test_ghosts_are_never_drawn():
    """Even once revealed at the end, ghosts are the results' business (the table's text)."""
    v = random_view(4, 4, over=True)
    with_secret = dict(v, secret={"anything": True})
    assert dontgo.render_dontgo(with_secret) == dontgo.render_dontgo(v)  # secret never drawn
    changed = copy.deepcopy(v)
    changed["players"][0]["ghosts"] += 3
    changed["scores"][0]["ghosts"] += 3
    assert not differ(dontgo.draw_dontgo(v), dontgo.draw_dontgo(changed))


def test_winner_banner_changes_image():
    v = random_view(6, 4, over=True)
    no_winner = dict(v, winners=None)
    a, b = dontgo.draw_dontgo(no_winner), dontgo.draw_dontgo(v)
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None and box[1] < dontgo.HEADER_H  # the banner is in the header
    assert b.getpixel((3, 3)) == core.GOLD and a.getpixel((3, 3)) != core.GOLD
    tie = dict(v, winners=[0, 1])
    assert differ(b, dontgo.draw_dontgo(tie))


def test_unknown_card_type_and_odd_values():
    v = mid_game_view(3)
    v["rooms"][0]["cards"][0]["type"] = "haunted_teapot"
    v["players"][0]["cards"].append({"id": 5, "type": "banshee", "curse": 3, "dice": 0, "amulet": None,
                                     "dispelled": False})
    v["dice"]["faces"] = [0, 1, 2, 3, 0, 1, 2, 2]
    v["rooms"][1]["spaces"] = [{"flashlights": 3, "meeple": 2} for _ in range(7)]
    v["players"][1]["cards"] = [{"id": i, "type": TYPES[i % 12], "curse": 4, "dice": 0, "amulet": None,
                                 "dispelled": i % 3 == 0} for i in range(40)]
    v["names"] = ["A" * 200, "", "Ünïcødé ✓"]
    png = dontgo.render_dontgo(v)
    assert decode(png).width == dontgo.WIDTH
    assert not differ(dontgo.draw_dontgo(v), dontgo.draw_dontgo_naive(v))


def test_names_fallback():
    v = mid_game_view(2)
    v.pop("names", None)
    assert dontgo.render_dontgo(v)[:8] == PNG_SIG


@pytest.mark.parametrize("seed", range(40))
def test_many_random_views_render(seed):
    v = random_view(100 + seed)
    png = draw(v)
    assert png[:8] == PNG_SIG
    im = decode(png)
    assert im.width == dontgo.WIDTH
    assert len(png) < 300_000


def test_dispatch_on_game():
    v = mid_game_view()
    assert draw(v) == dontgo.render_dontgo(v)
    warm_up()


def test_seat_colours_match_castle():
    for c in ("red", "blue", "green", "yellow"):
        assert core.seat_rgb(c) != core.NEUTRAL
    assert core.seat_rgb("purple") not in {core.seat_rgb(c) for c in ("red", "blue", "green", "yellow")}
    assert core.COLOUR_NAMES["purple"] == "Purple"


def test_game_over_board_is_a_readable_png(tmp_path):
    (tmp_path / "over.png").write_bytes(dontgo.render_dontgo(random_view(6, 4, over=True)))
    with Image.open(tmp_path / "over.png") as im:
        assert im.format == "PNG" and im.size[0] == dontgo.WIDTH

def test_a_shared_win_names_every_winner_by_twelve_letters_at_least():
    from render.textrecord import TextRecorder

    names = ["Bartholomew the Magnificent, III", "Elizabeth Bennet of Longbourn II", "W" * 32]
    view = dict(random_view(4, 3, over=True), winners=[0, 1, 2], names=names)
    with TextRecorder() as recorder:
        im = dontgo.draw_dontgo(view)
        banner = " ".join(t.text for t in sorted(recorder.texts(im), key=lambda t: t.box[1])
                          if len(t.text) > 1 and t.box[3] <= dontgo.HEADER_H)  # not the meeples' numbers
    for name in names:
        assert name[:core.NAME_KEEPS].rstrip() in banner
    assert banner.endswith("win!")

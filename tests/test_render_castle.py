"""Tests for the castle board renderer (render/). Views are built by hand:
no dependency on the games package."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.rendering import draw
from render import castle, core

PNG_SIG = b"\x89PNG\r\n\x1a\n"
COLOURS = ["red", "blue", "green", "yellow"]
FACES = ["open", "barred", "extra_key", "extra_turn"]
CARDS = ["key-red", "key-blue", "key-green", "key-yellow", "skeleton", "padlock", "passage", "hacksaw", "net", None]


def coord(r: int, c: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def random_view(seed: int, n_players: int | None = None) -> dict:
    """A random but valid castle view (2p: 8x5, 3-4p: 6x6)."""
    rng = random.Random(seed)
    n = n_players or rng.choice([2, 3, 4])
    rows, cols = (8, 5) if n == 2 else (6, 6)
    sides = ["S", "N"] if n == 2 else ["S", "W", "N", "E"][:n]
    tiles = []
    for r in range(rows):
        for c in range(cols):
            is_open = rng.random() < 0.4
            face = rng.choice(FACES) if is_open or rng.random() < 0.1 else None
            tiles.append({
                "coord": coord(r, c), "row": r, "col": c, "colour": rng.choice(COLOURS), "open": is_open,
                "face": face, "padlock": rng.random() < 0.08, "hacksaw": rng.random() < 0.05,
                "net": rng.randrange(n) if rng.random() < 0.05 else None, "occupant": None,
            })
    players = []
    for seat in range(n):
        pos = None
        if rng.random() < 0.6:
            t = rng.choice([t for t in tiles if t["occupant"] is None])
            t["occupant"] = seat
            pos = t["coord"]
        players.append({
            "seat": seat, "colour": COLOURS[seat], "side": sides[seat], "pos": pos,
            "hand_size": rng.randrange(9), "netted": rng.choice([0, 0, 1, 2]),
            "bonuses_used": [coord(rng.randrange(rows), rng.randrange(cols))] if rng.random() < 0.3 else [],
        })
    passages = []
    for _ in range(rng.randrange(4)):
        r, c = rng.randrange(rows - 1), rng.randrange(cols - 1)
        if rng.random() < 0.5:
            passages.append([coord(r, c), coord(r + 1, c + 1)])
        else:
            passages.append([coord(r, c + 1), coord(r + 1, c)])
    last = None
    if rng.random() < 0.8:
        last = {"seat": rng.randrange(n), "tiles": [coord(rng.randrange(rows), rng.randrange(cols))
                                                   for _ in range(rng.randrange(1, 3))]}
    view = {
        "game": "castle", "rows": rows, "cols": cols, "tiles": tiles, "passages": passages, "players": players,
        "current": rng.randrange(n), "phase": rng.choice(["play", "bonus", "move"]), "turn": rng.randrange(1, 60),
        "draw_pile": rng.randrange(40), "discard_top": rng.choice(CARDS), "discard_count": rng.randrange(30),
        "last": last, "winner": None,
    }
    if rng.random() < 0.7:
        view["names"] = ["Ana", "Bo", "Cleo", "Dmitri"][:n]
    return view


def mid_game_view(n: int = 4) -> dict:
    v = random_view(1, n)
    v["last"] = None
    v["winner"] = None
    return v


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


@pytest.mark.parametrize("n", [2, 3, 4])
def test_png_basics(n):
    png = castle.render_castle(random_view(7, n))
    assert png[:8] == PNG_SIG
    assert len(png) < 1_000_000
    im = decode(png)
    assert im.format == "PNG"
    assert 760 <= im.width <= 1000  # the castle alone: a phone shrinks it least
    lay = castle.layout(*((8, 5) if n == 2 else (6, 6)))
    assert im.size == (castle.WIDTH, lay.height)
    assert castle.draw_castle(random_view(7, n)).size == im.size


def test_png_reasonably_small():
    assert len(castle.render_castle(mid_game_view())) < 150_000


def test_deterministic():
    v = random_view(3, 4)
    assert castle.render_castle(v) == castle.render_castle(random_view(3, 4))
    assert castle.render_castle_naive(v) == castle.render_castle_naive(v)


def test_different_views_differ():
    a = castle.draw_castle(random_view(1, 4))
    b = castle.draw_castle(random_view(2, 4))
    assert ImageChops.difference(a, b).getbbox() is not None
    assert castle.render_castle(random_view(1, 4)) != castle.render_castle(random_view(2, 4))


def test_naive_draws_the_same_picture():
    for seed in range(3):
        v = random_view(seed)
        assert ImageChops.difference(castle.draw_castle(v), castle.draw_castle_naive(v)).getbbox() is None
    naive = decode(castle.render_castle_naive(mid_game_view()))
    assert naive.mode == "RGB"


def test_last_move_highlight_changes_tile_pixels():
    v = mid_game_view()
    plain = castle.draw_castle(v)
    hv = dict(v, last={"seat": 0, "tiles": ["C4"]})
    lit = castle.draw_castle(hv)
    box = ImageChops.difference(plain, lit).getbbox()
    assert box is not None
    lay = castle.layout(v["rows"], v["cols"])
    x, y = lay.cell(3, 2)  # C4 -> row 3, col 2
    # all changed pixels are around C4 ...
    assert x - 4 <= box[0] and box[2] <= x + lay.T + 4
    assert y - 4 <= box[1] and box[3] <= y + lay.T + 4
    # ... and the tile outline is the highlight colour
    assert lit.getpixel((x + 2, y + lay.T // 2)) == core.HIGHLIGHT
    # also visible after PNG encoding
    assert castle.render_castle(v) != castle.render_castle(hv)


def test_private_hand_is_ignored():
    v = mid_game_view()
    with_hand = dict(v, hand=["key-red", "padlock", "skeleton"])
    assert castle.render_castle(with_hand) == castle.render_castle(v)
    assert draw(with_hand) == draw(v)


def test_winner_banner_changes_image():
    v = mid_game_view()
    won = dict(v, winner=2, phase="over", current=None)
    a, b = castle.draw_castle(dict(v, phase="over", current=None)), castle.draw_castle(won)
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None and box[1] < castle.HEADER_H  # the banner is in the header
    assert b.getpixel((5, 5)) == core.GOLD


def test_outside_players_drawn_in_their_band():
    v = mid_game_view()
    for t in v["tiles"]:
        t["occupant"] = None
    for p in v["players"]:
        p["pos"] = None
    lay = castle.layout(v["rows"], v["cols"])
    outside = castle.draw_castle(v)
    for p in v["players"]:
        moved = random_view(1, 4)  # same view with this one player on the board
        for t in moved["tiles"]:
            t["occupant"] = None
        for q in moved["players"]:
            q["pos"] = None
        moved["last"] = None
        moved["players"][p["seat"]]["pos"] = "A1"
        moved["tiles"][0]["occupant"] = p["seat"]
        box = ImageChops.difference(outside, castle.draw_castle(moved)).getbbox()
        x0, y0, x1, y1 = lay.band_rect(p["side"])
        assert box is not None
        # the change covers the band (piece left it) and A1 (piece arrived)
        assert box[0] <= x1 and box[2] >= x0 and box[1] <= y1 and box[3] >= y0
        # a white ring around the piece in the middle of the band
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        r = int(lay.T * 0.23)
        assert outside.getpixel((cx + int(r * 0.82), cy)) == core.WHITE


def test_encode_png_modes():
    im = castle.draw_castle(mid_game_view())
    fixed = decode(core.encode_png(im, palette=castle.castle_palette()))
    adaptive = decode(core.encode_png(im))
    plain = decode(core.encode_png(im, adaptive=False))
    assert fixed.mode == adaptive.mode == "P" and plain.mode == "RGB"
    assert ImageChops.difference(plain, im).getbbox() is None
    # palette mapping is close to the original (mean abs error small)
    diff = ImageChops.difference(fixed.convert("RGB"), im).convert("L")
    hist = diff.histogram()
    assert sum(i * c for i, c in enumerate(hist)) / sum(hist) < 3


def test_cached_text_draws_the_pixels_imagedraw_draws():
    """core.Draw reuses glyph masks: the pixels must be ImageDraw.text's, anchors, sub-pixel
    positions, strokes and fallbacks (several lines) included."""
    from PIL import ImageDraw

    cases = [
        ((10, 10), "Keys to the Castle", dict(font=core.font(30, True), fill=core.GOLD)),
        ((300.4, 40.7), "turn 12 · move", dict(font=core.font(24), fill=core.TEXT_DIM, anchor="rm")),
        ((150, 80), "Ana wins!", dict(font=core.font(38, True), fill=(0, 0, 0), anchor="mm")),
        ((20, 120), "×3", dict(font=core.font(24, True), fill=(255, 232, 120), anchor="lm", stroke_width=2,
                                stroke_fill=(0, 0, 0))),
        ((60, 150), "same ink", dict(font=core.font(22), fill=core.WHITE, stroke_width=1)),
        ((5, 170), "two\nlines", dict(font=core.font(22), fill=core.WHITE)),
        ((-3.5, 200), "off the edge…", dict(font=core.font(26), fill=core.WARN)),
    ]
    for _ in range(2):  # the second round draws from the cache
        plain = Image.new("RGB", (320, 240), core.BG)
        cached = plain.copy()
        for xy, text, kwargs in cases:
            ImageDraw.Draw(plain).text(xy, text, **kwargs)
            core.Draw(cached).text(xy, text, **kwargs)
        assert ImageChops.difference(plain, cached).getbbox() is None
    assert core.text_length(core.font(24), "turn 12 · move") == core.font(24).getlength("turn 12 · move")


def test_palette_png_is_the_png_pillow_writes():
    """core.palette_png writes palette PNGs itself (faster): same pixels and palette as Pillow's."""
    im = castle.draw_castle(mid_game_view())
    paletted = im.quantize(palette=castle.castle_palette(), dither=Image.Dither.NONE)
    ours = core.palette_png(paletted)
    buf = io.BytesIO()
    paletted.save(buf, "PNG")
    theirs = decode(buf.getvalue())
    mine = decode(ours)
    assert ours[:8] == PNG_SIG and mine.format == "PNG"
    assert mine.mode == theirs.mode == "P" and mine.size == theirs.size
    assert mine.tobytes() == theirs.tobytes() and mine.getpalette() == theirs.getpalette()
    assert core.encode_png(im, palette=castle.castle_palette()) == ours
    # a small palette (adaptive, few colours) too
    few = Image.new("RGB", (7, 5), (10, 20, 30))
    few.putpixel((3, 2), (200, 100, 0))
    small = decode(core.encode_png(few))
    assert small.convert("RGB").tobytes() == few.tobytes()


def test_names_fallback_and_long_names():
    v = mid_game_view()
    v.pop("names", None)
    castle.render_castle(v)
    v["names"] = ["A" * 200, "", "Ünïcødé ✓", "x"]
    png = castle.render_castle(v)
    assert decode(png).width == castle.WIDTH


@pytest.mark.parametrize("seed", range(50))
def test_many_random_views_render(seed):
    v = random_view(seed)
    if seed % 5 == 0:
        v["winner"] = v["players"][0]["seat"]
        v["phase"] = "over"
    png = draw(v)
    assert png[:8] == PNG_SIG
    assert decode(png).size == (castle.WIDTH, castle.layout(v["rows"], v["cols"]).height)


def test_dispatch_on_game():
    v = mid_game_view()
    assert draw(v) == castle.render_castle(v)


@pytest.mark.parametrize("game", ["chess", None, ""])
def test_unknown_game_raises(game):
    v = dict(mid_game_view(), game=game)
    with pytest.raises(KeyError, match="Games: .*castle"):
        draw(v)


def test_missing_game_raises():
    v = mid_game_view()
    del v["game"]
    with pytest.raises(KeyError, match="Games: "):
        draw(v)


def test_render_is_pure():
    """render/ never imports discord or the game engine."""
    import ast
    from pathlib import Path

    for path in Path(castle.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root not in {"discord", "games", "bot", "time", "datetime", "socket", "requests"}, (path, name)


def test_fonts_shipped_with_licence():
    from data import resource
    assert all(resource("fonts", name).is_file() for name in core.FONT_FILES.values())
    assert "DejaVu" in resource("fonts", "LICENSE-DejaVu.txt").read_text()

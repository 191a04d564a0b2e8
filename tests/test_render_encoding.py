"""A board's PNG: only what was drawn is mapped onto the palette, with the same pixels as a full
mapping; the file decodes to them.

Boards are drawn on a `render.core.Board` (a copy of the cached static layer) that notes the box
of every paste, shape and string; `render.core.map_board` maps those boxes and takes the rest
from the layer, mapped once. A box noted too small would leave stale pixels: every game's boards
at spread-out points of AI games, every seat count, are compared with a full quantize.
"""
from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image

from bench.render_timing import sample_views
from render import core

GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")


def _renderer(name: str):
    module = importlib.import_module(f"render.{name}")
    return getattr(module, f"draw_{name}"), getattr(module, f"{name}_palette")()


@pytest.mark.parametrize("name", GAMES)
def test_mapping_what_was_drawn_gives_the_pixels_of_a_full_mapping(name: str, monkeypatch) -> None:
    monkeypatch.setattr(core, "MAP_SHARE", 1.0)  # map the boxes even where mapping all is cheaper
    draw, palette = _renderer(name)
    for view in sample_views(name, 16, seed=7):
        board = draw(view)
        assert isinstance(board, core.Board) and board.noted
        full = board.quantize(palette=palette, dither=Image.Dither.NONE)
        assert core.map_board(board, palette).tobytes() == full.tobytes()


@pytest.mark.parametrize("name", GAMES)
def test_png_decodes_to_the_board_mapped_onto_its_palette(name: str) -> None:
    draw, palette = _renderer(name)
    view = sample_views(name, 1, seed=3)[0]
    board = draw(view)
    png = Image.open(io.BytesIO(core.encode_png(board, palette=palette)))
    expected = board.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert png.convert("RGB").tobytes() == expected.tobytes()


def _base() -> Image.Image:
    return Image.new("RGB", (200, 120), (10, 20, 30))


def test_a_change_anywhere_on_a_board_reaches_the_mapped_image() -> None:
    base = _base()
    palette = core.adaptive_palette(Image.new("RGB", (4, 1), (250, 0, 0)), 16)
    for drawing in (lambda im, d: d.rectangle((150, 90, 160, 100), fill=(250, 0, 0)),
                    lambda im, d: d.line([(5, 5), (40, 30)], fill=(250, 0, 0), width=6),
                    lambda im, d: d.ellipse((100, 10, 130, 40), outline=(250, 0, 0), width=3),
                    lambda im, d: d.rounded_rectangle((60, 60, 90, 110), 6, fill=(250, 0, 0)),
                    lambda im, d: d.polygon([(0, 119), (30, 80), (60, 119)], fill=(250, 0, 0)),
                    lambda im, d: d.regular_polygon((170, 30, 12), 6, fill=(250, 0, 0)),
                    lambda im, d: d.text((120, 70), "Ag", fill=(250, 0, 0), font=core.font(20)),
                    lambda im, d: d.text((20, 50), "two\nlines", fill=(250, 0, 0), font=core.font(14)),
                    lambda im, d: im.paste((250, 0, 0), (190, 0, 200, 10)),
                    lambda im, d: im.paste(Image.new("RGB", (8, 8), (250, 0, 0)), (0, 112)),
                    lambda im, d: im.paste(Image.new("RGB", (5, 5), (250, 0, 0))),
                    lambda im, d: im.paste((250, 0, 0), (150, 5), Image.new("L", (6, 6), 255)),
                    lambda im, d: d.regular_polygon(((100, 100), 9), 5, 0, None, (250, 0, 0), 4)):
        board = core.board(base)
        drawing(board, core.Draw(board))
        full = board.quantize(palette=palette, dither=Image.Dither.NONE)
        assert full.tobytes() != base.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        assert core.map_board(board, palette).tobytes() == full.tobytes()


def test_drawing_a_board_leaves_its_static_layer_alone() -> None:
    base = _base()
    board = core.board(base)
    core.Draw(board).rectangle((0, 0, 50, 50), fill=(255, 255, 255))
    board.paste((255, 255, 255), (60, 0, 90, 30))
    assert base.getcolors() == [(200 * 120, (10, 20, 30))]
    assert board.base is base and len(board.noted) == 2


def test_an_unnoted_drawing_call_is_refused_on_a_board() -> None:
    board = core.board(_base())
    with pytest.raises(TypeError, match="point"):
        core.Draw(board).point((3, 3), fill=(255, 0, 0))
    core.Draw(_base()).point((3, 3), fill=(255, 0, 0))  # anywhere else it draws as usual


def test_regions_hold_every_box_and_merge_neighbours() -> None:
    boxes = [(10, 5, 40, 20), (60, 8, 90, 18), (400, 5, 420, 30), (10, 40, 40, 60), (-5, 90, 30, 130),
             (500, 50, 300, 70)]  # the last is empty
    regions = core._regions(boxes, 600, 100)
    for x0, y0, x1, y1 in boxes[:-1]:
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(600, x1), min(100, y1)
        assert any(r[0] <= x0 and r[1] <= y0 and x1 <= r[2] and y1 <= r[3] for r in regions)
    assert len(regions) < len(boxes)
    assert all(0 <= r[0] < r[2] <= 600 and 0 <= r[1] < r[3] <= 100 for r in regions)


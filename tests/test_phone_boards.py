"""Every board reads on a phone: no text on it is under 9 px when the picture is shown 360 px wide.

Discord's mobile client shows an image at the screen's width (about 360 px of a 390 px phone),
so a board drawn W px wide is shrunk by 360 / W. Whatever only reads large (player panels,
hands, legends) belongs in the table's text instead (`render.words.<game>.panel`), and what
stays in the picture must be drawn at least 9 × W / 360 px. Each game is played by the AI at
every seat count, with the longest names, and its boards checked from setup through the middle
of the game to its end (the samples of `test_render_text_fit.game_views`: spread over the game,
the first board of every phase it reaches, and the last). The size checked is the font's (em)
size in the picture's pixels, as `render.textrecord.TextRecorder` records it, sprites' scaling
included.
"""
from __future__ import annotations

import pytest

import games
from render.textrecord import TextRecorder
from tests.test_render_text_fit import DRAW, LONG_NAMES, game_views

PHONE_WIDTH = 360  # px: how wide Discord's mobile client shows a picture
LEAST_PX = 9  # px: the smallest text a phone's reader can read without zooming

# The games whose boards are laid out for phones: every one.
PHONE_GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")

CASES = [(name, seats) for name in PHONE_GAMES
         for seats in range(games.get(name).min_seats, games.get(name).max_seats + 1)]


def smallest_on_phone(name: str, seats: int) -> tuple[float, str, int]:
    """The smallest text of the game's boards as a phone shows it: (px, the string, the board's
    index among the samples)."""
    views = game_views(name, seats, seed=11 + seats, names=LONG_NAMES)
    smallest = (float("inf"), "", -1)
    with TextRecorder() as recorder:
        for index, view in enumerate(views):
            image = DRAW[name](view)
            texts = [t for t in recorder.texts(image) if not t.picture]
            assert texts, "the recorder saw no text"
            for t in texts:
                shown = t.px * PHONE_WIDTH / image.width
                if shown < smallest[0]:
                    smallest = (shown, t.text, index)
    return smallest


@pytest.mark.parametrize("name,seats", CASES)
def test_every_text_on_the_board_reads_on_a_phone(name, seats):
    shown, text, index = smallest_on_phone(name, seats)
    assert shown >= LEAST_PX, f"{text!r} (board {index}) is {shown:.1f} px tall on a phone"


def test_a_board_text_drawn_too_small_is_caught(monkeypatch):
    """The check sees the size of text drawn on a sprite and scaled down with it."""
    from PIL import Image, ImageDraw

    from render.core import font
    with TextRecorder() as recorder:
        sprite = Image.new("RGBA", (300, 60))
        ImageDraw.Draw(sprite).text((4, 4), "Library", font=font(30), fill="white")
        board = Image.new("RGB", (1200, 800))
        small = sprite.resize((100, 20))
        board.paste(small, (10, 10), small)
        [text] = [t for t in recorder.texts(board) if not t.picture]
    assert text.px == pytest.approx(10.0, abs=0.5)
    assert text.px * PHONE_WIDTH / board.width < LEAST_PX

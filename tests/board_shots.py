"""Each game's board as a phone shows it, for the docs: `python -m tests.board_shots docs/phone after`.

One seeded AI game of each game is played to the middle of its actions, and the board drawn
from the public view there is shrunk to 360 px wide (what Discord's mobile client shows) and
saved as ``<game>-360-<label>.png``. The same seeds give the same boards on any checkout, so
running this file on two versions of the code shows the boards before and after a change (the
"before" shots in docs/phone are main at e76e483, before issue 37's phone boards):

    .venv/bin/python -m tests.board_shots docs/phone after
    mkdir /tmp/before && git archive e76e483 | tar -x -C /tmp/before
    (cd /tmp/before && PYTHONPATH=. PYTHONDONTWRITEBYTECODE=1 \\
        $OLDPWD/.venv/bin/python $OLDPWD/tests/board_shots.py $OLDPWD/docs/phone before)
"""
from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

import games
from bot.rendering import board_view, draw
from bot.simulate import play
from games.core import advance, setup

PHONE_WIDTH = 360  # px: how wide Discord's mobile client shows a picture
SEATS = 4
SEED = 3
NAMES = ["Ana", "Bartholomew", "Cy", "Dorothea"]
GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")


def middle_board(name: str) -> Image.Image:
    """The board halfway through one seeded AI game of ``name``, as drawn at full size."""
    game = games.get(name)
    seats = min(max(SEATS, game.min_seats), game.max_seats)
    log: list[tuple[int, str, float]] = []
    play(name, seats, SEED, log=log)
    state = setup(game, seats, None, SEED)
    for seat, action, now in log[: len(log) // 2]:
        advance(game, state, seat, action, now)
    png = draw(board_view(game, state, NAMES[:seats]))
    return Image.open(io.BytesIO(png)).convert("RGB")


def on_a_phone(board: Image.Image) -> Image.Image:
    """``board`` at the width a phone shows it, in 256 colours (a small file)."""
    height = round(board.height * PHONE_WIDTH / board.width)
    shown = board.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
    return shown.quantize(256, dither=Image.Dither.NONE)


def shoot(folder: Path, label: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for name in GAMES:
        path = folder / f"{name}-{PHONE_WIDTH}-{label}.png"
        on_a_phone(middle_board(name)).save(path, optimize=True)
        saved.append(path)
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("label", help="the file names' last word: before, after")
    args = parser.parse_args()
    for path in shoot(args.folder, args.label):
        print(path)


if __name__ == "__main__":
    main()

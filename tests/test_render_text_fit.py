"""No board clips or crowds its text: every game, every seat count, the longest names, every phase.

AI games are played from seeds and their public board views drawn at steps spread over the whole
game, at the first board of each phase it reaches, and at its end, with 32-character names (long words, and "W"s, the widest letter). A
`render.textrecord.TextRecorder` lists every string each board shows, with its ink box, the
surface it was drawn on and the whole string behind a shortened one. On every board:

- no string leaves the image or the sprite it was drawn on;
- no two strings overlap (single characters are left out: they are the letters and numbers on
  pieces, dice and stones, which stand where the game puts them);
- in the header and the panels (a layout's text areas), no picture (an icon, a piece) runs into
  a string;
- a string is shortened with "…" only when its room could not hold it whole. A string's room is
  the free span of its row: from the neighbouring strings and pictures on either side (12 px
  apart), or the edges of its text area (the header, a panel, a strip; elsewhere the surface it
  was drawn on), in the font it was drawn in;
- a shortened player name still shows at least `NAME_KEEPS` characters.

And each header shows the bot's ``view["acting"]`` phrase in place of its own when it is given.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

import pytest
from PIL import Image

import games
from bot.rendering import board_view
from bot.simulate import play
from games.core import advance, setup
from render import atmosfear, castle, dontgo, firetop, kingdom
from render.core import NAME_KEEPS
from render.textrecord import DrawnText, TextRecorder

LONG_NAMES = ("Bartholomew the Magnificent, III", "Elizabeth Bennet of Longbourn II",
              "Maximilian Alexander Worthington", "Guinevere Pendragon-Fitzwilliams",
              "Christopher Montgomery-Blackwood", "Wilhelmina Constance Ravensworth")
WIDE_NAMES = tuple("W" * 31 + str(seat) for seat in range(6))
NAME_SETS = {"long": LONG_NAMES, "wide": WIDE_NAMES}
SAMPLES = 10  # boards per game, spread over its actions, plus the final one
GAP = 12  # px: the least space a layout keeps between a string and its neighbours
SLACK = 1  # px: ink boxes are measured, not drawn; a pixel either way is rounding

Box = tuple[float, float, float, float]

DRAW: dict[str, Callable[[dict[str, Any]], Image.Image]] = {
    "atmosfear": atmosfear.draw_atmosfear, "castle": castle.draw_castle, "dontgo": dontgo.draw_dontgo,
    "firetop": firetop.draw_firetop, "kingdom": kingdom.draw_kingdom,
}
HEADER_H = {"atmosfear": atmosfear.HEADER_H, "castle": castle.HEADER_H, "dontgo": dontgo.HEADER_H,
            "firetop": firetop.HEADER_H, "kingdom": kingdom.HEADER_H}


def test_every_name_is_32_characters():
    assert {len(n) for names in NAME_SETS.values() for n in names} == {32}


# --- the boards ------------------------------------------------------------------------------

def phase(view: dict[str, Any]) -> tuple[Any, ...]:
    """What sets a board apart beyond its pieces: the phase and step, and the boxes a game draws
    for a while (the Gatekeeper on screen, a battle, a monster, a fold under way, dice)."""
    return (view.get("phase"), view.get("step"), bool((view.get("gatekeeper") or {}).get("on_screen")),
            bool(view.get("battle")), bool(view.get("monster")), bool(view.get("fold_job")), bool(view.get("dice")))


def game_views(name: str, seats: int, seed: int, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Public board views of one AI game: `SAMPLES` spread over its actions, the first of each
    `phase` it reaches, and its end."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    end = play(name, seats, seed, log=log)
    assert end.over, f"{name} seed {seed} did not finish"
    state = setup(game, seats, None, seed)
    step = max(1, len(log) // SAMPLES)
    views, seen = [], set()
    for index, (seat, action, now) in enumerate(log):
        view = board_view(game, state, list(names[:seats]))
        if index % step == 0 or phase(view) not in seen:
            seen.add(phase(view))
            views.append(view)
        advance(game, state, seat, action, now)
    views.append(board_view(game, state, list(names[:seats])))
    return views


# --- text areas of each layout ----------------------------------------------------------------

def header(name: str) -> Box:
    return (12, 0, 1188, HEADER_H[name])


def castle_areas(view: dict[str, Any]) -> list[Box]:
    return [(12, 0, castle.WIDTH - 12, castle.HEADER_H)]


def dontgo_areas(view: dict[str, Any]) -> list[Box]:
    return [(12, 0, dontgo.WIDTH - 12, dontgo.HEADER_H)]


def atmosfear_areas(view: dict[str, Any]) -> list[Box]:
    return [(12, 0, atmosfear.WIDTH - 12, atmosfear.HEADER_H)]


def firetop_areas(view: dict[str, Any]) -> list[Box]:
    return [header("firetop")]


def kingdom_areas(view: dict[str, Any]) -> list[Box]:
    k = kingdom
    bar = [(x + 10, k.HEADER_H, x + 390, k.BOARD_TOP) for x in (0, 400, 800)]
    return [header("kingdom"), *bar]


AREAS = {"atmosfear": atmosfear_areas, "castle": castle_areas, "dontgo": dontgo_areas,
         "firetop": firetop_areas, "kingdom": kingdom_areas}


# --- the checks --------------------------------------------------------------------------------

def overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def contains(outer: Box, inner: Box) -> bool:
    return (outer[0] - SLACK <= inner[0] and outer[1] - SLACK <= inner[1] and inner[2] <= outer[2] + SLACK
            and inner[3] <= outer[3] + SLACK)


def centre_in(area: Box, box: Box) -> bool:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return area[0] <= x <= area[2] and area[1] <= y <= area[3]


def room(text: DrawnText, marks: list[DrawnText], areas: list[Box]) -> float:
    """The free span of ``text``'s row (see the module docstring)."""
    area = next((a for a in areas if centre_in(a, text.box)), text.frame)
    left, right = area[0], area[2]
    middle = (text.box[0] + text.box[2]) / 2
    for other in marks:
        same_row = min(other.box[3], text.box[3]) - max(other.box[1], text.box[1]) > SLACK
        if other is text or not same_row or (other.picture and contains(other.box, text.box)):
            continue
        if other.box[2] <= middle:
            left = max(left, other.box[2] + GAP)
        elif other.box[0] >= middle:
            right = min(right, other.box[0] - GAP)
        else:
            return 0.0
    return right - left


def visible_name_chars(text: DrawnText, name: str) -> int:
    """How many of ``name``'s characters a shortened string still shows."""
    at = text.meant.find(name)
    return max(0, min(len(name), len(text.text.rstrip("…")) - at))


def problems(image: Image.Image, marks: list[DrawnText], areas: list[Box], names: tuple[str, ...]) -> list[str]:
    found = []
    texts = [m for m in marks if not m.picture]
    bounds = (0, 0, image.width, image.height)
    for t in texts:
        if not (contains(t.frame, t.box) and contains(bounds, t.box)):
            found.append(f"{t.text!r} at {t.box} leaves {t.frame if not contains(t.frame, t.box) else bounds}")
        if t.shortened:
            space = room(t, marks, areas)
            if t.meant_width <= space:
                found.append(f"{t.text!r} shortened from {t.meant!r} ({t.meant_width:.0f} px) with {space:.0f} px of room")
            for name in names:
                if name in t.meant and visible_name_chars(t, name) < min(len(name), NAME_KEEPS):
                    found.append(f"{t.text!r} keeps under {NAME_KEEPS} characters of {name!r}")
    words = [t for t in texts if len(t.text.strip()) > 1]
    for a, b in itertools.combinations(words, 2):
        if overlap(a.box, b.box):
            found.append(f"{a.text!r} at {a.box} overlaps {b.text!r} at {b.box}")
    pictures = [m for m in marks if m.picture and any(centre_in(area, m.box) for area in areas)]
    for t in words:
        if any(centre_in(area, t.box) for area in areas):
            for p in pictures:
                if overlap(t.box, p.box) and not contains(p.box, t.box):
                    found.append(f"{t.text!r} at {t.box} runs into a picture at {p.box}")
    return found


def drawn(name: str, view: dict[str, Any], recorder: TextRecorder) -> tuple[Image.Image, list[DrawnText]]:
    image = DRAW[name](view)
    return image, recorder.texts(image)


CASES = [(name, seats) for name in sorted(DRAW)
         for seats in range(games.get(name).min_seats, games.get(name).max_seats + 1)]


@pytest.mark.parametrize("name,seats", CASES)
@pytest.mark.parametrize("names", sorted(NAME_SETS))
def test_text_fits_on_every_board(name, seats, names):
    chosen = NAME_SETS[names]
    views = game_views(name, seats, seed=7 + seats, names=chosen)
    found: set[str] = set()
    with TextRecorder() as recorder:
        for view in views:
            image, marks = drawn(name, view, recorder)
            assert marks, "the recorder saw no text"
            found.update(problems(image, marks, AREAS[name](view), chosen[:seats]))
    assert not found, "\n".join(sorted(found))


# --- the header's phrase -------------------------------------------------------------------------

def header_texts(name: str, marks: list[DrawnText]) -> list[DrawnText]:
    band = header(name)
    return [m for m in marks if not m.picture and contains(band, m.box)]


def mid_game_view(name: str, seats: int, names: tuple[str, ...]) -> dict[str, Any]:
    """A board from the second half of a game where a player is to move (no panel folding,
    no adventurers being rolled up: their headers say so instead)."""
    views = game_views(name, seats, seed=3, names=names)
    return next(v for v in views[len(views) // 2:]
                if v.get("current") is not None and v.get("phase") not in ("fold", "create", "over"))


def as_shown(phrase: str, names: tuple[str, ...]) -> tuple[str, str]:
    """``phrase`` whole, and with its long names cut to `NAME_KEEPS` characters and "…" (as a
    header shows it when it cannot fit whole)."""
    cut = phrase
    for name in names:
        cut = cut.replace(name, name[:NAME_KEEPS].rstrip() + "…")
    return phrase, cut


def shows(phrase: str, marks: list[DrawnText], names: tuple[str, ...]) -> bool:
    """The header's lines, top to bottom, spell ``phrase`` (whole or with its names cut)."""
    for wanted in as_shown(phrase, names):
        lines = sorted((m for m in marks if m.text in wanted), key=lambda m: m.box[1])
        if " ".join(m.text for m in lines) == wanted:
            return True
    return False


@pytest.mark.parametrize("name", sorted(DRAW))
@pytest.mark.parametrize("names", sorted(NAME_SETS))
def test_the_header_shows_the_acting_phrase_it_is_given(name, names):
    chosen = NAME_SETS[names]
    seats = games.get(name).min_seats
    view = mid_game_view(name, seats, chosen)
    phrases = ["Ana to move", "THE GATEKEEPER speaks: nobody moves", f"{chosen[1]} to move",
               f"{chosen[0]} and {chosen[1]} to answer", f"{chosen[0]} and {chosen[1]} to answer the Gatekeeper"]
    with TextRecorder() as recorder:
        for phrase in phrases:
            image, marks = drawn(name, dict(view, acting=phrase), recorder)
            lines = [m.text for m in header_texts(name, marks)]
            assert shows(phrase, header_texts(name, marks), chosen[:seats]), (phrase, lines)
            own = [line for line in lines if not any(line in shown for shown in as_shown(phrase, chosen[:seats]))]
            assert not any(word in line for line in own for word in ("to play", "to move")), own
            assert not problems(image, marks, AREAS[name](view), chosen[:seats])


@pytest.mark.parametrize("name", sorted(DRAW))
def test_without_an_acting_phrase_the_header_names_the_player_to_move(name):
    seats = games.get(name).min_seats
    view = mid_game_view(name, seats, ("Ana", "Bo", "Cy"))
    with TextRecorder() as recorder:
        _, marks = drawn(name, view, recorder)
    current = view["current"]
    assert any(m.text.startswith(("Ana", "Bo", "Cy")[current]) for m in header_texts(name, marks))


def test_a_shortened_string_is_recorded_with_the_whole_string_and_its_room():
    view = mid_game_view("castle", 2, LONG_NAMES)  # the winner's banner shortens a name too long for it
    with TextRecorder() as recorder:
        image, marks = drawn("castle", dict(view, names=["W" * 80, "Bo"], winner=0, phase="over"), recorder)
    cut = [m for m in marks if m.shortened]
    assert cut and all(m.meant.startswith("W" * 80) and m.text.startswith("W") and "…" in m.text for m in cut)
    assert all(m.meant_width > m.box[2] - m.box[0] for m in cut)


def test_the_recorder_sees_text_moved_with_its_sprite_and_hidden_under_a_fill():
    from PIL import ImageDraw

    from render.core import font
    with TextRecorder() as recorder:
        sprite = Image.new("RGBA", (200, 60))
        ImageDraw.Draw(sprite).text((10, 10), "Library", font=font(22), fill="white")
        board = Image.new("RGB", (800, 400))
        board.paste(sprite.resize((100, 30)), (300, 200), sprite.resize((100, 30)))
        drawn_on_board = [m for m in recorder.texts(board) if not m.picture]
        covered = Image.new("RGB", (800, 400))
        covered.paste(sprite, (0, 0), sprite)
        ImageDraw.Draw(covered).rectangle((0, 0, 300, 100), fill="black")
        after_fill = [m for m in recorder.texts(covered) if not m.picture]
    assert [m.text for m in drawn_on_board] == ["Library"]
    box = drawn_on_board[0].box
    assert 300 < box[0] < 310 and 200 < box[1] < 215 and box[2] < 400
    assert after_fill == []


def test_recording_changes_no_pixel():
    view = mid_game_view("dontgo", 3, LONG_NAMES)
    plain = DRAW["dontgo"](view)
    with TextRecorder():
        recorded = DRAW["dontgo"](view)
    assert plain.tobytes() == recorded.tobytes()

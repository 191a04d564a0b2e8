"""Tests for the Key to the Kingdom board renderer (render/kingdom.py): random and real views render,
every fold state shows its Worlds, pieces land where the view puts them, and only the public view
is drawn."""
from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

from games.core import Rng, apply, decide, setup
from games.kingdom import GAME
from games.kingdom.board import BOARD
from render import core, kingdom
from render.kingdom import DY, HEIGHT, WIDTH, WORLD_BG, draw_kingdom, render_kingdom

COLOURS = ["red", "blue", "green", "yellow"]
FOLDS = [("in", "in"), ("in", "out"), ("out", "in"), ("out", "out")]
PNG_SIG = b"\x89PNG\r\n\x1a\n"


def random_view(seed: int) -> dict:
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    west, east = rng.choice(FOLDS)
    fold = {"west": west, "east": east}
    present = [s for s in BOARD.spaces if BOARD.present(s, fold)]
    hazards = [h for h, (a, b) in BOARD.hazards.items() if BOARD.present(a, fold)]
    players = []
    for seat in range(n):
        kind = rng.random()
        at, spot, task = rng.choice(present), None, None
        if kind < 0.2:
            spot, at = rng.choice(sorted(BOARD.spots)), None
            task = {"hazard": "caught", "name": "Caught", "step": "struggle", "label": "Caught: in the fold",
                    "lane": None, "pos": 0, "length": 0, "near": None, "far": None, "miss": None}
        elif kind < 0.5 and hazards:
            hz = rng.choice(hazards)
            near, far = BOARD.hazards[hz]
            task = {"hazard": hz, "name": hz, "step": "x", "label": f"{hz}: somewhere", "lane": "lane",
                    "pos": rng.randint(0, 6), "length": 6, "near": near, "far": far, "miss": rng.choice([None, 2])}
            at = near
        players.append({"seat": seat, "colour": COLOURS[seat], "at": at, "spot": spot, "task": task,
                        "equip": rng.sample(["sword", "axe", "fire", "net", "rope", "hook", "shield", "food"] * 2,
                                            rng.randint(0, 9)),
                        "treasures": rng.randint(0, 4), "deep": rng.randint(0, 1), "wizard_used": False,
                        "barred": None, "revealed": None})
    over = rng.random() < 0.15
    view = {
        "game": "kingdom", "turn": rng.randint(1, 200), "round": rng.randint(1, 80), "rounds": 80,
        "current": None if over else rng.randrange(n), "phase": "over" if over else rng.choice(
            ["act", "demon", "move", "steal", "fold"]),
        "fold": fold, "demon": rng.choice(sorted(BOARD.demon)), "die": rng.choice([None, *range(1, 9)]),
        "rolls": [], "players": players,
        "locations": {loc: rng.random() < 0.5 for loc in BOARD.locations},
        "lost_equipment": [{"item": "rope", "owner": 0}] * rng.randint(0, 3), "lost_treasures": rng.randint(0, 5),
        "deep_left": rng.randint(0, 2), "bridge": {"built": rng.randint(0, 6), "from": rng.choice(["etb_a", "etb_b"])},
        "monster": None, "fold_job": None, "moved": False,
        "targets": rng.sample(present, rng.randint(0, 5)), "demon_targets": [],
        "last": {"seat": 0, "from": rng.choice(present), "to": rng.choice(present)} if rng.random() < 0.7 else None,
        "winner": (rng.randrange(n) if rng.random() < 0.7 else None) if over else None,
        "hand": None, "knows": None, "names": [f"Player {s}" for s in range(n)],
    }
    if view["phase"] == "fold":
        view["fold_job"] = {"panel": rng.choice(["west", "east"]), "to": rng.choice(["in", "out"]), "jumper": 0,
                            "stage": "run", "runners": {"1": {"left": 2, "die": 3}}, "waiting": []}
    return view


def png_image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIG)
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("seed", range(30))
def test_random_views_render_to_a_fixed_size_opaque_png(seed):
    img = png_image(render_kingdom(random_view(seed)))
    assert img.size == (WIDTH, HEIGHT)
    assert img.mode in ("P", "RGB") and "transparency" not in img.info


@pytest.mark.parametrize("fold", FOLDS)
def test_every_fold_state_shows_its_two_worlds(fold):
    view = random_view(3)
    view["fold"] = {"west": fold[0], "east": fold[1]}
    img = draw_kingdom(view)
    west = BOARD.world("west", fold[0])
    east = BOARD.world("east", fold[1])
    assert img.getpixel((390, 860 + DY - 40)) == WORLD_BG[west]
    assert img.getpixel((1196, 200)) == WORLD_BG[east]
    assert img.getpixel((410, 860 + DY - 40)) == WORLD_BG["The Heartland"]


def test_the_four_fold_states_draw_four_different_boards():
    view = random_view(5)
    pictures = set()
    for fold in FOLDS:
        view["fold"] = {"west": fold[0], "east": fold[1]}
        pictures.add(draw_kingdom(view).tobytes())
    assert len(pictures) == 4


def test_an_adventurer_is_drawn_on_its_space_in_its_colour():
    view = random_view(8)
    for pl in view["players"]:
        pl.update(at="gate", spot=None, task=None)
    view["players"][0].update(at="h5")
    view["targets"], view["last"], view["demon"] = [], None, "h12"
    img = draw_kingdom(view)
    x, y = kingdom.xy("h5")
    assert img.getpixel((x - 14, y)) == core.seat_rgb("red")


def test_the_demon_king_is_drawn_where_the_view_puts_him():
    view = random_view(9)
    view["demon"] = "h9"
    view["targets"], view["demon_targets"], view["last"] = [], [], None
    for pl in view["players"]:
        pl.update(at="gate", spot=None, task=None)
    img = draw_kingdom(view)
    x, y = kingdom.xy("h9")
    assert img.getpixel((x, y + 16)) == kingdom.DK_RGB


def test_hidden_information_is_never_drawn():
    view = random_view(11)
    a = draw_kingdom(view).tobytes()
    other = copy.deepcopy(view)
    other["hand"] = ["key", "crown"]
    other["knows"] = {"key": 1}
    assert draw_kingdom(other).tobytes() == a


def test_long_names_keep_the_size():
    view = random_view(12)
    view["names"] = ["W" * 32] * len(view["players"])
    assert draw_kingdom(view).size == (WIDTH, HEIGHT)


def test_real_views_from_self_play_render_through_the_plugin():
    from bot.rendering import draw
    seen_folds = set()
    for seed in range(3):
        state = setup(GAME, 4, {}, seed)
        rng = Rng(seed)
        steps = 0
        while not state.over and steps < 900:
            seat = next(s for s in range(4) if GAME.prompt(state, s) is not None)
            state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "smart")).state
            steps += 1
            if steps % 60 == 0 or state.over:
                view = GAME.view(state, None)
                view["names"] = ["Ana", "Bo", "Cy", "Di"]
                assert png_image(draw(view)).size == (WIDTH, HEIGHT)
                seen_folds.add(tuple(state.data["fold"].values()))
    assert len(seen_folds) >= 2


def test_warm_up_builds_every_fold_layer():
    kingdom.warm_up()
    assert kingdom._static_cached.cache_info().currsize >= 4


def timing(games_played: int = 4) -> None:
    """Render + encode CPU time over real self-play views in every fold state (not a test):
    python -m tests.test_render_kingdom"""
    import time
    kingdom.warm_up()
    views = []
    for seed in range(games_played):
        state = setup(GAME, 4, {}, seed)
        rng = Rng(seed)
        while not state.over:
            seat = next(s for s in range(4) if GAME.prompt(state, s) is not None)
            state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "smart")).state
            if state.version % 9 == 0:
                view = GAME.view(state, None)
                for key in GAME.image_ignores:
                    view.pop(key, None)
                view["names"] = ["Ana", "Bo", "Cy", "Di"]
                views.append(view)
    for fold in FOLDS:
        spent, sizes = [], []
        for view in views:
            view = dict(view, fold={"west": fold[0], "east": fold[1]})
            start = time.process_time()
            png = render_kingdom(view)
            spent.append(time.process_time() - start)
            sizes.append(len(png))
        spent.sort()
        print(f"fold {fold}: {len(spent)} boards, p50 {1000 * spent[len(spent) // 2]:.1f} ms, "
              f"p95 {1000 * spent[int(len(spent) * 0.95)]:.1f} ms, PNG {sum(sizes) // len(sizes) // 1024} KB mean")


if __name__ == "__main__":
    timing()


def seated(view: dict, n: int) -> dict:
    """``view`` with its first ``n`` players only, none of them busy."""
    players = [dict(p, task=None, spot=None, revealed=None, at="gate") for p in view["players"][:n]]
    return dict(view, players=players, names=view["names"][:n], current=0, phase="act", fold_job=None,
                monster=None)


def test_the_panels_are_the_tables_text_a_line_per_seated_player():
    """The board no longer draws the adventurers' panels: `panel` says them, one line for each
    seated player, under the picture where a phone wraps them."""
    from render.words.kingdom import panel

    view = seated(next(v for v in map(random_view, range(50)) if len(v["players"]) >= 3), 3)
    lines = panel(view)
    assert len(lines) == 3 + 2 and lines[-2].startswith("Ring: ") and lines[-1].startswith("West panel: ")
    assert all(lines[seat].startswith(view["names"][seat]) for seat in range(3))
    assert draw_kingdom(view).height == kingdom.BOARD_BOTTOM


def test_a_long_status_is_said_whole():
    from render.words.kingdom import panel

    view = seated(random_view(5), 2)
    view["players"][0]["task"] = {"hazard": "bone_pit", "name": "Bone Pit", "step": "climb", "lane": None,
                                  "pos": 0, "length": 0, "near": None, "far": None, "miss": None}
    assert panel(view)[0].endswith(" · Bone Pit: climbing the white skulls (odd numbers climb)")
    german = panel(dict(view, lang="de"))[0]  # in the table's language, as long as it takes
    assert german.endswith(" · Knochengrube: klettert über die weißen Schädel (ungerade Zahlen klettern)")

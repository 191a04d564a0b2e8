"""Tests for the Atmosfear board renderer and the Gatekeeper portrait (render/atmosfear.py).

Views are built by hand (seeded random): no dependency on the games package."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.rendering import draw
from render import atmosfear, core

PNG_SIG = b"\x89PNG\r\n\x1a\n"
COLOURS = ["red", "yellow", "blue", "green", "purple", "orange"]
HARBINGERS = ["Gevaudan", "Baron Samedi", "Anne de Chantraine", "Elizabeth Bathory", "Khufu", "Hellin"]
SPECIAL = ["headstone", "key", "black_hole", "duel", "flight", "fate", "time"]


def make_board(rng: random.Random, n_outer: int = 66) -> dict:
    """66 outer stones in six realms (a branch in each realm's middle), six
    radials of 3 stones, inner ring of 12, random kinds, one black key."""
    per = n_outer // 6
    outer = []
    for i in range(n_outer):
        realm = min(5, i // per)
        if i - realm * per == per // 2:
            kind = "branch"
        else:
            kind = rng.choice(SPECIAL) if rng.random() < 0.45 else "plain"
        outer.append({"id": f"O{i}", "realm": realm, "kind": kind, "colour": COLOURS[realm] if kind == "key" else None})
    bk = rng.choice([s for s in outer if s["kind"] == "plain"])
    bk["kind"] = "black_key"
    radials = [[f"R{k}.{j}" for j in range(3)] for k in range(6)]
    inner = [f"I{k}" for k in range(12)]
    return {"outer": outer, "radials": radials, "inner": inner, "well": "WELL"}


def random_view(seed: int, n_players: int | None = None) -> dict:
    rng = random.Random(seed)
    n = n_players or rng.randint(3, 6)
    board = make_board(rng)
    all_ids = [s["id"] for s in board["outer"]] + [i for r in board["radials"] for i in r] + board["inner"]
    colours = rng.sample(COLOURS, 6)
    realms = [{"index": k, "harbinger": HARBINGERS[k], "colour": COLOURS[k], "keys_left": rng.randint(0, 6)}
              for k in range(6)]
    seats = rng.sample(range(6), n)
    players = []
    for seat in range(n):
        h = seats[seat]
        waiting = rng.random() < 0.1
        pos = rng.choice(all_ids + ["WELL"] if rng.random() < 0.1 else all_ids)
        players.append({
            "seat": seat, "harbinger": HARBINGERS[h], "number": h + 1, "colour": colours[seat], "pos": pos,
            "keys": rng.randint(0, 6), "black_key": False, "in_black_hole": rng.random() < 0.15,
            "must_roll": rng.choice([None, None, 6, 1]), "chosen_one": rng.random() < 0.15,
            "waiting_at_well": waiting,
        })
    holder = rng.choice([None, rng.randrange(n)])
    if holder is not None:
        players[holder]["black_key"] = True
    last = None
    if rng.random() < 0.8:
        start = rng.randrange(66)
        last = {"seat": rng.randrange(n), "path": [f"O{(start + k) % 66}" for k in range(rng.randint(1, 6))]}
    view = {
        "game": "atmosfear", "turn": rng.randint(1, 80), "current": rng.randrange(n),
        "phase": rng.choice(["play", "play", "fears", "paused"]),
        "clock": {"end": 1_000_000.0, "paused_at": None, "minutes": 40},
        "board": board, "realms": realms, "black_key": {"holder": holder, "on_board": holder is None},
        "players": players,
        "gatekeeper": {"on_screen": False, "line": None, "calling": None, "deadline": None, "next_at": None},
        "dice": [rng.randint(1, 6) for _ in range(rng.choice([1, 2]))] if rng.random() < 0.7 else None,
        "last": last, "fears_in_well": rng.randint(0, 12), "fears_read": ["spiders"] * rng.randint(0, 3),
        "winner": None, "gatekeeper_won": False,
    }
    if rng.random() < 0.6:
        view["names"] = ["Ana", "Bo", "Cleo", "Dmitri", "Eve", "Farouk"][:n]
    return view


def full_view() -> dict:
    v = random_view(11, 6)
    v["last"] = {"seat": 0, "path": ["O3", "O4", "O5", "O6"]}
    return v


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def differ(a: Image.Image, b: Image.Image):
    return ImageChops.difference(a, b).getbbox()


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_png_basics(n):
    png = atmosfear.render_atmosfear(random_view(7, n))
    assert png[:8] == PNG_SIG
    im = decode(png)
    assert im.format == "PNG"
    assert 800 <= im.width <= 1000  # the map alone: a phone shrinks it least
    assert im.size == (atmosfear.WIDTH, atmosfear.HEIGHT)
    assert len(png) < 400_000


def test_deterministic():
    v = random_view(3, 5)
    assert atmosfear.render_atmosfear(v) == atmosfear.render_atmosfear(random_view(3, 5))


def test_different_views_differ():
    a, b = atmosfear.draw_atmosfear(random_view(1, 4)), atmosfear.draw_atmosfear(random_view(2, 4))
    assert differ(a, b) is not None
    assert atmosfear.render_atmosfear(random_view(1, 4)) != atmosfear.render_atmosfear(random_view(2, 4))


def test_naive_draws_the_same_picture():
    for seed in range(2):
        v = random_view(seed)
        assert differ(atmosfear.draw_atmosfear(v), atmosfear.draw_atmosfear_naive(v)) is None
    assert decode(atmosfear.render_atmosfear_naive(full_view())).mode == "RGB"


def test_last_path_highlight_changes_pixels_at_those_stones():
    v = dict(full_view(), last=None)
    plain = atmosfear.draw_atmosfear(v)
    lit = atmosfear.draw_atmosfear(dict(v, last={"seat": 0, "path": ["O20", "O21"]}))
    box = differ(plain, lit)
    assert box is not None
    _, geo = atmosfear._static_cached(atmosfear.board_spec(v))
    xs = [geo.pos[s][0] for s in ("O20", "O21")]
    ys = [geo.pos[s][1] for s in ("O20", "O21")]
    r = geo.stone_d
    assert min(xs) - r <= box[0] and box[2] <= max(xs) + r
    assert min(ys) - r <= box[1] and box[3] <= max(ys) + r
    assert core.HIGHLIGHT in [c for _, c in lit.crop(box).getcolors(100_000)]


def test_private_fields_are_ignored():
    v = full_view()
    private = dict(v, rack={"cards": ["a", "b"], "seat": 0}, time_cards=[{"minutes": 5}, {"minutes": 2}])
    assert atmosfear.render_atmosfear(private) == atmosfear.render_atmosfear(v)
    assert draw(private) == draw(v)


def test_clock_is_not_read():
    v = full_view()
    other = dict(v, clock={"end": 5.0, "paused_at": 3.0, "minutes": 40})
    assert atmosfear.render_atmosfear(other) == atmosfear.render_atmosfear(v)


def test_the_board_leaves_the_gatekeepers_words_to_the_table():
    """While he speaks the table shows his portrait and his words in its text: the board
    neither repeats them nor the name he calls."""
    from render.textrecord import TextRecorder

    v = dict(full_view(), names=["Ana", "Bo", "Cy", "Di"])
    gk = dict(v, phase="gatekeeper", gatekeeper={"on_screen": True, "line": "You! Roll a six or lose a key!",
                                                 "calling": 1, "deadline": None, "next_at": None})
    with TextRecorder() as recorder:
        drawn = " ".join(t.text for t in recorder.texts(atmosfear.draw_atmosfear(gk)))
    assert "Roll a six" not in drawn and "calls" not in drawn


def test_game_over_banners():
    v = dict(full_view(), phase="over", current=None)
    base = atmosfear.draw_atmosfear(v)
    won = atmosfear.draw_atmosfear(dict(v, winner=2))
    gk = atmosfear.draw_atmosfear(dict(v, gatekeeper_won=True))
    for im in (won, gk):
        box = differ(base, im)
        assert box is not None and box[1] < atmosfear.HEADER_H
    assert won.getpixel((5, 5)) == core.GOLD
    assert gk.getpixel((5, 5)) == atmosfear.GK_RED
    assert differ(won, gk) is not None


def test_dynamic_state_changes_image():
    v = full_view()
    base = atmosfear.draw_atmosfear(v)
    realms = [dict(r) for r in v["realms"]]
    realms[0]["keys_left"] = (realms[0]["keys_left"] + 1) % 7
    players = [dict(p) for p in v["players"]]
    players[0]["pos"] = "I3" if players[0]["pos"] != "I3" else "I4"
    players[0]["waiting_at_well"] = False
    for change in ({"realms": realms}, {"players": players}, {"fears_in_well": v["fears_in_well"] + 1},
                   {"black_key": {"holder": None, "on_board": False}}):
        assert differ(base, atmosfear.draw_atmosfear(dict(v, **change))) is not None, change


def test_board_cache_keyed_on_layout():
    v = full_view()
    atmosfear.draw_atmosfear(v)
    before = atmosfear._static_cached.cache_info()
    atmosfear.draw_atmosfear(dict(v, turn=v["turn"] + 1))
    after = atmosfear._static_cached.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    other = random_view(99, 6)
    atmosfear.draw_atmosfear(other)
    assert atmosfear._static_cached.cache_info().misses == after.misses + 1


@pytest.mark.parametrize("seed", range(6))
def test_many_random_views_render(seed):
    png = atmosfear.render_atmosfear(random_view(100 + seed))
    assert png[:8] == PNG_SIG


def test_odd_boards_render():
    v = full_view()
    rng = random.Random(5)
    for n in (60, 72):
        board = make_board(rng, n)
        assert atmosfear.render_atmosfear(dict(v, board=board, last=None))[:8] == PNG_SIG
    sparse = dict(v, board={"outer": v["board"]["outer"], "radials": [], "inner": [], "well": "WELL"},
                  names=None, dice=[9], last={"seat": 0, "path": ["nowhere"]})
    assert atmosfear.render_atmosfear(sparse)[:8] == PNG_SIG


def test_dispatch_on_game():
    v = full_view()
    assert draw(v) == atmosfear.render_atmosfear(v)


def test_size_budget():
    """Size only: speed is measured by bench.render_timing, not asserted in tests."""
    png = atmosfear.render_atmosfear(full_view())
    assert len(png) < 400_000


def test_render_gatekeeper():
    """A square portrait (whole in the table, or a thumbnail beside his words), the same for
    every line: his words are the table's text."""
    a = atmosfear.render_gatekeeper("Silence! I am speaking.")
    assert a[:8] == PNG_SIG
    im = decode(a)
    assert im.size == (atmosfear.GK_SIZE, atmosfear.GK_SIZE)
    assert len(a) < 200_000
    assert atmosfear.render_gatekeeper("blah " * 200) == a == atmosfear.render_gatekeeper("")


def test_render_is_pure():
    src = open(atmosfear.__file__, encoding="utf-8").read()
    for banned in ("import discord", "from discord", "import games", "from games", "time.time", "datetime",
                   "perf_counter", 'get("rack"', '["rack"]', 'get("time_cards"', '["time_cards"]'):
        assert banned not in src, banned


def test_gatekeeper_portrait_is_a_readable_png(tmp_path):
    png = atmosfear.render_gatekeeper("Who dares keep me waiting? YOU! Roll a six!")
    (tmp_path / "gatekeeper.png").write_bytes(png)
    with Image.open(tmp_path / "gatekeeper.png") as im:
        assert im.format == "PNG" and im.width == im.height
    assert core.COLOUR_NAMES["purple"] == "Purple"


def test_the_gatekeepers_portrait_shows_his_title_and_no_words_of_his():
    """Only his name is drawn (the same in every language), large enough to read on a phone
    even as a thumbnail (80 px)."""
    from render.textrecord import TextRecorder

    with TextRecorder() as recorder:
        im = atmosfear.draw_gatekeeper()
        texts = [t for t in recorder.texts(im) if not t.picture]
    assert [t.text for t in texts] == ["GATEKEEPER"]
    assert texts[0].px * 360 / im.width >= 9
    assert 0 <= texts[0].box[0] and texts[0].box[2] <= im.width

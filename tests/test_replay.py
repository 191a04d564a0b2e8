"""Replays: finished games stored through the real TableService, rebuilt from the action log,
drawn and encoded; every game, the GIF fallback, refusals, the render pool and the CLI."""
from __future__ import annotations

import asyncio
import dataclasses
import io
import sqlite3
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import bot.replay as replay_module
import games
import render.replay as render_replay
from bot.cli import main as cli_main
from bot.clock import FakeClock
from bot.rendering import Renderer, board_view, draw
from bot.replay import (
    ReplayError,
    Replays,
    TallerFrame,
    encode_part,
    here,
    make,
    outline,
    replay_alt,
    replay_format,
    scenes,
    spans,
)
from bot.store import Store
from bot.table import Seat, TableService, fill_names
from data.locales import Msg
from games.core import SYSTEM, apply, setup
from render.replay import (
    ATTACHMENT_LIMIT,
    WIDTHS,
    Frame,
    compose,
    durations,
    gif_palette,
    gif_part,
)

GAMES = ("castle", "dontgo", "atmosfear", "firetop", "kingdom")
GUILD, CHANNEL = 1, 10


class Quiet:
    async def lobby_changed(self, table): ...
    async def publish(self, snapshot): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...


async def drain(service: TableService) -> None:
    for _ in range(3):
        await asyncio.sleep(0)
        if service._tasks:
            await asyncio.gather(*list(service._tasks))


async def play_out(service: TableService, clock: FakeClock, name: str, seats: int, seed: int,
                   channel: int = CHANNEL, guild: int = GUILD, options: dict | None = None):
    """A game of AI seats run to its end by the service's own timers on a fake clock."""
    table = await service.open_lobby(name, guild, channel, 100, "Host", seed=seed,
                                     options=options,
                                     seats=[Seat(name=f"Robo {n}", ai=True) for n in range(seats)])
    await service.lobby(table.id, 100, "Host", "start")
    for _ in range(20_000):
        if table.status != "running":
            return table
        due = min(t["due_at"] for t in table.timers)
        clock.advance(max(0.0, due - clock.now()))
        await drain(service)
    raise AssertionError(f"{name} did not finish")


@pytest.fixture
async def service(tmp_path):
    clock = FakeClock()
    store = Store(tmp_path / "replay.db")
    svc = TableService(store, Quiet(), clock, turn_timeout=600, ai_delay=1)
    svc.fake_clock = clock
    yield svc
    await store.close()


def decoded(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as image:
        frames = []
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            frames.append(image.convert("RGB"))
        return frames


def frame_lengths(image: Image.Image) -> list[int]:
    """How long the animated file says to hold each frame, in ms: the file's own header fields,
    written by the encoder from the replay's plan (no clock is read)."""
    lengths = []
    for index in range(image.n_frames):
        image.seek(index)
        image.load()
        lengths.append(image.info["duration"])
    return lengths


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0-255)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


async def finished(service: TableService, name: str):
    """A game of `name` played to its end by AI seats (its shortest clock or round limit): the
    table, its stored row and its action log."""
    game = games.get(name)
    shortest = {option: min(values) for option, values in game.option_choices.items()
                if option in ("minutes", "rounds")}
    table = await play_out(service, service.fake_clock, name, game.min_seats, seed=3,
                           options=shortest)
    return table, await service.store.game(table.id), await service.store.actions(table.id)


@pytest.mark.parametrize("name", GAMES)
async def test_a_finished_game_replays_scene_by_scene(service, name, monkeypatch):
    """Every game's log gives one public scene per move, captioned without secrets, ending on
    the final board, drawn at one of the replay widths."""
    game = games.get(name)
    table, row, actions = await finished(service, name)
    assert row["status"] == "over" and len(actions) > 10
    if name == "atmosfear":  # its clock and the Gatekeeper are timer actions in the log
        assert any(a["source"] == "timer" and a["seat"] == SYSTEM for a in actions)

    seen: list[int | None] = []
    spy = game.view

    def view(state, seat):
        seen.append(seat)
        return spy(state, seat)

    monkeypatch.setattr(game, "view", view)
    shots = scenes(row, actions)
    monkeypatch.undo()
    assert seen and set(seen) == {None}  # only ever the spectator's view
    # one frame for the start and one per move; a move changed the picture
    assert 2 < len(shots) <= len(actions) + 1
    assert all(a.view != b.view for a, b in zip(shots, shots[1:]))
    assert shots[0].caption.endswith("the start")
    winners = [table.seats[s].name for s in table.result["winners"]]
    assert shots[-1].caption.endswith(f"won by {' and '.join(winners)}" if winners
                                      else fill_names(table.result["reason"], table.names()))
    # nothing said to one seat only reaches a caption
    state = setup(game, len(table.seats), row["options"], row["seed"])
    secrets = set()
    for entry in actions:
        outcome = apply(game, state, entry["seat"], entry["action"], entry["at"])
        state = outcome.state
        public = {fill_names(e.text, table.names()) for e in outcome.events if e.public}
        secrets |= {fill_names(e.text, table.names()) for e in outcome.events
                    if not e.public} - public
    captions = " ".join(s.caption for s in shots)
    assert not [text for text in secrets if text.replace("**", "") in captions]
    # the last scene is the final public board; the plan cuts the scenes into parts
    final = board_view(game, table.state, table.names())
    assert final == shots[-1].view
    plan = outline(row, actions, WIDTHS[0])
    assert plan.frames == len(shots) and len(plan.parts) == len(spans(len(shots),
                                                                      replay_module.PART))
    assert plan.height == compose(Frame(draw(final), shots[-1].caption), WIDTHS[0]).height


@pytest.mark.parametrize("lang", ["de", "es"])
async def test_a_replay_reads_in_the_channels_language(service, lang):
    """Posted in a German or Spanish channel, the replay's captions, boards and description are
    in that language (Don't Go In There: its end has no single winner's line to read)."""
    table, row, actions = await finished(service, "dontgo")
    shots = scenes(row, actions, lang)
    start = {"de": "Spiel #", "es": "partida #"}[lang]
    assert start in shots[0].caption and "the start" not in shots[0].caption
    assert shots[-1].view["lang"] == lang
    assert shots[-1].caption.endswith(fill_names(
        Msg("replay.caption.won_by", names=tuple(table.seats[s].name
                                                  for s in table.result["winners"])), [], lang))
    english = scenes(row, actions)
    assert [a.caption for a in shots] != [a.caption for a in english]
    alt = replay_alt(row, len(shots) - 1, lang)
    assert alt.startswith({"de": "Animierte Wiederholung", "es": "Repetición animada"}[lang])
    assert "Animated replay" not in alt and " won" not in alt and "Nobody" not in alt


@pytest.mark.parametrize("name", ["castle", "dontgo"])
async def test_a_finished_game_replays_frame_by_frame(service, name):
    """The whole file (the encoder is the same for every game: two of them, the quickest, show
    it): one frame per scene, each exactly as drawn, held as the plan says."""
    game = games.get(name)
    table, row, actions = await finished(service, name)
    shots = scenes(row, actions)
    data = await make(row, actions, "webp", here)
    assert len(data) < ATTACHMENT_LIMIT
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and image.is_animated
        assert image.n_frames == len(shots)
        assert image.info["loop"] == 0
        in_file = frame_lengths(image)  # the parts were joined with their own frame lengths
        assert in_file == durations(len(shots))  # the plan's ms per frame, as encoded
        assert in_file[0] > in_file[1] and in_file[-1] > in_file[-2]  # the start and end linger
    frames = decoded(data)
    # the last frame is the final public board, drawn afresh
    final = board_view(game, table.state, table.names())
    width = frames[-1].width
    assert width in WIDTHS
    fresh = compose(Frame(draw(final), shots[-1].caption), width)
    assert frames[-1].height >= fresh.height  # frames are padded to the tallest board
    assert frames[-1].crop((0, 0, *fresh.size)).tobytes() == fresh.tobytes()  # lossless
    assert difference(frames[-2].crop((0, 0, *fresh.size)), fresh) > 0
    # the parts were joined exactly: each decoded frame is its scene as drawn, wherever it
    # falls in a part (some 20 frames spread over the whole: drawing them all again is slow)
    for index in range(0, len(shots), max(3, len(shots) // 20)):
        drawn = compose(Frame(draw(shots[index].view), shots[index].caption), width)
        assert frames[index].crop((0, 0, *drawn.size)).tobytes() == drawn.tobytes(), index


def test_frames_are_encoded_in_parts_of_more_than_one_frame():
    assert spans(100, 40) == [(0, 40), (40, 80), (80, 100)]
    assert spans(81, 40) == [(0, 40), (40, 81)]  # a lone last frame joins the part before
    assert spans(80, 40) == [(0, 40), (40, 80)]
    assert spans(1, 40) == [(0, 1)]


async def test_a_game_ended_before_any_move_is_one_still_picture(service):
    table = await service.open_lobby("castle", GUILD, CHANNEL, 100, "Ana",
                               seats=[Seat(name="Ana", user_id=100), Seat(name="Bo", user_id=101)])
    await service.lobby(table.id, 100, "Ana", "start")
    await service.end(table.id, 100, can_manage=False)
    row = await service.store.game(table.id)
    shots = scenes(row, await service.store.actions(table.id))
    assert len(shots) == 1 and shots[0].caption == "ended early"
    data = await make(row, [], "webp", here)
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and getattr(image, "n_frames", 1) == 1


async def test_gif_when_pillow_cannot_write_animated_webp(service, monkeypatch):
    table = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    monkeypatch.setattr(replay_module, "animated_webp", lambda: False)
    fmt = replay_format()
    assert fmt == "gif"
    row, actions = await service.store.game(table.id), await service.store.actions(table.id)
    data = await make(row, actions, fmt, here)
    assert data[:6] == b"GIF89a" and len(data) < ATTACHMENT_LIMIT
    shots = scenes(row, actions)
    with Image.open(io.BytesIO(data)) as image:
        assert image.is_animated and image.n_frames == len(shots)
        in_file = frame_lengths(image)
    # the plan's ms per frame, as encoded: GIF headers count centiseconds
    assert in_file == [planned // 10 * 10 for planned in durations(len(shots))]
    # unchanged pixels are transparent, so each frame shows through to the one before: the
    # decoded frames are still whole boards, the last one the final board
    frames = decoded(data)
    width = frames[0].width
    final = board_view(table.game, table.state, table.names())
    fresh = compose(Frame(draw(final), shots[-1].caption), width)
    crops = [f.crop((0, 0, *fresh.size)) for f in frames]
    assert difference(crops[-1], fresh) < 2  # a 255-colour palette, no dithering
    assert difference(crops[-1], fresh) < min(difference(f, fresh) for f in crops[:-1])
    first = compose(Frame(draw(shots[0].view), shots[0].caption), width)
    assert difference(crops[0], first) < 2
    # made in parts, it decodes to the very frames of one GIF made in one piece
    assert len(spans(len(shots), replay_module.PART)) > 2
    images = [compose(Frame(draw(shot.view), shot.caption), width) for shot in shots]
    whole = gif_part(images, durations(len(shots)), gif_palette(images[-1]), frames[0].size,
                     follows=False)
    assert len(whole) < len(data) + 1000  # parts cost no extra frames, only their headers
    assert [f.tobytes() for f in decoded(whole)] == [f.tobytes() for f in frames]


async def test_replays_that_cannot_be_made_say_why(service):
    table = await play_out(service, service.fake_clock, "castle", 2, seed=6)
    row, actions = await service.store.game(table.id), await service.store.actions(table.id)
    with pytest.raises(ReplayError, match="no longer lead to the position"):
        scenes(row, actions[:-3])  # the log and the stored end disagree
    wrong = [*actions[:4], {**actions[4], "action": "fly to the moon"}, *actions[5:]]
    with pytest.raises(ReplayError, match=r"move 5 \('fly to the moon'\) is refused"):
        scenes(row, wrong)
    with pytest.raises(ReplayError, match="still running"):
        scenes({**row, "status": "running"}, actions)
    with pytest.raises(ReplayError, match="no longer has"):
        scenes({**row, "game": "chess"}, actions)


async def test_games_of_an_old_release_replay_or_say_why_not(tmp_path):
    """0.1.0 saved these games (state format 1). Don't Go's log still leads to its stored
    state under today's rules; Atmosfear's and Castle's rules changed since (Castle's seat
    balance opens a door at the start), and their replays are refused with that reason rather
    than drawn wrong."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript((Path(__file__).parent / "data" / "store-0.1.0.sql").read_text())
    conn.execute("UPDATE games SET status = 'ended' WHERE status = 'running'")
    conn.commit()
    conn.close()
    store = Store(path)
    old = {r["game"]: (await store.game(r["id"]), await store.actions(r["id"]))
           for r in await store.finished_games(1)}
    assert sorted(old) == ["atmosfear", "castle", "dontgo"]
    assert all(row["state_format"] is None and actions for row, actions in old.values())
    row, actions = old["dontgo"]
    shots = scenes(row, actions)
    assert len(shots) == len(actions) + 1
    assert shots[-1].caption.endswith("game over")
    with pytest.raises(ReplayError, match=r"no longer lead to the position it ended in .* rules "
                                          r"have changed since"):
        scenes(*old["castle"])
    with pytest.raises(ReplayError, match=r"move 6 \('fly O30'\) is refused by the rules of "
                                          r"this version .* played under an older release"):
        scenes(*old["atmosfear"])
    await store.close()


async def test_the_bot_picks_a_finished_game_of_this_guild(service):
    first = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    second = await play_out(service, service.fake_clock, "dontgo", 2, seed=5)
    elsewhere = await play_out(service, service.fake_clock, "castle", 2, seed=7, channel=99,
                               guild=2)
    running = await service.open_lobby("castle", GUILD, CHANNEL, 100, "Ana", seed=1)
    replays = Replays(service.store, Renderer(workers=0))
    assert (await replays.choose(GUILD, CHANNEL, None))["id"] == second.id  # the latest here
    assert (await replays.choose(GUILD, 555, first.id))["id"] == first.id
    assert [r["id"] for r in await service.store.finished_games(GUILD)] == [second.id, first.id]
    with pytest.raises(ReplayError, match=f"no game #{elsewhere.id} in this server"):
        await replays.choose(GUILD, CHANNEL, elsewhere.id)
    with pytest.raises(ReplayError, match="no game #4242 in this server"):
        await replays.choose(GUILD, CHANNEL, 4242)
    with pytest.raises(ReplayError, match=f"#{running.id} hasn't started yet"):
        await replays.choose(GUILD, CHANNEL, running.id)
    with pytest.raises(ReplayError, match="No game has finished in this channel"):
        await replays.choose(GUILD, 555, None)


async def test_one_build_at_a_time_per_game_and_failures_are_explained(service, monkeypatch):
    table = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    replays = Replays(service.store, Renderer(workers=0))
    row = await replays.choose(GUILD, CHANNEL, None)
    first = asyncio.ensure_future(replays.build(row, "webp"))
    await asyncio.sleep(0)  # the first build is now in the pool
    with pytest.raises(ReplayError, match=f"replay of game #{table.id} is being drawn already"):
        await replays.build(row, "webp")
    assert (await first)[:4] == b"RIFF"
    assert replays.building == set()
    # the job's own refusal comes back as it is; a crash of the job becomes a clear refusal
    with pytest.raises(ReplayError, match="still running"):
        await replays.build({**row, "status": "running"}, "webp")

    def broken(*args):
        raise MemoryError("out of memory")

    monkeypatch.setattr(replay_module, "encode_part", broken)
    with pytest.raises(ReplayError, match=f"replay of game #{table.id} could not be drawn"):
        await replays.build(row, "webp")
    assert replays.building == set()


async def test_a_replay_leaves_room_for_other_boards_in_the_pool(service):
    """The replay goes to the render pool in small jobs: a board asked for meanwhile is drawn
    after at most one of them, not after the whole replay."""
    table = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    renderer = Renderer(workers=1)
    replays = Replays(service.store, renderer)
    row = await replays.choose(GUILD, CHANNEL, table.id)
    jobs: list[tuple[str, int]] = []
    parts: list[bytes] = []
    first_drawing = asyncio.Event()
    job = renderer.job

    async def spy(fn, *args, **kwargs):
        if fn.__name__ == "encode_part":
            jobs.append((fn.__name__, len(args[2])))  # a duration per frame drawn
            first_drawing.set()
            parts.append(await job(fn, *args, **kwargs))
            return parts[-1]
        jobs.append((fn.__name__, 0))
        return await job(fn, *args, **kwargs)

    renderer.job = spy
    try:
        replay = asyncio.ensure_future(replays.build(row, "webp"))
        await asyncio.wait_for(first_drawing.wait(), 60)  # fails, never hangs
        board = await renderer.png(board_view(table.game, table.state, table.names()))
        assert board[:4] == b"\x89PNG" and not replay.done()
        data = await replay
    finally:
        await asyncio.to_thread(renderer.close)
    frames = len(scenes(row, await service.store.actions(table.id)))
    runs = spans(frames, replay_module.PART)
    assert len(runs) > 1  # the file is made in parts
    # each job draws its part and the frame before it (to encode its part as changes from it)
    assert jobs == [("outline", 0), *[("encode_part", end - start + (start > 0))
                                      for start, end in runs]]
    # what comes back to the bot is the file itself, in pieces: no pictures
    assert all(isinstance(part, bytes) for part in parts)
    assert len(data) <= sum(map(len, parts)) < len(data) + 100 * len(parts)
    assert decoded(data)[0].width == WIDTHS[0]


async def test_a_frame_taller_than_the_canvas_makes_the_parts_again(service, monkeypatch):
    """The canvas starts as tall as the last frame; a board that was taller earlier in the game
    makes the parts be encoded again on a canvas of its height."""
    table = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    row, actions = await service.store.game(table.id), await service.store.actions(table.id)
    plan = outline(row, actions, WIDTHS[0])
    shots = scenes(row, actions)
    height = compose(Frame(draw(shots[0].view), shots[0].caption), WIDTHS[0]).height
    with pytest.raises(TallerFrame) as taller:
        encode_part(plan.parts[0], False, durations(len(shots))[:replay_module.PART],
                    (WIDTHS[0], 40), "webp", plan.palette)
    assert taller.value.height == height
    calls: list[str] = []

    async def short_canvas(fn, *args):
        calls.append(fn.__name__)
        if fn is outline:
            return dataclasses.replace(fn(*args), height=40)
        return fn(*args)

    data = await make(row, actions, "webp", short_canvas)
    assert decoded(data)[0].size == (WIDTHS[0], height)
    assert calls.count("outline") == 1 and calls.count("encode_part") > len(plan.parts)
    assert data == await make(row, actions, "webp", here)
    # through the bot's render pool too: the jobs' TallerFrame comes back as it is
    monkeypatch.setattr(replay_module, "outline",
                        lambda *args: dataclasses.replace(outline(*args), height=40))
    replays = Replays(service.store, Renderer(workers=0))
    assert await replays.build(row, "webp") == data


async def cli(args: list[str]) -> int:
    """`gatekeeper ...` (in a thread: the CLI runs an event loop of its own)."""
    return await asyncio.to_thread(cli_main, args)


async def test_cli_writes_a_replay_by_the_file_extension(service, tmp_path, capsys):
    table = await play_out(service, service.fake_clock, "castle", 2, seed=1)
    db = service.store.path  # the service still holds the database: the CLI only reads it
    out = tmp_path / "castle.gif"
    assert await cli(["replay", str(table.id), "-o", str(out), "--db", str(db)]) == 0
    assert out.read_bytes()[:6] == b"GIF89a"
    assert f"wrote {out}" in capsys.readouterr().out
    webp = tmp_path / "castle.webp"
    assert await cli(["replay", str(table.id), "-o", str(webp), "--db", str(db)]) == 0
    assert decoded(webp.read_bytes())[0].size == decoded(out.read_bytes())[0].size

    assert await cli(["replay", "4242", "-o", str(webp), "--db", str(db)]) == 2
    assert "There is no game #4242" in capsys.readouterr().err
    missing = str(tmp_path / "nope.db")
    assert await cli(["replay", "1", "-o", str(webp), "--db", missing]) == 2
    assert "There is no database at" in capsys.readouterr().err
    png = str(tmp_path / "x.png")
    assert await cli(["replay", str(table.id), "-o", png, "--db", str(db)]) == 2
    assert ".webp or .gif" in capsys.readouterr().err
    running = await service.open_lobby("castle", GUILD, CHANNEL, 100, "Ana", seed=1)
    assert await cli(["replay", str(running.id), "-o", str(webp), "--db", str(db)]) == 2
    assert "hasn't started yet" in capsys.readouterr().err


def test_a_part_after_a_frame_libwebp_would_clear_starts_from_a_whole_frame(monkeypatch):
    """A part is stored as changes from the previous part's last frame; should libwebp mark
    that frame "dispose to background" (the joined file would clear it, the previous part did
    not), the part is encoded again on its own, and the joined file still shows every frame."""
    colours = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40), (40, 220, 220)]
    images = []
    for n, colour in enumerate(colours):
        image = Image.new("RGB", (64, 48), (250, 250, 250))
        image.paste(colour, (8 * n, 4 * n, 8 * n + 20, 4 * n + 16))
        images.append(image)
    times = [300, 200, 200, 200, 900]
    encode = render_replay._animated_webp
    encoded: list[int] = []

    def clears_first_frame(frames, durations_):
        data = encode(frames, durations_)
        encoded.append(len(frames))
        if len(encoded) == 2:  # the second part, encoded after the first part's last frame
            flags = data.index(b"ANMF") + 8 + 15
            data = data[:flags] + bytes([data[flags] | 1]) + data[flags + 1:]
        return data

    monkeypatch.setattr(render_replay, "_animated_webp", clears_first_frame)
    first = render_replay.webp_part(images[:2], times[:2], (64, 48), follows=False)
    second = render_replay.webp_part(images[1:], times[1:], (64, 48), follows=True)
    assert encoded == [2, 4, 3]  # encoded again without the frame before it
    joined = render_replay.join_webp([first, second])
    with Image.open(io.BytesIO(joined)) as image:
        assert image.n_frames == 5
    assert [f.tobytes() for f in decoded(joined)] == [im.tobytes() for im in images]
    monkeypatch.undo()
    # without the flag, the part leaves that frame out, its first frame is only what changed
    # since, and the join is as exact
    second = render_replay.webp_part(images[1:], times[1:], (64, 48), follows=True)
    frames = [chunk[8:] for tag, chunk in render_replay._riff_chunks(second) if tag == "ANMF"]
    assert len(frames) == 3
    width, height = (int.from_bytes(frames[0][at:at + 3], "little") + 1 for at in (6, 9))
    assert width * height < 64 * 48
    assert [f.tobytes() for f in decoded(render_replay.join_webp([first, second]))] \
        == [im.tobytes() for im in images]

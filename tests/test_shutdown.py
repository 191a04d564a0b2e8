"""Stopping: SIGTERM (docker stop) and SIGINT (Ctrl-C) stop `gatekeeper run` cleanly; the render
pool's workers exit with it, and one that dies early is replaced.

The real command runs as a subprocess against the fake Discord served by this test's event loop:
it plays a game (so its render worker has drawn a board), then gets the signal, and must exit 0
within 10 s leaving no child process behind, its database closed and its heartbeat removed.
In-process: a click in flight when close() starts still finishes; new ones are turned away.
"""
from __future__ import annotations

import asyncio
import gc
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

import games
from bot.app import GatekeeperBot
from data.locales import text
from fakediscord import FakeDiscord
from sandbox.harness import BotHarness, until
from bot.rendering import Renderer
from bot.simulate import play
from games.core import Rng, decide
from tests.harness import InThreadHarness, Players

STOP_WITHIN = 10.0  # seconds: docker stop's grace period


def gatekeeper_command() -> list[str]:
    script = shutil.which("gatekeeper", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "bot"]


def children_of(pid: int) -> set[int]:
    """Live processes whose parent is `pid` (read from /proc; psutil is not a dependency)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = process_stat(int(entry.name))
            if stat is not None and stat[1] == pid and stat[0] != "Z":
                found.add(int(entry.name))
    return found


def process_stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid), or None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]  # the command name may hold spaces
    return state, int(ppid)


def gone(pid: int) -> bool:
    stat = process_stat(pid)
    return stat is None or stat[0] in ("Z", "X")  # exited (a zombie has nothing left running)


async def eventually(predicate, deadline: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def gatekeeper_health(env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(*gatekeeper_command(), "health", env=env,
                                                stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return proc.returncode, out.decode()


@pytest.mark.parametrize("how", ["SIGTERM to the process", "SIGINT to the process group",
                                 "SIGKILL to the process"])
async def test_a_signal_stops_gatekeeper_run_cleanly(fake_discord: FakeDiscord, tmp_path: Path,
                                                     how: str):
    fake = fake_discord
    guild = fake.add_guild("Board Games")
    channel = fake.add_channel(guild.id, "games")
    ana = fake.add_user("Ana")
    fake.add_member(guild.id, ana.id)
    db = tmp_path / "gatekeeper.db"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GATEKEEPER_", "DISCORD_")) and k != "PYTHONPATH"}
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base,
               DISCORD_GATEWAY_URL=fake.gateway_url, GATEKEEPER_DB=str(db),
               GATEKEEPER_RENDER_WORKERS="1", GATEKEEPER_AI_DELAY="0.05")
    log = tmp_path / "gatekeeper.log"  # a file, not a pipe: no waiting on the workers' copies
    heartbeat = Path(f"{db}.heartbeat")
    loop = asyncio.get_running_loop()
    children: set[int] = set()
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            *gatekeeper_command(), "run", env=env, stdout=out, stderr=out, start_new_session=True)
    try:
        await fake.wait_commands(timeout=60)
        await eventually(lambda: heartbeat.exists() or proc.returncode is not None,
                         loop.time() + 60, "the first heartbeat")
        assert proc.returncode is None, log.read_text()
        code, why = await gatekeeper_health(env)
        assert code == 0 and why.startswith("ok: heartbeat"), why

        # Play: a lobby, an AI opponent, start; the board comes from the render worker.
        ix = await fake.slash(ana.id, channel.id, "play", {"game": "castle"})
        lobby = await ix.wait_original(lambda m: bool(m.buttons()))
        for op in ("ai", "start"):
            def enabled(op=op):  # Start is enabled once the AI has sat down
                return next((cid for cid, _, disabled in fake.messages[lobby.id].buttons()
                             if cid.endswith(f":lobby:{op}") and not disabled), None)
            custom_id = await fake.wait_for(enabled, timeout=10, what=f"the {op} button")
            await (await fake.click(ana.id, lobby.id, custom_id)).response()
        await fake.wait_for(lambda: any(name == "board.png" for m in fake.channel_messages(channel.id)
                                        for name, _ in m.attachments), timeout=30, what="a board")
        children = children_of(proc.pid)
        assert children, "the render worker should be running"

        if how.startswith("SIGTERM"):
            proc.send_signal(signal.SIGTERM)
        elif how.startswith("SIGKILL"):
            proc.kill()  # no shutdown at all: the workers must notice on their own
        else:
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        deadline = loop.time() + STOP_WITHIN
        returncode = await asyncio.wait_for(proc.wait(), STOP_WITHIN)
        text = log.read_text()
        await eventually(lambda: all(gone(pid) for pid in children), deadline,
                         f"the children {children} to exit")
        if how.startswith("SIGKILL"):
            assert returncode == -signal.SIGKILL, text
            return
        assert returncode == 0, text
    finally:  # if it failed, take down the bot and anything it started
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
        for pid in children:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
    assert "Traceback" not in text, text
    assert "shutdown: done" in text
    assert not heartbeat.exists()
    code, why = await gatekeeper_health(env)
    assert code == 1 and why.startswith("unhealthy: no heartbeat"), why
    assert not Path(f"{db}-wal").exists(), "the database was not closed"  # SQLite removes it


async def test_close_finishes_the_click_in_flight_and_turns_new_ones_away(
        fake_discord: FakeDiscord, tmp_path: Path):
    fake = fake_discord
    harness = BotHarness(fake, tmp_path / "gatekeeper.db")
    players = Players(fake, harness, ["Ana", "Bo"])
    await harness.start()
    try:
        table = await players.start_game("Ana", ["Bo"])
        bot = harness.bot
        # Hold the next publish: the move is committed, its board not yet out.
        entered, release, published = asyncio.Event(), asyncio.Event(), []
        publish = bot.publisher.publish

        async def held(snapshot):
            entered.set()
            await release.wait()
            await publish(snapshot)
            published.append(snapshot.table.version)

        bot.publisher.publish = held
        mover = players.mover(table)
        seat = table.game.to_move(table.state)
        action = decide(table.game, table.state, seat, Rng(1), "random")
        board = players.current_board(table)
        moving = await fake.slash(players.users[mover], players.channel.id, "move",
                                  {"action": action})
        await entered.wait()

        closing = asyncio.create_task(bot.close())
        await until(lambda: not bot.accepting, what="the bot to stop taking interactions")
        other = next(name for name in players.users if name != mover)
        command = await fake.slash(players.users[other], players.channel.id, "hand", {})
        answer = await command.response()
        assert answer.ephemeral and answer.message.content == text("en", "error.restarting")
        button = next(cid for cid, _, _ in board.buttons())
        click = await fake.click(players.users[other], board.id, button, force=True)
        answer = await click.response()
        assert answer.ephemeral and answer.message.content == text("en", "error.restarting")
        assert not closing.done()  # still waiting for the move in flight

        release.set()
        await closing
        assert published == [table.version]
        done = await moving.wait_answer()
        assert done.content == f"Done: `{action}`."
        assert bot.is_closed() and bot.renderer.pool is None
    finally:
        await harness.stop()


async def test_a_running_bot_keeps_its_heap_from_the_collector_and_hands_it_back(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """What the bot loaded is frozen (full collections skip it) while it runs, and handed back
    to the collector when it stops (the rest of the suite runs with this off: conftest.py)."""
    monkeypatch.setattr(GatekeeperBot, "freeze_heap", True)
    harness = InThreadHarness(fake_discord, tmp_path / "gatekeeper.db")
    assert gc.get_freeze_count() == 0
    await harness.start()
    try:
        assert gc.get_freeze_count() > 10_000  # the libraries and the bot, at least
    finally:
        await harness.stop()
    assert gc.get_freeze_count() == 0


async def test_renderer_close_leaves_no_worker_running():
    renderer = Renderer(workers=2)
    renderer.warm()
    assert renderer.pool is not None
    pids = await asyncio.gather(*(asyncio.wrap_future(renderer.pool.submit(os.getpid))
                                  for _ in range(4)))
    assert os.getpid() not in pids  # served by worker processes
    workers = list(renderer.pool._processes.values())
    assert workers
    await asyncio.to_thread(renderer.close)
    assert renderer.pool is None
    assert all(not w.is_alive() and w.exitcode is not None for w in workers)


async def test_a_dead_render_worker_is_replaced():
    game = games.get("castle")
    view = game.view(play("castle", 2, 7, max_actions=10), None)
    view["names"] = ["Ana", "Bo"]
    renderer = Renderer(workers=1)
    try:
        (pid,) = {await asyncio.wrap_future(renderer.pool.submit(os.getpid))}
        broken = renderer.pool
        os.kill(pid, signal.SIGKILL)  # as the OOM killer would
        png = await renderer.png(view)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert renderer.pool is not broken
        assert await asyncio.wrap_future(renderer.pool.submit(os.getpid)) != pid
    finally:
        await asyncio.to_thread(renderer.close)

"""Two real `gatekeeper run` processes, each with its own shards, sharing one PostgreSQL database
and the fake Discord's gateway: games in guilds of both shards are played to the end by clicks;
one process is SIGKILLed mid-game and restarted; then both are restarted with 4 shards instead of
2, and the games in progress move to their new owners. Nothing is lost or applied twice.

The test reads only what a person or an operator could: the fake Discord's messages and the
database (the processes' memory is out of reach)."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import games
from bot.clock import RealClock
from bot.fakediscord import FakeDiscord
from bot.store import Shards, Store
from bot.table import Seat, TableService
from games.core import Game, Rng, State, decide
from tests.test_storage import Quiet, guild_on_shard

POLL = 0.02  # seconds between looks at the database while waiting on a condition


async def until(check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Wait for check() to return something truthy (a condition, never a fixed sleep)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := check()):
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(POLL)
    return value


class Bot:
    """One `gatekeeper run` subprocess serving `shards`, its output kept in a log file."""

    def __init__(self, name: str, fake: FakeDiscord, url: str, shards: Shards, home: Path) -> None:
        self.name, self.fake, self.shards = name, fake, shards
        self.home = home / name  # its own working folder: the heartbeat lives there
        self.home.mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
                    "DISCORD_GATEWAY_URL": fake.gateway_url, "GATEKEEPER_DB": url,
                    "GATEKEEPER_SHARD_COUNT": str(shards.count),
                    "GATEKEEPER_SHARD_IDS": ",".join(map(str, shards.ids or ())),
                    "GATEKEEPER_AI_DELAY": "0", "GATEKEEPER_RENDER_WORKERS": "0"}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def live_shards(self) -> set[int]:
        """Its shards that have a connected gateway session."""
        return {s.shard_id for s in self.fake._sessions.values()
                if s.conn is not None and not s.dead and s.shard_count == self.shards.count
                and s.shard_id in (self.shards.ids or ())}

    async def start(self) -> None:
        """Start, and wait until every one of its shards is connected (its games are loaded
        before it connects: discord.py runs setup_hook first)."""
        self.starts += 1
        log = open(self.home / f"run-{self.starts}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=self.home,
                                     env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        await until(lambda: set(self.shards.ids or ()) <= self.live_shards()
                    or self.proc.poll() is not None, f"{self.name} to connect")
        assert self.proc.poll() is None, self.output()

    async def stop(self, how: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(how)
        code = await asyncio.to_thread(self.proc.wait, 30)
        assert code == (-signal.SIGKILL if how == signal.SIGKILL else 0), self.output()
        await until(lambda: not self.live_shards(), f"{self.name}'s gateway sessions to close")

    def kill_quietly(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def output(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.home.glob("run-*.log")))


@dataclass
class Saved:
    """A game as the database holds it (what any process would load)."""
    row: dict[str, Any]
    game: Game
    state: State

    @classmethod
    def read(cls, db: Store, game_id: int) -> "Saved":
        row = db.game(game_id)
        return cls(row, games.get(row["game"]), State.from_json(row["state"]))

    def person_to_move(self) -> int | None:
        seat = self.game.to_move(self.state)
        return None if seat is None or self.row["seats"][seat]["ai"] else seat


class Person:
    """Clicks what a person sees on a game's board, deciding with the AI's own choice."""

    def __init__(self, fake: FakeDiscord, db: Store) -> None:
        self.fake, self.db = fake, db
        self.clicked: dict[int, list[str]] = {}  # game id -> the actions clicked, in order

    def board(self, game_id: int, version: int) -> Any:
        """The board message showing `version`, once the bot has posted it."""
        self.db.forget(game_id)  # another process writes these rows: no cached ids
        ids = self.db.messages(game_id).get("board")
        if ids is None or self.db.shown_version(game_id) != version:
            return None
        message = self.fake.messages.get(ids[1])
        return message if message is not None and message.buttons() else None

    def my_turn(self, game_id: int) -> tuple[Saved, Any] | None:
        """(game, board) when a person is to move and sees the current board, or the game
        over; None while the AI moves or the bot is catching up."""
        saved = Saved.read(self.db, game_id)
        if saved.row["status"] != "running":
            return saved, None
        if saved.person_to_move() is None:
            return None
        board = self.board(game_id, saved.row["version"])
        return (saved, board) if board is not None else None

    async def move(self, game_id: int) -> bool:
        """Play the next human move by clicks; False when the game is over."""
        saved, board = await until(lambda: self.my_turn(game_id), f"a human turn in {game_id}")
        if saved.row["status"] != "running":
            return False
        version, seat = saved.row["version"], saved.person_to_move()
        user = saved.row["seats"][seat]["user_id"]
        action = decide(saved.game, saved.state, seat, Rng(version + 11))
        prompt = saved.game.prompt(saved.state, seat)
        choice = next(c for c in prompt.choices if c.action == action)
        mine = [(cid, label) for cid, label, _ in board.buttons()
                if cid and cid.split(":")[2] == str(seat)]
        direct = [cid for cid, label in mine if label == choice.label]
        if not prompt.private and direct:
            await (await self.fake.click(user, board.id, direct[0])).response(15)
        else:
            opener = next(cid for cid, label in mine if label.lower().endswith("take my turn"))
            panel = (await (await self.fake.click(user, board.id, opener)).response(15)).message
            for step in choice.path:
                panel = self.fake.messages[panel.id]
                button = next((cid for cid, label, _ in panel.buttons()
                               if label == step.label[:80]), None)
                if button is not None:
                    ix = await self.fake.click(user, panel.id, button)
                else:  # a long list of choices comes as a select
                    custom_id, value = next((cid, value) for cid, options in panel.selects()
                                            for value, label in options
                                            if label == step.label[:100])
                    ix = await self.fake.select(user, panel.id, custom_id, [value])
                await ix.response(15)
        await until(lambda: self.db.game(game_id)["version"] > version,
                    f"{action!r} to be saved in game {game_id}")
        self.clicked.setdefault(game_id, []).append(action)
        return True

    async def play_to_end(self, game_id: int) -> None:
        while await self.move(game_id):
            pass


async def new_game(db: Store, fake: FakeDiscord, guild_id: int, seed: int) -> int:
    """A running castle game (one person, one AI) in a new guild: made through the table
    service, with a fixed seed, before the bots start, so every run plays the same game."""
    guild = fake.add_guild(f"guild {seed}", id=guild_id)
    channel = fake.add_channel(guild.id, "games")
    person = fake.add_user(f"Player {seed}")
    fake.add_member(guild.id, person.id)
    service = TableService(db, Quiet(), RealClock())  # turns count from now, as in the bots
    table = service.open_lobby("castle", guild.id, channel.id, person.id, person.name, seed=seed,
                               seats=[Seat(person.name, person.id), Seat("AI 1", ai=True)])
    await service.lobby(table.id, person.id, person.name, "start")
    await service.close()
    return table.id


def assert_log_whole(db: Store, game_id: int, clicked: list[str]) -> None:
    """Every saved version has exactly one action row, every click counted once, in order."""
    row, actions = db.game(game_id), db.actions(game_id)
    assert [a["seq"] for a in actions] == list(range(1, row["version"] + 1))
    clicks = [a for a in actions if a["interaction_id"] is not None]
    assert len({a["interaction_id"] for a in clicks}) == len(clicks)
    assert [a["action"] for a in actions if a["user_id"] is not None] == clicked


async def test_two_processes_share_one_database_survive_a_kill_and_a_reshard(
        postgres_url, tmp_path):
    fake = FakeDiscord(interaction_timeout=15.0)
    await fake.start()
    db = Store(postgres_url)
    # Both games change owner at the reshard: shard 2 of 4 was shard 0 of 2, 1 of 4 was 1 of 2.
    first = await new_game(db, fake, guild_on_shard(2, 4), seed=3)  # process a, then process d
    second = await new_game(db, fake, guild_on_shard(1, 4), seed=5)  # process b, then process c
    bots = [Bot("a", fake, postgres_url, Shards(2, (0,)), tmp_path),
            Bot("b", fake, postgres_url, Shards(2, (1,)), tmp_path)]
    person = Person(fake, db)
    try:
        for bot in bots:
            await bot.start()
        for _ in range(3):
            await person.move(first)
            await person.move(second)
        await bots[0].stop(signal.SIGKILL)  # mid-game, right after a saved move
        await bots[0].start()
        for _ in range(2):
            await person.move(first)
            await person.move(second)
        before = {game: db.game(game)["version"] for game in (first, second)}
        assert all(db.game(game)["status"] == "running" for game in before)

        for bot in bots:
            await bot.stop(signal.SIGTERM)
        bots += [Bot("c", fake, postgres_url, Shards(4, (0, 1)), tmp_path),
                 Bot("d", fake, postgres_url, Shards(4, (2, 3)), tmp_path)]
        for bot in bots[2:]:
            await bot.start()
        assert {game: db.game(game)["version"] for game in before} == before  # none lost
        await asyncio.gather(person.play_to_end(first), person.play_to_end(second))

        for game in (first, second):
            assert db.game(game)["status"] == "over"
            assert_log_whole(db, game, person.clicked[game])
        assert "loaded games=1" in bots[2].output() and "loaded games=1" in bots[3].output()
        for bot in bots[2:]:
            await bot.stop(signal.SIGTERM)
    except BaseException:
        for bot in bots:
            print(f"--- {bot.name} ---\n{bot.output()[-3000:]}")
        raise
    finally:
        for bot in bots:
            bot.kill_quietly()
        db.close()
        await fake.stop()

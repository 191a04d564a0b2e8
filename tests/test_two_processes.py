"""Two real `gatekeeper run` processes, each with its own shards, sharing one PostgreSQL database
and the fake Discord's gateway: games in guilds of both shards are played to the end by clicks;
one process is SIGKILLed mid-game and restarted; then both are restarted with 4 shards instead of
2, and the games in progress move to their new owners. Nothing is lost or applied twice.

The test reads only what a person or an operator could: the fake Discord's messages and the
database (the processes' memory is out of reach)."""
from __future__ import annotations

import asyncio
import signal
from typing import Any, Awaitable, Callable

from bench.soak import BotProcess, Saved, click_move, guild_on_shard, open_game
from fakediscord import FakeDiscord, Interaction
from bot.store import Shards, Store
from bot.table import Seat
from games.core import Rng, decide

POLL = 0.02  # seconds between looks at the database while waiting on a condition


async def until(check: Callable[[], Awaitable[Any]], what: str, timeout: float = 30.0) -> Any:
    """Wait for check() (it reads the database) to return something truthy (a condition,
    never a fixed sleep)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := await check()):
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(POLL)
    return value


class Bot(BotProcess):
    """A `gatekeeper run` process of this test: it must stop the way it was told to."""

    async def stop(self, how: signal.Signals) -> int:
        code = await super().stop(how)
        assert code == (-signal.SIGKILL if how == signal.SIGKILL else 0), self.output()
        return code


class Person:
    """Clicks what a person sees on a game's board, deciding with the AI's own choice."""

    def __init__(self, fake: FakeDiscord, db: Store) -> None:
        self.fake, self.db = fake, db
        self.clicked: dict[int, list[str]] = {}  # game id -> the actions clicked, in order

    async def board(self, game_id: int, version: int) -> Any:
        """The board message showing `version`, once the bot has posted it."""
        await self.db.load_messages([game_id])  # another process writes these rows: read them
        ids = self.db.messages(game_id).get("board")
        if ids is None or self.db.shown_version(game_id) != version:
            return None
        message = self.fake.messages.get(ids[1])
        return message if message is not None and message.buttons() else None

    async def my_turn(self, game_id: int) -> tuple[Saved, Any] | None:
        """(game, board) when a person is to move and sees the current board, or the game
        over; None while the AI moves or the bot is catching up."""
        saved = await Saved.read(self.db, game_id)
        if saved.row["status"] != "running":
            return saved, None
        if saved.person_to_move() is None:
            return None
        board = await self.board(game_id, saved.row["version"])
        return (saved, board) if board is not None else None

    async def move(self, game_id: int) -> bool:
        """Play the next human move by clicks; False when the game is over."""
        saved, board = await until(lambda: self.my_turn(game_id), f"a human turn in {game_id}")
        if saved.row["status"] != "running":
            return False
        version, seat = saved.row["version"], saved.person_to_move()
        action = decide(saved.game, saved.state, seat, Rng(version + 11))
        await click_move(self.fake, saved, seat, board, action, self.answered)
        async def saved_it() -> bool:
            return (await self.db.game(game_id))["version"] > version
        await until(saved_it, f"{action!r} to be saved in game {game_id}")
        self.clicked.setdefault(game_id, []).append(action)
        return True

    @staticmethod
    async def answered(ix: Interaction) -> Any:
        return await ix.response(15)

    async def play_to_end(self, game_id: int) -> None:
        while await self.move(game_id):
            pass


async def new_game(db: Store, fake: FakeDiscord, guild_id: int, seed: int) -> int:
    """A running castle game (one person, one AI) in a new guild, written to the database
    before the bots start, so every run plays the same game."""
    guild = fake.add_guild(f"guild {seed}", id=guild_id)
    channel = fake.add_channel(guild.id, "games")
    person = fake.add_user(f"Player {seed}")
    fake.add_member(guild.id, person.id)
    return await open_game(db, "castle", guild.id, channel.id,
                           [Seat(person.name, person.id), Seat("AI 1", ai=True)], seed)


async def assert_log_whole(db: Store, game_id: int, clicked: list[str]) -> None:
    """Every saved version has exactly one action row, every click counted once, in order."""
    row, actions = await db.game(game_id), await db.actions(game_id)
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
    first = await new_game(db, fake, guild_on_shard(2, 4, 1), seed=3)  # process a, then process d
    second = await new_game(db, fake, guild_on_shard(1, 4, 1), seed=5)  # process b, then process c
    bots = [Bot("a", fake, postgres_url, Shards(2, (0,)), tmp_path),
            Bot("b", fake, postgres_url, Shards(2, (1,)), tmp_path)]
    person = Person(fake, db)
    try:
        await asyncio.gather(*(bot.start() for bot in bots))  # as a deployment starts them
        for _ in range(3):
            await person.move(first)
            await person.move(second)
        await bots[0].stop(signal.SIGKILL)  # mid-game, right after a saved move
        await bots[0].start()
        for _ in range(2):
            await person.move(first)
            await person.move(second)
        before = {game: (await db.game(game))["version"] for game in (first, second)}
        assert all([(await db.game(game))["status"] == "running" for game in before])

        await asyncio.gather(*(bot.stop(signal.SIGTERM) for bot in bots))
        bots += [Bot("c", fake, postgres_url, Shards(4, (0, 1)), tmp_path),
                 Bot("d", fake, postgres_url, Shards(4, (2, 3)), tmp_path)]
        await asyncio.gather(*(bot.start() for bot in bots[2:]))
        assert {game: (await db.game(game))["version"] for game in before} == before  # none lost
        await asyncio.gather(person.play_to_end(first), person.play_to_end(second))

        for game in (first, second):
            assert (await db.game(game))["status"] == "over"
            await assert_log_whole(db, game, person.clicked[game])
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
        await db.close()
        await fake.stop()

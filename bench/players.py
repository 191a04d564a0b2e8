"""The fake Discord and the people playing on it, in a process of their own, for the move
benchmark (bench.harness): the bot's event loop then does only the bot's work, as in
production, so its own time per move and its loop's lateness are the bot's alone.

The process builds the world (a guild per CHANNELS_PER_GUILD games, a channel and two people per
game), tells the bot's process where its Discord is, and waits for orders over a pipe. To play
it needs no view of the bot's memory: the games are deterministic, so each player's process
keeps a mirror of every table (set up from the table's seed and options, then every move it
sends applied to it) and picks its moves from the mirror.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import games
from fakediscord import FakeDiscord, Message
from sandbox.harness import is_board
from games.core import Rng, State, apply, decide, setup

CHANNELS_PER_GUILD = 100
BOARD_WITHIN = 10.0  # seconds a move's board may take before it counts as an error


@dataclass
class Mirror:
    """A table as its players see it: where it is played, who sits where, the game's state."""
    table_id: int
    channel_id: int
    users: list[int]  # by seat
    state: State


class Players:
    """People on the fake Discord, `seats` per game, playing typed `/move`s."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.arrived: dict[int, asyncio.Event] = {}  # channel -> its board came, while awaited
        fake.on_public_message = self.seen

    def seen(self, message: Message) -> None:
        waiting = self.arrived.get(message.channel_id)
        if waiting is not None and is_board(message):
            waiting.set()

    def world(self, games_count: int, seats: int) -> list[tuple[int, int, list[int]]]:
        """Guilds, channels and people: (guild, channel, users) per game."""
        built = []
        guild = None
        for index in range(games_count):
            if index % CHANNELS_PER_GUILD == 0:
                guild = self.fake.add_guild(f"g{index}")
            channel = self.fake.add_channel(guild.id, f"c{index}")
            users = []
            for n in range(seats):
                user = self.fake.add_user(f"u{index}-{n}")
                self.fake.add_member(guild.id, user.id)
                users.append(user.id)
            built.append((guild.id, channel.id, users))
        return built

    async def move(self, table: Mirror, errors: list[str]) -> float | None:
        """One move by whoever is to move: milliseconds from the slash command leaving the
        client to the table's board reaching the fake Discord (a post or an edit)."""
        game = games.get(table.state.game)
        seat = game.to_move(table.state)
        if seat is None or table.state.over:
            return None
        action = decide(game, table.state, seat, Rng(table.state.version), "random")
        arrived = self.arrived[table.channel_id] = asyncio.Event()
        start = time.perf_counter()
        ix = await self.fake.slash(table.users[seat], table.channel_id, "move",
                                   {"action": action})
        table.state = apply(game, table.state, seat, action).state
        try:
            await asyncio.wait_for(arrived.wait(), BOARD_WITHIN)
        except asyncio.TimeoutError:
            errors.append(f"game {table.table_id}: no board after {action!r}: {ix.errors}")
            return None
        finally:
            self.arrived.pop(table.channel_id, None)
        return (time.perf_counter() - start) * 1000

    async def drive(self, tables: list[Mirror], moves: int,
                    rate: float) -> tuple[list[float], list[str]]:
        """Send `moves` moves at `rate` per second in all, round-robin over idle games."""
        latencies: list[float] = []
        errors: list[str] = []
        busy: set[int] = set()
        tasks = []

        async def one(table: Mirror) -> None:
            busy.add(table.table_id)
            try:
                latency = await self.move(table, errors)
                if latency is not None:
                    latencies.append(latency)
            finally:
                busy.discard(table.table_id)

        start = time.perf_counter()
        cursor = 0
        for sent in range(moves):
            await asyncio.sleep(max(0.0, start + sent / rate - time.perf_counter()))
            for _ in range(len(tables)):
                table = tables[cursor % len(tables)]
                cursor += 1
                if table.table_id not in busy and not table.state.over:
                    tasks.append(asyncio.create_task(one(table)))
                    break
        await asyncio.gather(*tasks)
        return latencies, errors


def mirror(table_id: int, channel_id: int, game: str, seed: int, options: dict[str, Any],
           users: list[int]) -> Mirror:
    """A table freshly started by the bot, set up the way the bot set it up."""
    return Mirror(table_id, channel_id, users, setup(games.get(game), len(users), options, seed))


async def serve(pipe: Connection, games_count: int, seats: int, latency: float) -> None:
    fake = FakeDiscord(keep_attachment_bytes=False, latency=latency)
    await fake.start()
    players = Players(fake)
    try:
        pipe.send({"token": fake.token, "api_base": fake.api_base,
                   "gateway_url": fake.gateway_url, "world": players.world(games_count, seats)})
        while True:
            order = await asyncio.to_thread(pipe.recv)
            if order["op"] == "wait_commands":
                await fake.wait_commands()
                pipe.send({})
            elif order["op"] == "drive":
                tables = [mirror(*table) for table in order["tables"]]
                latencies, errors = await players.drive(tables, order["moves"], order["rate"])
                pipe.send({"latencies": latencies, "errors": errors})
            else:  # "stop"
                return
    finally:
        await fake.stop()


def main(pipe: Connection, games_count: int, seats: int, latency: float) -> None:
    asyncio.run(serve(pipe, games_count, seats, latency))


class PlayersProcess:
    """The bot's handle on the players' process: where its Discord is (for BotHarness and
    patch_discord), the world it built, and its orders, awaited off the event loop."""

    def __init__(self, games_count: int, seats: int, latency: float) -> None:
        self.args = (games_count, seats, latency)

    async def __aenter__(self) -> "PlayersProcess":
        context = multiprocessing.get_context("spawn")  # no copy of the bot's running loop
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=main, args=(theirs, *self.args), daemon=True,
                                       name="bench-players")
        self.process.start()
        theirs.close()
        hello = await self._answer()
        self.token = hello["token"]
        self.api_base = hello["api_base"]
        self.gateway_url = hello["gateway_url"]
        self.world: list[tuple[int, int, list[int]]] = hello["world"]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        try:
            self.pipe.send({"op": "stop"})
        except (BrokenPipeError, OSError):
            pass
        await asyncio.to_thread(self.process.join, 30)
        if self.process.is_alive():
            self.process.kill()
        self.pipe.close()

    async def _answer(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.pipe.recv)  # EOFError if the process died

    async def wait_commands(self) -> None:
        """As FakeDiscord.wait_commands: the bot's commands have reached Discord."""
        self.pipe.send({"op": "wait_commands"})
        await self._answer()

    async def drive(self, tables: list[tuple[Any, ...]], moves: int,
                    rate: float) -> tuple[list[float], list[str]]:
        """Players.drive in their process; `tables`: the arguments of `mirror` per table."""
        self.pipe.send({"op": "drive", "tables": tables, "moves": moves, "rate": rate})
        answer = await self._answer()
        return answer["latencies"], answer["errors"]

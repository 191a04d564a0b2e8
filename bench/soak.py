"""Soak: many concurrent games played by clicks against real `gatekeeper run` processes, under
Discord failures, gateway disconnects and SIGKILL restarts; then four checks that must be zero.

The soak process runs the fake Discord on 127.0.0.1 and starts the bot as `gatekeeper run`
subprocesses aimed at it (one on SQLite; two on PostgreSQL, each with one of two shards). Its
games (two kinds, bench.scenarios, people in every seat) are opened in the database before
the bot starts, as the two-process test does. Clickers play them through the fake's control
API: half at machine pace (a click as soon as the board shows the move), half like people (a
seeded 0.5-3 s think first). Meanwhile the fake answers a share of the bot's REST requests with
429 (retry-after), 500 or 503, some users refuse DMs (50007), the gateway is cut (the bot
resumes), and a bot process is SIGKILLed at random moments and started again.

Checked at the end (bench.soak.Soak.check):
- lost: a turn on which a click was accepted (answered with a deferred update) and the game
  moved on, but the move saved for that turn is not one of that turn's clicks;
- applied twice: an interaction with more than one action row, or action rows that are not
  exactly 1..version;
- stalled: with the faults off, a running game whose newest board does not take a move;
- hidden: a seat's private text (its bold parts: a hand, a key rack) at any point of the game
  in a public message, unless the game itself made that text public (a public event or a
  public prompt's choice).

Run: `gatekeeper bench soak [--games 1000] [--minutes 4] [--store sqlite|postgres|both]
[--seed 1] [--postgres URL] [--out docs/performance.md]`: it prints the figures and rewrites
its section of the report. PostgreSQL is a new database on --postgres's server, or on a
throw-away server (Debian's binaries, as the tests use) when none is given.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import games
from bot import ui
from bot.clock import RealClock
from fakediscord import FakeDiscord, FakeDiscordError, Interaction, Message
from sandbox.harness import GUILD_READY_TIMEOUT
from sandbox.people import kind_select
from bot.store import Shards, Store
from bot.store.common import is_url
from bot.store.sqlite import SqliteStore
from bot.table import Seat, TableService, fill_names, named_prompt
from data.locales import DEFAULT, render
from games.core import Game, Rng, State, apply, decide, setup

from . import scenarios
from .faults_soak import FAULTY_ROUTES
from .figures import pct, rss_mb
from .report import produced_by, write_section
from .databases import database

REREAD = 1.0  # seconds it waits for a refused or unanswered click's move before clicking again
POLL = 0.05  # seconds between two looks at the database or at an interaction
DEFERRED_UPDATE = 6  # the interaction answer "accepted, working on it"


async def until(check: Callable[[], Any], timeout: float, what: str, every: float = POLL) -> Any:
    """Wait for check() to return something truthy, looking every `every` seconds (a fake with
    a thousand waiters on its change event would wake them all on every message)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := check()):
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(every)
    return value


READER_POOL, READER_WAIT = 8, 120.0  # connections and seconds of the soak's PostgreSQL reader


def family(pid: int) -> list[int]:
    """A process and its descendants (the bot's render workers belong to it)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(p for child in children for p in family(int(child)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


class BotProcess:
    """One `gatekeeper run` subprocess serving `shards`, its output kept in log files."""

    def __init__(self, name: str, fake: FakeDiscord, target: str, shards: Shards, home: Path,
                 render_workers: int = 0) -> None:
        self.name, self.fake, self.shards = name, fake, shards
        self.home = home / name  # its own working folder: the heartbeat lives there
        self.home.mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
                    "DISCORD_GATEWAY_URL": fake.gateway_url, "GATEKEEPER_DB": target,
                    "GATEKEEPER_SHARD_COUNT": str(shards.count),
                    "GATEKEEPER_SHARD_IDS": ",".join(map(str, shards.ids or ())),
                    "GATEKEEPER_AI_DELAY": "0", "GATEKEEPER_TURN_TIMEOUT": "86400",
                    "GATEKEEPER_RENDER_WORKERS": str(render_workers),
                    # the fake sends every guild with READY: no wait for late ones
                    "GATEKEEPER_GUILD_READY_TIMEOUT": str(GUILD_READY_TIMEOUT)}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def live_shards(self) -> set[int]:
        """Its shards that have a connected gateway session."""
        return {s.shard_id for s in self.fake._sessions.values()
                if s.conn is not None and not s.dead and s.shard_count == self.shards.count
                and s.shard_id in (self.shards.ids or ())}

    async def start(self, timeout: float = 60.0) -> None:
        """Start, and wait until every one of its shards is connected (its games are loaded
        before it connects: discord.py runs setup_hook first)."""
        self.starts += 1
        log = open(self.home / f"run-{self.starts}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=self.home,
                                     env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        await until(lambda: set(self.shards.ids or ()) <= self.live_shards()
                    or self.proc.poll() is not None, timeout, f"{self.name} to connect")
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.output()[-3000:]}")

    async def stop(self, how: signal.Signals) -> int:
        """Send `how` and wait for the process to end and its gateway sessions to close; its
        exit status."""
        assert self.proc is not None
        self.proc.send_signal(how)
        code = await asyncio.to_thread(self.proc.wait, 60)
        await until(lambda: not self.live_shards(), 30, f"{self.name}'s gateway sessions to close")
        return code

    def kill_quietly(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def output(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.home.glob("run-*.log")))


class Unpublished:
    """The publisher of a table service that only writes games to the database: the bot
    process publishes them once it loads them."""
    async def lobby_changed(self, table: Any) -> None: ...
    async def publish(self, snapshot: Any) -> None: ...
    async def timeout_warning(self, table: Any, seat: int) -> None: ...
    async def notice(self, table: Any, text: str) -> None: ...


async def open_game(db: Store, kind: str, guild_id: int, channel_id: int,
                    seats: list[Seat], seed: int) -> int:
    """A running game written to the database with a fixed seed (made through the table
    service, so it is what /play would make): the same game every run."""
    service = TableService(db, Unpublished(), RealClock())  # turns count from now, as in the bot
    host = next(s for s in seats if not s.ai)
    table = await service.open_lobby(kind, guild_id, channel_id, host.user_id, host.name, seed=seed,
                                     seats=seats)
    await service.lobby(table.id, host.user_id, host.name, "start")
    await service.close()
    return table.id


@dataclass
class Saved:
    """A game as the database holds it (what any process would load)."""
    row: dict[str, Any]
    game: Game
    state: State

    @classmethod
    async def read(cls, db: Store, game_id: int) -> "Saved":
        row = await db.game(game_id)
        return cls(row, games.get(row["game"]), State.from_json(row["state"]))

    def person_to_move(self) -> int | None:
        seat = self.game.to_move(self.state)
        return None if seat is None or self.row["seats"][seat]["ai"] else seat


async def click_move(fake: FakeDiscord, saved: Saved, seat: int, board: Message, action: str,
                     answered: Callable[[Interaction], Any],
                     sent: list[Interaction] | None = None) -> list[Interaction]:
    """Play `action` for `seat` as a person would: its button under the board, or the seat's
    "Take my turn" panel step by step. `answered(ix)` waits for the bot's answer to each click.
    The interactions sent (in `sent` as they go, so a caller keeps them if an answer never
    comes), the one that plays the move last."""
    sent = [] if sent is None else sent
    user = saved.row["seats"][seat]["user_id"]
    prompt = saved.game.prompt(saved.state, seat)
    choice = next(c for c in prompt.choices if c.action == action)
    mine = [(cid, label) for cid, label, _ in board.buttons()
            if cid and cid.split(":")[2] == str(seat)]
    names = [s["name"] for s in saved.row["seats"]]  # labels call players by name, as shown
    labels = ui.choice_labels(named_prompt(prompt, names).choices, names)
    shown = labels[prompt.choices.index(choice)]
    direct = [cid for cid, label in mine if label == shown]
    index = str(prompt.choices.index(choice))
    kind = kind_select(board, seat, index)
    if not prompt.private and kind:  # one of a kind: picked in the table's select
        sent.append(await fake.select(user, board.id, kind, [index]))
        await answered(sent[-1])
        return sent
    if not prompt.private and direct:
        sent.append(await fake.click(user, board.id, direct[0]))
        await answered(sent[-1])
        return sent
    opener = next((cid for cid, _ in mine if cid.split(":")[4] == "panel"), None)
    if opener is None:  # the board changed since it was read
        raise LookupError(f"no button for {action!r} on message {board.id}")
    sent.append(await fake.click(user, board.id, opener))
    answer = await answered(sent[0])  # the panel: the answer, or its private follow-up
    panel = answer.message if answer.type == 4 else (await sent[0].wait_followups())[0]
    for step in choice.path:
        panel = fake.messages[panel.id]
        label_shown = fill_names(step.label, names)
        button = next((cid for cid, label, _ in panel.buttons() if label == label_shown[:80]), None)
        if button is not None:
            sent.append(await fake.click(user, panel.id, button))
        else:  # a long list of choices comes as a select
            custom_id, value = next(((cid, value) for cid, options in panel.selects()
                                     for value, label in options if label == label_shown[:100]),
                                    (None, None))
            if custom_id is None:
                raise LookupError(f"no choice {label_shown!r} on panel {panel.id}")
            sent.append(await fake.select(user, panel.id, custom_id, [value]))
        await answered(sent[-1])
    return sent


def guild_on_shard(shard: int, count: int, n: int) -> int:
    """The n-th guild id that Discord routes to `shard` of `count`."""
    return ((n * count + shard) << 22) + 17


def public_text(message: Message) -> str:
    """Everything a channel member reads in a message: text, labels, alt texts."""
    return message.readable()


def private_strings(game: Game, state: State, seat: int) -> set[str]:
    """What only `seat` may read: the bold parts of its private text (a hand, a key rack),
    those long enough to mean something."""
    text = render(DEFAULT, game.private_text(state, seat))  # a game may give it as a message
    return {bold for bold in re.findall(r"\*\*(.+?)\*\*", text)
            if len(bold) >= 4 and not bold.isdigit()}


def secrets_of(row: dict[str, Any], actions: list[dict[str, Any]]) -> set[str]:
    """Every private string a seat held at any point of the game (replayed from its action
    log), less those the game itself made public: in a public event (a card taken, a card
    revealed) or a public prompt's choice (an identical-looking card in a room)."""
    game = games.get(row["game"])
    state = setup(game, len(row["seats"]), row["options"], row["seed"])
    held: set[str] = set()
    public: list[str] = []
    for entry in [*actions, None]:
        for seat in range(state.seats):
            held |= private_strings(game, state, seat)
            prompt = game.prompt(state, seat)
            if prompt is not None and not prompt.private:
                public += [choice.label for choice in named_prompt(prompt, []).choices]
        if entry is not None:
            outcome = apply(game, state, entry["seat"], entry["action"], entry["at"])
            public += [render(DEFAULT, event.text) for event in outcome.events if event.public]
            state = outcome.state
    told = "\n".join(public)
    return {secret for secret in held if secret not in told}


@dataclass
class Click:
    game_id: int
    version: int  # the game version the clicker saw
    interaction_id: int  # the click that plays the move
    accepted: bool  # the bot answered it with a deferred update (it went on to apply it)


@dataclass
class Plan:
    """What goes wrong, and when the play ends: after every kill and disconnect (at random
    moments of the first `seconds`), once `seconds` passed, or, given `moves`, once every game
    made that many moves or ended instead (a condition, for the tests)."""
    seconds: float
    moves: int | None = None
    kills: int = 1
    disconnects: int = 1
    failure: float = 0.05  # share of the bot's REST requests answered 429, 500 or 503
    dm_refusing: float = 0.05  # share of users whose DMs are closed (at least one)
    render_workers: int = 0
    think: tuple[float, float] = (0.5, 3.0)  # seconds a human-like clicker reads the board
    patience: float = 10.0  # seconds to wait for an accepted click to be saved (a click lost
    # in a kill is made again after this)
    answer_wait: float = 5.0  # seconds a clicker waits for the bot's answer before clicking
    # again (Discord itself gives up after 3; the big soak's machine is overloaded)


@dataclass
class Run:
    """What the clickers saw."""
    clicks: list[Click] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    cpu: dict[int, float] = field(default_factory=dict)  # bot process (or worker) -> CPU s
    kills: int = 0
    disconnects: int = 0


async def stop_clickers(players: list[asyncio.Task[None]]) -> None:
    """Stop the clickers where they are (one waiting for a board that no move will bring
    would wait out its timeout); one that failed fails the soak."""
    for player in players:
        player.cancel()
    for outcome in await asyncio.gather(*players, return_exceptions=True):
        if isinstance(outcome, Exception):
            raise outcome


class Soak:
    """One soak run on one store: `run()` returns the checks and the figures."""

    def __init__(self, games_count: int, target: str, home: Path, plan: Plan,
                 seed: int = 1) -> None:
        self.games_count, self.target, self.home, self.plan = games_count, target, home, plan
        self.seed = seed
        self.rng = random.Random(seed)
        self.store_name = "PostgreSQL" if is_url(target) else "SQLite"
        # two processes with a shard each on the shared database, one on a SQLite file
        self.shards = [Shards(2, (0,)), Shards(2, (1,))] if is_url(target) else [Shards(1, (0,))]
        self.seen = Run()
        self.snapshot: dict[int, dict[str, Any]] = {}
        self.changed: dict[int, asyncio.Event] = {}
        self.stopping = False

    # -- set-up ------------------------------------------------------------------------------
    async def open_games(self, fake: FakeDiscord) -> dict[int, int]:
        """game id -> channel id: games of every kind, in guilds on every shard."""
        db = Store(self.target)
        count = self.shards[0].count
        guilds = [fake.add_guild(f"soak {n}", id=guild_on_shard(n % count, count, n // count + 1))
                  for n in range(max(2, self.games_count // 50))]
        users = itertools.count()
        refusing = max(1, round(self.plan.dm_refusing * self.games_count * 2))
        opened = {}
        # two kinds of game, so the soak mixes boards and hands that differ
        kinds = self.kinds = [game.name for game in scenarios.turn_based()[:2]]
        try:
            for index in range(self.games_count):
                guild = guilds[index % len(guilds)]
                channel = fake.add_channel(guild.id, f"game-{index}")
                seats = []
                for seat in range(2):
                    number = next(users)
                    user = fake.add_user(f"player {number}", dms_open=number >= refusing)
                    fake.add_member(guild.id, user.id)
                    seats.append(Seat(user.name, user.id))
                game_id = await open_game(db, kinds[index % len(kinds)], guild.id, channel.id,
                                          seats, seed=self.seed * 100_000 + index)
                opened[game_id] = channel.id
        finally:
            await db.close()
        return opened

    # -- the clickers ------------------------------------------------------------------------
    async def watch(self, reader: Store) -> None:
        """Poll every game's version and shown board in one query; wake the game's clicker."""
        while True:
            for row in await reader.progress():
                if self.snapshot.get(row["id"]) != row:
                    self.snapshot[row["id"]] = row
                    if row["id"] in self.changed:
                        self.changed[row["id"]].set()
            await asyncio.sleep(POLL)

    def on_board(self, game_id: int, after: int) -> dict[str, Any] | None:
        """The game's progress once it ended or its board shows a version newer than `after`."""
        row = self.snapshot.get(game_id)
        if row is None:
            return None
        if row["status"] != "running":
            return row
        return row if row["version"] > after and row["shown"] == row["version"] else None

    async def wait_board(self, game_id: int, after: int, timeout: float) -> dict[str, Any]:
        event = self.changed[game_id]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (row := self.on_board(game_id, after)) is None:
            event.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"game {game_id} showed no version after {after}")
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass
        return row

    async def answered(self, ix: Interaction) -> Any:
        return await until(lambda: ix.callback, self.plan.answer_wait, f"an answer to {ix.id}")

    async def move(self, fake: FakeDiscord, reader: Store, game_id: int, after: int,
                   think: random.Random | None, timeout: float) -> int | None:
        """One move by the person to move, once the board shows a version after `after`: the
        version it was made at (the game moved on from it), or None when the game is over."""
        row = await self.wait_board(game_id, after, timeout)
        if row["status"] != "running":
            return None
        version = row["version"]
        while True:
            reader.forget(game_id)
            saved = await Saved.read(reader, game_id)
            seat = saved.person_to_move()
            board = fake.messages.get(row["message_id"])
            if seat is None or board is None or saved.row["version"] != version:
                return version  # someone else's move: wait for the next board
            if think is not None:
                await asyncio.sleep(think.uniform(*self.plan.think))
            attempt = Rng(version * 31 + len(self.seen.clicks))
            action = decide(saved.game, saved.state, seat, attempt)
            sent: list[Interaction] = []
            try:
                await click_move(fake, saved, seat, fake.messages[board.id], action,
                                 self.answered, sent)
            except (FakeDiscordError, TimeoutError, LookupError):
                pass  # the board changed under the click, or the bot did not answer in time
            except asyncio.CancelledError:
                if sent:  # the soak stopped this clicker: the click may still be applied
                    self.seen.clicks.append(Click(game_id, version, sent[-1].id, False))
                raise
            final = sent[-1] if sent else None
            accepted = final is not None and final.callback is not None \
                and final.callback.type == DEFERRED_UPDATE
            if final is not None:
                self.seen.clicks.append(Click(game_id, version, final.id, accepted))
            try:
                # accepted: it is being applied; refused or unanswered: a look at the board
                await until(lambda: self.snapshot[game_id]["version"] > version
                            or self.snapshot[game_id]["status"] != "running",
                            self.plan.patience if accepted else REREAD, f"game {game_id} to move on")
                return version
            except TimeoutError:
                if self.stopping:
                    return version
                # not applied (a restart, a lost answer): click again on what the board shows
                row = await self.wait_board(game_id, version - 1, timeout)

    async def play(self, fake: FakeDiscord, reader: Store, game_id: int, human: bool) -> None:
        think = random.Random(self.seed * 7919 + game_id) if human else None
        after = -1
        while not self.stopping:
            try:
                made = await self.move(fake, reader, game_id, after, think, timeout=30)
            except TimeoutError:
                continue  # the bot is restarting: look again
            if made is None:
                return
            after = made

    # -- chaos -------------------------------------------------------------------------------
    async def chaos(self, fake: FakeDiscord, bots: list[BotProcess]) -> None:
        """Gateway disconnects and SIGKILL restarts at seeded random moments of the play."""
        span = self.plan.seconds
        events = sorted([(self.rng.uniform(0.1, 0.7) * span, "kill")
                         for _ in range(self.plan.kills)]
                        + [(self.rng.uniform(0.05, 0.8) * span, "disconnect")
                           for _ in range(self.plan.disconnects)])
        start = time.monotonic()
        for at, what in events:
            await asyncio.sleep(max(0.0, at - (time.monotonic() - start)))
            if what == "kill":
                bot = self.rng.choice(bots)
                await bot.stop(signal.SIGKILL)
                await bot.start(timeout=300)
                self.seen.kills += 1
            else:
                await fake.drop_gateway()
                self.seen.disconnects += 1

    async def sample(self, bots: list[BotProcess]) -> None:
        """Every second: the bot processes' memory (with their render workers) and CPU time."""
        while True:
            pids = [p for b in bots if b.proc is not None and b.proc.poll() is None
                    for p in family(b.proc.pid)]
            self.seen.rss.append(sum(rss_mb(p) for p in pids))
            self.seen.cpu.update({p: cpu_seconds(p) for p in pids})
            await asyncio.sleep(1.0)

    # -- the run -----------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        fake = FakeDiscord(interaction_timeout=15.0, keep_attachment_bytes=False)
        await fake.start()
        bots: list[BotProcess] = []
        tasks: list[asyncio.Task[Any]] = []
        reader: Store | None = None
        try:
            channels = await self.open_games(fake)
            self.changed = {game_id: asyncio.Event() for game_id in channels}
            bots = [BotProcess(f"bot-{n}", fake, self.target, shards, self.home,
                               self.plan.render_workers) for n, shards in enumerate(self.shards)]
            await asyncio.gather(*(bot.start(timeout=600) for bot in bots))
            # the soak's own reader, behind a thousand clickers: no 2 s limit of a bot's click
            reader = SqliteStore.read_only(self.target) if not is_url(self.target) \
                else Store(self.target, pool_size=READER_POOL, answer_within=READER_WAIT)
            tasks.append(asyncio.create_task(self.watch(reader)))
            tasks.append(asyncio.create_task(self.sample(bots)))
            await until(lambda: all(self.on_board(g, -1) for g in channels), 600,
                        "the first boards", every=0.5)
            first = {g: self.snapshot[g]["version"] for g in channels}
            fake.faults.rng.seed(self.seed)
            fake.faults.add(None, FAULTY_ROUTES, outcomes=(500, 503, 429), count=None,
                            probability=self.plan.failure, retry_after=0.2)
            start, busy, own = time.monotonic(), machine_busy(), time.process_time()
            bot_cpu = sum(self.seen.cpu.values())
            players = [asyncio.create_task(self.play(fake, reader, g, human=n % 2 == 1))
                       for n, g in enumerate(channels)]
            chaos = asyncio.create_task(self.chaos(fake, bots))
            await until(lambda: self.played_enough(first, start) and chaos.done(),
                        self.plan.seconds * 3 + 300, "the play to end", every=0.5)
            self.stopping = True
            chaos.result()  # a restart that failed fails the soak
            await stop_clickers(players)
            seconds = time.monotonic() - start
            busy_now = machine_busy()
            cpu = {"machine_busy": (busy_now[0] - busy[0]) / (busy_now[1] - busy[1]),
                   "bot_cpu_s": sum(self.seen.cpu.values()) - bot_cpu,
                   "soak_cpu_s": time.process_time() - own}
            moves = sum(self.snapshot[g]["version"] - version for g, version in first.items())
            fake.faults.rules.clear()
            stalled = await self.stalled(fake, reader, channels)
            for bot in bots:
                await bot.stop(signal.SIGTERM)
            result = await self.check(fake, reader, channels)
            run = self.seen
            # click -> the bot's first answer, as the fake timed it (late answers included)
            latencies = [ix.latency for ix in fake.interactions.values()
                         if ix.latency is not None]
            result.update({
                **cpu, "store": self.store_name, "kinds": self.kinds, "games": len(channels),
                "processes": len(bots),
                "stalled": stalled, "seconds": seconds, "moves": moves,
                "moves_per_s": moves / seconds, "clicks": len(run.clicks),
                "first_response_p50_ms": pct(latencies, 50) * 1000,
                "first_response_p99_ms": pct(latencies, 99) * 1000,
                "rss_mb": max(run.rss, default=0.0), "restarts": run.kills,
                "disconnects": run.disconnects, "resumes": fake.resume_count,
                "injected": len(fake.faults.injected),
                "dm_refused": sum(1 for e in fake.http_errors if e[2] == 403
                                  and e[3].get("code") == 50007),
            })
            return result
        except BaseException:
            for bot in bots:
                print(f"--- {bot.name} ---\n{bot.output()[-3000:]}", file=sys.stderr)
            raise
        finally:
            for task in tasks:
                task.cancel()
            for bot in bots:
                bot.kill_quietly()
            if reader is not None:
                await reader.close()
            await fake.stop()

    def played_enough(self, first: dict[int, int], start: float) -> bool:
        """Every game made `plan.moves` moves (or ended); without `moves`, the time is up."""
        if self.plan.moves is None:
            return time.monotonic() - start >= self.plan.seconds
        return all(self.snapshot[g]["status"] != "running"
                   or self.snapshot[g]["version"] - version >= self.plan.moves
                   for g, version in first.items())

    async def stalled(self, fake: FakeDiscord, reader: Store, channels: dict[int, int]) -> int:
        """With the faults off: the running games whose newest board does not take a move."""
        self.stopping = False

        async def takes_a_move(game_id: int) -> bool:
            row = self.snapshot[game_id]
            if row["status"] != "running":
                return True
            try:
                made = await self.move(fake, reader, game_id, row["version"] - 1, None, 120)
                await until(lambda: self.snapshot[game_id]["version"] > row["version"]
                            or self.snapshot[game_id]["status"] != "running", 120,
                            f"game {game_id} to take a move")
            except TimeoutError:
                return False
            return made is not None or self.snapshot[game_id]["status"] != "running"

        taken = await asyncio.gather(*(takes_a_move(g) for g in channels))
        self.stopping = True
        return sum(1 for ok in taken if not ok)

    async def check(self, fake: FakeDiscord, reader: Store,
                    channels: dict[int, int]) -> dict[str, Any]:
        """Lost, applied twice and hidden, from the action log and every public message."""
        sent_at: dict[tuple[int, int], set[int]] = {}
        for click in self.seen.clicks:
            sent_at.setdefault((click.game_id, click.version), set()).add(click.interaction_id)
        accepted = {(c.game_id, c.version) for c in self.seen.clicks if c.accepted}
        lost = twice = ended = checked = 0
        leaks: list[tuple[int, str, str]] = []  # game, private string, the public text
        for game_id, channel_id in channels.items():
            row, actions = await reader.game(game_id), await reader.actions(game_id)
            ended += row["status"] != "running"
            by_seq = {a["seq"]: a for a in actions}
            lost += sum(1 for g, version in accepted if g == game_id and version < row["version"]
                        and (by_seq.get(version + 1) or {}).get("interaction_id")
                        not in sent_at[(g, version)])
            per_interaction = Counter(a["interaction_id"] for a in actions if a["interaction_id"])
            twice += sum(1 for n in per_interaction.values() if n > 1)
            twice += [a["seq"] for a in actions] != list(range(1, row["version"] + 1))
            secrets = secrets_of(row, actions)
            for message in fake.channel_messages(channel_id):
                text = public_text(message)
                leaks += [(game_id, secret, text) for secret in secrets if secret in text]
            checked += len(secrets)
        return {"lost": lost, "applied_twice": twice, "hidden": len(leaks), "ended": ended,
                "secrets_checked": checked, "leaks": leaks[:5]}


# -- the command -------------------------------------------------------------------------------
def plan_for(minutes: float) -> Plan:
    """The full form: about a SIGKILL restart a minute and two gateway disconnects, 5% of the
    bot's requests failed, 5% of users refusing DMs, one render worker as in production."""
    return Plan(seconds=minutes * 60, kills=max(1, round(minutes)),
                disconnects=max(1, round(minutes * 2)), render_workers=1)


def section(results: list[dict[str, Any]], command: str) -> list[str]:
    kinds = " and ".join(results[0]["kinds"])
    rows = [
        f"| {r['store']} | {r['processes']} | {r['games']} | {r['moves']} | "
        f"{r['moves_per_s']:.1f} | {r['first_response_p50_ms']:.0f} | "
        f"{r['first_response_p99_ms']:.0f} | {r['rss_mb']:.0f} | "
        f"{r['bot_cpu_s'] / r['seconds']:.2f} | {r['machine_busy']:.0%} | {r['restarts']} | "
        f"{r['disconnects']} | {r['injected']} | {r['lost']} | {r['applied_twice']} | "
        f"{r['stalled']} | {r['hidden']} ({r['secrets_checked']} checked) |" for r in results]
    return [
        "## Soak: faults and restarts on both stores",
        f"{produced_by(command)}. Two-person {kinds} games clicked against real `gatekeeper run` "
        "processes (PostgreSQL: two, a shard each), half at machine pace, half like people, while "
        "5% of the bot's requests fail (429/500/503), 5% of users refuse DMs, the gateway is cut "
        "and a process is SIGKILLed and restarted. First response: click to the bot's first "
        "answer. The last four columns must be zero (bench.soak says how each is checked).",
        "",
        "| store | processes | games | moves | moves/s | first response p50 ms | p99 ms "
        "| bot RSS MB | bot CPU (cores) | machine busy | SIGKILLs | gateway cuts | faults "
        "| lost | applied twice | stalled | hidden |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: | ---: | ---: | --- |",
        *rows,
    ]


def main(games_count: int = 1000, minutes: float = 4.0, store: str = "both", seed: int = 1,
         postgres: str | None = None, out: Path | None = None) -> int:
    """Run the soak on each store; print and write the figures (its section of `out`). Exit
    status 1 unless all four checks are zero on every store."""
    logging.basicConfig(level=logging.CRITICAL)  # injected failures are logged by design
    results = []
    for name in ("sqlite", "postgres") if store == "both" else (store,):
        print(f"soak: {games_count} games, {minutes} min on {name}...", flush=True)
        with tempfile.TemporaryDirectory(prefix="gatekeeper-soak-") as tmp:
            with database(name, Path(tmp), postgres) as target:
                soak = Soak(games_count, target, Path(tmp), plan_for(minutes), seed)
                results.append(asyncio.run(soak.run()))
        print(results[-1], flush=True)
    command = (f"gatekeeper bench soak --games {games_count} --minutes {minutes:g} "
               f"--store {store} --seed {seed}")
    lines = section(results, command)
    print("\n".join(lines))
    write_section(out or Path("docs") / "performance.md", "soak", lines)
    ok = all(not (r["lost"] or r["applied_twice"] or r["stalled"] or r["hidden"])
             for r in results)
    return 0 if ok else 1

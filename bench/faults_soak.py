"""Soak: games played to their end through a fake Discord that fails a share of requests.

Two scripted people per game (the first turn-based game, bench.scenarios) move by `/move`, each 0 to 0.5 s after the board shows the
last move (as people read it first), while the fake answers a random 5% of the
bot's REST requests (message posts and edits, DMs, interaction answers and follow-ups) with a
500, 503 or 429, or drops the connection before or after the request lands (seeded, so a run
is repeatable). A player whose command was lost (its answer failed) sends the move again, as a
person would. Measured:
- games that reached their end, and whose channel shows the final board;
- how long a board stayed behind: from the moment the committed version is newer than the
  version the channel shows (the store's `messages.version`, set when Discord confirmed the
  post or edit) until it is not (sampled every 20 ms; max and p99 over every such episode);
- actions applied twice (action rows per interaction), and stray boards: a board other than
  the last one that still has buttons (a board posted twice, or one never retired).

Run: `python -m bench.faults_soak [--games 20] [--failure 0.05] [--seed 1] [--write]`;
--write puts the figures in docs/performance.md (its `delivery` section, bench.report).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, patch_discord
from sandbox.harness import BotHarness, is_board, until
from bot.table import Seat, Table
from games.core import Rng, decide

from . import scenarios
from .figures import pct
from .report import produced_by, write_section

FAULTY_ROUTES = r"^/(channels/\d+/messages|users/@me/channels|interactions/|webhooks/)"
BEHIND_LIMIT = 5.0  # seconds: the budget for a board that is behind
THINK_SECONDS = 0.5  # a scripted person moves up to this long after the board shows the last move
RESEND_AFTER = 3.0  # seconds a person waits for their move to be applied before sending it again


class Soak:
    """`think` and `resend_after`: the people's pace (the test plays faster than the benchmark's
    people; the faults and the checks are the same)."""

    def __init__(self, games: int, failure: float, seed: int, think: float = THINK_SECONDS,
                 resend_after: float = RESEND_AFTER) -> None:
        self.games, self.failure, self.seed = games, failure, seed
        self.think, self.resend_after = think, resend_after
        self.behind_since: dict[int, float] = {}
        self.episodes: list[float] = []  # seconds each board spent behind
        self.resent = 0  # moves sent again because the first command was lost

    async def run(self) -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            fake = FakeDiscord(keep_attachment_bytes=False)
            await fake.start()
            restore = patch_discord(fake)
            harness = BotHarness(fake, Path(tmp) / "soak.db", seed=self.seed)
            try:
                bot = await harness.start()
                self.store = bot.store
                tables = await self.open_games(fake, bot)
                fake.faults.rng.seed(self.seed)
                fake.faults.add(None, FAULTY_ROUTES, outcomes=(500, 503, 429, "drop", "drop-after"),
                                probability=self.failure, count=None, retry_after=0.2)
                sampler = asyncio.create_task(self.sample(bot, tables))
                start = time.perf_counter()
                await asyncio.gather(*(self.play(fake, table) for table in tables))
                await until(lambda: not bot.delivery.slots and not bot.service._tasks
                            and not self.behind_since, timeout=600, what="delivery to finish")
                elapsed = time.perf_counter() - start
                sampler.cancel()
                return await self.report(fake, bot, tables, elapsed)
            finally:
                await harness.stop()
                restore()
                await fake.stop()

    async def open_games(self, fake: FakeDiscord, bot: Any) -> list[Table]:
        self.game = scenarios.turn_based()[0].name
        guild = fake.add_guild("soak")
        tables = []
        for index in range(self.games):
            channel = fake.add_channel(guild.id, f"c{index}")
            users = []
            for seat in range(2):
                user = fake.add_user(f"u{index}-{seat}")
                fake.add_member(guild.id, user.id)
                users.append(user.id)
            table = await bot.service.open_lobby(
                self.game, guild.id, channel.id, users[0], "P0", seed=self.seed * 1000 + index,
                seats=[Seat(f"P{n}", u) for n, u in enumerate(users)])
            await bot.service.lobby(table.id, users[0], "P0", "start")
            tables.append(table)
        await until(lambda: not bot.service._tasks, timeout=120, what="the first boards")
        return tables

    async def play(self, fake: FakeDiscord, table: Table) -> None:
        """The mover reads the board (0 to `think` s), then sends a smart legal move; a move whose
        command was lost is sent again."""
        attempt = 0
        thinking = random.Random(self.seed * 7919 + table.id)
        while table.status == "running":
            await asyncio.sleep(thinking.uniform(0.0, self.think))
            seat = table.game.to_move(table.state)
            version = table.version
            attempt += 1
            action = decide(table.game, table.state, seat, Rng(version * 31 + attempt))
            await fake.slash(table.seats[seat].user_id, table.channel_id, "move",
                             {"action": action})
            try:
                await until(lambda: table.version > version, timeout=self.resend_after,
                            what="the move")
            except TimeoutError:
                self.resent += 1
                continue
            # a person reads the new board before moving again
            await until(lambda: (self.store.shown_version(table.id) or -1) >= table.version,
                        timeout=60, what="the board")

    async def sample(self, bot: Any, tables: list[Table]) -> None:
        store = bot.store
        while True:
            now = time.perf_counter()
            for table in tables:
                behind = table.version > (store.shown_version(table.id) or -1)
                since = self.behind_since.get(table.id)
                if behind and since is None:
                    self.behind_since[table.id] = now
                elif not behind and since is not None:
                    self.episodes.append(now - self.behind_since.pop(table.id))
            await asyncio.sleep(0.02)

    async def report(self, fake: FakeDiscord, bot: Any, tables: list[Table],
               elapsed: float) -> dict[str, Any]:
        store = bot.store
        ended = [t for t in tables if (await store.game(t.id))["status"] == "over"]
        shown = [t for t in ended if store.shown_version(t.id) == t.version]
        twice = stray = actions = 0
        for table in tables:
            rows = await store.actions(table.id)
            actions += len(rows)
            per_interaction = Counter(r["interaction_id"] for r in rows if r["interaction_id"])
            twice += sum(1 for n in per_interaction.values() if n > 1)
            final = store.messages(table.id).get("board")
            stray += sum(1 for m in fake.channel_messages(table.channel_id)
                         if is_board(m) and m.buttons() and (final is None or m.id != final[1]))
        injected = Counter(str(o) for _, _, o in fake.faults.injected)
        requests = sum(1 for _, path in fake.requests if re.search(FAULTY_ROUTES, path))
        return {
            "game": self.game, "games": len(tables), "ended": len(ended), "final_board_shown": len(shown),
            "actions": actions, "applied_twice": twice, "stray_boards": stray,
            "requests": requests, "injected": dict(sorted(injected.items())),
            "failure": self.failure, "seed": self.seed, "seconds": elapsed,
            "episodes": len(self.episodes), "behind_max": max(self.episodes, default=0.0),
            "behind_p99": pct(self.episodes, 99), "behind_p50": pct(self.episodes, 50),
            "over_limit": sum(1 for e in self.episodes if e > BEHIND_LIMIT),
            "resent": self.resent, "gave_up": bot.delivery.gave_up,
        }


def section(result: dict[str, Any], command: str) -> list[str]:
    injected = ", ".join(f"{count} × {kind}" for kind, count in result["injected"].items())
    return [
        "## Delivery under Discord failures",
        f"{produced_by(command)}. Two-person {result['game']} games played by scripted people "
        f"(`/move`, 0-0.5 s after each board) while the fake Discord failed "
        f"{result['failure']:.0%} of the bot's message, DM and interaction requests: {injected} "
        f"of {result['requests']}. Behind: the channel's board shows an older version than the "
        "game's (sampled every 20 ms); stray: an old board left with buttons.",
        "",
        "| games | ended | final board shown | actions | applied twice | stray boards "
        "| behind p50 s | p99 s | max s | over 5 s | moves sent again | deliveries given up "
        "| wall s |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {result['games']} | {result['ended']} | {result['final_board_shown']} | "
        f"{result['actions']} | {result['applied_twice']} | {result['stray_boards']} | "
        f"{result['behind_p50']:.2f} | {result['behind_p99']:.2f} | "
        f"{result['behind_max']:.2f} | {result['over_limit']} | {result['resent']} | "
        f"{result['gave_up']} | {result['seconds']:.0f} |",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--failure", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)  # injected failures log errors by design
    result = asyncio.run(Soak(args.games, args.failure, args.seed).run())
    print(result)
    command = (f"python -m bench.faults_soak --games {args.games} --failure {args.failure} "
               f"--seed {args.seed}")
    if args.write:
        write_section(Path("docs") / "performance.md", "delivery", section(result, command))
    ok = result["ended"] == result["final_board_shown"] == result["games"] \
        and not result["applied_twice"] and not result["stray_boards"]
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

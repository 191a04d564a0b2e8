"""Test helpers on top of sandbox.harness and sandbox.people."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from collections.abc import Iterator

import pytest

from bench.pgserver import PostgresServer
from bot.choices import walk
from fakediscord import FakeDiscord
from sandbox.harness import BotHarness, is_board, settle, until
from sandbox import people

__all__ = ["BotHarness", "InThreadHarness", "Players", "is_board", "own_postgres_server",
           "settle", "until", "walk_labels", "play_out", "TEST_RATE_SCALE"]


# Discord's rate-limit buckets with windows ten times shorter (5 posts per 0.5 s in a channel):
# the bot meets the same headers, waits and 429s as in a real channel, in a tenth of the time.
# Tests about pace itself (tests/test_live_controls.py) use Discord's own windows.
TEST_RATE_SCALE = 0.1


class InThreadHarness(BotHarness):
    """The bot with its pictures drawn in a thread (render_workers=0), not in its render process.
    Spawning that process and warming every game's renderer in it costs about 1 s of CPU at each
    bot start: for tests about what Discord is sent (test_delivery starts 80 bots) that was most
    of their cost. Atmosfear's, Kingdom's and Don't Go's end-to-end tests and the render pool's
    own tests keep the process, as production runs it."""

    def __init__(self, fake: FakeDiscord, db_path: Path, clock: Any = None, seed: int | None = 1,
                 **overrides: Any) -> None:
        super().__init__(fake, db_path, clock, seed, **{"render_workers": 0, **overrides})


def own_postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of one's own (bench.pgserver), stopped afterwards. Missing
    binaries fail the test with the command that installs them: never a skip."""
    try:
        server = PostgresServer().start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


class Players(people.Players):
    """The tests' people: a lobby without a named game is Keys to the Castle."""

    default_game = "castle"


def walk_labels(prompt_choices, labels: list[str]):
    """Index path for a list of step labels (used by tests that click panels by hand)."""
    path: list[int] = []
    for label in labels:
        options = walk(prompt_choices, path).options
        path.append(next(i for i, s in enumerate(options) if s.label == label))
    return path


async def play_out(players: Players, table: Any, clock: Any, between: Any = None) -> Any:
    """Play `table` to its end: the first seat asked acts as the smart AI would, through the
    buttons, 4 s a move on the fake clock. `between(step, table)` runs after each step and may
    hand back the table to go on with (a restart loads it anew). The table at the end."""
    for step in range(1, 5000):
        if table.status != "running":
            return table
        waiting = [s for s, p in enumerate(table.prompts) if p is not None]
        if waiting:
            await players.play_by_buttons(table, seat=waiting[0])
        clock.advance(4.0)
        await players.settle(table)
        if between is not None:
            table = await between(step, table) or table
    return table

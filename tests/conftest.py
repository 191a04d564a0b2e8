"""Fixtures for every test: a started fake Discord (fakediscord) that discord.py talks to,
a real PostgreSQL server (bench.pgserver) with a fresh database per test, and Key Pile, a game
from outside the project advertised as an installed plugin would be.

The suite runs in three pytest-xdist workers, each given whole files (pyproject.toml), and must
pass with `-n 0` too. What keeps a test worker-safe: servers listen on ports the kernel picks;
each worker starts its own PostgreSQL server and each test gets its own database; files go under
`tmp_path`; environment changes go through `monkeypatch` or a subprocess's own env. What keeps
it quick: the harness's bot is ready once the fake has sent its guilds (guild_ready_timeout
0.1 s), and tests that do not test the render pool draw in a thread (tests.harness).
"""
from __future__ import annotations

import sys

# Where the environment says PYTHONDONTWRITEBYTECODE=1 (this machine's and CI's do), every
# process of the suite (both workers, each `gatekeeper run`, render worker and benchmark
# process) would compile the project's modules from source again, and pytest would rewrite
# every test module again: the suite writes their bytecode once, before importing them, into
# the clone's __pycache__ folders (which git ignores); the other processes read it.
sys.dont_write_bytecode = False

import contextlib  # noqa: E402 - after the line above, so the imports below are cached too
from pathlib import Path
from typing import AsyncIterator, Iterator

import pytest
import pytest_asyncio

import games
from bot.app import GatekeeperBot
from bench.pgserver import PostgresServer
from fakediscord import FakeDiscord, patch_discord
from fakediscord import ratelimits
from fakediscord.ratelimits import RateLimits
from tests.harness import TEST_RATE_SCALE, InThreadHarness, own_postgres_server

PLUGINS = Path(__file__).parent / "plugins"


@contextlib.asynccontextmanager
async def started(fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """`fake` started, with discord.py's Route.BASE / DEFAULT_GATEWAY pointed at it (restored
    afterwards)."""
    await fake.start()
    restore = patch_discord(fake)
    try:
        yield fake
    finally:
        restore()
        await fake.stop()


# A bot's start freezes its process's heap after a full collection (bot/app.py): in the test
# process, which starts hundreds of bots, each would cost a test 60-150 ms. The `gatekeeper run`
# subprocesses (soak, shutdown, two processes) still do it; test_shutdown checks it in-process.
GatekeeperBot.freeze_heap = False

# Every fake the tests make (the fixture's, the soaks', the sandbox's) has Discord's buckets
# with windows TEST_RATE_SCALE as long, unless it brings its own (the pace tests).
ratelimits.DEFAULT_SCALE = TEST_RATE_SCALE


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with started(FakeDiscord()) as fake:
        yield fake


@pytest_asyncio.fixture
async def discord_with_real_limits() -> AsyncIterator[FakeDiscord]:
    """The fake with Discord's own rate-limit windows (the pace tests)."""
    async with started(FakeDiscord(rate_limits=RateLimits(scale=1.0))) as fake:
        yield fake


@pytest_asyncio.fixture
async def harness(fake_discord, tmp_path) -> AsyncIterator[InThreadHarness]:
    """A bot started on the fake Discord (in this process), stopped after the test; a file
    that needs it otherwise (not started, or a render process) has its own."""
    started_bot = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await started_bot.start()
    yield started_bot
    await started_bot.stop()


def advertise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry_points: str) -> None:
    """Make an installed-looking distribution whose entry points are `entry_points`."""
    info = tmp_path / "site" / "gk_keypile-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gk-keypile\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[gatekeeper.games]\n{entry_points}\n")
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    games.reload()


@pytest.fixture
def keypile(tmp_path, monkeypatch):
    advertise(tmp_path, monkeypatch, "keypile = gk_keypile:GAME")
    yield games.get("keypile")
    games.reload()  # rediscovered without it once monkeypatch restores sys.path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run, stopped at the end."""
    yield from own_postgres_server()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database of its own for each test."""
    return postgres_server.database()


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """What GATEKEEPER_DB would say, for each store: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "gk.db"
    return request.getfixturevalue("postgres_url")


# The files that take longest go first (`--file-times` lists them), so the workers
# (pytest-xdist, whole files each) do not end with one of them alone on a long file.
# test_story_channel.py is left for later: it reads the games test_live_table.py records
# (tests/played.py), and after it has nothing to wait for.
SLOW_FIRST = ("test_packaging.py", "test_live_controls.py", "test_delivery.py", "test_replay.py",
              "test_render_text_fit.py", "test_nothing_lost.py", "test_nothing_stale.py",
              "test_shutdown.py", "test_soak.py", "test_real_play.py", "test_firetop_props.py",
              "test_sandbox_browser.py", "test_bench.py", "test_live_table.py",
              "test_e2e_atmosfear.py", "test_kingdom_props.py", "test_store_outage.py",
              "test_two_processes.py", "test_storage.py", "test_e2e_kingdom.py",
              "test_recovery.py", "test_castle_props.py", "test_conformance.py",
              "test_no_internal_ids.py", "test_e2e_castle.py", "test_e2e_firetop.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: the order within each file, and of the others, is kept


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--file-times", action="store_true",
                     help="list the slowest test files (setup, call and teardown of their tests)")


FILE_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Seconds per file, summed in the main process from every worker's reports."""
    name = report.nodeid.split("::")[0]
    FILE_SECONDS[name] = FILE_SECONDS.get(name, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if not config.getoption("--file-times"):
        return
    slowest = sorted(FILE_SECONDS.items(), key=lambda item: -item[1])[:10]
    terminalreporter.write_sep("=", "slowest 10 files")
    for name, seconds in slowest:
        terminalreporter.write_line(f"{seconds:7.1f} s  {name}")

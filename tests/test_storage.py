"""Versioned storage, on both stores (a SQLite file and a real PostgreSQL database, see the
store_target fixture): migrations, state upgrades, quarantine, compare-and-swap, interactions
counted once, shard ownership; and SQLite's one process per database file."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

import games
from bench import pgserver as pg
from bot.clock import FakeClock
from bot.config import Settings
from bot.store import Conflict, Result, Shards, Store, StoreError, Unavailable, read_game
from bot.store.common import is_url
from bot.table import Superseded, TableService
from games.core import IllegalAction, ai_rng, decide
from tests.harness import BotHarness, Players, until

OLD_DUMP = Path(__file__).parent / "data" / "store-0.1.0.sql"


class Quiet:
    async def lobby_changed(self, table): ...
    async def publish(self, snapshot): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...


MIGRATED = ["0001_initial", "0002_seat_tokens_and_shown_versions", "0003_pace",
            "0004_languages"]
TABLES = ("games", "actions", "timers", "messages", "stats")


def old_database(path: Path) -> Path:
    """A database exactly as release 0.1.0 left it."""
    conn = sqlite3.connect(path)
    conn.executescript(OLD_DUMP.read_text())
    conn.close()
    return path


async def old_store(target: Path | str, tmp_path: Path) -> Store:
    """The 0.1.0 games in the store `target` names: the old SQLite file itself, migrated on
    opening; or a new PostgreSQL database holding the same rows once that file is migrated."""
    old = old_database(tmp_path / "old-0.1.0.db")
    if not is_url(target):
        old.rename(target)
        return Store(target)
    source, store = Store(old), Store(target)
    async with store.transaction():
        for table in TABLES:
            rows = await source._rows(f"SELECT * FROM {table}")
            if rows:
                await store._execute_many(
                    f"INSERT INTO {table} ({', '.join(rows[0])}) "
                    f"VALUES ({', '.join('?' * len(rows[0]))})", [tuple(r.values()) for r in rows])
        await store._execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                             "(SELECT MAX(id) FROM games))")
    await source.close()
    return store


async def test_a_0_1_0_database_is_migrated_and_its_games_play_on(store_target, tmp_path):
    store = await old_store(store_target, tmp_path)
    assert await store.migrations() == MIGRATED
    service = TableService(store, Quiet(), FakeClock(1_760_000_100.0), ai_delay=0)
    assert await service.load() == 6 and service.quarantined == {}
    running = [t for t in service.tables.values() if t.status == "running"]
    assert sorted(t.game.name for t in running) == ["atmosfear", "castle", "dontgo"]
    for table in running:
        assert table.tokens == [0] * len(table.seats)
        seat = next(s for s, p in enumerate(table.prompts) if p is not None and table.seats[s].user_id)
        version = table.version
        action = decide(table.game, table.state, seat, ai_rng(1, version))
        await service.act(table.id, table.seats[seat].user_id, action, 0, seat=seat, source="test")
        assert table.version > version
        assert (await store.game(table.id))["state_format"] == table.game.state_format
    lobby = next(t for t in service.tables.values() if t.status == "lobby")
    await service.lobby(lobby.id, 33, "Cy", "join")
    await service.close()
    await store.close()
    again = Store(store_target)  # migrations are recorded: nothing runs twice
    assert await again.migrations() == MIGRATED
    await again.close()


async def test_a_row_that_cannot_load_is_quarantined_and_start_up_goes_on(store_target, tmp_path):
    store = await old_store(store_target, tmp_path)
    await store._execute("UPDATE games SET game = 'chess' WHERE id = 2")
    await store._execute("UPDATE games SET state = '{\"broken\": ' WHERE id = 4")
    service = TableService(store, Quiet(), FakeClock())
    assert await service.load() == 4
    assert set(service.quarantined) == {2, 4}
    assert "no game called 'chess'" in service.quarantined[2]
    row = await store.game(4)
    assert row["status"] == "quarantined" and row["state"] == '{"broken": ' and "JSON" in row["problem"]
    assert await store.timers_of([2, 4]) == {2: [], 4: []}
    await store.close()


async def test_states_are_upgraded_by_the_games_steps(store_target, tmp_path, monkeypatch):
    castle = games.get("castle")
    store = await old_store(store_target, tmp_path)
    monkeypatch.setattr(type(castle), "state_format", 2)
    monkeypatch.setattr(type(castle), "upgrades", {1: lambda data: {**data, "upgraded": True}})
    service = TableService(store, Quiet(), FakeClock())
    await service.load()
    assert service.tables[2].state.data["upgraded"] is True
    await store.close()


async def test_a_state_newer_than_the_engine_is_quarantined(store_target, tmp_path):
    store = await old_store(store_target, tmp_path)
    await store._execute("UPDATE games SET state_format = 9 WHERE id = 2")
    service = TableService(store, Quiet(), FakeClock())
    await service.load()
    assert "newer than this castle engine" in service.quarantined[2]
    await store.close()


async def test_saves_are_compare_and_swap_on_the_version(store_target, tmp_path):
    store = await old_store(store_target, tmp_path)
    row = await store.game(2)
    with pytest.raises(Conflict):
        await store.save_game(
            2, {"version": row["version"] + 1, "status": "over"},
            expect_version=row["version"] - 1,
            actions=[{"game_id": 2, "seq": 99, "seat": 0, "user_id": 1, "action": "x",
                      "source": "test", "interaction_id": None, "at": 0.0}])
    assert (await store.game(2))["status"] == "running"
    assert len(await store.actions(2)) == row["version"]
    await store.save_game(2, {"version": row["version"] + 1}, expect_version=row["version"])
    assert (await store.game(2))["version"] == row["version"] + 1
    await store.close()


async def test_an_interaction_is_recorded_once(store_target, tmp_path):
    store = await old_store(store_target, tmp_path)
    version = (await store.game(2))["version"]

    def click(seq: int) -> list[dict]:
        return [{"game_id": 2, "seq": seq, "seat": 0, "user_id": 11, "action": "stay",
                 "source": "button", "interaction_id": 4242, "at": 0.0}]

    await store.save_game(2, {"version": version + 1}, expect_version=version,
                          actions=click(version + 1))
    assert await store.interaction_seen(4242)
    with pytest.raises(Conflict, match="already recorded"):  # the same click, applied again
        await store.save_game(2, {"version": version + 2}, expect_version=version + 1,
                              actions=click(version + 2))
    assert (await store.game(2))["version"] == version + 1
    assert len(await store.actions(2)) == version + 1
    await store.close()


async def test_a_game_is_read_while_its_bot_holds_the_store(store_target, tmp_path):
    """`gatekeeper replay` reads a game beside a running bot: SQLite read-only past the bot's
    lock, PostgreSQL shared; a game that is not there is a LookupError."""
    store = await old_store(store_target, tmp_path)  # held open, as a running bot holds it
    row, actions = await asyncio.to_thread(read_game, store_target, 2)  # a tool of its own
    assert row == await store.game(2) and actions == await store.actions(2)
    assert len(actions) == row["version"]
    with pytest.raises(LookupError):
        await asyncio.to_thread(read_game, store_target, 4242)
    await store.close()


async def test_finished_games_newest_first_by_guild_and_channel(store_target):
    store = Store(store_target)
    ids = [await store.insert_game({"guild_id": 7, "channel_id": channel, "game": "castle",
                                    "status": status, "host_id": 1, "seed": 1, "options": {},
                                    "seats": [], "version": 0, "created_at": 0.0,
                                    "updated_at": at})
           for channel, status, at in [(1, "over", 1.0), (2, "ended", 3.0), (1, "running", 4.0),
                                       (1, "over", 2.0)]]
    assert [r["id"] for r in await store.finished_games(7)] == [ids[1], ids[3], ids[0]]
    assert [r["id"] for r in await store.finished_games(7, channel_id=1, limit=1)] == [ids[3]]
    assert await store.finished_games(8) == []
    await store.close()


async def end(store: Store, guild_id: int, game: str, players: dict[int, bool]) -> int:
    """A game of `game` in `guild_id`, saved as ended with `players` (user id -> won)."""
    game_id = await store.insert_game({"guild_id": guild_id, "game": game, "status": "running",
                                       "version": 1})
    await store.save_game(game_id, {"status": "over", "version": 2}, expect_version=1,
                          results=[Result(guild_id, user, game, won)
                                   for user, won in players.items()])
    return game_id


async def test_stats_and_leaderboards_count_every_result(store_target):
    store = Store(store_target)
    await end(store, 7, "castle", {1: True, 2: False})
    await end(store, 7, "dontgo", {1: False, 3: True})
    await end(store, 8, "castle", {2: True})
    await end(store, 7, "castle", {1: False})
    assert await store.stats(7, 1) == [{"game": "castle", "played": 2, "won": 1},
                                       {"game": "dontgo", "played": 1, "won": 0}]
    assert await store.leaderboard(7) == [{"user_id": 3, "won": 1, "played": 1},  # fewer first
                                          {"user_id": 1, "won": 1, "played": 3},
                                          {"user_id": 2, "won": 0, "played": 1}]


async def test_a_game_end_and_its_stats_are_saved_together(store_target):
    """The save that ends a game counts its results in the same transaction: a save refused by
    the compare-and-swap counts nothing, so no crash or outage can keep one without the other."""
    store = Store(store_target)
    game_id = await end(store, 7, "castle", {1: True, 2: False})
    with pytest.raises(Conflict):  # the same end saved again from a stale copy
        await store.save_game(game_id, {"status": "over", "version": 2}, expect_version=1,
                              results=[Result(7, 1, "castle", True)])
    assert await store.stats(7, 1) == [{"game": "castle", "played": 1, "won": 1}]
    await store.close()


def guild_on_shard(shard: int, count: int, n: int = 1) -> int:
    """A guild id that Discord routes to `shard` of `count`."""
    return ((n * count + shard) << 22) + 17


async def test_a_process_loads_only_the_games_and_timers_of_its_shards(store_target):
    store = Store(store_target)
    opener = TableService(store, Quiet(), FakeClock(), ai_delay=0)
    tables = {shard: await opener.open_lobby("castle", guild_on_shard(shard, 4), 100 + shard, 1,
                                             "Ana")
              for shard in range(4)}
    for table in tables.values():  # running, with a turn timeout each
        await opener.lobby(table.id, 2, "Bo", "join")
        await opener.lobby(table.id, 1, "Ana", "start")
    for shards, expected in [(Shards(4, (0, 3)), {0, 3}), (Shards(2, (1,)), {1, 3}),
                             (Shards(1, (0,)), {0, 1, 2, 3}), (Shards(), {0, 1, 2, 3})]:
        ids = {tables[shard].id for shard in expected}
        service = TableService(store, Quiet(), FakeClock(), shards=shards)
        assert await service.load() == len(expected)
        assert set(service.tables) == ids
        assert all(service.tables[i].handles for i in ids)  # their timers are armed
        foreign = next((t for s, t in tables.items() if s not in expected), None)
        if foreign is not None:  # a game of another shard is not served here, even when asked
            with pytest.raises(IllegalAction, match="no longer exists"):
                await service.get(foreign.id)
    await store.close()


async def test_a_game_asked_for_but_not_loaded_is_loaded_from_the_store(store_target):
    store = Store(store_target)
    first = TableService(store, Quiet(), FakeClock(), ai_delay=0)
    table = await first.open_lobby("castle", guild_on_shard(1, 2), 10, 1, "Ana")
    later = TableService(store, Quiet(), FakeClock(), ai_delay=0, shards=Shards(2, (1,)))
    assert await later.load() == 1
    newer = await first.open_lobby("castle", guild_on_shard(1, 2, 2), 11, 1, "Ana")  # after `load`
    await later.lobby(newer.id, 2, "Bo", "join")
    assert [s.name for s in later.tables[newer.id].seats] == ["Ana", "Bo"]
    assert set(later.tables) == {table.id, newer.id}
    await store.close()


async def test_two_processes_never_both_apply_a_move(postgres_url):
    """Two services on one PostgreSQL database, both holding a game (as during a reshard):
    the second to move loses the compare-and-swap, drops its stale copy, and its retry plays
    on the saved game."""
    stores = [Store(postgres_url), Store(postgres_url)]
    services = [TableService(s, Quiet(), FakeClock(), ai_delay=0) for s in stores]
    table = await services[0].open_lobby("castle", 1, 10, 1, "Ana")
    await services[0].lobby(table.id, 2, "Bo", "join")
    await services[0].lobby(table.id, 1, "Ana", "start")
    assert await services[1].load() == 1
    copies = [services[0].tables[table.id], services[1].tables[table.id]]
    seat = copies[0].game.to_move(copies[0].state)
    user = copies[0].seats[seat].user_id
    action = decide(copies[0].game, copies[0].state, seat, ai_rng(1, 0))
    await services[0].act(table.id, user, action, None, source="test", interaction_id=901)
    with pytest.raises(Superseded):
        await services[1].act(table.id, user, action, None, source="test", interaction_id=902)
    assert table.id not in services[1].tables
    assert [a["interaction_id"] for a in await stores[0].actions(table.id)] == [901]
    again = await services[1].get(table.id)  # loaded again: the saved game, one move on
    assert again.version == copies[0].version and again.state.to_json() == copies[0].state.to_json()
    for store in stores:
        await store.close()


async def test_gatekeeper_db_selects_the_store(postgres_server, tmp_path):
    url = postgres_server.url("gk_selected")
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "GATEKEEPER_DB": url,
                                  "GATEKEEPER_SHARD_COUNT": "4", "GATEKEEPER_SHARD_IDS": "2,3"})
    assert settings.database == url and settings.shards == Shards(4, (2, 3))
    with pytest.raises(StoreError, match="gk_selected"):  # no such database yet
        Store(settings.database)
    file = Settings.from_env({"DISCORD_TOKEN": "t", "GATEKEEPER_DB": str(tmp_path / "gk.db")})
    store = Store(file.database)
    assert type(store).__name__ == "SqliteStore" and file.shards == Shards()
    await store.close()


def test_a_database_error_never_shows_the_password():
    with socket.socket() as closed:
        # bound and never listening: connections are refused, and no other test worker can
        # start a server on this port meanwhile
        closed.bind(("127.0.0.1", 0))
        url = f"postgresql://gk:s3cret-pw@127.0.0.1:{closed.getsockname()[1]}/gatekeeper"
        with pytest.raises(StoreError) as info:
            Store(url)
    assert "s3cret-pw" not in str(info.value) and "127.0.0.1" in str(info.value)
    assert "s3cret-pw" not in repr(Settings.from_env({"DISCORD_TOKEN": "t", "GATEKEEPER_DB": url}))


def test_a_database_that_cannot_be_used_stops_start_up_with_one_line(postgres_server):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        refused = f"postgresql://gk:s3cret-pw@127.0.0.1:{closed.getsockname()[1]}/gatekeeper"
        for url in (refused, postgres_server.url("gk_no_such_database"), "postgresql://gk@:x/"):
            run = subprocess.run(
                [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, timeout=60,
                cwd=Path(__file__).resolve().parents[1],
                env={**os.environ, "DISCORD_TOKEN": "t", "GATEKEEPER_DB": url})
            assert run.returncode == 2, run.stderr
            assert run.stderr.startswith("Cannot use the PostgreSQL database ")
            assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
            assert "s3cret-pw" not in run.stderr + run.stdout


async def test_dropped_postgresql_connections_are_replaced(postgres_url):
    store = Store(postgres_url, pool_size=2)
    game_id = await store.insert_game({"guild_id": 1, "status": "lobby", "version": 0})
    with psycopg.connect(postgres_url, autocommit=True) as admin:  # a server restart, say
        others = "datname = current_database() AND pid <> pg_backend_pid()"
        admin.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {others}")
        while admin.execute(f"SELECT 1 FROM pg_stat_activity WHERE {others}").fetchone():
            time.sleep(0.01)  # until the server has ended them
    refused = 0
    while True:  # a call that finds its connection gone is refused; the pool replaces it
        try:
            row = await store.game(game_id)
            break
        except Unavailable as exc:
            assert str(exc).startswith("PostgreSQL did not answer")
            refused += 1
            assert refused <= 2  # at most once per pooled connection
    assert row["status"] == "lobby"
    await store.close()


def test_missing_postgresql_binaries_name_the_install_command(monkeypatch):
    monkeypatch.setattr(pg.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pg.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="not installed") as info:
        pg.binaries()
    assert "apt-get install -y --no-install-recommends postgresql" in str(info.value)


def test_a_test_server_that_cannot_start_leaves_nothing_behind():
    server = pg.PostgresServer()
    server.bin = Path("/nonexistent/postgresql/bin")
    with pytest.raises(RuntimeError, match="initdb failed"):
        server.start()
    assert not server.dir.exists()


def test_a_test_server_whose_port_was_taken_starts_on_another():
    """Another test worker may take the free port picked before the server binds it."""
    server = pg.PostgresServer()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server.port = taken.getsockname()[1]
        try:
            server.start()
            assert server.port != taken.getsockname()[1]
            with psycopg.connect(server.database()) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
        finally:
            server.stop()
    assert not server.dir.exists()


async def test_a_second_process_on_the_same_database_refuses_to_start(tmp_path):
    path = tmp_path / "gk.db"
    store = Store(path)
    code = ("import sys; from bot.store import Store, StoreError\n"
            "try:\n    Store(sys.argv[1])\nexcept StoreError as exc:\n    print(exc); sys.exit(2)")
    other = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                           cwd=Path(__file__).resolve().parents[1], timeout=60)
    assert other.returncode == 2
    assert "already in use by Gatekeeper (pid" in other.stdout and "GATEKEEPER_DB" in other.stdout
    with pytest.raises(StoreError, match="already in use"):
        Store(path)  # a second store in this process is refused the same way
    await store.close()
    await Store(path).close()  # once the first one is closed, the file is free again


async def test_the_channel_of_a_quarantined_game_is_told(fake_discord, tmp_path):
    players = Players(fake_discord, BotHarness(fake_discord, tmp_path / "x.db"), ["Ana"])
    path = old_database(tmp_path / "gk.db")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET game = 'chess', channel_id = ? WHERE id = 2", [players.channel.id])
    conn.commit()
    conn.close()
    harness = BotHarness(fake_discord, path)
    players.harness = harness
    try:
        await harness.start()
        notice = await until(lambda: next((m for m in players.channel_messages()
                                           if "Game #2 is suspended" in m.content), None))
        assert "/play" in notice.content and "chess" not in notice.content
        assert json.loads(json.dumps(await harness.bot.store.game(2)))["status"] == "quarantined"
    finally:
        await harness.stop()

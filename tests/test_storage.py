"""Versioned storage: migrations from 0.1.0, state upgrades, quarantine, compare-and-swap, one
process per database file."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import games
from bot.clock import FakeClock
from bot.store import Conflict, Store, StoreError
from bot.table import TableService
from games.core import decide, ai_rng
from tests.harness import BotHarness, Players, until

OLD_DUMP = Path(__file__).parent / "data" / "store-0.1.0.sql"


class Quiet:
    async def lobby_changed(self, table): ...
    async def publish(self, snapshot): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...


def old_database(path: Path) -> Path:
    """A database exactly as release 0.1.0 left it."""
    conn = sqlite3.connect(path)
    conn.executescript(OLD_DUMP.read_text())
    conn.close()
    return path


async def test_a_0_1_0_database_is_migrated_and_its_games_play_on(tmp_path):
    store = Store(old_database(tmp_path / "old.db"))
    assert store.migrations() == ["0001_initial", "0002_seat_tokens_and_shown_versions"]
    service = TableService(store, Quiet(), FakeClock(1_760_000_100.0), ai_delay=0)
    assert service.load() == 6 and service.quarantined == {}
    running = [t for t in service.tables.values() if t.status == "running"]
    assert sorted(t.game.name for t in running) == ["atmosfear", "castle", "dontgo"]
    for table in running:
        assert table.tokens == [0] * len(table.seats)
        seat = next(s for s, p in enumerate(table.prompts) if p is not None and table.seats[s].user_id)
        version = table.version
        action = decide(table.game, table.state, seat, ai_rng(1, version))
        await service.act(table.id, table.seats[seat].user_id, action, 0, seat=seat, source="test")
        assert table.version > version
        assert store.game(table.id)["state_format"] == table.game.state_format
    lobby = next(t for t in service.tables.values() if t.status == "lobby")
    await service.lobby(lobby.id, 33, "Cy", "join")
    await service.close()
    store.close()
    again = Store(tmp_path / "old.db")  # migrations are recorded: nothing runs twice
    assert again.migrations() == ["0001_initial", "0002_seat_tokens_and_shown_versions"]
    again.close()


def test_a_row_that_cannot_load_is_quarantined_and_start_up_goes_on(tmp_path):
    store = Store(old_database(tmp_path / "old.db"))
    store.db.execute("UPDATE games SET game = 'chess' WHERE id = 2")
    store.db.execute("UPDATE games SET state = '{\"broken\": ' WHERE id = 4")
    service = TableService(store, Quiet(), FakeClock())
    assert service.load() == 4
    assert set(service.quarantined) == {2, 4}
    assert "no game called 'chess'" in service.quarantined[2]
    row = store.game(4)
    assert row["status"] == "quarantined" and row["state"] == '{"broken": ' and "JSON" in row["problem"]
    assert not [t for t in store.timers() if t["game_id"] in (2, 4)]
    store.close()


def test_states_are_upgraded_by_the_games_steps(tmp_path, monkeypatch):
    castle = games.get("castle")
    store = Store(old_database(tmp_path / "old.db"))
    monkeypatch.setattr(type(castle), "state_format", 2)
    monkeypatch.setattr(type(castle), "upgrades", {1: lambda data: {**data, "upgraded": True}})
    service = TableService(store, Quiet(), FakeClock())
    service.load()
    assert service.tables[2].state.data["upgraded"] is True
    store.close()


def test_a_state_newer_than_the_engine_is_quarantined(tmp_path):
    store = Store(old_database(tmp_path / "old.db"))
    store.db.execute("UPDATE games SET state_format = 9 WHERE id = 2")
    service = TableService(store, Quiet(), FakeClock())
    service.load()
    assert "newer than this castle engine" in service.quarantined[2]
    store.close()


def test_saves_are_compare_and_swap_on_the_version(tmp_path):
    store = Store(old_database(tmp_path / "old.db"))
    row = store.game(2)
    with pytest.raises(Conflict):
        store.save_game(2, {"version": row["version"] + 1, "status": "over"},
                        expect_version=row["version"] - 1,
                        actions=[{"game_id": 2, "seq": 99, "seat": 0, "user_id": 1, "action": "x",
                                  "source": "test", "interaction_id": None, "at": 0.0}])
    assert store.game(2)["status"] == "running" and len(store.actions(2)) == row["version"]
    store.save_game(2, {"version": row["version"] + 1}, expect_version=row["version"])
    assert store.game(2)["version"] == row["version"] + 1
    store.close()


def test_a_second_process_on_the_same_database_refuses_to_start(tmp_path):
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
    store.close()
    Store(path).close()  # once the first one is closed, the file is free again


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
        assert json.loads(json.dumps(harness.bot.store.game(2)))["status"] == "quarantined"
    finally:
        await harness.stop()

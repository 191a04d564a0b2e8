"""SQLite persistence (sqlite-utils, WAL): game rows, the append-only action log, timers, stats.

Every game action is saved with its new state and timers in one transaction, so a crash between
two actions loses nothing and never leaves a half-written game.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

import sqlite_utils

ACTIVE = ("lobby", "running")


class StoreError(Exception):
    """The database cannot be used; the message says which path and what to do."""


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._messages: dict[int, dict[str, tuple[int, int]]] = {}
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db = sqlite_utils.Database(conn)
            if str(path) != ":memory:":
                self.db.enable_wal()
            self.db.execute("PRAGMA synchronous=NORMAL")
            self._create_schema()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                f"Cannot open the database at {self.path.resolve()}: {exc}. "
                "Set GATEKEEPER_DB to a file in a writable directory."
            ) from None

    def _create_schema(self) -> None:
        db = self.db
        if "games" not in db.table_names():
            db["games"].create({
                "id": int, "guild_id": int, "channel_id": int, "game": str, "status": str,
                "host_id": int, "seed": int, "options": str, "seats": str, "state": str,
                "version": int, "result": str, "turn_started": float, "created_at": float,
                "updated_at": float,
            }, pk="id")
            db["games"].create_index(["status"])
            db["games"].create_index(["guild_id", "status"])
        if "actions" not in db.table_names():
            db["actions"].create({
                "game_id": int, "seq": int, "seat": int, "user_id": int, "action": str,
                "source": str, "interaction_id": int, "at": float,
            }, pk=("game_id", "seq"))
            db["actions"].create_index(["interaction_id"], unique=True)
        if "timers" not in db.table_names():
            db["timers"].create({"game_id": int, "timer_id": str, "due_at": float, "kind": str,
                                 "payload": str}, pk=("game_id", "timer_id"))
        if "messages" not in db.table_names():
            db["messages"].create({"game_id": int, "kind": str, "channel_id": int,
                                   "message_id": int}, pk=("game_id", "kind"))
        if "stats" not in db.table_names():
            db["stats"].create({"guild_id": int, "user_id": int, "game": str, "played": int,
                                "won": int}, pk=("guild_id", "user_id", "game"))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN..COMMIT (the connection is in autocommit mode, so this is explicit)."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- games -------------------------------------------------------------------------------
    def insert_game(self, row: dict[str, Any]) -> int:
        with self.transaction():
            return self.db["games"].insert(_encode(row)).last_pk

    def save_game(self, game_id: int, row: dict[str, Any], *,
                  actions: Iterable[dict[str, Any]] = (),
                  timers: Iterable[dict[str, Any]] | None = None) -> None:
        """Update a game, append its actions, replace its timers (if given): one transaction."""
        # Plain SQL on this hot path: sqlite-utils' update/insert re-read the table schema each call.
        encoded = _encode(row)
        conn = self.db.conn
        with self.transaction():
            conn.execute(f"UPDATE games SET {', '.join(f'{k} = ?' for k in encoded)} WHERE id = ?",
                         [*encoded.values(), game_id])
            conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, source, interaction_id, at)"
                " VALUES (:game_id, :seq, :seat, :user_id, :action, :source, :interaction_id, :at)",
                list(actions))
            if timers is not None:
                conn.execute("DELETE FROM timers WHERE game_id = ?", [game_id])
                conn.executemany(
                    "INSERT INTO timers (game_id, timer_id, due_at, kind, payload) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, t["timer_id"], t["due_at"], t["kind"], json.dumps(t["payload"]))
                     for t in timers])

    def active_games(self) -> list[dict[str, Any]]:
        rows = self.db.query(
            f"SELECT * FROM games WHERE status IN ({','.join('?' * len(ACTIVE))})", ACTIVE)
        return [_decode(row) for row in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        return _decode(self.db["games"].get(game_id))

    def games_in_guild(self, guild_id: int) -> list[dict[str, Any]]:
        rows = self.db.query(
            "SELECT id, game, channel_id, status, seats FROM games WHERE guild_id = ? AND status IN "
            f"({','.join('?' * len(ACTIVE))}) ORDER BY id", [guild_id, *ACTIVE])
        return [_decode(row) for row in rows]

    # -- actions, timers, messages -------------------------------------------------------------
    def actions(self, game_id: int) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", [game_id]))

    def interaction_seen(self, interaction_id: int) -> bool:
        return self.db.conn.execute("SELECT 1 FROM actions WHERE interaction_id = ? LIMIT 1",
                                    [interaction_id]).fetchone() is not None

    def timers(self) -> list[dict[str, Any]]:
        rows = self.db.query("SELECT * FROM timers ORDER BY due_at")
        return [{**row, "payload": json.loads(row["payload"] or "null")} for row in rows]

    def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        self._messages.setdefault(game_id, {})[kind] = (channel_id, message_id)
        with self.transaction():
            self.db.conn.execute(
                "INSERT OR REPLACE INTO messages (game_id, kind, channel_id, message_id) "
                "VALUES (?, ?, ?, ?)", [game_id, kind, channel_id, message_id])

    def messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """Message ids by kind ("board", "lobby"); read on every move, so cached (write-through)."""
        cached = self._messages.get(game_id)
        if cached is None:
            rows = self.db.conn.execute(
                "SELECT kind, channel_id, message_id FROM messages WHERE game_id = ?", [game_id])
            cached = self._messages[game_id] = {kind: (c, m) for kind, c, m in rows}
        return cached

    def forget(self, game_id: int) -> None:
        """Drop a finished game's cached ids (the rows stay)."""
        self._messages.pop(game_id, None)

    # -- stats ----------------------------------------------------------------------------------
    def record_result(self, guild_id: int, game: str, players: dict[int, bool]) -> None:
        """players: user id -> won. Counted once, when a game ends."""
        with self.transaction():
            for user_id, won in players.items():
                self.db.execute(
                    "INSERT INTO stats (guild_id, user_id, game, played, won) VALUES (?, ?, ?, 1, ?) "
                    "ON CONFLICT(guild_id, user_id, game) DO UPDATE SET played = played + 1, "
                    "won = won + excluded.won", [guild_id, user_id, game, int(won)])

    def stats(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        return list(self.db.query(
            "SELECT game, played, won FROM stats WHERE guild_id = ? AND user_id = ? ORDER BY game",
            [guild_id, user_id]))

    def leaderboard(self, guild_id: int, limit: int = 10) -> list[dict[str, Any]]:
        return list(self.db.query(
            "SELECT user_id, SUM(won) AS won, SUM(played) AS played FROM stats WHERE guild_id = ? "
            "GROUP BY user_id ORDER BY won DESC, played ASC LIMIT ?", [guild_id, limit]))

    def close(self) -> None:
        self.db.conn.close()


_JSON_COLUMNS = ("options", "seats", "result")


def _encode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.dumps(v) if k in _JSON_COLUMNS else v for k, v in row.items()}


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.loads(v) if k in _JSON_COLUMNS and v is not None else v for k, v in row.items()}

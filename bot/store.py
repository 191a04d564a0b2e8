"""SQLite persistence (sqlite-utils, WAL): game rows, the append-only action log, timers, stats.

Every game action is saved with its new state and timers in one transaction, compare-and-swap
on the game's version, so a crash between two actions loses nothing, never leaves a half-written
game, and two writers can never both apply a move to one game. The schema is versioned with
sqlite-utils `Migrations`, run at start-up; one process at a time may use a database file.
"""
from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

import sqlite_utils
from sqlite_utils.migrations import Migrations

ACTIVE = ("lobby", "running")
schema = Migrations("gatekeeper")


@schema(name="0001_initial")
def _initial(db: sqlite_utils.Database) -> None:
    """The tables of release 0.1.0 (created only where missing: 0.1.0 made them unversioned)."""
    db["games"].create({
        "id": int, "guild_id": int, "channel_id": int, "game": str, "status": str,
        "host_id": int, "seed": int, "options": str, "seats": str, "state": str,
        "version": int, "result": str, "turn_started": float, "created_at": float,
        "updated_at": float,
    }, pk="id", if_not_exists=True)
    db["games"].create_index(["status"], if_not_exists=True)
    db["games"].create_index(["guild_id", "status"], if_not_exists=True)
    db["actions"].create({
        "game_id": int, "seq": int, "seat": int, "user_id": int, "action": str,
        "source": str, "interaction_id": int, "at": float,
    }, pk=("game_id", "seq"), if_not_exists=True)
    db["actions"].create_index(["interaction_id"], unique=True, if_not_exists=True)
    db["timers"].create({"game_id": int, "timer_id": str, "due_at": float, "kind": str,
                         "payload": str}, pk=("game_id", "timer_id"), if_not_exists=True)
    db["messages"].create({"game_id": int, "kind": str, "channel_id": int, "message_id": int},
                          pk=("game_id", "kind"), if_not_exists=True)
    db["stats"].create({"guild_id": int, "user_id": int, "game": str, "played": int, "won": int},
                       pk=("guild_id", "user_id", "game"), if_not_exists=True)


@schema(name="0002_seat_tokens_and_shown_versions")
def _tokens(db: sqlite_utils.Database) -> None:
    """Per-seat prompt tokens (a click is stale only if its seat's prompt changed), the engine
    format of each stored state, why a game is quarantined, and which game version each
    message shows (to republish what is behind)."""
    db["games"].add_column("tokens", str)
    db["games"].add_column("state_format", int)  # NULL: written by 0.1.0, format 1
    db["games"].add_column("problem", str)
    db["messages"].add_column("version", int)


class StoreError(Exception):
    """The database cannot be used; the message says which path and what to do."""


class Conflict(Exception):
    """A save lost a compare-and-swap: someone else saved that game first."""


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._messages: dict[int, dict[str, tuple[int, int, int]]] = {}
        self._lock_file: Any = None
        memory = str(path) == ":memory:"
        try:
            if not memory:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._lock_file = _claim(self.path)
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db = sqlite_utils.Database(conn)
            if not memory:
                self.db.enable_wal()
            self.db.execute("PRAGMA synchronous=NORMAL")
            schema.apply(self.db)
        except (OSError, sqlite3.Error) as exc:
            self._release()
            raise StoreError(
                f"Cannot open the database at {self.path.resolve()}: {exc}. "
                "Set GATEKEEPER_DB to a file in a writable directory."
            ) from None

    def migrations(self) -> list[str]:
        """The schema migrations applied to this database, oldest first."""
        return [m.name for m in schema.applied(self.db)]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE..COMMIT: the write lock is taken up front, so no save waits mid-way."""
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

    def save_game(self, game_id: int, row: dict[str, Any], *, expect_version: int | None = None,
                  actions: Iterable[dict[str, Any]] = (),
                  timers: Iterable[dict[str, Any]] | None = None) -> None:
        """Update a game, append its actions, replace its timers (if given): one transaction.

        With `expect_version` the update only happens if the stored version is still that one
        (compare-and-swap); otherwise Conflict is raised and nothing is written.
        """
        # Plain SQL on this hot path: sqlite-utils' update/insert re-read the table schema each call.
        encoded = _encode(row)
        conn = self.db.conn
        where, args = "id = ?", [game_id]
        if expect_version is not None:
            where, args = "id = ? AND version = ?", [game_id, expect_version]
        with self.transaction():
            changed = conn.execute(
                f"UPDATE games SET {', '.join(f'{k} = ?' for k in encoded)} WHERE {where}",
                [*encoded.values(), *args]).rowcount
            if changed != 1:
                raise Conflict(f"game {game_id} is no longer at version {expect_version}")
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

    def quarantine(self, game_id: int, problem: str) -> None:
        """Set a game aside (kept as it is, never loaded again until someone repairs it)."""
        with self.transaction():
            self.db.conn.execute("UPDATE games SET status = 'quarantined', problem = ? WHERE id = ?",
                                 [problem[:2000], game_id])
            self.db.conn.execute("DELETE FROM timers WHERE game_id = ?", [game_id])

    def active_games(self) -> list[dict[str, Any]]:
        rows = self.db.query(
            f"SELECT * FROM games WHERE status IN ({','.join('?' * len(ACTIVE))})", ACTIVE)
        return [_decode(row) for row in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        return _decode(self.db["games"].get(game_id))

    def finished_games(self, guild_id: int, channel_id: int | None = None,
                       limit: int = 25) -> list[dict[str, Any]]:
        """A guild's (or one channel's) finished games, the most recently finished first."""
        where, args = "guild_id = ? AND status IN ('over', 'ended')", [guild_id]
        if channel_id is not None:
            where, args = where + " AND channel_id = ?", [guild_id, channel_id]
        rows = self.db.query(f"SELECT id, game, channel_id, seats, status, updated_at FROM games "
                             f"WHERE {where} ORDER BY updated_at DESC, id DESC LIMIT ?", [*args, limit])
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

    def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int,
                    version: int = 0) -> None:
        """Remember a message the bot owns, and which game version it shows."""
        self._messages.setdefault(game_id, {})[kind] = (channel_id, message_id, version)
        with self.transaction():
            self.db.conn.execute(
                "INSERT OR REPLACE INTO messages (game_id, kind, channel_id, message_id, version) "
                "VALUES (?, ?, ?, ?, ?)", [game_id, kind, channel_id, message_id, version])

    def messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """Message ids by kind ("board", "lobby"); read on every move, so cached (write-through)."""
        return {kind: ids[:2] for kind, ids in self._cached(game_id).items()}

    def shown_version(self, game_id: int, kind: str = "board") -> int | None:
        """The game version the message of `kind` shows (None: there is no such message)."""
        ids = self._cached(game_id).get(kind)
        return ids[2] if ids else None

    def _cached(self, game_id: int) -> dict[str, tuple[int, int, int]]:
        cached = self._messages.get(game_id)
        if cached is None:
            rows = self.db.conn.execute(
                "SELECT kind, channel_id, message_id, version FROM messages WHERE game_id = ?",
                [game_id])
            cached = self._messages[game_id] = {kind: (c, m, v or 0) for kind, c, m, v in rows}
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
        self._release()

    def _release(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()  # closing the descriptor drops the flock
            self._lock_file = None


def read_game(path: Path, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's row and action log, read only: a running bot holds the database (see _claim),
    and reading needs neither its lock nor its migrations. LookupError: no such game."""
    if not path.is_file():
        raise StoreError(f"There is no database at {path.resolve()} (set GATEKEEPER_DB or --db).")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise LookupError(f"There is no game #{game_id} in {path.resolve()}.")
        actions = conn.execute("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", [game_id])
        return _decode(dict(row)), [dict(a) for a in actions]
    except sqlite3.Error as exc:
        raise StoreError(f"Cannot read the database at {path.resolve()}: {exc}.") from None
    finally:
        conn.close()


def _claim(path: Path) -> Any:
    """Hold an exclusive lock beside the database for this process's lifetime, or refuse.

    Two bot processes on one file would both run every game's timers and both answer clicks;
    SQLite's own locking cannot prevent that, so a second process must not start at all.
    """
    handle = open(path.with_name(path.name + ".lock"), "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise StoreError(f"The database {path.resolve()} is already in use by {holder}. "
                         "Stop that Gatekeeper first, or give this one its own GATEKEEPER_DB.") \
            from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"Gatekeeper (pid {os.getpid()})")
    handle.flush()
    return handle


_JSON_COLUMNS = ("options", "seats", "result", "tokens")


def _encode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.dumps(v) if k in _JSON_COLUMNS else v for k, v in row.items()}


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.loads(v) if k in _JSON_COLUMNS and v is not None else v for k, v in row.items()}

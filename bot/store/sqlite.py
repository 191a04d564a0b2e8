"""The embedded store: one SQLite file (sqlite-utils, WAL), used by one process at a time.

Its calls run on the event loop: a save is a few hundred microseconds of local file work, less
than handing it to a thread and back costs (docs/performance-stores.md has both figures), and a
coroutine that never waits runs its transaction without another coroutine in the middle.

The schema is versioned with sqlite-utils `Migrations`, run at start-up, under the names of
common.MIGRATIONS. A lock file beside the database keeps a second process out.
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .common import MESSAGE_ROWS, MESSAGE_UPSERT, MIGRATIONS, Store, StoreError, decode

schema = Migrations("gatekeeper")


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


def _shared(statements: tuple[str, ...]) -> Callable[[sqlite_utils.Database], None]:
    """A migration step from common.MIGRATIONS' portable SQL."""
    def step(db: sqlite_utils.Database) -> None:
        for sql in statements:
            db.execute(sql)
    return step


for _name, _statements in MIGRATIONS:
    schema(name=_name)(_initial if _statements is None else _shared(_statements))


class SqliteStore(Store):
    _duplicate = sqlite3.IntegrityError

    def __init__(self, path: Path | str) -> None:
        super().__init__(path)
        self.path = Path(path)
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

    @classmethod
    def read_only(cls, path: Path | str) -> "SqliteStore":
        """The store on a read-only connection beside the bot that holds the file (no lock, no
        migrations): for a tool that watches a running bot, such as the soak."""
        store = cls.__new__(cls, path)
        Store.__init__(store, path)
        store.path, store._lock_file = Path(path), None
        conn = sqlite3.connect(f"{store.path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None, check_same_thread=False)
        store.db = sqlite_utils.Database(conn)
        return store

    async def migrations(self) -> list[str]:
        return [m.name for m in schema.applied(self.db)]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE..COMMIT: the write lock is taken up front, so no save waits mid-way."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # Plain sqlite3 on these hot paths: sqlite-utils' helpers re-read the table schema each call.
    async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        return self.db.conn.execute(sql, list(params)).rowcount

    async def _execute_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        self.db.conn.executemany(sql, rows)

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        return self._read(sql, params)

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.db.conn.execute(sql, list(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _store_message(self, game_id: int, kind: str, row: tuple[int, str, int, int, int]) -> None:
        self.db.conn.execute(MESSAGE_UPSERT, row)  # a local write: at once, nothing queued

    def _messages_now(self, game_id: int) -> list[dict[str, Any]] | None:
        return self._read(MESSAGE_ROWS, [game_id])

    async def close(self) -> None:
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
        return decode(dict(row)), [dict(a) for a in actions]
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

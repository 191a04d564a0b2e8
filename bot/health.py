"""The heartbeat file beside the database, and `gatekeeper health`, which reads it.

While the bot is connected to Discord it rewrites `<GATEKEEPER_DB>.heartbeat` every
HEARTBEAT_EVERY seconds (the time and its process id, as JSON). `gatekeeper health` (Docker's
HEALTHCHECK) passes when the newest beat is younger than `max_age` and, on the same host, that
process still exists. Everything a healthy bot needs shows in it: the event loop runs (the beat
is a task on it) and every shard's gateway connection is open. A clean shutdown removes the file.
With PostgreSQL, the database must answer too (`check_database`): a bot whose store is away
keeps beating, but cannot take a move.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
from pathlib import Path
from typing import Awaitable, Callable

HEARTBEAT_EVERY = 15.0
DEFAULT_MAX_AGE = 60.0

log = logging.getLogger("gatekeeper.health")


def heartbeat_path(db_path: Path | str) -> Path:
    return Path(f"{db_path}.heartbeat")


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Replace the file in one step, so a reader never sees half a beat."""
    beat = {"at": time.time() if now is None else now, "pid": os.getpid(),
            "host": socket.gethostname()}
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(beat), encoding="utf-8")
    os.replace(tmp, path)


def remove_heartbeat(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def check(path: Path, max_age: float = DEFAULT_MAX_AGE,
          now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why)."""
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        at, pid = float(beat["at"]), int(beat["pid"])
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running or not connected yet"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, f"unreadable heartbeat at {path}: {exc}"
    age = (time.time() if now is None else now) - at
    if age > max_age:
        return False, f"last heartbeat {age:.0f} s ago (more than {max_age:.0f} s): " \
                      "the bot is stuck or disconnected from Discord"
    if beat.get("host") == socket.gethostname() and not _alive(pid):
        return False, f"the bot that wrote the heartbeat (pid {pid}) is gone"
    return True, f"ok: heartbeat {max(age, 0.0):.0f} s ago from pid {pid}"


def check_database(url: str, timeout: float = 3.0) -> tuple[bool, str]:
    """(answers, one line): does the PostgreSQL database answer a query within `timeout` s?"""
    import psycopg  # only here: a SQLite bot's health check never loads the driver

    from .store.postgres import plain_reason, redacted
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=max(1, round(timeout))) as conn:
            conn.execute(f"SET statement_timeout = {int(timeout * 1000)}")
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return False, f"the database {redacted(url)} does not answer: {plain_reason(exc, url)}"
    return True, "the database answers"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


async def beat(path: Path, connected: Callable[[], bool], ready: Callable[[], Awaitable[None]],
               every: float = HEARTBEAT_EVERY) -> None:
    """Run for the bot's lifetime: the first beat as soon as it is ready, then every `every`
    seconds while it is connected (a disconnected bot lets the beat go stale)."""
    await ready()
    while True:
        if connected():
            try:
                write_heartbeat(path)  # a few bytes: not worth a thread
            except OSError as exc:
                log.warning("heartbeat not written path=%s error=%s", path, exc)
        await asyncio.sleep(every)

"""The databases a benchmark runs on: a new SQLite file, or a new PostgreSQL database on a given
server (a user that may CREATE DATABASE) or on a throw-away server of Debian's binaries."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import psycopg

from .pgserver import PostgresServer


@contextmanager
def empty_database(server_url: str, name: str) -> Iterator[str]:
    """A new database on the server of `server_url`; its URL. Dropped afterwards."""
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlsplit(server_url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def database(store: str, home: Path, postgres: str | None) -> Iterator[str]:
    """GATEKEEPER_DB for a run on `store` ("sqlite" or "postgres"): a new SQLite file under
    `home`, or a new PostgreSQL database on the server of `postgres` (dropped afterwards) or on
    a throw-away server."""
    if store == "sqlite":
        yield str(home / "bench.db")
    elif postgres:
        with empty_database(postgres, "gk_bench") as url:
            yield url
    else:
        server = PostgresServer().start()
        try:
            yield server.database()
        finally:
            server.stop()

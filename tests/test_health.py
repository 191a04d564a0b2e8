"""`gatekeeper health`: what the Docker HEALTHCHECK asks (the heartbeat beside the database)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import health
from bot.cli import main


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "var" / "gatekeeper.db"
    monkeypatch.setenv("GATEKEEPER_DB", str(path))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # health needs no token
    path.parent.mkdir()
    return path


def beat(db: Path, **fields) -> None:
    data = {"at": time.time(), "pid": os.getpid(), "host": socket.gethostname(), **fields}
    health.heartbeat_path(db).write_text(json.dumps(data))


def test_a_fresh_heartbeat_is_healthy(db, capsys):
    health.write_heartbeat(health.heartbeat_path(db))
    assert main(["health"]) == 0
    assert capsys.readouterr().out.startswith("ok: heartbeat 0 s ago from pid")


def test_no_heartbeat_is_unhealthy(db, capsys):
    assert main(["health"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("unhealthy: no heartbeat at ") and str(db) in out
    assert out.count("\n") == 1  # one line


def test_an_old_heartbeat_is_unhealthy(db, capsys):
    beat(db, at=time.time() - 61)
    assert main(["health"]) == 1
    assert "last heartbeat 61 s ago (more than 60 s)" in capsys.readouterr().out
    assert main(["health", "--max-age", "120"]) == 0


def test_a_heartbeat_from_a_dead_process_is_unhealthy(db, capsys):
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    beat(db, pid=int(child.stdout))  # that process has exited and been reaped
    assert main(["health"]) == 1
    assert "is gone" in capsys.readouterr().out


def test_a_garbled_heartbeat_is_unhealthy(db, capsys):
    health.heartbeat_path(db).write_text("{not json")
    assert main(["health"]) == 1
    assert capsys.readouterr().out.startswith("unhealthy: unreadable heartbeat")


@pytest.fixture
def postgres_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """GATEKEEPER_DB set to a URL: the heartbeat is var/gatekeeper.heartbeat under the cwd."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / "var").mkdir()

    def use(url: str) -> None:
        monkeypatch.setenv("GATEKEEPER_DB", url)
        health.write_heartbeat(health.heartbeat_path(Path("var/gatekeeper")))
    return use


def test_a_postgresql_database_that_answers_is_healthy(postgres_env, postgres_url, capsys):
    postgres_env(postgres_url)
    assert main(["health"]) == 0
    assert capsys.readouterr().out.endswith("; the database answers\n")


def test_a_postgresql_database_that_does_not_answer_is_unhealthy(postgres_env, capsys):
    with socket.socket() as closed:  # bound, never listening: refused
        closed.bind(("127.0.0.1", 0))
        postgres_env(f"postgresql://gk:s3cret-pw@127.0.0.1:{closed.getsockname()[1]}/gk")
        assert main(["health"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("unhealthy: the database ") and "does not answer" in out
    assert "s3cret-pw" not in out and out.count("\n") == 1

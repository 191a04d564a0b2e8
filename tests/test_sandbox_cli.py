"""`gatekeeper run` without a token starts the sandbox: a real process, its printed address
serves the page, and SIGTERM stops it cleanly."""
from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Iterator


def read_until_url(proc: subprocess.Popen, seconds: float) -> tuple[str, str]:
    """The address to open and the whole banner printed with it."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    out = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        out += line
        found = re.search(r"Open (http://127\.0\.0\.1:\d+/) in a browser", out)
        if found and "set DISCORD_TOKEN" in line:  # the banner's last line
            return found.group(1), out
    raise AssertionError(f"no address printed; output so far:\n{out}")


@contextlib.contextmanager
def running_sandbox(command: list[str], cwd: Path, env: dict[str, str],
                    log: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """Start the command, yield (address, banner); then SIGTERM, which must exit 0. What it
    wrote to stderr is then added to `log`."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    log = [] if log is None else log
    try:
        yield read_until_url(proc, 120)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    log.append(proc.stderr.read())
    assert proc.returncode == 0, log[-1]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        return response.read().decode()


def test_run_without_a_token_starts_the_sandbox_and_stops_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "GATEKEEPER_SANDBOX_PORT")}
    env["GATEKEEPER_SANDBOX_DB"] = str(tmp_path / "sandbox.db")
    env["GATEKEEPER_DB"] = str(tmp_path / "production.db")
    log: list[str] = []
    with running_sandbox([sys.executable, "-m", "bot", "run"], tmp_path, env, log) as (url, out):
        assert "DISCORD_TOKEN is not set: starting the local sandbox" in out
        assert f"Games are kept in {tmp_path / 'sandbox.db'}" in out
        assert "Ctrl-C stops it" in out and "Ready in" in out
        assert "Local sandbox" in fetch(url)
        assert (tmp_path / "sandbox.db").exists() and not (tmp_path / "production.db").exists()
    # its log stays quiet about voice, which the bot does not use
    assert "voice will NOT be supported" not in log[0]


def test_the_sandbox_refuses_the_production_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["GATEKEEPER_SANDBOX_DB"] = env["GATEKEEPER_DB"] = str(tmp_path / "gatekeeper.db")
    done = subprocess.run([sys.executable, "-m", "bot", "sandbox"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "GATEKEEPER_SANDBOX_DB is the production database" in done.stderr
    assert not (tmp_path / "gatekeeper.db").exists()


def test_run_without_a_token_can_be_told_not_to_start_the_sandbox(monkeypatch, capsys):
    """The Docker image sets GATEKEEPER_SANDBOX=off: there, no token means the token's steps."""
    from bot.cli import main
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("GATEKEEPER_SANDBOX", "off")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "discord.com/developers/applications" in err

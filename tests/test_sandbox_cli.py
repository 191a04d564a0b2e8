"""`gatekeeper run` without a token starts the sandbox: a real process, its printed address
serves the page, and SIGTERM stops it cleanly."""
from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def read_until_url(proc: subprocess.Popen, seconds: float) -> tuple[str, str]:
    """The address to open and the whole banner printed with it."""
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    out = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if selector.select(timeout=1):
            line = proc.stdout.readline()
            if not line:
                break
            out += line
            found = re.search(r"Open (http://127\.0\.0\.1:\d+/) in a browser", out)
            if found and "set DISCORD_TOKEN" in line:  # the banner's last line
                return found.group(1), out
    raise AssertionError(f"no address printed; output so far:\n{out}\n{proc.stderr.read()}")


def test_run_without_a_token_starts_the_sandbox_and_stops_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "GATEKEEPER_SANDBOX_PORT")}
    env["GATEKEEPER_SANDBOX_DB"] = str(tmp_path / "sandbox.db")
    env["GATEKEEPER_DB"] = str(tmp_path / "production.db")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url, out = read_until_url(proc, 60)
        assert "DISCORD_TOKEN is not set: starting the local sandbox" in out
        assert f"Games are kept in {tmp_path / 'sandbox.db'}" in out
        assert "Ctrl-C stops it" in out and "Ready in" in out
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
            assert "Local sandbox" in page.read().decode()
        assert (tmp_path / "sandbox.db").exists() and not (tmp_path / "production.db").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, proc.stderr.read()


def test_the_sandbox_refuses_the_production_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["GATEKEEPER_SANDBOX_DB"] = env["GATEKEEPER_DB"] = str(tmp_path / "gatekeeper.db")
    done = subprocess.run([sys.executable, "-m", "bot", "sandbox"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "GATEKEEPER_SANDBOX_DB is the production database" in done.stderr
    assert not (tmp_path / "gatekeeper.db").exists()

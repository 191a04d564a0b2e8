"""A real PostgreSQL server for the tests and the soak (bench.soak): Debian's `postgresql`
binaries, a throw-away cluster on a free loopback port, one fresh database per test or run. As root (CI) the server runs as the
`postgres` user the Debian package creates, because PostgreSQL refuses to run as root."""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

INSTALL = ("apt-get update && apt-get install -y --no-install-recommends postgresql "
           "(the start of the README's test command)")


def binaries() -> Path:
    """The folder of initdb and pg_ctl, newest version first; a clear error when missing."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]), reverse=True)
    if found:
        return Path(found[0]).parent
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    raise RuntimeError(f"The PostgreSQL server binaries (initdb, pg_ctl) are not installed. "
                       f"Install them with: {INSTALL}.")


PORT_TRIES = 3  # starts on a new port when the one picked was taken meanwhile


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """initdb + pg_ctl start in a temporary folder; `stop()` removes it all."""

    def __init__(self) -> None:
        self.bin = binaries()
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="gatekeeper-pg-"))
        self.data = self.dir / "data"
        self._as: list[str] = []
        self._names = itertools.count(1)
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        try:
            done = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120)
        except OSError as exc:
            raise RuntimeError(f"{Path(args[0]).name} failed: {exc}") from None
        if done.returncode != 0:
            log = self.dir / "log"
            more = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{Path(args[0]).name} failed: {done.stdout}{done.stderr}{more}")

    def start(self) -> "PostgresServer":
        """initdb and start; on failure nothing is left behind (the error says why)."""
        try:
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                      "--auth=trust", "--encoding=UTF8", "--no-sync")
            with open(self.data / "postgresql.conf", "a") as conf:
                # A test cluster: loopback only, no socket file, durability traded for speed.
                conf.write("\nlisten_addresses = '127.0.0.1'\n"
                           "unix_socket_directories = ''\nfsync = off\nsynchronous_commit = off\n"
                           "full_page_writes = off\nmax_connections = 200\n")
            self._listen()
        except BaseException:
            self.stop()
            raise
        return self

    def _listen(self) -> None:
        """pg_ctl start on self.port. The port was free when picked, but anything else on the
        machine (another test worker's server or client socket) may take it before the server
        binds it: then start again on a new free port, a few times at most."""
        for attempt in range(PORT_TRIES):
            (self.dir / "log").unlink(missing_ok=True)  # each try's error names only its own cause
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                          str(self.dir / "log"), "-o", f"-p {self.port}", "-w", "-t", "60", "start")
                return
            except RuntimeError as exc:
                if "Address already in use" not in str(exc) or attempt == PORT_TRIES - 1:
                    raise
                self.port = free_port()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        name = f"gk_test_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def halt(self) -> None:
        """Stop the server as an outage would (its connections cut), keeping its databases."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start a halted server again on the same port, so the same URLs reach it."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
                  "-o", f"-p {self.port}", "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                          "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

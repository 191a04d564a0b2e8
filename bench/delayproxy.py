"""A slower network between the bot and PostgreSQL: a TCP proxy that holds each of the server's
answers for `delay` seconds before passing it on, so every round trip takes that much longer.

It runs as a process of its own: the bot's process sees only a server that answers later (one
wait per round trip, as on a real network), and shares neither its event loop nor its GIL with
the proxy (a proxy thread in the bot's process, waiting for the GIL, added up to 5 ms more to
some answers).

    with DelayProxy(url, 0.005) as slower_url:
        ...  # connect to slower_url instead of url

    python -m bench.delayproxy HOST PORT DELAY  # prints the port it listens on
"""
from __future__ import annotations

import contextlib
import queue
import socket
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit


class DelayProxy:
    def __init__(self, url: str, delay: float) -> None:
        self.url, self.delay = url, delay
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> str:
        """Start the proxy; the URL that reaches the server through it."""
        parts = urlsplit(self.url)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.delayproxy", parts.hostname or "127.0.0.1",
             str(parts.port or 5432), str(self.delay)], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        port = int(self.process.stdout.readline())
        auth = parts.netloc.rpartition("@")[0]
        return parts._replace(netloc=f"{auth}@127.0.0.1:{port}" if auth
                              else f"127.0.0.1:{port}").geturl()

    def __exit__(self, *exc: Any) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=10)


def serve(host: str, port: int, delay: float) -> None:
    """Accept clients on a free loopback port (printed), each joined to a new connection to
    the server: the client's bytes go on at once, the server's `delay` after they came."""
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        server = socket.create_connection((host, port))
        for sock in (client, server):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        passed(client, server, 0.0)
        passed(server, client, delay)


def passed(source: socket.socket, sink: socket.socket, delay: float) -> None:
    """Copy `source` to `sink`, each chunk `delay` seconds after it arrived, in order: a thread
    reads, another sends when each chunk is due. Threads and blocking sockets, not asyncio,
    because time.sleep ends within microseconds of the due time, while an event loop's sleep
    rounds up to the next millisecond (a 5 ms hold would take up to 6)."""
    chunks: queue.SimpleQueue[tuple[float, bytes]] = queue.SimpleQueue()

    def read() -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                chunks.put((time.perf_counter() + delay, data))
        chunks.put((0.0, b""))  # what arrived is still passed on, then the end

    def send() -> None:
        with contextlib.suppress(OSError):
            while (item := chunks.get())[1]:
                due, data = item
                if (wait := due - time.perf_counter()) > 0:
                    time.sleep(wait)
                sink.sendall(data)
        for sock in (sink, source):  # one side went away: so does the other
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    for job in (read, send):
        threading.Thread(target=job, daemon=True).start()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))

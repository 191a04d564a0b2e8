"""A slower network between the bot and PostgreSQL: a TCP proxy that holds each of the server's
answers for `delay` seconds before passing it on, so every round trip takes that much longer.

It runs as a process of its own: the bot's process sees only a server that answers later (one
wait per round trip, as on a real network), and shares neither its event loop nor its GIL with
the proxy (a proxy thread waiting for the GIL added up to 5 ms more to some answers).

    with DelayProxy(url, 0.005) as slower_url:
        ...  # connect to slower_url instead of url

    python -m bot.bench.delayproxy HOST PORT DELAY  # prints the port it listens on
"""
from __future__ import annotations

import asyncio
import subprocess
import sys
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
            [sys.executable, "-m", "bot.bench.delayproxy", parts.hostname or "127.0.0.1",
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


async def serve(host: str, port: int, delay: float) -> None:
    async def connection(client_in: asyncio.StreamReader,
                         client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(host, port)
        try:
            await asyncio.gather(passed(client_in, server_out, 0.0),
                                 passed(server_in, client_out, delay))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # one side went away: so does the other
        finally:
            client_out.close()
            server_out.close()

    server = await asyncio.start_server(connection, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


async def passed(source: asyncio.StreamReader, sink: asyncio.StreamWriter, delay: float) -> None:
    """Copy `source` to `sink`, each chunk `delay` seconds after it arrived, in order."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

    async def forward() -> None:
        while (item := await queue.get()) is not None:
            due, data = item
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            sink.write(data)
            await sink.drain()
        sink.close()

    forwarding = asyncio.create_task(forward())
    try:
        while data := await source.read(65536):
            queue.put_nowait((loop.time() + delay, data))
    finally:
        queue.put_nowait(None)  # what arrived is still passed on
    await forwarding


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))

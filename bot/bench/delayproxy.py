"""A slower network between the bot and PostgreSQL: a TCP proxy that holds each of the server's
answers for `delay` seconds before passing it on, so every round trip takes that much longer.

It runs its own event loop in a thread of its own: the bot's loop sees only a server that
answers later (one wait per round trip, as on a real network), not extra work or extra waits.

    with DelayProxy(url, 0.005) as slower_url:
        ...  # connect to slower_url instead of url
"""
from __future__ import annotations

import asyncio
import threading
from typing import Any
from urllib.parse import urlsplit


class DelayProxy:
    def __init__(self, url: str, delay: float) -> None:
        parts = urlsplit(url)
        self.url, self.delay = url, delay
        self.target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="delay-proxy",
                                       daemon=True)
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    def __enter__(self) -> str:
        """Start the proxy; the URL that reaches the server through it."""
        self.thread.start()
        self.server = self._call(asyncio.start_server(self._serve, "127.0.0.1", 0))
        port = self.server.sockets[0].getsockname()[1]
        parts = urlsplit(self.url)
        auth = parts.netloc.rpartition("@")[0]
        return parts._replace(netloc=f"{auth}@127.0.0.1:{port}" if auth
                              else f"127.0.0.1:{port}").geturl()

    def __exit__(self, *exc: Any) -> None:
        self._call(self._close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def _close(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.close()
        await self.server.wait_closed()

    async def _serve(self, client_in: asyncio.StreamReader,
                     client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(*self.target)
        self.writers |= {client_out, server_out}
        try:
            await asyncio.gather(self._pass(client_in, server_out, 0.0),
                                 self._pass(server_in, client_out, self.delay))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # one side went away: so does the other
        finally:
            for writer in (client_out, server_out):
                writer.close()
                self.writers.discard(writer)

    async def _pass(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    delay: float) -> None:
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

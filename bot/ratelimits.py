"""Publishing with Discord's rate limits, not against them.

Discord allows 5 message posts (and 5 edits) per 5 s in a channel. Two things follow:

- discord.py, after the request that spends a bucket's last token, sleeps until the bucket
  resets *before* returning, although the request succeeded. A board posted as the channel's
  5th message in 5 s was then recorded (and the game's publishing went on) only seconds later,
  and a process killed meanwhile lost the post. `answer_before_waiting` makes that request
  return at once; the wait moves to the next request of the same bucket, where discord.py
  already waits.
- A game's publisher should not queue a board behind that wait while a newer board is ready.
  `Budget` reads the rate-limit headers of every message request (through the aiohttp trace the
  bot already installs), so the Feed can wait *before* taking its batch, and a burst of commits
  during the wait goes out as one write of the newest state.
"""
from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

import discord.http

LONGEST_WINDOW = 10.0  # seconds: Discord's message buckets reset within 5
MESSAGE_WRITE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?$")
_refreshing: dict[int, "asyncio.Task[None]"] = {}  # id(bucket) -> its background refresh


def answer_before_waiting() -> None:
    """Patch discord.py's Ratelimit so that the request that empties a bucket returns at once
    and the bucket's refresh (the sleep until it resets) runs in the background. Requests that
    come meanwhile wait in `acquire`, as they would have anyway. Safe to call more than once."""
    ratelimit = discord.http.Ratelimit
    if getattr(ratelimit.__aexit__, "answers_before_waiting", False):
        return

    async def __aexit__(self: Any, *exc_info: Any) -> None:
        self.outgoing -= 1
        tokens = self.remaining - self.outgoing
        if self._sleeping.locked() or id(self) in _refreshing:
            return
        if tokens <= 0:
            task = asyncio.ensure_future(self._refresh())
            _refreshing[id(self)] = task
            task.add_done_callback(lambda _: _refreshing.pop(id(self), None))
        elif self._pending_requests:
            too_long = self._max_ratelimit_timeout and self.reset_after > self._max_ratelimit_timeout
            self._wake(tokens, exception=discord.RateLimited(self.reset_after) if too_long else None)

    __aexit__.answers_before_waiting = True  # type: ignore[attr-defined]
    ratelimit.__aexit__ = __aexit__  # type: ignore[method-assign]


@dataclass
class Window:
    remaining: int
    resets_at: float  # on the event loop's clock


class Budget:
    """What is left of each channel's message buckets, from Discord's answers."""

    def __init__(self) -> None:
        self.windows: dict[tuple[int, str], Window] = {}  # (channel, POST|PATCH) -> window

    def sent(self, method: str, path: str) -> None:
        """A request is on its way: count it before its answer comes."""
        window = self._window(method, path)
        if window is not None:
            window.remaining -= 1

    def answered(self, method: str, path: str, status: int, headers: Any) -> None:
        """Read the bucket from an answer. A 429 says the bucket is spent until Retry-After,
        unless that is longer than a bucket's window (an outage: the delivery retries it)."""
        match = MESSAGE_WRITE.search(path)
        remaining, reset_after = headers.get("X-RateLimit-Remaining"), \
            headers.get("X-RateLimit-Reset-After")
        if status == 429:
            remaining, reset_after = "0", headers.get("Retry-After", reset_after)
            if reset_after is None or float(reset_after) > LONGEST_WINDOW:
                return
        if match is None or remaining is None or reset_after is None:
            return
        now = asyncio.get_running_loop().time()
        self.windows[(int(match[1]), method)] = Window(int(remaining), now + float(reset_after))

    def wait_needed(self, channel_id: int, method: str, keep: int = 0) -> float:
        """Seconds until the channel's bucket for `method` has room for one more request
        beyond `keep` spare ones (0: it has now)."""
        window = self.windows.get((channel_id, method))
        if window is None or window.remaining > keep:
            return 0.0
        return max(0.0, window.resets_at - asyncio.get_running_loop().time())

    async def room(self, channel_id: int, method: str, keep: int = 0) -> None:
        """Wait until the channel's bucket for `method` has room beyond `keep` spare ones."""
        while (wait := self.wait_needed(channel_id, method, keep)) > 0:
            await asyncio.sleep(wait)

    def _window(self, method: str, path: str) -> Window | None:
        match = MESSAGE_WRITE.search(path)
        if match is None:
            return None
        window = self.windows.get((int(match[1]), method))
        if window is None or window.resets_at <= asyncio.get_running_loop().time():
            return None
        return window

"""Wall clock and timer scheduling, swappable for a fake clock in tests (no sleeping)."""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Callable, Protocol


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...
    def call_at(self, when: float, callback: Callable[[], None]) -> Handle: ...


class RealClock:
    """Unix time; callbacks run on the event loop (asyncio keeps them in one heap)."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


class _FakeHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that only moves when told to; `advance` runs every callback that falls due."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, _FakeHandle, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        handle = _FakeHandle()
        heapq.heappush(self._heap, (when, next(self._order), handle, callback))
        return handle

    def advance(self, seconds: float) -> int:
        """Move time on; return how many callbacks ran."""
        target = self._now + seconds
        ran = 0
        while self._heap and self._heap[0][0] <= target:
            when, _, handle, callback = heapq.heappop(self._heap)
            self._now = max(self._now, when)
            if not handle.cancelled:
                callback()
                ran += 1
        self._now = target
        return ran

    def pending(self) -> int:
        return sum(1 for _, _, handle, _ in self._heap if not handle.cancelled)

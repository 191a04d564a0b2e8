"""Ordered, coalescing publishing: what the channel shows converges to the committed game.

Each game has one Feed. The table pushes a snapshot of every commit (taken under the game lock,
so it is exactly what was committed); one task per game drains the feed outside the lock, in
commit order. A burst is coalesced: if versions 7 and 8 both wait, one publish shows 8 (with the
log lines of both), so a fast game never queues behind Discord's per-channel rate limit.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from games.core import Event

log = logging.getLogger("gatekeeper.feed")


@dataclass
class Change:
    """What one or more commits did, for the messages that report it."""

    seat: int | None
    actions: list[str]
    events: list[Event]
    turn_changed: bool
    source: str
    origin: Any = None  # the Discord interaction behind it, if any (to answer through it)

    def merge(self, later: "Change") -> "Change":
        return Change(later.seat, self.actions + later.actions, self.events + later.events,
                      self.turn_changed or later.turn_changed, later.source,
                      later.origin or self.origin)


@dataclass
class Snapshot:
    """A committed table as it was at commit time (the table object itself moves on)."""

    table: Any  # a copy of bot.table.Table: same attributes, frozen in time
    change: Change | None  # None: republish the current board (start-up, /status, behind)
    fresh_board: bool = False  # post a new board message even within a turn (/status)


async def always_ready(pending: list[Snapshot], arrival: asyncio.Event) -> None:
    return None


@dataclass
class Feed:
    publish: Callable[[Snapshot], Awaitable[None]]
    spawn: Callable[[Awaitable[None]], Any]
    # Waits while the write the waiting snapshots need has no rate-limit budget left; it gets
    # the live list, so commits that arrive meanwhile join the batch taken after the wait, and
    # an event set at each arrival (a new commit may need another write, or a more urgent one).
    ready: Callable[[list[Snapshot], asyncio.Event], Awaitable[None]] = always_ready
    pending: list[Snapshot] = field(default_factory=list)
    busy: bool = False
    published: int = 0  # snapshots handed to `publish` (a burst counts once)
    arrival: asyncio.Event = field(default_factory=asyncio.Event)

    def push(self, snapshot: Snapshot) -> None:
        self.pending.append(snapshot)
        self.arrival.set()
        if not self.busy:
            self.busy = True
            self.spawn(self._drain())

    async def _drain(self) -> None:
        try:
            while self.pending:
                try:
                    await self.ready(self.pending, self.arrival)
                except Exception:  # a budget we cannot read is no reason not to publish
                    log.exception("feed readiness failed game=%s", self.pending[-1].table.id)
                batch, self.pending = self.pending, []
                try:
                    await self.publish(coalesce(batch))
                    self.published += 1
                except Exception:  # the next commit or a stale click republishes the board
                    log.exception("publish failed game=%s", batch[-1].table.id)
        finally:
            self.busy = False


def coalesce(batch: list[Snapshot]) -> Snapshot:
    """The newest snapshot, carrying what every snapshot in the burst reported."""
    newest = batch[-1]
    change: Change | None = None
    for snapshot in batch:
        if snapshot.change is not None:
            change = snapshot.change if change is None else change.merge(snapshot.change)
    return Snapshot(newest.table, change, any(s.fresh_board for s in batch))

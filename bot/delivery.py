"""Delivery: every message the bot owns converges to the state the game has committed.

The game commits first; what Discord shows catches up. Each message (a lobby, a board, a DM, a
Gatekeeper line, a notice) has a key and at most one pending delivery: the latest desired state.
A send or edit that fails for a passing reason (a 5xx, a 429 that outlasts discord.py's own
wait, a timeout, a dropped connection) is tried again later, with exponential backoff and jitter
on the injectable clock; a newer state that arrives meanwhile replaces (or merges into) the one
waiting. Limits keep an outage from being made worse: one pending delivery per message, a cap
on retries per channel per minute, and a bounded number of tries, after which one log line says
which message gave up and why (the next change, or a click on what is behind, tries again).

discord.py retries a 500/502/504 itself, sleeping 1, 3, 5 and 7 s: with our own retries on top
a message would cost up to five requests per try. `single_retry_layer` makes those answers
reach us at once on the message routes, so one layer (this one) owns the retries there.
A 429 on a message route (a spent bucket) of more than SLEEP_AT_MOST comes to us at once as
RateLimited too, so a newer state can go out in its place; discord.py keeps the global limit,
short waits and the other routes' 429s.
"""
from __future__ import annotations

import asyncio
import bisect
import logging
import random
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Hashable

import aiohttp
import discord

from .clock import Clock, Handle
from .permissions import MISSING_PERMISSIONS
from .ratelimits import Budget

log = logging.getLogger("gatekeeper.delivery")

BASE_DELAY = 0.5  # seconds before the first retry (then doubled each try, with jitter)
MAX_DELAY = 8.0  # so a message converges within 8 s of the failures ending (retries never pile up:
# one pending delivery per message, and CHANNEL_RETRIES_PER_MINUTE)
ATTEMPT_TIMEOUT = 60.0  # seconds an attempt may take (a request Discord never answers)
MAX_TRIES = 12  # failed attempts in a row before a message gives up (about a minute)
CHANNEL_RETRIES_PER_MINUTE = 30
PARKED_RETRY = 60.0  # seconds between tries of a write refused for a missing permission
MESSAGE_ROUTES = re.compile(  # posts and edits of messages, DMs, a lobby in its /play answer
    r"/channels/\d+/messages(/\d+)?$|/users/@me/channels$|/webhooks/\d+/[^/]+/messages/@original$")
RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})
SLEEP_AT_MOST = 0.5  # seconds of a message route's 429 that discord.py may sleep out itself


class ServerError(Exception):
    """Discord answered a message request with a 5xx (raised at once, see single_retry_layer)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"Discord answered {status}")
        self.status = status


def single_retry_layer(budget: Budget | None = None) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's session: a 5xx on a message route raises ServerError
    instead of entering discord.py's sleep-and-retry loop (the delivery retries it). It also
    tells `budget` what each message request spends of its channel's rate limits."""
    async def on_request_start(session: Any, context: Any, params: Any) -> None:
        if budget is not None:
            budget.sent(params.method, params.url.path)

    async def on_request_end(session: Any, context: Any, params: Any) -> None:
        response = params.response
        if budget is not None:
            budget.answered(params.method, params.url.path, response.status, response.headers)
        if not MESSAGE_ROUTES.search(params.url.path):
            return
        if response.status in RETRIED_BY_DISCORD_PY:
            raise ServerError(response.status)
        retry_after = float(response.headers.get("Retry-After", 0.0))
        if response.status == 429 and retry_after > SLEEP_AT_MOST \
                and "X-RateLimit-Global" not in response.headers:
            # a spent bucket: discord.py would sleep out Retry-After inside the request, with
            # the game's publishing waiting behind it; the delivery retries it instead, with
            # whatever newer state has come meanwhile (the global limit stays discord.py's,
            # and so do waits short enough not to hold a board back)
            raise discord.RateLimited(retry_after)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    return trace


def retry_reason(exc: BaseException) -> str | None:
    """Why a failed attempt is worth trying again, or None if it is not (a 4xx: retrying the
    same request would only be refused again)."""
    if isinstance(exc, ServerError):
        return f"server error {exc.status}"
    if isinstance(exc, discord.RateLimited):
        return f"rate limited for {exc.retry_after:.0f} s"
    if isinstance(exc, discord.HTTPException):
        if exc.status >= 500 or exc.status == 429:
            return f"HTTP {exc.status}"
        return None
    if isinstance(exc, asyncio.TimeoutError):
        return "timeout"
    if isinstance(exc, (aiohttp.ClientError, OSError)):
        return f"connection: {type(exc).__name__}"
    return None


def missing_permission(exc: BaseException) -> bool:
    return isinstance(exc, discord.Forbidden) and exc.code == MISSING_PERMISSIONS


def describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status} code {exc.code}"
    return f"{type(exc).__name__}: {exc}"


def newest(older: Any, newer: Any) -> Any:
    return newer


@dataclass(eq=False)
class Slot:
    """One message's pending delivery."""

    key: Hashable
    channel_id: int
    state: Any  # the desired state not yet attempted (None: nothing waiting)
    attempt: Callable[[Any, "Slot"], Awaitable[None]]
    merge: Callable[[Any, Any], Any]
    nonce: str = field(default_factory=lambda: secrets.token_hex(12))
    tries: int = 0  # failed attempts in a row
    kept: dict[str, Any] = field(default_factory=dict)  # an attempt's work, reused by its retries
    running: bool = False
    timer: Handle | None = None
    parked: bool = False  # refused for a missing permission: tried again when one is granted


class Delivery:
    def __init__(self, clock: Clock, spawn: Callable[[Awaitable[None]], Any],
                 rng: random.Random | None = None,
                 refused: Callable[[int, str | None], None] = lambda channel_id, why: None
                 ) -> None:
        self.clock = clock
        self.spawn = spawn
        self.rng = rng or random.Random()
        # told of a channel whose writes are refused for a missing permission (why=None) or
        # that a message gave up on (why: the reason), so a waiting game is never silent
        self.refused = refused
        self.slots: dict[Hashable, Slot] = {}
        self._retries: dict[int, list[float]] = {}  # channel -> times of retries (last minute)
        self.gave_up = 0

    def send(self, key: Hashable, channel_id: int, state: Any,
             attempt: Callable[[Any, Slot], Awaitable[None]],
             merge: Callable[[Any, Any], Any] = newest) -> None:
        """Deliver `state` in the background (the first attempt starts now)."""
        slot = self._want(key, channel_id, state, attempt, merge)
        if slot is not None:
            self.spawn(self._run(slot))

    async def deliver(self, key: Hashable, channel_id: int, state: Any,
                      attempt: Callable[[Any, Slot], Awaitable[None]],
                      merge: Callable[[Any, Any], Any] = newest, *, now: bool = False) -> None:
        """Deliver `state`, waiting for the first attempt (so messages go out in call order);
        retries, if any, happen later in the background. `now`: a retry that waits is not
        waited for (the new state has a way round what failed: an edit through a click)."""
        waiting = self.slots.get(key)
        if now and waiting is not None and not waiting.running and waiting.timer is not None:
            waiting.timer.cancel()
            self._want(key, channel_id, state, attempt, merge)
            await self._run(waiting)
            return
        slot = self._want(key, channel_id, state, attempt, merge)
        if slot is not None:
            await self._run(slot)

    def pending(self, key: Hashable) -> bool:
        return key in self.slots

    def close(self) -> None:
        for slot in self.slots.values():
            if slot.timer is not None:
                slot.timer.cancel()
        self.slots.clear()

    def _want(self, key: Hashable, channel_id: int, state: Any,
              attempt: Callable[[Any, Slot], Awaitable[None]],
              merge: Callable[[Any, Any], Any]) -> Slot | None:
        """Record the desired state; the slot to run now, or None if one is running or waiting
        (it will pick this state up)."""
        slot = self.slots.get(key)
        if slot is not None:
            slot.state = state if slot.state is None else slot.merge(slot.state, state)
            slot.attempt = attempt
            return None
        slot = self.slots[key] = Slot(key, channel_id, state, attempt, merge)
        return slot

    async def _run(self, slot: Slot) -> None:
        slot.running, slot.timer = True, None
        try:
            while slot.state is not None:
                state, slot.state = slot.state, None
                try:
                    await asyncio.wait_for(slot.attempt(state, slot), ATTEMPT_TIMEOUT)
                except Exception as exc:  # noqa: BLE001 - classified: retried or given up
                    slot.state = state if slot.state is None else slot.merge(state, slot.state)
                    if missing_permission(exc):
                        self._park(slot)
                        return
                    slot.tries += 1
                    why = retry_reason(exc)
                    if why is None or slot.tries >= MAX_TRIES:
                        self._give_up(slot, why or describe(exc))
                    else:
                        self._retry(slot, exc, why)
                    return
                slot.tries, slot.parked = 0, False
                slot.nonce = secrets.token_hex(12)  # the next post is a new message
            if self.slots.get(slot.key) is slot:  # (close() may have dropped it meanwhile)
                del self.slots[slot.key]
        finally:
            slot.running = False

    def _park(self, slot: Slot) -> None:
        """A write refused for a missing permission: no retry storm. Say so (the host is told
        once), and try again when a permission changes (`retry_parked`) or, failing word of
        it, every PARKED_RETRY seconds."""
        first = not slot.parked
        slot.parked = True
        log.info("delivery parked message=%s channel=%s: missing permission", slot.key,
                 slot.channel_id)
        slot.timer = self.clock.call_at(self.clock.now() + PARKED_RETRY,
                                        lambda: self.spawn(self._run(slot)))
        if first:
            self.refused(slot.channel_id, None)

    def retry_parked(self) -> int:
        """Permissions changed somewhere: try every parked message again now. How many."""
        parked = [slot for slot in self.slots.values() if slot.parked and not slot.running]
        for slot in parked:
            if slot.timer is not None:
                slot.timer.cancel()
            self.spawn(self._run(slot))
        return len(parked)

    def _retry(self, slot: Slot, exc: BaseException, why: str) -> None:
        ceiling = min(MAX_DELAY, BASE_DELAY * 2 ** (slot.tries - 1))
        delay = ceiling / 2 + self.rng.uniform(0, ceiling / 2)
        if isinstance(exc, discord.RateLimited):
            delay = max(delay, exc.retry_after)
        when = self._channel_slot(slot.channel_id, self.clock.now() + delay)
        log.info("delivery retry message=%s try=%d in=%.1fs why=%s", slot.key, slot.tries,
                 when - self.clock.now(), why)
        slot.timer = self.clock.call_at(when, lambda: self.spawn(self._run(slot)))

    def _channel_slot(self, channel_id: int, when: float) -> float:
        """The earliest time from `when` that keeps every minute of the channel's retries
        within the cap (any minute holding `when` lies within a minute either side of it)."""
        times = self._retries.setdefault(channel_id, [])
        del times[:bisect.bisect_right(times, self.clock.now() - 60.0)]
        while True:
            near = times[bisect.bisect_right(times, when - 60.0):bisect.bisect_left(times, when + 60.0)]
            if len(near) < CHANNEL_RETRIES_PER_MINUTE:
                bisect.insort(times, when)
                return when
            when = near[0] + 60.0

    def _give_up(self, slot: Slot, why: str) -> None:
        self.gave_up += 1
        if self.slots.get(slot.key) is slot:
            del self.slots[slot.key]
        log.warning("delivery gave up message=%s channel=%s tries=%d why=%s", slot.key,
                    slot.channel_id, slot.tries, why)
        self.refused(slot.channel_id, why)

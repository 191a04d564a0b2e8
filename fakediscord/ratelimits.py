"""Discord's per-route rate limits, enforced by the fake as Discord enforces them.

Discord counts requests per bucket: a route (method and path shape) and its major parameter
(the channel, or the webhook's token). A bucket allows `limit` requests in a window that opens
with its first request; every answer carries the X-RateLimit-* headers that tell the client how
many are left and when the window resets, and a request past the limit is answered 429 with
retry_after. discord.py reads those headers and waits on its own before the next request, so the
bot meets the same waits in the tests as in a real channel (5 posts per 5 s per channel is what
made boards fall behind in fast games).

`scale` shrinks every window (0.1: 5 posts per 0.5 s) for tests that are not about timing; a
fake made without its own RateLimits takes DEFAULT_SCALE (1: Discord's windows; the test suite
sets 0.1 in tests/conftest.py). `real_rate_limits=False` on the fake turns enforcement off.
"""
from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

# (method or None for any, path pattern whose first group is the major parameter, limit, window s)
DISCORD_LIMITS: tuple[tuple[Optional[str], str, int, float], ...] = (
    ('POST', r'^/channels/(\d+)/messages$', 5, 5.0),  # also DM channels: per recipient
    ('PATCH', r'^/channels/(\d+)/messages/\d+$', 5, 5.0),
    ('DELETE', r'^/channels/(\d+)/messages/\d+$', 5, 1.0),
    (None, r'^/webhooks/\d+/([^/]+)', 5, 2.0),  # an interaction's follow-ups and edits
)
OTHER_ROUTES = (50, 1.0)  # any other route, per path shape
DEFAULT_SCALE = 1.0


@dataclass
class Bucket:
    limit: int
    window: float
    used: int = 0
    resets_at: float = 0.0


@dataclass
class Verdict:
    """What a request gets: the headers for its answer, and a retry_after when it is refused."""

    headers: dict[str, str]
    retry_after: Optional[float] = None


@dataclass
class RateLimits:
    scale: float | None = None  # None: DEFAULT_SCALE when made
    clock: Callable[[], float] = time.monotonic
    table: tuple[tuple[Optional[str], str, int, float], ...] = DISCORD_LIMITS
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (method, path) answered 429

    def __post_init__(self) -> None:
        if self.scale is None:
            self.scale = DEFAULT_SCALE
        self._rules = [(m, re.compile(p), n, w) for m, p, n, w in self.table]

    def take(self, method: str, path: str) -> Verdict:
        """Count one request (or refuse it) and say what its answer's headers are."""
        name, major, limit, window = self._bucket_of(method, path)
        bucket = self.buckets.get((name, major))
        if bucket is None:
            bucket = self.buckets[(name, major)] = Bucket(limit, window * (self.scale or 1.0))
        now = self.clock()
        if now >= bucket.resets_at:
            bucket.used, bucket.resets_at = 0, now + bucket.window
        reset_after = bucket.resets_at - now
        if bucket.used >= bucket.limit:
            self.refused.append((method, path))
            return Verdict(headers(name, bucket.limit, 0, reset_after), reset_after)
        bucket.used += 1
        return Verdict(headers(name, bucket.limit, bucket.limit - bucket.used, reset_after))

    def _bucket_of(self, method: str, path: str) -> tuple[str, str, int, float]:
        for rule_method, pattern, limit, window in self._rules:
            match = pattern.match(path)
            if match and rule_method in (None, method):
                return f'{rule_method} {pattern.pattern}', match.group(1), limit, window
        shape = re.sub(r'\d{5,}', ':id', path)
        return f'{method} {shape}', '', *OTHER_ROUTES


def headers(bucket: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        'X-RateLimit-Limit': str(limit),
        'X-RateLimit-Remaining': str(remaining),
        'X-RateLimit-Reset': f'{time.time() + reset_after:.3f}',
        'X-RateLimit-Reset-After': f'{reset_after:.3f}',
        'X-RateLimit-Bucket': hashlib.md5(bucket.encode()).hexdigest()[:16],
    }

"""Injected Discord failures for the fake: 5xx answers, 429s with retry-after, dropped connections.

The fake's aiohttp app runs `Faults.middleware` in front of every REST request, so a rule sees a
request before the fake handles it and can answer for it (a 500, 503 or 429, or one of Discord's
refusals by its code: 10008, 10015, 10062, 40060), cut the connection
before it lands ("drop"), or let it land and cut the connection before the answer goes out
("drop-after": the request took effect but the client never hears so, as in a real outage).

    fake.faults.add("PATCH", r"/channels/\\d+/messages/\\d+", outcomes=(503,), count=2)
    fake.faults.add(None, r"^/channels/", outcomes=(500, 503, 429, "drop"), count=None,
                    probability=0.05)
    fake.faults.add("POST", r"^/interactions/\\d+/[^/]+/callback", outcomes=(10062,))

A rule fires for its next `count` matching requests (None: no limit; after letting `skip`
through), each time or (with `probability`) at random from a seeded RNG, so a run with the same seed fails the same way.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, NoReturn

from aiohttp import web

Outcome = int | str  # 500, 502, 503, 429, "drop", "drop-after", or a Discord error code below
DROPS = ("drop", "drop-after")
# Discord's own refusals, by their JSON error code: what an interaction's answer may meet when
# its message was deleted meanwhile, the interaction expired, or an answer already landed.
REFUSALS = {10008: (404, "Unknown Message"), 10015: (404, "Unknown Webhook"),
            10062: (404, "Unknown interaction"),
            40060: (400, "Interaction has already been acknowledged.")}


@dataclass
class Rule:
    method: str | None  # None: any method
    route: re.Pattern[str]  # searched in the API path (after /api/v10)
    outcomes: tuple[Outcome, ...]
    count: int | None = 1  # fire for this many more matching requests (None: no limit)
    probability: float | None = None  # fire at random with this chance instead of always
    channel: int | None = None  # only requests about this channel id
    retry_after: float = 0.05
    global_limit: bool = False
    skip: int = 0  # matching requests let through before the rule starts firing
    fired: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.method is not None and self.method != method:
            return False
        if self.channel is not None and f"/channels/{self.channel}/" not in path + "/":
            return False
        if self.count == 0 or self.route.search(path) is None:
            return False
        if self.skip:
            self.skip -= 1
            return False
        return True


@dataclass
class Faults:
    rng: random.Random = field(default_factory=lambda: random.Random(0))  # seed it for a run
    rules: list[Rule] = field(default_factory=list)
    injected: list[tuple[str, str, Outcome]] = field(default_factory=list)  # method, path, outcome

    def add(self, method: str | None, route: str, *, outcomes: tuple[Outcome, ...] = (500,),
            count: int | None = 1, probability: float | None = None, channel: int | None = None,
            retry_after: float = 0.05, global_limit: bool = False, skip: int = 0) -> Rule:
        for outcome in outcomes:
            if outcome not in (500, 502, 503, 504, 429, *DROPS, *REFUSALS):
                raise ValueError(f"unknown fault outcome {outcome!r}")
        rule = Rule(method.upper() if method else None, re.compile(route), outcomes, count,
                    probability, channel, retry_after, global_limit, skip)
        self.rules.append(rule)
        return rule

    def pick(self, method: str, path: str) -> tuple[Rule, Outcome] | None:
        """The rule that fires for this request and the failure it gets, if any."""
        for rule in self.rules:
            if not rule.matches(method, path):
                continue
            if rule.probability is not None and self.rng.random() >= rule.probability:
                continue
            if rule.count is not None:
                rule.count -= 1
            rule.fired += 1
            outcome = rule.outcomes[self.rng.randrange(len(rule.outcomes))]
            self.injected.append((method, path, outcome))
            return rule, outcome
        return None

    @web.middleware
    async def middleware(self, request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                         ) -> web.StreamResponse:
        match = re.match(r"^/api(?:/v\d+)?(/.*)$", request.path)
        fault = self.pick(request.method, match.group(1)) if match and self.rules else None
        if fault is None:
            return await handler(request)
        rule, outcome = fault
        if outcome == "drop-after":
            await handler(request)  # it lands; the answer never arrives
            _hang_up(request)
        await request.read()
        if outcome == "drop":
            _hang_up(request)
        if outcome == 429:
            return _too_many(rule.retry_after, rule.global_limit)
        if outcome in REFUSALS:
            status, message = REFUSALS[outcome]  # type: ignore[index]
            return _json({"message": message, "code": outcome}, status)
        return _json({"message": f"injected {outcome}", "code": 0}, int(outcome))


def _hang_up(request: web.Request) -> NoReturn:
    """Close the connection without an answer (the client sees the server disconnect)."""
    if request.transport is not None:
        request.transport.abort()
    raise web.HTTPInternalServerError()  # not sent: the transport is already gone


def _too_many(retry_after: float, is_global: bool) -> web.Response:
    body: dict[str, Any] = {"message": "You are being rate limited.", "retry_after": retry_after,
                            "global": is_global, "code": 0}
    headers = {
        "Retry-After": f"{retry_after:.3f}",
        "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return _json(body, 429, headers)


def _json(data: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py compares Content-Type for equality with application/json (no charset)
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})

"""No dead buttons: the newest board always takes its player's click.

People click at machine speed through the fake Discord, with Discord's own rate limits (5 posts
and 5 edits per 5 s in a channel, real windows), in every game, some games with AI seats and
some with the bot killed at random points (between a commit and its publish included) and
started again. Throughout, a watcher checks the invariant: whenever every commit is more than
a second old, the channel's newest message with this game's controls carries, for every person
who has something to do, a button with that seat's current token. Nobody types /status.
"""
from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from dataclasses import dataclass, field

import discord.gateway
import pytest

from fakediscord import FakeDiscord
from tests.harness import InThreadHarness, Players, until

# Seconds after a commit by which the controls must be current: the bot's target is 1 s; the
# guard allows half a second more for a CI machine whose two cores run three test workers.
WITHIN = 1.5
MOVES = 26  # commits per game (or its end)
# A process killed outright is back when its supervisor has started it again and it has
# connected: seconds, not the 0.2 s a new bot in this process takes.
DOWNTIME = 1.5


def live_controls(players: Players, game_id: int) -> list:
    """The channel's messages that still show buttons of this game's seats."""
    marker = f"gk:{game_id}:"
    return [m for m in players.channel_messages()
            if any(cid and cid.startswith(marker) and not disabled
                   for cid, _, disabled in m.buttons())]


def issued(message) -> set[tuple[int, int]]:
    found = set()
    for custom_id, _, disabled in message.buttons() + [(c, "", False) for c, _ in message.selects()]:
        _, _, seat, token, *_ = custom_id.split(":")
        if seat.isdigit() and not disabled:
            found.add((int(seat), int(token)))
    return found


def missing(players: Players) -> set[tuple[int, int]]:
    """(seat, token) of each person with something to do whose current buttons are neither on
    the newest board nor in the newest private panel they opened."""
    table = players.table()
    if table is None or table.status != "running":
        return set()
    wanted = {(s, table.tokens[s]) for s, p in enumerate(table.prompts)
              if p is not None and not table.seats[s].ai}
    shown = live_controls(players, table.id)
    gap = wanted - (issued(shown[-1]) if shown else set())
    marker = f"gk:{table.id}:"
    for seat, token in set(gap):
        panels = [m for m in players.fake.ephemerals(table.seats[seat].user_id)
                  if any(cid and cid.startswith(marker) for cid, _, _ in m.buttons())]
        if panels and (seat, token) in issued(panels[-1]):
            gap.discard((seat, token))
    return gap


def done(players: Players, version: int) -> bool:
    """The game has reached `version`, or is over (it then leaves the bot's tables)."""
    table = players.table()
    return table is None or table.version >= version or table.status != "running"


@dataclass
class Watch:
    """Polls the table and records every second that someone's current buttons are missing."""

    players: Players
    lags: list[tuple[int, float, set]] = field(default_factory=list)
    paused: bool = False

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        behind_since = None
        while True:
            await asyncio.sleep(0.005)
            if self.paused:
                behind_since = None
                continue
            table = self.players.table()
            gap = missing(self.players)
            if not gap:
                behind_since = None
                continue
            behind_since = behind_since or loop.time()
            lag = loop.time() - behind_since
            if lag > WITHIN:
                self.lags.append((table.version if table else -1, lag, gap))
                behind_since = loop.time()  # one report per second of lag


async def person(players: Players, name: str, rng: random.Random, stop: asyncio.Event) -> None:
    """Clicks a random choice of their own the moment the newest board offers it."""
    user = players.users[name]
    while not stop.is_set():
        table = players.table()
        if table is None or table.status != "running":
            await asyncio.sleep(0.01)
            continue
        seat = table.seat_of(user)
        prompt = table.prompts[seat] if seat is not None else None
        shown = live_controls(players, table.id)
        if prompt is None or not shown or (seat, table.tokens[seat]) in missing(players):
            await asyncio.sleep(0.005)
            continue
        choice = rng.choice(prompt.choices)
        action = choice.action + (" my fear" if choice.input else "")
        try:
            await players.click_choice(table, seat, action, shown[-1])
        except Exception:  # the board moved on under the click: look again
            await asyncio.sleep(0.01)


async def crash(fake: FakeDiscord, harness: InThreadHarness) -> None:
    """Stop the bot as kill -9 would (no drain, nothing pending published, no goodbye to the
    gateway), then start a new one on the same database."""
    bot = harness.bot
    bot.dispatch = lambda *args, **kwargs: None  # a dead process handles nothing
    bot._closing_task = asyncio.get_running_loop().create_future()  # and never reconnects
    for task in {*bot.service._tasks, *bot._inflight, harness.task, bot._heartbeat}:
        if task is not None:
            task.cancel()
    for table in bot.service.tables.values():
        for handle in table.handles.values():
            handle.cancel()
    bot.delivery.close()
    for thread in threading.enumerate():  # its threads die with it: discord.py's heartbeat too
        if isinstance(thread, discord.gateway.KeepAliveHandler) \
                and thread.ws._connection is bot._connection:
            thread.stop()
    await fake.drop_gateway(abort=True)
    with contextlib.suppress(BaseException):
        await harness.task
    await bot.http.close()
    await bot.store.close()
    await asyncio.sleep(DOWNTIME)
    await harness.start()  # (harness.bot is the new bot from here on)


GAMES = [
    ("castle", ["Ana", "Bo"], 1, 0),
    ("castle", ["Ana", "Bo", "Cy"], 0, 1),
    ("dontgo", ["Ana", "Bo", "Cy"], 0, 2),
    ("firetop", ["Ana", "Bo"], 1, 1),
    ("kingdom", ["Ana", "Bo"], 0, 1),
    ("atmosfear", ["Ana", "Bo", "Cy"], 0, 1),
    ("keypile", ["Ana", "Bo", "Cy"], 0, 1),
]


@pytest.mark.parametrize("game, names, ais, crashes", GAMES,
                         ids=[f"{g}-{len(n)}p-{a}ai-{c}kill" for g, n, a, c in GAMES])
async def test_the_newest_controls_always_take_the_click(request, discord_with_real_limits,
                                                         tmp_path, game, names, ais, crashes):
    if game == "keypile":
        request.getfixturevalue("keypile")
    fake = discord_with_real_limits
    harness = InThreadHarness(fake, tmp_path / "gk.db", ai_delay=1.0)
    await harness.start()
    players = Players(fake, harness, names)
    stop = asyncio.Event()
    watch = Watch(players)
    try:
        table = await players.start_game(names[0], names[1:], ais=ais, game=game)
        rng = random.Random(f"{game}{len(names)}{crashes}")
        kill_at = sorted(rng.sample(range(4, MOVES - 4), crashes))
        start = table.version
        tasks = [asyncio.create_task(watch.run())]
        tasks += [asyncio.create_task(person(players, name, random.Random(f"{name}{game}"), stop))
                  for name in names]
        try:
            for at in kill_at:
                await until(lambda: done(players, start + at), timeout=60, what=f"commit {at}")
                if players.table() is None:
                    break  # the game is over
                watch.paused = True  # a dead bot shows nothing: the clock restarts with it
                await crash(fake, harness)
                watch.paused = False
            await until(lambda: done(players, start + MOVES), timeout=90, what=f"{MOVES} moves")
            await asyncio.sleep(WITHIN)  # the last commits' controls have their second
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        bot = harness.bot
        await players.settle(players.table())
        await until(lambda: not bot.delivery.slots, timeout=30,
                    what="retries (a retirement that met a spent bucket) to finish")
        assert watch.lags == [], f"controls lagged (version, seconds, missing): {watch.lags[:5]}"
        assert not missing(players)
        live = live_controls(players, table.id)
        if players.table() is not None:  # no orphan: the recorded board alone has live controls
            assert [m.id for m in live] == [bot.store.messages(table.id)["board"][1]], live
        else:  # over: nothing but Play again
            assert (await bot.store.game(table.id))["status"] == "over"
            assert all(":again:" in cid for m in live for cid, _, _ in m.buttons()), live
    finally:
        stop.set()
        await harness.stop()

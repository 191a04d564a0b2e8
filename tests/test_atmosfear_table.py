"""Atmosfear at a bot table on a fake clock: while the Gatekeeper is on screen nobody is timed out,
no AI answers him for a person, and his time on screen is not taken from anyone's turn."""
from __future__ import annotations

import asyncio

from bot.clock import FakeClock
from bot.store import Store
from bot.table import TableService


class Quiet:
    async def lobby_changed(self, table): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...
    async def game_changed(self, table, result): ...


async def drain(service):
    for _ in range(3):
        await asyncio.sleep(0)
        if service._tasks:
            await asyncio.gather(*list(service._tasks))


async def test_nobody_is_timed_out_while_the_gatekeeper_speaks(tmp_path):
    clock = FakeClock()
    # a turn timeout shorter than his answer deadline: it would fire first if it were armed
    service = TableService(Store(tmp_path / "t.db"), Quiet(), clock, turn_timeout=4, ai_delay=0)
    table = await service.open_lobby("atmosfear", 1, 10, 100, "Ana", seed=5)
    for user, name in ((101, "Bo"), (102, "Cy")):
        await service.lobby(table.id, user, name, "join")
    await service.lobby(table.id, 100, "Ana", "start")
    for seat in table.seats:
        await service.act(table.id, seat.user_id, f"fear of {seat.name}", None, source="test")
    game = table.game
    calls = leaves = 0
    was_on = False
    for _ in range(2000):
        clock.advance(1)
        await drain(service)
        if table.status != "running":
            break
        gk = table.state.data["gk"]
        if gk["on"]:
            assert game.paused(table.state)
            assert not [t for t in table.timers if t["kind"] in ("timeout", "warn")]
            calls += gk["calling"] is not None
        elif was_on:  # he just left: the one who plays on has a whole turn's time again
            done = await service.store.actions(table.id)
            left = [a for a in done if a["action"] == "gk leave"][-1]
            assert table.turn_started >= left["at"]
            leaves += 1
        was_on = gk["on"]
    actions = await service.store.actions(table.id)
    assert calls and leaves and "gk late" in [a["action"] for a in actions]
    assert not [a for a in actions if a["action"] == "yes" and a["source"] != "test"]

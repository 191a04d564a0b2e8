"""Recovery: nothing a player typed is lost, a dead render worker is replaced, a board that
cannot be drawn goes out as text, and a failing AI never leaves a game waiting."""
from __future__ import annotations

import asyncio
import os

import pytest

import bot.table
from bot.clock import FakeClock
from bot.rendering import Renderer, RenderFailed
from bot.store import Store
from bot.table import TableService
from tests.harness import BotHarness, Players, until


@pytest.fixture
async def harness(fake_discord, tmp_path):
    h = BotHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def test_simultaneous_fears_all_land_and_a_refused_fear_comes_back(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo", "Cy"], game="atmosfear")
    board = players.current_board(table)
    opened = {}
    for seat, info in enumerate(table.seats):
        button = next(cid for cid, label, _ in board.buttons() if cid.split(":")[2] == str(seat))
        opened[seat] = await fake_discord.click(info.user_id, board.id, button)
    again = await fake_discord.click(table.seats[0].user_id, board.id,
                                     next(cid for cid, _, _ in board.buttons()
                                          if cid.split(":")[2] == "0"))
    submitted = await asyncio.gather(*(
        fake_discord.submit_modal(table.seats[s].user_id, ix, values={"text": f"fear number {s}"})
        for s, ix in opened.items()))
    await asyncio.gather(*(ix.response() for ix in submitted))
    await until(lambda: None not in table.state.data["fears"], what="all three fears")
    assert [table.state.data["fears"][s] for s in range(3)] == [f"fear number {s}" for s in range(3)]
    # the same player's second modal, submitted late: refused, and the words come back
    late = await fake_discord.submit_modal(table.seats[0].user_id, again,
                                           values={"text": "drowning in custard"})
    await late.response()
    await players.settle(table)
    reply = fake_discord.ephemerals(table.seats[0].user_id)[-1].text()
    assert "drowning in custard" in reply and "out of date" in reply


async def test_a_dead_render_worker_is_replaced():
    renderer = Renderer(workers=1)
    view = {"game": "castle"}
    try:
        with pytest.raises(RenderFailed):  # a bad view fails twice, then gives up
            await renderer.png(view)
        for pid in list(renderer.pool._processes):  # type: ignore[union-attr]
            os.kill(pid, 9)
        from bot.simulate import play
        import games
        state = play("castle", 2, 3, max_actions=4)
        good = games.get("castle").view(state, None) | {"names": ["A", "B"]}
        png = await renderer.png(good)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and renderer.replaced == 1
    finally:
        renderer.close()


async def test_a_board_that_cannot_be_drawn_goes_out_as_text(fake_discord, harness):
    await harness.start()

    async def broken(view):
        raise RenderFailed("draw")

    harness.bot.renderer.png = broken  # type: ignore[method-assign]
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    board = players.current_board(table)
    assert board.attachments == [] and board.buttons()
    assert "could not be drawn" in board.text()
    await players.play_by_buttons(table)  # and the game goes on
    assert table.version == 1


class Quiet:
    async def lobby_changed(self, table): ...
    async def publish(self, snapshot): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...


async def test_a_failing_ai_is_retried_then_plays_a_random_legal_action(tmp_path, monkeypatch):
    clock = FakeClock()
    service = TableService(Store(tmp_path / "t.db"), Quiet(), clock, ai_delay=1)
    calls = []

    def broken(*args, **kwargs):
        calls.append(1)
        raise RuntimeError("the AI fell over")

    monkeypatch.setattr(bot.table, "decide", broken)
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=3)
    await service.lobby(table.id, 100, "Ana", "ai")
    await service.lobby(table.id, 100, "Ana", "start")
    ai = next(i for i, s in enumerate(table.seats) if s.ai)
    for _ in range(40):
        if table.game.to_move(table.state) == ai:
            break
        seat = table.game.to_move(table.state)
        choice = table.prompts[seat].choices[0]
        await service.act(table.id, 100, choice.action, None, source="test")
    version = table.version
    clock.advance(1.5)
    await until(lambda: table.version > version, what="the AI seat to move anyway")
    assert len(calls) == bot.table.AI_RETRIES
    assert (await service.store.actions(table.id))[-1]["source"] == "ai"
    await service.close()

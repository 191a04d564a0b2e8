"""PostgreSQL going away mid-game and coming back: clicks are refused in time with a clear
answer, nothing is half-applied, timers that fell due meanwhile fire once, games play on.

The server is a real one of this test's own (bench.pgserver), stopped and started again on
the same port, as a restart or a failover would; the game clock is a fake one."""
from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.store import Store, Unavailable
from bot.table import TableService
from games.core import IllegalAction, Rng, decide
from tests.harness import BotHarness, Players, own_postgres_server, until

DISCORD_ANSWER = 3.0  # seconds Discord gives a click's first answer


class Quiet:
    async def lobby_changed(self, table): ...
    async def publish(self, snapshot): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...


@pytest.fixture
def server():
    """A server of the test's own: the test stops and starts it."""
    yield from own_postgres_server()


async def person_vs_ai(service: TableService, channel: int, seed: int):
    """A running castle game: a person (user `channel`) against an AI seat."""
    table = await service.open_lobby("castle", 1, channel, channel, "Ana", seed=seed)
    await service.lobby(table.id, channel, "Ana", "ai")
    await service.lobby(table.id, channel, "Ana", "start")
    return table


async def ai_moves(service: TableService, clock: FakeClock, table) -> None:
    """Let the AI seat play until the person is to move (or the game ends)."""
    for _ in range(50):
        current = service.tables.get(table.id)
        if current is None or current.status != "running" \
                or current.seats[current.game.to_move(current.state)].user_id is not None:
            return
        clock.advance(service.ai_delay)
        await until(lambda: not service._tasks, what="the AI's move")


async def click(service: TableService, game_id: int, interaction_id: int) -> bool:
    """The person's move in game `game_id`, as a click; False once the game is over."""
    if game_id not in service.tables \
            and (await service.store.game(game_id))["status"] != "running":
        return False
    table = await service.get(game_id)
    seat = table.game.to_move(table.state)
    action = decide(table.game, table.state, seat, Rng(table.version + 11))
    await service.act(game_id, table.seats[seat].user_id, action, None, source="button",
                      interaction_id=interaction_id)
    return True


async def test_a_postgresql_outage_mid_game_is_survived(server):
    url = server.database()
    clock = FakeClock()
    store = Store(url, pool_size=2)
    service = TableService(store, Quiet(), clock, turn_timeout=3600, ai_delay=1)
    ids = iter(range(7000, 8000))
    accepted: list[int] = []
    try:
        tables = [await person_vs_ai(service, 10 + n, seed=n) for n in range(3)]
        for table in tables:
            await ai_moves(service, clock, table)
            for _ in range(2):
                interaction = next(ids)
                assert await click(service, table.id, interaction)
                accepted.append(interaction)
                await ai_moves(service, clock, table)
        clicked, ai_due = tables[0], tables[1]
        while not ai_due.seats[ai_due.game.to_move(ai_due.state)].ai:  # until the AI's turn
            interaction = next(ids)
            assert await click(service, ai_due.id, interaction)
            accepted.append(interaction)
        ai_version, clicked_version = ai_due.version, clicked.version

        server.halt()
        # every store call is bounded by the store's own deadline, inside Discord's 3 s
        assert service.store.answer_within < DISCORD_ANSWER
        with pytest.raises(Unavailable):  # a click while the server is away
            await click(service, clicked.id, next(ids))
        assert clicked.id not in service.tables  # dropped: the store will say what counted
        armed = dict(ai_due.handles)
        clock.advance(service.ai_delay)  # the AI's timer falls due during the outage
        await until(lambda: ai_due.id not in service.tables  # dropped, to be reloaded
                    or any(ai_due.handles.get(t) is not h for t, h in armed.items()),  # or again
                    what="the timer to find no store")
        with pytest.raises(Unavailable):  # the clicked game cannot be loaded meanwhile
            await click(service, clicked.id, next(ids))

        server.resume()
        await until(lambda: clicked.id in service.tables, timeout=60,
                    what="the clicked game to be reloaded once the server is back")

        def ai_moved() -> bool:  # the timer is tried again (or re-armed by a reload)
            clock.advance(0.5)
            again = service.tables.get(ai_due.id)
            return again is not None and again.version > ai_version
        await until(ai_moved, timeout=60, what="the AI's timer, once the server is back")
        assert service.tables[clicked.id].version == clicked_version  # the refused click
        after = [a for a in await store.actions(ai_due.id) if a["seq"] > ai_version]
        assert after and {a["source"] for a in after} == {"ai"}  # the AI's turn, played once
        again = service.tables[ai_due.id]
        assert again.version == ai_version + len(after)
        assert again.status != "running" or not again.seats[again.game.to_move(again.state)].ai

        for table in tables:  # every game plays on to its end
            while await click(service, table.id, interaction := next(ids)):
                accepted.append(interaction)
                await ai_moves(service, clock, table)
        for table in tables:
            row, actions = await store.game(table.id), await store.actions(table.id)
            assert row["status"] == "over"
            assert [a["seq"] for a in actions] == list(range(1, row["version"] + 1))
            seen = [a["interaction_id"] for a in actions if a["interaction_id"] is not None]
            assert len(seen) == len(set(seen))  # none applied twice
        logged = {a["interaction_id"] for t in tables for a in await store.actions(t.id)}
        assert set(accepted) <= logged  # every accepted move kept
    finally:
        await service.close()
        await store.close()


async def test_message_ids_set_while_the_server_is_away_are_written_when_it_is_back(server):
    url = server.database()
    store = Store(url, pool_size=1)
    game_id = await store.insert_game({"guild_id": 1, "status": "running", "version": 3})
    store.set_message(game_id, "board", 10, 500, 2)
    await store.flush()
    server.halt()
    store.set_message(game_id, "board", 10, 501, 3)  # answered at once, from memory
    store.set_message(game_id, "dm:0", 20, 600, 3)
    assert store.messages(game_id) == {"board": (10, 501), "dm:0": (20, 600)}
    assert store.shown_version(game_id) == 3
    await asyncio.sleep(0.5)  # the writer has tried and is waiting to try again
    server.resume()
    await asyncio.wait_for(store.flush(), timeout=60)
    reader = Store(url)
    await reader.load_messages([game_id])
    assert reader.messages(game_id) == {"board": (10, 501), "dm:0": (20, 600)}
    assert reader.shown_version(game_id) == 3
    await reader.close()
    await store.close()


async def test_a_store_that_cannot_answer_refuses_a_move_without_changing_it(server):
    """A store call with no answer in time raises Unavailable; the game in memory is unchanged
    and no longer served until reloaded."""
    url = server.database()
    clock = FakeClock()
    store = Store(url, pool_size=1, answer_within=0.5)
    service = TableService(store, Quiet(), clock, turn_timeout=3600, ai_delay=1)
    try:
        table = await person_vs_ai(service, 10, seed=1)
        await ai_moves(service, clock, table)
        before = table.state.to_json()
        server.halt()
        with pytest.raises(Unavailable):
            await click(service, table.id, 1)
        assert table.state.to_json() == before
        with pytest.raises(Unavailable):
            await service.get(table.id)
        server.resume()
        await until(lambda: table.id in service.tables, timeout=60, what="the reload")
        assert service.tables[table.id].state.to_json() == before
        assert await click(service, table.id, 2)  # the same click, once the store is back
        with pytest.raises(IllegalAction, match="already handled"):
            await click(service, table.id, 2)
    finally:
        await service.close()
        await store.close()


async def test_a_move_while_postgresql_is_down_is_told_to_try_again(server, fake_discord,
                                                                     tmp_path):
    """Through the fake Discord: /move is answered within Discord's 3 s, privately, and
    once the server is back the game plays on to its end, every move counted once."""
    harness = BotHarness(fake_discord, tmp_path / "gk", db_url=server.database())
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"])
        await players.settle(table)
        seat = table.game.to_move(table.state)
        action = decide(table.game, table.state, seat, Rng(1))
        server.halt()
        assert harness.bot.store.answer_within < DISCORD_ANSWER  # the store gives up in time
        ix = await fake_discord.slash(table.seats[seat].user_id, table.channel_id, "move",
                                      {"action": action})

        def told() -> list:
            answers = [*ix.followups, *([ix.original] if ix.original else [])]
            return [m for m in answers if not m.loading
                    and "The game store is not answering; try again in a moment." in m.content]
        answer = await until(told, timeout=30, what="the answer to the move")
        assert all(m.ephemeral for m in answer)
        server.resume()
        await until(lambda: players.table() is not None, timeout=60, what="the game reloaded")
        again = players.table()
        assert again.version == table.version  # the refused click changed nothing
        await players.run_to_end(again)
        assert again.status == "over"
        actions = await harness.bot.store.actions(again.id)
        assert [a["seq"] for a in actions] == list(range(1, again.version + 1))
        clicks = [a["interaction_id"] for a in actions if a["interaction_id"] is not None]
        assert len(clicks) == len(set(clicks)) and ix.id not in clicks
    finally:
        await harness.stop()

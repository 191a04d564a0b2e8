"""The one code path, without Discord: a recording publisher and a fake clock."""
from __future__ import annotations

import json

import pytest

from bot.clock import FakeClock
from bot.store import Store
from bot.table import Stale, TableService, VOTE_AFTER_TIMEOUTS
from data.locales import render
from games.core import IllegalAction, Rng, decide, seating


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    async def lobby_changed(self, table) -> None:
        self.calls.append(("lobby", table.status))

    async def publish(self, snapshot) -> None:
        change = snapshot.change
        self.calls.append(("game", change.actions if change else None))

    async def timeout_warning(self, table, seat) -> None:
        self.calls.append(("warn", seat))

    async def notice(self, table, text) -> None:
        self.calls.append(("notice", text))


@pytest.fixture
def service(tmp_path):
    clock = FakeClock()
    svc = TableService(Store(tmp_path / "t.db"), Recorder(), clock, turn_timeout=60, ai_delay=1)
    svc.clock_ = clock
    yield svc


async def started(service, humans=2, ais=0, seed=7):
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=seed)
    for n in range(1, humans):
        await service.lobby(table.id, 100 + n, f"P{n}", "join")
    for _ in range(ais):
        await service.lobby(table.id, 100, "Ana", "ai")
    await service.lobby(table.id, 100, "Ana", "start")
    return table


def mover_user(table):
    seat = table.game.to_move(table.state)
    return seat, table.seats[seat].user_id


async def test_lobby_rules(service):
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=1)
    with pytest.raises(IllegalAction, match="at least 2"):
        await service.lobby(table.id, 100, "Ana", "start")
    with pytest.raises(IllegalAction, match="Only the host"):
        await service.lobby(table.id, 999, "Bo", "ai")
    await service.lobby(table.id, 101, "Bo", "join")
    with pytest.raises(IllegalAction, match="already seated"):
        await service.lobby(table.id, 101, "Bo", "join")
    with pytest.raises(IllegalAction, match="already running here"):
        await service.open_lobby("castle", 1, 10, 102, "Cy")
    await service.lobby(table.id, 100, "Ana", "start")
    assert table.status == "running" and table.state is not None
    assert sorted(s.user_id for s in table.seats) == [100, 101]


async def test_seat_order_is_drawn_by_lot_not_by_joining_order(service):
    """Early seats have an edge in some games (Don't Go In There: docs/games/dontgo.md, "Seat
    order"), so who sits first is drawn at the start: over 60 tables joined in the same order,
    each of three players goes first about a third of the time (the host no more than anyone)."""
    firsts = {100: 0, 101: 0, 102: 0}
    for seed in range(60):
        table = await service.open_lobby("dontgo", 1, 10 + seed, 100, "Ana", seed=seed)
        await service.lobby(table.id, 101, "Bo", "join")
        await service.lobby(table.id, 102, "Cy", "join")
        await service.lobby(table.id, 100, "Ana", "start")
        assert [s.user_id for s in table.seats] == [100 + who for who in seating(seed, 3)]
        firsts[table.seats[0].user_id] += 1
    assert all(12 <= n <= 28 for n in firsts.values()), firsts


async def test_actions_are_checked_and_persisted(service):
    table = await started(service)
    seat, user = mover_user(table)
    other = table.seats[1 - seat].user_id
    before = table.state.to_json()
    with pytest.raises(IllegalAction, match="turn"):
        await service.act(table.id, other, "discard skeleton", None, source="test")
    with pytest.raises(IllegalAction, match="not playing"):
        await service.act(table.id, 555, "stay", None, source="test")
    with pytest.raises(Stale):
        await service.act(table.id, user, "stay", table.version + 3, source="test")
    with pytest.raises(IllegalAction):
        await service.act(table.id, user, "play padlock Z99", None, source="test")
    assert table.state.to_json() == before
    choice = table.game.prompt(table.state, seat).choices[0]
    await service.act(table.id, user, choice.action, table.version, source="test",
                      interaction_id=42)
    with pytest.raises(IllegalAction, match="already handled"):
        await service.act(table.id, user, choice.action, None, source="test", interaction_id=42)
    rows = await service.store.actions(table.id)
    assert [(r["seat"], r["action"]) for r in rows] == [(seat, choice.action)]
    saved = await service.store.game(table.id)
    assert saved["version"] == table.version == 1
    assert json.loads(saved["state"]) == json.loads(table.state.to_json())


async def test_restart_reloads_games_and_timers(service, tmp_path):
    table = await started(service)
    service2 = TableService(service.store, Recorder(), service.clock_, turn_timeout=60, ai_delay=1)
    assert await service2.load() == 1
    copy = await service2.get(table.id)
    assert copy.state.to_json() == table.state.to_json()
    assert [s.user_id for s in copy.seats] == [s.user_id for s in table.seats]
    assert set(copy.handles) == {"warn", "timeout"}


async def test_timeout_warns_then_ai_plays_then_vote(service):
    table = await started(service)
    calls = service.publisher.calls
    lazy, _ = mover_user(table)
    for _ in range(40):  # the lazy seat times out on each of its turns; the other plays
        if table.seats[lazy].timeouts >= VOTE_AFTER_TIMEOUTS or table.status != "running":
            break
        seat, user = mover_user(table)
        if seat != lazy:
            choice = table.game.prompt(table.state, seat).choices[0]
            await service.act(table.id, user, choice.action, None, source="test")
            continue
        version = table.version
        service.clock_.advance(31)
        await _drain(service)
        assert ("warn", seat) in calls
        service.clock_.advance(30)
        await _drain(service)
        assert table.version > version  # the AI played the turn
    assert table.seats[lazy].timeouts >= VOTE_AFTER_TIMEOUTS
    voter = table.seats[1 - lazy].user_id
    told = await service.vote_remove(table.id, voter, lazy)
    assert "voted out" in render("en", told) and table.seats[lazy].ai


async def _drain(service):
    import asyncio
    for _ in range(5):
        await asyncio.sleep(0)
    if service._tasks:
        await asyncio.gather(*list(service._tasks))


async def test_ai_seats_play_and_game_finishes(service):
    table = await started(service, humans=1, ais=1, seed=3)
    user = 100
    for _ in range(2000):
        if table.status != "running":
            break
        seat = table.game.to_move(table.state)
        if table.seats[seat].ai:
            service.clock_.advance(1)
            await _drain(service)
            continue
        action = decide(table.game, table.state, seat, Rng(1))
        await service.act(table.id, user, action, None, source="test")
    assert table.status == "over"
    assert (await service.store.stats(1, 100))[0]["played"] == 1
    assert table.id not in service.tables


async def test_end_needs_host_or_manager(service):
    table = await started(service)
    guest = table.seats[0].user_id if table.seats[0].user_id != 100 else table.seats[1].user_id
    with pytest.raises(IllegalAction, match="host or a member with Manage Server"):
        await service.end(table.id, guest, can_manage=False)
    await service.end(table.id, guest, can_manage=True)
    assert table.status == "ended" and service.in_channel(10) is None


async def test_castle_has_no_clock_to_pause(service):
    table = await started(service)
    with pytest.raises(IllegalAction, match="no clock to pause"):
        await service.pause(table.id, 100, False, "pause")


async def test_a_game_another_process_started_is_found_by_its_channel(service):
    """During a rolling reshard the old owner may start a game after the new owner loaded its
    games: the new owner's commands in that channel load it from the store."""
    later = TableService(service.store, Recorder(), service.clock_, turn_timeout=60, ai_delay=1)
    assert await later.load() == 0
    table = await started(service)
    assert later.in_channel(10) is None  # memory alone does not know it
    found = await later.here(10)
    assert found is not None and found.id == table.id and found.state.to_json() == table.state.to_json()
    with pytest.raises(IllegalAction, match="already running here"):
        await later.open_lobby("castle", 1, 10, 102, "Cy")
    assert await later.here(11) is None

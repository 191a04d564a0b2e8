"""Game timers and simultaneous AI prompts through the table service, on a fake clock."""
from __future__ import annotations

import asyncio

import pytest

import games
from bot.clock import FakeClock
from bot.store import Store
from bot.table import TableService
from games.core import SYSTEM, Choice, Event, Game, IllegalAction, Prompt, Step


class Bell(Game):
    """A toy game: everyone says "ready" (in any order); a bell then rings 30 s later."""

    name, title, pitch = "bell", "Bell", "Wait for the bell."
    min_seats, max_seats = 2, 3
    colours, colour_rgb = ("red", "blue", "green"), ((200, 0, 0), (0, 0, 200), (0, 150, 0))
    verbs = {"ready": ""}

    def setup_data(self, state, rng):
        state.data = {"ready": [], "due": None, "rung": 0, "current": None}

    def prompt(self, state, seat):
        if seat in state.data["ready"] or state.over:
            return None
        return Prompt(seat, "Ready?", [Choice("ready", (Step("ready", "Ready"),))])

    def reduce(self, state, seat, action, now, rng):
        d = state.data
        if action == "ring":
            if seat != SYSTEM or d["due"] is None or now < d["due"]:
                raise IllegalAction("Only the clock rings the bell.")
            d["rung"] += 1
            state.over, state.result = True, {"winners": [], "reason": "rung", "scores": None}
            return [Event("The bell rings!")]
        if action != "ready" or seat == SYSTEM or seat in d["ready"]:
            raise IllegalAction("Say ready once.")
        d["ready"].append(seat)
        if len(d["ready"]) == state.seats:
            d["due"] = now + 30
        return [Event(f"{{p{seat}}} is ready.")]

    def view(self, state, seat):
        return dict(state.data)

    def ai_action(self, view, prompt, rng, level="smart"):
        return "ready"

    def timers(self, state):
        d = state.data
        if d["due"] is None or state.over:
            return []
        return [{"id": "bell", "due": d["due"], "seat": SYSTEM, "action": "ring"}]


class Quiet:
    def __init__(self):
        self.changes = 0

    async def lobby_changed(self, table): ...
    async def timeout_warning(self, table, seat): ...
    async def notice(self, table, text): ...

    async def publish(self, snapshot):
        self.changes += 1


@pytest.fixture
def bell(monkeypatch):
    games.all_games()  # load the real games first
    monkeypatch.setitem(games.registry(), "bell", Bell())


async def drain(service):
    for _ in range(3):
        await asyncio.sleep(0)
        if service._tasks:
            await asyncio.gather(*list(service._tasks))


async def stored_timers(store, table, kind: str | None = None) -> list[dict]:
    """The table's timers as saved (of `kind` only, if given)."""
    timers = (await store.timers_of([table.id]))[table.id]
    return [t for t in timers if kind is None or t["kind"] == kind]


async def test_game_timer_fires_as_system_and_survives_restart(tmp_path, bell):
    clock = FakeClock()
    store = Store(tmp_path / "t.db")
    service = TableService(store, Quiet(), clock, turn_timeout=600, ai_delay=1)
    table = await service.open_lobby("bell", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 100, "Ana", "ai")
    await service.lobby(table.id, 100, "Ana", "start")
    # the AI says ready on its own, even though nobody is "to move"
    clock.advance(1)
    await drain(service)
    ai_seat = next(i for i, s in enumerate(table.seats) if s.ai)
    assert table.state.data["ready"] == [ai_seat]
    await service.act(table.id, 100, "ready", None, source="test")
    assert [t["timer_id"] for t in await stored_timers(store, table)] == ["game:bell"]
    # restart before the bell: the timer comes back from the database and fires when due
    await service.close()
    clock2 = clock
    service2 = TableService(store, Quiet(), clock2, turn_timeout=600, ai_delay=1)
    assert await service2.load() == 1
    clock2.advance(29)
    await drain(service2)
    assert (await service2.get(table.id)).state.data["rung"] == 0
    clock2.advance(2)
    await drain(service2)
    assert (await store.game(table.id))["status"] == "over"
    assert [r["source"] for r in await store.actions(table.id)][-1] == "timer"


async def test_stale_game_timer_does_nothing(tmp_path, bell):
    clock = FakeClock()
    service = TableService(Store(tmp_path / "t.db"), Quiet(), clock, turn_timeout=600, ai_delay=1)
    table = await service.open_lobby("bell", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 101, "Bo", "join")
    await service.lobby(table.id, 100, "Ana", "start")
    await service.act(table.id, 100, "ready", None, source="test")
    await service.act(table.id, 101, "ready", None, source="test")
    stale = {"timer_id": "game:bell", "kind": "game", "due_at": 0,
             "payload": {"seat": SYSTEM, "action": "ring-twice", "turn": 0, "version": 0}}
    await service.fire(table.id, stale)
    assert table.state.data["rung"] == 0 and table.status == "running"


async def atmosfear_running(service, seed):
    """Three people at an Atmosfear table, fears written: the clock is running."""
    table = await service.open_lobby("atmosfear", 1, 10, 100, "Ana", seed=seed)
    for user, name in ((101, "Bo"), (102, "Cy")):
        await service.lobby(table.id, user, name, "join")
    await service.lobby(table.id, 100, "Ana", "start")
    for seat in table.seats:
        await service.act(table.id, seat.user_id, f"fear of {seat.name}", None, source="test")
    return table


async def test_gatekeeper_restart_mid_interjection_and_overdue_timers(tmp_path):
    """The Gatekeeper calls on a player, the bot restarts, the deadline passes while it is down:
    on start the overdue "late" timer fires at once and the punishment is carried out."""
    clock = FakeClock()
    store = Store(tmp_path / "t.db")
    service = TableService(store, Quiet(), clock, turn_timeout=10_000, ai_delay=0)
    table = await atmosfear_running(service, seed=5)
    game = table.game
    assert game.view(table.state, None)["clock"]["end"] is not None
    for _ in range(200):  # let time pass, with nobody moving, until he calls someone
        clock.advance(5)
        await drain(service)
        if game.view(table.state, None)["gatekeeper"]["calling"] is not None:
            break
    gk = game.view(table.state, None)["gatekeeper"]
    assert gk["calling"] is not None and gk["deadline"] > clock.now()
    called = gk["calling"]
    await service.close()

    clock.advance(60)  # the bot is down past his deadline
    service2 = TableService(store, Quiet(), clock, turn_timeout=10_000, ai_delay=0)
    assert await service2.load() == 1
    table2 = await service2.get(table.id)
    assert "game:gk-late" in " ".join(table2.handles)
    clock.advance(0)  # overdue timers fire as soon as the loop runs
    await drain(service2)
    actions = [a["action"] for a in await store.actions(table.id)]
    assert "gk late" in actions
    assert game.view(table2.state, None)["gatekeeper"]["calling"] is None
    assert table2.state.version > table.state.version
    assert called is not None


async def test_pause_holds_the_gatekeeper_and_resume_shifts_his_timers(tmp_path):
    clock = FakeClock()
    store = Store(tmp_path / "t.db")
    service = TableService(store, Quiet(), clock, turn_timeout=10_000, ai_delay=0)
    table = await atmosfear_running(service, seed=9)
    before = {t["timer_id"]: t["due_at"] for t in await stored_timers(store, table, "game")}
    assert "game:clock-end" in before
    with pytest.raises(IllegalAction, match="Only the host"):
        await service.pause(table.id, 101, False, "pause")
    await service.pause(table.id, 100, False, "pause")
    assert await stored_timers(store, table, "game") == []
    clock.advance(600)  # ten minutes of pause: nothing fires
    await drain(service)
    assert table.state.data["clock"]["paused_at"] is not None
    await service.pause(table.id, 100, False, "resume")
    after = {t["timer_id"]: t["due_at"] for t in await stored_timers(store, table, "game")}
    assert after["game:clock-end"] == pytest.approx(before["game:clock-end"] + 600)

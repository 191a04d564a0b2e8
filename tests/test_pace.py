"""Pace as the service and the words see it: turn lengths and reminders per pace, the lobby's
shared select, passes, lazy loading of idle games, /away's dates and the /rules topic."""
from __future__ import annotations

import asyncio
import datetime
import re

import pytest

import games
from bot import pace
from bot.app import parse_until, rules_sections
from bench import idle_games
from bot.clock import FakeClock
from bot.store import Store, common
from bot.table import LOAD_AHEAD, SWEEP_EVERY, TableService
from bot.ui import lobby_view
from games.core import Choice, IllegalAction, Prompt, ai_rng, decide
from tests.test_table import Recorder

HOUR = 3600.0


def test_each_pace_has_its_turn_length_and_standard_is_the_process_setting():
    assert [pace.turn_seconds({"pace": p}, 600.0) for p in pace.PACES] == \
        [600.0, 120.0, 3600.0, 86400.0]
    assert pace.turn_seconds({}, 45.0) == 45.0  # a game without a pace (real time)


def test_reminders_come_at_half_time_and_an_hour_before_a_long_deadline():
    assert pace.reminders(120.0) == [("warn", 60.0)]
    assert pace.reminders(HOUR) == [("warn", HOUR / 2)]
    assert pace.reminders(86400.0) == [("warn", 43200.0), ("warn:hour", 82800.0)]


def test_only_turn_based_games_offer_a_pace_and_it_shares_one_select():
    for game in games.all_games():
        offered = pace.offered(game)
        assert ("pace" in offered) == (not game.pausable)
        assert set(game.option_choices) <= set(offered)
    castle = games.get("castle")
    values = [value for _, value in pace.select_choices(castle, "en")]
    assert "pace=correspondence" in values and "deadline=vote" in values
    assert pace.parse_select("deadline=skip") == ("deadline", "skip")


async def test_the_lobby_has_room_for_every_select(tmp_path):
    service = TableService(Store(tmp_path / "s.db"), Recorder(), FakeClock())
    for channel, game in enumerate(games.all_games()):
        table = await service.open_lobby(game.name, 1, channel, 5, "Ana")
        view = lobby_view(table, "en")
        rows = [item.row for item in view.children if hasattr(item, "placeholder")]
        assert len(rows) == len(set(rows)) and max(rows, default=0) <= 4  # one select a row
        assert len(rows) == len(game.option_choices) + (not game.pausable)
        assert table.options.get("pace") == ("standard" if not game.pausable else None)


def test_a_pass_is_a_choice_named_pass_skip_or_stay():
    def prompt(*actions: str) -> Prompt:
        return Prompt(0, "Your move", [Choice(a, ()) for a in actions])
    assert pace.pass_choice(prompt("move C4", "stay")).action == "stay"
    assert pace.pass_choice(prompt("bonus C3", "bonus skip")).action == "bonus skip"
    assert pace.pass_choice(prompt("play key-red C3", "discard key-red")) is None
    assert pace.pass_choice(None) is None


def test_a_reminder_says_which_it_is_and_what_the_deadline_brings():
    assert pace.reminder({"deadline": "skip"}, ["warn"], "<t:1:R>", "en") == \
        "half your time is gone: your turn is skipped <t:1:R>."
    assert pace.reminder({"deadline": "vote"}, ["warn", "warn:hour"], "<t:1:R>", "en") == \
        "one hour left: the others may vote you out <t:1:R>."


def test_away_reads_dates_spans_and_back():
    now = datetime.datetime(2026, 11, 27, tzinfo=datetime.timezone.utc).timestamp()
    assert parse_until("back", now) == float("inf")
    assert parse_until("3d", now) == now + 3 * 86400
    assert parse_until("12h", now) == now + 12 * HOUR
    assert parse_until("2026-12-24", now) == \
        datetime.datetime(2026, 12, 24, tzinfo=datetime.timezone.utc).timestamp()
    with pytest.raises(IllegalAction, match="has passed"):
        parse_until("2026-01-01", now)
    with pytest.raises(IllegalAction, match="can't read"):
        parse_until("next week", now)


def test_rules_have_a_pace_topic_for_turn_based_games():
    for game in games.all_games():
        sections = rules_sections(game.name, "en")
        assert ("pace" in sections) == (not game.pausable)
    assert "correspondence" in rules_sections("castle", "en")["pace"]


async def correspondence_games(service: TableService, n: int) -> list[int]:
    ids = []
    for index in range(n):
        table = await service.open_lobby("castle", 1, 100 + index, 10, "Ana",
                                         options={"pace": "correspondence"}, seed=index)
        await service.lobby(table.id, 11, "Bo", "join")
        await service.lobby(table.id, 10, "Ana", "start")
        ids.append(table.id)
    return ids


async def test_idle_games_leave_memory_and_come_back_on_a_click_or_their_timer(tmp_path):
    clock = FakeClock()
    store = Store(tmp_path / "lazy.db")
    service = TableService(store, Recorder(), clock, ai_delay=0)
    await service.load()
    ids = await correspondence_games(service, 5)
    assert sorted(service.tables) == ids
    await asyncio.gather(*service._tasks)  # the boards are published
    clock.advance(2 * HOUR)  # nothing happens, and the first reminder is 10 hours away
    await asyncio.gather(*service._tasks)  # the sweeps the clock started
    assert service.tables == {}
    await service.close()

    # A restart loads none of them; a click loads the game it is for, and plays.
    later = TableService(store, Recorder(), clock, ai_delay=0)
    assert await later.load() == 0 and later.tables == {}
    channels = {(await store.game(i))["channel_id"] for i in ids}
    assert later.resting == channels  # a move typed there finds its game; table talk elsewhere
    assert await later.resting_in(-1) is None and later.tables == {}  # costs no store read
    table = await later.get(ids[2])
    seat = table.game.to_move(table.state)
    action = decide(table.game, table.state, seat, ai_rng(1, table.version))
    await later.act(ids[2], table.seats[seat].user_id, action, None, source="test")
    assert list(later.tables) == [ids[2]] and table.version == 1
    assert (await store.game(ids[2]))["channel_id"] not in later.resting
    typed = await later.resting_in((await store.game(ids[0]))["channel_id"])  # as typed moves
    assert typed is not None and typed.id == ids[0] and ids[0] in later.tables

    # The sweep brings the others back within LOAD_AHEAD of their half-time reminders.
    clock.advance(12 * HOUR - 2 * HOUR - LOAD_AHEAD + SWEEP_EVERY)
    await asyncio.gather(*later._tasks)
    assert set(ids) - {ids[2]} <= set(later.tables)
    await later.close()
    await store.close()


async def test_the_store_keeps_people_and_finds_games_due_on_both_stores(store_target):
    clock = FakeClock()
    store = Store(store_target)
    service = TableService(store, Recorder(), clock, ai_delay=0)
    assert await store.person(7) == {"notify": True, "away_until": None}
    await store.set_notify(7, False)
    await store.set_away(7, float("inf"))
    await store.set_away(8, clock.now() + HOUR)
    assert await store.person(7) == {"notify": False, "away_until": float("inf")}
    assert await store.away(clock.now()) == {7: float("inf"), 8: clock.now() + HOUR}
    await store.set_away(7, None)
    assert await store.person(7) == {"notify": False, "away_until": None}

    ids = await correspondence_games(service, 2)
    assert await store.active_games_of(11) == ids and await store.active_games_of(1) == []
    assert await store.games_due(service.shards, clock.now() + 12 * HOUR + 1) == ids
    assert await store.games_due(service.shards, clock.now() + 12 * HOUR - 1) == []
    listed = await store.running_in_guild(1)
    assert [row["id"] for row in listed] == ids[::-1]
    table = service.tables[ids[0]]
    mover = table.seats[table.game.to_move(table.state)].user_id
    assert listed[-1]["waiting"] == [mover]
    assert listed[-1]["deadline"] == table.turn_started + 24 * HOUR
    assert listed[-1]["options"]["pace"] == "correspondence"
    assert listed[-1]["board_message"] is None  # no board posted (the Recorder posts nothing)
    store.set_message(ids[0], "board", 500, 600, table.version)
    await service.close()
    await store.close()  # the message row written, also where it is written behind

    # Another process, with no message ids in memory, lists the board's ids from the store.
    again = Store(store_target)
    listed = await again.running_in_guild(1)
    assert [(r["board_channel"], r["board_message"]) for r in listed] == [(None, None),
                                                                         (500, 600)]
    await again.close()


async def test_a_game_saved_before_reminders_were_recorded_is_not_reminded_again(tmp_path):
    clock = FakeClock()
    store = Store(tmp_path / "old.db")
    service = TableService(store, Recorder(), clock, ai_delay=0)
    (game_id,) = await correspondence_games(service, 1)
    clock.advance(13 * HOUR)  # the half-time reminder was sent
    await asyncio.gather(*service._tasks)
    await service.close()
    await store._execute("UPDATE games SET reminded = NULL WHERE id = ?", [game_id])  # as 0.2
    later = TableService(store, Recorder(), clock, ai_delay=0)
    table = await later.get(game_id)
    assert table.reminded == ["warn"]
    async with table.lock:
        await later._commit(table, {})  # a commit within the turn (a vote, closed DMs)
    assert [t["timer_id"] for t in table.timers] == ["warn:hour", "timeout"]
    await later.close()
    await store.close()


async def test_a_start_up_reads_timers_and_message_ids_a_batch_of_games_at_a_time(
        store_target, monkeypatch):
    """Loading many games costs a few round trips, not some per game: their timers and their
    message ids are read a batch (LOAD_BATCH games, 4 here) at a time, on both stores."""
    monkeypatch.setattr(common, "LOAD_BATCH", 4)
    clock = FakeClock()
    store = Store(store_target)
    service = TableService(store, Recorder(), clock, ai_delay=0)
    ids = await correspondence_games(service, 10)
    deadlines = {game_id: service.tables[game_id].deadline for game_id in ids}
    for n, game_id in enumerate(ids):
        store.set_message(game_id, "board", 100 + n, 5000 + n, version=1)
    await service.close()
    await store.close()  # message rows written behind are written first

    restarted = Store(store_target)  # a new process: nothing in memory
    sent: list[str] = []
    rows = restarted._rows

    async def counted(sql, params=()):
        sent.append(sql)
        return await rows(sql, params)

    monkeypatch.setattr(restarted, "_rows", counted)
    later = TableService(restarted, Recorder(), clock, ai_delay=0)
    assert await later.load() == 10
    assert sum(sql.startswith("SELECT * FROM timers") for sql in sent) == 3  # 4 + 4 + 2
    assert sum("FROM messages" in sql for sql in sent) == 3
    assert len(sent) == 3 + 3 + 3  # and: who is away, the games, the channels with games
    for n, game_id in enumerate(ids):
        assert later.tables[game_id].deadline == deadlines[game_id] is not None
        assert restarted.messages(game_id) == {"board": (100 + n, 5000 + n)}
    await later.close()
    await restarted.close()


async def test_clicks_at_once_on_a_resting_game_load_it_once_on_both_stores(store_target, caplog):
    clock = FakeClock()
    store = Store(store_target)
    service = TableService(store, Recorder(), clock, ai_delay=0)
    (game_id,) = await correspondence_games(service, 1)
    await service.close()
    later = TableService(store, Recorder(), clock, ai_delay=0)
    with caplog.at_level("INFO", logger="gatekeeper.table"):
        tables = await asyncio.gather(*(later.get(game_id) for _ in range(3)), later.sweep())
    assert tables[0] is tables[1] is tables[2] is later.tables[game_id]
    assert [r.message for r in caplog.records].count(f"loaded game={game_id}") == 1
    await later.close()
    await store.close()


def test_the_idle_games_benchmark_measures_both_stores(postgres_server, tmp_path):
    """`python -m bench.idle_games` at toy size: both stores built, measured in a fresh
    process and written side by side."""
    out = tmp_path / "performance.md"
    assert idle_games.main(["--games", "60", "--clicks", "5", "--postgres",
                            postgres_server.url(), "--out", str(out)]) == 0
    text = out.read_text()
    assert "| figure | SQLite | PostgreSQL |" in text
    loaded = re.search(r"^\| games loaded at start-up \| ([\d,]+) of 60 \| ([\d,]+) of 60 \|$",
                       text, re.M)
    assert loaded and loaded[1] == loaded[2], text  # the same games are due on both
    assert re.search(r"of 5 \| [\d.]+ / [\d.]+ / [\d.]+ ms \| [\d.]+ / [\d.]+ / [\d.]+ ms \|$",
                     text, re.M), text

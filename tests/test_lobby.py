"""The lobby in words and in hands: options read as labels with their help, the host can leave
(hosting passes on, or the lobby closes) or watch a game of AIs only."""
from __future__ import annotations

import json
import sqlite3

import pytest

import games
from bot.clock import FakeClock
from bot.present import lobby_embed
from bot.store import Store
from bot.table import Seat, Table, TableService, ai_level
from bot.ui import lobby_view
from data.locales import render
from games.core import IllegalAction
from tests.test_table import Recorder


@pytest.fixture
def service(tmp_path):
    return TableService(Store(tmp_path / "lobby.db"), Recorder(), FakeClock(), turn_timeout=60,
                        ai_delay=1)


def lobby_of(game: str, **options) -> Table:
    chosen = {name: values[0] for name, values in games.get(game).option_choices.items()}
    return Table(id=3, guild_id=1, channel_id=1, game=games.get(game), host_id=1, seed=1,
                 options={**chosen, **options}, seats=[Seat("Ana", 1)])


@pytest.mark.parametrize("name", [g.name for g in games.all_games()])
def test_every_option_has_a_label_and_one_line_of_help(name):
    game = games.get(name)
    assert set(game.option_texts) == set(game.option_choices)
    for text in game.option_texts.values():
        assert text.label[0].isupper() and "_" not in text.label
        assert text.help.endswith(".") and "\n" not in text.help and len(text.help) < 100


def test_the_lobby_shows_options_by_label_with_values_in_words():
    embed = lobby_embed(lobby_of("firetop", double6="on", rounds=40), "en")
    (options,) = [f.value for f in embed.fields if f.name == "Options"]
    assert options.splitlines() == ["Double six: on", "Round limit: 40 rounds"]
    embed = lobby_embed(lobby_of("atmosfear", answer=15), "en")
    (options,) = [f.value for f in embed.fields if f.name == "Options"]
    assert options.splitlines() == ["Game clock: 40 minutes", "Answer window: 15 seconds"]


def test_a_german_or_spanish_lobby_reads_the_games_pitch_and_options_in_its_language():
    embed = lobby_embed(lobby_of("firetop", double6="on", rounds=40), "de")
    assert embed.title == "Der Hexenmeister vom flammenden Berg: Lobby"  # its German edition
    assert embed.description.startswith("Trotze den Räumen, dem Fluss und dem Labyrinth")
    (options,) = [f.value for f in embed.fields if f.name == "Optionen"]
    assert options.splitlines() == ["Doppelsechs: an", "Rundenlimit: 40 Runden"]
    view = lobby_view(lobby_of("atmosfear", minutes=20), "es")
    minutes = next(item for item in view.children if item.custom_id.endswith(":opt:minutes"))
    assert minutes.placeholder.startswith("Reloj de la partida (20 minutos). El tiempo")
    assert [o.label for o in minutes.options] == ["40 minutos", "20 minutos", "60 minutos"]


def test_an_option_select_says_what_it_is_once_and_offers_values_in_words():
    view = lobby_view(lobby_of("atmosfear", minutes=20), "en")
    selects = {item.custom_id.rsplit(":", 1)[1]: item for item in view.children
               if hasattr(item, "placeholder") and item.custom_id and ":opt:" in item.custom_id}
    clock = selects["minutes"]
    assert clock.placeholder.startswith("Game clock (20 minutes). ")
    assert [o.label for o in clock.options] == ["40 minutes", "20 minutes", "60 minutes"]
    assert "minutes" not in clock.placeholder.replace("(20 minutes)", "")
    answer = selects["answer"]
    assert answer.placeholder.startswith("Answer window (8 seconds). ")
    assert [o.label for o in answer.options] == ["8 seconds", "15 seconds", "30 seconds"]
    for select in selects.values():
        assert not any(o.label in select.placeholder.split(")", 1)[1] for o in select.options)
        assert not any(o.default for o in select.options)


async def test_the_host_who_leaves_hands_the_lobby_to_the_next_person(service):
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 100, "Ana", "ai")
    await service.lobby(table.id, 101, "Bo", "join")
    await service.lobby(table.id, 102, "Cy", "join")
    await service.lobby(table.id, 100, "Ana", "leave")
    assert table.status == "lobby" and table.host_id == 101
    assert [s.name for s in table.seats] == ["AI 1", "Bo", "Cy"]
    assert (await service.store.game(table.id))["host_id"] == 101
    with pytest.raises(IllegalAction, match="Only the host"):
        await service.lobby(table.id, 102, "Cy", "start")
    await service.lobby(table.id, 102, "Cy", "leave")  # not the host: only their seat goes
    assert table.host_id == 101 and [s.name for s in table.seats] == ["AI 1", "Bo"]
    await service.lobby(table.id, 101, "Bo", "leave")  # the last person: the lobby closes
    assert table.status == "cancelled" and service.in_channel(10) is None


async def test_hosting_passes_in_seat_order_from_the_seat_left(service):
    table = await service.open_lobby("firetop", 1, 10, 100, "Ana", seed=1,
                                     seats=[Seat("Bo", 101), Seat("Ana", 100), Seat("Cy", 102)])
    await service.lobby(table.id, 100, "Ana", "leave")
    assert table.host_id == 102


async def test_the_host_can_watch_a_game_of_ais_only(service):
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 100, "Ana", "ai")
    with pytest.raises(IllegalAction, match="Only the host"):
        await service.lobby(table.id, 101, "Bo", "watch")
    await service.lobby(table.id, 100, "Ana", "watch")
    assert table.seats == [Seat("AI 1", ai=True)] and table.host_id == 100
    assert {f.name: f.value for f in lobby_embed(table, "en").fields}["Host"] == "<@100> (watching)"
    with pytest.raises(IllegalAction, match="already watching"):
        await service.lobby(table.id, 100, "Ana", "watch")
    with pytest.raises(IllegalAction, match="at least 2"):
        await service.lobby(table.id, 100, "Ana", "start")
    await service.lobby(table.id, 100, "Ana", "ai")
    await service.lobby(table.id, 100, "Ana", "start")
    assert table.status == "running" and all(s.ai for s in table.seats)


async def test_a_player_who_leaves_a_running_game_is_named_as_they_were(service):
    table = await service.open_lobby("castle", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 101, "Bob the Spectator", "join")
    await service.lobby(table.id, 100, "Ana", "start")
    seat = await service.leave(table.id, 101)
    assert seat.name == "Bob the Spectator (AI)" and seat.ai
    notices = [render("en", told) for kind, told in service.publisher.calls if kind == "notice"]
    assert notices == ["Bob the Spectator left the table; an AI plays their seat now."]


async def test_an_ais_level_is_stored_with_its_seat_and_older_rows_load_as_smart(tmp_path):
    """A seat row saved before levels has no "level": such an AI plays smart, as it did then."""
    path = tmp_path / "levels.db"
    first = TableService(Store(path), Recorder(), FakeClock(), turn_timeout=60, ai_delay=1)
    table = await first.open_lobby("castle", 1, 10, 100, "Ana", seed=1)
    await first.lobby(table.id, 100, "Ana", "ai.easy")
    await first.lobby(table.id, 100, "Ana", "ai.hard")
    await first.lobby(table.id, 100, "Ana", "start")
    rows = (await first.store.game(table.id))["seats"]
    assert {row["name"]: row["level"] for row in rows if row["ai"]} == {"AI 1": "easy", "AI 2": "hard"}
    await first.close()
    await first.store.close()
    with sqlite3.connect(path) as db:  # as an older release wrote it
        db.execute("UPDATE games SET seats = ? WHERE id = ?",
                   (json.dumps([{k: v for k, v in row.items() if k != "level"} for row in rows]), table.id))
    again = TableService(Store(path), Recorder(), FakeClock(), turn_timeout=60, ai_delay=1)
    loaded = await again.get(table.id)
    assert [(s.name, s.level) for s in loaded.seats if s.ai] == [("AI 1", "smart"), ("AI 2", "smart")]
    assert all(ai_level(loaded, seat) == "smart" for seat in range(len(loaded.seats)))
    await again.close()
    await again.store.close()


def test_add_ai_offers_each_level_weakest_first_and_the_lobby_names_them():
    table = lobby_of("castle")
    table.seats += [Seat("AI 1", ai=True, level="easy"), Seat("AI 2", ai=True)]
    buttons = [(item.label, item.custom_id.rsplit(":", 1)[1]) for item in lobby_view(table, "en").children
               if item.custom_id and ":lobby:ai" in item.custom_id]
    assert buttons == [("Add easy AI", "ai.easy"), ("Add smart AI", "ai"), ("Add hard AI", "ai.hard")]
    players = {f.name: f.value for f in lobby_embed(table, "en").fields}["Players 3/4 (needs 2-4)"]
    assert players.splitlines() == ["1. Ana · host", "2. AI 1 · easy AI", "3. AI 2 · smart AI"]

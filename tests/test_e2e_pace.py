"""Games at any pace, end to end: a correspondence game of Keys to the Castle over three days on
the fake clock, through the fake Discord, with a restart between a reminder and the deadline;
the deadline actions; /away, /notify, /log since my last turn and /games."""
from __future__ import annotations

import pytest

from bot import present
from bot.clock import FakeClock
from tests.harness import InThreadHarness, Players, until

pytestmark = pytest.mark.asyncio

HOUR = 3600.0


@pytest.fixture
async def clocked(fake_discord, tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock)
    await harness.start()
    yield harness, clock
    await harness.stop()


async def paced_game(players: Players, **options: str):
    """Ana hosts, Bo joins; the host picks the pace options, then starts."""
    await players.open("Ana")
    for name, value in options.items():
        await players.choose_option("Ana", "pace", f"{name}={value}")
    await players.lobby_click("Bo", "join")
    await players.lobby_click("Ana", "start")
    table = await until(lambda: (t := players.table()) and t.status == "running" and t)
    await until(lambda: players.boards(), what="the first board")
    await players.settle(table)
    return table


async def current(players: Players, game_id: int):
    """The game as the bot holds it now (loaded again if the sweep let it go)."""
    return await players.bot.service.get(game_id)


async def past_turn(players: Players, game_id: int, turn: int) -> bool:
    return (await current(players, game_id)).state.turn > turn


async def to_move(players: Players, game_id: int, name: str) -> bool:
    return players.mover(await current(players, game_id)) == name


async def play_turn(players: Players, game_id: int) -> None:
    """The person to move plays their whole turn through the buttons (a turn of Keys to the
    Castle is a card, then a move)."""
    table = await current(players, game_id)
    who = players.mover(table)
    while table.status == "running" and players.mover(table) == who:
        await players.play_by_buttons(table)


def said(players: Players, words: str) -> list[str]:
    return [m.content for m in players.channel_messages() if words in (m.content or "")]


def turn_dms(players: Players, name: str) -> list[str]:
    return [m.content for m in players.fake.dms(players.users[name])
            if "Your turn in" in (m.content or "")]


async def answer(players: Players, who: str, command: str, options: dict | None = None) -> str:
    ix = await players.fake.slash(players.users[who], players.channel.id, command, options or {})
    callback = await ix.response()
    if callback.type == 4:
        return callback.message.content
    return (await ix.wait_followups())[0].content


async def test_a_correspondence_game_over_three_days(fake_discord, clocked):
    harness, clock = clocked
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    await players.open("Ana")
    await players.choose_option("Ana", "pace", "pace=correspondence")
    assert "Pace: correspondence" in players.lobby().text()
    await players.lobby_click("Bo", "join")
    await players.lobby_click("Ana", "start")
    table = await until(lambda: (t := players.table()) and t.status == "running" and t)
    await until(lambda: players.boards(), what="the first board")
    await players.settle(table)
    game_id = table.id
    assert "correspondence pace" in players.current_board(table).text()
    assert table.deadline == table.turn_started + 24 * HOUR
    first = players.mover(table)
    second = "Bo" if first == "Ana" else "Ana"
    mention = f"<@{players.users[first]}>"
    # Day 1: the turn comes to the first player: a DM with a link to the table.
    dm = await until(lambda: turn_dms(players, first), what="the first turn's DM")
    assert f"https://discord.com/channels/{players.guild.id}/" in dm[0]
    assert turn_dms(players, second) == []

    clock.advance(12 * HOUR)
    await until(lambda: any(mention in t for t in said(players, "half your time")))
    clock.advance(11 * HOUR)
    await until(lambda: any(mention in t for t in said(players, "one hour left")))
    await players.settle()

    # A restart between the last reminder and the deadline: nothing is sent twice.
    await harness.restart()
    await players.settle()
    assert len(said(players, "half your time")) == 1 and len(said(players, "one hour left")) == 1

    # The deadline: the AI plays the turn, and the turn comes to the second player, whose DM
    # says what happened since (the whole game so far: they have not played yet).
    turn = (await current(players, game_id)).state.turn
    clock.advance(1 * HOUR)
    await until(lambda: past_turn(players, game_id, turn), what="the deadline")
    table = await current(players, game_id)
    await players.settle(table)
    await until(lambda: said(players, f"{first} ran out of time; the AI played"),
                what=f"the deadline notice, in {[m.content for m in players.channel_messages()]}")
    assert len(said(players, "half your time")) == 1 and len(said(players, "one hour left")) == 1
    assert table.seats[table.seat_of(players.users[first])].timeouts == 1
    dm = await until(lambda: turn_dms(players, second), what="the second player's DM")
    assert "Since your last turn" in dm[-1]
    since = present.public_lines(table, await players.bot.service.public_events(
        table, since_seat=table.seat_of(players.users[second])))
    assert since and all(line in dm[-1] for line in since)

    # Day 2: the second player plays; the first is told what happened since their last turn,
    # and /log since my last turn shows the same lines.
    await play_turn(players, game_id)
    table = await current(players, game_id)
    await until(lambda: len(turn_dms(players, first)) == 2, what="the first player's second DM")
    mine = present.public_lines(table, await players.bot.service.public_events(
        table, since_seat=table.seat_of(players.users[first])))
    assert mine and all(line in turn_dms(players, first)[-1] for line in mine)
    log = await answer(players, first, "log", {"since": "mine"})
    assert log.splitlines() == mine

    # /games lists the game, waiting on whoever asks first.
    listing = await answer(players, first, "games")
    assert f"#{game_id}" in listing and "correspondence pace" in listing
    assert "**your turn**" in listing

    # The second player goes away: their turns are played at once, with no DM and no missed
    # turn counted, until /back.
    away = await answer(players, second, "away", {"until": "back"})
    assert "away until you use /back" in away
    dms_before = len(turn_dms(players, second))
    await play_turn(players, game_id)
    clock.advance(1)  # the away player's turn is played at once (after the AI's delay)
    await until(lambda: said(players, f"{second} is away"),
                what=f"the away player's turn, in {[m.content for m in players.channel_messages()]}")
    await until(lambda: to_move(players, game_id, first))
    table = await current(players, game_id)
    await players.settle(table)
    assert said(players, f"{second} is away")
    assert len(turn_dms(players, second)) == dms_before
    assert table.seats[table.seat_of(players.users[second])].timeouts == 0
    await answer(players, second, "back")

    # /notify off: no more turn DMs for the first player (the table still pings them).
    await answer(players, first, "notify", {"setting": "off"})
    before = len(turn_dms(players, first))
    # Day 3: the first player's turn times out again; the turn passes to the second, back now.
    turn = table.state.turn
    clock.advance(24 * HOUR)
    await until(lambda: past_turn(players, game_id, turn), what="the second deadline")
    await play_turn(players, game_id)
    await players.settle(await current(players, game_id))
    assert len(turn_dms(players, first)) == before


async def test_at_the_deadline_the_others_may_vote_the_player_out(fake_discord, clocked):
    harness, clock = clocked
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await paced_game(players, pace="relaxed", deadline="vote")
    game_id, lazy = table.id, table.game.to_move(table.state)
    turn = table.state.turn
    clock.advance(1 * HOUR)
    name = table.seats[lazy].name
    await until(lambda: said(players, f"{name} ran out of time. Their turn waits"))
    table = await current(players, game_id)  # (the sweep may have let it go, loaded it again)
    await players.settle(table)
    assert table.state.turn == turn and table.prompts[lazy] is not None  # it waits
    assert table.deadline is None and table.seats[lazy].timeouts == 1
    clock.advance(5 * HOUR)  # the deadline fired once: nothing more happens
    await players.settle()
    assert len(said(players, "ran out of time")) == 1
    # Idle for hours with nothing due, the game was let go from memory; the vote loads it.
    assert players.bot.service.tables == {}
    board = players.current_board(table)
    vote = next(cid for cid, _ in board.selects() if cid.endswith(":vote:"))
    voter = table.seats[1 - lazy].user_id
    ix = await fake_discord.select(voter, board.id, vote, [str(lazy)])
    assert "voted out" in (await ix.wait_followups())[0].content
    table = await current(players, table.id)
    assert table.seats[lazy].ai
    clock.advance(1)
    await until(lambda: table.state.turn > turn, what="the AI to play the waiting turn")


async def test_at_the_deadline_a_turn_is_skipped_where_the_rules_offer_a_pass(fake_discord,
                                                                              clocked):
    harness, clock = clocked
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await paced_game(players, pace="live", deadline="skip")
    assert "live pace" in players.current_board(table).text()
    game_id, lazy = table.id, table.game.to_move(table.state)
    turn = table.state.turn
    clock.advance(120)
    await until(lambda: past_turn(players, game_id, turn), what="the skipped turn")
    table = await current(players, game_id)
    await players.settle(table)
    rows = [r for r in await players.bot.store.actions(table.id) if r["seat"] == lazy]
    # Keys to the Castle has no pass for its card step (the AI plays that), but lets a player
    # stay put afterwards: the skip takes that.
    assert [r["source"] for r in rows] == ["timeout"] * len(rows)
    assert not set(rows[0]["action"].split()) & {"stay", "skip"} and rows[1]["action"] == "stay"
    assert said(players, f"{table.seats[lazy].name} ran out of time; their turn was skipped "
                         "where the rules allow a pass, and the AI played the rest.")

"""End to end: the real discord.py client against the fake Discord, games played through buttons."""
from __future__ import annotations

import asyncio
import logging
import re

import pytest

from data.locales import render
from games.castle.engine import CARD_LABELS
from games.core import Rng, decide

from bot import app
from sandbox.harness import until
from tests.harness import InThreadHarness, Players
from tests.test_rules_pages import broken_lines

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def harness(fake_discord, tmp_path):
    # pictures drawn in a thread: Atmosfear's, Kingdom's and Don't Go's end-to-end tests run
    # the render process
    h = InThreadHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


def hand_labels(table, seat):
    return {render("en", CARD_LABELS[c]) for c in table.state.data["players"][seat]["hand"]}


async def test_two_people_play_a_full_game(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    assert table.game.name == "castle" and len(table.seats) == 2
    await players.run_to_end(table)
    assert table.status == "over"
    final = players.boards()[-1]
    assert "Game over" in final.text()
    assert any(label == "Play again" for _, label, _ in final.buttons())
    # the channel keeps one final table; nothing left shows a move button or a "to move"
    assert players.boards() == [final]
    for message in players.channel_messages():
        assert not any(cid.split(":")[2].isdigit() for cid, _, _ in message.buttons() if cid)
        assert "➡️" not in message.text() and "to move" not in message.text().split("\n")[0]
    # after the end the channel's commands answer about the finished game
    ana = players.users["Ana"]
    ix = await fake_discord.slash(ana, players.channel.id, "hand", {})
    assert "is over" in (await ix.response()).data["content"]
    ix = await fake_discord.slash(ana, players.channel.id, "status", {})
    assert "is over" in (await ix.response()).data["content"]
    ix = await fake_discord.slash(ana, players.channel.id, "log", {})
    log_text = (await ix.response()).data["content"]
    assert "No game is running" not in log_text and len(log_text.splitlines()) > 5
    # stats counted
    winner = table.result["winners"][0]
    stats = await harness.bot.store.stats(players.guild.id, table.seats[winner].user_id)
    assert stats == [{"game": "castle", "played": 1, "won": 1}]
    # every DM to a player carries only their own hand, and the channel none
    for message in players.every_version():
        assert "Your hand" not in message.readable() and "You drew" not in message.readable()
    for seat, s in enumerate(table.seats):
        dms = fake_discord.dms(s.user_id)
        assert dms, f"{s.name} got no DMs"
        mine = f"You are {table.game.colours[seat]}"
        for message in dms:
            assert mine in message.content
            assert not any(f"You are {c}" in message.content
                           for c in table.game.colours if c != table.game.colours[seat])
        # what others could see of this player's hand (channel, their DMs, their ephemerals)
        for other in table.seats:
            if other.user_id != s.user_id:
                for message in fake_discord.seen_by(other.user_id):
                    assert mine not in message.readable()
    assert fake_discord.unknown_routes == []
    assert fake_discord.http_errors == []


async def test_one_person_and_two_ais(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana"])
    table = await players.start_game("Ana", [], ais=2)
    assert sum(s.ai for s in table.seats) == 2
    ana = players.users["Ana"]
    for _ in range(2000):
        if table.status != "running":
            break
        if players.mover(table) is None:
            await until(lambda: table.status != "running" or players.mover(table) is not None)
            continue
        seat = table.game.to_move(table.state)
        action = decide(table.game, table.state, seat, Rng(table.version))
        legal = {c.action for c in table.game.prompt(table.state, seat).choices}
        version = table.version
        verb, _, rest = action.partition(" ")
        if table.version % 2:  # typed as a subcommand, as offered by autocomplete
            offered = await fake_discord.autocomplete(ana, players.channel.id, "castle",
                                                      {"choice": ""}, focused="choice",
                                                      subcommand=verb) if rest else []
            assert all(f"{verb} {o['value']}" in legal for o in offered)
            assert not rest or rest in [o["value"] for o in offered] or len(offered) == 25
            ix = await fake_discord.slash(ana, players.channel.id, "castle",
                                          {"choice": rest} if rest else {}, subcommand=verb)
        else:
            offered = await fake_discord.autocomplete(ana, players.channel.id, "move",
                                                      {"action": ""}, focused="action")
            assert offered and all(o["value"] in legal for o in offered)
            ix = await fake_discord.slash(ana, players.channel.id, "move", {"action": action})
        await ix.wait_answer()
        await until(lambda: table.version > version)
        await players.settle(table)
    await players.settle(table)
    assert table.status == "over"
    assert "Game over" in players.boards()[-1].text()
    assert not fake_discord.dms(players.users["Ana"]) == []


async def test_a_typed_move_is_answered_once_and_deferred_only_when_slow(fake_discord, harness,
                                                                         monkeypatch, caplog):
    monkeypatch.setattr(app, "TYPED_ANSWER_WITHIN", 0.05)
    bot = await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])

    async def typed() -> tuple[object, object, str]:
        seat = table.game.to_move(table.state)
        action = decide(table.game, table.state, seat, Rng(table.version), "random")
        ix = await fake_discord.slash(table.seats[seat].user_id, players.channel.id, "move",
                                      {"action": action})
        answer = await ix.wait_answer()
        await players.settle(table)
        return ix, answer, action

    ix, answer, action = await typed()  # quick: the answer is the response itself
    assert ix.callback.type == 4 and not ix.followups
    assert answer.ephemeral and answer.content == f"Done: `{action}`."

    save = bot.store.save_game

    async def slow_save(*args, **kwargs):
        await asyncio.sleep(0.3)
        return await save(*args, **kwargs)

    monkeypatch.setattr(bot.store, "save_game", slow_save)
    version = table.version
    ix, answer, action = await typed()  # slow: "thinking…" first, then the answer
    assert ix.callback.type == 5 and answer is ix.followups[0]
    assert answer.ephemeral and answer.content == f"Done: `{action}`."
    assert table.version == version + 1

    # slower than the interaction lives: Discord refuses the deferral, the move still counts,
    # and the refusal is a warning, not an error
    caplog.clear()
    monkeypatch.setattr(fake_discord, "interaction_timeout", 0.2)
    monkeypatch.setattr(app, "TYPED_ANSWER_WITHIN", 0.25)
    seat = table.game.to_move(table.state)
    ix = await fake_discord.slash(table.seats[seat].user_id, players.channel.id, "move",
                                  {"action": decide(table.game, table.state, seat,
                                                    Rng(table.version), "random")})
    await until(lambda: table.version == version + 2, what="the move to count")
    await players.settle(table)
    assert ix.callback is None and not ix.followups
    assert [code for _, error in ix.errors for code in [error.get("code")]] == [10062, 10062]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Spec"])
    table = await players.start_game("Ana", ["Bo"])
    mover = players.mover(table)
    waiter = "Bo" if mover == "Ana" else "Ana"
    before, boards = table.state.to_json(), len(players.boards())

    # an illegal typed move
    ix = await fake_discord.slash(players.users[mover], players.channel.id, "move",
                                  {"action": "play padlock Z99"})
    reply = await ix.wait_answer()
    assert reply.ephemeral and ("Z99" in reply.content or "off the board" in reply.content.lower()
                                or "not" in reply.content.lower())
    # out of turn: the waiting player opens the panel
    board = players.boards()[-1]
    panel_id = next(cid for cid, label, _ in board.buttons() if label == "Take my turn")
    ix = await fake_discord.click(players.users[waiter], board.id, panel_id)
    reply = await ix.response()
    assert reply.ephemeral and f"It's {mover}'s turn: this button is theirs" in reply.data["content"]
    # a spectator clicks
    ix = await fake_discord.click(players.users["Spec"], board.id, panel_id)
    assert "not playing" in (await ix.response()).data["content"]
    assert table.state.to_json() == before and len(players.boards()) == boards

    # a stale button: play a turn, then click the old board's button from a stale client
    await players.play_by_buttons(table)
    ix = await fake_discord.click(players.users[players.mover(table) or mover], board.id,
                                  panel_id, force=True)
    reply = await ix.response()
    assert reply.ephemeral and "out of date" in reply.data["content"]


async def test_double_click_applies_once(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    # reach a move step: its choices are public buttons on the board
    for _ in range(20):
        seat = table.game.to_move(table.state)
        if table.state.data["phase"] == "move":
            break
        await players.play_by_buttons(table)
    board = players.boards()[-1]
    custom_id = next(cid for cid, label, _ in board.buttons() if label and label.startswith("Stay"))
    user = table.seats[seat].user_id
    count = len(await harness.bot.store.actions(table.id))
    first, second = await asyncio.gather(fake_discord.click(user, board.id, custom_id),
                                         fake_discord.click(user, board.id, custom_id))
    await first.response(), await second.response()
    await players.settle(table)
    await until(lambda: len(first.followups) + len(second.followups) >= 1)
    assert len(await harness.bot.store.actions(table.id)) == count + 1
    refusal = (first.followups + second.followups)[0]
    assert refusal.ephemeral and ("out of date" in refusal.content or "already" in refusal.content)


async def test_closed_dms_fall_back_to_hand(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"], dms_open={"Bo": False})
    table = await players.start_game("Ana", ["Bo"])
    bo = players.users["Bo"]
    notices = [m for m in players.channel_messages() if "can't DM you" in m.content]
    assert len(notices) == 1 and f"<@{bo}>" in notices[0].content
    await players.play_by_buttons(table)
    await players.play_by_buttons(table)
    assert len([m for m in players.channel_messages() if "can't DM you" in m.content]) == 1
    ix = await fake_discord.slash(bo, players.channel.id, "hand")
    reply = await ix.response()
    seat = table.seat_of(bo)
    assert reply.ephemeral
    for label in hand_labels(table, seat):
        assert label in reply.data["content"]


async def test_rate_limited_board_post_is_retried(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", status=429, retry_after=0.05)
    limited = fake_discord.rate_limited
    for _ in range(4):
        await players.play_by_buttons(table)
    assert fake_discord.rate_limited == limited + 1
    turns = [int(re.search(r"turn (\d+)", b.text()).group(1)) for b in players.boards()]
    assert turns == sorted(set(turns)), "a board was lost or posted twice"
    assert table.state.turn in turns


async def test_gateway_drop_resumes_and_play_goes_on(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    await players.play_by_buttons(table)
    await fake_discord.drop_gateway()
    await fake_discord.wait_for(lambda: fake_discord.resume_count >= 1, timeout=10)
    await players.play_by_buttons(table)
    await players.play_by_buttons(table)
    assert fake_discord.identify_count == 1


async def test_restart_mid_game_and_finish_with_old_buttons(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"])
    for _ in range(3):
        await players.play_by_buttons(table)
    before = table.state.to_json()
    board = players.boards()[-1]
    await harness.restart()
    table = players.table()
    assert table is not None and table.state.to_json() == before
    # the button on the message posted before the restart still works
    seat = table.game.to_move(table.state)
    user = table.seats[seat].user_id
    first = next(cid for cid, label, _ in board.buttons() if label in ("Take my turn",) or
                 (label and label.startswith(("Move", "Stay", "Skip", "Open", "Close"))))
    ix = await fake_discord.click(user, board.id, first)
    response = await ix.response()
    assert "out of date" not in str(response.data)
    await players.settle(table)
    await players.run_to_end(players.table() or table)
    assert players.table() is None
    assert (await harness.bot.store.game(table.id))["status"] == "over"


async def test_commands_threads_leave_end_and_rematch(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo"])
    ana, bo, cy = (players.users[n] for n in ("Ana", "Bo", "Cy"))

    # /rules with and without a topic, /games, /status
    ix = await fake_discord.slash(cy, players.channel.id, "rules", {"game": "castle"})
    assert "Topics:" in (await ix.response()).data["content"]
    ix = await fake_discord.slash(cy, players.channel.id, "rules", {"game": "castle",
                                                                   "topic": "turn"})
    sent = (await ix.response()).data["content"]
    assert sent.startswith("**Turn**") and broken_lines(sent) == []
    assert "\n1. **Draw.** You automatically take the top card of the draw pile. When" in sent
    ix = await fake_discord.slash(cy, players.channel.id, "games")
    assert "Keys to the Castle" in (await ix.response()).data["content"]
    before = players.current_board(table).id
    ix = await fake_discord.slash(cy, players.channel.id, "status")
    assert (await ix.response()).ephemeral
    await players.settle(table)
    live = players.current_board(table)  # /status posts the live board, buttons and all
    assert live.id != before and live.buttons() and players.boards()[-1].id == live.id
    assert fake_discord.messages[before].deleted or fake_discord.messages[before].buttons() == []

    # a second /play here opens a thread with its own lobby and a pointer in the channel
    ix = await fake_discord.slash(cy, players.channel.id, "play", {"game": "castle"})
    pointer = await ix.wait_original(lambda m: "lobby" in m.content)
    thread_id = int(re.search(r"<#(\d+)>", pointer.content).group(1))
    assert fake_discord.channels[thread_id].is_thread
    assert players.lobby(thread_id) is not None

    # /end needs the host or Manage Server; a guest is refused
    ix = await fake_discord.slash(cy, players.channel.id, "end")
    refusal = await ix.response()  # answered privately at once, never as a public message
    assert refusal.ephemeral and "host" in refusal.data["content"]

    # /leave hands the seat to an AI, and the game goes on
    ix = await fake_discord.slash(bo, players.channel.id, "leave")
    await ix.wait_followups()
    seat = next(i for i, s in enumerate(table.seats) if s.user_id == bo)
    assert table.seats[seat].ai
    await players.run_to_end(table)
    assert table.status == "over"

    # Play again opens a lobby with the same people
    final = players.boards()[-1]
    again = next(cid for cid, label, _ in final.buttons() if label == "Play again")
    ix = await fake_discord.click(ana, final.id, again)
    await ix.response()
    rematch = await until(lambda: (t := players.table()) and t.status == "lobby" and t)
    assert ana in [s.user_id for s in rematch.seats]
    assert any(s.ai for s in rematch.seats)  # Bo's seat, played by the AI, comes back as an AI

    # /stats shows the finished game
    ix = await fake_discord.slash(ana, players.channel.id, "stats")
    content = (await ix.response()).data["content"]
    assert "Keys to the Castle: " in content
    ana_won = table.seat_of(ana) in (table.result or {}).get("winners", [])
    assert bool(re.search(rf"<@{ana}>: 1 win in 1 game$", content, re.M)) == ana_won, content
    assert "0 wins" not in content  # a ranking lists winners only


async def test_manager_can_end_a_game(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    boss = fake_discord.add_user("Boss")
    fake_discord.add_member(players.guild.id, boss.id, manage_guild=True)
    table = await players.start_game("Ana", ["Bo"])
    ix = await fake_discord.slash(boss.id, players.channel.id, "end")
    await ix.wait_followups()
    await players.settle(table)
    assert table.status == "ended" and players.table() is None
    assert "ended early" in players.boards()[-1].text()
    assert await harness.bot.store.stats(players.guild.id, players.users["Ana"]) == []


async def test_timeouts_warn_then_ai_plays_then_vote_out(fake_discord, tmp_path):
    from bot.clock import FakeClock
    from bot.table import VOTE_AFTER_TIMEOUTS
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock, turn_timeout=120.0)
    try:
        await harness.start()
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"])
        lazy_seat = table.game.to_move(table.state)
        lazy = table.seats[lazy_seat].user_id
        for missed in range(1, VOTE_AFTER_TIMEOUTS + 1):
            turn = table.state.turn
            clock.advance(60)
            await until(lambda: any("half your time" in m.content and f"<@{lazy}>" in m.content
                                    for m in players.channel_messages()[-3:]))
            clock.advance(60)
            await until(lambda: table.state.turn > turn, what="the AI to play the missed turn")
            await players.settle(table)
            assert table.seats[lazy_seat].timeouts == missed
            while players.mover(table) and table.game.to_move(table.state) != lazy_seat:
                await players.play_by_buttons(table)
        board = players.current_board(table)
        vote, options = next((cid, options) for cid, options in board.selects()
                             if cid.endswith(":vote:"))
        assert options == [(str(lazy_seat), f"Vote out {table.seats[lazy_seat].name}")]
        voter = table.seats[1 - lazy_seat].user_id
        ix = await fake_discord.select(lazy, board.id, vote, [str(lazy_seat)])
        assert "yourself" in (await ix.wait_followups())[0].content
        ix = await fake_discord.select(voter, board.id, vote, [str(lazy_seat)])
        await ix.wait_followups()
        await players.settle(table)
        assert table.seats[lazy_seat].ai
        assert any("voted out" in m.content for m in players.channel_messages())
    finally:
        await harness.stop()


async def test_typing_a_button_label_plays_it(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", read_messages=True)
    try:
        await harness.start()
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"])
        while table.state.data["phase"] != "move":
            await players.play_by_buttons(table)
        seat = table.game.to_move(table.state)
        mover = table.seats[seat].user_id
        other = table.seats[1 - seat].user_id
        version = table.version
        await fake_discord.say(other, players.channel.id, "stay")  # not their turn: ignored
        await fake_discord.say(mover, players.channel.id, "good luck everyone")  # table talk
        await fake_discord.say(mover, players.channel.id, "STAY!")
        await until(lambda: table.version > version)
        assert (await harness.bot.store.actions(table.id))[-1]["action"] == "stay"
        assert (await harness.bot.store.actions(table.id))[-1]["seat"] == seat
        assert table.version == version + 1
    finally:
        await harness.stop()

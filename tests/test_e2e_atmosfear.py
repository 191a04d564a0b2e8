"""Atmosfear end to end on a fake clock: fears by modal, the Gatekeeper's timed interjections,
a missed "YES! MY GATEKEEPER!" and its punishment, and the clock running out."""
from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from sandbox.harness import BotHarness
from tests.harness import Players


async def drain(bot) -> None:
    for _ in range(3):
        await asyncio.sleep(0)
        if bot.service._tasks:
            await asyncio.gather(*list(bot.service._tasks))


def gatekeeper_messages(players):
    """Every table message that showed the Gatekeeper holding the floor, retired ones too."""
    return [m for m in players.every_table() if "🗝️ **THE GATEKEEPER**" in m.text()]


@pytest.fixture
async def world(fake_discord, tmp_path):
    clock = FakeClock()
    harness = BotHarness(fake_discord, tmp_path / "gk.db", clock=clock, turn_timeout=10_000.0)
    await harness.start()
    yield clock, harness, Players(fake_discord, harness, ["Ana", "Bo", "Spec"])
    await harness.stop()


async def test_accelerated_game_with_a_missed_call(fake_discord, world):
    clock, harness, players = world
    ana, bo, spec = (players.users[n] for n in ("Ana", "Bo", "Spec"))
    await players.open("Ana", "atmosfear")
    lobby = players.lobby()
    select_id, options = next((cid, options) for cid, options in lobby.selects()
                              if cid.endswith(":opt:minutes"))
    assert options == [("40", "40 minutes"), ("20", "20 minutes"), ("60", "60 minutes")]
    ix = await fake_discord.select(ana, lobby.id, select_id, ["20"])
    await ix.response()
    table = players.table()
    await players.settle(table)
    assert table.options == {"minutes": 20, "answer": 8}
    await players.lobby_click("Bo", "join")
    await players.lobby_click("Ana", "ai")
    await players.lobby_click("Ana", "start")
    bot = harness.bot
    missed = False
    for _ in range(4000):
        if table.status != "running":
            break
        clock.advance(0)
        await drain(bot)
        await players.settle(table)
        if table.status != "running":
            break
        state = table.state
        calling = table.game.view(state, None)["gatekeeper"]["calling"]
        if calling is not None and not table.seats[calling].ai and not missed:
            # the called player freezes: the Gatekeeper's deadline passes
            said = len(gatekeeper_messages(players))
            called = table.seats[calling].user_id
            call = players.current_board(table)  # his call is one message: the live table
            deadline = table.game.view(state, None)["gatekeeper"]["deadline"]
            assert f"<@{called}>" in call.text() and f"<t:{int(deadline)}:R>" in call.text()
            assert table.fill(table.state.data["gk"]["line"]) in call.text()
            assert [label for _, label, _ in call.buttons()
                    if label != "My hand"] == ["YES! MY GATEKEEPER!"]
            assert [name for name, _ in call.attachments] == ["speaker.png"]  # no board
            assert call.alt_texts() and "Gatekeeper" in call.alt_texts()[0]
            # nobody may move while he speaks, and he says so
            other = bo if called == ana else ana
            ix = await fake_discord.slash(other, players.channel.id, "move", {"action": "roll 2"})
            refusal = (await ix.wait_answer()).content
            assert refusal and "Done" not in refusal
            clock.advance(9)
            await drain(bot)
            await players.settle(table)
            assert [a["action"] for a in await bot.store.actions(table.id)][-1] == "gk late"
            # his verdict is on the same table, no new message for it
            verdict = table.fill(table.state.data["gk"]["line"])
            assert verdict in players.current_board(table).text()
            assert len(gatekeeper_messages(players)) == said
            missed = True
            continue
        human = next((i for i, s in enumerate(table.seats)
                      if not s.ai and table.game.prompt(state, i) is not None), None)
        if human is not None:
            await players.play_by_buttons(table, seat=human)
        clock.advance(6)  # people take a few seconds per move; the game clock runs on
    assert table.status == "over"
    assert missed, "the Gatekeeper never called on a person in this game"
    final = players.boards()[-1]
    assert "Game over" in final.text()
    if not table.result["winners"]:
        assert "Gatekeeper" in table.fill(table.result["reason"])
    # fears went in by modal and never reached anyone else: not the channel, not the spectator
    fears = [f"{name}'s worst fear" for name in ("Ana", "Bo")]
    read = table.game.view(table.state, None)["fears_read"]
    for message in fake_discord.seen_by(spec):
        for fear in fears:
            assert fear not in message.readable() or fear in read
    # the countdown is a Discord timestamp, not a message edited every second
    assert any("<t:" in b.text() and ":R>" in b.text() for b in players.every_table())

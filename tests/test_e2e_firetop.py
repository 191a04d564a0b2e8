"""The Warlock of Firetop Mountain end to end: three people and an AI play a whole game through the
real discord.py client and the fake Discord, by buttons and panels."""
from __future__ import annotations

import re

import pytest

import games
from games.firetop import GAME
from tests.harness import BotHarness, Players, until

pytestmark = pytest.mark.asyncio

SECRET_WORDS = ("held out by", "must lie under", "You find:", "shows you Key card", "The orb shows key",
                "Your Key cards", "Adventure sheet")


@pytest.fixture
async def harness(fake_discord, tmp_path, monkeypatch):
    # Not yet advertised as an entry point: registered in this process only, so the boards are
    # drawn in a thread (a spawned render worker discovers games afresh and would not know it).
    monkeypatch.setitem(games.registry(), "firetop", GAME)
    h = BotHarness(fake_discord, tmp_path / "gk.db", render_workers=0)
    yield h
    await h.stop()


async def play_out(players: Players, table, max_steps: int = 3000) -> int:
    """Play every person's prompts (several may be open at once) until the game ends."""
    clicks = 0
    for _ in range(max_steps):
        if table.status != "running":
            await players.settle(table)
            return clicks
        await players.settle(table)
        people = [s for s, seat in enumerate(table.seats) if not seat.ai and table.prompts[s] is not None]
        if not people:
            await until(lambda: table.status != "running" or any(
                not seat.ai and table.prompts[s] is not None for s, seat in enumerate(table.seats)),
                what="the AI to play")
            continue
        mover = table.game.to_move(table.state)
        seat = mover if mover in people else people[0]
        await players.play_by_buttons(table, seat=seat)
        clicks += 1
    raise AssertionError("the game did not end")


async def test_three_people_and_an_ai_play_to_the_chest(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo", "Cy"], ais=1, game="firetop")
    assert table.game.name == "firetop" and len(table.seats) == 4
    # everyone rolls up an adventurer at once: each person gets buttons of their own
    first = players.current_board(table)
    owners = {cid.split(":")[2] for cid, _, _ in first.buttons() if cid and cid.split(":")[2].isdigit()}
    assert len(owners) >= 3
    clicks = await play_out(players, table)
    assert table.status == "over" and clicks > 20
    final = players.boards()[-1]
    text = final.text()
    assert "Game over" in text
    winners = table.result["winners"]
    if winners:
        assert table.seats[winners[0]].name[:14] in text
    assert any(name == "board.png" for name, _ in final.attachments)
    # a battle is one message, edited round by round, with the dice in its log
    battles = [m for m in players.boards() if re.search(r"Round 1: .*= \d+", m.text())
               and "Round 2:" in m.text()]
    assert battles, "no battle of two rounds or more was shown on one board"
    # secrets: Key Challenge results, found treasure and Key cards never reach the channel
    for message in players.channel_messages():
        for words in SECRET_WORDS:
            assert words not in message.text(), (words, message.text()[:200])
    # the adventure sheet comes by DM, to each person their own, and only when it changed
    for index, seat in enumerate(table.seats):
        if seat.ai:
            assert fake_discord.dms(seat.user_id) == [] if seat.user_id else True
            continue
        dms = fake_discord.dms(seat.user_id)
        mine = f"Adventure sheet** ({GAME.colours[index]}"
        assert dms and all(mine in m.content for m in dms)
        assert all(a.content != b.content for a, b in zip(dms, dms[1:]))
        for other in table.seats:
            if other.user_id not in (None, seat.user_id):
                assert not any(mine in m.text() for m in fake_discord.all_visible_to(other.user_id))
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []


async def test_hand_rules_and_typed_moves(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"], game="firetop")
    ana, bo = players.users["Ana"], players.users["Bo"]
    ix = await fake_discord.slash(ana, players.channel.id, "hand")
    reply = await ix.response()
    assert reply.ephemeral and "Adventure sheet" in reply.data["content"] and "Key cards" in reply.data["content"]
    ix = await fake_discord.slash(bo, players.channel.id, "rules", {"game": "firetop", "topic": "river"})
    reply = await ix.response()
    assert reply.ephemeral and "ferry" in reply.data["content"].lower()
    # a typed move: both roll up their adventurers with /move
    for user in (ana, bo):
        ix = await fake_discord.slash(user, players.channel.id, "move", {"action": "extras 0"})
        await ix.response()
    await until(lambda: table.state.data["phase"] == "play", what="both adventurers")
    mover = table.game.to_move(table.state)
    other = bo if table.seats[mover].user_id == ana else ana
    ix = await fake_discord.slash(other, players.channel.id, "move", {"action": "roll"})
    answer = await ix.response()
    said = answer.data.get("content") or (await ix.wait_original(lambda m: bool(m.content))).content
    assert answer.ephemeral and "turn, not yours" in said
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []

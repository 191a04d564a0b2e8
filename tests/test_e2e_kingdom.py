"""Key to the Kingdom end to end: two people and an AI play through the fake Discord to the end.

The game is not advertised as an entry point yet, so the test registers it by hand before the bot
starts (its slash subcommands are built from the registry) and renders in-process: a spawned
render worker would not see a game registered this way.
"""
from __future__ import annotations

import pytest

from games.kingdom.stock import TREASURE_NAMES, TREASURES
from tests.harness import BotHarness, Players


@pytest.fixture
async def harness(fake_discord, tmp_path):
    h = BotHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def test_two_people_and_an_ai_play_to_the_end(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo"], ais=1, game="kingdom",
                                     options={"rounds": 50})  # the shortest game
    assert table.game.name == "kingdom" and len(table.seats) == 3
    first = players.boards()[0]
    assert any(name == "board.png" for name, _ in first.attachments)
    await players.run_to_end(table)
    assert table.status == "over"
    final = players.boards()[-1].text()
    assert "Game over" in final
    assert "escapes the Kingdom" in final or "keeps the Kingdom" in final

    # a hazard attempt is one message updated with its throws: some board was edited with rolls
    rolled = [m for m in players.every_table() if m.edits and m.text().count("rolls **") >= 2]
    assert rolled, "no board message was updated with a hazard's throws"

    # Treasures are private: which holder is which never reaches the channel before the end
    secrets = [TREASURE_NAMES[t] for t in TREASURES]
    for message in players.fake.channel_messages(players.channel.id, include_deleted=True):
        if message is players.boards()[-1]:
            continue
        for version in [message, *message.edits]:
            text = version.readable()
            if "escapes the Kingdom" in text:
                continue
            assert "Inside the holder" not in text and "Your Treasure holders" not in text
            assert not any(f"**{name}**" in text for name in secrets), text
    # ...and each person's DMs carry their own private text, never the other person's
    for index, seat in enumerate(table.seats):
        if seat.ai:
            continue
        mine = f"You are **{table.game.colours[index]}**."
        dms = fake_discord.dms(seat.user_id)
        assert dms and mine in dms[0].content  # their private state; later DMs: news only
        for other in table.seats:
            if other.user_id not in (None, seat.user_id):
                assert not any(mine in m.readable() for m in fake_discord.seen_by(other.user_id))
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []


async def test_hand_shows_treasures_privately_and_rules_answer(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"], game="kingdom")
    table.state.data["players"][0]["hand"] = ["crown"]  # as if Ana had won a fight
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "hand", {})
    reply = (await ix.response()).data
    assert "the Crown" in reply["content"] and reply.get("flags", 0) & 64
    ix = await fake_discord.slash(players.users["Bo"], players.channel.id, "rules",
                                  {"game": "kingdom", "topic": "whirlpools"})
    assert "3 throws" in (await ix.response()).data["content"]

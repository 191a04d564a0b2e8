"""Don't Go In There end to end: two people and an AI play to the final score."""
from __future__ import annotations

import re

import pytest

from sandbox.harness import BotHarness
from tests.harness import Players


@pytest.fixture
async def harness(fake_discord, tmp_path):
    h = BotHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def test_three_player_game_to_the_final_score(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo"], ais=1, game="dontgo")
    assert table.game.name == "dontgo" and len(table.seats) == 3
    await players.run_to_end(table)
    assert table.status == "over"
    final = players.boards()[-1]
    text = final.text()
    assert "Game over" in text and "Final scores" in text
    for seat in table.seats:  # a line each: the name, then the total
        assert re.search(rf"\*\*{re.escape(seat.name)}\*\* · Total -?\d+", text)
    # ghost counts stay behind each player's screen: only in their own DMs, never in the channel
    for message in players.every_version():
        assert "behind your screen" not in message.readable()
    for index, seat in enumerate(table.seats):
        if seat.ai:
            continue
        mine = f"You are {table.game.colours[index]}."
        dms = fake_discord.dms(seat.user_id)
        # the first DM shows their screen; later ones only the news that reached them
        assert dms and mine in dms[0].content and "Ghosts behind your screen" in dms[0].content
        for other in table.seats:
            if other.user_id not in (None, seat.user_id):
                assert not any(mine in m.readable() for m in fake_discord.seen_by(other.user_id))
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []

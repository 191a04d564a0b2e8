"""/replay through the real discord.py client and the fake Discord."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from sandbox.harness import BotHarness, until
from bot.replay import scenes
from tests.harness import Players

pytestmark = pytest.mark.asyncio
# A guard against a hung build, not a measurement: the replay is drawn frame by frame in the
# render process, which on CI's two busy cores (three test workers) can take well over 5 s.
BUILD_TIMEOUT = 60.0


@pytest.fixture
async def harness(fake_discord, tmp_path):
    h = BotHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def finished_castle(players: Players):
    """Ana starts a game against an AI and leaves it: the AIs play it to the end."""
    table = await players.start_game("Ana", [], ais=1)
    ix = await players.fake.slash(players.users["Ana"], players.channel.id, "leave")
    await ix.wait_followups()
    await until(lambda: table.status == "over", timeout=30, what="the AIs to finish")
    await players.settle(table)
    return table


async def refusal(fake, user: int, channel: int, options: dict) -> str:
    ix = await fake.slash(user, channel, "replay", options)
    answer = await ix.response()
    assert answer.ephemeral
    return answer.data["content"]


async def test_replay_posts_the_latest_finished_game_and_refuses_clearly(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    bo = players.users["Bo"]
    table = await finished_castle(players)
    store = harness.bot.store

    ix = await fake_discord.slash(bo, players.channel.id, "replay")
    done = (await ix.wait_followups(timeout=BUILD_TIMEOUT))[0]
    assert done.ephemeral and f"Posted the replay of game #{table.id}" in done.content
    posted = [m for m in players.channel_messages() if m.attachments
              and m.attachments[0][0] == f"replay-{table.id}.webp"]
    assert len(posted) == 1
    assert posted[0].content.startswith(f"🎬 Replay of game #{table.id} Keys to the Castle:")
    assert "Ana (AI)" in posted[0].content and "for Bo" in posted[0].content
    with Image.open(io.BytesIO(posted[0].attachments[0][1])) as image:
        assert image.format == "WEBP" and image.is_animated
        row, actions = await store.game(table.id), await store.actions(table.id)
        assert image.n_frames == len(scenes(row, actions))

    # the finished game is offered by autocomplete; a game still running is not
    running = await players.start_game("Ana", [], ais=1)
    offered = await fake_discord.autocomplete(bo, players.channel.id, "replay", {"game": ""},
                                              focused="game")
    assert [c["value"] for c in offered] == [table.id]
    assert offered[0]["name"].startswith(f"#{table.id} Keys to the Castle: ")

    text = await refusal(fake_discord, bo, players.channel.id, {"game": running.id})
    assert f"Game #{running.id} is still running" in text
    text = await refusal(fake_discord, bo, players.channel.id, {"game": 9999})
    assert "There is no game #9999 in this server" in text
    # another server cannot replay this server's game, and has none of its own yet
    other = fake_discord.add_guild("Elsewhere")
    lounge = fake_discord.add_channel(other.id, "lounge")
    fake_discord.add_member(other.id, bo)
    text = await refusal(fake_discord, bo, lounge.id, {"game": table.id})
    assert f"There is no game #{table.id} in this server" in text
    text = await refusal(fake_discord, bo, lounge.id, {})
    assert "No game has finished in this channel yet" in text
    assert len([m for m in players.channel_messages() if m.attachments
                and m.attachments[0][0].startswith("replay-")]) == 1
    assert fake_discord.http_errors == []

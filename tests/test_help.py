"""A newcomer's first words: /help, "help" typed in a channel, and /stats before anyone won."""
from __future__ import annotations

import games
from tests.harness import InThreadHarness, Players


async def test_help_tells_a_newcomer_how_to_start_every_game_and_every_command(
        fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana"])
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "help")
        answer = await ix.response()
        assert answer.ephemeral
        text = answer.message.text()
        assert "/play" in text and "/rules" in text and "Join" in text and "Start" in text
        for game in games.all_games():
            assert game.title in text and f"/play {game.name}" in text
        for command in fake_discord.commands():
            assert f"/{command['name']}" in text, command["name"]
        assert "easy, smart or hard" in text and "topic `ai levels`" in text
        assert len(text) <= 4096  # an embed's description
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "rules",
                                      {"game": "kingdom", "topic": "ai levels"})
        levels = (await ix.response()).data["content"]
        assert levels.startswith("**AI levels**") and "**Add easy AI**" in levels
        assert "- **hard**: thinks ahead" in levels
    finally:
        await harness.stop()


async def test_help_typed_in_a_channel_is_answered_and_table_talk_is_not(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", read_messages=True)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana"])
        await fake_discord.say(players.users["Ana"], players.channel.id, "can someone help me")
        asked = await fake_discord.say(players.users["Ana"], players.channel.id, "Help")
        reply = await fake_discord.wait_for(
            lambda: [m for m in players.channel_messages() if m.author_id != players.users["Ana"]])
        assert len(reply) == 1 and "/play" in reply[0].text() and "/help" in reply[0].text()
        assert int(reply[0].reference["message_id"]) == asked.id
    finally:
        await harness.stop()


async def test_stats_before_anyone_won_says_so(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana"])
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "stats")
        text = (await ix.response()).data["content"]
        assert "No wins yet." in text and "0 wins" not in text
    finally:
        await harness.stop()

"""What the bot's log setup keeps out of the log: discord.py's voice warnings (the bot uses no
voice), and nothing else of discord.py's."""
from __future__ import annotations

import logging

import discord
import discord.voice_client

from bot.logs import NO_VOICE, setup_logging


def test_the_voice_warnings_are_gone_and_other_discord_warnings_stay(monkeypatch, capsys):
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    client_log = logging.getLogger("discord.client")
    monkeypatch.setattr(client_log, "filters", list(client_log.filters))
    # as on a machine without PyNaCl and davey, and before any client warned about them
    monkeypatch.setattr(discord.voice_client.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.voice_client.VoiceClient, "warn_dave", True)

    setup_logging("INFO", [])
    setup_logging("INFO", [])  # a second set-up adds no second filter
    discord.Client(intents=discord.Intents.none())
    client_log.warning("Shard ID %s heartbeat blocked for more than %s seconds.", 0, 10)

    log = capsys.readouterr().err
    assert "voice will NOT be supported" not in log
    assert "WARNING discord.client Shard ID 0 heartbeat blocked for more than 10 seconds." in log
    assert client_log.filters.count(NO_VOICE) == 1
    assert not discord.voice_client.VoiceClient.warn_nacl  # the client did warn: it was dropped

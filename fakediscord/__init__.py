"""A fake Discord (REST + gateway) for end-to-end tests of discord.py bots.

    fake = FakeDiscord(); await fake.start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

Part of the package (not only the tests): the end-to-end tests, the benchmark (bench) and
BotHarness (sandbox.harness) all drive the bot through it. tests/conftest.py has the
pytest fixture (`fake_discord`).

It fakes Discord for any discord.py bot, so it knows none of ours.

May import: nothing of the project.
"""

from typing import Protocol

from .models import Callback, Channel, Guild, Interaction, Member, Message, Role, User
from .server import FakeDiscord, FakeDiscordError

__all__ = [
    'FakeDiscord',
    'FakeDiscordError',
    'Callback',
    'Channel',
    'Guild',
    'Interaction',
    'Member',
    'Message',
    'Role',
    'User',
    'patch_discord',
]


class Endpoints(Protocol):
    """Where a fake Discord listens: a FakeDiscord, or the benchmark's handle on one running in
    another process (bench.players)."""
    api_base: str
    gateway_url: str


def patch_discord(fake: Endpoints):
    """Point discord.py at ``fake``; returns a function restoring the previous endpoints."""
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gw = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gw

    return restore

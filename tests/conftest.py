"""Fixtures for every test: a started fake Discord (bot.fakediscord) that discord.py talks to."""
from __future__ import annotations

from typing import AsyncIterator

import pytest_asyncio

from bot.fakediscord import FakeDiscord, patch_discord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py's Route.BASE / DEFAULT_GATEWAY pointed at it
    (restored afterwards)."""
    fake = FakeDiscord()
    await fake.start()
    restore = patch_discord(fake)
    try:
        yield fake
    finally:
        restore()
        await fake.stop()

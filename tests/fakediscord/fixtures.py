"""pytest fixtures. In tests/conftest.py:  ``from <pkg>.fixtures import fake_discord  # noqa: F401``"""

from __future__ import annotations

from typing import AsyncIterator

import pytest_asyncio

from . import FakeDiscord, patch_discord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py's Route.BASE / DEFAULT_GATEWAY pointed at it (restored afterwards)."""
    fake = FakeDiscord()
    await fake.start()
    restore = patch_discord(fake)
    try:
        yield fake
    finally:
        restore()
        await fake.stop()

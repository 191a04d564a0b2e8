"""Persistence: `Store(GATEKEEPER_DB)` opens SQLite (a file path, the embedded default) or
PostgreSQL (a postgresql:// URL, shared by several bot processes). The interface: common.py."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .common import (ACTIVE, Conflict, Duplicate, Result, Shards, Store, StoreError,
                     Unavailable, is_url)

__all__ = ["ACTIVE", "Conflict", "Duplicate", "Result", "Shards", "Store", "StoreError",
           "Unavailable", "read_game"]


def read_game(target: Path | str, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's row and action log without disturbing a bot that uses the database: SQLite is
    opened read-only beside the bot's lock; PostgreSQL is shared anyway."""
    if is_url(target):
        async def read() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            store = Store(target)
            try:
                return await store.game(game_id), await store.actions(game_id)
            finally:
                await store.close()
        return asyncio.run(read())
    from .sqlite import read_game as read_file
    return read_file(Path(target), game_id)

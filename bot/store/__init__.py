"""Persistence: `Store(GATEKEEPER_DB)` opens SQLite (a file path, the embedded default) or
PostgreSQL (a postgresql:// URL, shared by several bot processes). The interface: common.py."""
from .common import ACTIVE, Conflict, Shards, Store, StoreError

__all__ = ["ACTIVE", "Conflict", "Shards", "Store", "StoreError"]

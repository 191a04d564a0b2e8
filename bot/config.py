"""Settings from the environment. The token is kept out of reprs so it never reaches a log."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from .store.common import Shards, is_url

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY = "wss://gateway.discord.gg/"
# With PostgreSQL there is no local database file: the heartbeat goes to <this>.heartbeat.
POSTGRES_HEARTBEAT = Path("var/gatekeeper")

TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in.

  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy the token.
  3. Run again with the token in the environment, for example:
        export DISCORD_TOKEN='paste-it-here'
  4. Invite the bot with the URL printed in README.md ("Invite the bot").

Other settings (all optional) are listed in README.md under "Settings".
"""


class ConfigError(Exception):
    """A setting is missing or wrong; the message tells the operator what to do."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)
    # The SQLite file, or with a PostgreSQL database the local path the heartbeat is kept beside.
    db_path: Path = Path("var/gatekeeper.db")
    db_url: str | None = field(default=None, repr=False)  # postgresql://...: may hold a password
    log_level: str = "INFO"
    turn_timeout: float = 600.0
    ai_delay: float = 1.0
    render_workers: int = 1
    read_messages: bool = False
    dev_guild_id: int | None = None
    api_base: str = DEFAULT_API_BASE
    gateway_url: str = DEFAULT_GATEWAY
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    # Seconds discord.py waits after the last GUILD_CREATE before it calls the bot ready and the
    # bot catches its channels up (discord.py's default). The bot reads no guild cache (it
    # answers by channel id), so the fake Discord's users, which send every guild at once, can
    # shorten it (GATEKEEPER_GUILD_READY_TIMEOUT).
    guild_ready_timeout: float = 2.0
    # Connections this process keeps to PostgreSQL (GATEKEEPER_DB_POOL): as many store calls can
    # be in flight at once; more wait for a free one. SQLite has one connection and ignores it.
    db_pool: int = 8

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, need_token: bool = True) -> "Settings":
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if need_token and not token:
            raise ConfigError(TOKEN_HELP)
        try:
            guild = env.get("GATEKEEPER_DEV_GUILD_ID", "").strip()
            shards = env.get("GATEKEEPER_SHARD_IDS", "").strip()
            count = env.get("GATEKEEPER_SHARD_COUNT", "").strip()
            db = env.get("GATEKEEPER_DB", "").strip() or "var/gatekeeper.db"
            guild_ready = float(env.get("GATEKEEPER_GUILD_READY_TIMEOUT", "2.0"))
            if not 0 <= guild_ready < math.inf:  # nan and inf (float() takes both) fail too
                raise ConfigError(f"GATEKEEPER_GUILD_READY_TIMEOUT must be 0 seconds or more, "
                                  f"not {guild_ready:g}")
            pool = int(env.get("GATEKEEPER_DB_POOL", "8"))
            if pool < 1:
                raise ConfigError(f"GATEKEEPER_DB_POOL must be 1 connection or more, not {pool}")
            return cls(
                token=token,
                db_path=POSTGRES_HEARTBEAT if is_url(db) else Path(db),
                db_url=db if is_url(db) else None,
                log_level=env.get("GATEKEEPER_LOG_LEVEL", "INFO").upper(),
                turn_timeout=float(env.get("GATEKEEPER_TURN_TIMEOUT", "600")),
                ai_delay=float(env.get("GATEKEEPER_AI_DELAY", "1.0")),
                render_workers=int(env.get("GATEKEEPER_RENDER_WORKERS", "1")),
                read_messages=env.get("GATEKEEPER_READ_MESSAGES", "").lower() in ("1", "true", "yes"),
                dev_guild_id=int(guild) if guild else None,
                api_base=env.get("DISCORD_API_BASE", DEFAULT_API_BASE).rstrip("/"),
                gateway_url=env.get("DISCORD_GATEWAY_URL", DEFAULT_GATEWAY),
                shard_ids=tuple(int(s) for s in shards.split(",")) if shards else None,
                shard_count=int(count) if count else None,
                guild_ready_timeout=guild_ready,
                db_pool=pool,
            )
        except ValueError as exc:
            raise ConfigError(f"A numeric setting is not a number: {exc}") from None

    @property
    def database(self) -> Path | str:
        """What the store opens: the PostgreSQL URL if GATEKEEPER_DB is one, else the file."""
        return self.db_url or self.db_path

    @property
    def store_options(self) -> dict[str, int]:
        """What the store is opened with besides `database`: PostgreSQL's pool size."""
        return {"pool_size": self.db_pool} if self.db_url else {}

    @property
    def shards(self) -> Shards:
        return Shards(self.shard_count or 1, self.shard_ids)


@dataclass(frozen=True)
class SandboxSettings:
    """Where the local sandbox (sandbox.serve) listens and keeps its games: never the production
    database, and 127.0.0.1 only."""
    port: int = 0  # 0: a free port
    db_path: Path = Path("var/sandbox.db")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "SandboxSettings":
        env = dict(os.environ if env is None else env)
        raw_port = env.get("GATEKEEPER_SANDBOX_PORT", "").strip()
        try:
            port = int(raw_port) if raw_port else 0
        except ValueError:
            raise ConfigError(f"GATEKEEPER_SANDBOX_PORT is not a port number: {raw_port!r}") from None
        if not 0 <= port <= 65535:
            raise ConfigError(f"GATEKEEPER_SANDBOX_PORT must be 0 (any free port) to 65535, not {port}")
        db_path = Path(env.get("GATEKEEPER_SANDBOX_DB", "").strip() or cls.db_path)
        production = Path(env.get("GATEKEEPER_DB", "var/gatekeeper.db"))
        if db_path.resolve() == production.resolve():
            raise ConfigError(f"GATEKEEPER_SANDBOX_DB is the production database ({production}); "
                              "the sandbox replaces its database at every start: give it its own file")
        return cls(port=port, db_path=db_path)

"""What both stores share: the interface and its SQL, the migration list, row encoding, shards.

Every game action is saved with its new state and timers in one transaction, compare-and-swap
on the game's version, so a crash between two actions loses nothing, never leaves a half-written
game, and two writers (two processes, during a reshard) can never both apply a move to one game.
The queries are written once, with `?` placeholders; each store runs them through its driver.

- Schema: the migrations are listed once, by name, in MIGRATIONS (names identify them: never
  rename one); `0001_initial` is release 0.1.0's tables.
- Game states: each row records the engine's `state_format`; on load, the game's pure
  `upgrades[n]` steps bring it to the current format.
- Quarantine: a row that cannot be loaded (its plugin gone, its state unreadable or newer than
  the engine) is kept as it is with `status = 'quarantined'` and why; start-up goes on.
- A save that lost the compare-and-swap (another process saved first), or a repeated
  interaction id, raises `Conflict` and writes nothing.
- Stats are one table for every process; `Shards` picks a process's guilds as Discord does,
  `(guild_id >> 22) % count`.
"""
from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

ACTIVE = ("lobby", "running")

log = logging.getLogger("gatekeeper.store")

# The schema versions, oldest first: both stores record these names once applied. A step that is
# plain portable SQL is defined here; 0001 differs by dialect (SQLite's 0.1.0 made its tables
# unversioned), so each store spells it out.
MIGRATIONS: list[tuple[str, tuple[str, ...] | None]] = [
    ("0001_initial", None),
    # Per-seat prompt tokens (a click is stale only if its seat's prompt changed), the engine
    # format of each stored state (NULL: written by 0.1.0, format 1), why a game is quarantined,
    # and which game version each message shows (to republish what is behind).
    ("0002_seat_tokens_and_shown_versions", (
        "ALTER TABLE games ADD COLUMN tokens TEXT",
        "ALTER TABLE games ADD COLUMN state_format INTEGER",
        "ALTER TABLE games ADD COLUMN problem TEXT",
        "ALTER TABLE messages ADD COLUMN version INTEGER",
    )),
    # Games at any pace: the reminders already sent this turn (so each is sent once, also across
    # a restart), who a game waits on (/games sorts by it without loading the game), each
    # person's /notify and /away, and the indexes that find due timers and a channel's game
    # among 100,000 idle games.
    ("0003_pace", (
        "ALTER TABLE games ADD COLUMN reminded TEXT",
        "ALTER TABLE games ADD COLUMN waiting TEXT",
        "CREATE TABLE people (user_id BIGINT PRIMARY KEY, notify INTEGER NOT NULL DEFAULT 1, "
        "away_until DOUBLE PRECISION)",
        "CREATE INDEX timers_due ON timers (due_at)",
        "CREATE INDEX games_channel ON games (channel_id, status)",
    )),
    # Languages: the one a server's manager chose with /language (no row: Discord's server
    # locale), and each person's Discord language as last seen, for the DMs they are sent.
    ("0004_languages", (
        "CREATE TABLE guilds (guild_id BIGINT PRIMARY KEY, language TEXT)",
        "ALTER TABLE people ADD COLUMN language TEXT",
    )),
]


class StoreError(Exception):
    """The database cannot be used; the message says which database and what to do."""


class Conflict(Exception):
    """A save lost: someone else saved that game first (compare-and-swap), or recorded the same
    interaction. Nothing was written."""


class Duplicate(Conflict):
    """The interaction of that save is already recorded: the click was handled. Nothing was
    written (the unique interaction id checks this in the save's own statement, so a click
    costs no separate look-up)."""


class Unavailable(StoreError):
    """The database did not answer in time (down, restarting, overloaded). `unsent`: the call
    never got a connection, so nothing was written; otherwise a save's outcome is unknown and
    the caller reloads that game from the store once it answers again."""

    def __init__(self, message: str, unsent: bool = False) -> None:
        super().__init__(message)
        self.unsent = unsent


@dataclass(frozen=True)
class Shards:
    """The guilds a process serves: Discord routes a guild to shard (guild_id >> 22) % count."""
    count: int = 1
    ids: tuple[int, ...] | None = None  # None: every shard

    def owns(self, guild_id: int) -> bool:
        return self.ids is None or (guild_id >> 22) % self.count in self.ids

    def where(self) -> tuple[str, list[int]]:
        """The same test as SQL on games.guild_id, with its parameters."""
        if self.ids is None:
            return "1 = 1", []
        return (f"((guild_id >> 22) % ?) IN ({', '.join('?' * len(self.ids))})",
                [self.count, *self.ids])


def is_url(target: Path | str) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


# The store `Store(target)` opens, by whether `target` is a PostgreSQL URL: named, as a game
# names its renderer, because each flavour subclasses Store (importing them here would be a
# cycle), and imported on first use, so a SQLite bot never loads psycopg (0.2 s).
FLAVOURS = {True: "bot.store.postgres:PostgresStore", False: "bot.store.sqlite:SqliteStore"}


class Store(ABC):
    """The persistence interface. `Store(target)` opens the store `target` names, as
    `pathlib.Path` picks its flavour: a postgresql:// URL is PostgreSQL, anything else a SQLite
    file.

    Subclasses supply the connection: `transaction`, `_execute`, `_execute_many`, `_rows`,
    `migrations`, `close`, which driver error means a duplicate row (`_duplicate`), and how a
    message row is written (`_store_message`). Every query is a coroutine, so a store whose
    round trips wait on a server (PostgreSQL) never blocks the event loop; the message ids the
    publisher reads after every move are served from memory (`load_messages` fills it when a
    game is loaded) and written behind.
    """
    _duplicate: type[Exception] | tuple[type[Exception], ...] = ()

    def __new__(cls, target: Path | str, *args: Any, **kwargs: Any) -> "Store":
        if cls is Store:
            module, _, name = FLAVOURS[is_url(target)].partition(":")
            cls = getattr(import_module(module), name)
        return super().__new__(cls)

    def __init__(self, target: Path | str) -> None:
        self._messages: dict[int, dict[str, tuple[int, int, int]]] = {}

    # -- what each store supplies --------------------------------------------------------------
    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """BEGIN..COMMIT around the block (ROLLBACK if it raises)."""

    @abstractmethod
    async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def _execute_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run one statement once per row of parameters."""

    @abstractmethod
    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Run a query; its rows as dicts."""

    @abstractmethod
    async def migrations(self) -> list[str]:
        """The schema migrations applied to this database, oldest first."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (and release what the store holds), message rows written."""

    @abstractmethod
    def _store_message(self, game_id: int, kind: str, row: tuple[int, str, int, int, int]) -> None:
        """Write (or queue, in order) the messages row `row` of a set_message."""

    def _messages_now(self, game_id: int) -> list[dict[str, Any]] | None:
        """A game's message rows read at once, for a game whose ids were never loaded; None
        where reading would wait on a server (the caller sees no messages, and says so)."""
        return None

    # -- games -------------------------------------------------------------------------------
    async def insert_game(self, row: dict[str, Any]) -> int:
        encoded = encode(row)  # one statement: a transaction of its own (no BEGIN/COMMIT trips)
        game_id: int = (await self._rows(
            f"INSERT INTO games ({', '.join(encoded)}) VALUES ({', '.join('?' * len(encoded))})"
            " RETURNING id", list(encoded.values())))[0]["id"]
        self._messages[game_id] = {}  # a new game has no messages yet
        return game_id

    async def save_game(self, game_id: int, row: dict[str, Any], *,
                        expect_version: int | None = None, actions: Iterable[dict[str, Any]] = (),
                        timers: Iterable[dict[str, Any]] | None = None,
                        results: Iterable[Result] = ()) -> None:
        """Update a game, append its actions, replace its timers (if given) and count the
        results of a game that ends with this save: one transaction, so a game's end and its
        stats are kept or lost together.

        With `expect_version` the update only happens if the stored version is still that one
        (compare-and-swap); otherwise Conflict is raised and nothing is written. An interaction
        already recorded (by this process or another) is a Conflict too.
        """
        encoded = encode(row)
        where, args = "id = ?", [game_id]
        if expect_version is not None:
            where, args = "id = ? AND version = ?", [game_id, expect_version]
        try:
            async with self.transaction():
                changed = await self._execute(
                    f"UPDATE games SET {', '.join(f'{k} = ?' for k in encoded)} WHERE {where}",
                    [*encoded.values(), *args])
                if changed != 1:
                    raise Conflict(f"game {game_id} is no longer at version {expect_version}")
                await self._execute_many(
                    "INSERT INTO actions (game_id, seq, seat, user_id, action, source, "
                    "interaction_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(a["game_id"], a["seq"], a["seat"], a["user_id"], a["action"], a["source"],
                      a["interaction_id"], a["at"]) for a in actions])
                if timers is not None:
                    await self._execute("DELETE FROM timers WHERE game_id = ?", [game_id])
                    await self._execute_many(
                        "INSERT INTO timers (game_id, timer_id, due_at, kind, payload) "
                        "VALUES (?, ?, ?, ?, ?)",
                        [(game_id, t["timer_id"], t["due_at"], t["kind"], json.dumps(t["payload"]))
                         for t in timers])
                await self._execute_many(STATS_UPSERT, stats_rows(results))
        except self._duplicate as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise Duplicate(f"game {game_id}: that action is already recorded ({reason})") \
                from None

    async def quarantine(self, game_id: int, problem: str) -> None:
        """Set a game aside (kept as it is, never loaded again until someone repairs it)."""
        async with self.transaction():
            await self._execute(
                "UPDATE games SET status = 'quarantined', problem = ? WHERE id = ?",
                [problem[:2000], game_id])
            await self._execute("DELETE FROM timers WHERE game_id = ?", [game_id])

    async def active_games(self, shards: Shards = Shards()) -> list[dict[str, Any]]:
        """Lobbies and running games in the guilds of `shards`, oldest first."""
        owned, args = shards.where()
        rows = await self._rows(
            f"SELECT * FROM games WHERE status IN (?, ?) AND {owned} ORDER BY id",
            [*ACTIVE, *args])
        return [decode(row) for row in rows]

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The id of the lobby or running game in a channel, if any (newest first)."""
        rows = await self._rows("SELECT id FROM games WHERE channel_id = ? AND status IN (?, ?) "
                                "ORDER BY id DESC LIMIT 1", [channel_id, *ACTIVE])
        return rows[0]["id"] if rows else None

    async def games_to_load(self, shards: Shards, due_before: float,
                            active_since: float) -> list[dict[str, Any]]:
        """The active games worth holding in memory: lobbies, games with activity since
        `active_since`, and games with a timer due before `due_before` (the rest wait in the
        store until a click or their timer brings them in)."""
        owned, args = shards.where()
        rows = await self._rows(
            f"SELECT * FROM games WHERE status IN (?, ?) AND {owned} AND (status = 'lobby' "
            "OR updated_at >= ? OR id IN (SELECT game_id FROM timers WHERE due_at < ?)) "
            "ORDER BY id", [*ACTIVE, *args, active_since, due_before])
        return [decode(row) for row in rows]

    async def games_due(self, shards: Shards, due_before: float) -> list[int]:
        """Ids of the games in `shards` with a timer due before `due_before`."""
        owned, args = shards.where()
        rows = await self._rows(
            "SELECT DISTINCT game_id FROM timers WHERE due_at < ? AND game_id IN "
            f"(SELECT id FROM games WHERE {owned}) ORDER BY game_id", [due_before, *args])
        return [row["game_id"] for row in rows]

    async def active_channels(self, shards: Shards) -> set[int]:
        """The channels of the lobbies and running games in `shards`."""
        owned, args = shards.where()
        rows = await self._rows(
            f"SELECT DISTINCT channel_id FROM games WHERE status IN (?, ?) AND {owned}",
            [*ACTIVE, *args])
        return {row["channel_id"] for row in rows}

    async def running_in_guild(self, guild_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """A guild's lobbies and running games with their deadline (the `timeout` timer's due
        time, None when there is none) and their board's stored ids (`board_channel`,
        `board_message`), newest first: what /games lists, read without loading the games or
        their message ids (one query, also where reading those would wait on a server)."""
        rows = await self._rows(
            "SELECT g.id, g.game, g.channel_id, g.status, g.options, g.seats, g.waiting, "
            "t.due_at AS deadline, m.channel_id AS board_channel, "
            "m.message_id AS board_message FROM games g LEFT JOIN timers t ON t.game_id = g.id "
            "AND t.timer_id = 'timeout' LEFT JOIN messages m ON m.game_id = g.id "
            "AND m.kind = 'board' WHERE g.guild_id = ? AND g.status IN (?, ?) "
            "ORDER BY g.id DESC LIMIT ?", [guild_id, *ACTIVE, limit])
        return [decode(row) for row in rows]

    async def active_games_of(self, user_id: int) -> list[int]:
        """Ids of the lobbies and running games in which `user_id` holds a seat."""
        rows = await self._rows(
            "SELECT id, seats FROM games WHERE status IN (?, ?) AND seats LIKE ?",
            [*ACTIVE, f"%{user_id}%"])
        return [row["id"] for row in rows
                if any(s.get("user_id") == user_id for s in json.loads(row["seats"] or "[]"))]

    async def game(self, game_id: int) -> dict[str, Any]:
        rows = await self._rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            raise LookupError(f"no game {game_id}")
        return decode(rows[0])

    async def finished_games(self, guild_id: int, channel_id: int | None = None,
                       limit: int = 25) -> list[dict[str, Any]]:
        """A guild's (or one channel's) finished games, the most recently finished first."""
        where, args = "guild_id = ? AND status IN ('over', 'ended')", [guild_id]
        if channel_id is not None:
            where, args = where + " AND channel_id = ?", [guild_id, channel_id]
        rows = await self._rows(
            f"SELECT id, game, channel_id, seats, status, updated_at FROM games "
            f"WHERE {where} ORDER BY updated_at DESC, id DESC LIMIT ?", [*args, limit])
        return [decode(row) for row in rows]

    async def progress(self) -> list[dict[str, Any]]:
        """Every game's id, status, version and the version its board shows (`shown`, None
        before the first board), in one query: how a watcher of many games (the soak) polls."""
        return await self._rows(
            "SELECT g.id, g.status, g.version, m.message_id, m.version AS shown "
            "FROM games g LEFT JOIN messages m ON m.game_id = g.id "
            "AND m.kind = 'board' ORDER BY g.id")

    # -- actions, timers, messages -------------------------------------------------------------
    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        return await self._rows("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", [game_id])

    async def interaction_seen(self, interaction_id: int) -> bool:
        return bool(await self._rows(
            "SELECT 1 AS seen FROM actions WHERE interaction_id = ? LIMIT 1", [interaction_id]))

    async def timers_of(self, game_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        """Pending timers of these games, soonest first, by game (every id is a key): one
        round trip per LOAD_BATCH games, so a start-up loading thousands makes a few."""
        found: dict[int, list[dict[str, Any]]] = {}
        for batch in batches(game_ids):
            found.update({game_id: [] for game_id in batch})
            rows = await self._rows(
                f"SELECT * FROM timers WHERE game_id IN ({', '.join('?' * len(batch))}) "
                "ORDER BY due_at, game_id, timer_id", batch)
            for row in rows:
                found[row["game_id"]].append(_timer(row))
        return found

    def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int,
                    version: int = 0) -> None:
        """Remember a message the bot owns, and which game version it shows: in memory at
        once, in the database through `_store_message` (SQLite at once, PostgreSQL behind)."""
        self._messages.setdefault(game_id, {})[kind] = (channel_id, message_id, version)
        self._store_message(game_id, kind, (game_id, kind, channel_id, message_id, version))

    async def load_messages(self, game_ids: Iterable[int]) -> None:
        """Read these games' message ids into memory: when games are loaded, before the
        publisher (which reads them synchronously, after every move) needs them. One round trip
        per LOAD_BATCH games."""
        for batch in batches(game_ids):
            rows = await self._rows(
                "SELECT game_id, kind, channel_id, message_id, version FROM messages "
                f"WHERE game_id IN ({', '.join('?' * len(batch))})", batch)
            by_game: dict[int, list[dict[str, Any]]] = {game_id: [] for game_id in batch}
            for row in rows:
                by_game[row["game_id"]].append(row)
            for game_id, found in by_game.items():
                self._messages[game_id] = {**_message_ids(found), **self._queued(game_id)}

    def _queued(self, game_id: int) -> dict[str, tuple[int, int, int]]:
        """Message ids set but not yet in the database (a store that writes behind): newer than
        what a read finds there."""
        return {}

    def messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """Message ids by kind ("board", "lobby", a seat's last DM "dm:<seat>", ...); read on
        every move, so cached (write-through)."""
        return {kind: ids[:2] for kind, ids in self._cached(game_id).items()}

    def shown_version(self, game_id: int, kind: str = "board") -> int | None:
        """The game version the message of `kind` shows (None: there is no such message)."""
        ids = self._cached(game_id).get(kind)
        return ids[2] if ids else None

    def _cached(self, game_id: int) -> dict[str, tuple[int, int, int]]:
        cached = self._messages.get(game_id)
        if cached is None:
            rows = self._messages_now(game_id)
            if rows is None:
                log.warning("message ids of game=%s were not loaded: none assumed", game_id)
                return {}
            cached = self._messages[game_id] = _message_ids(rows)
        return cached

    def forget(self, game_id: int) -> None:
        """Drop a game's cached ids (the rows stay): it finished, or another process took it."""
        self._messages.pop(game_id, None)

    # -- people: /notify and /away ---------------------------------------------------------------
    async def person(self, user_id: int) -> dict[str, Any]:
        """A person's settings: `notify` (DMs when a turn comes to them) and `away_until` (Unix
        time; None: not away). Someone never seen has the defaults."""
        rows = await self._rows("SELECT notify, away_until FROM people WHERE user_id = ?",
                                [user_id])
        if not rows:
            return {"notify": True, "away_until": None}
        return {"notify": bool(rows[0]["notify"]), "away_until": rows[0]["away_until"]}

    async def set_notify(self, user_id: int, notify: bool) -> None:
        await self._execute(
            "INSERT INTO people (user_id, notify) VALUES (?, ?) ON CONFLICT (user_id) "
            "DO UPDATE SET notify = excluded.notify", [user_id, int(notify)])

    async def set_away(self, user_id: int, until: float | None) -> None:
        """Away until `until` (Unix time), or back (None)."""
        await self._execute(
            "INSERT INTO people (user_id, away_until) VALUES (?, ?) ON CONFLICT (user_id) "
            "DO UPDATE SET away_until = excluded.away_until", [user_id, until])

    async def away(self, now: float) -> dict[int, float]:
        """Everyone away at `now`: user id -> until when."""
        rows = await self._rows(
            "SELECT user_id, away_until FROM people WHERE away_until > ?", [now])
        return {row["user_id"]: row["away_until"] for row in rows}

    # -- guilds: the language a server's manager chose ------------------------------------------
    async def languages(self) -> dict[int, str]:
        """Every server's chosen language (/language): guild id -> language code."""
        rows = await self._rows("SELECT guild_id, language FROM guilds WHERE language IS NOT NULL",
                                [])
        return {row["guild_id"]: row["language"] for row in rows}

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """A server's language, or None: back to Discord's server locale."""
        await self._execute(
            "INSERT INTO guilds (guild_id, language) VALUES (?, ?) ON CONFLICT (guild_id) "
            "DO UPDATE SET language = excluded.language", [guild_id, language])

    async def people_languages(self) -> dict[int, str]:
        """Each person's Discord language as last seen: user id -> language code."""
        rows = await self._rows("SELECT user_id, language FROM people WHERE language IS NOT NULL",
                                [])
        return {row["user_id"]: row["language"] for row in rows}

    async def set_person_language(self, user_id: int, language: str) -> None:
        await self._execute(
            "INSERT INTO people (user_id, language) VALUES (?, ?) ON CONFLICT (user_id) "
            "DO UPDATE SET language = excluded.language", [user_id, language])

    # -- stats: one table for every process, so a server's stats do not depend on its shard ----
    # Written by the save that ends a game (save_game's `results`).
    async def stats(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        return await self._rows(
            "SELECT game, played, won FROM stats WHERE guild_id = ? AND user_id = ? ORDER BY game",
            [guild_id, user_id])

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[dict[str, Any]]:
        return await self._rows(
            "SELECT user_id, SUM(won) AS won, SUM(played) AS played FROM stats WHERE guild_id = ? "
            "GROUP BY user_id ORDER BY won DESC, played ASC, user_id LIMIT ?", [guild_id, limit])


class Result(NamedTuple):
    """One player's line in the stats, counted by the save that ends a game."""
    guild_id: int
    user_id: int
    game: str
    won: bool


def stats_rows(results: Iterable[Result]) -> list[tuple[int, int, str, int]]:
    return [(r.guild_id, r.user_id, r.game, int(r.won)) for r in results]


STATS_UPSERT = (
    "INSERT INTO stats (guild_id, user_id, game, played, won) VALUES (?, ?, ?, 1, ?) "
    "ON CONFLICT (guild_id, user_id, game) DO UPDATE SET "
    "played = stats.played + 1, won = stats.won + excluded.won")
MESSAGE_ROWS = "SELECT kind, channel_id, message_id, version FROM messages WHERE game_id = ?"
MESSAGE_UPSERT = (
    "INSERT INTO messages (game_id, kind, channel_id, message_id, version) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
    "version = excluded.version")


def _message_ids(rows: Iterable[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    return {r["kind"]: (r["channel_id"], r["message_id"], r["version"] or 0) for r in rows}


def _timer(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "payload": json.loads(row["payload"] or "null")}


LOAD_BATCH = 500  # game ids per read of timers or message ids (well under SQLite's 32,766
# parameters and PostgreSQL's 65,535)


def batches(game_ids: Iterable[int]) -> Iterator[list[int]]:
    ids = list(game_ids)
    for start in range(0, len(ids), LOAD_BATCH):
        yield ids[start:start + LOAD_BATCH]


_JSON_COLUMNS = ("options", "seats", "result", "tokens", "reminded", "waiting")


def encode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.dumps(v) if k in _JSON_COLUMNS else v for k, v in row.items()}


def decode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json.loads(v) if k in _JSON_COLUMNS and v is not None else v for k, v in row.items()}

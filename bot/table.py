"""Running games: the one code path every action takes, whoever sends it.

lock -> check seat, button owner and that seat's prompt token -> games.core.apply -> persist
(one transaction, compare-and-swap on the version) -> only then change memory -> release the
lock -> publish a snapshot of the commit through the game's Feed (ordered, coalesced).
Buttons, slash commands, timers and AI seats all come through `TableService.act`/`_run`. Nothing
here imports discord: the Discord layer implements `Publisher` and turns snapshots into messages.

Checks before apply: the game runs, the button was issued to the clicker's seat, that seat's
prompt token is current (else "out of date", with a link to the newest board), and the
interaction id is new (unique in the action log). After every commit each seat's prompt is
asked again and its token bumped only if what it offers changed (`prompt_sig`): a click is stale
only when its own seat's prompt changed, so several seats answering at once all land. The token
is a counter, not a hash, so an old "Roll" never matches a later, identical prompt.

Timers are rows, recomputed at every commit: AI seats with something to do, the turn deadline
of the person to move (its length is the game's pace, bot.pace) with its reminders, an away
player's turn, and the game's own. At the deadline the game's deadline action runs: the AI
plays, the turn is skipped where the rules offer a pass, or the others may vote the player out
(after VOTE_AFTER_TIMEOUTS missed turns in a row, or the first with the "vote" action). A timer
checks on firing that it is still meant, and a reminder that fired is recorded in the game's
row (`reminded`, cleared when the turn passes) in the same commit that drops its timer, so it is
sent once, restart or not. An AI or timer action that fails gets AI_RETRIES tries, then a random
legal choice; a timer that fails anyway re-arms the game's timers, so no game waits forever.

Lazy loading: memory holds only the games with something to do soon (lobbies, activity within
LOAD_AHEAD, a timer due within it). `load` brings those in at start-up and re-arms their timers
(overdue ones fire at once); a sweep every SWEEP_EVERY seconds brings in games whose timers come
due and lets idle ones go; a click, command or timer for a game not in memory loads it from the
store (`get`).
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict, deque
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Protocol

import games
from data.locales import DEFAULT, Msg, render
from games.core import (DEFAULT_LEVEL, LEVELS, SYSTEM, Choice, Event, Game, IllegalAction, Prompt,
                        State, Step, ai_rng, apply, decide, name_seats, seating, setup)

from . import levels, pace
from .clock import Clock, Handle
from .aiworker import AiWorker
from .feed import Change, Feed, Snapshot, always_ready
from .refusal import Refusal
from .rendering import title_of
from .store import ACTIVE, Conflict, Duplicate, Result, Shards, Store, Unavailable

log = logging.getLogger("gatekeeper.table")

# Missed turns in a row before the others may vote a player out (one with the "vote" action).
VOTE_AFTER_TIMEOUTS = pace.VOTE_AFTER_TIMEOUTS

MAX_AI_STEPS = 50  # an AI turn is a few actions; this only guards against an engine bug


AI_RETRIES = 2  # an AI or timer action that fails is tried this often before a random legal one
HANDLED_KEPT = 10_000  # interaction ids remembered here, to refuse a repeat without a look-up
RELOAD_FIRST, RELOAD_LONGEST = 0.5, 10.0  # seconds between tries to reload a game, doubling
LOAD_AHEAD = 600.0  # games with a timer due or activity within this many seconds stay in memory
SWEEP_EVERY = 120.0  # how often games coming due are loaded and idle ones let go


class Superseded(Refusal):
    """Another bot process saved this game first (its copy here was stale and is dropped; the
    next interaction loads the saved one)."""

    def __init__(self) -> None:
        super().__init__("refusal.superseded")


class Stale(Refusal):
    """A button made for a prompt that its seat no longer has (the Discord layer adds a link)."""

    def __init__(self) -> None:
        super().__init__("refusal.stale")


def prompt_sig(prompt: Prompt | None) -> Any:
    """What a seat's buttons offer; when it changes, that seat's old buttons go stale."""
    if prompt is None:
        return None
    return prompt.text, prompt.private, tuple((c.action, c.input) for c in prompt.choices)


def away_notice(name: str, until: float | None, action: str) -> Msg:
    """What a game's channel is told when a player goes away (`until`: Unix time, inf) or comes
    back (None). A date is shown as a date, never as a countdown, so the notice stays true."""
    if until is None:
        return Msg("notice.back", name=name)
    when = Msg("notice.away_until_back") if until == float("inf") \
        else Msg("notice.away_until", when=f"<t:{int(until)}:f>")
    turns = Msg("notice.away_skip" if action == "skip" else "notice.away_ai")
    return Msg("notice.away", name=name, when=when, turns=turns)


def fill_names(words: str | Msg | dict[str, Any], names: list[str], lang: str = DEFAULT) -> str:
    """Engine words as a reader of `lang` reads them: a message (or a stored one) rendered in
    `lang`, then the {p0}.. placeholders replaced with seat names (an engine knows seats, not
    names)."""
    return name_seats(words if isinstance(words, str) else render(lang, words), names)


def _plain(words: str | Msg) -> bool:
    return isinstance(words, str) and "{p" not in words


def named_prompt(prompt: Prompt | None, names: list[str], lang: str = DEFAULT) -> Prompt | None:
    """`prompt` in words a reader of `lang` reads, its players named: an engine knows seats
    and message ids, so its choices say Msg("…attack", who="{p1}") and every reader (buttons,
    panels, typed moves, autocomplete) shows "Attack Bo" or "Bo angreifen". The prompt itself
    when it has nothing to render."""
    if prompt is None or (_plain(prompt.text) and all(
            _plain(step.label) for choice in prompt.choices for step in choice.path)):
        return prompt
    choices = [Choice(c.action, tuple(Step(s.key, fill_names(s.label, names, lang))
                                      for s in c.path), c.input) for c in prompt.choices]
    return Prompt(prompt.seat, fill_names(prompt.text, names, lang), choices, prompt.private)


@dataclass
class Seat:
    name: str
    user_id: int | None = None  # None: an AI seat
    ai: bool = False
    level: str = DEFAULT_LEVEL  # the AI's level (rows saved before levels load as smart)
    dm_closed: bool = False
    timeouts: int = 0
    votes: list[int] = field(default_factory=list)


def ai_level(table: Table, seat: int) -> str:
    """The level the AI plays `seat` at: the AI seat's own, or the default for a person's turn
    it plays (a timeout, an away player)."""
    info = table.seats[seat]
    return info.level if info.ai else DEFAULT_LEVEL


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    game: Game
    host_id: int
    seed: int
    options: dict[str, Any]
    seats: list[Seat]
    status: str = "lobby"  # lobby -> running -> over | ended | cancelled
    state: State | None = None
    result: dict[str, Any] | None = None
    deadline: float | None = None
    turn_started: float = 0.0  # when the current turn began: its timeout counts from here
    reminded: list[str] = field(default_factory=list)  # reminders (timer ids) sent this turn
    touched: float = 0.0  # when this process last loaded or changed it (idle games are let go)
    # Per seat: a counter bumped whenever that seat's prompt changes (part of every button id).
    tokens: list[int] = field(default_factory=list)
    # of `state`, cached, as the engine words them (`prompt` gives them in a reader's words)
    prompts: list[Prompt | None] = field(default_factory=list, repr=False)
    # (seat, language) -> (the engine's prompt, the same in words): `prompt`'s cache
    spoken: dict[tuple[int, str], tuple[Prompt, Prompt]] = field(default_factory=dict,
                                                                 repr=False)
    timers: list[dict[str, Any]] = field(default_factory=list, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    feed: Feed | None = field(default=None, repr=False)
    handles: dict[str, Handle] = field(default_factory=dict, repr=False)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return index
        return None

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and not s.ai]

    def fill(self, words: str | Msg | dict[str, Any], lang: str = DEFAULT) -> str:
        return fill_names(words, self.names(), lang)

    def prompt(self, seat: int, lang: str = DEFAULT) -> Prompt | None:
        """What `seat` may do, in the words of `lang`, players named: what buttons, panels,
        typed moves and autocomplete show and match (`prompts` holds the engine's own)."""
        raw = self.prompts[seat]
        if raw is None:
            return None
        kept = self.spoken.get((seat, lang))
        if kept is not None and kept[0] is raw:
            return kept[1]
        worded = named_prompt(raw, self.names(), lang)
        self.spoken[(seat, lang)] = (raw, worded)
        return worded

    @property
    def version(self) -> int:
        return self.state.version if self.state else 0

    def row(self) -> dict[str, Any]:
        return {
            "guild_id": self.guild_id, "channel_id": self.channel_id, "game": self.game.name,
            "status": self.status, "host_id": self.host_id, "seed": self.seed,
            "options": self.options, "seats": [asdict(s) for s in self.seats],
            "state": self.state.to_json() if self.state else None, "version": self.version,
            "result": self.result, "turn_started": self.turn_started, "tokens": self.tokens,
            "state_format": self.game.state_format, "reminded": self.reminded,
            "waiting": self.waiting(),
        }

    def waiting(self) -> list[int]:
        """The people who have something to do now (their prompt is open)."""
        return [seat.user_id for seat, prompt in zip(self.seats, self.prompts)
                if prompt is not None and seat.user_id is not None and not seat.ai]

    def snapshot(self) -> "Table":
        """A copy frozen at this moment, for publishing outside the lock (states are never
        mutated after a commit, so sharing them is safe; seats are copied)."""
        return replace(
            self, seats=[replace(s, votes=list(s.votes)) for s in self.seats],
            tokens=list(self.tokens), options=dict(self.options), handles={}, timers=[],
            reminded=list(self.reminded))


@dataclass
class ActResult:
    table: Table
    seat: int
    actions: list[str]
    events: list[Event]
    turn_changed: bool
    source: str


class Publisher(Protocol):
    async def lobby_changed(self, table: Table) -> None: ...
    async def publish(self, snapshot: Snapshot) -> None: ...
    async def timeout_warning(self, table: Table, seat: int) -> None: ...
    async def notice(self, table: Table, text: str) -> None: ...


class TableService:
    def __init__(self, store: Store, publisher: Publisher, clock: Clock, *,
                 turn_timeout: float = 600.0, ai_delay: float = 1.0,
                 shards: Shards = Shards(), ai_worker: AiWorker | None = None) -> None:
        self.store = store
        # where hard AI seats search: a worker process, started for the first hard seat
        self.ai_worker = ai_worker or AiWorker()
        self.shards = shards  # only games in guilds of these shards are loaded and served here
        self.publisher = publisher
        self.clock = clock
        self.turn_timeout = turn_timeout
        self.ai_delay = ai_delay
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        # channels whose game rests in the store, not in memory: a message typed there may be
        # a move, worth one store read to bring the game back (`resting_in`)
        self.resting: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        # New games get unpredictable seeds; tests swap in a counter so every run is the same.
        self.next_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63)
        # How late each timer fired (seconds), newest last: the benchmark reads it.
        self.lateness: deque[float] = deque(maxlen=100_000)
        # Stored games that could not be loaded at start-up: id -> why (they are quarantined).
        self.quarantined: dict[int, str] = {}
        self.accepting = True  # False while shutting down: no new actions are taken
        # Interaction ids this process committed, newest last: a repeat is refused at once; one
        # another process committed is refused by the store (the save's unique interaction id).
        self.handled: OrderedDict[int, None] = OrderedDict()
        self._reloading: set[int] = set()  # games waiting for the store to answer again
        # People away (/away): user id -> until when (Unix time; inf: until they are back).
        self.away: dict[int, float] = {}
        # Told when a turn comes to a person in a game that notifies (bot.notify, a DM); None: no
        # one is told beyond the table's own ping.
        self.on_turn: Callable[[Table, int], None] | None = None
        self._sweep: Handle | None = None

    # -- lookup -----------------------------------------------------------------------------
    async def get(self, game_id: int) -> Table:
        """A game this process serves, loaded from the store if it is not in memory yet (its
        guild's shard came here after a reshard, or another process dropped it)."""
        if game_id in self._reloading:  # asking the store too would only add to its load
            raise Unavailable(f"game {game_id} waits for the store to answer again", unsent=True)
        table = self.tables.get(game_id) or await self._fetch(game_id)
        if table is None:
            raise Refusal("refusal.no_game")
        return table

    async def _fetch(self, game_id: int) -> Table | None:
        """Load a game from the store. Another caller may load the same game meanwhile (two
        clicks on a resting game, a click during a sweep): the copy loaded first is kept, so a
        game is never served twice (two copies would each fire its timers)."""
        try:
            row = await self.store.game(game_id)
        except LookupError:
            return None
        if row["status"] not in ACTIVE or not self.shards.owns(row["guild_id"]):
            return None
        timers = (await self.store.timers_of([game_id]))[game_id]
        await self.store.load_messages([game_id])
        if game_id in self.tables:  # loaded by another caller while this one read
            return self.tables[game_id]
        log.info("loaded game=%s", game_id)
        return await self._adopt(row, timers)

    def in_channel(self, channel_id: int) -> Table | None:
        """The game in memory for a channel: cheap enough for every channel message."""
        game_id = self.by_channel.get(channel_id)
        return self.tables.get(game_id) if game_id is not None else None

    async def here(self, channel_id: int) -> Table | None:
        """The game of a channel for a command: from memory, or from the store when another
        process started it after this one loaded its games (a rolling reshard)."""
        table = self.in_channel(channel_id)
        if table is None:
            game_id = await self.store.active_game_in_channel(channel_id)
            table = await self._fetch(game_id) if game_id is not None else None
        return table

    async def last_finished(self, guild_id: int, channel_id: int) -> Table | None:
        """The channel's most recent finished game, read from the store (never served: a
        finished game takes no moves), for /log and /status after the end."""
        rows = await self.store.finished_games(guild_id, channel_id, limit=1)
        return self._revive(await self.store.game(rows[0]["id"])) if rows else None

    def in_guild(self, guild_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.guild_id == guild_id]

    # -- lobby --------------------------------------------------------------------------------
    async def open_lobby(self, game_name: str, guild_id: int, channel_id: int, host_id: int,
                   host_name: str, options: dict[str, Any] | None = None,
                   seats: list[Seat] | None = None, seed: int | None = None) -> Table:
        if await self.here(channel_id):
            raise Refusal("refusal.game_here")
        game = games.get(game_name)
        defaults = {name: values[0] for name, values in pace.offered(game).items()}
        table = Table(id=0, guild_id=guild_id, channel_id=channel_id, game=game, host_id=host_id,
                      seed=seed if seed is not None else self.next_seed(),
                      options={**defaults, **(options or {})},
                      seats=seats or [Seat(name=host_name, user_id=host_id)])
        table.id = await self.store.insert_game({**table.row(), "created_at": self.clock.now(),
                                           "updated_at": self.clock.now()})
        self._register(table)
        log.info("lobby game=%s kind=%s guild=%s host=%s", table.id, game.name, guild_id, host_id)
        return table

    async def lobby(self, game_id: int, user_id: int, user_name: str, op: str) -> Table:
        """Join, leave, watch, add an AI, start or cancel a lobby.

        The host who leaves hands the lobby to the next person seated (none: it closes); the
        host who watches gives up their seat and keeps hosting, so a game of AIs only can start."""
        table = await self.get(game_id)
        async with table.lock:
            if table.status != "lobby":
                raise Refusal("refusal.lobby_closed")
            game = table.game
            seats = list(table.seats)
            changes: dict[str, Any] = {}
            op, level = levels.parse(op)
            if level is not None and (op != "ai" or level not in LEVELS):
                raise Refusal("refusal.no_level", level=level, levels=Msg("level.either"))
            if op == "join":
                if table.seat_of(user_id) is not None:
                    raise Refusal("refusal.seated")
                if len(seats) >= game.max_seats:
                    raise Refusal("refusal.full", count=game.max_seats)
                seats.append(Seat(name=user_name, user_id=user_id))
            elif op == "leave":
                seat = table.seat_of(user_id)
                if seat is None and user_id != table.host_id:
                    raise Refusal("refusal.not_in_lobby")
                if seat is not None:
                    del seats[seat]
                if user_id == table.host_id:
                    changes.update(self._host_left(seats, seat or 0))
            elif op == "watch":
                self._require_host(table, user_id, "watch")
                seat = table.seat_of(user_id)
                if seat is None:
                    raise Refusal("refusal.watching")
                del seats[seat]
            elif op == "ai":
                self._require_host(table, user_id, "ai")
                if len(seats) >= game.max_seats:
                    raise Refusal("refusal.full", count=game.max_seats)
                number = sum(1 for s in seats if s.ai) + 1
                seats.append(Seat(name=f"AI {number}", ai=True, level=level or DEFAULT_LEVEL))
            elif op == "cancel":
                self._require_host(table, user_id, "cancel")
                changes["status"] = "cancelled"
            elif op == "start":
                self._require_host(table, user_id, "start")
                if len(seats) < game.min_seats:
                    raise Refusal("refusal.too_few", game=title_of(game), count=game.min_seats)
                changes.update(self._started(table, seats))
            else:
                raise Refusal("refusal.unknown_button")
            changes["seats"] = seats
            await self._commit(table, changes)
            if table.status == "cancelled":
                self._unregister(table)
            if table.status == "running":
                self._arm(table)
                self._publish(table, None)
                self._tell_turn(table, None)
            await self.publisher.lobby_changed(table)  # rare: no need to leave the lock first
        return table

    @staticmethod
    def _host_left(seats: list[Seat], seat: int) -> dict[str, Any]:
        """Who hosts once the host has left: the next person in seat order from the seat they
        left (wrapping round); with no person seated, the lobby closes."""
        order = seats[seat:] + seats[:seat]
        heir = next((s.user_id for s in order if s.user_id is not None and not s.ai), None)
        if heir is None:
            return {"status": "cancelled"}
        return {"host_id": heir}

    async def set_option(self, game_id: int, user_id: int, name: str, value: str) -> Table:
        """The host picks one of the lobby options (a clock length, the pace). The pace's
        shared select sends `pace=<value>` or `deadline=<value>`."""
        if "=" in value:
            name, value = pace.parse_select(value)
        table = await self.get(game_id)
        async with table.lock:
            if table.status != "lobby":
                raise Refusal("refusal.options_started")
            self._require_host(table, user_id, "options")
            allowed = pace.offered(table.game).get(name)
            match = next((v for v in allowed or () if str(v) == value), None)
            if match is None:
                raise Refusal("refusal.option_value", name=name,
                              allowed=", ".join(map(str, allowed or ())))
            await self._commit(table, {"options": {**table.options, name: match}})
            await self.publisher.lobby_changed(table)
        return table

    def _started(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        """The changes that start a game: seat order drawn by lot, the game set up."""
        seats[:] = [seats[player] for player in seating(table.seed, len(seats))]  # by lot
        state = setup(table.game, len(seats), table.options, table.seed)
        log.info("start game=%s seats=%d", table.id, len(seats))
        return {"state": state, "status": "running", "turn_started": self.clock.now(),
                "tokens": [0] * len(seats),
                "prompts": [table.game.prompt(state, s) for s in range(len(seats))]}

    @staticmethod
    def _require_host(table: Table, user_id: int, what: str) -> None:
        """Only the host may do `what` (a lobby button, or "options")."""
        if user_id != table.host_id:
            raise Refusal(f"refusal.host_only.{what}")

    # -- the one code path --------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: str, token: int | None, *,
                  source: str, seat: int | None = None, interaction_id: int | None = None,
                  origin: Any = None) -> ActResult:
        """A person's action. Raises IllegalAction (with a reason for them) and changes nothing.

        `seat` and `token` come from a button: the seat it was issued to and that seat's prompt
        token when it was drawn. Typed moves pass neither (the engine checks the action itself).
        """
        table = await self.get(game_id)
        async with table.lock:
            if interaction_id is not None and interaction_id in self.handled:
                raise Refusal("refusal.handled")
            mine, _ = self.turn_of(table, user_id, token, seat)
            seats = list(table.seats)
            seats[mine] = replace(seats[mine], timeouts=0, votes=[])  # they are back
            return await self._run(table, mine, [action], source, user_id, interaction_id,
                                   seats=seats, origin=origin)

    def _running_seat(self, table: Table, user_id: int, refusal: Refusal) -> int:
        """The user's seat in a running game, or `refusal`."""
        self._require_running(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise refusal
        return seat

    def _require_running(self, table: Table) -> None:
        if not self.accepting:
            raise Refusal("error.restarting")
        if table.status == "lobby":
            raise Refusal("refusal.not_started")
        if table.status != "running":
            raise Refusal("refusal.over")

    def turn_of(self, table: Table, user_id: int, token: int | None,
                issued_to: int | None = None) -> tuple[int, Prompt]:
        """The user's seat and prompt, if they may act now on a button with `token`.

        Checked again under the lock by `act`; the Discord layer also calls it first, so a
        refusal is answered at once without deferring the interaction.
        """
        if issued_to is not None and 0 <= issued_to < len(table.seats) \
                and table.seat_of(user_id) != issued_to:
            self._require_running(table)
            owner = table.seats[issued_to].name
            if table.seat_of(user_id) is None:
                raise Refusal("refusal.button_of_watching", owner=owner,
                              players=", ".join(table.names()))
            raise Refusal("refusal.button_of", owner=owner)
        seat = self._running_seat(table, user_id, Refusal("refusal.not_playing",
                                                          players=", ".join(table.names())))
        if token is not None and token != table.tokens[seat]:
            raise Stale()
        prompt = table.prompts[seat]
        if prompt is None:
            assert table.state is not None
            mover = table.game.to_move(table.state)
            if mover is None:
                raise Refusal("refusal.not_your_turn")
            raise Refusal("refusal.turn_of", who=table.seats[mover].name)
        return seat, prompt

    async def _run(self, table: Table, seat: int, actions: list[str], source: str,
                   user_id: int | None, interaction_id: int | None, *,
                   seats: list[Seat] | None = None, origin: Any = None,
                   follow: Callable[[State], str] | None = None) -> ActResult:
        """Apply actions for one seat (more are added while an AI keeps the move), commit, and
        only then change the table in memory and hand a snapshot to the game's feed."""
        assert table.state is not None
        game, state = table.game, table.state
        turn_before = state.turn
        events: list[Event] = []
        applied: list[str] = []
        rows: list[dict[str, Any]] = []
        queue = list(actions)
        now = self.clock.now()
        while queue and len(applied) < MAX_AI_STEPS:
            action = queue.pop(0)
            try:
                outcome = apply(game, state, seat, action, now)
            except IllegalAction as exc:
                log.info("refused game=%s seat=%s source=%s reason=%r", table.id, seat, source,
                         exc.reason)
                exc.names = table.names()  # an engine's refusal may name seats
                raise
            state = outcome.state
            events += outcome.events
            applied.append(action)
            rows.append({"game_id": table.id, "seq": state.version, "seat": seat, "user_id": user_id,
                         "action": action, "source": source, "at": now,
                         "interaction_id": interaction_id if len(applied) == 1 else None})
            if follow is not None and not state.over and state.turn == turn_before \
                    and game.prompt(state, seat) is not None:
                queue.append(follow(state))  # the AI keeps the move until its turn ends
        prompts = [game.prompt(state, s) for s in range(state.seats)]
        tokens = [token + (prompt_sig(new) != prompt_sig(old))
                  for token, new, old in zip(table.tokens, prompts, table.prompts)]
        # The turn passes when the game says so, or when someone else is now to move (a game
        # may count rounds, not turns).
        turn_changed = state.turn != turn_before or state.over \
            or game.to_move(state) != game.to_move(table.state)
        changes: dict[str, Any] = {"state": state, "prompts": prompts, "tokens": tokens}
        if state.over:
            changes.update(status="over", result=state.result)
        if turn_changed:
            changes.update(turn_started=now, reminded=[])
        if seats is not None:
            changes["seats"] = seats
        await self._commit(table, changes, actions=rows)
        if interaction_id is not None:
            self.handled[interaction_id] = None
            if len(self.handled) > HANDLED_KEPT:
                self.handled.popitem(last=False)
        for row in rows:
            log.info("action game=%s seat=%s source=%s seq=%s outcome=ok", table.id, seat, source,
                     row["seq"])
        result = ActResult(table, seat, applied, events, turn_changed, source)
        await self._after_commit(table, Change(seat, applied, events, turn_changed, source, origin))
        return result

    async def _after_commit(self, table: Table, change: Change | None) -> None:
        """What follows a commit cannot undo it: failures here are logged, never raised, so
        the player is not told a move that counted did not."""
        try:
            if table.status == "running":
                self._arm(table)
            else:
                self._finish(table)
            self._publish(table, change)
            self._tell_turn(table, change)
        except Exception:
            log.exception("after-commit step failed game=%s version=%s", table.id, table.version)

    def _publish(self, table: Table, change: Change | None, fresh_board: bool = False) -> None:
        """Hand a snapshot of the committed table to its feed (published outside the lock)."""
        if table.feed is None:
            # Looked up at each publish, so a publisher swapped in later (a test, a hook) is used.
            table.feed = Feed(lambda snapshot: self.publisher.publish(snapshot), self._spawn,
                              lambda *waiting: getattr(self.publisher, "ready", always_ready)(*waiting))
        table.feed.push(Snapshot(table.snapshot(), change, fresh_board))

    def _tell_turn(self, table: Table, change: Change | None) -> None:
        """When the turn passes (or the game starts), tell each person it came to, in a game
        whose pace wants more than the table's ping (bot.pace.notifies)."""
        if self.on_turn is None or table.status != "running" or not pace.notifies(table.options):
            return
        if change is not None and not change.turn_changed:
            return
        for seat, prompt in enumerate(table.prompts):
            person = table.seats[seat]
            if prompt is not None and not person.ai and person.user_id is not None \
                    and not self.is_away(person.user_id):
                self.on_turn(table.snapshot(), seat)

    def republish(self, table: Table, fresh_board: bool = False) -> None:
        """Show the current board again (start-up, a click on a board that is behind, /status)."""
        if table.state is not None:
            self._publish(table, None, fresh_board)

    def _finish(self, table: Table) -> None:
        """Let go of a game that has ended (its stats were counted by the save that ended it)."""
        winners = set((table.result or {}).get("winners", []))
        for handle in table.handles.values():
            handle.cancel()
        self._unregister(table)
        log.info("finish game=%s status=%s winners=%s", table.id, table.status, sorted(winners))

    async def _commit(self, table: Table, changes: dict[str, Any], *,
                actions: list[dict[str, Any]] | None = None) -> None:
        """Save `changes` (compare-and-swap on the stored version), then apply them in memory.

        The timers are recomputed from the changed table and saved in the same transaction.
        """
        staged = replace(table, **changes)
        timers = self._timers(staged)
        try:
            await self.store.save_game(table.id, {**staged.row(), "updated_at": self.clock.now()},
                                       expect_version=table.version, actions=actions or (),
                                       timers=timers, results=self._results(table, staged))
        except Duplicate:
            raise Refusal("refusal.handled") from None
        except Conflict:
            log.warning("superseded game=%s version=%s: dropped, reloaded on next use", table.id,
                        table.version)
            self._drop(table)
            raise Superseded() from None
        except Unavailable as exc:
            if exc.unsent:
                raise  # no connection was free in time: nothing was written, nothing changes
            # The save may or may not have reached the database: the stored game is the truth.
            # Drop this copy and load it again once the store answers (its stored timers then
            # fire, once, if they fell due meanwhile).
            log.warning("store not answering game=%s version=%s: reloaded when it is back",
                        table.id, table.version)
            self._drop(table)
            self._reload_when_back(table.id)
            raise
        for name, value in changes.items():
            setattr(table, name, value)
        table.touched = self.clock.now()
        table.timers = timers
        table.deadline = next((t["due_at"] for t in timers if t["kind"] == "timeout"), None)

    @staticmethod
    def _results(table: Table, staged: Table) -> list[Result]:
        """The stats lines of a game this save brings to its end (played to a result; an ended
        or cancelled game counts for nobody), one per person however many seats they hold."""
        if staged.status != "over" or table.status == "over":
            return []
        winners = set((staged.result or {}).get("winners", []))
        won: dict[int, bool] = {}
        for seat, person in enumerate(staged.seats):
            if person.user_id is not None:
                won[person.user_id] = won.get(person.user_id, False) or seat in winners
        return [Result(staged.guild_id, user_id, staged.game.name, w) for user_id, w in won.items()]

    # -- timers: turn timeouts, AI moves, game timers -----------------------------------------
    def _timers(self, table: Table) -> list[dict[str, Any]]:
        """The timers the game needs now, as rows; recomputed after every action.

        AI seats with something to do move after `ai_delay`; the person to move is reminded
        (bot.pace.reminders) and meets the deadline action at the end of the turn's length, all
        counted from the start of the turn (a person who is away meets it after `ai_delay`);
        and the game's own timers (a clock, a speaking character) are passed through.
        """
        if table.status != "running" or table.state is None:
            return []
        game, state, now = table.game, table.state, self.clock.now()
        timers: list[dict[str, Any]] = []
        base = {"version": state.version, "turn": state.turn}
        for seat, info in enumerate(table.seats):
            if info.ai and table.prompts[seat] is not None:
                timers.append({"timer_id": f"ai:{seat}", "kind": "ai",
                               "due_at": now + self.ai_delay, "payload": {**base, "seat": seat}})
                if ai_level(table, seat) == "hard":
                    self.ai_worker.prestart()  # its process starts now, not at its first move
        mover = game.to_move(state)
        if mover is not None and not table.seats[mover].ai and not game.paused(state):
            payload = {**base, "seat": mover}
            length = pace.turn_seconds(table.options, self.turn_timeout)
            user = table.seats[mover].user_id
            if user is not None and self.is_away(user):
                timers.append({"timer_id": "away", "kind": "away", "payload": payload,
                               "due_at": now + self.ai_delay})
            for timer_id, after in pace.reminders(length):
                if timer_id not in table.reminded:
                    timers.append({"timer_id": timer_id, "kind": "warn", "payload": payload,
                                   "due_at": table.turn_started + after})
            if "timeout" not in table.reminded:  # a vote already opened: the turn waits
                timers.append({"timer_id": "timeout", "kind": "timeout", "payload": payload,
                               "due_at": table.turn_started + length})
        for timer in game.timers(state):
            timers.append({"timer_id": f"game:{timer['id']}", "kind": "game", "due_at": timer["due"],
                           "payload": {**base, "seat": timer["seat"], "action": timer["action"]}})
        return timers

    def _arm(self, table: Table, timers: list[dict[str, Any]] | None = None) -> None:
        for handle in table.handles.values():
            handle.cancel()
        table.handles.clear()
        if timers is not None:
            table.timers = timers
        for timer in table.timers:
            table.handles[timer["timer_id"]] = self.clock.call_at(
                timer["due_at"], lambda t=timer, g=table.id: self._spawn(self.fire(g, t)))

    def _still_due(self, table: Table, timer: dict[str, Any]) -> bool:
        """Is this timer still meant? The game may have moved on since it was armed."""
        assert table.state is not None
        payload, kind, state = timer["payload"], timer["kind"], table.state
        if kind == "game":
            return any(f"game:{t['id']}" == timer["timer_id"] and t["action"] == payload["action"]
                       for t in table.game.timers(state))
        if kind == "ai":
            return payload["version"] == state.version and table.prompts[payload["seat"]] is not None
        if timer["timer_id"] in table.reminded:
            return False  # sent already (this timer was armed before a restart recorded it)
        if kind == "away":
            user = table.seats[payload["seat"]].user_id
            if user is None or not self.is_away(user):
                return False
        return payload["turn"] == state.turn and table.game.to_move(state) == payload["seat"]

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def fire(self, game_id: int, timer: dict[str, Any]) -> None:
        """A timer fell due. Stale timers (the game moved on) do nothing."""
        table = self.tables.get(game_id)
        if table is None or not self.accepting:
            return
        warn = False
        try:
            async with table.lock:
                payload = timer["payload"]
                if table.status != "running" or table.state is None \
                        or not self._still_due(table, timer):
                    return
                self.lateness.append(self.clock.now() - timer["due_at"])
                table.handles.pop(timer["timer_id"], None)
                seat, kind = payload["seat"], timer["kind"]
                if kind == "warn":
                    # recorded with the timer's removal in one commit: sent once, restart or not
                    await self._commit(table, {"reminded": [*table.reminded, timer["timer_id"]]})
                    self._arm(table)
                    warn = True
                elif kind == "game":
                    await self._run(table, seat, [payload["action"]], "timer", None, None)
                elif table.prompts[seat] is not None:
                    await self._at_deadline(table, seat, kind)
            if warn:
                await self.publisher.timeout_warning(table, seat)
        except Unavailable as exc:
            log.warning("timer waits for the store game=%s timer=%s: %s", game_id,
                        timer.get("timer_id"), exc)
            if self.tables.get(game_id) is table:  # nothing was written: try it again shortly
                table.handles[timer["timer_id"]] = self.clock.call_at(
                    self.clock.now() + RELOAD_FIRST,
                    lambda: self._spawn(self.fire(game_id, timer)))
            # else the game was dropped: its reload re-arms its stored timers
        except Exception:  # a timer must never die silently: log it, and keep the game going
            log.exception("timer failed game=%s timer=%s", game_id, timer.get("timer_id"))
            if table.status == "running" and not table.handles \
                    and self.tables.get(game_id) is table:
                self._arm(table)

    async def _at_deadline(self, table: Table, seat: int, kind: str) -> None:
        """A turn ran out ("timeout") or came to someone away ("away"): the game's deadline
        action. An AI seat's own timer ("ai") just plays."""
        action = pace.deadline_action(table.options)
        name = table.seats[seat].name
        if kind == "ai":
            await self._play_for(table, seat, kind)
        elif kind == "timeout" and action == "vote":
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], timeouts=seats[seat].timeouts + 1)
            await self._commit(table, {"seats": seats, "reminded": [*table.reminded, "timeout"]})
            self._arm(table)
            self._publish(table, None)
            self._announce(table, Msg("notice.timeout_vote", name=name))
        else:
            done = await self._play_for(table, seat, kind, passing=action == "skip")
            if kind == "away":
                return  # told once when they went away (set_away); the turn is in the story
            passed = [a for a in done.actions if pace.PASS_WORDS & set(a.split())] \
                if action == "skip" else []
            if not passed:
                self._announce(table, Msg("notice.timeout_ai", name=name))
            elif len(passed) == len(done.actions):
                self._announce(table, Msg("notice.timeout_skipped", name=name))
            else:
                self._announce(table, Msg("notice.timeout_partly", name=name))

    async def _play_for(self, table: Table, seat: int, kind: str,
                        passing: bool = False) -> ActResult:
        """The AI moves for a seat (an AI seat, or a person who timed out or is away); with
        `passing`, each step of the turn takes the rules' pass where there is one.

        An AI that raises or is refused gets AI_RETRIES tries, then a random legal choice, so a
        buggy AI never leaves a game waiting forever.
        """
        assert table.state is not None
        level = ai_level(table, seat)
        if kind == "ai" and level == "hard":
            try:
                return await self._search_for(table, seat)
            except (Superseded, Unavailable):
                raise
            except Exception as exc:  # noqa: BLE001 - the smart AI below plays instead
                log.warning("hard ai failed game=%s seat=%s error=%r", table.id, seat, exc)
        seats = None
        if kind == "timeout":
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], timeouts=seats[seat].timeouts + 1)
        game = table.game
        if level == "hard":  # the search runs in the worker only: here, smart plays instead
            level = DEFAULT_LEVEL
        for attempt in range(AI_RETRIES + 1):
            def smart(state: State, attempt: int = attempt) -> str:
                return decide(game, state, seat, ai_rng(table.id, state.version + 7919 * attempt), level)

            def anything(state: State) -> str:
                choices = game.prompt(state, seat).choices  # type: ignore[union-attr]
                return choices[ai_rng(table.id, state.version).below(len(choices))].action

            choose = smart if attempt < AI_RETRIES else anything
            if passing:
                choose = passing_first(game, seat, choose)
            try:
                return await self._run(table, seat, [choose(table.state)], kind, None, None,
                                       seats=seats, follow=choose)
            except (Superseded, Unavailable):
                raise  # not the AI's fault: the game is no longer this process's to play
            except Exception as exc:  # noqa: BLE001 - any AI failure is retried
                log.warning("ai failed game=%s seat=%s attempt=%s error=%r", table.id, seat,
                            attempt, exc)
        raise RuntimeError(f"no action could be played for seat {seat}")

    def _announce(self, table: Table, told: Msg) -> None:
        self._spawn(self.publisher.notice(table, told))

    async def mark_dm_closed(self, table: Table, seat: int) -> None:
        async with table.lock:
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], dm_closed=True)
            await self._commit(table, {"seats": seats})

    async def public_events(self, table: Table, since_seat: int | None = None) -> list[Event]:
        """Every public event of the game so far, rebuilt by replaying its action log; with
        `since_seat`, only those after that seat's last action ("since your last turn")."""
        if table.state is None:
            return []
        state = setup(table.game, len(table.seats), table.options, table.seed)
        events: list[Event] = []
        for row in await self.store.actions(table.id):
            outcome = apply(table.game, state, row["seat"], row["action"], row["at"])
            state = outcome.state
            if row["seat"] == since_seat:
                events = []  # their own move: what they did, they know
            else:
                events += [e for e in outcome.events if e.public]
        return events

    # -- leaving, voting, ending -----------------------------------------------------------------
    async def leave(self, game_id: int, user_id: int) -> Seat:
        table = await self.get(game_id)
        async with table.lock:
            seat = self._running_seat(table, user_id, Refusal("refusal.not_in_game"))
            name = table.seats[seat].name  # before the seat is renamed "<name> (AI)"
            await self._to_ai(table, seat)
        await self.publisher.notice(table, Msg("notice.left", name=name))
        return table.seats[seat]

    async def _to_ai(self, table: Table, seat: int) -> None:
        seats = list(table.seats)
        seats[seat] = replace(seats[seat], ai=True, name=seats[seat].name + " (AI)", votes=[])
        await self._commit(table, {"seats": seats})
        self._arm(table)
        self._publish(table, None)

    async def vote_remove(self, game_id: int, voter_id: int, seat: int) -> Msg:
        """A vote to hand an absent player's seat to the AI: what the channel is told of it."""
        table = await self.get(game_id)
        async with table.lock:
            voter = self._running_seat(table, voter_id, Refusal("refusal.vote_players"))
            if not 0 <= seat < len(table.seats) or table.seats[seat].ai:
                raise Refusal("refusal.vote_ai")
            if voter == seat:
                raise Refusal("refusal.vote_self")
            target = table.seats[seat]
            if target.timeouts < pace.votes_after(table.options):
                raise Refusal("refusal.vote_early", name=target.name)
            if voter_id in target.votes:
                raise Refusal("refusal.voted")
            votes = [*target.votes, voter_id]
            others = [u for u in table.humans() if u != target.user_id]
            needed = len(others) // 2 + 1
            if len(votes) >= needed:
                await self._to_ai(table, seat)
                told = Msg("notice.voted_out", name=target.name)
            else:
                seats = list(table.seats)
                seats[seat] = replace(target, votes=votes)
                await self._commit(table, {"seats": seats})
                told = Msg("notice.vote", name=target.name, votes=len(votes), needed=needed)
        await self.publisher.notice(table, told)
        return told

    async def pause(self, game_id: int, user_id: int, can_manage: bool, action: str) -> ActResult:
        """Pause or resume a real-time game: the host or a member with Manage Server."""
        table = await self.get(game_id)
        async with table.lock:
            self._require_running(table)
            if not table.game.pausable:
                raise Refusal("refusal.no_clock", game=title_of(table.game))
            if user_id != table.host_id and not can_manage:
                raise Refusal(f"refusal.{action}_host")
            return await self._run(table, SYSTEM, [action], "command", user_id, None)

    async def end(self, game_id: int, user_id: int, can_manage: bool) -> Table:
        table = await self.get(game_id)
        async with table.lock:
            if user_id != table.host_id and not can_manage:
                raise Refusal("refusal.end_host")
            await self._commit(table, {"status": "ended",
                                 "result": {"winners": [], "reason": "ended early", "scores": None}})
            await self._after_commit(table, None)
        return table

    # -- away ---------------------------------------------------------------------------------------
    def is_away(self, user_id: int) -> bool:
        return self.away.get(user_id, 0.0) > self.clock.now()

    async def set_away(self, user_id: int, until: float | None) -> int:
        """Away until `until` (Unix time; inf: until back), or back (None): stored, then the
        timers of every game of theirs are worked out again (their turns now go to the deadline
        action at once, or wait for them again). Each of their running games is told once that
        they went away and once that they are back; the turns played for them meanwhile show in
        the game's own story, not as notices. Returns how many running games they are in."""
        before = self.away.get(user_id) if self.is_away(user_id) else None
        await self.store.set_away(user_id, until)
        if until is None or until <= self.clock.now():
            self.away.pop(user_id, None)
        else:
            self.away[user_id] = until
        after = self.away.get(user_id)
        running = 0
        for game_id in await self.store.active_games_of(user_id):
            table = self.tables.get(game_id) or await self._fetch(game_id)
            if table is None or table.status != "running":
                continue
            async with table.lock:
                await self._commit(table, {})
                self._arm(table)
            running += 1
            seat = table.seat_of(user_id)
            if seat is not None and after != before:
                self._announce(table, away_notice(table.seats[seat].name, after,
                                                  pace.deadline_action(table.options)))
        return running

    # -- restart and lazy loading ----------------------------------------------------------------------
    async def load(self) -> int:
        """Load the active games of this process's shards that have something to do soon
        (lobbies, activity or a timer due within LOAD_AHEAD), re-arm their timers (overdue ones
        fire at once), and start the sweep that loads the others as their timers come due. A
        row that cannot be loaded (a game whose plugin is gone, a state no upgrade can read)
        is quarantined, and start-up goes on. Only the games loaded have their timers and
        message ids read (a round trip each per 500 games): the resting ones cost no memory
        and no round trips."""
        now = self.clock.now()
        self.away = await self.store.away(now)
        loaded = 0
        rows = await self.store.games_to_load(self.shards, now + LOAD_AHEAD, now - LOAD_AHEAD)
        timers = await self.store.timers_of(row["id"] for row in rows)
        await self.store.load_messages(timers)  # the same ids
        for row in rows:
            loaded += await self._adopt(row, timers[row["id"]]) is not None
        self.resting = await self.store.active_channels(self.shards) - set(self.by_channel)
        self._sweep = self.clock.call_at(now + SWEEP_EVERY, self._sweep_soon)
        return loaded

    def _sweep_soon(self) -> None:
        self._sweep = self.clock.call_at(self.clock.now() + SWEEP_EVERY, self._sweep_soon)
        if self.accepting:
            self._spawn(self._sweep_logged())

    async def _sweep_logged(self) -> None:
        """A sweep from the clock: a store that does not answer only postpones it."""
        try:
            await self.sweep()
        except Unavailable as exc:
            log.warning("sweep waits for the store: %s", exc)

    async def sweep(self) -> tuple[int, int]:
        """Load the games whose timers fall due within LOAD_AHEAD, and let go of idle ones (no
        timer due within it, nothing done for as long, nothing under way): (loaded, let go)."""
        now = self.clock.now()
        loaded = 0
        for game_id in await self.store.games_due(self.shards, now + LOAD_AHEAD):
            if game_id not in self.tables and game_id not in self._reloading \
                    and await self._fetch(game_id) is not None:
                loaded += 1
        idle = [t for t in self.tables.values() if t.status == "running"
                and t.touched < now - LOAD_AHEAD and not t.lock.locked()
                and not (t.feed and t.feed.busy)
                and all(timer["due_at"] > now + LOAD_AHEAD for timer in t.timers)]
        for table in idle:
            self._let_go(table)
        if loaded or idle:
            log.info("sweep loaded=%d let_go=%d resident=%d", loaded, len(idle), len(self.tables))
        return loaded, len(idle)

    def _let_go(self, table: Table) -> None:
        """Drop an idle game from memory (it stays in the store, and comes back on its next
        click, command or timer)."""
        for handle in table.handles.values():
            handle.cancel()
        table.handles.clear()
        self._unregister(table)
        self.resting.add(table.channel_id)
        forget = getattr(self.publisher, "forget", None)
        if forget is not None:
            forget(table)
        else:
            self.store.forget(table.id)

    async def _adopt(self, row: dict[str, Any], timers: list[dict[str, Any]]) -> Table | None:
        """Serve a stored game from here: revive it, register it, re-arm its timers
        (None: it could not be loaded and is quarantined)."""
        try:
            table = self._revive(row)
        except Exception as exc:  # noqa: BLE001 - any unreadable row is set aside
            problem = f"{type(exc).__name__}: {exc}"
            log.error("quarantined game=%s kind=%s problem=%s", row["id"], row["game"], problem)
            await self.store.quarantine(row["id"], problem)
            self.quarantined[row["id"]] = problem
            return None
        self._register(table)
        table.touched = self.clock.now()
        table.deadline = next((t["due_at"] for t in timers if t["kind"] == "timeout"), None)
        if row.get("reminded") is None and table.deadline is not None:
            # Saved before reminders were recorded: one whose timer is gone was sent.
            stored = {t["timer_id"] for t in timers}
            length = pace.turn_seconds(table.options, self.turn_timeout)
            table.reminded = [timer_id for timer_id, _ in pace.reminders(length)
                              if timer_id not in stored]
        if timers:
            self._arm(table, timers)
        return table

    def _revive(self, row: dict[str, Any]) -> Table:
        game = games.get(row["game"])
        state = upgrade(game, State.from_json(row["state"]), row.get("state_format") or 1) \
            if row["state"] else None
        seats = [Seat(**s) for s in row["seats"]]
        table = Table(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=game,
            host_id=row["host_id"], seed=row["seed"], options=row["options"] or {}, seats=seats,
            status=row["status"], state=state, result=row["result"],
            turn_started=row.get("turn_started") or 0.0,
            tokens=row.get("tokens") or [0] * len(seats), reminded=row.get("reminded") or [])
        if state is not None:
            table.prompts = [game.prompt(state, s) for s in range(state.seats)]
        return table

    def _reload_when_back(self, game_id: int) -> None:
        if game_id not in self._reloading:
            self._reloading.add(game_id)
            self._spawn(self._reload(game_id))

    async def _reload(self, game_id: int) -> None:
        """Load a dropped game again as soon as the store answers (trying with a growing
        delay), re-arming its stored timers and republishing a board that is behind."""
        delay = RELOAD_FIRST
        try:
            while self.accepting and game_id not in self.tables:
                try:
                    table = await self._fetch(game_id)
                except Unavailable:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, RELOAD_LONGEST)
                    continue
                if table is not None and (self.store.shown_version(game_id) or -1) < table.version:
                    self.republish(table)
                log.info("reloaded game=%s after the store came back", game_id)
                return
        finally:
            self._reloading.discard(game_id)

    def behind(self) -> list[Table]:
        """Running games whose channel board shows an older version than the committed one."""
        return [t for t in self.tables.values() if t.status == "running"
                and (self.store.shown_version(t.id) or -1) < t.version]

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id
        self.resting.discard(table.channel_id)

    async def resting_in(self, channel_id: int) -> Table | None:
        """The game of a channel whose game rests in the store, brought back into memory; None
        for any other channel without a game in memory (no store read for table talk)."""
        if channel_id not in self.resting:
            return None
        table = await self.here(channel_id)
        if table is None:
            self.resting.discard(channel_id)  # it finished meanwhile, elsewhere
        return table

    def _unregister(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]

    def _drop(self, table: Table) -> None:
        """Stop serving a copy that is no longer current: no timers, no cached message ids.
        (A newer copy, loaded meanwhile by another interaction, stays.)"""
        for handle in table.handles.values():
            handle.cancel()
        table.handles.clear()
        if self.tables.get(table.id) is table:
            self._unregister(table)
            self.store.forget(table.id)

    async def _search_for(self, table: Table, seat: int) -> ActResult:
        """One action of a hard AI seat, searched in the AI worker (smart's if it fails or is
        late); the seat's next action, if its turn goes on, comes at the next AI timer."""
        assert table.state is not None
        state = table.state
        action = await self.ai_worker.decide(table.game, state, seat, ai_rng(table.id, state.version))
        return await self._run(table, seat, [action], "ai", None, None)

    async def close(self) -> None:
        self.accepting = False
        if self._sweep is not None:
            self._sweep.cancel()
        for table in self.tables.values():
            for handle in table.handles.values():
                handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.to_thread(self.ai_worker.close)  # waits until its process has exited


def passing_first(game: Game, seat: int, fallback: Callable[[State], str]
                  ) -> Callable[[State], str]:
    """A chooser that takes the rules' pass at each step that offers one, else `fallback`'s."""
    def choose(state: State) -> str:
        found = pace.pass_choice(game.prompt(state, seat))
        return found.action if found is not None else fallback(state)
    return choose


def upgrade(game: Game, state: State, stored_format: int) -> State:
    """A stored state brought to the engine's current format by the game's upgrade steps."""
    if stored_format > game.state_format:
        raise ValueError(f"state format {stored_format} is newer than this {game.name} engine "
                         f"({game.state_format}): was the bot downgraded?")
    for old in range(stored_format, game.state_format):
        step = game.upgrades.get(old)
        if step is None:
            raise ValueError(f"{game.name} cannot upgrade a state of format {old}")
        state.data = step(state.data)
    return state

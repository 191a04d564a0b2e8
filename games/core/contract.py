"""The contract every game implements, and the one checked door (`apply`) that runs an action.

A game is a `Game` subclass found by discovery (`games` registry). Its state is a `State`: core owns the
bookkeeping (version, turn, RNG, result) and the game owns `data`, a JSON-native dict. Actions are
canonical strings ("play 2 C3", "move C4"): the same form serves buttons, slash commands, logs and
replays. Engines never read a clock: `now` (seconds) is passed in.

- Prompts: `prompt(state, seat)` is asked for every seat, so several may act at once (fears,
  votes, answers); a `Choice`'s `path` is its UI steps (card, then target), and a choice may ask
  for words (`input="text"`: the bot opens a modal). Prompts and events are read-only values, so
  a game may hand out one prebuilt object again. An `Event`'s `to=None` is public, otherwise a
  tuple of seats.
- Two doors: `apply` checks an action on a copy (people, timers, replays); `advance` is the same
  step in place for actions the game itself offered (self-play), through `reduce_offered`, which
  may skip the checks the offer made. Self-play asks only `to_move`'s seat in games declaring
  `to_move_acts_first`, and fires `next_timer` once `next_due` says so. The conformance suite
  (tests/test_conformance.py) replays self-play logs through `apply` and checks those claims.
- `seating` draws who sits where from the seed, on a stream of its own; the AI's dice
  (`ai_rng`, `ai_rngs`) are another, never derived from the game's hidden RNG.
- AI levels a host picks per seat (`LEVELS`): "easy" is the game's `easy` policy (a new
  player's mistakes), "smart" its `ai`, "hard" its `searcher` (a search over sampled hidden
  state); a game without one of them plays "smart" there. "random" serves tests and benchmarks.
"""
from __future__ import annotations

import json
import pickle
from abc import ABC, abstractmethod
from importlib import import_module
from importlib.resources import files
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from data.locales import DEFAULT, Msg, render

from .rng import MASK, Rng
from .typed import straighten
from .words import OptionText


LEVELS = ("easy", "smart", "hard")  # what a host picks for an AI seat, weakest first
DEFAULT_LEVEL = "smart"
SEARCH_BUDGET_S = 0.2  # the time a "hard" decision may take (the searcher stops at it)
# The `ai_view` level each level's policy reads: easy plays from smart's reading of the table
# (and hard without a searcher is smart); a searcher reads the seat's whole view instead, from
# which it samples what the seat cannot see (`level_view`).
VIEW_LEVEL = {"easy": "smart", "hard": "smart"}
SYSTEM = -1  # the seat that timer actions (a game clock, the Gatekeeper) are applied as
GAME_OVER, NOT_SEATED = Msg("refusal.over"), Msg("refusal.not_seated")  # `apply`'s refusals
_PARTS: dict[str, Callable[..., Any]] = {}  # `Game.hook`'s parts by "module:attribute", once imported


class IllegalAction(Exception):
    """An action the rules refuse, in words safe to show the player who tried it: a message
    (`msg`, rendered in the reader's language) or plain words; `reason` is its English, for
    logs. Seats are {p0}.. as in events; `names`, once the bot knows them, name them."""

    def __init__(self, reason: str | Msg) -> None:
        self.msg = reason if isinstance(reason, Msg) else None
        self.reason = reason if isinstance(reason, str) else render(DEFAULT, reason)
        self.names: list[str] = []
        super().__init__(self.reason)


@dataclass
class State:
    game: str
    seats: int
    seed: int
    options: dict[str, Any]
    rng: int
    version: int = 0
    turn: int = 0
    over: bool = False
    result: dict[str, Any] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        # vars(), not asdict(): data is JSON-native already, and asdict deep-copies every value.
        return json.dumps(vars(self), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "State":
        return cls(**json.loads(text))

    def copy(self) -> "State":
        """A deep copy. Pickle, not a JSON round trip: 2-3x faster on our states (measured 30 vs
        73 us for a 5 kB mid-game state), and `apply` copies once per action."""
        return State(**pickle.loads(pickle.dumps(vars(self), pickle.HIGHEST_PROTOCOL)))


@dataclass(frozen=True)
class Step:
    """One level of a multi-step choice: `key` is stable, `label` is for people."""

    key: str
    label: str


@dataclass(frozen=True)
class Choice:
    """A complete legal action, and the path of steps a UI uses to build it (card, then target)."""

    action: str
    path: tuple[Step, ...]
    # "text": the action needs free text from the player (a modal); the bot sends
    # f"{action} {text}". The engine validates and sanitises the text.
    input: str | None = None

    @property
    def label(self) -> str:
        """The steps' labels in one line (in English: readers get theirs from the bot)."""
        return " → ".join(render(DEFAULT, step.label) for step in self.path)


@dataclass(slots=True)
class Prompt:
    """What a seat may do. Read-only once a game returns it: a game may hand out the same Prompt
    (and its list of choices) again wherever it asks the same thing, so no caller changes one.
    Not frozen: a frozen dataclass takes twice as long to build, and most prompts are new;
    slots, as one is built for every step of every game."""

    seat: int
    text: str
    choices: list[Choice]
    private: bool = False  # choices reveal private state: offer them in an ephemeral panel only


@dataclass(slots=True)
class Event:
    """Something that happened. `to` None is public; otherwise only those seats may see it.

    Read-only, like Prompt: a game may return one prebuilt Event (a roll's text) every time."""

    text: str
    to: tuple[int, ...] | None = None
    kind: str = "info"

    @property
    def public(self) -> bool:
        return self.to is None


@dataclass
class Outcome:
    state: State
    events: list[Event]


class Game(ABC):
    name: ClassVar[str]
    title: ClassVar[str]
    pitch: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    colours: ClassVar[tuple[str, ...]]  # seat colour names, in seat order
    colour_rgb: ClassVar[tuple[tuple[int, int, int], ...]]
    # First words of the game's actions, with what follows them: the bot makes one typed
    # subcommand per verb (/<game> move to:C4). An empty text means the verb stands alone.
    verbs: ClassVar[dict[str, str]]
    # Real-time games accept the SYSTEM actions "pause" and "resume" (/pause, /resume).
    pausable: ClassVar[bool] = False
    # True when the first seat (in seat order) with a prompt is always `to_move`'s, so
    # self-play asks that seat alone (the conformance suite checks it along self-play games).
    to_move_acts_first: ClassVar[bool] = False
    # The game's own policies, its strongest first, which self-play and the engine benchmark run
    # ("hard", a search, is far slower: see `searcher`).
    ai_levels: ClassVar[tuple[str, ...]] = ("smart", "easy", "random")
    # Public view keys the board image leaves out (shown in messages instead), so a change in
    # them alone does not redraw the board.
    image_ignores: ClassVar[tuple[str, ...]] = ()
    # Options the host picks in the lobby: name -> allowed values, the first is the default;
    # `option_texts` says how each reads to people (label, one line of help, the values' unit).
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {}
    option_texts: ClassVar[dict[str, OptionText]] = {}
    # The shape of `State.data` this engine writes. A change of shape bumps it and adds
    # upgrades[old] (a pure function: the old data dict in, the next format's dict out), so
    # games saved by an older release load after an upgrade.
    state_format: ClassVar[int] = 1
    upgrades: ClassVar[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {}

    # The plugin's other parts, named as "module:attribute" and imported only when first used,
    # so engines (and self-play) never load Pillow, and an engine never imports its AI (the AI
    # reads the engine's tables: importing it back would be a cycle). `ai(view, prompt, rng,
    # level) -> action` is the AI (`ai_action` calls it); `ai_view_from_view(view, seat, level,
    # prompt)`, for a game whose `ai_view` is a compact form of the seat's view, works that form
    # out from the whole view (the conformance suite checks the two agree). `renderer(view) ->
    # PNG bytes` draws the public board; `warm_up()` pays its one-off costs in a render worker;
    # `speaker(line) -> PNG` pictures a character whose events (kinds in `speakers`: kind -> name
    # shown) get messages of their own; `rules_page` is (package, resource path) of the rules
    # page in English; beside it, the same name with the language before `.md` (rules.de.md)
    # is the page in that language; `catalogs`, for a game outside data/, (package, folder) of
    # its `<language>.po` catalogs.
    # Optional, for screen readers: `describer(view) -> str` says the renderer's view in words
    # (the board's alt text, at most 1024 characters: Discord's limit), `speaker_describer(line,
    # lang) -> str` the speaker's picture; without them the bot falls back to generic words.
    # `panel_text(view) -> list[str]` is the public view's player panel as short plain lines (one
    # per player, then the table's facts; the last, a key to the picture's symbols, is shown
    # small): the table's text beside the picture, where a phone reads what a shrunk picture
    # could not show. `easy(view, prompt, rng) -> action` is the "easy" level, reading smart's
    # view; `searcher(game, view, prompt, rng, budget_s) -> action` the "hard" one, reading the
    # seat's whole view and deciding within `budget_s` seconds.
    ai: ClassVar[str]
    easy: ClassVar[str | None] = None
    searcher: ClassVar[str | None] = None
    ai_view_from_view: ClassVar[str | None] = None
    renderer: ClassVar[str]
    describer: ClassVar[str | None] = None
    warm_up: ClassVar[str | None] = None
    speaker: ClassVar[str | None] = None
    speaker_describer: ClassVar[str | None] = None
    panel_text: ClassVar[str | None] = None
    speakers: ClassVar[dict[str, str]] = {}
    rules_page: ClassVar[tuple[str, str]]
    catalogs: ClassVar[tuple[str, str] | None] = None

    def hook(self, attribute: str) -> Callable[..., Any] | None:
        """The plugin part named by `attribute` (e.g. "renderer"), imported on first use and
        then kept: the AI is asked at every decision of self-play."""
        target = getattr(self, attribute)
        if target is None:
            return None
        part = _PARTS.get(target)
        if part is None:
            module, _, name = target.partition(":")
            part = _PARTS[target] = getattr(import_module(module), name)
        return part

    def rules_text(self, lang: str | None = None) -> str:
        """The rules page in language `lang` ("de"): the page beside the English one with the
        language before `.md` (rules.de.md) when the game ships it, else the English page."""
        package, path = self.rules_page
        if lang:
            translated = files(package).joinpath(path.removesuffix(".md") + f".{lang}.md")
            if translated.is_file():
                return translated.read_text(encoding="utf-8")
        return files(package).joinpath(path).read_text(encoding="utf-8")

    def opening(self, state: State) -> list[str]:
        """The house rules that change play at this table (its player count, its options), one
        short plain line each ({p0}.. name seats), for the players to hear as the game begins:
        the first table shows them, where /rules would be read too late. From the game's data,
        so they say what this table plays. None by default."""
        return []

    def interlude(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """A speaking character holding the floor in the public `view` (then nobody moves but
        whom it calls), or None. As a dict: "speaker" (a kind in `speakers`), "line", "calls"
        (the seat that must answer, or None), "until" (the answer's deadline, or None) and
        "first" (its first appearance in this game: the table shows its whole picture)."""
        return None

    @abstractmethod
    def setup_data(self, state: State, rng: Rng) -> None:
        """Fill `state.data` for a fresh game."""

    @abstractmethod
    def prompt(self, state: State, seat: int) -> Prompt | None:
        """What `seat` may do now; None when nothing."""

    @abstractmethod
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        """Apply a legal action to `state` in place or raise IllegalAction (on a copy: see apply)."""

    def reduce_offered(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        """`reduce` for an action this game itself offered (an AI's pick from its prompt, a
        listed timer: `advance`). A game may skip here the checks its offer already made; the
        conformance suite replays every self-play log through the checked `apply`, so both
        paths must give the same states."""
        return self.reduce(state, seat, action, now, rng)

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator). The public view holds no hidden information."""

    def ai_action(self, view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart",
                  budget_s: float = SEARCH_BUDGET_S) -> str:
        """The AI's action at `level` from what its seat may know (`ai_view(state, seat, ...)`,
        the whole seat view for "hard") and `prompt(state, seat)`, never the state: "easy" by the
        game's `easy`, "hard" by its `searcher` within `budget_s`, "smart" and "random" by its
        `ai`; a level the game has no policy for plays "smart". Call it via `decide`."""
        if level == "hard" and self.searcher is not None:
            return self.hook("searcher")(self, view, prompt, rng, budget_s)
        if level == "easy" and self.easy is not None:
            return self.hook("easy")(view, prompt, rng)
        if level in ("easy", "hard"):
            level = "smart"
        choose = _PARTS.get(self.ai) or self.hook("ai")  # `hook` inlined: asked at every decision
        return choose(view, prompt, rng, level)

    def ai_view(self, state: State, seat: int, level: str, prompt: Prompt) -> dict[str, Any]:
        """The part of `view(state, seat)` that the AI at `level` reads to answer `prompt`: every
        key it returns has the value `view` gives it. A game whose AI reads less overrides this to
        skip building the rest (self-play asks once per action); the conformance suite checks it
        is a part, and an AI that reads a key left out fails there."""
        return self.view(state, seat)

    def private_text(self, state: State, seat: int) -> str | Msg | dict[str, Any]:
        """What only `seat` knows (a hand, a key rack), as short Markdown for DMs and /hand: plain
        words, or a message (a `Msg`, or a stored one) each reader gets in their language."""
        return ""

    def to_move(self, state: State) -> int | None:
        """The seat whose turn it is, for timeouts and "it's X's turn" replies."""
        return state.data.get("current")

    def paused(self, state: State) -> bool:
        """A paused game's players are not timed out."""
        return False

    def timers(self, state: State) -> list[dict[str, Any]]:
        """Due times the bot must wake the game at: [{"id", "due", "seat", "action"}].

        At `due` the bot applies `action` as `seat` (usually SYSTEM) through the same code path
        as any move; a timer whose action is refused or that is no longer listed does nothing.
        """
        return []

    def next_timer(self, state: State) -> dict[str, Any] | None:
        """The timer self-play fires next: the earliest of `timers(state)`, the first listed
        among equal due times. A game may find it without listing every timer (the conformance
        suite checks both agree)."""
        timers = self.timers(state)
        return min(timers, key=due_time) if timers else None

    def next_due(self, state: State) -> float | None:
        """When `next_timer` falls due (its "due"; None without timers). Self-play asks this every
        step and `next_timer` only once it is due; a game may find it without naming the timer
        (the conformance suite checks both agree)."""
        timer = self.next_timer(state)
        return None if timer is None else timer["due"]


def due_time(timer: dict[str, Any]) -> float:
    return timer["due"]


SEATING_STREAM = 0x5EA7  # the seat lot's offset from the seed (the AI's is 0xA1: `ai_rngs`)


def seating(seed: int, players: int) -> list[int]:
    """Who sits where, drawn by lot from the game's seed: item k is the player (by joining
    order, 0 first) in seat k. Seat order can favour early seats (Don't Go In There's last
    placement goes to the last seat), so the table draws it, as players at a real table would,
    and self-play reports wins by joining order the same way. The lot has its own stream: drawn
    from the game's, it would share its first numbers with the deal, so who sits first would
    go with which cards come out first."""
    order = list(range(players))
    Rng(seed * 0x9E3779B97F4A7C15 + SEATING_STREAM).shuffle(order)
    return order


def setup(game: Game, seats: int, options: dict[str, Any] | None, seed: int) -> State:
    if not game.min_seats <= seats <= game.max_seats:
        raise IllegalAction(f"{game.title} needs {game.min_seats}-{game.max_seats} players, not {seats}.")
    state = State(game=game.name, seats=seats, seed=seed, options=dict(options or {}), rng=seed)
    rng = Rng(state.rng)
    game.setup_data(state, rng)
    state.rng = rng.state
    return state


def apply(game: Game, state: State, seat: int, action: str, now: float = 0.0) -> Outcome:
    """The checked door: validate and apply on a copy, so a refused action changes nothing.
    A typed action's typographic quotes reach the game as plain ones (`typed.straighten`)."""
    if state.over:
        raise IllegalAction(GAME_OVER)
    if not (0 <= seat < state.seats or seat == SYSTEM):
        raise IllegalAction(NOT_SEATED)
    new = state.copy()
    rng = Rng(new.rng)
    events = game.reduce(new, seat, straighten(action).strip(), now, rng)
    new.rng = rng.state
    new.version += 1
    return Outcome(new, events)


def advance(game: Game, state: State, seat: int, action: str, now: float = 0.0,
            rng: Rng | None = None) -> list[Event]:
    """`apply` without the copy, for self-play: changes `state` in place and returns the events.

    Only for actions the game itself offered (an AI's choice from its prompt, a listed timer):
    a refusal may leave `state` half-changed, which ends a simulation anyway. Bots use `apply`.
    `rng`: an Rng to reseed with the state's rather than build one (self-play keeps one per game).
    """
    if state.over:
        raise IllegalAction("This game is over.")
    if rng is None:
        rng = Rng(state.rng)
    else:
        rng.state = state.rng
    events = game.reduce_offered(state, seat, action.strip(), now, rng)
    state.rng = rng.state
    state.version += 1
    return events


def decide(game: Game, state: State, seat: int, rng: Rng, level: str = "smart",
           prompt: Prompt | None = None) -> str:
    """The AI's action for `seat`: the one way platform code asks an AI to move.

    The AI is given only what the seat may know (its view, or the part of it the AI reads, and
    its prompt), so it cannot peek at hidden cards however it is written; `rng` must not be
    derived from the game's RNG. `prompt`: the seat's prompt in `state`, if the caller has it.
    """
    if prompt is None:
        prompt = game.prompt(state, seat)
    if prompt is None:
        raise IllegalAction("That seat has nothing to do.")
    return game.ai_action(level_view(game, state, seat, level, prompt), prompt, rng, level)


def level_view(game: Game, state: State, seat: int, level: str, prompt: Prompt) -> dict[str, Any]:
    """What the AI at `level` reads: the seat's whole view for a search, else `ai_view` at the
    level whose reading it shares (`VIEW_LEVEL`)."""
    if level == "hard" and game.searcher is not None:
        return game.view(state, seat)
    return game.ai_view(state, seat, VIEW_LEVEL.get(level, level), prompt)


def ai_rng(seed: int, version: int) -> Rng:
    """The AI's dice for one decision: its own stream, independent of the game's hidden RNG."""
    return ai_rngs(seed)(version)


def ai_rngs(seed: int) -> Callable[[int], Rng]:
    """`ai_rng(seed, version)` for every version of one game, the seed's part worked out once.

    Self-play asks once per action, so this hands out one Rng, reseeded for each version rather
    than built anew: an AI draws from it only while it decides, and keeps no reference."""
    base = seed * 0x9E3779B97F4A7C15 + 0xA1
    rng = Rng(0)

    def at(version: int) -> Rng:
        rng.state = (base + version * 0xBF58476D1CE4E5B9) & MASK
        return rng
    return at


def replay(game: Game, seats: int, options: dict[str, Any] | None, seed: int,
           actions: list[tuple[int, str, float]]) -> State:
    state = setup(game, seats, options, seed)
    for seat, action, now in actions:
        state = apply(game, state, seat, action, now).state
    return state

"""The hard AI: determinized search with rollouts by the smart policy.

It sees what the smart AI sees, its seat's view and prompt, and never the state. Each iteration
asks the game's sampler (`games/<game>/sample.py`: `sample(view, seat, rng) -> State`) for one
complete state consistent with that view (others' hands, face-down cards, deck order drawn at
random among what the seat has not seen), then plays every candidate action in it with the smart
policy in every seat: to the end, or, for a game with an evaluation, for a horizon of a few
actions, after which the game's `evaluate(state, seat)` scores the position (the seat's estimated
share of the win). A short rollout costs a fraction of a whole game, so the same budget buys
several times the samples, and a graded score is far less noisy than a win or a loss. The same
sample and the same dice serve every candidate (common random numbers), so candidates are
compared on equal luck, and the AI leaves the smart policy's own pick only for one that beats it
clearly in those paired games.

A prompt's choices are whole actions (a multi-step choice's path is only how a UI builds it:
card, then target), so each candidate is one complete action, the smart pick among them; with
more than CANDIDATES, the others weighed are those the game's evaluation scores best one action
on in the first sample (a turn may offer ninety plays, most of them idle), or, for a game
without one, drawn at random.

A decision is anytime: it stops at its time budget (`budget_s`), or, for tests and strength runs
that must replay from a seed, after a fixed number of iterations (`iterations`). A sample whose
prompt for the seat differs from the real one (a sampler that could not rebuild some public
detail) is thrown away; with no usable sample the smart policy decides alone.

A game opts in with `searcher = "games.<game>.sample:search"`, where its sample module sets
`search = searcher(sample)`, or `searcher(sample, evaluate, horizon)` with an evaluation; a game
whose hard level has a policy of its own, stronger than smart, passes it as `policy`: it makes the
base pick in smart's place and plays the searching seat in the rollouts (the others stay smart).
Such a policy reads smart's view of the seat, or, wrapped in `WholeView`, the seat's whole view.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from math import sqrt
from typing import Any, Callable

from .contract import Game, IllegalAction, Prompt, State, advance, ai_rngs, decide
from .rng import MASK, Rng

Sampler = Callable[[dict[str, Any], int, Rng], State]
Evaluation = Callable[[State, int], float]
Policy = Callable[[dict[str, Any], Prompt, Rng], str]  # (smart's view of the seat, prompt, dice) -> action

BUDGET_S = 0.2  # a decision's default time budget: the p95 limit
RESERVE_S = 0.025  # of the budget, kept for what follows the search (a worker's reply, a late rollout)
CANDIDATES = 6  # actions weighed at most: the smart pick and others drawn from the prompt
ROLLOUT_ACTIONS = 4000  # a rollout that runs longer counts as nobody's win
THINK_SECONDS = 4.0  # simulated time per action in a rollout, as self-play uses
MARGIN = 1.0  # standard errors of the paired difference an action must beat the smart pick by
MIN_PAIRS = 3  # paired games an action needs before it may replace the smart pick
MIN_GAIN = 0.02  # share of the win an action must add on average: an evaluation's steady hair of
# a difference is no reason to leave the smart pick
DEADLINE_EVERY = 16  # rollout actions between looks at the clock
SAMPLE_TRIES = 4  # samples drawn in a row before giving up on a sampler that cannot match


@dataclass(frozen=True)
class WholeView:
    """A hard level's own policy that reads the seat's whole view (`game.view`), for a game whose
    smart view is too compact for it."""

    choose: Policy


OwnPolicy = Policy | WholeView


class OutOfTime(Exception):
    """A rollout still running at the decision's deadline: its round is dropped."""


@dataclass
class Tally:
    """One candidate's paired results against the smart pick: sums of the difference and of its
    square, over `n` samples."""

    action: str
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, difference: float) -> None:
        self.n += 1
        self.total += difference
        self.squares += difference * difference

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def spread(self) -> float:
        """The standard error of the mean difference (0 with under two samples)."""
        if self.n < 2:
            return 0.0
        mean = self.mean()
        return sqrt(max(self.squares / self.n - mean * mean, 0.0) / (self.n - 1))

    def edge(self) -> float:
        """The mean difference in standard errors (0 with under two samples)."""
        mean, spread = self.mean(), self.spread()
        return mean / spread if spread else (float("inf") if self.n > 1 and mean > 0 else 0.0)

    def clearly_better(self, margin: float = MARGIN) -> bool:
        """Ahead of the smart pick by more than `margin` standard errors and by MIN_GAIN."""
        mean = self.mean()
        if self.n < MIN_PAIRS or mean < MIN_GAIN:
            return False
        return mean > margin * self.spread()


class Clock:
    """When a search stops: after `iterations` rounds (one sample, every candidate rolled out in
    it), or before a rollout that would likely end past `deadline` (each is timed, and the next
    is expected to take as long as the longest so far)."""

    def __init__(self, deadline: float, iterations: int | None) -> None:
        self.deadline, self.iterations = deadline, iterations
        # where a rollout gives up: the deadline itself, never in a fixed-iteration search
        self.hard_stop = None if iterations is not None else deadline
        self.rounds = 0
        self.longest = 0.0

    def another_round(self) -> bool:
        self.rounds += 1
        if self.iterations is not None:
            return self.rounds <= self.iterations
        return not self.out_of_time()

    def out_of_time(self) -> bool:
        return self.iterations is None and time.perf_counter() + self.longest > self.deadline

    def timed(self, fn: Callable[..., float], *args: Any) -> float:
        began = time.perf_counter()
        result = fn(*args)
        self.longest = max(self.longest, time.perf_counter() - began)
        return result


@dataclass(frozen=True)
class Horizon:
    """Where a rollout stops short of the game's end: after `actions` actions (timers included),
    the position scored by `evaluate`."""

    evaluate: Evaluation
    actions: int


@dataclass(frozen=True)
class Verdict:
    """What a search found: the base pick (the smart policy's, or the hard level's own) and the
    candidate that did best against it in the paired rollouts, if any was weighed."""

    base: str
    best: Tally | None = None

    def action(self, margin: float = MARGIN) -> str:
        """The best candidate if it beat the base pick clearly, else the base pick."""
        return self.best.action if self.best is not None and self.best.clearly_better(margin) else self.base


@dataclass(frozen=True)
class Searcher:
    """A game's `searcher` hook (`searcher(...)` builds it): called, it decides as the hard AI;
    its `weigh` tells what the search found (the benchmarks read it). A game may subclass it to
    keep some picks from the search."""

    sample: Sampler
    horizon: Horizon | None = None
    policy: OwnPolicy | None = None
    margin: float = MARGIN

    def __call__(self, game: Game, view: dict[str, Any], prompt: Prompt, rng: Rng,
                 budget_s: float | None = BUDGET_S, iterations: int | None = None) -> str:
        return self.weigh(game, view, prompt, rng, budget_s, iterations).action(self.margin)

    def weigh(self, game: Game, view: dict[str, Any], prompt: Prompt, rng: Rng,
              budget_s: float | None = BUDGET_S, iterations: int | None = None) -> Verdict:
        return weigh(game, self.sample, view, prompt, rng, budget_s, iterations, self.horizon, self.policy)


def searcher(sample: Sampler, evaluate: Evaluation | None = None, horizon: int = 0,
             policy: OwnPolicy | None = None, margin: float = MARGIN) -> Searcher:
    """The game's `searcher` hook, built on its sampler, and, with `evaluate`, rollouts cut at
    `horizon` actions; `policy`, the hard level's own, in smart's place for the searching seat;
    `margin`, for a game whose rollouts are noisier (a win or not within the horizon), the
    standard errors a candidate must beat the base pick by."""
    cut = Horizon(evaluate, horizon) if evaluate is not None else None
    return Searcher(sample, cut, policy, margin)


def weigh(game: Game, sample: Sampler, view: dict[str, Any], prompt: Prompt, rng: Rng,
          budget_s: float | None = BUDGET_S, iterations: int | None = None,
          horizon: Horizon | None = None, policy: OwnPolicy | None = None) -> Verdict:
    """The hard AI's search for `prompt`, from `view` alone: the base pick (smart's, or `policy`'s)
    and how the best other candidate did against it in the paired rollouts; the AI plays the base
    pick unless that candidate is clearly better. `iterations` (samples) fixes the work, so the
    answer depends only on the seed; otherwise the search stops at `budget_s`."""
    start = time.perf_counter()
    seat = prompt.seat
    actions = [c.action for c in prompt.choices]
    if any(c.input for c in prompt.choices):  # words to write: not a search's business
        return Verdict(smart_pick(game, view, prompt, Rng(rng.state), policy))
    if len(set(actions)) == 1:
        return Verdict(actions[0])
    smart = smart_pick(game, view, prompt, Rng(rng.state), policy)
    state = _consistent_sample(game, sample, view, prompt, rng)
    if state is None:
        return Verdict(smart)
    tallies = [Tally(a) for a in candidates(game, state, seat, actions, smart, rng, horizon)]
    clock = Clock(start + (budget_s or 0.0) - RESERVE_S, iterations)
    while clock.another_round():
        seed = rng.next64()
        try:
            base = clock.timed(score, game, state, seat, smart, seed, clock.hard_stop,
                              horizon, policy)
            results = []
            for tally in tallies:
                if clock.out_of_time():
                    break
                result = clock.timed(score, game, state, seat, tally.action, seed,
                                    clock.hard_stop, horizon, policy)
                results.append(result - base)
        except OutOfTime:
            break
        except Exception:  # noqa: BLE001 - a sample rebuilt from a view may miss public
            # bookkeeping the view leaves out (an effect half run), which the engine may trip on
            # moves later: that round (one sample, every candidate) is dropped, whatever the error
            results = []
        for tally, result in zip(tallies, results):
            tally.add(result)
        state = _consistent_sample(game, sample, view, prompt, rng)
        if state is None:
            break
    return Verdict(smart, max(tallies, key=Tally.mean, default=None))


def candidates(game: Game, state: State, seat: int, actions: list[str], smart: str, rng: Rng,
               horizon: Horizon | None = None) -> list[str]:
    """The actions weighed against the smart pick: all the others when few, else the few the
    evaluation likes best just after them in `state`, or, with none, a random few (the prompt's
    order would favour the same kind of action every time)."""
    others = [a for a in dict.fromkeys(actions) if a != smart]
    if len(others) < CANDIDATES:
        return others
    if horizon is not None:
        start = start_time(game, state)
        return sorted(others, key=lambda a: -glance(game, state, seat, a, start, horizon))[:CANDIDATES - 1]
    rng.shuffle(others)
    return others[:CANDIDATES - 1]


def glance(game: Game, state: State, seat: int, action: str, now: float, horizon: Horizon) -> float:
    """The evaluation of (a copy of) `state` just after `seat` plays `action` (a win: 1)."""
    board = state.copy()
    try:
        advance(game, board, seat, action, now)
    except Exception:  # noqa: BLE001 - as in a rollout, a sample may trip the engine: not a candidate
        return -1.0
    if board.over:
        winners = (board.result or {}).get("winners") or []
        return 1.0 / len(winners) if seat in winners else 0.0
    return horizon.evaluate(board, seat)


def score(game: Game, state: State, seat: int, action: str, seed: int,
          deadline: float | None = None, horizon: Horizon | None = None,
          policy: OwnPolicy | None = None) -> float:
    """`seat`'s share of the win when it plays `action` in (a copy of) `state` and the smart
    policy plays every seat after: 1 alone, 1/k shared by k winners, 0 otherwise; or, with a
    `horizon` the rollout stops at, its evaluation of the position there."""
    board = state.copy()
    try:
        now = start_time(game, board)
        advance(game, board, seat, action, now)
        rollout(game, board, seed, now + THINK_SECONDS, deadline,
                horizon.actions if horizon is not None else ROLLOUT_ACTIONS, policy, seat)
    except IllegalAction:
        return 0.0
    if horizon is not None and not board.over:
        return horizon.evaluate(board, seat)
    winners = (board.result or {}).get("winners") or [] if board.over else []
    return 1.0 / len(winners) if seat in winners else 0.0


def rollout(game: Game, state: State, seed: int, now: float, deadline: float | None = None,
            actions: int = ROLLOUT_ACTIONS, policy: OwnPolicy | None = None, own: int | None = None) -> None:
    """Self-play by the smart policy from `state` (in place) for at most `actions` actions,
    timers firing when due, `policy` playing seat `own` if given; OutOfTime once `deadline`
    (perf_counter seconds) has passed, looked at every DEADLINE_EVERY actions."""
    timed = type(game).timers is not Game.timers
    dice = ai_rngs(seed & MASK)
    seats = range(state.seats)
    for step in range(actions):
        if state.over:
            return
        if deadline is not None and step % DEADLINE_EVERY == 0 and time.perf_counter() > deadline:
            raise OutOfTime()
        due = game.next_due(state) if timed else None
        if due is not None and due <= now:
            timer = game.next_timer(state)
            advance(game, state, timer["seat"], timer["action"], now)
            continue
        if game.to_move_acts_first:
            seat = game.to_move(state)
            prompt = None if seat is None else game.prompt(state, seat)
        else:
            seat, prompt = next(((s, p) for s in seats if (p := game.prompt(state, s)) is not None),
                                (None, None))
        if prompt is None or seat is None:
            if due is None:
                return
            now = max(now, due)
            continue
        if isinstance(policy, WholeView) and seat == own:
            action = policy.choose(game.view(state, seat), prompt, dice(state.version))
        elif policy is not None and seat == own:
            action = policy(game.ai_view(state, seat, "smart", prompt), prompt, dice(state.version))
        else:
            action = decide(game, state, seat, dice(state.version), "smart", prompt)
        advance(game, state, seat, action, now)
        now += THINK_SECONDS


def start_time(game: Game, state: State) -> float:
    """When a rollout starts: the seat's view holds no clock, so just before the next timer (a
    game without one never reads the time)."""
    due = game.next_due(state) if type(game).timers is not Game.timers else None
    return 0.0 if due is None else due - THINK_SECONDS


def _consistent_sample(game: Game, sample: Sampler, view: dict[str, Any], prompt: Prompt,
                       rng: Rng) -> State | None:
    """A sampled state in which the seat is asked exactly `prompt`'s actions, or None."""
    wanted = [c.action for c in prompt.choices]
    for _ in range(SAMPLE_TRIES):
        try:
            state = sample(view, prompt.seat, rng)
            asked = game.prompt(state, prompt.seat)
        except (IllegalAction, KeyError, IndexError, ValueError):
            continue
        if asked is not None and [c.action for c in asked.choices] == wanted:
            return state
    return None


def smart_pick(game: Game, view: dict[str, Any], prompt: Prompt, rng: Rng,
               policy: OwnPolicy | None = None) -> str:
    """The smart policy's action from the seat's whole view, or `policy`'s: what a smart seat (or
    the hard level's own policy) would play here (`rng` a copy of the decision's dice, as the
    smart AI would have had them)."""
    if isinstance(policy, WholeView):
        return policy.choose(view, prompt, rng)
    from_view = game.hook("ai_view_from_view")
    ai_view = view if from_view is None else from_view(view, prompt.seat, "smart", prompt)
    return game.ai_action(ai_view, prompt, rng, "smart") if policy is None else policy(ai_view, prompt, rng)


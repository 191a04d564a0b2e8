"""Where the hard AI's search leaves its policy's pick, and whether that pays: a search's margin.

Plays `--games` games of hard (searching `--iterations` samples a decision) against smart, players
rotating through the seats as bench.ai_levels plays them. At every hard decision where a candidate
beat the base pick (the hard policy's, or smart's) by more than `--floor` standard errors in the
search's own paired rollouts, it notes the departure and the search's edge, whether or not the
game's margin let the search take it. Each departure is then weighed on the real position, hidden
cards and all (which the search never saw): `--rollouts` pairs of games to the end, one after each
pick, the same dice in both, the base policy in hard's seat and smart in the others. A departure
that gains on average is one the margin should let through.

    .venv/bin/python -m bench.departures GAME [--games 40] [--iterations 30] [--rollouts 80]
        [--floor 1.0] [--seed 4100]

Prints, by the search's edge, how many departures there were and the share of a win each gained
(with its standard error), and what they add up to per game.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from math import inf, sqrt
from typing import cast

import games
from games.core import Game, Prompt, Rng, State, advance, ai_rngs, decide
from games.core.search import BUDGET_S, THINK_SECONDS, Searcher, smart_pick

from .ai_levels import START, rotating, self_play

BANDS = (1.0, 1.5, 2.0, 2.5, 3.0, inf)  # edges in standard errors, lower bounds of each band


@dataclass
class Departure:
    """A position where the search's best candidate beat the base pick by `edge` standard errors."""

    state: State
    seat: int
    base: str
    best: str
    edge: float
    gain: float = 0.0  # the best candidate's share of a win over the base pick's, on the real position


def searcher_of(game: Game) -> Searcher:
    """The game's hard AI (every game's `searcher` hook is a `Searcher`)."""
    return cast(Searcher, game.hook("searcher"))


def collect(game: Game, count: int, seed: int, iterations: int, floor: float) -> list[Departure]:
    """The departures over `count` games of hard against smart (hard playing as the game's hard AI
    does, its margin deciding)."""
    search = searcher_of(game)
    found: list[Departure] = []

    def hard(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        verdict = search.weigh(game, game.view(state, seat), prompt, rng, BUDGET_S, iterations)
        if verdict.best is not None and verdict.best.clearly_better(floor):
            found.append(Departure(state.copy(), seat, verdict.base, verdict.best.action, verdict.best.edge()))
        return verdict.action(search.margin)

    def smart(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        return decide(game, state, seat, rng, "smart", prompt)
    rotating(game, [hard] + [smart] * (max(game.min_seats, 2) - 1), count, seed)
    return found


def finish(game: Game, state: State, own: int, seed: int) -> float:
    """`own`'s share of the win when the game is played out from `state` (in place): the base
    policy in its seat, smart in the others."""
    policy = searcher_of(game).policy

    def choose(board: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        if seat == own:
            return smart_pick(game, game.view(board, seat), prompt, rng, policy)
        return decide(game, board, seat, rng, "smart", prompt)
    self_play(game, state.seats, seed, choose, state)
    winners = (state.result or {}).get("winners") or [] if state.over else []
    return 1.0 / len(winners) if own in winners else 0.0


def weigh(game: Game, departure: Departure, rollouts: int, seed: int) -> float:
    """The best candidate's mean gain over the base pick on the real position, paired games."""
    total = 0.0
    for index in range(rollouts):
        dice = Rng(seed + index)
        luck, play = dice.next64(), dice.next64()
        shares = []
        for action in (departure.best, departure.base):
            board = departure.state.copy()
            board.rng = luck
            advance(game, board, departure.seat, action, START - THINK_SECONDS)
            shares.append(finish(game, board, departure.seat, play))
        total += shares[0] - shares[1]
    return total / rollouts


def bands(departures: list[Departure], count: int) -> list[str]:
    """The table: departures by the search's edge, their mean gain and what they add up to per game."""
    lines = ["| search's edge (SE) | departures | mean gain (SE) | per game |", "| --- | ---: | ---: | ---: |"]
    for low, high in zip(BANDS, BANDS[1:]):
        gains = [d.gain for d in departures if low <= d.edge < high]
        label = f"{low:g}-{high:g}" if high < inf else f">= {low:g}"
        if not gains:
            lines.append(f"| {label} | 0 | - | - |")
            continue
        mean = sum(gains) / len(gains)
        spread = sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)) / sqrt(len(gains)) if len(gains) > 1 else 0.0
        lines.append(f"| {label} | {len(gains)} | {mean:+.3f} ({spread:.3f}) | {sum(gains) / count:+.3f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--rollouts", type=int, default=80)
    parser.add_argument("--floor", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=4100)
    args = parser.parse_args(argv)
    game = games.get(args.game)
    departures = collect(game, args.games, args.seed, args.iterations, args.floor)
    for index, departure in enumerate(departures):
        departure.gain = weigh(game, departure, args.rollouts, args.seed * 7919 + index * 1009)
    print(f"{args.game}: {args.games} games from seed {args.seed}, {args.iterations} samples a decision, "
          f"margin {searcher_of(game).margin:g}; each departure weighed by {args.rollouts} paired games")
    print("\n".join(bands(departures, args.games)))


if __name__ == "__main__":
    main()

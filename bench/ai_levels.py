"""The hard AI against the smart one: strength by self-play, and the time a hard decision takes.

Strength: games of `len(levels)` players, player k at levels[k], the players rotating through the
seats from game to game (game i puts player k in seat (k + i) % n), so no level keeps a seat's
advantage; the hard level searches a fixed number of iterations, so a run replays from its seed.
Speed: hard decisions at its time budget along such games, each timed.

    .venv/bin/python -m bench.ai_levels [GAME ...] [--games 20] [--iterations 8] [--out FILE]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import games
from games.core import Game, Rng, State, advance, ai_rngs, decide, setup
from games.core.search import BUDGET_S, THINK_SECONDS

from .figures import pct
from .report import produced_by, publish

MAX_ACTIONS = 20_000
START = 1_700_000_000.0


def hard(game: Game, state: State, seat: int, rng: Rng, iterations: int | None,
         times: list[float] | None = None) -> str:
    """The hard AI's action from the seat's whole view, timed into `times` if given."""
    prompt = game.prompt(state, seat)
    assert prompt is not None
    began = time.perf_counter()
    action = game.hook("searcher")(game, game.view(state, seat), prompt, rng, BUDGET_S,
                                   iterations=iterations)
    if times is not None:
        times.append(time.perf_counter() - began)
    return action


def play(game: Game, levels: list[str], seed: int, iterations: int | None,
         times: list[float] | None = None) -> State:
    """One game, seat s played at levels[s], on a simulated clock (as `gatekeeper simulate`)."""
    state = setup(game, len(levels), {}, seed)
    dice = ai_rngs(seed)
    now = START
    timed = type(game).timers is not Game.timers
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        due = game.next_due(state) if timed else None
        if due is not None and due <= now:
            timer = game.next_timer(state)
            advance(game, state, timer["seat"], timer["action"], now)
            continue
        seat, prompt = next(((s, p) for s in range(state.seats)
                             if (p := game.prompt(state, s)) is not None), (None, None))
        if prompt is None or seat is None:
            if due is None:
                break
            now = max(now, due)
            continue
        rng = dice(state.version)
        if levels[seat] == "hard":
            action = hard(game, state, seat, rng, iterations, times)
        else:
            action = decide(game, state, seat, rng, levels[seat], prompt)
        advance(game, state, seat, action, now)
        now += THINK_SECONDS
    return state


def strength(name: str, levels: list[str], count: int, seed: int,
             iterations: int | None) -> dict[str, Any]:
    """Wins by player over `count` games, the players rotating through the seats."""
    game = games.get(name)
    n = len(levels)
    wins = [0.0] * n
    for index in range(count):
        seats = [levels[(s - index) % n] for s in range(n)]  # player k sits at (k + index) % n
        state = play(game, seats, seed + index, iterations)
        winners = (state.result or {}).get("winners") or [] if state.over else []
        for winner in winners:
            wins[(winner - index) % n] += 1 / len(winners)
    return {"game": name, "levels": levels, "games": count, "wins": wins}


def speed(name: str, count: int, seed: int) -> list[float]:
    """Seconds per hard decision at the time budget, over `count` games of hard against smart."""
    game = games.get(name)
    n = max(game.min_seats, 2)
    times: list[float] = []
    for index in range(count):
        levels = ["hard" if s == index % n else "smart" for s in range(n)]
        play(game, levels, seed + index, None, times)
    return times


def lineup(game: Game) -> list[str]:
    """Hard against one smart player, or against two where the game needs three."""
    return ["hard"] + ["smart"] * (max(game.min_seats, 2) - 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--speed-games", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("docs/performance.md"))
    args = parser.parse_args(argv)
    names = args.games or [game.name for game in games.all_games()]
    rows = []
    for name in names:
        game = games.get(name)
        result = strength(name, lineup(game), args.count, args.seed, args.iterations)
        times = speed(name, args.speed_games, args.seed)
        hard_share, smart_best = result["wins"][0], max(result["wins"][1:])
        rows.append(f"| {name} | {len(result['levels'])} | {args.count} | "
                    f"{hard_share / args.count:.0%} | {smart_best / args.count:.0%} | {len(times)} | "
                    f"{pct(times, 50) * 1000:.0f} | {pct(times, 95) * 1000:.0f} | "
                    f"{max(times, default=0) * 1000:.0f} |")
    command = "python -m bench.ai_levels" + (f" --games {args.count}" if args.count != 20 else "") \
        + (f" --iterations {args.iterations}" if args.iterations != 8 else "")
    publish(args.out, "ai-hard", [
        "## The hard AI",
        f"`{command}` · {produced_by(command).split(' · ', 1)[1]}. Strength: hard (a search, "
        f"{args.iterations} samples a decision) against smart, players rotating through the seats; "
        "wins: the share of games won (a shared win split). Time: hard decisions at the 0.2 s "
        "budget along hard-against-smart games (a process of its own, on a shared machine).",
        "",
        "| game | players | games | hard wins | best smart wins | decisions | p50 ms | p95 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows])


if __name__ == "__main__":
    main()

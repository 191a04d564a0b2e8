"""The hard AI against the smart one: strength by self-play, and the time a hard decision takes.

Strength: games of hard against one smart player (two where the game needs three seats), the
players rotating through the seats from game to game (game i puts player k in seat (k + i) % n),
so no level keeps a seat's advantage. Hard searches a fixed number of samples per decision
(`--iterations`), so a run replays from its seed whatever the machine's load; hard's share comes
with its 95% interval (Wilson's, a shared win counted as its part).
Speed: hard decisions as the bot asks them, of the AI worker process at the 0.2 s budget, at
`--decisions` positions spread along a smart self-play game; it prints how many samples such a
decision searched there (in this process: what `--iterations` should stand for).

    .venv/bin/python -m bench.ai_levels [GAME ...] [--games 20] [--iterations 8] [--decisions 40]

A run rewrites the rows of the games it measures and keeps the others' (each row says its
games and samples), so slow games can be measured one at a time; `--games 0` times decisions only.
"""
from __future__ import annotations

import argparse
import asyncio
import time
from math import sqrt
from pathlib import Path
from typing import Callable, cast

import games
from bot.aiworker import AiWorker
from games.core import Game, Prompt, Rng, State, advance, ai_rngs, decide, setup
from games.core.search import BUDGET_S, THINK_SECONDS, Searcher

from .figures import pct
from .report import budget, produced_by, publish

MAX_ACTIONS = 20_000
START = 1_700_000_000.0
Chooser = Callable[[State, int, Prompt, Rng], str]


def self_play(game: Game, seats: int, seed: int, choose: Chooser, state: State | None = None) -> State:
    """One game on a simulated clock, as `gatekeeper simulate` plays it, `choose` deciding for
    every seat (`rng`: the AI's dice for that decision); the final state. Given `state`, the game
    is played on from there (in place)."""
    state = setup(game, seats, {}, seed) if state is None else state
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
        seat, prompt = next(((s, p) for s in range(seats) if (p := game.prompt(state, s)) is not None),
                            (None, None))
        if prompt is None or seat is None:
            if due is None:
                break
            now = max(now, due)
            continue
        advance(game, state, seat, choose(state, seat, prompt, dice(state.version)), now)
        now += THINK_SECONDS
    return state


def strength(name: str, count: int, seed: int, iterations: int) -> list[float]:
    """Wins per player (hard first) over `count` games, a shared win split."""
    game = games.get(name)

    def hard(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        return game.hook("searcher")(game, game.view(state, seat), prompt, rng, BUDGET_S,  # type: ignore[misc]
                                     iterations=iterations)

    def smart(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        return decide(game, state, seat, rng, "smart", prompt)
    return rotating(game, [hard] + [smart] * (max(game.min_seats, 2) - 1), count, seed)


def rotating(game: Game, players: list[Chooser], count: int, seed: int) -> list[float]:
    """Wins per player over `count` games (seeds `seed` on), game i putting player k in seat
    (k + i) % n, so no player keeps a seat's advantage; a shared win split, a game without a
    winner nobody's (their sum: the games won)."""
    n = len(players)
    wins = [0.0] * n
    for index in range(count):
        def choose(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
            return players[(seat - index) % n](state, seat, prompt, rng)
        state = self_play(game, n, seed + index, choose)
        winners = (state.result or {}).get("winners") or [] if state.over else []
        for winner in winners:
            wins[(winner - index) % n] += 1 / len(winners)
    return wins


def positions(game: Game, seats: int, seed: int, count: int) -> list[tuple[State, int]]:
    """`count` states spread along a smart self-play game, each with a seat that has a real
    choice (two actions or more, none asking for words), and that seat."""
    found: list[tuple[State, int]] = []

    def smart(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        if len({c.action for c in prompt.choices}) > 1 and not any(c.input for c in prompt.choices):
            found.append((state.copy(), seat))
        return decide(game, state, seat, rng, "smart", prompt)
    if count <= 0:
        return found
    self_play(game, seats, seed, smart)
    step = max(len(found) // count, 1)
    return found[::step][:count]


async def speed(name: str, count: int, seed: int) -> list[float]:
    """Seconds per hard decision asked of a started AI worker process, at `count` positions."""
    game = games.get(name)
    worker = AiWorker(workers=1)
    times: list[float] = []
    try:
        await worker.started()
        for state, seat in positions(game, max(game.min_seats, 2), seed, count):
            began = time.perf_counter()
            await worker.decide(game, state, seat, Rng(seed + state.version))
            times.append(time.perf_counter() - began)
    finally:
        await asyncio.to_thread(worker.close)
    return times


def samples_bought(name: str, count: int, seed: int) -> list[int]:
    """Samples a hard decision searches within its 0.2 s budget, in this process, at `count`
    positions along a smart self-play game (what `--iterations` should stand for)."""
    game = games.get(name)
    search = cast(Searcher, game.hook("searcher"))
    bought = []
    for state, seat in positions(game, max(game.min_seats, 2), seed, count):
        verdict = search.weigh(game, game.view(state, seat), game.prompt(state, seat), Rng(seed + state.version))
        if verdict.best is not None:
            bought.append(verdict.best.n)
    return sorted(bought)


def interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a share won of `games` games."""
    share = wins / games
    middle = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return max(middle - half, 0.0), min(middle + half, 1.0)


SECTION = "ai-hard"
HEADER = ["| game | players | games | samples | hard wins | best smart wins | decisions | p50 ms | p95 ms "
          "| max ms |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]


def kept_rows(out: Path) -> dict[str, str]:
    """The table rows the report already holds, by game: a run for some games keeps the others'."""
    text = out.read_text() if out.exists() else ""
    start, end = f"<!-- bench:{SECTION} -->", f"<!-- /bench:{SECTION} -->"
    if start not in text or end not in text:
        return {}
    section = text.split(start, 1)[1].split(end, 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and line not in HEADER]
    return {row.split("|")[1].strip(): row for row in rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("docs/performance.md"))
    args = parser.parse_args(argv)
    names = args.games or [game.name for game in games.all_games()]
    rows = kept_rows(args.out)
    for name in names:
        wins = strength(name, args.count, args.seed, args.iterations)
        times = asyncio.run(speed(name, args.decisions, args.seed))
        bought = samples_bought(name, args.decisions, args.seed)
        if bought:
            print(f"{name}: a 0.2 s decision searched {bought[len(bought) // 2]} samples (median), "
                  f"{bought[0]} at the least, at {len(bought)} positions")
        shares = ["-", "-"]
        if args.count:
            low, high = interval(wins[0], args.count)
            shares = [f"{wins[0] / args.count:.0%} ({low:.0%}-{high:.0%})",
                      f"{max(wins[1:]) / args.count:.0%}"]
        samples = args.iterations if args.count else "-"
        rows[name] = (f"| {name} | {len(wins)} | {args.count} | {samples} | {shares[0]} | {shares[1]} | "
                      f"{len(times)} | {pct(times, 50) * 1000:.0f} | {pct(times, 95) * 1000:.0f} | "
                      f"{max(times, default=0) * 1000:.0f} |")
    command = "python -m bench.ai_levels GAME --games N --iterations SAMPLES"
    met = all(float(row.split("|")[9]) <= BUDGET_S * 1000 for row in rows.values())
    publish(args.out, SECTION, [
        "## The hard AI",
        f"`{command}` · {produced_by(command).split(' · ', 1)[1]}. Strength: hard (samples: per "
        "decision, about what its 0.2 s buys here) against smart, players rotating through the "
        "seats; wins: the share of games won, a shared win split, hard's with its 95% interval. "
        "A sample's rollouts stop after a few actions and are scored by the game's evaluation "
        "(games/<game>/evaluate.py), Don't Go In There's (1 ms a game) play to the end; Atmosfear, "
        "Firetop and Kingdom search on a hard policy of their own (games/<game>/hard.py), leaving its "
        "pick only for a candidate two standard errors ahead in Atmosfear and Kingdom (`python -m "
        "bench.departures GAME` weighs such departures on the real position). Time: a hard "
        "decision asked of the AI worker process at its 0.2 s budget, at positions along a smart "
        "game. " + budget("p95 <= 200 ms, every game", met),
        *HEADER, *(rows[name] for name in sorted(rows))])


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])

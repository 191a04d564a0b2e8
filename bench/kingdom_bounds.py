"""How far any Key to the Kingdom AI could get against smart: smart told a hidden fact, against smart.

In two-player Kingdom whoever first takes the Key nearly always wins, and where it lies is drawn
at random, so a player's share is bounded by what it can know of the Key. Each row plays smart,
told one fact no fair AI can see, against plain smart (players rotating through the seats as in
bench.ai_levels), and prints its share of the wins with its 95% interval:

- `none`: told nothing (the seeds' own luck: the even match these games give);
- `holder`: who holds the Key (it chases and robs them as smart does one it saw take it);
- `route`: where the Key lies, for its moves (it heads straight there);
- `both`: both;
- `policy`: the hard level's own policy (games/kingdom/hard.py), told nothing: what a fair player
  reaches without the search.

A fair AI may only guess these from what its seat has seen, so the `route` share is beyond its
reach and `holder` is the most its guesses about the Key's holder could add.

    .venv/bin/python -m bench.kingdom_bounds [--games 1500] [--seed 20000] [--modes none,holder,route,both,policy]

The told rows read the hidden state on purpose: measuring sticks for the hard AI, never players.
"""
from __future__ import annotations

import argparse
from typing import Any

import games
from games.core import Prompt, Rng, State, decide
from games.kingdom.hard import choose as hard_policy

from .ai_levels import Chooser, interval, rotating

MODES = ("none", "holder", "route", "both", "policy")
ROUTE_VERBS = ("move", "go")  # the choices that say where an adventurer goes


def told(state: State, seat: int, prompt: Prompt, mode: str) -> dict[str, Any]:
    """Smart's view for `seat`, with the hidden fact `mode` names written into it: the holder as
    one it saw take the Key, the Key's Location as the only full one (for a choice of where to go)."""
    game = games.get("kingdom")
    view = dict(game.ai_view(state, seat, "smart", prompt))
    d = state.data
    if mode in ("holder", "both"):
        holder = next((s for s, pl in enumerate(d["players"]) if "key" in pl["hand"]), None)
        if holder is not None and holder != seat:
            view["knows"] = {"key": holder}
    if mode in ("route", "both") and prompt.choices[0].action.split()[0] in ROUTE_VERBS:
        key_at = next((loc for loc, tid in d["locations"].items() if tid == "key"), None)
        if key_at is not None:
            view["locations"] = {loc: loc == key_at for loc in d["locations"]}
    return view


def oracle(mode: str) -> Chooser:
    game = games.get("kingdom")

    def fair(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        return hard_policy(game.ai_view(state, seat, "smart", prompt), prompt, rng)

    def choose(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
        return game.ai_action(told(state, seat, prompt, mode), prompt, rng, "smart")
    return fair if mode == "policy" else choose


def smart(state: State, seat: int, prompt: Prompt, rng: Rng) -> str:
    return decide(games.get("kingdom"), state, seat, rng, "smart", prompt)


def bound(mode: str, count: int, seed: int) -> float:
    """The told player's wins over `count` two-player games against smart."""
    return rotating(games.get("kingdom"), [oracle(mode), smart], count, seed)[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_args(argv)
    print(f"| told | games | wins against smart (seeds {args.seed} on) |\n| --- | ---: | ---: |")
    for mode in args.modes.split(","):
        if mode not in MODES:
            parser.error(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
        wins = bound(mode, args.games, args.seed)
        low, high = interval(wins, args.games)
        print(f"| {mode} | {args.games} | {wins / args.games:.1%} ({low:.0%}-{high:.0%}) |", flush=True)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])

"""Board statistics from AI self-play, for tuning the layout (data/kingdom/*.toml).

`gatekeeper simulate kingdom` reports wins; it has no per-game stats hook, so the figures the board
is tuned by are counted here, from the same games (same seeds, same AI streams, same seating):

    python -m games.kingdom.stats --games 400 --players 4 [--seed 0]

prints, over the games: the share of games in which each hazard was attempted, how often a panel
opened out and folded back in, dungeon trips and steals per game, where the first Treasure was
taken, and wins by seat.
"""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from games.core import Rng, State, advance, ai_rngs, decide, setup

from . import GAME
from .board import BOARD

MAX_ACTIONS = 20_000


class Tally:
    """What one game did, read from its states as they change (nothing is added to the state)."""

    def __init__(self) -> None:
        self.hazards: set[str] = set()
        self.folds: Counter[str] = Counter()   # "out" / "in": which way a panel turned
        self.dungeon = 0
        self.steals = 0
        self.first: str | None = None          # the Key Location the first Treasure came from

    def watch(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        verb, _, arg = action.partition(" ")
        if verb == "cross":
            self.hazards.add(arg)
        self.steals += verb == "steal"
        if self.first is None:
            self.first = next((loc for loc, tid in before["locations"].items()
                               if tid is not None and after["locations"][loc] is None), None)
        for panel, face in after["fold"].items():
            if before["fold"][panel] != face:
                self.folds[face] += 1
        for old, new in zip(before["players"], after["players"]):
            if new["spot"] == "dungeon" and old["spot"] != "dungeon":
                self.dungeon += 1


def watched_game(seats: int, seed: int, level: str = "smart") -> tuple[State, Tally]:
    """One self-play game as `gatekeeper simulate` plays it (first seat with a prompt acts)."""
    state = setup(GAME, seats, {}, seed)
    ai_rng = ai_rngs(seed)
    rng = Rng(0)
    tally = Tally()
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        seat, prompt = next((s, pr) for s in range(seats) if (pr := GAME.prompt(state, s)) is not None)
        action = decide(GAME, state, seat, ai_rng(state.version), level, prompt)
        shot = {"fold": dict(state.data["fold"]), "locations": dict(state.data["locations"]),
                "players": [dict(spot=pl["spot"]) for pl in state.data["players"]]}
        advance(GAME, state, seat, action, 0.0, rng)
        tally.watch(shot, action, state.data)
    return state, tally


def survey(count: int, seats: int, seed: int = 0) -> dict[str, Any]:
    attempted: Counter[str] = Counter()
    folds: Counter[str] = Counter()
    first: Counter[str] = Counter()
    dungeon = decided = steals = 0
    wins: Counter[int] = Counter()
    for index in range(count):
        state, tally = watched_game(seats, seed + index)
        attempted.update(tally.hazards)
        folds.update(tally.folds)
        dungeon += tally.dungeon
        steals += tally.steals
        first[tally.first or "none"] += 1
        for w in (state.result or {}).get("winners") or []:
            wins[w] += 1
            decided += 1
    return {"games": count, "seats": seats,
            "hazards": {h: attempted[h] / count for h in sorted(BOARD.hazards)},
            "folds_out": folds["out"], "folds_in": folds["in"], "dungeon_per_game": dungeon / count,
            "steals_per_game": steals / count, "first_treasure": {loc: n / count for loc, n in first.items()},
            "win_share": {s: wins[s] / decided if decided else 0.0 for s in range(seats)},
            "decided": decided}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m games.kingdom.stats")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    r = survey(args.games, args.players, args.seed)
    print(f"{r['games']} games, {r['seats']} players, {r['decided']} won")
    for h, share in sorted(r["hazards"].items(), key=lambda kv: kv[1]):
        print(f"  {h:20} attempted in {share:6.1%} of games")
    print(f"  folds: {r['folds_out']} out, {r['folds_in']} back in")
    print(f"  dungeon trips per game: {r['dungeon_per_game']:.2f}; steals per game: {r['steals_per_game']:.2f}")
    print("  first Treasure from: " + ", ".join(f"{loc} {share:.0%}" for loc, share in
                                                 sorted(r["first_treasure"].items(), key=lambda kv: -kv[1])))
    print("  win share by seat: " + ", ".join(f"seat {s}: {v:.1%}" for s, v in r["win_share"].items()))


if __name__ == "__main__":
    main()

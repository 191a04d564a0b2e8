"""Firetop's balance figures, beside `gatekeeper simulate firetop` (same games, same seeds):

    .venv/bin/python -m tests.firetop_balance --games 400 --seed 1 --players 2

prints simulate's summary line and the figures simulate does not report (games/firetop/stats.py).
"""
from __future__ import annotations

import argparse

from bot.cli import format_summary
from bot.simulate import play, simulate
from games.firetop.stats import describe, summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    span = range(2, 7)
    states = (play("firetop", args.players or span[i % len(span)], args.seed + i) for i in range(args.games))
    print(describe(summary(states)))
    print(format_summary(simulate("firetop", args.games, args.seed, args.players)))


if __name__ == "__main__":
    main()

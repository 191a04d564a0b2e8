"""Engine speed-up of one tree over another: self-play runs of each, one after the other, and the
median of the per-run ratios.

A shared virtual machine slows single runs by up to a tenth now and then, so a before/after
figure from one run of each can be off by that much; interleaving the two and taking medians
keeps a slow spell from landing on one side only. Each run is `selfplay.py` (this checkout's,
which needs only `games` and `bot.simulate.play` from the tree) in a fresh process with
PYTHONPATH at the tree, so the trees' modules never share a process:

    .venv/bin/python bench/speedup.py /tmp/before-GAME . GAME smart 300 --runs 6
"""
from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

SELFPLAY = Path(__file__).with_name("selfplay.py")


def games_per_second(tree: Path, game: str, level: str, count: int) -> float:
    """One `selfplay.py` run against `tree`: its games per CPU second."""
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    out = subprocess.run([sys.executable, str(SELFPLAY), game, level, str(count)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return float(ast.literal_eval(out.strip().splitlines()[-1])["games_per_s"])


def compare(before: Path, after: Path, game: str, level: str, count: int, runs: int) -> dict[str, Any]:
    """`runs` pairs of runs, before then after; medians of each side and of the ratios.

    A tree must hold the `games` package: PYTHONPATH at a missing or mistyped path would quietly
    run whatever `games` the interpreter has installed, and compare a tree with itself."""
    for tree in (before, after):
        if not (tree / "games" / "__init__.py").is_file():
            raise ValueError(f"{tree} is not a source tree: it has no games/__init__.py")
    pairs = [(games_per_second(before, game, level, count), games_per_second(after, game, level, count))
             for _ in range(runs)]
    ratios = [a / b for b, a in pairs]
    return {"game": game, "level": level, "games": count, "runs": runs,
            "before": statistics.median(b for b, _ in pairs),
            "after": statistics.median(a for _, a in pairs),
            "speedup": statistics.median(ratios), "lowest": min(ratios), "highest": max(ratios)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("game")
    parser.add_argument("level")
    parser.add_argument("games", type=int)
    parser.add_argument("--runs", type=int, default=6)
    args = parser.parse_args(argv)
    try:
        r = compare(args.before, args.after, args.game, args.level, args.games, args.runs)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"{r['game']} {r['level']}: before {r['before']:.1f} games/s, after {r['after']:.1f} "
          f"(medians of {r['runs']} runs of {r['games']} games): {r['speedup']:.2f}x "
          f"(runs {r['lowest']:.2f}-{r['highest']:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

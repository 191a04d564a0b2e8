"""Engine speed: AI self-play games and turns per CPU second, for one game at one AI level.

It needs only `games` and `bot.simulate.play`, whose interface older commits share, so the same
measurement runs against an older checkout for a before/after comparison:

    PYTHONPATH=/tmp/before .venv/bin/python bench/selfplay.py GAME smart 200
"""
from __future__ import annotations

import sys
import time
from typing import Any


def measure(game_name: str, level: str, games_count: int) -> dict[str, Any]:
    """`games_count` self-play games at `level` in every seat, every player count in turn, seeds
    1000 on. Per CPU second of this process, so other load on a shared machine does not count."""
    import games
    from bot.simulate import play
    game = games.get(game_name)
    sizes = range(game.min_seats, game.max_seats + 1)
    play(game_name, sizes[0], 999, level)  # first use: lazy imports and tables
    start = time.process_time()
    turns = 0
    for index in range(games_count):
        turns += play(game_name, sizes[index % len(sizes)], 1000 + index, level).turn
    elapsed = time.process_time() - start
    return {"game": game_name, "level": level, "games": games_count,
            "games_per_s": games_count / elapsed, "turns_per_s": turns / elapsed}


if __name__ == "__main__":
    name, level, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print(measure(name, level, count))

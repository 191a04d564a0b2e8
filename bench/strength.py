"""AI strength: how often smart beats easy, by self-play with the players rotating through the
seats (`bot.simulate.simulate` with one level per player), for docs/performance.md's engine
section. Two players, or the game's fewest when that is more (Atmosfear: three, smart against
two easy players)."""
from __future__ import annotations

from typing import Any

import games

SEED = 1
SMART_SHARE = 0.65  # smart wins at least this share of two-player games against easy
SMART_RATIO = 1.5  # and, at a table of more, this many times each easy player's share


def holds(result: dict[str, Any]) -> bool:
    """Smart's margin over easy in one game's `match` (SMART_SHARE, or SMART_RATIO at three)."""
    first, *rest = result["shares"]
    return first >= SMART_SHARE if len(rest) == 1 else first >= SMART_RATIO * max(rest)


LIMIT = (f"smart wins >= {SMART_SHARE:.0%} against easy (at three seats: >= {SMART_RATIO:g}x "
         "each easy player's share)")


def match(game_name: str, games_count: int, levels: tuple[str, str] = ("smart", "easy")) -> dict[str, Any]:
    """`games_count` games of `levels[0]` against `levels[1]` (as many of them as the table needs),
    from SEED on: each player's share of the games won."""
    from bot.simulate import simulate
    game = games.get(game_name)
    seated = [levels[0], *[levels[1]] * (max(2, game.min_seats) - 1)]
    summary = simulate(game_name, games_count, SEED, levels=seated)
    return {"game": game_name, "levels": seated, "games": games_count,
            "shares": [summary["wins_by_player"].get(who, 0) / games_count for who in range(len(seated))]}


def cell(result: dict[str, Any] | None) -> str:
    """"smart 83% · easy 17%", each easy player's share after its level's name."""
    if result is None:
        return "-"
    first, *rest = result["shares"]
    return (f"{result['levels'][0]} {first:.0%} · {result['levels'][1]} "
            + ", ".join(f"{share:.0%}" for share in rest))

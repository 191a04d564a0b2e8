"""Balance figures from finished Firetop games (self-play): what `gatekeeper simulate` does not count.

`summary(states)` reads each game's public tally (monster fights, escapes from monsters, deaths by
monsters and by adventurers, Maze entries) and who won with which Skill. A Skill's fair share is the
wins it would get if every adventurer on the board at the end were equally likely to win.
"""
from __future__ import annotations

from typing import Any, Iterable

from games.core import State

from .engine import TALLY


def summary(states: Iterable[State]) -> dict[str, Any]:
    games = won = 0
    totals = dict.fromkeys(TALLY, 0)
    maze_games = 0
    wins: dict[int, int] = {}
    fair: dict[int, float] = {}
    for state in states:
        games += 1
        d = state.data
        for key in TALLY:
            totals[key] += d["tally"][key]
        maze_games += d["tally"]["maze"] > 0
        winner = d["winner"]
        if winner is None:
            continue
        won += 1
        skills = [pl["skill0"] for pl in d["players"]]
        for skill in skills:
            fair[skill] = fair.get(skill, 0.0) + 1 / len(skills)
        wins[skills[winner]] = wins.get(skills[winner], 0) + 1
    fights = totals["fights"] or 1
    return {
        "games": games, "won": won, **totals,
        "lost_or_fled": (totals["slain"] + totals["fled"]) / fights,
        "slain_per_game": totals["slain"] / max(1, games),
        "killed_per_game": totals["killed"] / max(1, games),
        "maze_games": maze_games / max(1, games),
        "skill_share": {s: round(wins.get(s, 0) / fair[s], 2) for s in sorted(fair)},
    }


def describe(figures: dict[str, Any]) -> str:
    return (f"{figures['games']} games ({figures['won']} won): monster fights lost or fled "
            f"{figures['lost_or_fled']:.0%}; adventurers slain by monsters {figures['slain_per_game']:.2f} "
            f"and by adventurers {figures['killed_per_game']:.2f} per game; Maze entered in "
            f"{figures['maze_games']:.0%} of games; wins against fair share by Skill: "
            + ", ".join(f"{s}: {r:.2f}" for s, r in figures["skill_share"].items()))

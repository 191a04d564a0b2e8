"""How a Firetop Mountain position looks for one seat, for the hard AI's short rollouts
(`games.core.search`): each adventurer's progress to the chest (the share of the chest's triple
he likely carries, how far his knowledge has narrowed the triples still possible, his way to the
Treasure Room once he carries them) and his Stamina, turned into shares of the win.

Each adventurer's candidates are worked out as the smart AI works out its own, from what he has
learned; the state read is a sampled one (drawn from the searching seat's view), never the real game's.
"""
from __future__ import annotations

from math import exp, log
from typing import Any

from games.core import Rng, State

from .ai import ALL_TRIPLES, Smart, carried, cost_to

CARRY = 3.0  # points for carrying the whole of the likely triple
NARROW = 1.5  # points for knowing the triple (from all of them still possible down to one)
WALK = 0.1  # points lost per turn of walk to the Treasure Room, in the part of the triple carried
HEALTH = 0.5  # points for full Stamina
POINT_SCALE = 1.0  # a lead of one point is worth e to 1 in the odds
FAR = 30.0  # the walk counted from a place with no route on the board
HORIZON = 16  # actions a rollout plays before the position is scored: a few turns each of two


def progress(d: dict[str, Any], seat: int) -> float:
    """`seat`'s points toward opening the chest, from what he knows and carries."""
    pl = d["players"][seat]
    if "stamina" not in pl:  # still rolling up his adventurer: nothing to tell the seats apart
        return 0.0
    if pl["stamina"] <= 0:
        return 0.0
    secret = {"seat": seat, "keys": pl["keys"], "held": pl["know"]["held"],
              "chest": pl["know"]["chest"], "items": pl["items"]}
    smart = Smart({"secret": secret, "players": d["players"], "attempts": d["attempts"],
                   "challenges": d["challenges"]}, [], Rng(0))
    cands = smart.candidates
    if frozenset(d["chest"]) not in cands:  # misled (a rival's bluff): only the facts count
        cands = facts_only(smart)
    mine = carried(pl["items"])
    cover = sum(len(t & mine) for t in cands) / (3 * len(cands))
    narrowed = 1 - log(len(cands)) / log(len(ALL_TRIPLES))
    walk = cost_to("treasure").get(pl["pos"], FAR)
    return (CARRY * cover + NARROW * narrowed - WALK * walk * cover
            + HEALTH * pl["stamina"] / max(pl["stamina0"], 1))


def facts_only(smart: Smart) -> list[frozenset[int]]:
    """The triples a seat's facts allow, without the numbers a rival asked about: what he is
    left with once a bluff he believed is found out (a wrong try at the chest shows it)."""
    secret = smart.secret
    outside = set(secret["keys"]) | {int(n) for n, who in secret["held"].items() if who}
    return smart.consistent(outside, set(secret["chest"])) or ALL_TRIPLES


def evaluate(state: State, seat: int) -> float:
    """`seat`'s estimated share of the win: the further ahead of the others, the more."""
    points = [progress(state.data, s) for s in range(state.seats)]
    best = max(points)
    weights = [exp((p - best) / POINT_SCALE) for p in points]
    return weights[seat] / sum(weights)

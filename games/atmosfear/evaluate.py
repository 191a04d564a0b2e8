"""How an Atmosfear position looks for one seat, for the hard AI's short rollouts
(`games.core.search`): each player's progress to the Well (colours of key held, spare keys, the
Black Key, being inside with a full rack or at the Well itself, or stuck inside without one),
turned into shares of the win. A player whose fear has been read can no longer win.

Within a rollout's few turns, keys only ever go: taking a spare key or staying on the outer track
(duel and Fate stones) shows only its risks. So a spare key is counted (the one a duel or the
Gatekeeper takes instead of a colour still needed), and so is the way back out for a player
inside without every colour, who can collect nothing there.

It reads a sampled state (the decks and others' fears in it are guesses drawn from the seat's
view), never the real game's.
"""
from __future__ import annotations

from math import exp
from typing import Any

from games.core import State

from .engine import COLOURS, WELL, inside

BLACK_KEY = 1.5  # points the Black Key costs: it must be got rid of before the Well
INSIDE = 1.5  # points for standing inside with a key of every colour
AT_WELL = 1.5  # and more for standing at the Well, where the fears are drawn
STUCK_INSIDE = 1.0  # points lost inside without every colour: the way out is back to one's headstone
SPARE = 0.25  # points per key beyond one of each colour: the likely loss in a duel, kept off a colour
POINT_SCALE = 1.0  # a lead of one point is worth e to 1 in the odds
HORIZON = 40  # actions a rollout plays before the position is scored: about a round of three


def progress(d: dict[str, Any], seat: int) -> float | None:
    """`seat`'s points toward winning at the Well; None once it cannot win (its fear read)."""
    if seat not in d["well"]:
        return None
    pl = d["players"][seat]
    colours = len(set(pl["rack"]) & set(COLOURS))
    points = colours + SPARE * (len(pl["rack"]) - colours)
    full = colours == len(COLOURS)
    if d["black_key"]["holder"] == seat:
        points -= BLACK_KEY
    elif full and inside(pl["pos"]):
        points += INSIDE + (AT_WELL if pl["pos"] == WELL else 0.0)
    if not full and inside(pl["pos"]):
        points -= STUCK_INSIDE
    return points


def evaluate(state: State, seat: int) -> float:
    """`seat`'s estimated share of the win against the others still able to win."""
    points = [progress(state.data, s) for s in range(state.seats)]
    alive = [p for p in points if p is not None]
    mine = points[seat]
    if mine is None:
        return 0.0
    best = max(alive)
    return exp((mine - best) / POINT_SCALE) / sum(exp((p - best) / POINT_SCALE) for p in alive)

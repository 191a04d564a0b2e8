"""How an Atmosfear position looks for one seat, for the hard AI's short rollouts
(`games.core.search`): the seat's chance of winning, with the Gatekeeper as one more contender.

Each player still able to win (its fear unread) has points toward the Well: a point per colour
of key held, a part of one per spare key, less for the Black Key or a Black Hole; with every
colour, more the fewer fears wait in the Well (each read there draws one of them), and a little
for each step nearer it. The Gatekeeper's strength grows as the clock runs down. The win is
shared as a race among them all: a contender's odds are e to the power of its points over SCALE
(the Gatekeeper's, GK_BASE less GK_PER_MINUTE a minute left), so the clock's share is the chance
nobody escapes in time, and a seat's is its part of the rest.

Fitted (a simplex search over the constants, minimising each seat's log loss: did it win) to
19,521 positions of 600 smart three-player games on the 40-minute clock (every 15th decision,
the clock read at the last action; half to fit, half to test): log loss 0.41, where the shares
among the players alone scored 0.84, rating a seat above 90% in positions it went on to win 33%
of the time (the Gatekeeper takes about 45% of games), so every rollout looked decided. Now a
seat rated 30-40% wins 39%, 10-20% wins 16%. Standing at the Well or inside earns no bonus of
its own (a fit with one did no better): with one, a rollout that read a wrong fear and went home
scored below one that had not yet arrived, and the search chose the long way round. The Black
Key and a dead end inside got next to no weight in the fit (who holds the Black Key is no sign of
who wins) and keep a point's cost here (the loss unchanged to 0.001), as a search must not think
them harmless.

It reads a sampled state (the decks and others' racks and fears in it are guesses drawn from the
seat's view), never the real game's.
"""
from __future__ import annotations

from math import exp
from typing import Any

from games.core import State

from .engine import COLOURS, inside
from .hard import steps_to_well

SPARE = 0.75  # points per key beyond one of each colour: cover against a duel's or an order's loss
BLACK_KEY = 1.0  # points the Black Key costs: it must be got rid of before the Well
HOLE = 1.5  # points a Black Hole costs: turns lost
WELL_ODDS = 14.0  # points, with every colour, per 6/(fears in the Well): each read draws one of them
STEP = 0.08  # points per step to the Well, with every colour
STUCK_INSIDE = 1.0  # points lost inside without every colour: the way out is back to one's headstone
SCALE = 8.0  # a lead of SCALE points is worth e to 1 in the odds: a game of dice, hardly decided early
GK_BASE = 3.8  # the Gatekeeper's points (in SCALE's units: his log-odds) with the clock run out
GK_PER_MINUTE = 0.08  # his log-odds lost per minute left on the clock
HORIZON = 40  # actions a rollout plays before the position is scored: about a round of three


def progress(d: dict[str, Any], seat: int) -> float | None:
    """`seat`'s points toward winning at the Well; None once it cannot win (its fear read)."""
    if seat not in d["well"]:
        return None
    pl = d["players"][seat]
    colours = len(set(pl["rack"]) & set(COLOURS))
    points = colours + SPARE * (len(pl["rack"]) - colours) - (HOLE if pl["hole"] else 0.0)
    full = colours == len(COLOURS)
    if d["black_key"]["holder"] == seat:
        points -= BLACK_KEY
    elif full:
        points += WELL_ODDS * len(COLOURS) / len(d["well"]) - STEP * steps_to_well(pl["pos"])
    if not full and inside(pl["pos"]):
        points -= STUCK_INSIDE
    return points


def minutes_left(state: State) -> float:
    """Minutes on the clock at the state's last action (the whole clock before it starts)."""
    d = state.data
    clock = d["clock"]
    if clock["end"] is None or "now" not in d:
        return float(clock["minutes"])
    return max(clock["end"] - d["now"], 0.0) / 60


def evaluate(state: State, seat: int) -> float:
    """`seat`'s estimated chance to win, against the others still able to and the clock."""
    points = [progress(state.data, s) for s in range(state.seats)]
    mine = points[seat]
    if mine is None:
        return 0.0
    odds = [p / SCALE for p in points if p is not None]
    clock = GK_BASE - GK_PER_MINUTE * minutes_left(state)
    top = max(*odds, clock)
    return exp(mine / SCALE - top) / (sum(exp(o - top) for o in odds) + exp(clock - top))

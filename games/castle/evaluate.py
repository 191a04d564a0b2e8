"""How a Keys to the Castle position looks for one seat, for the hard AI's short rollouts
(`games.core.search`): a race, so each player's rough turns still to pay to reach the far edge
(the smart AI's route planner, with that player's hand), turned into shares of the win.

A lead of a turn counts for less the longer the race still is: the odds are e to 1 for a lead
of TURN_SCALE + SCALE_PER_TURN turns per turn the leader still has to pay. Fitted to 10,000
positions of smart self-play (log loss 0.57, where a turn a unit scored 0.89: it rated a seat
above 90% in positions that seat went on to win 77% of the time, so rollouts that ended a turn
or two apart all looked decided, and the search could not tell their plays apart).

It reads a sampled state (every hand in it is a guess drawn from the seat's view), never the
real game's.
"""
from __future__ import annotations

from math import exp

from games.core import State

from .ai import Board
from .engine import door_seen

TURN_SCALE = 1.0  # a lead of this many turns is worth e to 1 in the odds at the finish
SCALE_PER_TURN = 0.5  # and this many more per turn the leader still has to pay
TO_MOVE_EDGE = 0.5  # the player whose turn it is is half a turn ahead
FAR = 50.0  # the turns counted for a player with no way through
HORIZON = 8  # actions a rollout plays before the position is scored: two turns each of two


def turns_to_win(state: State) -> list[float]:
    """Per seat, the rough turns still to pay to reach the far edge, the turns it must stay
    netted and the edge of moving next counted in."""
    d = state.data
    seats = [(pl["side"], pl["pos"], pl["netted"], tuple(pl["bonuses_used"])) for pl in d["players"]]
    board = Board({"rows": d["rows"], "cols": d["cols"], "passages": d["passages"],
                   "doors": [door_seen(t) for t in d["tiles"]], "seats": seats})
    out = []
    for seat, pl in enumerate(d["players"]):
        node = board.node(seat)
        dist = board.dist_to_goal(seat, board.costs(seat, pl["hand"]), stop=node)
        out.append(min(dist[node], FAR) + pl["netted"] - (TO_MOVE_EDGE if d["current"] == seat else 0.0))
    return out


def evaluate(state: State, seat: int) -> float:
    """`seat`'s estimated share of the win: the shorter its race against the others', the more."""
    turns = turns_to_win(state)
    least = min(turns)
    scale = TURN_SCALE + SCALE_PER_TURN * max(least, 0.0)
    weights = [exp(-(t - least) / scale) for t in turns]
    return weights[seat] / sum(weights)

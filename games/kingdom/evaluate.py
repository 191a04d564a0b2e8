"""How a Key to the Kingdom position looks for one seat, for the hard AI's short rollouts
(`games.core.search`): each adventurer's expected turns to escape (reach the Key, another Treasure,
then the Gate, priced by the smart AI's route costs for the equipment it carries), turned into
shares of the win.

It reads a sampled state (where the Key lies in it is a guess drawn from the seat's view), never
the real game's.
"""
from __future__ import annotations

from math import exp
from typing import Any

from games.core import State

from .ai import FIGHT, cost, kit_of
from .board import BOARD

TURN_SCALE = 2.0  # a lead of two turns is worth e to 1 in the odds
STEAL = 8.0  # turns to catch a rival on the move and rob the Key from its holders: seldom done
STUCK = 3.0  # turns to get out of the Demon King's dungeon or a folded panel's hole, onto the Gate
LOST = 2.5  # turns to have the Wizard hand back the lost Treasure
FAR = 60.0  # the turns counted for an adventurer with no way there
HORIZON = 40  # actions a rollout plays before the position is scored: long enough to settle a fight


def turns_to_escape(d: dict[str, Any], seat: int) -> float:
    """`seat`'s expected turns to stand on the Gate with the Key and another Treasure, by the
    cheapest order: the Key (where the sampled state puts it), a Treasure if it has none, the Gate."""
    pl = d["players"][seat]
    kit, fold, hand = kit_of(pl["equip"]), d["fold"], pl["hand"]

    def leg(start: str | None, target: str) -> float:
        if start is None:  # held in a dungeon or hole: out onto the Gate, a few turns on
            return min(STUCK + cost(BOARD.start, fold, target, kit), FAR)
        return min(cost(start, fold, target, kit), FAR)
    full = [loc for loc, t in d["locations"].items() if t is not None]
    others = [t for t in hand if t != "key"]

    def then_treasure(start: str | None, key_at: str | None = None) -> float:
        """From `start` on: another Treasure if it still needs one (not the Key's Location's),
        then the Gate."""
        if others:
            return leg(start, BOARD.start)
        return min((leg(start, loc) + FIGHT + leg(loc, BOARD.start) for loc in full if loc != key_at),
                   default=FAR)
    if "key" in hand:
        return then_treasure(pl["at"])
    key_at = next((loc for loc, t in d["locations"].items() if t == "key"), None)
    if key_at is not None:
        return leg(pl["at"], key_at) + FIGHT + then_treasure(key_at, key_at)
    holder = next((o for o in d["players"] if "key" in o["hand"]), None)
    if holder is not None:
        return leg(pl["at"], holder["at"] or BOARD.start) + STEAL + then_treasure(holder["at"])
    return leg(pl["at"], "ring") + LOST + then_treasure("ring")


def evaluate(state: State, seat: int) -> float:
    """`seat`'s estimated share of the win: the fewer turns it needs against the others', the more."""
    turns = [turns_to_escape(state.data, s) for s in range(state.seats)]
    least = min(turns)
    weights = [exp(-(t - least) / TURN_SCALE) for t in turns]
    return weights[seat] / sum(weights)

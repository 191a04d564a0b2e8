"""What the opponent's last step says about its hand, for the hard AI's sampler (`sample.py`).

A seat's view keeps no history, but it shows the last action: when the player before this seat
ended its turn with a step (or by staying), the view gives where it stood before and where it
stands now, on a board no later action has changed, and its hand has not changed since. An
opponent played by the smart policy picks that step from its hand (keys make closed doors of
their colour cheap on its route), and it takes a winning play whenever its hand holds one; a
hand under which it would have stepped elsewhere, or won, is unlikely. `Belief.weight` says how
likely, for each hand the sampler deals, and the sampler keeps hands in proportion.

It reads the view only: what the seat saw, never the state. It asks the smart policy's own
step and win finders (`ai._move`, `ai._winning_plays`), so the opponent it pictures is the
policy the rollouts play.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import GAME
from .ai import _move, _winning_plays, Plan, PLAY_MARGIN, STEP_MARGIN, moves_on

MISS = 0.05  # the weight of a hand under which smart would not have made the step seen: the
# picture of that turn is rebuilt (which door the player came back in by is not in the view)
WON = 0.05  # and of one that held a winning play the player did not take


class Recorder:
    """Stands in for the smart policy's dice: takes the first of the ties and keeps them all, so
    a step's likelihood is one over the ties it was among."""

    def __init__(self) -> None:
        self.ties: Sequence[str] = ()

    def choice(self, options: Sequence[str]) -> str:
        self.ties = options
        return options[0]


class Belief:
    """The opponent's last step, as its turn saw it: the seat, where it stood, the step it took,
    and the board then (its compact view, the hand left blank)."""

    def __init__(self, view: dict[str, Any], opponent: int, before: str | None, step: str) -> None:
        self.opponent, self.step = opponent, step
        seats = [(pl["side"], pl["pos"], pl["netted"], tuple(pl["bonuses_used"])) for pl in view["players"]]
        side, _, netted, used = seats[opponent]
        seats[opponent] = (side, before, netted, used)
        self.board = {"rows": view["rows"], "cols": view["cols"], "passages": view["passages"],
                      "doors": [(t["colour"], t["open"], t["face"], t["padlock"], t["hacksaw"])
                                for t in view["tiles"]],
                      "seats": seats}
        self.data = {"rows": view["rows"], "cols": view["cols"], "tiles": [
            {"colour": t["colour"], "face": t["face"], "open": t["open"], "revealed": t["face"] is not None,
             "padlock": t["padlock"], "hacksaw": t["hacksaw"]} for t in view["tiles"]],
            "passages": view["passages"],
            "players": [{"side": s[0], "pos": s[1], "netted": s[2], "bonuses_used": list(s[3]),
                         "left_by": None, "hand": []} for s in seats]}
        self.weights: dict[tuple[str, ...], float] = {}

    def weight(self, hand: list[str]) -> float:
        """How likely smart, holding `hand`, would have made the step seen (and no winning play)."""
        key = tuple(sorted(hand))
        known = self.weights.get(key)
        if known is None:
            known = self.weights[key] = self._weight(list(key))
        return known

    def _weight(self, hand: list[str]) -> float:
        opponent = self.opponent
        self.data["players"][opponent]["hand"] = hand
        steps = [c.action for c in GAME.legal_moves(self.data, opponent)]
        if self.step not in steps:
            return 1.0  # a board this picture cannot rebuild: no evidence
        seen = {**self.board, "hand": hand}
        dice = Recorder()
        _move(Plan({**seen, "phase": "move"}, opponent, STEP_MARGIN), steps, dice)
        weight = 1.0 / len(dice.ties) if self.step in dice.ties else MISS
        plays = [c.action for c in GAME.legal_plays(self.data, opponent)]
        plan = Plan({**seen, "phase": "play"}, opponent, PLAY_MARGIN)
        split = moves_on(plan.board.geo)
        if _winning_plays(plan, plays, [split[a] for a in plays]):
            weight *= WON
        return weight


def last_step(view: dict[str, Any], seat: int) -> Belief | None:
    """The belief the view supports: when the seat is about to play its card and the player
    before it ended its turn with a step, out or in, or by staying free, that step; else None
    (an Extra Key's door, a netted player's forced stay, this seat's own extra turn)."""
    last = view["last"]
    if view["phase"] != "play" or view["current"] != seat or last is None or last["seat"] == seat:
        return None
    opponent = last["seat"]
    pl = view["players"][opponent]
    tiles, pos = last["tiles"], pl["pos"]
    if pl["netted"] or view["discard_top"] == "net":
        return None  # netted at its step (or freed just after it): staying was forced
    standing = None if pos is None else view["tiles"][_index(view, pos)]
    if standing is not None and standing["face"] == "extra_key":
        return None  # its last action may have been the Extra Key's, not a step
    if len(tiles) == 2 and tiles[1] == pos:
        return Belief(view, opponent, tiles[0], f"move {pos}")
    if len(tiles) == 1 and tiles[0] == pos:
        return Belief(view, opponent, None, f"move {pos}")
    if len(tiles) == 1 and pos is None:
        return Belief(view, opponent, tiles[0], "move out")
    if not tiles:
        return Belief(view, opponent, pos, "stay")
    return None


def _index(view: dict[str, Any], name: str) -> int:
    col, row = ord(name[0]) - 65, int(name[1:]) - 1
    return row * view["cols"] + col

"""The hard level's own policy for Key to the Kingdom (its search's base pick and its own moves in
the search's rollouts): the smart AI, racing for the Key and going after it in a rival's hands.

Whoever first takes the Key nearly always wins a two-player game, and where it lies is hidden:
told where, smart wins about 63% against smart; told who holds it, about 55% (bench.kingdom_bounds).
What a fair player can still play for is the Key in a rival's hands:
- it suspects the rival likeliest to hold the Key (every holder it cannot see is as likely to be
  the Key: the rival's holders against the full Key Locations and the lost pile) once that is
  likely enough, and treats it as smart treats one it saw take the Key: chased further, robbed,
  the Demon King sent onto it;
- it robs any rival carrying Treasure within reach, not only once it holds the Key.
Against smart over 3,000 two-player games: robbing adds about two points, the suspicion one more,
robbing farther out and sooner than smart would (REACH, ROB) nearly one more.
Moving the Demon King onto itself when it could escape (the dungeon lets out at the Gate) added
nothing measurable: by then the game is nearly always won.

Until someone takes the Key, the race is won by opening Key Locations sooner, so it wastes no turns:
- it never leaves a Key Location to a rival who is nearer (smart does, to spread out): contested,
  the Location still goes to whoever gets there first, and a yielding rival loses its way;
- it prices the Demon King exactly: the share of the next throw's faces that let a rival bring him
  onto or beside a space, times the turns the dungeon costs (a turn or two out, then the way back
  from the Gate), where smart counts a rough danger near his ground;
- carrying only Treasures other than the Key, it does not go out of its way to keep out of a
  rival's next throw (a rival who robs one gains no Key by it).
Against smart over 3,000 two-player games a change (`python -m bench.kingdom_bounds --modes
policy`), each on top of the one before: not yielding adds about one and a half points, the exact
Demon King about two, not hiding a Treasure that is not the Key about four.

It reads smart's view of its seat, never the state.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import FIGHT, Smart, cost, lost_holders
from .board import BOARD
from .stock import DIE

SUSPECT = 0.34  # chance of holding the Key above which a rival is treated as seen taking it
REACH = 4.0  # turns away a rival carrying Treasure is worth going to rob (smart's Key holder: 2.5)
ROB = 0.5  # extra turns a robbery is thought to cost, under a Key Location's fight (smart's: 1.5)
DUNGEON = 1.5  # turns to get out of the Demon King's dungeon, before the way back from the Gate


def key_odds(view: dict[str, Any], seat: int) -> dict[int, float]:
    """Each rival's chance of holding the Key: every holder the seat cannot see (in a rival's hands,
    at a Key Location, in the lost pile) is as likely to be it."""
    rivals = [o for o in view["players"] if o["seat"] != seat]
    if "key" in (view["hand"] or []):
        return {o["seat"]: 0.0 for o in rivals}
    unseen = sum(o["treasures"] for o in rivals) + sum(view["locations"].values()) + lost_holders(view)
    return {o["seat"]: o["treasures"] / unseen if unseen else 0.0 for o in rivals}


def with_suspect(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """`view`, the rival likeliest to hold the Key written in as the one the seat saw take it
    (when it saw none and the chance is over SUSPECT)."""
    if (view.get("knows") or {}).get("key") is not None:
        return view
    odds = key_odds(view, seat)
    rival = max(odds, key=odds.__getitem__, default=None)
    if rival is None or odds[rival] < SUSPECT:
        return view
    return dict(view, knows={"key": rival})


def on_track(player: dict[str, Any]) -> bool:
    return player["task"] is None and player["spot"] is None and player["at"] is not None


def catch_odds(view: dict[str, Any], seat: int, space: str) -> float:
    """The chance a rival's next throw lets it bring the Demon King onto or beside `space` (it
    moves him before it moves itself, from where he stands now): none on safe ground, nor when no
    rival will throw to move (all in a hazard, a dungeon or a hole)."""
    if space in BOARD.safe or not any(o["seat"] != seat and on_track(o) for o in view["players"]):
        return 0.0
    fold = view["fold"]
    reached = [face for face in range(1, DIE + 1)
               if any(space == to or space in BOARD.neighbours(to, fold)
                      for to in BOARD.demon_moves(fold, view["demon"], face))]
    return len(reached) / DIE


class Hard(Smart):
    """Smart, racing for the Key without yielding, with robberies among its goals while it has
    no Key."""

    def __init__(self, view: dict[str, Any], prompt: Prompt, rng: Rng) -> None:
        super().__init__(view, prompt, rng)
        if self.targets != [(BOARD.start, 0.0)]:  # not yet on its way out
            self.targets = [(t, min(extra, FIGHT)) if view["locations"].get(t) else (t, extra)
                            for t, extra in self.targets] + self.robberies()

    def robberies(self) -> list[tuple[str, float]]:
        """Rivals carrying Treasure within REACH that smart leaves alone (it robs only once it
        holds the Key or saw who took it)."""
        knows = (self.view.get("knows") or {}).get("key")
        if "key" in (self.view["hand"] or []):
            return []
        return [(o["at"], ROB) for o in self.view["players"]
                if o["seat"] not in (self.seat, knows) and o["treasures"] and on_track(o)
                and o["at"] not in BOARD.safe and cost(self.me["at"], self.fold, o["at"], self.kit) <= REACH]

    def demon_risk(self, space: str, hand: list[str]) -> float:
        """The exact odds of a catch on `space` times the turns it costs (the dungeon, then the
        way back from the Gate), in place of smart's rough danger."""
        lost = DUNGEON + max(0.0, self.here_cost(BOARD.start) - self.here_cost(space))
        return catch_odds(self.view, self.seat, space) * lost

    def exposure(self, space: str, hand: list[str]) -> float:
        """Smart's, only while carrying the Key: a rival who robs another Treasure gains no Key."""
        return super().exposure(space, hand) if "key" in hand else 0.0


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    """The hard policy's action, from smart's view of the seat (`ai_view`) and its prompt."""
    actions = [c.action for c in prompt.choices]
    if len(actions) == 1:
        return actions[0]
    return Hard(with_suspect(view, prompt.seat), prompt, rng).decide(actions)

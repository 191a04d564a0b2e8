"""The hard level's own policy for The Warlock of Firetop Mountain (its search's base pick and its
own moves in the search's rollouts): the smart AI, going after the Bunches of Keys a rival carries
and keeping its first Key Challenge from telling the rival anything true.

In a two-player game the chest's numbers are soon known to both (smart narrows them to one triple
by round 11 of 19 in the median game); whoever first carries Bunches of Keys covering them wins.
So the race is for Bunches of Keys, and a rival's rucksack is where half of them end up:
- it attacks a rival carrying any treasure card whenever it likely wins (smart attacks only once
  it hunts: late in the game, the rooms bare, or the rival seen with a number it lacks);
- it walks after such a rival when it likely wins the fight (smart walks after one only once he
  has been seen with a number it lacks, or the rooms are bare);
- its first Key Challenge names one of its own Key cards, a bluff: a lone rival who reads the
  numbers asked about as lying under the chest (as smart does, and a player reasoning alike) then
  counts a wrong number in, and everything asked later with it, until a wrong try at the chest
  or a look at our Key cards shows him. It costs one answer of our own.
Against smart over 2,000 two-player games (players rotating through the seats, seeds 9000 on),
smart's 48% became 52% with the fights, 56% with the bluff as well and 63% with the walks too;
over 3,000 more (seeds 20000 on, where smart against smart won 49%) the policy won 65%.
Bluffing twice gave the bluff's gain back (51%); fleeing a duel sooner or later, and trying the
chest with a thinner or a surer guess, moved nothing measurable.

It reads smart's view of its seat, never the state.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import Smart
from .board import BOARD

FIGHT_ODDS = 0.5  # chance of winning a duel above which a rival carrying treasure is attacked
CHASE_ODDS = 0.6  # chance of winning a duel above which such a rival is walked after
CHASE = 20.0  # a rival's worth as a target (as a room's in smart's targets), for a Bunch we can use


class Hard(Smart):
    """Smart, fighting for a rival's rucksack whenever the odds favour it."""

    def win_odds(self, other: dict[str, Any]) -> float:
        return self.foe_strength(self.fighting_skill(other), other["stamina"])

    def pick_fight(self) -> str | None:
        """The likeliest won fight against a rival carrying a treasure card, or smart's pick."""
        fights = []
        for action in self.by_verb.get("fight", []):
            other = next(q for q in self.view["players"] if q["colour"] == action.split()[1])
            if other["treasures"]:
                fights.append((self.win_odds(other), action))
        odds, action = max(fights, default=(0.0, None))
        return action if odds > FIGHT_ODDS else super().pick_fight()

    def targets(self) -> list[tuple[str, float]]:
        """Smart's targets, and, while we lack a number, every rival carrying treasure we likely
        beat, worth as much as the Bunches of Keys we can use he likely carries."""
        out = super().targets()
        if not self.needed():
            return out
        for other in self.rivals():
            if other["treasures"] and self.robbable(other) and other["pos"] in BOARD.adj \
                    and other["pos"] not in BOARD.passages and self.win_odds(other) > CHASE_ODDS:
                out.append((other["pos"], CHASE * min(1.0, self.keys_on(other))))
        return out


def first_challenge(view: dict[str, Any]) -> bool:
    """The seat has made no Key Challenge yet and holds a Key card to bluff with."""
    secret = view["secret"]
    return bool(secret["keys"]) and not any(c["seat"] == secret["seat"] for c in view["challenges"])


def bluff(view: dict[str, Any], action: str, rng: Rng) -> str:
    """`action`, or, for the seat's first Key Challenge, one naming a Key card of its own."""
    if not action.startswith("challenge") or not first_challenge(view):
        return action
    return f"challenge {rng.choice(view['secret']['keys'])}"


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    """The hard policy's action, from smart's view of the seat (`ai_view`) and its prompt."""
    actions = [c.action for c in prompt.choices]
    if len(actions) == 1:
        return actions[0]
    return bluff(view, Hard(view, actions, rng).decide(), rng)

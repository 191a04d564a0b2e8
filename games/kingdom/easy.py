"""The "easy" AI for Key to the Kingdom: a new adventurer who counts spaces and hopes.

It is the smart AI (`ai.Smart`) with a beginner's habits. It counts its way in spaces, a hazard
as one more space whatever it costs, and takes any throw that brings it nearer rather than the
best one; it heads for the nearest Key Location still holding Treasure (racing a rival who is
nearer), stops for equipment at supply spaces while it carries little, and wants a third
Treasure before heading home with the Key. It never chases nor robs a rival, will not fight a
monster without a sword, an axe or fire, rolls rather than cross a hazard, takes a hazard's
first way out rather than the likeliest, walks where the Demon King can reach it, sends him
anywhere but at itself, and lets every fold happen unless it would fall with its own panel.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import Prompt, Rng

from .ai import Smart, fold_key
from .board import BOARD

UNSEEN = 1000  # no goal in the fold the board shows: beyond any count of spaces
FIGHTS_WITH = frozenset({"sword", "axe", "fire"})  # what it wants in hand to face a monster
SHOPS_BELOW = 4  # it stops for equipment while it carries fewer pieces than this
SUPPLY = tuple(space for space, info in BOARD.spaces.items() if info.kind == "supply")


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    actions = [c.action for c in prompt.choices]
    if len(actions) == 1:
        return actions[0]
    return Beginner(view, prompt, rng).decide(actions)


def beginners_goals(view: dict[str, Any], seat: int) -> list[tuple[str, float]]:
    """Where a beginner goes: home once it holds the Key and two more Treasures; else any Key
    Location still holding Treasure (home, with the Key and one more, once none does), and the
    supply spaces while it carries little; else the Ring of Stones."""
    hand = view["hand"] or []
    with_key = "key" in hand and len(hand) >= 2
    if with_key and len(hand) >= 3:
        return [(BOARD.start, 0.0)]
    goals = [(loc, 0.0) for loc, full in view["locations"].items() if full]
    if not goals:
        return [(BOARD.start if with_key else "ring", 0.0)]
    if len(view["players"][seat]["equip"]) < SHOPS_BELOW:
        goals += [(space, 0.0) for space in SUPPLY]
    return goals


@lru_cache(maxsize=512)
def naive_steps(fk: tuple[str, str], target: str) -> dict[str, int]:
    """Spaces from each space to `target` in fold `fk`, crossing a hazard as if it were one more
    space (a beginner counts the way, not what the way costs)."""
    fold = {"west": fk[0], "east": fk[1]}
    if not BOARD.present(target, fold):
        return {}
    dist, frontier = {target: 0}, [target]
    while frontier:
        following = []
        for node in frontier:
            for nb in (*BOARD.neighbours(node, fold),
                       *(BOARD.far_end(hz, node) for hz in BOARD.hazards_at(node))):
                if nb not in dist and BOARD.present(nb, fold):
                    dist[nb] = dist[node] + 1
                    following.append(nb)
        frontier = following
    return dist


class Beginner(Smart):
    def __init__(self, view: dict[str, Any], prompt: Prompt, rng: Rng) -> None:
        super().__init__(view, prompt, rng)
        self.targets = beginners_goals(view, self.seat)

    def decide(self, actions: list[str]) -> str:
        verbs = {a.split()[0] for a in actions}
        if verbs <= {"steal", "leave"} and "leave" in actions:
            return "leave"
        if verbs <= {"move", "stay"} and self.view["phase"] != "fold":
            return self.nearer(actions)
        return super().decide(actions)

    def nearer(self, actions: list[str]) -> str:
        """Any move that brings it nearer its goal by its count (it does not weigh them
        against each other); the best by that count when none does."""
        here = self.count(self.me["at"]) if self.me["at"] is not None else UNSEEN
        closer = [a for a in actions if a != "stay" and self.count(a.split()[1]) < here]
        if closer:
            return closer[self.rng.below(len(closer))]
        return min(actions, key=self.move_score)

    def count(self, space: str) -> float:
        """Spaces from `space` to the nearest goal in the fold the board shows now."""
        fk = fold_key(self.fold)
        return min(naive_steps(fk, target).get(space, UNSEEN) for target, _ in self.targets)

    def move_score(self, action: str) -> float:
        """Its count; where no goal shows in this fold, the smart AI's route (a Whirlpool's)."""
        if action == "stay":
            return 50.0
        steps = self.count(action.split()[1])
        return steps if steps < UNSEEN else UNSEEN + super().move_score(action)

    def demon_score(self, action: str) -> float:
        space = action.split()[1]
        near = set(BOARD.neighbours(space, self.fold)) | {space}
        return -50.0 if self.me["at"] in near else self.rng.below(100)

    def deep(self) -> str:
        job = self.view["fold_job"] or {}
        at = self.me["at"]
        mine = self.me["spot"] is None and at is not None and BOARD.panel_of(at) == job.get("panel")
        return "deep" if mine else "let"

    def use(self, actions: list[str]) -> str:
        task = self.me["task"]
        if self.view.get("monster") and task and task["hazard"] == "fight":
            return super().use(actions)  # the monster card says what it fears
        return actions[0]

    def act(self, actions: list[str]) -> str:
        if "fight" in actions and FIGHTS_WITH & set(self.me["equip"]):
            return "fight"
        if "roll" in actions:
            return "roll"
        return super().act(actions)

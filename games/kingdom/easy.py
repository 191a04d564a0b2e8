"""The "easy" AI for Key to the Kingdom: a new adventurer who heads for the nearest Treasure.

It is the smart AI (`ai.Smart`) with a beginner's blind spots: it counts spaces along the track
to the nearest Key Location still holding Treasure (no shortcut across a hazard or through a
Whirlpool, and it races a rival who is nearer), never chases a rival carrying Treasure, walks
where the Demon King or a rival can reach it, sends the Demon King anywhere but at itself, lets
every fold happen unless it would fall with its own panel, rolls rather than cross a hazard, and
takes a hazard's first way out rather than the likeliest.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import Smart, dist_from, fold_key
from .board import BOARD


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    actions = [c.action for c in prompt.choices]
    if len(actions) == 1:
        return actions[0]
    return Beginner(view, prompt, rng).decide(actions)


def nearest_treasures(view: dict[str, Any], seat: int) -> list[tuple[str, float]]:
    """Where a beginner goes: home once it holds the Key and another Treasure, else any Key
    Location still holding Treasure, else the Ring of Stones."""
    hand = view["hand"] or []
    if "key" in hand and len(hand) >= 2:
        return [(BOARD.start, 0.0)]
    return [(loc, 0.0) for loc, full in view["locations"].items() if full] or [("ring", 0.0)]


class Beginner(Smart):
    def __init__(self, view: dict[str, Any], prompt: Prompt, rng: Rng) -> None:
        super().__init__(view, prompt, rng)
        self.targets = nearest_treasures(view, self.seat)

    def move_score(self, action: str) -> float:
        """Spaces along the track to the nearest goal, in the fold the board shows now."""
        if action == "stay":
            return 50.0
        space = action.split()[1]
        fk = fold_key(self.fold)
        return min(dist_from(fk, target).get(space, 99) for target, _ in self.targets)

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
        if "fight" in actions:
            return "fight"
        if "roll" in actions:
            return "roll"
        return super().act(actions)

"""The "easy" AI for The Warlock of Firetop Mountain: a new adventurer who explores and hopes.

It is the smart AI (`ai.Smart`) with a beginner's habits: it never makes a Key Challenge and
works nothing out from others' tries at the chest, walks into any room whatever waits there and
fights every battle to the end, never goes after another adventurer's keys, forgets the Study,
the spring and the secret passages, buys the first thing it can pay for, and never confers.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import ALL_TRIPLES, Smart
from .board import BOARD


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    actions = [c.action for c in prompt.choices]
    if len(actions) == 1:
        return actions[0]
    return Beginner(view, actions, rng).decide()


class Beginner(Smart):
    @property
    def candidates(self) -> list[frozenset[int]]:
        """The chest's possible keys as a beginner keeps track: the Key cards it holds or saw
        held ruled out, but nothing worked out from others' tries at the chest."""
        if not hasattr(self, "_cands"):
            out = {int(n) for n, who in self.secret["held"].items() if who} | set(self.secret["keys"])
            chest = set(self.secret["chest"])
            self._cands = [t for t in ALL_TRIPLES if not t & out and chest <= t] \
                or [t for t in ALL_TRIPLES if not t & set(self.secret["keys"])]
        return self._cands

    def challenge(self) -> str | None:
        return None

    def danger(self, node: str) -> float:
        """Only a room it is barred from holds it back: a waiting monster does not."""
        room = self.view["rooms"].get(node)
        return 50.0 if room is not None and room["barred"] == self.seat else 0.0

    def nerve(self) -> float:
        return 1.0

    def hunting(self) -> bool:
        return False

    def should_escape(self) -> bool:
        return False

    def should_escape_duel(self) -> bool:
        return False

    def losing_duel(self) -> bool:
        return False

    def shop(self) -> str:
        return next(iter(self.by_verb.get("buy", [])), "pass")

    def targets(self) -> list[tuple[str, float]]:
        return [(where, value) for where, value in super().targets() if where not in ("study", "spring")]

    def start(self) -> str:
        self.by_verb.pop("confer", None)
        if "move" in self.by_verb:  # the ways it knows: not through a secret passage
            self.by_verb["move"] = [a for a in self.by_verb["move"] if a.split()[1] not in BOARD.passages]
        return super().start()

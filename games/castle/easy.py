"""The "easy" AI for Keys to the Castle: a new player racing for their own far wall.

It plans its route as the smart AI does (`ai.choose` on a narrower prompt) but never plays
against anyone: no Net, no Padlock, no key closing a door in a rival's way, even when the next
player is one step from winning. It only ever opens its own way, so a rival's route stays clear.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import LOCK, OPEN, TURN_KEY, TURN_SKELETON, choose as smart_choose, moves_on
from .engine import geometry


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    if not view or view["phase"] == "move":  # one choice, or a step: it walks as well as anyone
        return smart_choose(view, prompt, rng, "smart")
    moves = moves_on(geometry(view["rows"], view["cols"]))
    doors = view["doors"]

    def friendly(action: str) -> bool:
        verb, card, target, _, _, kind = moves[action]
        if verb == "bonus":
            return card == "skip" or not doors[target][OPEN]
        if kind in (TURN_KEY, TURN_SKELETON):
            return not doors[target][OPEN]
        return kind != LOCK and card != "net"

    kept = [c for c in prompt.choices if friendly(c.action)] or prompt.choices
    return smart_choose(view, Prompt(prompt.seat, prompt.text, kept, prompt.private), rng, "smart")

"""The "easy" AI for Atmosfear: a new player who answers the Gatekeeper and walks the long way.

It reads the smart AI's compact view (`ai.compact_view`) and plays as the smart AI (`ai.choose`)
except where a beginner has not yet learnt the game: it keeps the cursed Black Key rather than
pass it on, stays inside hoping when it cannot win there yet, rolls one die as often as two,
always turns clockwise round the Inner Ring, challenges the first player it may rather than the
one showing most keys, and never uses a Flight stone.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import choose as smart_choose


def choose(view: Any, prompt: Prompt, rng: Rng) -> str:
    kind, answer, _ = view
    actions = [c.action for c in prompt.choices]
    if kind == "answer" and answer is not None and answer.startswith("pass "):
        keep = [a for a in actions if a == "skip" or a.startswith("roll ")]
        return rng.choice(keep) if keep else answer  # it keeps the Black Key, not seeing the harm
    if kind == "dice":
        return "roll 2" if rng.below(2) else "roll 1"
    if kind == "ring":
        return "cw"
    if kind == "duel":
        return next(a for a in actions if a.startswith("duel "))
    if kind == "leave":  # it stays inside, hoping, when it cannot win there yet
        return answer or ("roll 2" if rng.below(2) else "roll 1")
    if kind == "flight":
        return "skip" if "skip" in actions else actions[0]
    return smart_choose(view, prompt, rng, "smart")

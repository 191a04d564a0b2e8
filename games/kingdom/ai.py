"""AI players for Key to the Kingdom (placeholder: random legal choices)."""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    actions = [c.action for c in prompt.choices]
    return actions[rng.below(len(actions))]

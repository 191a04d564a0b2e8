"""AI players for The Warlock of Firetop Mountain (placeholder: random legal choices)."""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    return prompt.choices[rng.below(len(prompt.choices))].action

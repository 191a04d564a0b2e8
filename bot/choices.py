"""Walking a prompt's multi-step choices (card, then target) by index paths.

Button custom_ids carry a path of indices ("2.0") instead of action text: short, within Discord's
100 characters, and meaningless without the game's current prompt, so they leak nothing. An index
is always the engine's (options in the order the prompt first names them), whatever order the
panel shows them in (`bot.order`), so a click on an older panel means what it meant.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.core import Choice, Step


@dataclass
class Position:
    """Where a path leads: either the options at the next step, or one complete choice."""

    path: list[int]
    trail: list[Step]  # the steps chosen so far
    options: list[Step]  # distinct options at the next step (empty when complete)
    complete: Choice | None
    remaining: list[Choice]  # the choices the path still allows


def parse_path(text: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.split(".")]
    except ValueError:
        raise ValueError(f"bad path {text!r}") from None


def format_path(path: list[int]) -> str:
    return ".".join(str(i) for i in path)


def _distinct(choices: list[Choice], depth: int) -> list[Step]:
    seen: dict[str, Step] = {}
    for choice in choices:
        if len(choice.path) > depth:
            seen.setdefault(choice.path[depth].key, choice.path[depth])
    return list(seen.values())


def walk(choices: list[Choice], path: list[int]) -> Position:
    """Follow `path`; raise IndexError when it no longer fits the choices (a stale panel)."""
    remaining = choices
    trail: list[Step] = []
    for depth, index in enumerate(path):
        steps = _distinct(remaining, depth)
        if not 0 <= index < len(steps):
            raise IndexError("path does not fit the choices")
        step = steps[index]
        trail.append(step)
        remaining = [c for c in remaining if len(c.path) > depth and c.path[depth].key == step.key]
        done = [c for c in remaining if len(c.path) == depth + 1]
        if done and len(remaining) == 1:
            return Position(list(path[: depth + 1]), trail, [], done[0], remaining)
    return Position(list(path), trail, _distinct(remaining, len(path)), None, remaining)

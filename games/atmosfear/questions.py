"""The question a list of choices asks Atmosfear's smart AI (`situation`).

The engine builds the smart AI's compact view from it (`AtmosfearGame.ai_view`, and the
questions of its prebuilt prompts once at import), and the AI reads the same question back
from the view it is given. It lives apart from both so neither imports the other.
"""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def situation(actions: tuple[str, ...]) -> tuple[str, str | None]:
    """What the smart AI's choice among `actions` turns on, worked out once per list of choices
    (the same few come back all game): ("answer", action) when the actions alone decide, else
    the question it weighs (with the facts of its view, see FACTS) and the one roll offered, if one."""
    if len(actions) == 1:
        return "answer", actions[0]
    passes = [a for a in actions if a.startswith("pass ")]
    if passes:
        return "answer", passes[0]
    if "take" in actions:
        return "answer", "take"
    if "inside" in actions:
        return "inside", None
    if "cw" in actions:
        return "ring", None
    if any(a.startswith("duel ") for a in actions):
        return "duel", None
    if any(a.startswith("fly ") for a in actions):
        return "flight", None
    rolls = [a for a in actions if a.startswith("roll ")]
    if rolls:
        one = rolls[0] if len(rolls) == 1 else None
        if "leave" in actions:
            return "leave", one
        return ("answer", one) if one else ("dice", None)
    return "any", None

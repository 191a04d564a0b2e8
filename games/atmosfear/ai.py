"""AI players for Atmosfear, deciding from their seat's view and prompt alone.

"random" picks uniformly among the legal choices (and a fear from data/atmosfear/fears.toml).
"smart" always answers the Gatekeeper, mostly rolls two dice, takes every key, heads inside only
with a key of every colour, steers round the Inner Ring the short way to the Well, duels whoever
shows the most keys, flies toward realms whose colour it lacks, and gets rid of the Black Key.
Everything it reads is in the seat's view: its own rack and fear, and public counts.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .engine import AI_FEARS, COLOURS, FLIGHTS, INNER, N_OUTER, OUTER, outer_index


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    actions = [c.action for c in prompt.choices]
    if actions == ["fear"]:
        return "fear " + rng.choice(AI_FEARS)
    if level != "smart":
        return rng.choice(actions)
    if len(actions) == 1:
        return actions[0]
    passes = [a for a in actions if a.startswith("pass ")]
    if passes:
        return passes[0]
    seat = prompt.seat
    if "take" in actions:
        return "take"
    if "inside" in actions:
        return "inside" if can_win(view, seat) else "outside"
    if "cw" in actions:
        pos = view["players"][seat]["pos"]
        i = INNER.index(pos) if pos in INNER else 0
        return "cw" if (len(INNER) - i) % len(INNER) <= i else "ccw"
    if any(a.startswith("duel ") for a in actions):
        return strongest_duel(view, actions)
    if any(a.startswith("fly ") for a in actions):
        return best_flight(view, view["players"][seat]["pos"], actions)
    rolls = [a for a in actions if a.startswith("roll ")]
    if rolls:
        if "leave" in actions and not can_win(view, seat):
            return "leave"
        if len(rolls) == 1:
            return rolls[0]
        return "roll 2" if rng.below(10) < 8 else "roll 1"
    return rng.choice(actions)


def reads_view(actions: list[str]) -> bool:
    """Does the smart AI look at its view to choose among `actions`? Only to weigh going inside,
    the way round the Inner Ring, a duel, a flight or leaving the Well: the rest it answers from
    the actions alone, so the engine need not build the view for them (`ai_view`)."""
    if len(actions) == 1 or "take" in actions or any(a.startswith("pass ") for a in actions):
        return False
    return ("inside" in actions or "cw" in actions or "leave" in actions
            or any(a.startswith(("duel ", "fly ")) for a in actions))


def can_win(view: dict[str, Any], seat: int) -> bool:
    """A key of every colour, no Black Key, and one's own fear still in the Well."""
    rack = view["rack"]
    return (all(rack.get(c) for c in COLOURS) and view["black_key"]["holder"] != seat
            and view["fear"]["in_well"])


def strongest_duel(view: dict[str, Any], actions: list[str]) -> str:
    """Duel whoever shows the most keys (the Black Key counts: it may be the one drawn)."""
    def shown(action: str) -> tuple[int, str]:
        other = view["players"][int(action.split()[1]) - 1]
        return other["keys"] + other["black_key"], action
    return max((a for a in actions if a.startswith("duel ")), key=shown)


def best_flight(view: dict[str, Any], here_stone: str, actions: list[str]) -> str:
    """Fly where the next dozen stones hold the most key stones of missing, available colours."""
    missing = {c for c in COLOURS if not view["rack"].get(c)}
    left = [r["keys_left"] for r in view["realms"]]
    here = outer_index(here_stone)
    best, score = "skip", 0
    for f in FLIGHTS:
        if f"fly {f}" not in actions:
            continue
        i = outer_index(f)
        ahead = [OUTER[(i + k) % N_OUTER] for k in range(1, 13)]
        s = sum(1 for st in ahead if st["kind"] == "key" and st["colour"] in missing and left[st["realm"]] > 0)
        if s > score and (i - here) % N_OUTER != 0:
            best, score = f"fly {f}", s
    return best

"""AI players for Atmosfear, deciding from their seat's view and prompt alone.

"random" picks uniformly among the legal choices (and a fear from data/atmosfear/fears.toml).
"smart" always answers the Gatekeeper, mostly rolls two dice, takes every key, heads inside only
with a key of every colour, steers round the Inner Ring the short way to the Well, duels whoever
shows the most keys, flies toward realms whose colour it lacks, and gets rid of the Black Key.
Everything it reads is in the seat's view: its own rack and fear, and public counts.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import Prompt, Rng

from .engine import AI_FEARS, COLOURS, FLIGHTS, INNER, N_OUTER, OUTER, outer_index


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    actions = [c.action for c in prompt.choices]
    if actions == ["fear"]:
        return "fear " + rng.choice(AI_FEARS)
    if level != "smart":
        return rng.choice(actions)
    kind, answer = situation(tuple(actions))
    if kind == "answer":
        return answer
    seat = prompt.seat
    if kind == "inside":
        return "inside" if can_win(view, seat) else "outside"
    if kind == "ring":
        pos = view["players"][seat]["pos"]
        i = INNER.index(pos) if pos in INNER else 0
        return "cw" if (len(INNER) - i) % len(INNER) <= i else "ccw"
    if kind == "duel":
        return strongest_duel(view, actions)
    if kind == "flight":
        return best_flight(view, view["players"][seat]["pos"], actions)
    if kind == "leave" and not can_win(view, seat):
        return "leave"
    if kind in ("leave", "dice"):
        return answer or ("roll 2" if rng.below(10) < 8 else "roll 1")
    return rng.choice(actions)


@lru_cache(maxsize=4096)
def situation(actions: tuple[str, ...]) -> tuple[str, str | None]:
    """What the smart AI's choice among `actions` turns on, worked out once per list of choices
    (the same few come back all game): ("answer", action) when the actions alone decide, else
    the question it weighs (with its view, see VIEW_KEYS) and the one roll offered, if one."""
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


WIN_KEYS = ("rack", "fear", "black_key")  # what `can_win` reads
# The keys of its view the smart AI reads, per situation: only to weigh going inside or leaving
# the Well, the way round the Inner Ring, a duel or a flight. The rest it answers from the
# actions alone, so the engine builds no more of the view than this (`ai_view`).
VIEW_KEYS = {"inside": WIN_KEYS, "leave": WIN_KEYS, "ring": ("players",), "duel": ("players",),
             "flight": ("rack", "realms", "players")}


def view_keys(actions: tuple[str, ...]) -> tuple[str, ...]:
    return VIEW_KEYS.get(situation(actions)[0], ())


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

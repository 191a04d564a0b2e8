"""Frozen reference, copied on purpose: `games/atmosfear/ai.py` as it stood at main 770dbda (issue 39),
the smart policy today's smart AI must keep winning its fair share against
(tests/test_smart_reference.py). It must not follow later changes to the game's AI, nor be
merged with it: the duplication is the point. Changed from the original: absolute imports,
`situation` (games/atmosfear/questions.py) copied in, and `play` at the end, which seats it in a self-play loop.

The original docstring:

AI players for Atmosfear, deciding from their seat's view and prompt alone.

"random" picks uniformly among the legal choices (and a fear from data/atmosfear/fears.toml).
"smart" always answers the Gatekeeper, mostly rolls two dice, takes every key, heads inside only
with a key of every colour, steers round the Inner Ring the short way to the Well, duels whoever
shows the most keys, flies toward realms whose colour it lacks, and gets rid of the Black Key.
Everything it reads is in the seat's view: its own rack and fear, and public counts. It reads
them in a compact form, the question its prompt asks and the facts of its view that question
turns on (`compact_view`), which the engine builds from the state (`ai_view`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from games.core import Prompt, Rng
from games.atmosfear.engine import AI_FEARS, COLOURS, FLIGHTS, INNER, N_OUTER, OUTER, outer_index


def choose(view: Any, prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    """`view`: the smart AI's compact view (see `compact_view`); the random AI reads none."""
    if level != "smart":
        choices = prompt.choices
        if len(choices) == 1 and choices[0].action == "fear":
            return "fear " + rng.choice(AI_FEARS)
        return rng.choice(choices).action
    kind, answer, facts = view  # the most frequent questions first
    if kind == "dice" or (kind == "leave" and facts):
        return answer or ("roll 2" if rng.below(10) < 8 else "roll 1")
    if kind == "inside":
        return "inside" if facts else "outside"
    if kind == "answer":  # a lone "fear" is the fear-writing prompt (`situation`)
        return answer if answer != "fear" else "fear " + rng.choice(AI_FEARS)
    choices = prompt.choices
    if kind == "leave":
        return "leave"
    if kind == "duel":
        return strongest_duel(facts, [c.action for c in choices])
    if kind == "flight":
        return best_flight(*facts, [c.action for c in choices])
    if kind == "ring":
        i = INNER.index(facts) if facts in INNER else 0
        return "cw" if (len(INNER) - i) % len(INNER) <= i else "ccw"
    return rng.choice(choices).action


def can_win(view: dict[str, Any], seat: int) -> bool:
    """A key of every colour, no Black Key, and one's own fear still in the Well."""
    rack = view["rack"]
    return (all(rack.get(c) for c in COLOURS) and view["black_key"]["holder"] != seat
            and view["fear"]["in_well"])


# The one thing of its seat's view each question turns on, read from that view: whether it can
# win at the Well (to go inside, or stay there), its stone (the way round the Inner Ring), the
# keys each seat shows (a duel: the Black Key counts, it may be the one drawn), or its stone, the
# colours it lacks and the keys left per realm (a flight). The engine's `ai_view` gives the same
# facts worked out from the state (cheaper than the view), which the conformance suite checks
# against these (`compact_view`), so they hold nothing the seat may not see.
FACTS: dict[str, Callable[[dict[str, Any], int], Any]] = {
    "inside": can_win,
    "leave": can_win,
    "ring": lambda view, seat: view["players"][seat]["pos"],
    "duel": lambda view, seat: tuple(pl["keys"] + pl["black_key"] for pl in view["players"]),
    "flight": lambda view, seat: (view["players"][seat]["pos"],
                                  tuple(c for c in COLOURS if not view["rack"].get(c)),
                                  tuple(r["keys_left"] for r in view["realms"])),
}


def compact_view(view: dict[str, Any], prompt: Prompt) -> tuple[str, str | None, Any]:
    """The smart AI's view, (question, answer, facts), worked out from the seat's whole view."""
    kind, answer = situation(tuple(c.action for c in prompt.choices))
    facts = FACTS.get(kind)
    return kind, answer, facts(view, prompt.seat) if facts else None


def view_from_view(view: dict[str, Any], seat: int, level: str, prompt: Prompt) -> Any:
    """What the engine's `ai_view` gives, worked out from the seat's whole view instead
    (the game's `ai_view_from_view`): the conformance suite checks the two agree, so the
    compact view holds nothing the seat may not see."""
    return compact_view(view, prompt) if level == "smart" else {}


def strongest_duel(shown: tuple[int, ...], actions: list[str]) -> str:
    """Duel whoever shows the most keys (`shown`: per seat, the Black Key counted)."""
    return max((shown[int(a[5:]) - 1], a) for a in actions if a.startswith("duel "))[1]


def best_flight(here_stone: str, missing: tuple[str, ...], left: tuple[int, ...], actions: list[str]) -> str:
    """Fly where the next dozen stones hold the most key stones of missing, available colours."""
    here = outer_index(here_stone)
    best, score = "skip", 0
    for action, i, keys in KEYS_AHEAD:
        if action not in actions:
            continue
        s = sum(1 for colour, realm in keys if colour in missing and left[realm] > 0)
        if s > score and (i - here) % N_OUTER != 0:
            best, score = action, s
    return best


# Per Flight stone: the action flying there, its place on the Outer Ring and the (colour, realm) of each key
# stone among the dozen stones after it, which `best_flight` weighs.
KEYS_AHEAD = [(f"fly {f}", outer_index(f),
               [(st["colour"], st["realm"]) for k in range(1, 13)
                if (st := OUTER[(outer_index(f) + k) % N_OUTER])["kind"] == "key"])
              for f in FLIGHTS]


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


def play(game: Any, state: Any, seat: int, prompt: Prompt, rng: Rng) -> str:
    """This policy's action for `seat`, from its seat's view alone (as `decide` gives the smart AI)."""
    return choose(view_from_view(game.view(state, seat), seat, "smart", prompt), prompt, rng)

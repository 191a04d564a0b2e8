"""AI players for Atmosfear.

"random" picks uniformly among the legal choices (and a fear from data/atmosfear/fears.toml).
"smart" always answers the Gatekeeper, mostly rolls two dice, takes every key, heads inside only
with a key of every colour, steers round the Inner Ring the short way to the Well, duels whoever
shows the most keys, flies toward realms whose colour it lacks, and gets rid of the Black Key.
It only uses what its seat may know (its own rack, public counts).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import IllegalAction, Rng, State

from .engine import AI_FEARS, COLOURS, FLIGHTS, INNER, N_OUTER, STONE, outer_index

if TYPE_CHECKING:
    from .engine import AtmosfearGame


def choose(game: "AtmosfearGame", state: State, seat: int, rng: Rng, level: str = "smart") -> str:
    d = state.data
    prompt = game.prompt(state, seat)
    if prompt is None:
        raise IllegalAction("Nothing to do right now.")
    actions = [c.action for c in prompt.choices]
    if actions == ["fear"]:
        return "fear " + rng.choice(AI_FEARS)
    if level != "smart":
        return rng.choice(actions)
    if len(actions) == 1:
        return actions[0]
    pl = d["players"][seat]
    rack = pl["rack"]
    has_all = all(c in rack for c in COLOURS)
    can_win = has_all and d["black_key"]["holder"] != seat and seat in d["well"]
    step = d["step"]
    passes = [a for a in actions if a.startswith("pass ")]
    if passes:
        return passes[0]
    if step == "turn":
        if "leave" in actions and not can_win:
            return "leave"
        return "roll 2" if rng.below(10) < 8 else "roll 1"
    if step == "branch":
        return "inside" if can_win else "outside"
    if step == "ring":
        i = INNER.index(pl["pos"]) if pl["pos"] in INNER else 0
        return "cw" if (len(INNER) - i) % len(INNER) <= i else "ccw"
    if step == "key":
        return "take"
    if step == "duel":
        duels = [a for a in actions if a.startswith("duel ")]
        best = max(duels, key=lambda a: (game.keys_count(d, int(a.split()[1]) - 1), a))
        return best
    if step == "flight":
        missing = {c for c in COLOURS if c not in rack}
        here = outer_index(pl["pos"])
        best, score = "skip", 0
        for f in FLIGHTS:
            if f"fly {f}" not in actions:
                continue
            i = outer_index(f)
            ahead = [STONE[list(STONE)[(i + k) % N_OUTER]] for k in range(1, 13)]
            s = sum(1 for st in ahead if st["kind"] == "key" and st["colour"] in missing
                    and d["realm_keys"][st["realm"]] > 0)
            if s > score and f != pl["pos"] and (i - here) % N_OUTER != 0:
                best, score = f"fly {f}", s
        return best
    return rng.choice(actions)

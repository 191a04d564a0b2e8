"""Atmosfear as its seat may imagine it: one complete state consistent with a seat's view, for the
hard AI's search (`games.core.search`).

The view shows the board, every Harbinger's stone and number of keys, the keys left in each
realm, the Black Key, the fears read and how many wait in the Well, and to the seat its own rack,
Time cards and fear. Drawn at random: the colours in the others' racks (from the keys no realm
holds and the seat does not), the others' fears and Time cards (none are assumed), the Fate and
Time decks' order, and when the Gatekeeper next appears (his usual gap after his last visit).

The view holds no clock reading, but it counts the Gatekeeper's visits, and his rhythm is the
game's own (a first visit, then a gap after each), whatever pace the players keep: so when he
last came is drawn as his visits so far would have taken, and his next visit a gap after that;
the search starts its rollouts just before a sample's next timer, so there he comes at once, with
the clock's end as far off as that visit. (The turn says little: a table of AI seats plays a turn
in seconds, people in tens of them.) Nor does the view hold a walk half made: a sample asks a
step from what the seat's stone and last move show (a key, flight or duel stone just landed on,
else a new turn), and where that is not the seat's question the search leaves it to the smart
policy, or the hard level's own (`hard.py`), which plays the seat in the rollouts.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.core import Rng, State
from games.core.search import WholeView, searcher

from .engine import (AI_FEARS, BRANCHES, COLOURS, DECOYS, FATE, INNER, KEYS_PER, KIND, RULES, TIME, WELL,
                     own_fears)
from .evaluate import HORIZON, evaluate
from .hard import choose

MARGIN = 2.0  # standard errors a candidate must beat the policy's pick by (see `search`)
CLOCK_MARGIN = 20.0  # seconds before the clock's end by which a sample has him come back at the latest
LANDING_STEPS = {"key": "key", "flight": "flight", "duel": "duel"}  # a stone's kind -> its question


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    seats = len(view["players"])
    minutes = view["clock"]["minutes"]
    racks = _racks(view, seat, rng)
    fears, well = _fears(view, seat, seats, minutes, rng)
    held = {c["id"] for c in view["time_cards"]}
    time_deck = sorted(cid for cid in TIME if cid not in held)
    rng.shuffle(time_deck)
    fate = sorted(FATE)
    rng.shuffle(fate)
    players = [{"pos": pl["pos"], "rack": racks[s], "hole": pl["in_black_hole"], "must_roll": pl["must_roll"],
                "must_dice": pl["must_dice"], "extra": False,
                "time_cards": [c["id"] for c in view["time_cards"]] if s == seat else [],
                "waited": False, "must_move": False} for s, pl in enumerate(view["players"])]
    phase = view["phase"] if view["phase"] in ("fears", "over") else "play"
    step = _step(view, seat)
    chosen = next((pl["seat"] for pl in view["players"] if pl["chosen_one"]), None)
    data = {
        "phase": phase, "step": step, "current": view["current"], "players": players,
        "fears": fears, "well": well, "read": list(view["fears_read"]),
        "realm_keys": [r["keys_left"] for r in view["realms"]], "removed": {c: 0 for c in COLOURS},
        "black_key": dict(view["black_key"]), "fate": fate, "time": time_deck,
        "clock": dict(view["clock"]), "gk": _gatekeeper(view, rng), "move": _walk(view, seat, step, rng),
        "chosen": chosen,
        "dice": None if view["dice"] is None else list(view["dice"]),
        "last": None if view["last"] is None else {"seat": view["last"]["seat"],
                                                   "path": list(view["last"]["path"])},
        "winner": view["winner"],
    }
    return State(game="atmosfear", seats=seats, seed=0, options={"minutes": minutes}, rng=rng.next64(),
                 turn=view["turn"], data=data)


def _racks(view: dict[str, Any], seat: int, rng: Rng) -> list[list[str]]:
    """Each rack: the seat's own; the others' from the keys of each colour neither in a realm
    nor in the seat's rack, as many as each shows (any colour if those run out)."""
    own = [c for c, n in view["rack"].items() for _ in range(n)]
    out_there = Counter({c: KEYS_PER - r["keys_left"] for c, r in zip(COLOURS, view["realms"])})
    out_there.subtract(own)
    pool = sorted(out_there.elements())
    rng.shuffle(pool)
    racks = []
    for s, pl in enumerate(view["players"]):
        if s == seat:
            racks.append(own)
            continue
        rack = [pool.pop() if pool else COLOURS[rng.below(len(COLOURS))] for _ in range(pl["keys"])]
        racks.append(rack)
    return racks


def _fears(view: dict[str, Any], seat: int, seats: int, minutes: int,
           rng: Rng) -> tuple[list[str | None], list[int]]:
    """Every fear (the others' written as the AI's would be), the Gatekeeper's own after them,
    and which are still in the Well: the seat's if it is, the rest drawn to the Well's count."""
    mine = view["fear"]
    fears: list[str | None] = [mine["text"] if s == seat else rng.choice(AI_FEARS) for s in range(seats)]
    fears += list(DECOYS[:own_fears(minutes / seats, seats)])
    well = [seat] if mine["in_well"] else []
    others = [i for i in range(len(fears)) if i != seat]
    rng.shuffle(others)
    well += others[:max(view["fears_in_well"] - len(well), 0)]
    if view["phase"] == "fears":  # those not in the Well have not written theirs yet
        fears = [f if i in well or i >= seats else None for i, f in enumerate(fears)]
    return fears, sorted(well)


def _step(view: dict[str, Any], seat: int) -> str:
    """The seat's question as its stone, the dice and its last move tell it: a key, flight or
    duel stone it has just walked onto; a way inside or the Inner Ring reached by a walk still
    under way (dice thrown, no move of its own ending there); or its turn."""
    last, pos = view["last"], view["players"][seat]["pos"]
    if view["current"] != seat or view["dice"] is None:
        return "turn"
    landed = last is not None and last["seat"] == seat and last["path"][-1] == pos and len(last["path"]) > 1
    if landed and pos != WELL:
        return LANDING_STEPS.get(KIND.get(pos, ""), "turn")
    if not landed and pos in BRANCHES:
        return "branch"
    if not landed and pos in INNER:
        return "ring"
    return "turn"


def _walk(view: dict[str, Any], seat: int, step: str, rng: Rng) -> dict[str, Any] | None:
    """A walk under way at a way inside or on the Inner Ring: its steps left drawn below the
    dice's total (the view does not say where it began)."""
    if step not in ("branch", "ring"):
        return None
    pos = view["players"][seat]["pos"]
    return {"steps": 1 + rng.below(max(sum(view["dice"]) - 1, 1)), "dir": None, "decided": None,
            "inside": False, "path": [pos]}


def _gatekeeper(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """The Gatekeeper as the view shows him; off screen, his next visit a gap after his last
    (`last_visit`)."""
    gk, clock = view["gatekeeper"], view["clock"]
    out = {"next": None, "on": gk["on_screen"], "line": gk["line"], "calling": gk["calling"], "order": None,
           "deadline": gk["deadline"], "leave_at": None, "n": gk["appearances"], "said": {}}
    if clock["end"] is None or view["phase"] == "over":
        return out
    latest = clock["end"] - CLOCK_MARGIN
    last = min(last_visit(view, rng), latest)
    if gk["on_screen"]:
        out["leave_at"] = last + RULES["gk_leave_seconds"] if gk["calling"] is None else None
    else:
        lo, hi = RULES["gk_gap"] if gk["appearances"] else RULES["gk_first_gap"]
        gone = last + (RULES["gk_leave_seconds"] if gk["appearances"] else 0.0)
        out["next"] = min(gone + lo + rng.random() * (hi - lo), latest)
    return out


def last_visit(view: dict[str, Any], rng: Rng) -> float:
    """When the Gatekeeper last came (he left a few seconds after), or, before his first visit,
    when the clock started: his own deadline if he is calling now, else his visits so far drawn
    from his rhythm."""
    gk, clock = view["gatekeeper"], view["clock"]
    if gk["deadline"] is not None:
        return gk["deadline"] - RULES["gk_answer_seconds"][0]
    when = clock["end"] - clock["minutes"] * 60
    for visit in range(gk["appearances"]):
        lo, hi = RULES["gk_gap"] if visit else RULES["gk_first_gap"]
        when += lo + rng.random() * (hi - lo) + (RULES["gk_leave_seconds"] if visit else 0.0)
    return when


# A read at the Well within a rollout's horizon wins outright one time in a dozen or so: paired
# rollouts differ by a third of a win on average, and a margin of one standard error let about one
# decision in twenty-five leave the policy's pick by chance (the long way round the ring).
search = searcher(sample, evaluate, HORIZON, WholeView(choose), margin=MARGIN)

"""Key to the Kingdom as its seat may imagine it: one complete state consistent with a seat's view,
for the hard AI's search (`games.core.search`).

The view shows the board, every adventurer's place, equipment and number of Treasures, which Key
Locations still hold one, the piles' sizes and the seat's own Treasures. Drawn at random: which
Treasure lies at each Key Location, in the others' holders and in the lost pile (the Cobra goes to
the lost pile, where it starts), the equipment deck from the items nobody shows, the monster
deck's order. Public bookkeeping the view leaves out (a hazard's counters, who took another's
Key) starts empty: where that changes the seat's question, the search leaves it to the smart
policy (its sample asks another question, so it is not used).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.core import Rng, State
from games.core.search import searcher

from .evaluate import HORIZON, evaluate
from .hard import choose as hard_policy
from .stock import COBRA, ITEM_COPIES, MONSTERS, TREASURES


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    seats = len(view["players"])
    hands, locations, lost = _treasures(view, seat, rng)
    players = [{"at": pl["at"], "spot": pl["spot"], "task": _task(pl["task"], view["monster"], s),
                "equip": list(pl["equip"]),
                "hand": hands[s], "deep": pl["deep"], "wizard_used": pl["wizard_used"],
                "after_visit": False, "barred": pl["barred"]} for s, pl in enumerate(view["players"])]
    monster = view["monster"]
    monsters = [m for m in sorted(MONSTERS) if monster is None or m != monster["id"]]
    rng.shuffle(monsters)
    turn_info: dict[str, Any] = {}
    if view["die"] is not None:
        turn_info["die"] = view["die"]
    if view["moved"]:
        turn_info["moved"] = True
    knows = [{"key": None} for _ in range(seats)]
    knows[seat] = dict(view["knows"] or {"key": None})
    data = {
        "players": players, "demon": view["demon"], "fold": dict(view["fold"]), "locations": locations,
        "equip_deck": _equipment(view, rng), "monster_deck": monsters, "monster_discard": [],
        "lost_equip": [dict(e) for e in view["lost_equipment"]], "lost_treasure": lost,
        "deep_left": view["deep_left"], "bridge": dict(view["bridge"]), "current": view["current"],
        "phase": view["phase"], "turn_info": turn_info, "fold_job": _fold_job(view["fold_job"]),
        "round": view["round"], "rounds": view["rounds"], "rolls": list(view["rolls"]),
        "last": None if view["last"] is None else dict(view["last"]),
        "monster": None if monster is None else {"id": monster["id"], "seat": monster["seat"],
                                                 "at": monster["at"]},
        "knows": knows, "winner": view["winner"],
    }
    return State(game="kingdom", seats=seats, seed=0, options={"rounds": view["rounds"]},
                 rng=rng.next64(), turn=view["turn"], data=data)


def _treasures(view: dict[str, Any], seat: int,
               rng: Rng) -> tuple[list[list[str]], dict[str, str | None], list[str]]:
    """The others' holders, the Key Locations and the lost pile, from the Treasures the seat does
    not hold."""
    own = list(view["hand"] or [])
    pool = [t for t in sorted(TREASURES) if t not in own]
    rng.shuffle(pool)
    lost = [COBRA] if view["lost_treasures"] and COBRA not in own else []
    lost += [pool.pop() for _ in range(min(view["lost_treasures"] - len(lost), len(pool)))]
    hands = [own if s == seat else [pool.pop() for _ in range(min(pl["treasures"], len(pool)))]
             for s, pl in enumerate(view["players"])]
    locations = {loc: (pool.pop() if held and pool else None)
                 for loc, held in sorted(view["locations"].items())}
    return hands, locations, lost


def _equipment(view: dict[str, Any], rng: Rng) -> list[str]:
    """The equipment deck: its size in items nobody holds or has lost, shuffled."""
    unseen = Counter(ITEM_COPIES)
    for pl in view["players"]:
        unseen.subtract(pl["equip"])
    unseen.subtract(e["item"] for e in view["lost_equipment"])
    deck = sorted(unseen.elements())
    rng.shuffle(deck)
    return deck[:view["equipment_left"]]


def _task(task: dict[str, Any] | None, monster: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """A hazard attempt as the state holds it, with the counters the view shows (its misses, the
    monster fought)."""
    if task is None:
        return None
    counters: dict[str, Any] = {} if task["miss"] is None else {"miss": task["miss"]}
    if monster is not None and monster["seat"] == seat:
        counters["monster"] = monster["id"]
    return {"hz": task["hazard"], "at": task["step"], "near": task["near"], "far": task["far"],
            "lane": task["lane"], "pos": task["pos"], "c": {}, "v": counters}


def _fold_job(job: dict[str, Any] | None) -> dict[str, Any] | None:
    if job is None:
        return None
    return {"panel": job["panel"], "to": job["to"], "jumper": job["jumper"], "stage": job["stage"],
            "asked": list(job["waiting"]), "answered": [],
            "runners": {k: dict(v) for k, v in job["runners"].items()}, "caught": []}


# The search leaves the policy's pick only for a candidate two standard errors ahead. Departures
# weighed on the real position by paired games to the end (python -m bench.departures kingdom):
# those three or more ahead gained about a quarter of a win each; under two, the bands came out
# about even, one ahead and one behind, so a smaller margin buys noise.
MARGIN = 2.0
search = searcher(sample, evaluate, HORIZON, hard_policy, margin=MARGIN)

"""Hazards as data: the step tables of data/kingdom/hazards.toml and the ops that run them.

A live attempt (a "task") is a small JSON dict kept on the adventurer:

    {"hz": hazard id, "at": step id, "near": dagger, "far": dagger, "lane": lane, "pos": cell,
     "c": {counters for the step being played this turn}, "v": {vars kept for the whole attempt}}

`advance` runs steps until one needs a throw or a choice ("need"), the turn ends ("end") or the
adventurer leaves the hazard ("exit"). Every op is registered in OPS and checked at import, with
every `go`-like target and every step id; a bad table fails when the module loads.

Ops never change anything before they have the input they need, so asking a parked step what it
needs (`needs`) has no side effects: that is how prompts are built.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from data import load_toml
from data.locales import Msg
from games.core import Event, IllegalAction, Rng

from . import stock
from .board import BOARD
from .stock import ITEMS, MONSTERS, p
from .words import HAZARD, ITEM, PLACE, THE_ITEM, bare, place, say, step

RAW: dict[str, Any] = load_toml("kingdom", "hazards.toml")
TARGET_KEYS = ("go", "pass", "fail", "end", "short", "else", "reached", "win", "lose", "resume")


@dataclass
class Hazard:
    id: str
    name: str
    kind: str
    start: str
    lanes: dict[str, int]
    steps: dict[str, dict[str, Any]]


# -------------------------------------------------------------------- the context of one action
@dataclass
class Ctx:
    d: dict[str, Any]
    seat: int
    rng: Rng
    events: list[Event]
    roll: bool = False            # the action is "roll": a die may be thrown once
    choice: str | None = None     # the action is a choice ("use net", "drop rope", "go b3", ...)
    used: bool = False            # the input has been consumed
    peek: bool = False            # only asking what the parked step needs
    dice: list[int] = field(default_factory=list)

    @property
    def player(self) -> dict[str, Any]:
        return self.d["players"][self.seat]

    @property
    def task(self) -> dict[str, Any]:
        return self.player["task"]

    @property
    def equip(self) -> list[str]:
        return self.player["equip"]

    def die(self) -> int | None:
        if self.peek or not self.roll or self.used:
            return None
        self.used = True
        face = self.rng.die(stock.DIE)
        self.dice.append(face)
        self.task["v"]["last"] = face
        self.d["rolls"].append(face)
        self.say("event.hazard_roll", die=face, hazard=HAZARD[self.task["hz"]])
        return face

    def pick(self) -> str | None:
        if self.peek or self.choice is None or self.used:
            return None
        self.used = True
        return self.choice

    def say(self, key: str, **params: Any) -> None:
        """Tell everyone message game.kingdom.`key` about the adventurer ({who})."""
        self.events.append(Event(say(key, who=p(self.seat), **params)))

    def tell(self, words: Msg) -> None:
        self.events.append(Event(words))


NEED_ROLL = ("need", "roll")
NOT_AN_ANSWER = say("refusal.not_an_answer")
LOSES = say("event.loses").id  # how equipment is lost unless a step says its own way
Result = tuple[Any, ...]
OPS: dict[str, Callable[[Ctx, dict[str, Any]], Result]] = {}
FLAGS: dict[str, Callable[[Ctx], bool]] = {}


def op(name: str):
    def register(fn: Callable[[Ctx, dict[str, Any]], Result]):
        OPS[name] = fn
        return fn
    return register


def flag(name: str):
    def register(fn: Callable[[Ctx], bool]):
        FLAGS[name] = fn
        return fn
    return register


def need(choices: list[tuple[str, str]]) -> Result:
    return ("need", choices)


# -------------------------------------------------------------------- flags
@flag("has_equipment")
def _has_equipment(ctx: Ctx) -> bool:
    return bool(ctx.equip)


@flag("no_equipment")
def _no_equipment(ctx: Ctx) -> bool:
    return not ctx.equip


@flag("bridge_unbuilt")
def _bridge_unbuilt(ctx: Ctx) -> bool:
    return ctx.d["bridge"]["built"] == 0


@flag("toward_wizard")
def _toward_wizard(ctx: Ctx) -> bool:
    return ctx.task.get("far") == BOARD.wizard


@flag("after_visit")
def _after_visit(ctx: Ctx) -> bool:
    return bool(ctx.player["after_visit"]) and ctx.task.get("near") == BOARD.wizard


@flag("arrived_this_turn")
def _arrived(ctx: Ctx) -> bool:
    return bool(ctx.d["turn_info"].get("moved"))


@flag("deep_left")
def _deep_left(ctx: Ctx) -> bool:
    return ctx.d["deep_left"] > 0


def holds(ctx: Ctx, spec: dict[str, Any]) -> bool:
    """The equipment and flag tests shared by `choose` options and `check` cases."""
    eq = ctx.equip
    if any(item not in eq for item in spec.get("needs", ())):
        return False
    if spec.get("any") and not any(item in eq for item in spec["any"]):
        return False
    if any(item in eq for item in spec.get("none", ())):
        return False
    if "flag" in spec and not FLAGS[spec["flag"]](ctx):
        return False
    if "entry" in spec and ctx.task["v"].get("entry") not in spec["entry"]:
        return False
    return True


def item_used(ctx: Ctx, spec: dict[str, Any]) -> str | None:
    for item in (*spec.get("needs", ()), *spec.get("any", ())):
        if item in ctx.equip:
            return item
    return None


# -------------------------------------------------------------------- throws
@op("roll_map")
def _roll_map(ctx: Ctx, st: dict[str, Any]) -> Result:
    face = ctx.die()
    if face is None:
        return NEED_ROLL
    for case in st["map"]:
        if face in case["faces"]:
            return ("go", case["go"])
    raise AssertionError(f"roll_map {st['id']} has no case for {face}")


@op("roll_hit")
def _roll_hit(ctx: Ctx, st: dict[str, Any]) -> Result:
    face = ctx.die()
    if face is None:
        return NEED_ROLL
    c = ctx.task["c"]
    c["tries"] = c.get("tries", 0) + 1
    if face in st["faces"]:
        c["hits"] = c.get("hits", 0) + 1
    needed = st.get("need", 1)
    if c.get("hits", 0) >= needed:
        return ("go", st["pass"])
    if st.get("per_turn"):
        return ("end", st.get("resume", st["id"]))
    left = st.get("tries", 1) - c["tries"]
    if left <= 0 or c.get("hits", 0) + left < needed:
        return ("go", st["fail"])
    return NEED_ROLL


@op("roll_sum")
def _roll_sum(ctx: Ctx, st: dict[str, Any]) -> Result:
    face = ctx.die()
    if face is None:
        return NEED_ROLL
    c = ctx.task["c"]
    c["n"] = c.get("n", 0) + 1
    c["sum"] = c.get("sum", 0) + face
    if c["sum"] >= st["at_least"]:
        ctx.say("event.sum_made", total=c["sum"], needed=st["at_least"])
        return ("go", st["pass"])
    if c["n"] >= st["rolls"]:
        ctx.say("event.sum_short", total=c["sum"], needed=st["at_least"])
        return ("go", st["fail"])
    return NEED_ROLL


def unbuilt_cells(ctx: Ctx, length: int) -> set[int]:
    bridge = ctx.d["bridge"]
    built, side = bridge["built"], bridge["from"]
    if built >= length:
        return set()
    if side is None or side == ctx.task["near"]:
        return set(range(built + 1, length + 1))
    return set(range(1, length - built + 1))


@op("walk")
def _walk(ctx: Ctx, st: dict[str, Any]) -> Result:
    task = ctx.task
    c = task["c"]
    if st.get("use_last") and not c.get("used_last") and not ctx.peek:
        c["used_last"] = True
        face = task["v"].get("last") or 0
    else:
        face = ctx.die()
        if face is None:
            return NEED_ROLL
    length = HAZARDS[task["hz"]].lanes[st["lane"]]
    task["pos"] += face
    c["k"] = c.get("k", 0) + 1
    if task["pos"] > length:
        if st.get("count_on"):  # the far White Dagger is the cell after the last: walk on past it
            task["v"]["left"] = task["pos"] - length - 1
        return ("go", st["end"])
    for hit in st.get("hits", ()):
        cells = unbuilt_cells(ctx, length) if hit.get("unbuilt") else set(hit["cells"])
        if task["pos"] in cells and ("faces" not in hit or face in hit["faces"]):
            return ("go", hit["go"])
    if st.get("per_turn"):
        return ("end", st.get("resume", st["id"]))
    if st.get("rolls") and c["k"] >= st["rolls"]:
        return ("go", st["short"])
    return NEED_ROLL


@op("climb")
def _climb(ctx: Ctx, st: dict[str, Any]) -> Result:
    face = ctx.die()
    if face is None:
        return NEED_ROLL
    task = ctx.task
    if face in st["faces"]:
        task["pos"] -= 1
        if task["pos"] <= 0:
            return ("go", st["pass"])
        ctx.say("event.climb_skull")
    return ("end", st["id"])


# -------------------------------------------------------------------- choices
def available(ctx: Ctx, st: dict[str, Any]) -> list[dict[str, Any]]:
    opts = [o for o in st["options"] if not o.get("fallback") and holds(ctx, o)]
    if not opts:
        opts = [o for o in st["options"] if o.get("fallback") and holds(ctx, o)]
    return opts


@op("choose")
def _choose(ctx: Ctx, st: dict[str, Any]) -> Result:
    opts = available(ctx, st)
    if not opts:
        raise AssertionError(f"choose {st['id']} offers nothing")
    chosen = None
    if len(opts) == 1:
        if ctx.peek:
            return need([(f"use {opts[0]['key']}", option_words(ctx, st, opts[0]))])
        chosen = opts[0]
    else:
        key = ctx.pick()
        if key is None:
            return need([(f"use {o['key']}", option_words(ctx, st, o)) for o in opts])
        chosen = next(o for o in opts if f"use {o['key']}" == key)
    ctx.task["v"]["item"] = item_used(ctx, chosen)
    ctx.task["v"]["method"] = chosen["key"]
    return ("go", chosen["go"])


def option_words(ctx: Ctx, st: dict[str, Any], option: dict[str, Any]) -> Msg:
    """A `choose` option's label (hazards.toml's `label`) as a message."""
    return step(ctx.task["hz"], st["id"], option["key"])


def way_for(ctx: Ctx, item: str) -> str | None:
    """The way the parked choice offers that uses `item`, if exactly one does: a player types
    "use rope" where the button reads "Rope or Hook: a 2 in 4 rolls" (its key is "cord")."""
    st = step_of(ctx.task)
    if st["op"] != "choose" or item not in ctx.equip:
        return None
    ways = [o["key"] for o in available(ctx, st) if item in (*o.get("needs", ()), *o.get("any", ()))]
    return ways[0] if len(ways) == 1 else None


@op("check")
def _check(ctx: Ctx, st: dict[str, Any]) -> Result:
    for case in st["cases"]:
        if "var" in case:
            if ctx.task["v"].get(case["var"], 0) >= case["at_least"]:
                return ("go", case["go"])
            continue
        if holds(ctx, case):
            return ("go", case["go"])
    return ("go", st["else"])


@op("drop")
def _drop(ctx: Ctx, st: dict[str, Any]) -> Result:
    what = st["item"]
    said = step(ctx.task["hz"], st["id"], "verb").id if "verb" in st else LOSES
    if what == "$item":
        what = ctx.task["v"].get("item")
    if what == "any":
        kinds = sorted(set(ctx.equip))
        if not kinds:
            if not ctx.peek:
                ctx.say("event.no_equipment")
            return ("go", st["go"])
        if len(kinds) == 1:
            what = kinds[0]
        else:
            key = ctx.pick()
            if key is None:
                return need([(f"drop {k}", say("choice.lose", item=THE_ITEM[k])) for k in kinds])
            what = key.split()[1]
    if ctx.peek:
        return ("go", st["go"])
    if what and what in ctx.equip:
        stock.lose_item(ctx.d, ctx.seat, what, ctx.events, said)
    return ("go", st["go"])


@op("lose_treasure")
def _lose_treasure(ctx: Ctx, st: dict[str, Any]) -> Result:
    if not ctx.peek:
        if not stock.lose_treasure(ctx.d, ctx.seat, ctx.rng, ctx.events):
            ctx.say("event.no_treasure")
    return ("go", st["go"])


@op("lose_all_treasure")
def _lose_all(ctx: Ctx, st: dict[str, Any]) -> Result:
    if not ctx.peek:
        stock.lose_treasure(ctx.d, ctx.seat, ctx.rng, ctx.events, every=True)
    return ("go", st["go"])


# -------------------------------------------------------------------- position and flow
@op("set")
def _set(ctx: Ctx, st: dict[str, Any]) -> Result:
    task = ctx.task
    if "lane" in st:
        task["lane"] = st["lane"]
    if "pos" in st:
        task["pos"] = st["pos"]
    task["pos"] += st.get("pos_add", 0)
    return ("go", st["go"])


@op("count")
def _count(ctx: Ctx, st: dict[str, Any]) -> Result:
    v = ctx.task["v"]
    v[st["var"]] = v.get(st["var"], 0) + 1
    return ("go", st["reached"] if v[st["var"]] >= st["limit"] else st["go"])


@op("wait")
def _wait(ctx: Ctx, st: dict[str, Any]) -> Result:
    return ("end", st["go"])


@op("miss")
def _miss(ctx: Ctx, st: dict[str, Any]) -> Result:
    v = ctx.task["v"]
    if "miss" not in v:
        v["miss"] = st["turns"]
        return ("end", st["id"])
    if v["miss"] > 0:
        v["miss"] -= 1
        left = v["miss"]
        hazard = HAZARD[ctx.task["hz"]]
        if left:
            ctx.say("event.miss_turn", hazard=hazard, count=left)
        else:
            ctx.say("event.miss_last", hazard=hazard, then=step(ctx.task["hz"], st["id"], "then"))
        return ("end", st["id"])
    del v["miss"]
    return ("go", st["go"])


@op("to_hazard")
def _to_hazard(ctx: Ctx, st: dict[str, Any]) -> Result:
    task = ctx.task
    if "sides" in st:
        ends = BOARD.hazards[task["hz"]]
        new = BOARD.exits[st["sides"]]
        index = ends.index(task["near"])
        task["near"], task["far"] = new[index], new[1 - index]
    return ("switch", st["hazard"], st["step"])


@op("bar")
def _bar(ctx: Ctx, st: dict[str, Any]) -> Result:
    ctx.player["barred"] = ctx.task["hz"]
    return ("go", st["go"])


@op("mark")
def _mark(ctx: Ctx, st: dict[str, Any]) -> Result:
    ctx.player[st["flag"]] = True
    if st["flag"] == "wizard_used":
        ctx.player["after_visit"] = True
    return ("go", st["go"])


@op("build")
def _build(ctx: Ctx, st: dict[str, Any]) -> Result:
    length = HAZARDS[ctx.task["hz"]].lanes["bridge"]
    n = length if st["sections"] == "all" else min(length, ctx.task["v"].get("last") or 0)
    ctx.d["bridge"] = {"built": n, "from": ctx.task["near"]}
    ctx.task["lane"], ctx.task["pos"] = "bridge", n
    if n >= length:
        ctx.say("event.bridge_whole")
    else:
        ctx.say("event.bridge_part", count=n)
    return ("go", st["go"])


@op("exit")
def _exit(ctx: Ctx, st: dict[str, Any]) -> Result:
    task = ctx.task
    to = st["to"]
    then = st.get("then", "end")
    if to == "here":
        return ("exit", {"to": None, "then": then})
    if to in ("far", "near"):
        return ("exit", {"to": task[to], "then": then})
    if to == "either":
        spots = [task["near"], task["far"]]
    else:
        ways = BOARD.spots[task["v"]["spot"]]["surround"] if to == "surround" else BOARD.exits[to]
        spots = [s for s in ways if s != ctx.d["demon"]]  # nobody lands on the Demon King
        if not spots:
            return ("end", st["id"])  # every way out is his: wait for him to move on
    if len(spots) == 1:
        return ("exit", {"to": spots[0], "then": then})
    key = ctx.pick()
    if key is None:
        return need([(f"go {s}", say("choice.out", place=bare(s))) for s in spots])
    ctx.say("event.comes_out", place=place(key.split()[1]))
    return ("exit", {"to": key.split()[1], "then": then})


# -------------------------------------------------------------------- Key Locations
@op("monster")
def _monster(ctx: Ctx, st: dict[str, Any]) -> Result:
    mid = stock.draw_monster(ctx.d, ctx.rng)
    ctx.task["v"]["monster"] = mid
    ctx.d["monster"] = {"id": mid, "seat": ctx.seat, "at": ctx.player["at"]}
    ctx.say("event.monster", place=PLACE[ctx.player["at"]], monster=stock.monster_text(mid))
    return ("go", st["go"])


@op("weapon")
def _weapon(ctx: Ctx, st: dict[str, Any]) -> Result:
    fears = MONSTERS[ctx.task["v"]["monster"]]["fears"]
    held = [i for i in fears if i in ctx.equip]
    if not held:
        ctx.task["v"]["item"] = None
        return ("go", st["go"])
    key = ctx.pick()
    if key is None:
        opts = [(f"use {i}", say("choice.fight_with", item=THE_ITEM[i], bonus=fears[i])) for i in held]
        return need(opts + [("use bare", say("choice.fight_bare"))])
    item = key.split()[1]
    ctx.task["v"]["item"] = None if item == "bare" else item
    return ("go", st["go"])


@op("fight")
def _fight(ctx: Ctx, st: dict[str, Any]) -> Result:
    face = ctx.die()
    if face is None:
        return NEED_ROLL
    v = ctx.task["v"]
    m = MONSTERS[v["monster"]]
    item = v.get("item")
    bonus = m["fears"].get(item, 0) if item else 0
    total = face + bonus
    won = total >= m["strength"]
    outcome = say("event.fight_won" if won else "event.fight_lost")
    if item:
        ctx.say("event.fight_with", die=face, bonus=bonus, item=ITEM[item], total=total,
                strength=m["strength"], outcome=outcome)
    else:
        ctx.say("event.fight", die=face, total=total, strength=m["strength"], outcome=outcome)
    ctx.d["monster_discard"].append(v["monster"])
    ctx.d["monster"] = None
    return ("go", st["win"] if won else st["lose"])


@op("claim")
def _claim(ctx: Ctx, st: dict[str, Any]) -> Result:
    at = ctx.player["at"]
    tid = ctx.d["locations"].get(at)
    if tid is not None:
        ctx.d["locations"][at] = None
        ctx.say("event.claim", place=PLACE[at])
        stock.take_holder(ctx.d, ctx.seat, tid, ctx.rng, ctx.events)
    return ("go", st["go"])


# -------------------------------------------------------------------- the Ring and the Wizard
def lost_offer(ctx: Ctx, st: dict[str, Any]) -> list[tuple[str, str]]:
    d = ctx.d
    out: list[tuple[str, str]] = []
    kinds = st["kinds"]
    chosen = ctx.task["v"].get("chosen", 0)
    if "equipment" in kinds:
        pile = [e for e in d["lost_equip"] if not st.get("own") or e["owner"] == ctx.seat]
        for item in sorted({e["item"] for e in pile}):
            out.append((f"take {item}", say("choice.take", item=THE_ITEM[item])))
    if "treasure" in kinds and len(d["lost_treasure"]) > (chosen if st.get("defer") else 0):
        out.append(("take holder", say("choice.take_holder")))
    return out


@op("take_lost")
def _take_lost(ctx: Ctx, st: dict[str, Any]) -> Result:
    c = ctx.task["c"]
    offer = lost_offer(ctx, st)
    if not offer or c.get("taken", 0) >= st["count"]:
        return ("go", st["go"])
    key = ctx.pick()
    if key is None:
        return need(offer + [("done", say("choice.done"))])
    if key == "done":
        return ("go", st["go"])
    c["taken"] = c.get("taken", 0) + 1
    what = key.split()[1]
    d = ctx.d
    if what == "holder":
        if st.get("defer"):
            ctx.task["v"]["chosen"] = ctx.task["v"].get("chosen", 0) + 1
            ctx.say("event.point_holder")
        else:
            tid = d["lost_treasure"].pop(ctx.rng.below(len(d["lost_treasure"])))
            ctx.say("event.take_holder")
            stock.take_holder(d, ctx.seat, tid, ctx.rng, ctx.events)
    else:
        entry = next(e for e in d["lost_equip"] if e["item"] == what
                     and (not st.get("own") or e["owner"] == ctx.seat))
        d["lost_equip"].remove(entry)
        ctx.player["equip"].append(what)
        ctx.say("event.take_lost", item=THE_ITEM[what])
    return ("go", st["id"]) if c["taken"] < st["count"] else ("go", st["go"])


@op("reward")
def _reward(ctx: Ctx, st: dict[str, Any]) -> Result:
    d = ctx.d
    mine = [e for e in d["lost_equip"] if e["owner"] == ctx.seat]
    for e in mine:
        d["lost_equip"].remove(e)
        ctx.player["equip"].append(e["item"])
    if mine:
        ctx.say("event.wizard_returns", items=stock.items_words([e["item"] for e in mine]))
    for _ in range(min(ctx.task["v"].get("chosen", 0), len(d["lost_treasure"]))):
        tid = d["lost_treasure"].pop(ctx.rng.below(len(d["lost_treasure"])))
        ctx.say("event.wizard_holder")
        stock.take_holder(d, ctx.seat, tid, ctx.rng, ctx.events)
    return ("go", st["go"])


@op("deep_card")
def _deep_card(ctx: Ctx, st: dict[str, Any]) -> Result:
    if ctx.d["deep_left"] > 0:
        ctx.d["deep_left"] -= 1
        ctx.player["deep"] += 1
        ctx.say("event.deep_card")
    return ("go", st["go"])


# -------------------------------------------------------------------- the interpreter
def new_task(hz: str, near: str | None = None, **v: Any) -> dict[str, Any]:
    far = BOARD.far_end(hz, near) if near is not None and hz in BOARD.hazards else None
    return {"hz": hz, "at": HAZARDS[hz].start, "near": near, "far": far, "lane": None, "pos": 0,
            "c": {}, "v": dict(v)}


def enter(ctx: Ctx, step_id: str) -> None:
    task = ctx.task
    task["at"] = step_id
    task["c"] = {}
    st = HAZARDS[task["hz"]].steps[step_id]
    if st["op"] == "walk" and task.get("lane") != st["lane"]:
        task["lane"], task["pos"] = st["lane"], 0
    if "say" in st:
        ctx.tell(step(task["hz"], step_id, "say", who=p(ctx.seat)))


def start(ctx: Ctx) -> None:
    """Announce and enter the first step of the task just put on the adventurer."""
    enter(ctx, ctx.task["at"])


def step_of(task: dict[str, Any]) -> dict[str, Any]:
    return HAZARDS[task["hz"]].steps[task["at"]]


def needs(ctx: Ctx) -> Any:
    """What the parked step waits for: "roll", or [(action, label)]; None if it needs nothing."""
    ctx.peek = True
    try:
        result = OPS[step_of(ctx.task)["op"]](ctx, step_of(ctx.task))
    finally:
        ctx.peek = False
    return result[1] if result[0] == "need" else None


def advance(ctx: Ctx) -> Result:
    """Run the adventurer's task until it needs input, ends the turn or exits."""
    for _ in range(200):  # runaway guard: a table that loops fails loudly
        task = ctx.task
        st = step_of(task)
        result = OPS[st["op"]](ctx, st)
        kind = result[0]
        if kind == "go":
            enter(ctx, result[1])
            continue
        if kind == "switch":
            task["hz"] = result[1]
            task["lane"], task["pos"] = None, 0
            enter(ctx, result[2])
            continue
        if kind == "need":
            if (ctx.roll or ctx.choice is not None) and not ctx.used:
                raise IllegalAction(NOT_AN_ANSWER)
            return result
        if kind == "end":
            task["at"] = result[1]
            task["c"] = {}
            return result
        if kind == "exit":
            return result
        raise AssertionError(f"op {st['op']} returned {kind}")
    raise AssertionError(f"hazard {ctx.task['hz']} loops")


ODD, EVEN, ROLL_DIE, ROLL_MOVE = say("faces.odd"), say("faces.even"), say("roll.die"), say("choice.roll")


def faces_text(faces: list[int]) -> Msg:
    """The faces a throw needs: "an odd number", "an 8", "4, 5 or 6"."""
    faces = sorted(faces)
    if faces == [1, 3, 5, 7]:
        return ODD
    if faces == [2, 4, 6, 8]:
        return EVEN
    if len(faces) == 1:
        return say("faces.one_an" if faces[0] == 8 else "faces.one", face=faces[0])
    return say("faces.some", faces=", ".join(map(str, faces[:-1])), last=faces[-1])


def roll_label(d: dict[str, Any], task: dict[str, Any]) -> Msg:
    """What the throw the parked step waits for can do, for the Roll button (how far it has
    come is the prompt's: `roll_progress`)."""
    st = step_of(task)
    op = st["op"]
    if op == "roll_hit":
        need = st.get("need", 1)
        if need == 1:
            return say("roll.hit", faces=faces_text(st["faces"]))
        return say("roll.hit_twice" if need == 2 else "roll.hit_times", faces=faces_text(st["faces"]), n=need)
    if op == "roll_sum":
        return say("roll.sum", total=st["at_least"])
    if op == "walk":
        return ROLL_MOVE
    if op == "climb":
        return say("roll.climb", faces=faces_text(st["faces"]))
    if op == "fight":
        m = MONSTERS[task["v"]["monster"]]
        item = task["v"].get("item")
        bonus = m["fears"].get(item, 0) if item else 0
        return say("roll.fight", total=max(1, m["strength"] - bonus))
    return ROLL_DIE


def roll_progress(task: dict[str, Any]) -> Msg | None:
    """How far the throws the parked step waits for have come: "1 so far, throw 2 of 6" (None at
    a step that throws no die)."""
    st = step_of(task)
    c = task["c"]
    op = st["op"]
    if op == "roll_hit":
        hits = c.get("hits", 0) if st.get("need", 1) > 1 else None
        if st.get("per_turn"):
            return say("progress.per_turn") if hits is None else say("progress.per_turn_hits", hits=hits)
        throw, of = c.get("tries", 0) + 1, st.get("tries", 1)
        return say("progress.throw", throw=throw, of=of) if hits is None \
            else say("progress.throw_hits", hits=hits, throw=throw, of=of)
    if op == "roll_sum":
        return say("progress.sum", total=c.get("sum", 0), throw=c.get("n", 0) + 1, of=st["rolls"])
    if op == "walk":
        return say("progress.walk", pos=task["pos"], length=HAZARDS[task["hz"]].lanes[st["lane"]])
    if op == "climb":
        return say("progress.climb", count=task["pos"])
    return None


def label(task: dict[str, Any]) -> Msg:
    """Where the adventurer is in the hazard, in words (for the board and the prompt)."""
    st = HAZARDS[task["hz"]].steps[task["at"]]
    if st.get("show"):
        return say("hazard.doing", hazard=HAZARD[task["hz"]], show=step(task["hz"], task["at"], "show"))
    return HAZARD[task["hz"]]


# -------------------------------------------------------------------- loading and checking
def load(raw: dict[str, Any] = RAW) -> dict[str, Hazard]:
    table: dict[str, Hazard] = {}
    for hid, spec in raw.items():
        steps: dict[str, dict[str, Any]] = {}
        for st in spec["steps"]:
            if st["id"] in steps:
                raise ValueError(f"hazards.toml: {hid} has two steps called {st['id']}")
            if st["op"] not in OPS:
                raise ValueError(f"hazards.toml: {hid}.{st['id']} uses unknown op {st['op']!r}")
            steps[st["id"]] = dict(st)
        table[hid] = Hazard(hid, spec["name"], spec.get("kind", "crossing"), spec["start"],
                            dict(spec.get("lanes", {})), steps)
    for hz in table.values():
        if hz.start not in hz.steps:
            raise ValueError(f"hazards.toml: {hz.id} starts at unknown step {hz.start}")
        for st in hz.steps.values():
            targets = [st[k] for k in TARGET_KEYS if k in st]
            targets += [c["go"] for c in st.get("map", ())] + [c["go"] for c in st.get("cases", ())]
            targets += [o["go"] for o in st.get("options", ())] + [h["go"] for h in st.get("hits", ())]
            for target in targets:
                if target not in hz.steps:
                    raise ValueError(f"hazards.toml: {hz.id}.{st['id']} goes to unknown step {target!r}")
            for spec in (*st.get("options", ()), *st.get("cases", ())):
                if "flag" in spec and spec["flag"] not in FLAGS:
                    raise ValueError(f"hazards.toml: {hz.id}.{st['id']} tests unknown flag {spec['flag']}")
                for item in (*spec.get("needs", ()), *spec.get("any", ()), *spec.get("none", ())):
                    if item not in ITEMS:
                        raise ValueError(f"hazards.toml: {hz.id}.{st['id']} names unknown item {item}")
            if st["op"] == "walk" and st["lane"] not in hz.lanes:
                raise ValueError(f"hazards.toml: {hz.id}.{st['id']} walks unknown lane {st['lane']}")
            if st["op"] == "roll_map":
                faces = sorted(f for c in st["map"] for f in c["faces"])
                if faces != list(range(1, stock.DIE + 1)):
                    raise ValueError(f"hazards.toml: {hz.id}.{st['id']} does not map every face once")
            if st["op"] == "exit" and st["to"] not in ("far", "near", "either", "here", "surround") \
                    and st["to"] not in BOARD.exits:
                raise ValueError(f"hazards.toml: {hz.id}.{st['id']} exits to unknown {st['to']}")
            if st["op"] == "to_hazard" and (st["hazard"] not in table
                                            or st["step"] not in table[st["hazard"]].steps):
                raise ValueError(f"hazards.toml: {hz.id}.{st['id']} switches to unknown {st['hazard']}")
    for hid in BOARD.hazards:
        if hid not in table:
            raise ValueError(f"board.toml places hazard {hid}, which hazards.toml does not define")
    return table


HAZARDS: dict[str, Hazard] = load()

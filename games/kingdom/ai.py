"""AI players for Key to the Kingdom: decided from the seat's view and prompt only.

"random" picks any legal choice. "smart" plans routes: it measures the Kingdom in expected turns (a
step of track is a fraction of a throw; a hazard costs what it usually costs with the equipment the
adventurer carries, data/kingdom/ai.toml; a Whirlpool turns its panel over, so hidden Worlds are
reachable through it) and heads for the cheapest goal: a Key
Location still holding a Treasure, a rival carrying Treasure (the one it saw take the Key first), and
the Gate once it holds the Key and another Treasure. It picks hazard ways by their odds (worked out
from the hazard's own step table), fights with the equipment the monster fears most, moves the Demon
King onto rivals and away from itself, stays off the Demon King's ground when it can, runs off a
folding panel, and uses Deep Magic when the fold would catch it or carry a rival with Treasure.
It leaves a Key Location to a rival who is nearer to it (so the adventurers spread out), and one
carrying Treasure keeps out of a rival's next throw where it can (so steals stay occasional). The
Wizard is worth a trip once anything of its own or a Treasure holder is lost (the more, the sooner).
It does not go to the Ring just for Deep Magic: measured against the previous AI, carriers who did
won fewer games (the roll for a card costs turns a fold seldom takes back).

The board and the hazard tables are public, so reading them is fair; everything about the game in
progress comes from the view (positions, equipment, how many holders each seat carries, the seat's
own Treasures and what it has learned).
"""
from __future__ import annotations

import heapq
from functools import lru_cache
from math import comb
from typing import Any

from data import load_toml
from games.core import Prompt, Rng

from .board import BOARD
from .hazards import HAZARDS
from .stock import DIE, MONSTERS, SETUP

PREFS: dict[str, Any] = load_toml("kingdom", "ai.toml")
STEP = PREFS["step"]        # turns per space of track (an average throw is 4.5)
FOLD = PREFS["fold"]        # turns to jump into a Whirlpool and have the panel turn over
FIGHT = PREFS["fight"]      # turns to win a monster fight, on average
# Expected turns to get across each hazard: "bare" without the equipment that helps, and with each
# piece that does (data/kingdom/ai.toml); an adventurer counts on the best piece it carries.
HAZARD_TURNS: dict[str, dict[str, float]] = PREFS["hazard_turns"]
ITEM_VALUE = {"fire": 1.0, "axe": 0.95, "sword": 0.9, "rope": 0.85, "hook": 0.8, "shield": 0.75,
              "net": 0.7, "food": 0.65}
FOLDS = tuple({"west": w, "east": e} for w in ("in", "out") for e in ("in", "out"))


def fold_key(fold: dict[str, str]) -> tuple[str, str]:
    return (fold["west"], fold["east"])


# ---------------------------------------------------------------- route costs
def kit_of(equip: list[str]) -> tuple[str, ...]:
    """The equipment that bears on route costs, as a cache key."""
    return tuple(sorted(set(equip)))


def hazard_turns(hz: str, kit: tuple[str, ...] = ()) -> float:
    turns = HAZARD_TURNS.get(hz, {"bare": 2.0})
    return min([turns["bare"], *(turns[i] for i in kit if i in turns)])


@lru_cache(maxsize=2048)
def costs_to(target: str, kit: tuple[str, ...] = ()) -> dict[tuple[str, tuple[str, str]], float]:
    """Expected turns from every (space, fold) to `target` (in whichever fold shows it), for an
    adventurer carrying `kit`."""
    dist: dict[tuple[str, tuple[str, str]], float] = {}
    heap: list[tuple[float, str, tuple[str, str]]] = []
    for fold in FOLDS:
        if BOARD.present(target, fold):
            heap.append((0.0, target, fold_key(fold)))
    heapq.heapify(heap)
    while heap:
        cost, node, fk = heapq.heappop(heap)
        if (node, fk) in dist:
            continue
        dist[(node, fk)] = cost
        fold = {"west": fk[0], "east": fk[1]}
        for nb in BOARD.neighbours(node, fold):
            if (nb, fk) not in dist:
                heapq.heappush(heap, (cost + STEP, nb, fk))
        for hz in BOARD.hazards_at(node):
            far = BOARD.far_end(hz, node)
            if BOARD.present(far, fold) and (far, fk) not in dist:
                heapq.heappush(heap, (cost + hazard_turns(hz, kit), far, fk))
        for panel, pool in BOARD.pools().items():
            if node == pool:
                other = dict(fold)
                other[panel] = "out" if fold[panel] == "in" else "in"
                ok = fold_key(other)
                if (node, ok) not in dist:
                    heapq.heappush(heap, (cost + FOLD, node, ok))
    return dist


def cost(space: str | None, fold: dict[str, str], target: str, kit: tuple[str, ...] = ()) -> float:
    if space is None:
        return 99.0
    return costs_to(target, kit).get((space, fold_key(fold)), 99.0)


# ---------------------------------------------------------------- odds from the step tables
@lru_cache(maxsize=None)
def at_least_hits(tries: int, need: int, p: float) -> float:
    return sum(comb(tries, k) * p ** k * (1 - p) ** (tries - k) for k in range(need, tries + 1))


@lru_cache(maxsize=None)
def sum_reaches(rolls: int, target: int) -> float:
    """P(the total of up to `rolls` throws reaches `target`)."""
    dist = {0: 1.0}
    for _ in range(rolls):
        nxt: dict[int, float] = {}
        for total, pr in dist.items():
            for f in range(1, DIE + 1):
                nxt[total + f] = nxt.get(total + f, 0.0) + pr / DIE
        dist = nxt
    return sum(pr for total, pr in dist.items() if total >= target)


def step_odds(hz: str, step_id: str, depth: int = 0) -> float:
    """Rough chance that the hazard step `step_id` gets you out this turn (1: it just does)."""
    st = HAZARDS[hz].steps[step_id]
    op = st["op"]
    if op == "roll_hit":
        p = len(st["faces"]) / DIE
        if st.get("per_turn"):
            return 0.8 * p
        return at_least_hits(st.get("tries", 1), st.get("need", 1), p)
    if op == "roll_sum":
        return sum_reaches(st["rolls"], st["at_least"])
    if op == "roll_map":
        good = [c for c in st["map"] if HAZARDS[hz].steps[c["go"]]["op"] in ("exit", "drop")]
        return sum(len(c["faces"]) for c in good) / DIE
    if op in ("drop", "set") and depth < 3:
        return 0.95 * step_odds(hz, st["go"], depth + 1) if HAZARDS[hz].steps[st["go"]]["op"] != "wait" else 0.6
    if op == "wait":
        return 0.5
    return 1.0


def item_cost(hz: str, step_id: str, equip: list[str]) -> float:
    """What a way costs in equipment (it gives up an item on its path)."""
    st = HAZARDS[hz].steps[step_id]
    if st["op"] == "drop" and st["item"] in ITEM_VALUE:
        return 0.35 * ITEM_VALUE[st["item"]] / (equip.count(st["item"]) or 1)
    return 0.0


def drop_choice(actions: list[str], view: dict[str, Any], me: dict[str, Any]) -> str:
    equip = me["equip"]

    def keep(action: str) -> tuple[int, float]:
        item = action.split()[1]
        return (-equip.count(item), ITEM_VALUE.get(item, 0.5))
    return min(actions, key=keep)


# ---------------------------------------------------------------- goals
def goals(view: dict[str, Any], seat: int) -> list[tuple[str, float]]:
    """(space, extra turns) worth reaching: Key Locations still holding a Treasure, rivals carrying
    Treasure who are close (far ones move on before you get there; the one it saw take the Key is
    worth a longer chase), the lost holders at the Ring, the Wizard once there is enough to ask him
    for; the Gate once it can escape."""
    me = view["players"][seat]
    hand = view["hand"] or []
    if "key" in hand and len(hand) >= 2:
        return [(BOARD.start, 0.0)]
    out: list[tuple[str, float]] = []
    mine = cost_of(me, view["fold"])
    for loc, full in view["locations"].items():
        if full:
            out.append((loc, FIGHT + crowding(view, seat, loc, mine(loc))))
    knows = (view.get("knows") or {}).get("key")
    for other in view["players"]:
        s = other["seat"]
        if s == seat or not other["treasures"] or other["task"] is not None or other["at"] is None:
            continue
        if other["at"] in BOARD.safe:
            continue
        # a rival's holders are no likelier to hold the Key than a Key Location is: chase one
        # only when any Treasure will do (it holds the Key), or it saw who took the Key
        if knows != s and "key" not in hand:
            continue
        reach = 5.0 if knows == s else 2.5
        if cost(me["at"], view["fold"], other["at"], kit_of(me["equip"])) > reach:
            continue
        bonus = 0.0 if knows == s else (1.0 if "key" in hand else 1.5)
        out.append((other["at"], bonus))
    holders = lost_holders(view)
    if holders:
        out.append(("ring", 2.5))
    lost_mine = sum(1 for e in view["lost_equipment"] if e["owner"] == seat)
    if not me["wizard_used"] and (lost_mine or holders):
        out.append((BOARD.wizard, wizard_cost(lost_mine, holders)))
    if not out:
        out.append(("ring", 2.0))
    return out


def lost_holders(view: dict[str, Any]) -> int:
    """Lost Treasure holders that may hold a Treasure: the Cobra lies among them (cards.toml)."""
    return max(0, view["lost_treasures"] - SETUP["cobra_in_lost"])


def wizard_cost(lost_mine: int, holders: int) -> float:
    """Extra turns a trip to the Wizard is thought to cost, less what he would give back: every
    lost piece of one's own equipment and every lost Treasure holder make the trip pay sooner. It is
    never thought cheaper than a fight for a Treasure."""
    payoff = PREFS["wizard_item"] * lost_mine + PREFS["wizard_holder"] * holders
    return max(FIGHT, PREFS["wizard"] - payoff)


def cost_of(player: dict[str, Any], fold: dict[str, str]) -> Any:
    """A player's cost to a target, by the equipment the table sees them carry."""
    kit = kit_of(player["equip"])
    return lambda target: cost(player["at"], fold, target, kit)


def crowding(view: dict[str, Any], seat: int, loc: str, my_cost: float) -> float:
    """Extra turns a Key Location is thought to cost when a rival is nearer to it: only one
    Treasure lies there, so the nearer rival will most likely take it first. This is what spreads
    the adventurers over the Kingdom instead of every one racing to the nearest Location."""
    for other in view["players"]:
        if other["seat"] == seat or other["at"] is None or other["spot"] is not None:
            continue
        if cost_of(other, view["fold"])(loc) < my_cost - PREFS["nearer"]:
            return PREFS["crowded"]
    return 0.0


def best_cost(space: str | None, fold: dict[str, str], targets: list[tuple[str, float]],
              kit: tuple[str, ...] = ()) -> float:
    return min(cost(space, fold, t, kit) + extra for t, extra in targets)


@lru_cache(maxsize=256)
def dist_from(fk: tuple[str, str], source: str) -> dict[str, int]:
    return BOARD.distances({"west": fk[0], "east": fk[1]}, source)


def demon_danger(space: str, view: dict[str, Any]) -> float:
    """Risk of ending a move where the Demon King can reach next."""
    if space in BOARD.safe:
        return 0.0
    near = set(BOARD.neighbours(space, view["fold"])) | {space}
    if not (near & BOARD.demon):
        return 0.0
    d = dist_from(fold_key(view["fold"]), view["demon"]).get(space, 99)
    return 0.9 if d <= DIE + 1 else 0.3


def exposed(space: str, view: dict[str, Any], seat: int) -> bool:
    """Whether a rival could land on `space` with its next throw and rob whoever waits there."""
    fk = fold_key(view["fold"])
    for other in view["players"]:
        if other["seat"] != seat and other["at"] is not None and other["spot"] is None \
                and other["task"] is None and dist_from(fk, other["at"]).get(space, 99) <= DIE:
            return True
    return False


# ---------------------------------------------------------------- deciding
def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    actions = [c.action for c in prompt.choices]
    if level != "smart" or len(actions) == 1:
        return actions[rng.below(len(actions))]
    return Smart(view, prompt, rng).decide(actions)


class Smart:
    def __init__(self, view: dict[str, Any], prompt: Prompt, rng: Rng) -> None:
        self.view = view
        self.seat = prompt.seat
        self.me = view["players"][self.seat]
        self.fold = view["fold"]
        self.rng = rng
        self.targets = goals(view, self.seat)
        self.kit = kit_of(self.me["equip"])

    def here_cost(self, space: str | None, fold: dict[str, str] | None = None) -> float:
        return best_cost(space, fold or self.fold, self.targets, self.kit)

    def decide(self, actions: list[str]) -> str:
        verbs = {a.split()[0] for a in actions}
        if verbs <= {"deep", "let"}:
            return self.deep()
        if verbs <= {"demon"}:
            return max(actions, key=self.demon_score)
        if verbs <= {"move", "stay"} and self.view["phase"] == "fold":
            return min(actions, key=self.run_score)
        if verbs <= {"move", "stay"}:
            return min(actions, key=self.move_score)
        if verbs <= {"steal", "leave"}:
            steals = [a for a in actions if a != "leave"]
            return max(steals, key=self.steal_score) if steals else "leave"
        if verbs <= {"drop"}:
            return drop_choice(actions, self.view, self.me)
        if verbs <= {"take", "done"}:
            return self.take(actions)
        if verbs <= {"go"}:
            return min(actions, key=lambda a: self.here_cost(a.split()[1])
                       + demon_danger(a.split()[1], self.view))
        if verbs <= {"use"}:
            return self.use(actions)
        return self.act(actions)

    # ---- the start of a turn, or after stopping on a dagger
    def act(self, actions: list[str]) -> str:
        hand = self.view["hand"] or []
        if "fight" in actions and not ("key" in hand and len(hand) >= 2):
            return "fight"
        if "visit" in actions:
            mine = [e for e in self.view["lost_equipment"] if e["owner"] == self.seat]
            if mine or lost_holders(self.view):
                return "visit"
        at = self.me["at"]
        here = self.here_cost(at)
        crosses = [a for a in actions if a.startswith("cross ")]
        best = None
        for a in crosses:
            hz = a.split()[1]
            through = self.here_cost(BOARD.far_end(hz, at)) + hazard_turns(hz, self.kit)
            if through <= here + 0.05 and (best is None or through < best[0]):
                best = (through, a)
        if best is not None:
            return best[1]
        if "roll" in actions:
            return "roll"
        if "stay" in actions:
            return "stay"
        return min(crosses, key=lambda a: self.here_cost(BOARD.far_end(a.split()[1], at))) if crosses \
            else actions[0]

    # ---- ways through a hazard, weapons
    def use(self, actions: list[str]) -> str:
        task = self.me["task"]
        monster = self.view.get("monster")
        if monster and task and task["hazard"] == "fight":
            fears = MONSTERS[monster["id"]]["fears"]
            return max(actions, key=lambda a: fears.get(a.split()[1], 0))
        if task is None:
            return actions[0]
        hz, step = task["hazard"], task["step"]
        st = HAZARDS[hz].steps[step]
        if hz == "ring_of_stones":
            return self.ring(actions)
        options = {f"use {o['key']}": o for o in st.get("options", ())}
        equip = self.me["equip"]

        def score(action: str) -> float:
            opt = options.get(action)
            if opt is None:
                return 0.0
            if opt["key"] in ("wait", "giveup"):
                return 0.3
            return step_odds(hz, opt["go"]) - item_cost(hz, opt["go"], equip)
        return max(actions, key=score)

    def ring(self, actions: list[str]) -> str:
        if "use roll" in actions:
            return "use roll"
        if "use cards" in actions and (lost_holders(self.view) or len(self.view["lost_equipment"]) >= 2):
            return "use cards"
        if "use deep" in actions:
            return "use deep"
        return actions[0]

    def take(self, actions: list[str]) -> str:
        task = self.me["task"] or {}
        lost = self.view["lost_treasures"]
        if task.get("hazard") == "wizard" and task.get("step") == "choose":
            # the Cobra is always among the lost holders: ask for about all but one of them
            return "take holder" if "take holder" in actions and self.rng.below(lost) else "done"
        if "take holder" in actions and lost >= 2:
            return "take holder"
        return self.best_item(actions)

    def best_item(self, actions: list[str]) -> str:
        items = [a for a in actions if a.startswith("take ") and a != "take holder"]
        if not items:
            return "done" if "done" in actions else actions[0]
        equip = self.me["equip"]
        return max(items, key=lambda a: ITEM_VALUE.get(a.split()[1], 0.5) - 0.4 * equip.count(a.split()[1]))

    # ---- the Demon King
    def demon_score(self, action: str) -> float:
        space = action.split()[1]
        near = set(BOARD.neighbours(space, self.fold)) | {space}
        score = 0.0
        knows = (self.view.get("knows") or {}).get("key")
        for other in self.view["players"]:
            on_track = other["task"] is None and other["spot"] is None and other["at"] is not None
            if not on_track or other["at"] not in near or other["at"] in BOARD.safe:
                continue
            if other["seat"] == self.seat:
                score -= 50
            else:
                score += 3 + 2 * other["treasures"] + (4 if knows == other["seat"] else 0)
        at = self.me["at"]
        if at is not None:
            score += 0.1 * min(12, dist_from(fold_key(self.fold), space).get(at, 12))
        return score

    # ---- moving
    def move_score(self, action: str) -> float:
        if action == "stay":
            return 50.0
        space = action.split()[1]
        fold = dict(self.fold)
        kind = BOARD.spaces[space].kind
        if kind == "pool":
            panel = BOARD.panel_of(space)
            fold[panel] = "out" if fold[panel] == "in" else "in"
        score = self.here_cost(space, fold)
        detour = BOARD.detours.get(self.me["barred"] or "")
        if detour:  # barred from a hazard until it has been round: either go round, or do without
            round_trip = min(cost(space, fold, d, self.kit) + self.here_cost(d, fold) for d in detour)
            score = min(score + PREFS["barred"], round_trip)
        if kind == "pool":
            score += FOLD
        hand = self.view["hand"] or []
        score += self.demon_risk(space, hand)
        score += self.exposure(space, hand)
        if kind == "supply" and len(self.me["equip"]) < 5:
            score -= 0.25
        return score

    def demon_risk(self, space: str, hand: list[str]) -> float:
        """Turns a move onto `space` is thought to risk to the Demon King: a rough danger near his
        ground, dearer the more Treasure is carried."""
        return demon_danger(space, self.view) * (2.0 + 0.5 * len(hand))

    def exposure(self, space: str, hand: list[str]) -> float:
        """The cost of standing, Treasure in hand, within a rival's next throw."""
        if hand and space not in BOARD.safe and exposed(space, self.view, self.seat):
            return PREFS["exposed"] * len(hand)
        return 0.0

    def steal_score(self, action: str) -> float:
        colour = action.split()[1]
        other = next(o for o in self.view["players"] if o["colour"] == colour)
        knows = (self.view.get("knows") or {}).get("key")
        return other["treasures"] + (5 if knows == other["seat"] else 0)

    # ---- the fold
    def deep(self) -> str:
        job = self.view["fold_job"] or {}
        at = self.me["at"]
        mine = self.me["spot"] is None and at is not None and BOARD.panel_of(at) == job.get("panel")
        pool = BOARD.panels[job["panel"]]["pool"] if job else None
        if mine and at != pool:
            return "deep"
        # the jumper wants the World behind the panel: deny it to one who carries Treasure (or the Key)
        jumper = self.view["players"][job["jumper"]] if job else None
        knows = (self.view.get("knows") or {}).get("key")
        threat = jumper is not None and (jumper["treasures"] or knows == jumper["seat"])
        return "deep" if threat else "let"

    def run_score(self, action: str) -> float:
        if action == "stay":
            return 50.0
        space = action.split()[1]
        job = self.view["fold_job"]
        panel = job["panel"]
        if space == BOARD.start:
            return -10.0
        if BOARD.panel_of(space) != panel or space == BOARD.panels[panel]["pool"]:
            return -5.0 + 0.01 * self.here_cost(space)
        return safety_steps(space, panel, fold_key(self.fold))


@lru_cache(maxsize=None)
def safety_steps(space: str, panel: str, fk: tuple[str, str]) -> float:
    fold = {"west": fk[0], "east": fk[1]}
    pool = BOARD.panels[panel]["pool"]
    dist = BOARD.distances(fold, space)
    best = min((d for s, d in dist.items() if BOARD.panel_of(s) != panel or s == pool), default=99)
    return float(best)


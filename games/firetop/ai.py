"""AI players for The Warlock of Firetop Mountain.

"random" picks uniformly among the prompt's choices. "smart" decides from its seat's view alone
(the board, public scores, its own Key cards, rucksack and what it has learned):

- keys: it keeps the set of chest triples consistent with what it knows (its own Key cards, Key
  cards it has seen held, keys it knows are under the chest, every public try at the chest with
  its count of wrong keys, and, against one rival, the numbers he challenged for: seldom his own),
  challenges for the number that splits that set most evenly, and goes to the Treasure Room once
  a likely triple is covered by the Bunches of Keys it carries, or with its best guess once the
  rounds left (the limit is public) only leave time for the walk;
- moving: it walks towards the best target (the Treasure Room when ready, the Warlock's orb, unexplored
  rooms, treasure left lying about, the healing spring when hurt), weighing the value of each
  target against its walking cost over the board's route graph (crossings it can pay for,
  passages, the Maze), and leaves alone a room whose monster it would flee from again;
- fights when it should (escapes a battle it will likely lose, attacks adventurers likely to carry
  a Bunch of Keys it lacks, counting the Bunches nobody has seen as spread over every unseen
  treasure card), eats when hurt, confers with anyone it shares a square with. It walks after
  another adventurer only when the table has seen him carry a number it lacks, or the rooms are
  bare: chasing unseen rucksacks across the board cost more rounds than it won keys.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from games.core import Prompt, Rng

from .board import BOARD, route_costs
from .content import CARDS, CHEST_KEYS, FERRY_GOLD, FIXED, NUMBERS, RUCKSACK, TREASURES, WARES, WOUND

HURRY_MARGIN = 4.0  # rounds to spare beyond the walk to the chest before a guess must be tried
SWORD_BY_NAME = {c["name"]: c["attack"] for c in TREASURES.values() if c["kind"] == "sword"}
BUNCHES = {cid: frozenset(c["keys"]) for cid, c in TREASURES.items() if c["kind"] == "keys"}
MONSTER_BY_NAME = {c["name"]: c for c in (*CARDS.values(), *FIXED.values()) if "skill" in c}
ALL_TRIPLES = [frozenset(t) for t in combinations(range(1, NUMBERS + 1), CHEST_KEYS)]
HUNT_FROM = 0.5  # share of the round limit after which missing keys are hunted from other adventurers


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    actions = [c.action for c in prompt.choices]
    if level != "smart" or len(actions) == 1:
        return actions[rng.below(len(actions))]
    return Smart(view, actions, rng).decide()


# P(our total beats theirs in one Attack Round) by Skill difference; a loss is the same at -diff,
# and a tie (about 11%) is fought again.
ROUND_WIN = {-4: 0.1, -3: 0.16, -2: 0.24, -1: 0.34, 0: 0.44, 1: 0.56, 2: 0.66, 3: 0.76, 4: 0.84}


@lru_cache(maxsize=None)
def battle_odds(diff: int, mine: int, theirs: int) -> float:
    """Chance of landing `theirs` wounding rounds before taking `mine`, ties not counting: the
    chance of a race of decisive rounds, each ours with odds win / (win + loss)."""
    win, loss = ROUND_WIN[diff], ROUND_WIN[-diff]
    r = win / (win + loss)
    return sum(comb(theirs - 1 + k, k) * r ** theirs * (1 - r) ** k for k in range(max(1, mine)))


@lru_cache(maxsize=None)
def cost_to(target: str, maze: bool = True, ferry: bool = True) -> dict[str, float]:
    return route_costs(target, maze, ferry)


def rucksack_cards(other: dict[str, Any]) -> int:
    """Treasure cards another adventurer carries in the rucksack (where Bunches of Keys go): his
    treasure count less the treasure swords the table has seen him use."""
    seen_swords = sum(1 for name in other["swords"] if name in SWORD_BY_NAME)
    return max(0, other["treasures"] - seen_swords)


def carried(items: list[str]) -> set[int]:
    return {n for cid in items if TREASURES[cid]["kind"] == "keys" for n in TREASURES[cid]["keys"]}


class Smart:
    def __init__(self, view: dict[str, Any], actions: list[str], rng: Rng) -> None:
        self.view = view
        self.actions = actions
        self.rng = rng
        self.secret = view["secret"]
        self.seat = self.secret["seat"]
        self.me = view["players"][self.seat]
        self.by_verb: dict[str, list[str]] = {}
        for action in actions:
            self.by_verb.setdefault(action.split()[0], []).append(action)

    # ------------------------------------------------------------ knowledge
    @property
    def candidates(self) -> list[frozenset[int]]:
        if not hasattr(self, "_cands"):
            own = set(self.secret["keys"])
            held = {int(n) for n, who in self.secret["held"].items() if who}
            chest = set(self.secret["chest"])
            self._cands = self.consistent(own | held, chest | self.rival_asked(own)) \
                or self.consistent(own | held, chest) or [t for t in ALL_TRIPLES if not t & own]
        return self._cands

    def consistent(self, outside: set[int], inside: set[int]) -> list[frozenset[int]]:
        """The triples with every number of `inside`, none of `outside`, that give every public
        try at the chest its count of wrong keys."""
        return [t for t in ALL_TRIPLES if not t & outside and inside <= t
                and all(len(set(a["keys"]) - t) == a["wrong"] for a in self.view["attempts"])]

    def rival_asked(self, own: set[int]) -> set[int]:
        """With one rival, the numbers he challenged for that are not ours: under the chest, if he
        asks only about numbers he lacks, as players do (naming his own is allowed, and a bluff:
        when what we see later contradicts it, the candidates are made without it)."""
        if len(self.view["players"]) != 2:
            return set()
        return {c["n"] for c in self.view["challenges"] if c["seat"] != self.seat} - own

    def chance(self, n: int) -> float:
        cands = self.candidates
        return sum(1 for t in cands if n in t) / len(cands)

    @property
    def keys_carried(self) -> set[int]:
        return carried(self.secret["items"])

    def ready(self) -> frozenset[int] | None:
        """A triple worth trying at the chest: covered by our keys and likely enough, or the best
        guess we carry when the rounds left would not let us learn more first."""
        if not hasattr(self, "_ready"):
            cands = self.candidates
            cover = [t for t in cands if t <= self.keys_carried]
            # a wrong try is a Key Challenge too (it shows who holds the wrong keys): worth a guess
            # when the keys carried cover a fair part of what is still possible, or time runs short
            go = cover and (len(cands) <= 3 or len(cover) * 3 >= len(cands) or self.hurry())
            self._ready = self.best_try(cover) if go else None
        return self._ready

    def best_try(self, cover: list[frozenset[int]]) -> frozenset[int]:
        """The covered triple whose try, if wrong, leaves the fewest triples on average: the
        count of wrong keys announced splits the candidates."""
        cands = self.candidates

        def left(t: frozenset[int]) -> int:
            sizes: dict[int, int] = {}
            for c in cands:
                w = len(t - c)
                sizes[w] = sizes.get(w, 0) + 1
            return sum(n * n for n in sizes.values())
        return min(cover, key=left)

    def hurry(self) -> bool:
        """Too few rounds left to learn more before walking to the chest."""
        left = self.view["limit"] - self.view["round"]
        walk = self.costs("treasure").get(self.where(), 30.0) / 3.5
        return left <= walk + HURRY_MARGIN

    def needed(self) -> set[int]:
        """Key numbers we still lack for the likeliest triples."""
        return {n for t in self.candidates for n in t} - self.keys_carried

    def useful(self, cid: str) -> bool:
        """A Bunch of Keys carrying a number we lack."""
        return cid in BUNCHES and bool(BUNCHES[cid] & self.needed())

    @staticmethod
    def hidden_cards(other: dict[str, Any]) -> int:
        """Rucksack cards of another adventurer that the table has not seen."""
        shown = sum(1 for cid in other["shown_ids"] if cid in TREASURES and TREASURES[cid]["kind"] != "sword")
        return max(0, rucksack_cards(other) - shown)

    def slot_odds(self) -> float:
        """Chance that one treasure card nobody has seen (in a room not yet looted, in a pile, in a
        rival's rucksack) is a Bunch of Keys we can use: the useful Bunches not seen anywhere
        spread evenly over every such card."""
        if not hasattr(self, "_slot_odds"):
            seen = set(self.secret["items"]) | {cid for q in self.view["players"] for cid in q["shown_ids"]}
            unseen = [cid for cid in BUNCHES if cid not in seen and self.useful(cid)]
            slots = self.room_slots() + sum(p["count"] for p in self.view["piles"] if p["owner"] != self.seat) \
                + sum(self.hidden_cards(q) for q in self.rivals())
            self._slot_odds = min(1.0, len(unseen) / slots) if slots else 0.0
        return self._slot_odds

    def room_slots(self) -> int:
        return sum(1 for rid, r in self.view["rooms"].items() if not r["looted"] and rid not in ("study", "treasure"))

    def rivals(self) -> list[dict[str, Any]]:
        return [q for q in self.view["players"] if q["seat"] != self.seat]

    def keys_on(self, other: dict[str, Any]) -> float:
        """How many Bunches we can use `other` likely carries: those seen, and a share of the unseen."""
        seen = sum(1 for cid in other["shown_ids"] if self.useful(cid))
        return seen + self.hidden_cards(other) * self.slot_odds()

    # ------------------------------------------------------------ places
    def targets(self) -> list[tuple[str, float]]:
        view, me, seat = self.view, self.me, self.seat
        out: list[tuple[str, float]] = []
        if self.ready() is not None:
            out.append(("treasure", 60.0))
        hurt = me["stamina"] / max(1, me["stamina0"])
        rooms = view["rooms"]
        if rooms["study"]["barred"] != seat and len(self.candidates) > 1 and me["luck"] >= 6 \
                and me["stamina"] > 6:
            out.append(("study", 14.0 + 2 * min(len(self.candidates), 10) / 10))
        if self.sword_to_buy() and rooms["pedlar"]["barred"] != seat:
            out.append(("pedlar", 16.0))
        if rooms["spring"]["barred"] != seat and hurt < 0.6:
            out.append(("spring", 18.0 * (1 - hurt)))
        need = bool(self.needed())
        for rid, room in rooms.items():
            if room["looted"] or room["barred"] == seat or rid in ("study", "treasure") or self.walled(rid):
                continue
            value = 12.0 if need else 5.0
            if room["waiting"] or (room["fixed"] and rid == "guardroom"):
                value -= 3.0 if self.nerve() > 0.6 else 9.0
            elif not room["visited"] and self.nerve() < 0.35:
                value -= 6.0
            out.append((rid, value))
        for pile in view["piles"]:
            if self.walled(pile["node"]):
                continue
            if pile["owner"] == seat or pile["owner"] is None and not self.leftovers_likely():
                out.append((pile["node"], 8.0 + 2 * pile["count"] + (10 if pile["owner"] == seat else 0)))
        if self.hunting():
            for other in self.rivals():
                if self.robbable(other) and other["pos"] not in BOARD.passages and other["pos"] in BOARD.adj \
                        and (self.holds_needed(other) or self.rooms_exhausted()):
                    gain = self.keys_on(other)
                    if gain >= 0.3:
                        out.append((other["pos"], 6.0 + 14.0 * min(gain, 1.0)
                                    + (8.0 if self.holds_needed(other) else 0.0)))
        if not out:
            out.append(("treasure", 1.0))
        return out

    def potential(self, node: str, targets: list[tuple[str, float]]) -> float:
        best = float("inf")
        for target, value in targets:
            cost = self.costs(target).get(node)
            if cost is None:
                continue
            best = min(best, cost - value)
        return best

    def costs(self, target: str) -> dict[str, float]:
        """Walking costs to `target` by the ways open to us: not through a Maze the table has seen
        blocked, not by the ferry without its fare (planning over it left the penniless pacing the
        south bank for the rest of the game)."""
        return cost_to(target, not self.maze_blocked(), self.me["gold"] >= FERRY_GOLD)

    def where(self) -> str:
        """The node the next move starts from."""
        return self.me["pos"]

    # ------------------------------------------------------------ decisions
    def decide(self) -> str:
        verbs = self.by_verb
        view = self.view
        step = view["step"]
        queue = view["queue"]
        mine = view["current"] == self.seat
        if "extras" in verbs:
            return min(verbs["extras"], key=lambda a: abs(int(a.split()[1]) - 3))
        if queue and queue[0]["seat"] == self.seat:
            kind = queue[0]["kind"]
            if kind == "spoils":
                return self.spoils()
            if kind == "flee":
                return self.best_of(verbs["move"])
            return self.lighten()
        battle = view["battle"]
        if "dice" in verbs:
            return "dice"
        if battle and battle["kind"] == "duel" and battle.get("foe") == self.seat:
            return "escape" if "escape" in verbs and self.should_escape_duel() else "attack"
        if "show" in verbs:
            return self.rng.choice(verbs["show"])
        if not mine:
            return self.actions[0]
        if step == "battle":
            flee = self.should_escape() or battle is not None and battle["kind"] == "duel" and self.losing_duel()
            return "escape" if "escape" in verbs and flee else "attack"
        if step == "shop":
            return self.shop()
        if step == "ask":
            return self.challenge() or "pass"
        if step == "open":
            return self.open_chest()
        if "face" in verbs:
            return "face"
        if step == "move":
            pick = self.challenge() if "challenge" in verbs else None
            if pick:
                return pick
            if "move" in verbs:
                return self.best_of(verbs["move"])
            return self.actions[0]
        if step == "maze":
            return self.maze()
        if step in ("start", "stop"):
            return self.start()
        return self.actions[self.rng.below(len(self.actions))]

    def best_of(self, actions: list[str]) -> str:
        targets = self.targets()
        scored = []
        for action in actions:
            node = action.split()[1]
            score = self.potential(node, targets)
            score += self.danger(node)
            scored.append((score, action))
        scored.sort()
        return scored[0][1]

    def danger(self, node: str) -> float:
        if node not in BOARD.rooms:
            return 0.0
        room = self.view["rooms"][node]
        if room["barred"] == self.seat:
            return 50.0
        if self.walled(node):
            return 20.0
        if (room["waiting"] or (room["fixed"] and node == "guardroom")) and self.nerve() < 0.5:
            return 15.0
        return 0.0

    def challenge(self) -> str | None:
        options = [a for a in self.by_verb.get("challenge", [])]
        if not options or len(self.candidates) <= 1:
            return None
        known = {int(n) for n in self.secret["held"]} | set(self.secret["chest"])
        scored = []
        for action in options:
            n = int(action.split()[1])
            if n in known:
                continue
            c = self.chance(n)
            if c in (0.0, 1.0):
                continue
            scored.append((-min(c, 1 - c), n, action))
        if not scored:
            return None
        scored.sort()
        return scored[0][2]

    def open_chest(self) -> str:
        cands = set(self.candidates)
        tries = {frozenset(int(x) for x in a.split()[1:]): a for a in self.by_verb.get("open", [])}
        cover = [t for t in tries if t in cands]
        return tries[self.best_try(cover)] if cover else "pass"

    def shop(self) -> str:
        me = self.me
        buys = self.by_verb.get("buy", [])
        blades = [a for a in buys if self.sword_bonus(WARES[a.split()[1]]["gives"]) > self.best_sword()]
        if blades:
            return max(blades, key=lambda a: self.sword_bonus(WARES[a.split()[1]]["gives"]))
        for action in buys:
            ware = action.split()[1]
            if WARES[ware]["gives"] == "draught" and "draught" not in self.secret["items"] \
                    and len(self.secret["items"]) < RUCKSACK:
                return action
            if WARES[ware]["gives"] == "provisions" and me["provisions"] < 2:
                return action
        return "pass"

    @staticmethod
    def sword_bonus(cid: str) -> int:
        card = TREASURES.get(cid)
        return card.get("attack", 0) if card is not None and card["kind"] == "sword" else 0

    def best_sword(self) -> int:
        return max(self.sword_bonus(s) for s in self.secret["swords"])

    def sword_to_buy(self) -> bool:
        """The Pedlar sells a better sword than ours that we can pay for."""
        return any(self.sword_bonus(w["gives"]) > self.best_sword() and w["price"] <= self.me["gold"]
                   for w in WARES.values())

    def lighten(self) -> str:
        verbs = self.by_verb
        if "pass" in verbs:
            return "pass"
        options = verbs["drop"]
        needed = self.needed() | set().union(*self.candidates) if self.candidates else set()

        def worth(action: str) -> float:
            cid = action.split()[1]
            card = TREASURES[cid]
            if card["kind"] == "trinket":
                return 0.0
            if card["kind"] == "keys":
                return 5.0 + sum(1 for n in card["keys"] if n in needed)
            if card["kind"] == "sword":
                return 4.0
            return 3.0
        return min(options, key=worth)

    def spoils(self) -> str:
        options = self.by_verb["spoils"]
        for prefix in ("spoils keys lantern", "spoils keys", "spoils random lantern", "spoils random"):
            if prefix in options:
                return prefix
        return options[0]

    def foe_strength(self, skill: int, stamina: int) -> float:
        """Chance we win a battle against skill/stamina (a sword's bonus in it) from here."""
        me = self.me
        diff = me["skill"] + self.best_sword() - skill
        return battle_odds(max(-4, min(4, diff)), -(-me["stamina"] // WOUND), -(-stamina // WOUND))

    def should_escape(self) -> bool:
        """Escape a monster we will likely lose to, unless dying would cost nothing (see `nerve`):
        an escape heals it, so fleeing again and again never gets past it."""
        b = self.view["battle"]
        if b is None or b["kind"] != "monster" or self.nothing_to_lose():
            return False
        if self.me["stamina"] <= 2:
            return False  # a parting blow would kill
        return self.foe_strength(b["skill"], b["stamina"]) < 0.3

    def walled(self, node: str) -> bool:
        """A room whose monster the table has seen (a Fixed Encounter, or a card someone fled
        from) and that we would flee from again: its wounds heal at every escape, so going back
        in only costs turns, until we are stronger or have nothing to lose."""
        room = self.view["rooms"].get(node)
        monster = room and MONSTER_BY_NAME.get(room["waiting"] or room["fixed"] or "")
        if not monster or self.nothing_to_lose():
            return False
        return self.foe_strength(monster["skill"], monster["stamina"]) < 0.3

    def should_escape_duel(self) -> bool:
        """As the one attacked: escape only a fight we will likely lose. Escaping hands the
        attacker every Bunch of Keys we carry, so with keys we fight on at worse odds."""
        return self.duel_odds() < (0.2 if self.keys_carried else 0.4)

    def losing_duel(self) -> bool:
        """As the attacker: the fight has turned against us. Escaping gives the one attacked our
        Bunches of Keys, so with keys we hold on longer."""
        return self.duel_odds() < (0.2 if self.keys_carried else 0.3)

    def duel_odds(self) -> float:
        """Our chance of winning the fight between adventurers we are in; 1.0 when a parting blow
        would kill us (an escape costs Stamina)."""
        b = self.view["battle"]
        if b is None or self.me["stamina"] <= 2:
            return 1.0
        other = self.view["players"][b["seat"] if b["seat"] != self.seat else b["foe"]]
        return self.foe_strength(self.fighting_skill(other), other["stamina"])

    @staticmethod
    def fighting_skill(other: dict[str, Any]) -> int:
        """Another adventurer's Skill with the best sword the table has seen him use."""
        return other["skill"] + max((SWORD_BY_NAME.get(name, 0) for name in other["swords"]), default=0)

    def maze_moves(self) -> list[str]:
        return [a for a in self.by_verb.get("move", []) if a.split()[1] in BOARD.maze_links]

    def maze(self) -> str:
        options = self.maze_moves()
        if not options:
            return "pass" if "pass" in self.actions else self.actions[0]
        targets = self.targets()
        north_goal = min(targets, key=lambda t: self.costs(t[0]).get(self.me["pos"], 99)
                         - t[1])[0]
        north = BOARD.side(north_goal) == "north"

        def score(action: str) -> float:
            node = action.split()[1]
            row = int(node[1:])
            s = row if north else -row
            if node in BOARD.maze_gates:
                s -= 3 if (BOARD.side(node) == "north") == north else -10
            if self.view["maze"].get(node) == "open":
                s -= 1
            return s
        return min(options, key=score)

    def start(self) -> str:
        verbs = self.by_verb
        me = self.me
        if "face" in verbs:
            return "face"
        if "eat" in verbs and me["stamina"] <= me["stamina0"] - 6 and self.ready() is None:
            return "eat"
        fight = self.pick_fight()
        if fight:
            return fight
        for action in verbs.get("confer", []):
            colour = action.split()[1]
            other = next(q for q in self.view["players"] if q["colour"] == colour)
            known = sum(1 for who in self.secret["held"].values() if other["seat"] in who)
            if known < other["keycards"] and len(self.candidates) > 1:
                return action
        if self.view["step"] == "stop":
            return "pass"
        targets = self.targets()
        here = self.where()
        here_score = self.potential(here, targets)
        if "cross" in verbs:
            c = BOARD.crossings[BOARD.crossing_at[here]]
            far = c["north"] if here == c["south"] else c["south"]
            risky = c["id"] == "raft" and me["luck"] < 7 or c["id"] == "bridge" and me["stamina"] < 8
            if self.potential(far, targets) + (4 if risky else 0) < here_score - 2:
                return "cross"
        exits = [a for a in verbs.get("move", []) if a.split()[1] in BOARD.passages]
        if exits:
            best = min(exits, key=lambda a: self.potential(a.split()[1], targets))
            if self.potential(best.split()[1], targets) < here_score - 1:
                return best
        if "grope" in verbs and here_score > 5:
            return "grope"
        if self.maze_moves() and here in BOARD.maze_gates:
            gates = BOARD.maze_gates
            other_gate = gates[1] if here == gates[0] else gates[0]
            blocked = self.maze_blocked()
            if not blocked and self.potential(other_gate, targets) + 2 < here_score:
                return self.maze()
        if "roll" in verbs:
            return "roll"
        if self.maze_moves():
            return self.maze()
        return self.actions[0]

    def maze_blocked(self) -> bool:
        """No way from one gate to the other but through dead ends the table has seen."""
        if not hasattr(self, "_blocked"):
            seen = self.view["maze"]
            start, goal = BOARD.maze_gates
            reach, todo = {start}, [start]
            while todo:
                for nb in BOARD.maze_links[todo.pop()]:
                    if nb not in reach and seen.get(nb) != "dead":
                        reach.add(nb)
                        todo.append(nb)
            self._blocked = goal not in reach
        return self._blocked

    def pick_fight(self) -> str | None:
        """Attack only to get missing keys (see `hunting`): a fight won, or escaped from by the one
        attacked, gives us his Bunches of Keys. Fights for loot alone made the strong prey on the
        weak (Skill 9 won 0.7 of its share at six players)."""
        if not self.hunting():
            return None
        best = None
        for action in self.by_verb.get("fight", []):
            colour = action.split()[1]
            other = next(q for q in self.view["players"] if q["colour"] == colour)
            gain = self.keys_on(other)
            if gain < 0.3:
                continue
            win = self.foe_strength(self.fighting_skill(other), other["stamina"])
            if win > (0.25 if self.holds_needed(other) or self.late() or gain >= 0.7 else 0.35):
                best = action
        return best

    def rooms_exhausted(self) -> bool:
        return all(r["looted"] for rid, r in self.view["rooms"].items() if rid not in ("study", "treasure"))

    def nerve(self) -> float:
        """How bold to be with monsters: our Stamina left (a share of its start), or full nerve when
        dying would cost nothing: no treasure card carried, and a new adventurer starts fresh at
        the Entrance (hurt adventurers with empty rucksacks otherwise never went back for keys)."""
        if self.nothing_to_lose():
            return 1.0
        return self.me["stamina"] / max(1, self.me["stamina0"])

    def nothing_to_lose(self) -> bool:
        """No treasure card carried (a found sword is one): dying costs only the walk back."""
        return not self.secret["items"] and all(s == "sword" for s in self.secret["swords"])

    def leftovers_likely(self) -> bool:
        """Whether a pile nobody owns is most likely swords left behind (ours among them): we carry
        two treasure swords already (picking up a third drops the worst where it lay), or it is
        late and what lies about has been picked over. Chasing such a pile walks in circles."""
        swords = self.secret["swords"]
        return self.late() or len(swords) >= 2 and "sword" not in swords

    def late(self) -> bool:
        """Past the point where the rooms still to explore can be counted on (HUNT_FROM of the
        round limit): the keys that are missing are most likely in other adventurers' rucksacks."""
        return self.view["round"] >= self.view["limit"] * HUNT_FROM

    def hunting(self) -> bool:
        """We lack key numbers and they are to be had only (or soonest) from other adventurers: the
        rooms are bare, or time is running out. Then we go after whoever carries treasure."""
        if not self.needed():
            return False
        if self.rooms_exhausted() or self.late():
            return True
        return any(self.holds_needed(q) and self.robbable(q) for q in self.rivals())

    def robbable(self, other: dict[str, Any]) -> bool:
        """Another adventurer we may fight (now or when we meet): in play and out of a room once."""
        return not other["creating"] and other["left_room"] and self.me["left_room"]

    def holds_needed(self, other: dict[str, Any]) -> bool:
        """The table has seen `other` carry a number we lack: a Bunch of Keys shown, or named at
        the chest (a wrong try sends him away still carrying them)."""
        needed = self.needed()
        shown = {n for cid in other["shown_ids"] if cid in TREASURES and TREASURES[cid]["kind"] == "keys"
                 for n in TREASURES[cid]["keys"]}
        tried = {n for a in self.view["attempts"] if a["seat"] == other["seat"] for n in a["keys"]}
        return bool(needed & (shown | tried))

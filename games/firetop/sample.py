"""The Warlock of Firetop Mountain as its seat may imagine it: one complete state consistent with
a seat's view, for the hard AI's search (`games.core.search`).

The view shows every adventurer's sheet, the treasure cards the table has seen, how many each
carries, the rooms visited and looted, the Maze cards turned up, and to the seat its own keys,
rucksack and what it has learned of the keys. Drawn at random: the three numbers under the chest
(among those the seat has not seen held, its known ones included), the others' Key cards (with
those it saw them hold, none they challenged for), the treasure of every unlooted room and in every unseen rucksack or pile
(the key treasures first: all of them were laid in rooms), the encounters behind unvisited doors
and the Maze cards not yet turned up. Public bookkeeping the view leaves out (an effect half run,
a fight's hidden dice) starts empty: where that changes the seat's question, the search leaves
it to the smart policy (its sample asks another question, so it is not used). A talk in progress
(the seat choosing a Key card to show) is rebuilt: with the adventurer here it has not yet
talked to, and back to before its move or after it, as the view's die says. So is a fight with
a monster under way: the encounter it came from (the room's, or the river's crocodile), to end
once the monster is slain or escaped (what the encounter does after its fight is left out).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.core import Game, Prompt, Rng, State
from games.core.search import BUDGET_S, Horizon, Searcher, Verdict, smart_pick

from .board import BOARD
from .content import CARDS, CHEST_KEYS, KEY_TREASURES, MAZE_CARDS, NUMBERS, TREASURES, effect
from .engine import new_tally
from .evaluate import HORIZON, evaluate
from .hard import choose as hard_policy, first_challenge

CARD_BY_NAME = {card["name"]: cid for cid, card in CARDS.items()}
# What every adventurer's sheet shows the table, as the state keeps it.
SHEET = ("skill", "skill0", "stamina", "stamina0", "luck", "luck0", "gold", "provisions", "lantern", "pos",
         "left_room", "miss", "face", "lives")
SWORDS = frozenset(cid for cid, card in TREASURES.items() if card.get("kind") == "sword")


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    secret = view["secret"]
    chest, keys = _numbers(view, seat, rng)
    players = [_player(pl, s, secret, keys[s]) for s, pl in enumerate(view["players"])]
    rooms, piles = _treasures(view, players, seat, rng)
    queue = [dict(q) for q in view["queue"]]
    for q in queue:
        if q["kind"] == "spoils":
            q["from"] = next((r["seat"] for r in queue if r["kind"] == "flee"), seat)
    offers = [{"from": o["from"], "to": o["to"],
               "key": secret["offer"] if o["from"] == seat else _any(keys[o["from"]], rng)}
              for o in view["offers"]]
    data = {
        "phase": view["phase"], "current": view["current"], "round": view["round"], "step": view["step"],
        "first": min(range(len(players)), key=lambda s: (view["players"][s]["skill0"], s)),
        "roll": view["roll"], "challenged": False, "players": players, "rooms": rooms, "chest": chest,
        "maze": _maze(view, rng), "maze_seen": {k: v for k, v in view["maze"].items() if v is not None},
        "maze_trail": list(view["maze_trail"]), "piles": piles, "battle": _battle(view["battle"]),
        "task": None, "queue": queue, "offers": offers, "conferred": list(view["conferred"]),
        "attempts": [dict(a) for a in view["attempts"]],
        "challenges": [dict(c) for c in view["challenges"]], "last": view["last"], "dice": view["dice"],
        "winner": view["winner"], "limit": view["limit"], "double6": view["double6"], "tally": new_tally(),
    }
    if data["battle"] is not None and data["battle"]["kind"] == "monster":
        data["task"] = _monster_task(players[data["battle"]["seat"]]["pos"], rooms)
    if view["step"] == "offer":
        data.update(_talk(view, players, rng))
    options = {"rounds": view["limit"], "double6": "on" if view["double6"] else "off"}
    return State(game="firetop", seats=len(players), seed=0, options=options, rng=rng.next64(),
                 turn=view["turn"], data=data)


def _numbers(view: dict[str, Any], seat: int, rng: Rng) -> tuple[list[int], list[list[int]]]:
    """The chest's numbers and every seat's Key cards: the seat's own, those it saw others hold,
    the rest drawn, the chest's known numbers kept."""
    secret = view["secret"]
    keys: list[list[int]] = [[] for _ in view["players"]]
    keys[seat] = list(secret["keys"])
    placed = set(secret["keys"])
    for n, holders in secret["held"].items():
        for holder in holders:
            if holder != seat and int(n) not in keys[holder]:
                keys[holder].append(int(n))
                placed.add(int(n))
    known = [n for n in secret["chest"] if n not in placed]
    free = [n for n in range(1, NUMBERS + 1) if n not in placed and n not in known]
    rng.shuffle(free)
    asked: dict[int, set[int]] = {}
    for c in view["challenges"]:
        asked.setdefault(c["seat"], set()).add(c["n"])
    for s, pl in enumerate(view["players"]):
        while s != seat and len(keys[s]) < pl["keycards"] and free:
            # not a number he challenged for (players ask about numbers they lack), unless no
            # other is left
            pick = next((n for n in free if n not in asked.get(s, ())), free[0])
            free.remove(pick)
            keys[s].append(pick)
        keys[s].sort()
    return sorted(known + free)[:CHEST_KEYS], keys


def _player(pl: dict[str, Any], s: int, secret: dict[str, Any], keys: list[int]) -> dict[str, Any]:
    """A seat's sheet; its rucksack and swords as the seat knows them (its own) or as the table
    has seen them (the rest is drawn in `_treasures`)."""
    mine = secret["seat"] == s
    swords = list(secret["swords"]) if mine else ["sword"] + [c for c in pl["shown_ids"] if c in SWORDS]
    items = list(secret["items"]) if mine else [c for c in pl["shown_ids"] if c not in SWORDS]
    know = {"held": {k: list(v) for k, v in secret["held"].items()}, "chest": list(secret["chest"])} \
        if mine else {"held": {}, "chest": []}
    return {**{key: pl[key] for key in SHEET}, "swords": swords, "items": items, "keys": keys,
            "door": None, "extras": 0 if pl["creating"] else None, "ate": -9, "turns": 0,
            "revealed": list(pl["shown_ids"]), "know": know}


def _treasures(view: dict[str, Any], players: list[dict[str, Any]], seat: int,
               rng: Rng) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The rooms, each unlooted one's treasure drawn, and the piles, their cards drawn; the
    others' rucksacks filled up to what they carry. Key treasures go first: all were laid."""
    known = Counter(c for pl in players for c in pl["items"] + pl["swords"] if c != "sword")
    unseen = Counter(list(TREASURES))
    unseen.subtract(known)
    keys = [c for c in sorted(unseen.elements()) if c in KEY_TREASURES]
    others = [c for c in sorted(unseen.elements()) if c not in KEY_TREASURES]
    rng.shuffle(keys)
    rng.shuffle(others)
    slots: list[tuple[str, Any]] = [("room", rid) for rid, r in sorted(view["rooms"].items())
                                    if not r["looted"] and BOARD.rooms[rid]["kind"] == "room"]
    for s, pl in enumerate(view["players"]):
        if s != seat:
            slots += [("player", s)] * max(pl["treasures"] - len(players[s]["items"])
                                           - sum(1 for c in players[s]["swords"] if c != "sword"), 0)
    piles = [{"node": pile["node"], "items": [], "owner": pile["owner"]} for pile in view["piles"]]
    slots += [("pile", i) for i, pile in enumerate(view["piles"]) for _ in range(pile["count"])]
    rng.shuffle(slots)
    drawn = keys + others
    found: dict[str, str] = {}
    for (kind, where), card in zip(slots, drawn):
        if kind == "room":
            found[where] = card
        elif kind == "player":
            players[where]["items"].append(card)
        else:
            piles[where]["items"].append(card)
    deck = list(CARDS)
    rng.shuffle(deck)
    rooms = {}
    for rid, r in view["rooms"].items():
        spec = BOARD.rooms[rid]
        waiting = CARD_BY_NAME.get(r["waiting"]) if r["waiting"] else None
        encounter = waiting
        if encounter is None and not r["visited"] and spec["kind"] == "room" and spec["fixed"] is None:
            encounter = deck.pop()
        rooms[rid] = {"treasure": found.get(rid), "encounter": encounter,
                      "fixed": spec["fixed"] if r["fixed"] else None,
                      "seen": waiting, "barred": r["barred"], "visited": r["visited"]}
    return rooms, piles


def _maze(view: dict[str, Any], rng: Rng) -> dict[str, str]:
    """Every Maze space's card: those turned up as seen, the others drawn from the rest."""
    left = Counter(MAZE_CARDS)
    left.subtract(v for v in view["maze"].values() if v is not None)
    rest = sorted(left.elements())
    rng.shuffle(rest)
    return {space: card if card is not None else (rest.pop() if rest else "dead")
            for space, card in view["maze"].items()}


def _battle(b: dict[str, Any] | None) -> dict[str, Any] | None:
    if b is None:
        return None
    if b["kind"] == "duel":
        return {"kind": "duel", "seat": b["seat"], "foe": b["foe"], "round": b["round"], "stand": False,
                "last": b["last"], "name": None}
    return {"kind": "monster", "seat": b["seat"], "name": b["name"], "skill": b["skill"],
            "stamina": b["stamina"], "stamina0": b["stamina0"], "round": b["round"], "roller": b["roller"],
            "chosen": b["roller"] is not None or b["round"] >= 1, "mroll": b["mroll"],
            "waiting": b["waiting"], "due": 0.0 if b["waiting"] else None, "last": b["last"], "held": False}


def _monster_task(pos: str, rooms: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The encounter a monster fight at `pos` belongs to, from its last step on: the room's card
    or fixed monster (the room looted after), or the crocodile of a river crossing."""
    room = rooms.get(pos)
    if room is not None:
        ident = room["fixed"] or room["seen"] or room["encounter"]
        if ident is None:
            return None
        source = ("fixed:" if room["fixed"] else "card:") + ident
        return {"effect": source, "at": "end", "name": effect(source)["name"], "room": pos, "then": "loot"}
    if pos not in BOARD.crossing_at:
        return None
    crossing = BOARD.crossings[BOARD.crossing_at[pos]]
    far = crossing["north"] if pos == crossing["south"] else crossing["south"]
    return {"effect": "fixed:crocodile", "at": "end", "name": effect("fixed:crocodile")["name"],
            "then": "far_bank", "far": far}


def _talk(view: dict[str, Any], players: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    """The bookkeeping of a talk the player to move has begun: whom with (one here it has not
    talked to or offered a card to yet; a guess when there are several) and the step to go back to."""
    seat = view["current"]
    here = players[seat]["pos"]
    offered = {o["to"] for o in view["offers"] if o["from"] == seat}
    others = [s for s in range(len(players)) if s != seat]
    partners = [s for s in others if players[s]["pos"] == here
                and s not in view["conferred"] and s not in offered] or others
    return {"confer_with": partners[rng.below(len(partners))],
            "back": "start" if view["roll"] is None else "stop"}


def _any(keys: list[int], rng: Rng) -> int | None:
    return keys[rng.below(len(keys))] if keys else None


@dataclass(frozen=True)
class Bluffing(Searcher):
    """The search, but for the seat's first Key Challenge, which the hard policy names (its bluff):
    what a bluff earns, a rival misled for turns on end, lies far past the rollouts' horizon, while
    a true question's answer scores at once, so the search traded the bluff for one."""

    def weigh(self, game: Game, view: dict[str, Any], prompt: Prompt, rng: Rng,
              budget_s: float | None = BUDGET_S, iterations: int | None = None) -> Verdict:
        if first_challenge(view) and any(c.action.startswith("challenge") for c in prompt.choices):
            pick = smart_pick(game, view, prompt, Rng(rng.state), self.policy)
            if pick.startswith("challenge"):
                return Verdict(pick)
        return super().weigh(game, view, prompt, rng, budget_s, iterations)


search = Bluffing(sample, Horizon(evaluate, HORIZON), hard_policy)

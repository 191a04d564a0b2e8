"""AI players for Don't Go In There, deciding from their seat's view and prompt alone.

"random" picks uniformly among the prompt's choices. "smart" scores every choice in curses (lower
is better for its seat): a card is worth minus its curses plus what it would dispel (completing a
mirror, ring, twin or doll set, the first clocks set, a tome pair, amulet matches), and each ghost
costs a fraction of a curse that grows as the AI's own pile grows (the most-haunted player pays a
curse per two ghosts at the end). Placement weighs the card a space is likely to get (its rank
among the meeples) against the expected ghosts for its flashlights. The view holds all it needs:
public cards, its own ghosts, and the Secret Passage card if this seat has peeked at it.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from games.core import Prompt, Rng

from .engine import BOARDS, CARDS, DIE, SETS, TYPES, parse

AVG_CURSE = 2.5
AVG_DICE = 0.9


@lru_cache(maxsize=None)
def roll_dist(n: int) -> tuple[float, ...]:
    """Probability of each ghost total when rolling `n` ghost dice."""
    dist = [1.0]
    for _ in range(n):
        new = [0.0] * (len(dist) + max(DIE))
        for total, pr in enumerate(dist):
            for f in DIE:
                new[total + f] += pr / len(DIE)
        dist = new
    return tuple(dist)


@lru_cache(maxsize=4096)
def completes_dolls(held: tuple[int, ...], curse: int) -> bool:
    """Would a doll worth `curse` make a set with some of the face-up dolls worth `held` (sorted):
    the engine's `doll_set` asked only whether one exists, once per hand of dolls."""
    target = SETS["doll_sum"] - curse
    return any(sum(combo) == target for size in range(len(held), -1, -1)
               for combo in combinations(held, size))


@lru_cache(maxsize=None)
def expected_ghosts(n: int, lights: int) -> float:
    return sum(pr * max(0, x - lights) for x, pr in enumerate(roll_dist(n)))


def room_key(room: dict[str, Any]) -> str:
    """The engine's name for the side a room view shows ("secret" for the Secret Passage)."""
    return BOARDS[room["slot"]][room["side"]]


class Seat:
    """What one decision needs from the view, worked out once: this seat's cards and ghost cost."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.view = view
        self.seat = seat
        me = view["players"][seat]
        self.cards = me["cards"]
        self.ghosts: int = me["ghosts"]
        self.up: dict[str, list[dict[str, Any]]] = {}  # face-up cards by type
        for c in self.cards:
            if not c["dispelled"]:
                self.up.setdefault(c["type"], []).append(c)
        held = sum(len(p["cards"]) for p in view["players"])
        total = held + view["deck"] + sum(len(r["cards"]) for r in view["rooms"])
        expect_end = 3 + 9 * (held / max(1, total))  # a rough guess at a typical pile by now
        self.gc = 0.12 + 0.45 * min(1.0, self.ghosts / max(1.0, expect_end))  # curses per ghost
        self.secret = view["secret"]
        self._rooms: dict[int, tuple[list[float], float]] = {}
        self._most: int | None = None

    def curses(self, ctype: str) -> int:
        return sum(c["curse"] for c in self.up.get(ctype, ()))

    def most_curses_of_a_type(self) -> int:
        """What a tome pair could dispel: the face-up curses of the seat's worst type but tomes."""
        if self._most is None:
            self._most = max((self.curses(ty) for ty in TYPES if ty != "tome"), default=0)
        return self._most

    def card_value(self, cid: int) -> float:
        """Curses saved (positive) or added (negative) by taking card `cid` (each card lies in one
        room, so a decision values it once)."""
        c = CARDS[cid]
        t, v = c["type"], c["curse"]
        gc = self.gc
        val = -float(v)
        ups = self.up.get(t, [])
        if t == "mirror":
            val -= gc
            if len(ups) + 1 >= SETS["mirror"]:
                val += v + sum(x["curse"] for x in ups)
            else:
                val += 0.25 * len(ups) * v
        elif t == "ring":
            if len(ups) + 1 >= SETS["ring"]:
                val += v + sum(x["curse"] for x in ups)
            else:
                val += 0.15 * len(ups) * v
        elif t == "twin":
            if any(x["curse"] == v for x in ups):
                val += 2 * v
            else:
                val += 0.25 * v
        elif t == "doll":
            held = tuple(sorted(x["curse"] for x in ups))
            val += SETS["doll_sum"] if completes_dolls(held, v) else 0.25 * v
        elif t == "clocks":
            if self.view["clocks"] is None:
                vals = sorted([x["curse"] for x in ups] + [v], reverse=True)
                if sum(vals) >= SETS["clocks_sum"]:
                    val += sum(vals[:SETS["clocks_dispel"]])
                else:
                    val += 0.3 * v
        elif t == "holywater":
            if any(not x["used"] for x in ups):
                val += (self.ghosts // 2) * gc
            else:
                val += 0.2 * v
        elif t == "tome":
            if any(not x["used"] for x in ups):
                val += self.most_curses_of_a_type()
            else:
                val += 0.2 * v
        elif t == "mask":
            val += min(len(ups) + 1, self.ghosts) * gc
        elif t == "cat":
            if ups:
                val += 0.6 * max(v, min(x["curse"] for x in ups))
        elif t == "portrait":
            val += 0.45 * v
        elif t == "musicbox":
            val += 0.35 * v
        elif t == "amulet":
            amulets = ups
            if any(x["amulet"] == v for x in amulets):
                val += v
            if any(x["curse"] == c["amulet"] for x in amulets):
                val += c["amulet"]
            else:
                val += 0.2 * c["amulet"]
        return val

    def pick_value(self, room: dict[str, Any], cid: int) -> float:
        val = self.card_value(cid)
        lib = room["lib"]
        if lib:
            if cid == lib[0]:
                val -= self.gc
            elif cid == lib[1] and self.ghosts:
                val += self.gc
        return val

    def room_cards(self, room: dict[str, Any]) -> tuple[list[float], float]:
        """The room's card values for this seat, best first, and its ghost dice (once per room)."""
        slot = room["slot"]
        if slot not in self._rooms:
            values, dice = [], 0.0
            for card in room["cards"]:
                if card["hidden"]:
                    if self.secret is None or self.secret["slot"] != slot:
                        values.append(-AVG_CURSE)
                        dice += AVG_DICE
                        continue
                    card = self.secret["card"]
                values.append(self.pick_value(room, card["id"]))
                dice += card["dice"]
            values.sort(reverse=True)
            self._rooms[slot] = values, dice
        return self._rooms[slot]

    def place_values(self, room: dict[str, Any]) -> list[float | None]:
        """The value of placing a meeple on each space of `room` (top first; None where a meeple
        stands), in one pass: every free space of a room is usually offered."""
        name = room_key(room)
        spaces = room["spaces"]
        values, dice = self.room_cards(room)
        occupied = 0
        for s in spaces:
            if s["meeple"] is not None:
                occupied += 1
        third = occupied == 2
        gc = self.gc
        ghost_dice = round(dice)
        last = len(values) - 1
        out = []
        above = 0
        for space, s in enumerate(spaces):
            if s["meeple"] is not None:
                above += 1
                out.append(None)
                continue
            rank = above if third else above + 0.5 * min(space - above, 2 - occupied)  # free above
            lo = int(rank)
            frac = rank - lo
            get = values[min(lo, last)] if values else 0.0
            if frac and values:
                get = (1 - frac) * get + frac * values[min(lo + 1, last)]
            exp = expected_ghosts(ghost_dice, s["flashlights"])
            if third and name in ("basement", "hallway"):
                exp *= 0.7
            val = get - gc * exp
            if name == "attic" and space == 0:
                val -= gc
            if name == "nursery" and space == len(spaces) - 1 and self.ghosts:
                val += gc
            if not third:
                val -= 0.1 * (occupied == 0)  # a meeple left waiting is a meeple not in the supply
            out.append(val)
        return out

    def takes(self, room: dict[str, Any], faces: list[int]) -> tuple[int, int]:
        """(ghosts this seat takes, ghosts everyone else takes) for a roll in the resolving room."""
        rolled = sum(faces)
        mine = others = 0
        for space in room["spaces"]:
            who = space["meeple"]
            if who is None:
                continue
            k = max(0, rolled - space["flashlights"])
            if who == self.seat:
                mine += k
            else:
                others += k
        return mine, others


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    if not prompt.choices:
        raise ValueError(f"seat {prompt.seat} has nothing to do")
    if level == "random":
        return rng.choice(prompt.choices).action
    choices = [c.action for c in prompt.choices]
    me = Seat(view, prompt.seat)
    phase = view["phase"]
    scored: list[tuple[float, str]] = []
    if phase == "place":
        by_room = {room_key(r): me.place_values(r) for r in view["rooms"] if not r["removed"]}
        for a in choices:
            _, (name, space) = parse(a)
            scored.append((by_room[name][space - 1], a))
    elif phase == "pick":
        room = view["rooms"][view["dice"]["slot"]]
        for a in choices:
            cid = room["cards"][int(a.split()[1]) - 1]["id"]
            scored.append((me.pick_value(room, cid), a))
    elif phase == "reroll":
        room = view["rooms"][view["dice"]["slot"]]
        faces = view["dice"]["faces"]
        mine, _ = me.takes(room, faces)
        expect = sum(expected_ghosts(len(faces), s["flashlights"]) for s in room["spaces"]
                     if s["meeple"] == me.seat)
        return "reroll" if mine > expect + 0.2 else "keep"
    elif phase == "change":
        room = view["rooms"][view["dice"]["slot"]]
        faces = view["dice"]["faces"]
        for a in choices:
            new = list(faces)
            if a != "keep":
                _, die, _, face = a.split()
                new[int(die) - 1] = int(face)
            mine, others = me.takes(room, new)
            scored.append((-mine + 0.1 * others + (0.01 if a == "keep" else 0.0), a))
    else:
        for a in choices:
            verb, arg = a.split()
            if verb == "tome":
                scored.append((me.curses(arg), a))
            else:
                sign = 1 if verb == "dispel" else -1
                scored.append((sign * CARDS[int(arg)]["curse"], a))
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)

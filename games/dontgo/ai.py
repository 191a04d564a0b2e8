"""AI players for Don't Go In There, deciding from their seat's view and prompt alone.

"random" picks uniformly among the prompt's choices (`DontGoGame.ai_action`). "smart" scores every choice in curses (lower
is better for its seat): a card is worth minus its curses plus what it would dispel (completing a
mirror, ring, twin or doll set, the first clocks set, a tome pair, amulet matches), and each ghost
costs a fraction of a curse that grows as the AI's own pile grows (the most-haunted player pays a
curse per two ghosts at the end). Placement weighs the card a space is likely to get (its rank
among the meeples) against the expected ghosts for its flashlights. It reads its seat's compact
view (`compact_view`), which holds all it needs: public cards, its own ghosts, and the Secret
Passage card if this seat has peeked at it, as ids and tuples rather than the view's dicts.
"""
from __future__ import annotations

from functools import lru_cache, partial
from itertools import combinations
from typing import Any

from games.core import Prompt, Rng

from .engine import AMULETS, BOARDS, CARD_TYPES, CURSES, DICE, DIE, ROOMS, SETS, TYPES, parse

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


@lru_cache(maxsize=None)
def expected_by_lights(n: int) -> tuple[float, ...]:
    """`expected_ghosts(n, lights)` for every space's flashlights (0 to MAX_LIGHTS): a room's
    free spaces share its dice, so placement looks them up once per room."""
    return tuple(expected_ghosts(n, lights) for lights in range(MAX_LIGHTS + 1))


MAX_LIGHTS = max(max(room["flashlights"]) for room in ROOMS.values())

# A room in the compact view: (side, removed, spaces: seat or None each, top first, cards: ids
# left to right, None for a face-down one, lib: the Library's (take, discard) card ids or None).
SIDE, REMOVED, SPACES, CARDS_IN, LIB = range(5)


def compact_view(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """What the smart AI reads, from `seat`'s view (`DontGoGame.ai_view` builds the same from
    the state): the phase, the deck's size, the clocks, the dice (slot, faces), how many cards
    the players hold, the seat's own cards as (id, dispelled, used) and ghosts, the rooms (see
    SIDE...), and the face-down card it has peeked at as (slot, id)."""
    dice, secret, me = view["dice"], view["secret"], view["players"][seat]
    return {"phase": view["phase"], "deck": view["deck"], "clocks": view["clocks"],
            "dice": None if dice is None else (dice["slot"], tuple(dice["faces"])),
            "held": sum(len(p["cards"]) for p in view["players"]),
            "mine": tuple((c["id"], c["dispelled"], c["used"]) for c in me["cards"]),
            "ghosts": me["ghosts"],
            "rooms": tuple((r["side"], r["removed"], tuple(s["meeple"] for s in r["spaces"]),
                            tuple(None if c["hidden"] else c["id"] for c in r["cards"]),
                            None if r["lib"] is None else tuple(r["lib"])) for r in view["rooms"]),
            "secret": None if secret is None else (secret["slot"], secret["card"]["id"])}


@lru_cache(maxsize=4096)
def free_spaces(name: str, spaces: tuple[int | None, ...]) -> tuple[tuple[Any, ...], ...]:
    """What a placement on each free space of room `name` turns on, the room's meeples at
    `spaces`: (space, lo and frac: its rank among the meeples, where a rank between two cards
    gets the weighted mean of their values, its flashlights, damp: a third meeple in the
    Basement or Hallway, whose roll may change, attic: the Attic's top space, nursery: the
    Nursery's bottom space, waiting: the room's first meeple, which waits for two more)."""
    occupied = len(spaces) - spaces.count(None)
    third = occupied == 2
    lights = ROOMS[name]["flashlights"]
    out = []
    above = 0
    for space, who in enumerate(spaces):
        if who is not None:
            above += 1
            continue
        rank = above if third else above + 0.5 * min(space - above, 2 - occupied)  # free above
        lo = int(rank)
        out.append((space, lo, rank - lo, lights[space], third and name in ("basement", "hallway"),
                    name == "attic" and space == 0, name == "nursery" and space == len(spaces) - 1,
                    not third and occupied == 0))
    return tuple(out)


def flashlights(slot: int, room: tuple[Any, ...]) -> list[int]:
    """The flashlights of each space of the side `room` (compact) shows, top first."""
    return ROOMS[BOARDS[slot][room[SIDE]]]["flashlights"]


class Seat:
    """What one decision needs from the view, worked out once: this seat's cards and ghost cost."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.view = view
        self.seat = seat
        self.ghosts: int = view["ghosts"]
        self.up: dict[str, list[tuple[int, bool]]] = {}  # face-up cards by type: (id, used)
        for cid, dispelled, used in view["mine"]:
            if not dispelled:
                self.up.setdefault(CARD_TYPES[cid], []).append((cid, used))
        held = view["held"]
        total = held + view["deck"] + sum([len(r[CARDS_IN]) for r in view["rooms"]])
        expect_end = 3 + 9 * (held / max(1, total))  # a rough guess at a typical pile by now
        self.gc = 0.12 + 0.45 * min(1.0, self.ghosts / max(1.0, expect_end))  # curses per ghost
        self.secret = view["secret"]
        self._most: int | None = None

    def curses(self, ctype: str) -> int:
        return sum([CURSES[cid] for cid, _ in self.up.get(ctype, ())])

    def most_curses_of_a_type(self) -> int:
        """What a tome pair could dispel: the face-up curses of the seat's worst type but tomes."""
        if self._most is None:
            self._most = max((self.curses(ty) for ty in TYPES if ty != "tome"), default=0)
        return self._most

    def card_value(self, cid: int) -> float:
        """Curses saved (positive) or added (negative) by taking card `cid` (each card lies in one
        room, so a decision values it once)."""
        t, v = CARD_TYPES[cid], CURSES[cid]
        gc = self.gc
        val = -float(v)
        ups = self.up.get(t, ())
        if t == "mirror":
            val -= gc
            if len(ups) + 1 >= SETS["mirror"]:
                val += v + sum([CURSES[x] for x, _ in ups])
            else:
                val += 0.25 * len(ups) * v
        elif t == "ring":
            if len(ups) + 1 >= SETS["ring"]:
                val += v + sum([CURSES[x] for x, _ in ups])
            else:
                val += 0.15 * len(ups) * v
        elif t == "twin":
            if any(CURSES[x] == v for x, _ in ups):
                val += 2 * v
            else:
                val += 0.25 * v
        elif t == "doll":
            held = tuple(sorted([CURSES[x] for x, _ in ups]))
            val += SETS["doll_sum"] if completes_dolls(held, v) else 0.25 * v
        elif t == "clocks":
            if self.view["clocks"] is None:
                vals = sorted([CURSES[x] for x, _ in ups] + [v], reverse=True)
                if sum(vals) >= SETS["clocks_sum"]:
                    val += sum(vals[:SETS["clocks_dispel"]])
                else:
                    val += 0.3 * v
        elif t == "holywater":
            if any(not used for _, used in ups):
                val += (self.ghosts // 2) * gc
            else:
                val += 0.2 * v
        elif t == "tome":
            if any(not used for _, used in ups):
                val += self.most_curses_of_a_type()
            else:
                val += 0.2 * v
        elif t == "mask":
            val += min(len(ups) + 1, self.ghosts) * gc
        elif t == "cat":
            if ups:
                val += 0.6 * max(v, min([CURSES[x] for x, _ in ups]))
        elif t == "portrait":
            val += 0.45 * v
        elif t == "musicbox":
            val += 0.35 * v
        elif t == "amulet":
            names = AMULETS[cid]
            if any(AMULETS[x] == v for x, _ in ups):
                val += v
            if any(CURSES[x] == names for x, _ in ups):
                val += names
            else:
                val += 0.2 * names
        return val

    def pick_value(self, room: tuple[Any, ...], cid: int) -> float:
        val = self.card_value(cid)
        lib = room[LIB]
        if lib:
            if cid == lib[0]:
                val -= self.gc
            elif cid == lib[1] and self.ghosts:
                val += self.gc
        return val

    def room_cards(self, slot: int, room: tuple[Any, ...]) -> tuple[list[float], float]:
        """The room's card values for this seat, best first, and its ghost dice (a decision
        asks once per room: `place_values`)."""
        values, dice = [], 0.0
        value = self.card_value if room[LIB] is None else partial(self.pick_value, room)
        for cid in room[CARDS_IN]:
            if cid is None:  # face down
                if self.secret is None or self.secret[0] != slot:
                    values.append(-AVG_CURSE)
                    dice += AVG_DICE
                    continue
                cid = self.secret[1]
            values.append(value(cid))
            dice += DICE[cid]
        values.sort(reverse=True)
        return values, dice

    def place_values(self, slot: int, room: tuple[Any, ...]) -> list[float | None]:
        """The value of placing a meeple on each space of `room` (top first; None where a meeple
        stands), in one pass: every free space of a room is usually offered."""
        values, dice = self.room_cards(slot, room)
        spaces = room[SPACES]
        gc = self.gc
        expected = expected_by_lights(round(dice))
        last = len(values) - 1
        out: list[float | None] = [None] * len(spaces)
        for space, lo, frac, lights, damp, attic, nursery, waiting in free_spaces(
                BOARDS[slot][room[SIDE]], spaces):
            get = values[min(lo, last)] if values else 0.0
            if frac and values:
                get = (1 - frac) * get + frac * values[min(lo + 1, last)]
            exp = expected[lights]
            if damp:
                exp *= 0.7
            val = get - gc * exp
            if attic:
                val -= gc
            if nursery and self.ghosts:
                val += gc
            if waiting:
                val -= 0.1  # a meeple left waiting is a meeple not in the supply
            out[space] = val
        return out

    def takes(self, slot: int, room: tuple[Any, ...], faces: list[int] | tuple[int, ...]) -> tuple[int, int]:
        """(ghosts this seat takes, ghosts everyone else takes) for a roll in the resolving room."""
        rolled = sum(faces)
        mine = others = 0
        for who, lights in zip(room[SPACES], flashlights(slot, room)):
            if who is None:
                continue
            k = max(0, rolled - lights)
            if who == self.seat:
                mine += k
            else:
                others += k
        return mine, others


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    """The smart AI's action (the random one's is `DontGoGame.ai_action`'s pick)."""
    if not prompt.choices:
        raise ValueError(f"seat {prompt.seat} has nothing to do")
    choices = [c.action for c in prompt.choices]
    me = Seat(view, prompt.seat)
    phase = view["phase"]
    scored: list[tuple[float, str]] = []
    if phase == "place":
        by_room = {BOARDS[slot][r[SIDE]]: me.place_values(slot, r)
                   for slot, r in enumerate(view["rooms"]) if not r[REMOVED]}
        for a in choices:
            name, space = parse(a)[1]
            scored.append((by_room[name][space - 1], a))
    elif phase == "pick":
        slot = view["dice"][0]
        room = view["rooms"][slot]
        for a in choices:
            cid = room[CARDS_IN][int(a.split()[1]) - 1]
            scored.append((me.pick_value(room, cid), a))
    elif phase == "reroll":
        slot, faces = view["dice"]
        room = view["rooms"][slot]
        mine, _ = me.takes(slot, room, faces)
        expect = sum(expected_ghosts(len(faces), lights)
                     for who, lights in zip(room[SPACES], flashlights(slot, room)) if who == me.seat)
        return "reroll" if mine > expect + 0.2 else "keep"
    elif phase == "change":
        slot, faces = view["dice"]
        room = view["rooms"][slot]
        for a in choices:
            new = list(faces)
            if a != "keep":
                _, die, _, face = a.split()
                new[int(die) - 1] = int(face)
            mine, others = me.takes(slot, room, new)
            scored.append((-mine + 0.1 * others + (0.01 if a == "keep" else 0.0), a))
    else:
        for a in choices:
            verb, arg = a.split()
            if verb == "tome":
                scored.append((me.curses(arg), a))
            else:
                sign = 1 if verb == "dispel" else -1
                scored.append((sign * CURSES[int(arg)], a))
    best = max(scored)[0]
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)

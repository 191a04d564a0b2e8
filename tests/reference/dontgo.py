"""Frozen reference, copied on purpose: `games/dontgo/ai.py` as it stood at main 770dbda (issue 39),
the smart policy today's smart AI must keep winning its fair share against
(tests/test_smart_reference.py). It must not follow later changes to the game's AI, nor be
merged with it: the duplication is the point. Changed from the original: absolute imports,
and `play` at the end, which seats it in a self-play loop.

The original docstring:

AI players for Don't Go In There, deciding from their seat's view and prompt alone.

"random" picks uniformly among the prompt's choices (`choose`). "smart" scores every choice in curses (lower
is better for its seat): a card is worth minus its curses plus what it would dispel (completing a
mirror, ring, twin or doll set, the first clocks set, a tome pair, amulet matches), and each ghost
costs a fraction of a curse that grows as the AI's own pile grows (the most-haunted player pays a
curse per two ghosts at the end). Placement weighs the card a space is likely to get (its rank
among the meeples) against the expected ghosts for its flashlights. It reads its seat's compact
view (`compact_view`), which holds all it needs: public cards, its own ghosts, and the Secret
Passage card if this seat has peeked at it, as ids and tuples rather than the view's dicts.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import Any

from games.core import Choice, Prompt, Rng
from games.dontgo.engine import AMULETS, BOARDS, CARD_TYPES, CURSES, DICE, DIE, PAIRED, ROOMS, SETS, TYPES, parse

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


def expected_by_lights(n: int) -> tuple[float, ...]:
    """`expected_ghosts(n, lights)` for every space's flashlights (0 to MAX_LIGHTS): a room's
    free spaces share its dice, so placement looks them up once per room."""
    return tuple(expected_ghosts(n, lights) for lights in range(MAX_LIGHTS + 1))


MAX_LIGHTS = max(max(room["flashlights"]) for room in ROOMS.values())
# `expected_by_lights` for every number of dice a room's three cards can show (a tuple, not a call).
EXPECTED_BY_LIGHTS = tuple(expected_by_lights(n) for n in range(3 * max(DICE) + 1))

# A room in the compact view: (side, removed, spaces: seat or None each, top first, cards: ids
# left to right, None for a face-down one, lib: the Library's (take, discard) card ids or None).
SIDE, REMOVED, SPACES, CARDS_IN, LIB = range(5)
# The compact view itself, a tuple (`compact_view` says what each item holds).
PHASE, CLOCKS, ROLL, HELD, IN_PLAY, UP, FRESH, GHOSTS, HOUSE, SECRET = range(10)


def view_from_view(view: dict[str, Any], seat: int, level: str, prompt: Prompt) -> Any:
    """What the engine's `ai_view` gives, worked out from the seat's whole view instead
    (the game's `ai_view_from_view`): the conformance suite checks the two agree, so the compact
    view holds nothing the seat may not see."""
    return {} if level == "random" else compact_view(view, seat)


def compact_view(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What the smart AI reads, from `seat`'s view (`DontGoGame.ai_view` builds the same from
    the state), as a tuple (PHASE...): the phase, the clocks, the dice (slot, faces), how many
    cards the players hold and how many are in play (held, in the deck or in a room), the seat's
    face-up card ids by type, in the order it took them, the types of which it holds a face-up
    card not yet used in a pair (holy water, tomes), its ghosts, the rooms (see SIDE...), and
    the face-down card it has peeked at as (slot, id). Only placing weighs every room: in the
    other phases the rooms but the dice's are None, and no peeked card is given."""
    dice, me = view["dice"], view["players"][seat]
    placing = view["phase"] == "place"
    shown = None if placing else (-1 if dice is None else dice["slot"])
    secret = view["secret"] if placing else None
    held = sum(len(p["cards"]) for p in view["players"])
    up: dict[str, tuple[int, ...]] = {}
    fresh: list[str] = []
    for c in me["cards"]:
        if not c["dispelled"]:
            up[c["type"]] = up.get(c["type"], ()) + (c["id"],)
            if not c["used"] and c["type"] in PAIRED and c["type"] not in fresh:
                fresh.append(c["type"])
    return (view["phase"], view["clocks"],
            None if placing or dice is None else (dice["slot"], tuple(dice["faces"])),
            held, held + view["deck"] + sum(len(r["cards"]) for r in view["rooms"]),
            up, tuple(fresh), me["ghosts"],
            tuple(None if shown is not None and slot != shown else
                  (r["side"], r["removed"], tuple(s["meeple"] for s in r["spaces"]),
                   tuple(None if c["hidden"] else c["id"] for c in r["cards"]),
                   None if r["lib"] is None else tuple(r["lib"])) for slot, r in enumerate(view["rooms"])),
            None if secret is None else (secret["slot"], secret["card"]["id"]))


@lru_cache(maxsize=None)  # a few hundred keys: rooms x meeples standing x cards left
def free_spaces(name: str, spaces: tuple[int | None, ...], cards: int) -> tuple[tuple[Any, ...], ...]:
    """What a placement on each free space of room `name` turns on (top first), the room's
    meeples at `spaces` and `cards` cards left: (lo, hi and frac: the places,
    among the room's card values best first, of the cards its rank among the meeples may get,
    and how far the rank lies between them, its flashlights, damp: a third meeple in the
    Basement or Hallway, whose roll may change, attic: the Attic's top space, nursery: the
    Nursery's bottom space, waiting: the room's first meeple, which waits for two more)."""
    occupied = len(spaces) - spaces.count(None)
    third = occupied == 2
    lights = ROOMS[name]["flashlights"]
    last = max(0, cards - 1)  # ranks past the last card get the last card's value
    out = []
    above = 0
    for space, who in enumerate(spaces):
        if who is not None:
            above += 1
            continue
        rank = above if third else above + 0.5 * min(space - above, 2 - occupied)  # free above
        lo = int(rank)
        out.append((min(lo, last), min(lo + 1, last), rank - lo if cards else 0.0, lights[space],
                    third and name in ("basement", "hallway"), name == "attic" and space == 0,
                    name == "nursery" and space == len(spaces) - 1, not third and occupied == 0))
    return tuple(out)


def flashlights(slot: int, room: tuple[Any, ...]) -> list[int]:
    """The flashlights of each space of the side `room` (compact) shows, top first."""
    return ROOMS[BOARDS[slot][room[SIDE]]]["flashlights"]


@lru_cache(maxsize=1024)
def mirror_part(cid: int, ups: tuple[int, ...]) -> float:
    """What mirror `cid` saves beside the face-up mirrors `ups`: the set it completes, or a
    share of its curses towards one (its own curses and its ghost are counted apart)."""
    v = CURSES[cid]
    if len(ups) + 1 >= SETS["mirror"]:
        return v + sum([CURSES[x] for x in ups])
    return 0.25 * len(ups) * v


def card_worth(cid: int, ups: tuple[int, ...], gc: float, ghosts: int, clocks_open: bool, fresh: bool,
               most: Callable[[], int]) -> float:
    """What taking card `cid` is worth to a seat whose face-up cards of its type are `ups` (ids),
    paying `gc` curses per ghost, holding `ghosts`, while the clocks are unclaimed
    (`clocks_open`); `fresh`: one of those cards is a holy water or tome not yet used in a pair;
    `most()` is what a tome pair could dispel."""
    t, v = CARD_TYPES[cid], CURSES[cid]
    val = -float(v)
    if t == "mirror":
        val -= gc
        val += mirror_part(cid, ups)
    elif t == "mask":
        val += min(len(ups) + 1, ghosts) * gc
    elif t == "ring":
        if len(ups) + 1 >= SETS["ring"]:
            val += v + sum([CURSES[x] for x in ups])
        else:
            val += 0.15 * len(ups) * v
    elif t == "twin":
        if any(CURSES[x] == v for x in ups):
            val += 2 * v
        else:
            val += 0.25 * v
    elif t == "doll":
        held = tuple(sorted([CURSES[x] for x in ups]))
        val += SETS["doll_sum"] if completes_dolls(held, v) else 0.25 * v
    elif t == "clocks":
        if clocks_open:
            vals = sorted([CURSES[x] for x in ups] + [v], reverse=True)
            if sum(vals) >= SETS["clocks_sum"]:
                val += sum(vals[:SETS["clocks_dispel"]])
            else:
                val += 0.3 * v
    elif t == "holywater":
        if fresh:
            val += (ghosts // 2) * gc
        else:
            val += 0.2 * v
    elif t == "tome":
        if fresh:
            val += most()
        else:
            val += 0.2 * v
    elif t == "cat":
        if ups:
            val += 0.6 * max(v, min([CURSES[x] for x in ups]))
    elif t == "portrait":
        val += 0.45 * v
    elif t == "musicbox":
        val += 0.35 * v
    elif t == "amulet":
        names = AMULETS[cid]
        if any(AMULETS[x] == v for x in ups):
            val += v
        if any(CURSES[x] == names for x in ups):
            val += names
        else:
            val += 0.2 * names
    return val


# The types whose card is worth the same whatever the seat's ghosts (and its other types):
# `card_worth` is kept for each (card, the seat's face-up cards of its type, clocks unclaimed).
FIXED_WORTH = frozenset(TYPES) - {"mirror", "mask", "holywater", "tome"}


@lru_cache(maxsize=8192)
def fixed_worth(cid: int, ups: tuple[int, ...], clocks_open: bool) -> float:
    return card_worth(cid, ups, 0.0, 0, clocks_open, False, int)


# For a seat holding no card of its type face up, a card is worth the same whatever happens but
# for these (a look-up, not a call: most cards in the rooms are of types a seat lacks); those
# are `Seat.alone_value`'s.
ALONE_VARIES = frozenset({"mirror", "mask", "clocks"})
VALUES_ALONE: tuple[float | None, ...] = tuple(
    None if t in ALONE_VARIES else card_worth(cid, (), 0.0, 0, True, False, int)
    for cid, t in enumerate(CARD_TYPES))
NEGATED_CURSES: tuple[float, ...] = tuple(-float(v) for v in CURSES)
CLOCKS_ALONE: dict[bool, tuple[float, ...]] = {  # by clocks unclaimed
    open_: tuple(card_worth(cid, (), 0.0, 0, open_, False, int) for cid in range(len(CARD_TYPES)))
    for open_ in (False, True)}


class Seat:
    """What one decision needs from the view, worked out once: this seat's cards and ghost cost."""

    __slots__ = ("seat", "ghosts", "up", "fresh", "gc", "clocks_open", "secret", "_most")

    def __init__(self, view: tuple[Any, ...], seat: int) -> None:
        self.seat = seat
        self.ghosts: int = view[GHOSTS]
        self.up: dict[str, tuple[int, ...]] = view[UP]  # face-up card ids by type
        self.fresh: tuple[str, ...] = view[FRESH]
        expect_end = 3 + 9 * (view[HELD] / view[IN_PLAY])  # a rough guess at a typical pile by now
        share = self.ghosts / expect_end  # expect_end is 3 or more
        self.gc = 0.12 + 0.45 * (share if share < 1.0 else 1.0)  # curses per ghost
        self.clocks_open = view[CLOCKS] is None
        self.secret = view[SECRET]
        self._most: int | None = None

    def curses(self, ctype: str) -> int:
        return sum([CURSES[cid] for cid in self.up.get(ctype, ())])

    def most_curses_of_a_type(self) -> int:
        """What a tome pair could dispel: the face-up curses of the seat's worst type but tomes."""
        if self._most is None:
            self._most = max([self.curses(ty) for ty in self.up if ty != "tome"], default=0)
        return self._most

    def card_value(self, cid: int) -> float:
        """Curses saved (positive) or added (negative) by taking card `cid` (each card lies in one
        room, so a decision values it once): `card_worth`'s value, from tables where it ignores
        the ghosts and in a line per type where it does (tests check each against it)."""
        t = CARD_TYPES[cid]
        ups = self.up.get(t)
        if ups is None:
            alone = VALUES_ALONE[cid]
            return self.alone_value(cid, t) if alone is None else alone
        if t in FIXED_WORTH:
            return fixed_worth(cid, ups, self.clocks_open)
        if t == "mirror":  # card_worth's sum, in its order: minus the curses, a ghost, the set's part
            return NEGATED_CURSES[cid] - self.gc + mirror_part(cid, ups)
        if t == "mask":
            return NEGATED_CURSES[cid] + min(len(ups) + 1, self.ghosts) * self.gc
        if t not in self.fresh:  # holy water or a tome with no fresh partner: worth a fixed part
            return fixed_worth(cid, ups, self.clocks_open)
        if t == "holywater":
            return NEGATED_CURSES[cid] + (self.ghosts // 2) * self.gc
        return NEGATED_CURSES[cid] + self.most_curses_of_a_type()

    def alone_value(self, cid: int, ctype: str) -> float:
        """`card_worth` of a card of type `ctype` in ALONE_VARIES, for this seat holding none of
        its type face up, worked out in a line (tests check the two agree)."""
        if ctype == "mirror":
            return NEGATED_CURSES[cid] - self.gc
        if ctype == "mask":
            return NEGATED_CURSES[cid] + min(1, self.ghosts) * self.gc
        return CLOCKS_ALONE[self.clocks_open][cid]

    def with_library_ghost(self, lib: tuple[int, int], cid: int, val: float) -> float:
        """`val`, card `cid`'s value, with the ghost the Library's leftmost card brings or its
        rightmost one discards (`lib`: their ids)."""
        if cid == lib[0]:
            return val - self.gc
        if cid == lib[1] and self.ghosts:
            return val + self.gc
        return val

    def place_values(self, rooms: tuple[tuple[Any, ...], ...]) -> list[float]:
        """The value of each placement on a free space of the rooms in play, in one pass and in
        the prompt's order (`DontGoGame.choices`: rooms by slot, spaces top first). A space's
        value is the card it is likely to get (by its rank among the meeples) less the ghosts
        its flashlights let through, from the room's ghost dice."""
        out: list[float] = []
        up, secret, gc, ghosts = self.up, self.secret, self.gc, self.ghosts
        for slot, (side, removed, spaces, cards, lib) in enumerate(rooms):
            if removed:
                continue
            values, dice = [], 0.0
            for cid in cards:
                if cid is None:  # face down
                    if secret is None or secret[0] != slot:
                        values.append(-AVG_CURSE)
                        dice += AVG_DICE
                        continue
                    cid = secret[1]
                # card_value's first step, spelled out: most cards are of a type the seat lacks
                if CARD_TYPES[cid] in up or (val := VALUES_ALONE[cid]) is None:
                    val = self.card_value(cid)
                values.append(val if lib is None else self.with_library_ghost(lib, cid, val))
                dice += DICE[cid]
            values.sort(reverse=True)
            expected = EXPECTED_BY_LIGHTS[round(dice)]
            for lo, hi, frac, lights, damp, attic, nursery, waiting in free_spaces(
                    BOARDS[slot][side], spaces, len(values)):
                get = values[lo] if values else 0.0
                if frac:
                    get = (1 - frac) * get + frac * values[hi]
                exp = expected[lights]
                if damp:
                    exp *= 0.7
                val = get - gc * exp
                if attic:
                    val -= gc
                if nursery and ghosts:
                    val += gc
                if waiting:
                    val -= 0.1  # a meeple left waiting is a meeple not in the supply
                out.append(val)
        return out

    def takes(self, slot: int, room: tuple[Any, ...], rolled: int) -> tuple[int, int]:
        """(ghosts this seat takes, ghosts everyone else takes) for a roll of `rolled` ghosts in
        the resolving room."""
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


def choose(view: tuple[Any, ...], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    """The AI's action: the random one picks any offered choice (every random self-play move
    comes here); the smart one weighs them, reading its compact view."""
    if level == "random":
        return rng.choice(prompt.choices).action
    offered = prompt.choices
    if not offered:
        raise ValueError(f"seat {prompt.seat} has nothing to do")
    me = Seat(view, prompt.seat)
    phase = view[PHASE]
    if phase == "place":
        return best_of(me.place_values(view[HOUSE]), offered, rng)
    if phase == "pick":
        room = view[HOUSE][view[ROLL][0]]
        cards, lib = room[CARDS_IN], room[LIB]
        if lib is None:  # most rooms: no ghost comes with any card (picks list the cards in order)
            return best_of(list(map(me.card_value, cards)), offered, rng)
        return best_of([me.with_library_ghost(lib, cid, me.card_value(cid)) for cid in cards], offered, rng)
    if phase == "reroll":
        slot, faces = view[ROLL]
        room = view[HOUSE][slot]
        mine, _ = me.takes(slot, room, sum(faces))
        expect = sum(expected_ghosts(len(faces), lights)
                     for who, lights in zip(room[SPACES], flashlights(slot, room)) if who == me.seat)
        return "reroll" if mine > expect + 0.2 else "keep"
    scores: list[float] = []
    if phase == "change":
        slot, faces = view[ROLL]
        room = view[HOUSE][slot]
        rolled = sum(faces)
        takes: dict[int, tuple[int, int]] = {}  # by the roll's total: several changes give each
        for c in offered:
            total = rolled
            if c.action != "keep":
                die, face = parse(c.action)[1]
                total += face - faces[die - 1]
            if total not in takes:
                takes[total] = me.takes(slot, room, total)
            mine, others = takes[total]
            scores.append(-mine + 0.1 * others + (0.01 if c.action == "keep" else 0.0))
    else:
        for c in offered:
            verb, arg = c.action.split()
            if verb == "tome":
                scores.append(me.curses(arg))
            else:
                sign = 1 if verb == "dispel" else -1
                scores.append(sign * CURSES[int(arg)])
    return best_of(scores, offered, rng)


def best_of(scores: list[float], offered: list[Choice], rng: Rng) -> str:
    """The action of the choice with the best score (`scores[i]` is `offered[i]`'s); ties, to
    within rounding, broken at random."""
    best = max(scores)
    cut = best - 1e-9
    if len(scores) == 1 or sorted(scores)[-2] < cut:  # one best (most decisions): no tie to break
        return offered[scores.index(best)].action
    return rng.choice([choice.action for score, choice in zip(scores, offered) if score >= cut])


def play(game: Any, state: Any, seat: int, prompt: Prompt, rng: Rng) -> str:
    """This policy's action for `seat`, from its seat's view alone (as `decide` gives the smart AI)."""
    return choose(view_from_view(game.view(state, seat), seat, "smart", prompt), prompt, rng)

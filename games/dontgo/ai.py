"""AI players for Don't Go In There.

"random" picks uniformly among the prompt's choices. "smart" scores every choice in curses (lower
is better for its seat): a card is worth minus its curses plus what it would dispel (completing a
mirror, ring, twin or doll set, the first clocks set, a tome pair, amulet matches), and each ghost
costs a fraction of a curse that grows as the AI's own pile grows (the most-haunted player pays a
curse per two ghosts at the end). Placement weighs the card a space is likely to get (its rank
among the meeples) against the expected ghosts for its flashlights. It only uses what its seat
may know: public cards, its own ghosts, and a Secret Passage card it has peeked at.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.core import Rng, State

from .engine import (CARDS, DIE, SETS, TYPES, curses, doll_set, face_up, flashlights, ghosts,
                     room_name)

if TYPE_CHECKING:
    from .engine import DontGoGame

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


@lru_cache(maxsize=None)
def expected_ghosts(n: int, lights: int) -> float:
    return sum(pr * max(0, x - lights) for x, pr in enumerate(roll_dist(n)))


def progress(d: dict[str, Any]) -> float:
    held = sum(len(pl["cards"]) for pl in d["players"])
    total = held + len(d["deck"]) + sum(len(r["cards"]) for r in d["rooms"])
    return held / max(1, total)


def ghost_cost(d: dict[str, Any], seat: int) -> float:
    """Curses one more ghost is likely to cost this seat."""
    g = ghosts(d["players"][seat])
    expect_end = 3 + 9 * progress(d)  # a rough guess at a typical pile by now
    return 0.12 + 0.45 * min(1.0, g / max(1.0, expect_end))


def card_value(d: dict[str, Any], seat: int, cid: int) -> float:
    """Curses saved (positive) or added (negative) by taking card `cid`."""
    pl = d["players"][seat]
    c = CARDS[cid]
    t, v = c["type"], c["curse"]
    gc = ghost_cost(d, seat)
    val = -float(v)
    ups = face_up(pl, t)
    if t == "mirror":
        val -= gc
        if len(ups) + 1 >= SETS["mirror"]:
            val += v + sum(CARDS[x["id"]]["curse"] for x in ups)
        else:
            val += 0.25 * len(ups) * v
    elif t == "ring":
        if len(ups) + 1 >= SETS["ring"]:
            val += v + sum(CARDS[x["id"]]["curse"] for x in ups)
        else:
            val += 0.15 * len(ups) * v
    elif t == "twin":
        if any(CARDS[x["id"]]["curse"] == v for x in ups):
            val += 2 * v
        else:
            val += 0.25 * v
    elif t == "doll":
        fake = {"cards": pl["cards"] + [{"id": cid, "dispelled": False, "used": False}]}
        val += SETS["doll_sum"] if doll_set(fake, cid) else 0.25 * v
    elif t == "clocks":
        if d["clocks"] is None:
            vals = sorted([CARDS[x["id"]]["curse"] for x in ups] + [v], reverse=True)
            if sum(vals) >= SETS["clocks_sum"]:
                val += sum(vals[:SETS["clocks_dispel"]])
            else:
                val += 0.3 * v
    elif t == "holywater":
        if any(not x["used"] for x in ups):
            val += (ghosts(pl) // 2) * gc
        else:
            val += 0.2 * v
    elif t == "tome":
        if any(not x["used"] for x in ups):
            val += max((curses(pl, ty) for ty in TYPES if ty != "tome"), default=0)
        else:
            val += 0.2 * v
    elif t == "mask":
        val += min(len(ups) + 1, ghosts(pl)) * gc
    elif t == "cat":
        if ups:
            val += 0.6 * max(v, min(CARDS[x["id"]]["curse"] for x in ups))
    elif t == "portrait":
        val += 0.45 * v
    elif t == "musicbox":
        val += 0.35 * v
    elif t == "amulet":
        amulets = face_up(pl, "amulet")
        if any(CARDS[x["id"]]["amulet"] == v for x in amulets):
            val += v
        if any(CARDS[x["id"]]["curse"] == c["amulet"] for x in amulets):
            val += c["amulet"]
        else:
            val += 0.2 * c["amulet"]
    return val


def pick_value(d: dict[str, Any], seat: int, room: dict[str, Any], cid: int) -> float:
    val = card_value(d, seat, cid)
    if room["lib"]:
        gc = ghost_cost(d, seat)
        if cid == room["lib"][0]:
            val -= gc
        elif cid == room["lib"][1] and ghosts(d["players"][seat]):
            val += gc
    return val


def place_value(d: dict[str, Any], seat: int, slot: int, space: int) -> float:
    room = d["rooms"][slot]
    name = room_name(d, slot)
    lights = flashlights(d, slot)
    values, dice = [], 0.0
    for i, cid in enumerate(room["cards"]):
        if room["hidden"] and i == 2 and seat not in room["seen"]:
            values.append(-AVG_CURSE)
            dice += AVG_DICE
        else:
            values.append(pick_value(d, seat, room, cid))
            dice += CARDS[cid]["dice"]
    values.sort(reverse=True)
    occupied = sum(s is not None for s in room["spaces"])
    third = occupied == 2
    above = sum(1 for s in room["spaces"][:space] if s is not None)
    free_above = sum(1 for s in room["spaces"][:space] if s is None)
    rank = above if third else above + 0.5 * min(free_above, 2 - occupied)
    lo = int(rank)
    frac = rank - lo
    get = values[min(lo, len(values) - 1)] if values else 0.0
    if frac and values:
        get = (1 - frac) * get + frac * values[min(lo + 1, len(values) - 1)]
    gc = ghost_cost(d, seat)
    n = round(dice)
    exp = expected_ghosts(n, lights[space])
    if third and name in ("basement", "hallway"):
        exp *= 0.7
    val = get - gc * exp
    if name == "attic" and space == 0:
        val -= gc
    if name == "nursery" and space == len(lights) - 1 and ghosts(d["players"][seat]):
        val += gc
    if not third:
        val -= 0.1 * (occupied == 0)  # a meeple left waiting is a meeple not in the supply
    return val


def my_take(d: dict[str, Any], seat: int, faces: list[int]) -> tuple[int, int]:
    """(ghosts this seat takes, ghosts everyone else takes) for a roll in the resolving room."""
    slot = d["res"]["slot"]
    rolled = sum(faces)
    mine = others = 0
    for f, who in zip(flashlights(d, slot), d["rooms"][slot]["spaces"]):
        if who is None:
            continue
        k = max(0, rolled - f)
        if who == seat:
            mine += k
        else:
            others += k
    return mine, others


def choose(game: "DontGoGame", state: State, seat: int, rng: Rng, level: str = "smart") -> str:
    prompt = game.prompt(state, seat)
    if prompt is None or not prompt.choices:
        raise ValueError(f"seat {seat} has nothing to do")
    choices = [c.action for c in prompt.choices]
    if level == "random":
        return rng.choice(choices)
    d = state.data
    phase = d["phase"]
    scored: list[tuple[float, str]] = []
    if phase == "place":
        for a in choices:
            _, name, space = a.split()
            slot = next(s for s in range(3) if not d["rooms"][s]["removed"] and room_name(d, s) == name)
            scored.append((place_value(d, seat, slot, int(space) - 1), a))
    elif phase == "pick":
        room = d["rooms"][d["res"]["slot"]]
        for a in choices:
            cid = room["cards"][int(a.split()[1]) - 1]
            scored.append((pick_value(d, seat, room, cid), a))
    elif phase == "reroll":
        slot = d["res"]["slot"]
        mine, _ = my_take(d, seat, d["dice"]["faces"])
        n = len(d["dice"]["faces"])
        expect = sum(expected_ghosts(n, f) for f, who in zip(flashlights(d, slot), d["rooms"][slot]["spaces"])
                     if who == seat)
        return "reroll" if mine > expect + 0.2 else "keep"
    elif phase == "change":
        faces = d["dice"]["faces"]
        for a in choices:
            new = list(faces)
            if a != "keep":
                _, die, _, face = a.split()
                new[int(die) - 1] = int(face)
            mine, others = my_take(d, seat, new)
            scored.append((-mine + 0.1 * others + (0.01 if a == "keep" else 0.0), a))
    else:
        pend = d["pending"][0]
        if pend["kind"] == "tome":
            pl = d["players"][seat]
            for a in choices:
                scored.append((curses(pl, a.split()[1]), a))
        else:
            sign = 1 if pend["kind"] == "dispel" else -1
            for a in choices:
                scored.append((sign * CARDS[int(a.split()[1])]["curse"], a))
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)

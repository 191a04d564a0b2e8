"""The hard level's own policy for Atmosfear (its search's base pick and its own moves in the
search's rollouts): the smart AI, with the dice, the duels and the Black Key played by what they
are worth.

Smart rolls two dice four times in five whatever lies ahead, duels whoever shows the most keys
whatever it may lose, and hands the Black Key to the first rival it may. Here:
- the dice: one die or two, whichever lands on the better stone on average (every total weighed
  by its chance): a key of a missing colour, a duel worth fighting, a rival to hand the Black Key
  to; not the Black Key, a Black Hole or a rival's headstone. With every colour, the fewer steps
  left to the Well the better, and the Flight nearest it;
- a duel: fought only where winning a blind draw from that rival is worth more than losing one
  from its own rack, the rival's loss counted too (a full rack has little to win and a
  colour to lose; the Black Key is best lost, and drawn from its holder only by bad luck);
- the Black Key: to the rival with the most keys.
Against two smart players (the policy alone, players rotating through the seats, 2,000 games at
each of seeds 1 and 4000) it wins 27-28% to their 17-19% (three smart players: 19-20% each);
the dice alone are worth about five points of it, spare keys taken a few more (skipping them
wins 20%: a rack without spares loses a colour to every duel lost).
Everything else is smart's. It reads the seat's whole view (its rack, the public board), never
the state.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from games.core import Prompt, Rng

from .ai import choose as smart_choose
from .ai import can_win, compact_view
from .engine import (BRANCHES, COLOURS, ENDS, GATE, HEADSTONES, INNER, KEYS_PER, KIND, N_OUTER, OUTER_IDS, RADIAL_OF,
                     RADIALS, STONE, WELL, outer_index)

COLOUR_KEY = 1.0  # a key of a colour the seat lacks
SPARE_KEY = 0.6  # a key of a colour it holds already: cover against a loss (0.25 won a point less)
BLACK_KEY = 1.5  # the Black Key: no Well until it is gone
HOLE = 1.5  # a Black Hole without a key of one's own colour to walk out with (about six turns)
HOLE_WITH_KEY = 0.3  # with one: a turn
TRESPASS = 1 / 6  # the chance a rival's headstone costs a key
STEP = 1 / 7  # a step nearer the Well, for a seat with every colour: a turn is seven steps
RIVAL = 1.0  # a rival's loss against the seat's own gain (0.5 and 2 won less against smart)
FULL_RACK = 1.5  # a lone colour lost from a full rack costs more than a key: the way in closes
ONE_DIE = [(t, 1 / 6) for t in range(1, 7)]
TWO_DICE = [(t, (6 - abs(t - 7)) / 36) for t in range(2, 13)]


def ring_steps(stone: str) -> int:
    """Steps from an Inner Ring stone to the Gate, the short way."""
    i = INNER.index(stone) - INNER.index(GATE)
    return min(i % len(INNER), -i % len(INNER))


def steps_to_well(stone: str) -> int:
    """Steps from `stone` to the Well for a seat that may go in: on along the outer track to a way
    inside, up its radial, round the ring to the Gate, and in."""
    if stone == WELL:
        return 0
    if stone in INNER:
        return ring_steps(stone) + 1
    if stone in RADIAL_OF:
        r = RADIAL_OF[stone]
        return len(RADIALS[r]) - RADIALS[r].index(stone) + ring_steps(ENDS[r]) + 1
    k = BRANCHES.index(first_branch(stone))
    return to_branch(stone) + len(RADIALS[k]) + 1 + ring_steps(ENDS[k]) + 1


def first_branch(stone: str) -> str:
    """The first way inside at or after an outer stone."""
    here = outer_index(stone)
    return min(BRANCHES, key=lambda b: (outer_index(b) - here) % N_OUTER)


def to_branch(stone: str) -> int:
    """Steps from an outer stone to the first way inside at or after it."""
    return (outer_index(first_branch(stone)) - outer_index(stone)) % N_OUTER


class Seat:
    """What the seat's view says about it, read once per decision."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.view, self.seat = view, seat
        self.rack: dict[str, int] = dict(view["rack"])
        self.left = [r["keys_left"] for r in view["realms"]]
        self.black = view["black_key"]["holder"] == seat
        self.full = all(self.rack.get(c) for c in COLOURS)
        self.may_win = can_win(view, seat)
        self.players = view["players"]

    def key_value(self, colour: str) -> float:
        return SPARE_KEY if self.rack.get(colour) else COLOUR_KEY

    def landing(self, stone: str) -> float:
        """What landing on `stone` is worth to the seat, its effects weighed by their chances."""
        kind = KIND.get(stone, "plain")
        handover = BLACK_KEY if self.black and any(self.rivals(stone)) else 0.0  # passed on there
        if kind == "key":
            realm = STONE[stone]["realm"]
            return handover + (self.key_value(COLOURS[realm]) if self.left[realm] else 0.0)
        if kind == "headstone" and HEADSTONES.index(stone) == self.seat:
            return handover + (self.key_value(COLOURS[self.seat]) / 6 if self.left[self.seat] else 0.0)
        if kind == "duel":
            return handover + self.best_duel
        return handover + self.hazard(stone)

    @cached_property
    def best_duel(self) -> float:
        """What a duel stone is worth: the best duel there, or none."""
        return max([0.0] + [self.duel_value(r) for r in self.rivals(None) if self.duel_ready(r)])

    def rivals(self, stone: str | None) -> list[int]:
        """The other seats out of the Black Holes, on `stone` (or anywhere)."""
        return [pl["seat"] for pl in self.players if pl["seat"] != self.seat and not pl["in_black_hole"]
                and stone in (None, pl["pos"])]

    def duel_ready(self, rival: int) -> bool:
        """Whether a duel with `rival` may be fought: both hold a key (the Black Key counts)."""
        mine = sum(self.rack.values()) + self.black
        pl = self.players[rival]
        return mine > 0 and pl["keys"] + pl["black_key"] > 0

    def hazard(self, stone: str) -> float:
        """The cost of the stones that hurt whoever lands: the Black Key, a Black Hole, a rival's
        headstone."""
        kind = KIND.get(stone, "plain")
        if kind == "black_key" and self.view["black_key"]["on_board"]:
            return -BLACK_KEY
        if kind == "black_hole":
            return -(HOLE_WITH_KEY if self.rack.get(COLOURS[self.seat]) else HOLE)
        if kind == "headstone":
            owner = HEADSTONES.index(stone)
            if owner != self.seat and owner < len(self.players) and not self.players[owner]["in_black_hole"]:
                return -TRESPASS * self.loss
        return 0.0

    def roll_value(self, faces: list[tuple[int, float]]) -> float:
        """What a roll is worth on average: where it lands, or, for a seat that may go in, how
        near the Well it gets (and what it lands on if it stops short of a way inside)."""
        stone = self.players[self.seat]["pos"]
        here = outer_index(stone) if stone in STONE else None
        total = 0.0
        for steps, p in faces:
            if not self.may_win:
                total += p * self.landing(OUTER_IDS[(here + steps) % N_OUTER])
                continue
            ahead = OUTER_IDS[(here + steps) % N_OUTER] if here is not None and steps <= to_branch(stone) else None
            total += p * (-STEP * max(steps_to_well(stone) - steps, 0) + (self.hazard(ahead) if ahead else 0.0))
        return total

    @cached_property
    def loss(self) -> float:
        """The average change in the seat's worth when a key is drawn blind from its rack."""
        keys = [c for c, n in self.rack.items() for _ in range(n)]
        if not keys and not self.black:
            return 0.0
        lone = COLOUR_KEY * (FULL_RACK if self.full else 1.0)
        total = sum(lone if self.rack[c] == 1 else SPARE_KEY for c in keys)
        if self.black:
            total -= BLACK_KEY
        return total / (len(keys) + self.black)

    @cached_property
    def blind_colour(self) -> float:
        """The average worth of a coloured key drawn blind from a rival's rack: its colour guessed
        from the keys out of the realms that the seat does not hold."""
        pool = [(KEYS_PER - n - self.rack.get(c, 0), c) for c, n in zip(COLOURS, self.left)]
        out = sum(k for k, _ in pool if k > 0)
        return sum(k * self.key_value(c) for k, c in pool if k > 0) / out if out else SPARE_KEY

    def gain(self, rival: int) -> float:
        """The average worth of a key drawn blind from `rival`'s rack (it may be the Black Key)."""
        pl = self.players[rival]
        black = 1 / (pl["keys"] + 1) if pl["black_key"] else 0.0
        return (1 - black) * self.blind_colour - black * BLACK_KEY

    def duel_value(self, rival: int) -> float:
        """The average change in the seat's worth from a duel with `rival`, against that rival's:
        even odds to draw a key from its rack or lose one from the seat's. A rival with no more
        keys than colours loses a colour it needs; given a key, it likely gains a spare."""
        keys = self.players[rival]["keys"]
        hurt = COLOUR_KEY if keys <= len(COLOURS) else (len(COLOURS) + SPARE_KEY * (keys - len(COLOURS))) / keys
        helped = (COLOUR_KEY + SPARE_KEY) / 2
        return (self.gain(rival) - self.loss + RIVAL * (hurt - helped)) / 2


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng) -> str:
    """The hard policy's action from the seat's whole view and its prompt."""
    actions = [c.action for c in prompt.choices]
    passes = [a for a in actions if a.startswith("pass ")]
    if passes:  # the Black Key to the rival with the most keys: the nearest to the Well
        return max(passes, key=lambda a: view["players"][int(a[5:]) - 1]["keys"])
    if actions[:2] == ["roll 1", "roll 2"]:
        me = Seat(view, prompt.seat)
        if me.players[me.seat]["pos"] not in STONE and not me.may_win:  # stuck inside: smart's way out
            return smart_choose(compact_view(view, prompt), prompt, rng, "smart")
        return "roll 1" if me.roll_value(ONE_DIE) > me.roll_value(TWO_DICE) else "roll 2"
    flights = [a for a in actions if a.startswith("fly ")]
    if flights and Seat(view, prompt.seat).may_win:  # the flight nearest the Well, or none
        here = view["players"][prompt.seat]["pos"]
        return min(flights + ["skip"], key=lambda a: steps_to_well(a[4:] if a != "skip" else here))
    if any(a.startswith("duel ") for a in actions):
        me = Seat(view, prompt.seat)
        value, action = max((me.duel_value(int(a[5:]) - 1), a) for a in actions if a.startswith("duel "))
        return action if value > 0 else "skip"
    return smart_choose(compact_view(view, prompt), prompt, rng, "smart")

"""The "easy" AI for Don't Go In There: a new player who sees the curses and forgets the ghosts.

It plays as the smart AI (`ai.choose`) with a beginner's reading of the table: placing a
meeple, it weighs the card the space may bring but not the ghosts its flashlights let through;
picking a card, it reads only the curses printed on it, so it builds no set that would dispel
its cards; and it keeps the ghost dice however they fall.
"""
from __future__ import annotations

from typing import Any

from games.core import Prompt, Rng

from .ai import CARDS_IN, HOUSE, PHASE, ROLL, Seat, best_of, choose as smart_choose
from .engine import CURSES


def choose(view: tuple[Any, ...], prompt: Prompt, rng: Rng) -> str:
    if len(prompt.choices) == 1:
        return prompt.choices[0].action
    phase = view[PHASE]
    if phase == "place":
        return best_of(Fearless(view, prompt.seat).place_values(view[HOUSE]), prompt.choices, rng)
    if phase == "pick":
        cards = view[HOUSE][view[ROLL][0]][CARDS_IN]
        return best_of([-CURSES[cid] for cid in cards], prompt.choices, rng)
    if phase == "reroll":
        return "keep"
    return smart_choose(view, prompt, rng, "smart")


class Fearless(Seat):
    """The smart AI's seat with ghosts worth nothing, for placing."""

    __slots__ = ()

    def __init__(self, view: tuple[Any, ...], seat: int) -> None:
        super().__init__(view, seat)
        self.gc = 0.0

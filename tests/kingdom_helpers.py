"""Helpers for Key to the Kingdom's rule tests: constructed positions and scripted dice.

`act(state, seat, "cross bone_pit", "roll", dice=[3, 5])` applies the actions in turn on a copy,
with the die showing the scripted faces (and failing if a face is left over or missing), and
returns the new state and every event.
"""
from __future__ import annotations

from typing import Any

from data.locales import DEFAULT, render
from games.core import Event, Rng, State, setup
from games.kingdom import GAME
from games.kingdom import hazards as hz


class Dice(Rng):
    """An Rng whose die shows scripted faces; shuffles and draws stay seeded."""

    def __init__(self, faces: list[int], state: int) -> None:
        super().__init__(state)
        self.faces = list(faces)

    def die(self, sides: int = 6) -> int:
        assert self.faces, "the rules threw a die the test did not script"
        return self.faces.pop(0)


def fresh(seats: int = 2, seed: int = 5, **options: Any) -> State:
    """A new game with both panels folded in (Banshee Towers and the Ice Palace showing), the
    board the rule tests are written against, whatever the game starts with."""
    st = setup(GAME, seats, options, seed)
    st.data["fold"] = {"west": "in", "east": "in"}
    return st


def put(st: State, seat: int, at: str | None = None, *, equip: list[str] | None = None,
        hand: list[str] | None = None, task: dict | None = None, spot: str | None = None) -> State:
    pl = st.data["players"][seat]
    if at is not None:
        pl["at"] = at
    if equip is not None:
        pl["equip"] = list(equip)
    if hand is not None:
        pl["hand"] = list(hand)
    if spot is not None:
        pl["spot"], pl["at"] = spot, None
    if task is not None:
        pl["task"] = task
    return st


def position(dagger: str, equip: list[str] | None = None, seats: int = 2, **kw: Any) -> State:
    """Seat 0 to play, standing on `dagger` with `equip` (nothing by default)."""
    st = fresh(seats)
    put(st, 0, dagger, equip=equip or [], **kw)
    for s in range(1, seats):
        put(st, s, "gate")
    return st


def act(st: State, seat: int, *actions: str, dice: list[int] = ()) -> tuple[State, list[Event]]:
    new = st.copy()
    rng = Dice(list(dice), new.rng)
    events: list[Event] = []
    for action in actions:
        events += GAME.reduce(new, seat, action, 0.0, rng)
        new.version += 1
    assert not rng.faces, f"dice left over: {rng.faces}"
    new.rng = rng.state
    return new, events


def en(words) -> str:
    """Engine words (a message, or a ready string) as an English reader reads them."""
    return render(DEFAULT, words)


def text(events: list[Event]) -> str:
    return "\n".join(en(e.text) for e in events)


def labels(prompt) -> list[str]:
    """A prompt's choices as English buttons read them."""
    return [en(c.path[0].label) for c in prompt.choices]


def me(st: State, seat: int = 0) -> dict:
    return st.data["players"][seat]


def task_at(st: State, seat: int = 0) -> str | None:
    task = me(st, seat)["task"]
    return None if task is None else f"{task['hz']}.{task['at']}"


def actions(st: State, seat: int = 0) -> list[str]:
    prompt = GAME.prompt(st, seat)
    return [] if prompt is None else [c.action for c in prompt.choices]


def in_hazard(st: State, seat: int, hazard: str, step: str, *, near: str | None = None,
              lane: str | None = None, pos: int = 0, **v: Any) -> State:
    """Put `seat` part-way through `hazard`, parked at `step` (as if a turn ended there)."""
    task = hz.new_task(hazard, near, **v)
    task["at"], task["lane"], task["pos"] = step, lane, pos
    pl = me(st, seat)
    pl["task"] = task
    if near is not None:
        pl["at"] = near
    return st


def next_turn_of(st: State, seat: int) -> State:
    """Pass turns (others stay put) until `seat` is to play, as the engine would start it."""
    from games.core import Rng as R
    new = st.copy()
    while new.data["current"] != seat:
        GAME.end_turn(new, R(1), [])
    return new


def safe_demon(st: State, seat: int = 0) -> State:
    """If the Demon King must be moved, move him where he catches nobody."""
    if st.data["phase"] != "demon":
        return st
    prompt = GAME.prompt(st, seat)
    choice = next(c for c in prompt.choices if not GAME.caught_by_demon(st.data, c.action.split()[1]))
    return act(st, seat, choice.action)[0]

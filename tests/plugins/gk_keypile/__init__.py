"""Key Pile: a tiny game that lives outside the project, to prove games are plugins.

Nothing in bot/, games/ or render/ names it: the tests advertise it through an entry point in a
generated *.dist-info folder, exactly as an installed distribution would, and play it through
the fake Discord. Everyone first says how bold they feel (all at once, a prompt per seat), then
players take 1 or 2 keys from a pile in turn; whoever takes the last key wins. Its words are
message ids in catalogs of its own (locales/<language>.po), as a plugin brings them.
"""
from __future__ import annotations

from typing import Any

from data.locales import Msg
from games.core import Choice, Event, Game, IllegalAction, Prompt, Rng, State, Step

FEEL = Msg("game.keypile.feel")
MOODS = {m: Msg(f"game.keypile.mood.{m}") for m in ("bold", "careful")}


class KeyPile(Game):
    name = "keypile"
    title = "Key Pile"
    pitch = "Take one or two keys; whoever takes the last one wins."
    min_seats, max_seats = 2, 6
    colours = ("red", "blue", "green", "yellow", "purple", "orange")
    colour_rgb = ((200, 40, 40), (40, 90, 210), (30, 150, 70), (230, 190, 30), (150, 70, 200),
                  (235, 120, 20))
    verbs = {"take": "how many keys: 1 or 2", "feel": "bold or careful"}
    option_choices = {"keys": (9, 12)}
    ai = "gk_keypile:choose"
    renderer = "gk_keypile.draw:draw"
    rules_page = ("gk_keypile", "rules.md")
    catalogs = ("gk_keypile", "locales")

    def setup_data(self, state: State, rng: Rng) -> None:
        state.data = {"pile": int(state.options.get("keys", 9)), "current": 0,
                      "moods": [None] * state.seats, "taken": [0] * state.seats}

    def prompt(self, state: State, seat: int) -> Prompt | None:
        d = state.data
        if state.over or seat < 0:
            return None
        if None in d["moods"]:
            if d["moods"][seat] is not None:
                return None
            return Prompt(seat, FEEL, [Choice(f"feel {m}", (Step(m, words),))
                                       for m, words in MOODS.items()])
        if d["current"] != seat:
            return None
        counts = (1, 2) if d["pile"] >= 2 else (1,)
        return Prompt(seat, Msg("game.keypile.left", count=d["pile"]),
                      [Choice(f"take {n}", (Step(str(n), Msg("game.keypile.take", count=n)),))
                       for n in counts])

    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        prompt = self.prompt(state, seat)
        if prompt is None:
            raise IllegalAction(Msg("game.keypile.not_your_turn"))
        if action not in [c.action for c in prompt.choices]:
            raise IllegalAction(Msg("game.keypile.cannot", action=action,
                                    actions=tuple(c.action for c in prompt.choices)))
        verb, arg = action.split()
        if verb == "feel":
            d["moods"][seat] = arg
            return [Event(Msg("game.keypile.ready", who=f"{{p{seat}}}"))]
        taken = int(arg)
        d["pile"] -= taken
        d["taken"][seat] += taken
        state.turn += 1
        events = [Event(Msg("game.keypile.took", who=f"{{p{seat}}}", taken=taken,
                            count=d["pile"]))]
        if d["pile"] == 0:
            state.over = True
            state.result = {"winners": [seat], "reason": Msg("game.keypile.last_key").stored()}
        else:
            d["current"] = (seat + 1) % state.seats
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.data
        return {"game": self.name, "pile": d["pile"], "current": d["current"],
                "taken": list(d["taken"]), "ready": [m is not None for m in d["moods"]]}

    def to_move(self, state: State) -> int | None:
        return None if None in state.data["moods"] else state.data["current"]


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    """The AI: the smart one leaves the pile a multiple of three when it can."""
    actions = [c.action for c in prompt.choices]
    winning = [a for a in actions if a.startswith("take") and (view["pile"] - int(a[5:])) % 3 == 0]
    return winning[0] if level == "smart" and winning else actions[rng.below(len(actions))]


GAME = KeyPile()

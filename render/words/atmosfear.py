"""Atmosfear's board in words: who plays, where each Harbinger stands (stones named by their
kind and realm, as the board shows them), the keys each holds (a count: which keys are in a
rack is the player's secret), then the realms' keys, the black key and the Well. And the
Gatekeeper's picture in a sentence, for the messages he speaks in."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from data import load_toml

from . import acting, count, fit, joined, name_of, sentence

TITLE = "Atmosfear: The Harbingers"
KINDS = {"plain": "plain stone", "headstone": "headstone", "key": "key stone", "black_key": "black key stone",
         "black_hole": "black hole", "duel": "duel stone", "flight": "flight stone", "fate": "fate stone",
         "time": "time stone", "branch": "branch stone"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


@lru_cache(maxsize=1)
def inner_landmarks() -> tuple[str, tuple[str, ...]]:
    """The Inner Ring's stone next to the Well, and where each realm's path comes in (data:
    board.gate and board.ends, in realm order)."""
    board = load_toml("atmosfear", "board.toml")["board"]
    return str(board["gate"]), tuple(board["ends"])


def place_names(view: dict[str, Any]) -> dict[str, str]:
    """Every stone of the view's board by a name a player can find on the picture: "the purple
    headstone", "the second key stone in the purple realm", "the path in from the red realm"."""
    board = view.get("board") or {}
    colour = {r.get("index"): r.get("colour") for r in view.get("realms") or []}
    names: dict[str, str] = {}
    outer = board.get("outer") or []
    for stone in outer:
        realm, kind = stone.get("realm"), str(stone.get("kind"))
        word = KINDS.get(kind, kind.replace("_", " ") + " stone")
        realm_colour = colour.get(realm) or stone.get("colour") or "?"
        if kind == "headstone":
            names[stone["id"]] = f"the {realm_colour} headstone"
            continue
        alike = [s["id"] for s in outer if s.get("realm") == realm and s.get("kind") == kind]
        nth = f"{ORDINALS[alike.index(stone['id'])]} " if len(alike) > 1 and len(alike) <= len(ORDINALS) else ""
        article = "the" if nth or len(alike) == 1 else "a"
        names[stone["id"]] = f"{article} {nth}{word} in the {realm_colour} realm"
    for realm, path in enumerate(board.get("radials") or []):
        for step, stone in enumerate(path):
            names[stone] = f"step {step + 1} of the path in from the {colour.get(realm, '?')} realm"
    gate, ends = inner_landmarks()
    for stone in board.get("inner") or []:
        names[stone] = "the Inner Ring"
        if stone in ends:
            names[stone] += f", where the path from the {colour.get(ends.index(stone), '?')} realm comes in"
        elif stone == gate:
            names[stone] += ", at the gate by the Well"
    if board.get("well"):
        names[board["well"]] = "the Well of Fears"
    return names


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *positions(view, players), *holdings(view, players), *table(view)])


def who(view: dict[str, Any], player: dict[str, Any]) -> str:
    return f"{name_of(view, player.get('seat'))} ({player.get('colour')}, {player.get('harbinger')})"


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    minutes = (view.get("clock") or {}).get("minutes")
    heading = f"{TITLE}, a {minutes}-minute game, turn {int(view.get('turn') or 0)}." if minutes \
        else f"{TITLE}, turn {int(view.get('turn') or 0)}."
    phase = view.get("phase")
    if view.get("gatekeeper_won"):
        return [heading, sentence("Game over: the Gatekeeper wins")]
    if phase == "over" or view.get("winner") is not None:
        winner = view.get("winner")
        return [heading, sentence(f"Game over: {name_of(view, winner)} wins" if winner is not None
                                  else "Game over")]
    if phase == "fears":
        writers = joined(name_of(view, p.get("seat")) for p in players)
        return [heading, acting(view, f"Before the clock starts, {writers} each write a fear for the Well")]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    now = f"{name_of(view, current.get('seat'))} ({current.get('colour')}) to play" if current \
        else "Nobody is to play"
    if phase == "gatekeeper":
        now += " while the Gatekeeper speaks"
    elif phase == "paused":
        now += "; the game is paused"
    return [heading, acting(view, now)]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    names = place_names(view)
    said = []
    for player in players:
        pos = player.get("pos")
        place = names.get(pos, "the board")
        where = f"is on {place}" if pos else "has not entered the board"
        if player.get("in_black_hole"):
            where = f"is stuck in {place}" if "black hole" in place else f"{where}, stuck in a black hole"
        said.append(f"{who(view, player)} {joined([where, *conditions(player, 'is ')])}.")
    return said


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    held = [f"{name_of(view, p.get('seat'))} {count(p.get('keys'), 'key')}"
            + (" plus the black key" if p.get("black_key") else "") for p in players]
    return [f"Keys held: {joined(held)}."]


def table(view: dict[str, Any]) -> list[str]:
    said = []
    realms = view.get("realms") or []
    if realms:
        left = [f"{r.get('colour')} {int(r.get('keys_left') or 0)}" for r in realms]
        said.append(f"Keys left in the realms: {', '.join(left)}.")
    black = view.get("black_key") or {}
    if black.get("holder") is None:
        said.append("The black key is on its stone." if black.get("on_board", True) else "The black key is gone.")
    dice = view.get("dice")
    if dice:
        said.append(f"The dice show {joined(str(int(d)) for d in dice)}.")
    read = len(view.get("fears_read") or [])
    said.append(f"Fears in the Well: {int(view.get('fears_in_well') or 0)}, {read} read out.")
    return said


def describe_gatekeeper(line: str, name: str | None = None) -> str:
    """The Gatekeeper's picture (`render.atmosfear.render_gatekeeper`) in words: who he is,
    whom he calls if anyone, and his line, as the picture prints it."""
    text = " ".join(str(line or "").split()) or "..."
    calls = f", calling {name}" if name else ""
    return fit([f"The Gatekeeper, a hooded figure with glowing eyes{calls}, speaking: {text}"])


LEGEND = ("Stones: a letter is its realm's key · a black key · swirl: black hole · daggers: duel · "
          "wings: flight · skull: fate · clock: time · headstone · arrow: a path in · gold rings: the last move.")


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's side panel used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (colour, Harbinger, keys held as a
    count, what holds them back), then the realms' keys, the dice, the Well and the black key,
    and the legend of the stones."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    lines = [player_line(view, p) for p in players]
    facts = []
    realms = view.get("realms") or []
    if realms:
        facts.append("Keys left: " + ", ".join(f"{r.get('colour')} {int(r.get('keys_left') or 0)}" for r in realms))
    dice = view.get("dice")
    if dice:
        facts.append(f"Dice: {joined(str(int(d)) for d in dice)}")
    read = len(view.get("fears_read") or [])
    facts.append(f"Well: {count(view.get('fears_in_well'), 'fear')}, {read} read")
    black = view.get("black_key") or {}
    if black.get("holder") is None:
        facts.append("Black key: " + ("on its stone" if black.get("on_board", True) else "gone"))
    return [*lines, " · ".join(facts), LEGEND]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red, Khufu): 2 keys and the black key · must roll 6"."""
    held = count(player.get("keys"), "key") + (" and the black key" if player.get("black_key") else "")
    states = [held, *(["in a black hole"] if player.get("in_black_hole") else []),
              *conditions(player)]
    return f"{who(view, player)}: {' · '.join(states)}"


def conditions(player: dict[str, Any], being: str = "") -> list[str]:
    """What holds a player back or marks them out, the same words in the alt text and the
    panel ("is the Chosen One" in a sentence: `being` "is ")."""
    states = []
    if player.get("must_roll") is not None:
        states.append(f"must roll {player['must_roll']}")
    if player.get("waiting_at_well"):
        states.append("waits at the Well")
    if player.get("chosen_one"):
        states.append(f"{being}the Chosen One")
    return states

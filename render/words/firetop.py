"""Firetop Mountain's board in words: the round and who does what, where each adventurer stands
(rooms by name, corridor squares by the coordinates printed round the board), their adventure
sheets as the panels show them (counts of Treasure and Key cards, never which ones), a battle
going on, and the rooms explored."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from data import load_toml

from . import acting, count, fit, joined, name_of, sentence

TITLE = "Firetop Mountain"
STEPS = {"start": "to move", "move": "is moving", "maze": "is in the Maze", "stop": "is meeting someone",
         "offer": "is conferring", "ask": "is making a Key Challenge", "shop": "is at the Pedlar's",
         "open": "is at the Warlock's chest", "battle": "is fighting", "task": "is in a room",
         "done": "is ending the turn"}


@lru_cache(maxsize=1)
def squares() -> dict[str, str]:
    """The named squares that are not rooms, from the board's data: the Entrance, the Secret
    Passage entrances, the Maze spaces and the river crossings' banks."""
    board = load_toml("firetop", "board.toml")
    names = {"entrance": f"the {board['entrance']['name']}"}
    for passage in board["passage"]:
        for square in passage["entrances"]:
            names[square] = f"the {passage['colour']} Secret Passage entrance at {square}"
    for square in board["maze"]["spaces"]:
        names[square] = f"the Maze at {square}"
    for crossing in board["crossing"]:
        for bank in ("south", "north"):
            names[crossing[bank]] = f"the {bank} bank by the {crossing['name']} at {crossing[bank]}"
    return names


def place(view: dict[str, Any], node: Any) -> str:
    """ "in the Kennels", "at the Entrance", "in the corridor at K9"."""
    room = (view.get("rooms") or {}).get(node)
    if room:
        return f"in the {room['name']}" if not str(room["name"]).startswith("the ") else f"in {room['name']}"
    named = squares().get(node)
    return f"at {named}" if named else f"in the corridor at {node}"


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view), *battle(view), *positions(view, players), *sheets(view, players), *rooms(view)])


def who(view: dict[str, Any], seat: Any) -> str:
    colour = next((p.get("colour") for p in view.get("players") or [] if p.get("seat") == seat), None)
    return f"{name_of(view, seat)} ({colour})" if colour else name_of(view, seat)


def turn(view: dict[str, Any]) -> list[str]:
    heading = f"{TITLE}, round {int(view.get('round') or 1)} of {int(view.get('limit') or 0)}."
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = (f"{name_of(view, winner)} opened the chest and wins" if winner is not None
                  else "The Warlock woke: nobody won")
        return [heading, sentence(f"Game over: {result}")]
    if view.get("phase") == "create":
        rolling = joined(who(view, p.get("seat")) for p in view.get("players") or [] if p.get("creating"))
        return [heading, acting(view, f"Rolling up adventurers: {rolling or 'everyone'}")]
    current = view.get("current")
    if current is None:
        return [heading, acting(view, "Nobody is to play")]
    step = STEPS.get(str(view.get("step")), "to play")
    if view.get("step") == "move" and view.get("roll"):
        step = f"rolled {int(view['roll'])} and is moving"
    return [heading, acting(view, f"{who(view, current)} {step}")]


def battle(view: dict[str, Any]) -> list[str]:
    fight = view.get("battle")
    if not fight:
        return []
    if fight.get("kind") == "monster":
        return [f"{name_of(view, fight.get('seat'))} is fighting the {fight.get('name')} (Skill "
                f"{int(fight.get('skill') or 0)}, Stamina {int(fight.get('stamina') or 0)} of "
                f"{int(fight.get('stamina0') or 0)})."]
    return [f"{name_of(view, fight.get('seat'))} is fighting {name_of(view, fight.get('foe'))}."]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    """One sentence per place, in the order of the first adventurer there: "Ana (red) and Bo
    (blue) are in the Kennels." (Six adventurers often share a room.)"""
    places: dict[str, list[str]] = {}
    for player in players:
        where = place(view, player["pos"]) if player.get("pos") else "not on the board yet"
        places.setdefault(where, []).append(who(view, player.get("seat")))
    return [f"{joined(people)} {'is' if len(people) == 1 else 'are'} {where}." for where, people in places.items()]


def sheets(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        stats = (f"Skill {int(player.get('skill') or 0)}, Stamina {int(player.get('stamina') or 0)} of "
                 f"{int(player.get('stamina0') or 0)}, Luck {int(player.get('luck') or 0)} of "
                 f"{int(player.get('luck0') or 0)}")
        goods = [f"{int(player.get('gold') or 0)} Gold", count(player.get("provisions"), "Provision"),
                 count(player.get("treasures"), "Treasure card"), count(player.get("keycards"), "Key card")]
        extras = [str(s) for s in player.get("shown") or []]
        if not player.get("lantern"):
            extras.append("no lantern")
        if int(player.get("miss") or 0):
            extras.append("misses a turn")
        tail = f"; {', '.join(extras)}" if extras else ""
        said.append(f"{name_of(view, player.get('seat'))}: {stats}; {', '.join(goods)}{tail}.")
    return said


def rooms(view: dict[str, Any]) -> list[str]:
    explored = [str(r["name"]) for r in (view.get("rooms") or {}).values() if r.get("visited")]
    said = [f"Rooms explored: {joined(explored)}." if explored else "No room explored yet."]
    piles = view.get("piles") or []
    if piles:
        lying = [f"{count(p.get('count'), 'card')} {place(view, p.get('node'))}" for p in piles]
        said.append(f"Treasure lying on the floor: {'; '.join(lying)}.")
    return said


LEGEND = ("On the board: ? a room not yet explored · ✓ its treasure taken · ! a monster waits there · "
          "a gold box: treasure on the floor · a crossed letter: a room barred to that adventurer · "
          "the line: the last move.")


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's adventurer sheets used to show, as short lines for the table's text (a
    phone wraps text; it shrinks a picture): one line per adventurer, the battle and the dice,
    then the board's legend."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return [*(sheet_line(view, p) for p in players), *battle(view), *fight_dice(view), *throws(view), LEGEND]


DICE_WHAT = {"move": "moves", "luck": "tests Luck", "battle": "fights", "escape": "escapes",
             "bridge": "tries the bridge", "passage": "gropes"}


def fight_dice(view: dict[str, Any]) -> list[str]:
    """The battle's last round: "Last round: 6 and 5 = 21 against 1 and 2 = 10"."""
    last = (view.get("battle") or {}).get("last")
    if not isinstance(last, dict):
        return []
    mine, theirs = (joined(str(int(f)) for f in last.get(k) or []) for k in ("mine", "theirs"))
    return [f"Last round: {mine} = {int(last.get('my_total') or 0)} against {theirs} = "
            f"{int(last.get('their_total') or 0)}"]


def throws(view: dict[str, Any]) -> list[str]:
    """The last dice thrown outside a battle, the latest tries at the chest, and its keys once
    the game is over."""
    said = []
    dice = view.get("dice")
    if not view.get("battle") and isinstance(dice, dict) and dice.get("faces"):
        what = DICE_WHAT.get(str(dice.get("what")), "rolls")
        said.append(f"{name_of(view, dice.get('seat'))} {what}: {joined(str(int(f)) for f in dice['faces'])}")
    tries = [f"{name_of(view, a.get('seat'))} {'-'.join(str(int(k)) for k in a.get('keys') or [])}: "
             f"{int(a.get('wrong') or 0)} wrong" for a in (view.get("attempts") or [])[-3:]]
    if tries:
        said.append("Chest tries: " + " · ".join(tries))
    if view.get("phase") == "over" and view.get("chest"):
        said.append("The chest's keys: " + ", ".join(str(int(k)) for k in view["chest"]))
    return said


def sheet_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red): Skill 11 · Luck 10/11 · Stamina 22/22 · Gold 1 · Food 3 · Treasure 2 · Keys 2 · Fine Sword"."""
    def n(key: str, default: int = 0) -> int:
        return int(player.get(key) or default)
    said = [f"Skill {n('skill')}", f"Luck {n('luck')}/{n('luck0')}", f"Stamina {n('stamina')}/{n('stamina0')}",
            f"Gold {n('gold')}", f"Food {n('provisions')}", f"Treasure {n('treasures')}", f"Keys {n('keycards')}"]
    if player.get("creating"):
        said.append("new hero")
    if n("miss"):
        said.append("lost a turn")
    if not player.get("lantern"):
        said.append("no lantern")
    if n("lives", 1) > 1:
        said.append(f"life {n('lives', 1)}")
    said += [str(s) for s in player.get("swords") or [] if s != "Sword"][:1]
    return f"{who(view, player.get('seat'))}: {' · '.join(said)}"

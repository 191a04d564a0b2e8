"""Key to the Kingdom's board in words: the round and who plays, where each adventurer and the
Demon King stand, what each carries (equipment face up, a count of Treasure holders: what is
inside one is secret), which Worlds the panels show and which Key Locations still hold their
Treasure.

Places are named from the board's data: Key Locations, the Gate, the Ring of Stones and the
Whirlpools by their own names, a White Dagger by its hazard and side as the buttons and the
board's key say it ("the Sleeping Giant, near side"), and a plain or supply space by its region
and the nearest named place along the paths."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from data import load_toml

from . import acting, count, fit, joined, name_of, sentence, with_colour

TITLE = "Key to the Kingdom"
STEPS = {"demon": "to move the Demon King", "move": "to move", "steal": "may steal", "act": "to play"}


@lru_cache(maxsize=1)
def _board() -> dict[str, Any]:
    return load_toml("kingdom", "board.toml")


@lru_cache(maxsize=1)
def place_names() -> dict[str, str]:
    """Every space and holding place of the board by a name a player can find on the picture:
    the words the buttons and the board's panels use (board.toml [names]), a plain space's
    followed by the nearest named place along the paths (`beside`)."""
    names, kinds = dict(_landmarks()), _board()["names"]["kinds"]
    for space, (kind, world) in _plain().items():
        if space not in names:
            names[space] = kinds.get(kind, kinds["track"]).format(world=world) + beside()[space]
    return names


@lru_cache(maxsize=1)
def _landmarks() -> dict[str, str]:
    """The places with names of their own, in the board's words."""
    board = _board()
    hazards = load_toml("kingdom", "hazards.toml")
    names: dict[str, str] = {}
    for side, panel in board["panels"].items():
        names[panel["pool"]] = f"the {side.capitalize()} Whirlpool"
    for spot, spec in board.get("spots", {}).items():
        names[spot] = spec["name"]
    for hazard, ends in board["hazards"].items():
        label = hazards.get(hazard, {}).get("name", hazard.replace("_", " ").title())
        for end, side in zip(ends, ("near", "far")):
            # the words the buttons and the board's key use ("the Demon Castle moat, castle side")
            names.setdefault(end, board["names"].get(end) or f"the {label}, {side} side")
    names.update(board["locations"])
    names[board["wizard"]] = f"the {hazards['wizard']['name']}"
    names[board["start"]] = "the Gate"
    for space, (kind, _) in _plain().items():
        if kind == "ring":
            names[space] = f"the {hazards['ring_of_stones']['name']}"
    return names


@lru_cache(maxsize=1)
def _plain() -> dict[str, tuple[str, str]]:
    """Every space of the track: its kind and its World as a sentence says it ("the Heartland")."""
    board = _board()
    heart = board["heart"]["name"]
    out = {space: (spec[2], heart[:1].lower() + heart[1:])
           for space, spec in board["heart"]["spaces"].items()}
    for panel in board["panels"].values():
        for face in ("in", "out"):
            for space, spec in panel[face]["spaces"].items():
                out[space] = (spec[2], f"the {panel[face]['world']}")
    return out


@lru_cache(maxsize=1)
def beside() -> dict[str, str]:
    """Each space of the track -> ", next to the Gate", ", 3 spaces from the Snake Pit, near
    side": the nearest named place along the paths of its own region ("" if none)."""
    board = _board()
    paths: list[str] = list(board["heart"]["paths"])
    region = {space: "heart" for space in board["heart"]["spaces"]}
    for side, panel in board["panels"].items():
        for face in ("in", "out"):
            paths += panel[face]["paths"]
            region.update({space: f"{side} {face}" for space in panel[face]["spaces"]})
    links, landmarks = neighbours(paths), _landmarks()
    return {space: nearest(space, links, landmarks, region) for space in region}


def neighbours(paths: list[str]) -> dict[str, list[str]]:
    """The spaces each space is joined to, from paths written as "a b c" (a-b, b-c)."""
    links: dict[str, list[str]] = {}
    for path in paths:
        spaces = path.split()
        for a, b in zip(spaces, spaces[1:]):
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    return links


def nearest(space: str, links: dict[str, list[str]], landmarks: dict[str, str],
            region: dict[str, str]) -> str:
    """ ", next to the Gate" or ", 3 spaces from the Snake Pit (near side)": the closest named
    place along the paths of the space's own region (the first found among equals)."""
    seen, frontier, steps = {space}, [space], 0
    while frontier:
        steps += 1
        ahead = []
        for here in frontier:
            for there in links.get(here, []):
                if there in seen:
                    continue
                if there in landmarks:
                    return f", next to {landmarks[there]}" if steps == 1 else \
                        f", {steps} spaces from {landmarks[there]}"
                seen.add(there)
                if region.get(there) == region[space]:
                    ahead.append(there)
        frontier = ahead
    return ""


@lru_cache(maxsize=1)
def item_names() -> dict[str, str]:
    return {item: spec[0] for item, spec in load_toml("kingdom", "cards.toml")["equipment"].items()}


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *positions(view, players), *holdings(view, players), *table(view)])


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    heading = f"{TITLE}, round {int(view.get('round') or 1)} of {int(view.get('rounds') or 0)}."
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = (f"{name_of(view, winner)} escapes the Kingdom with the Key" if isinstance(winner, int)
                  else "The Demon King keeps the Kingdom: nobody escaped")
        return [heading, sentence(f"Game over: {result}")]
    job = view.get("fold_job")
    if job:
        return [heading, acting(view, folding(view, job))]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    if current is None:
        return [heading, acting(view, "Nobody is to play")]
    return [heading, acting(view, f"{with_colour(view, current)} {STEPS.get(str(view.get('phase')), 'to play')}")]


def folding(view: dict[str, Any], job: dict[str, Any]) -> str:
    """A panel turning over: who must run from it, or who may stop it with Deep Magic."""
    panel = f"The {str(job.get('panel', '')).capitalize()} panel is folding"
    runners = job.get("runners") or {}
    if runners:
        running = joined(f"{name_of(view, int(seat))} ({count(run.get('left'), 'throw')} left)"
                         for seat, run in sorted(runners.items()))
        return f"{panel}: {running} must run from it"
    if job.get("waiting"):
        return f"{panel}: {joined(name_of(view, s) for s in job['waiting'])} may stop it with Deep Magic"
    return panel


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    names = place_names()
    said = []
    for player in players:
        spot = player.get("spot")
        where = f"is held in {names.get(spot, 'a holding place')}" if spot else _standing(player, names)
        task = player.get("task") or {}
        doing, hazard = str(task.get("label") or task.get("name") or ""), str(task.get("name") or "")
        if hazard and hazard.lower() in where.lower() and doing.startswith(hazard):
            doing = doing[len(hazard):].lstrip(": ")  # "Boats: rowing" at the Boats: just "rowing"
            where += f", {doing}" if doing else ""
        elif doing:
            where += f", facing the {doing}" if not doing.lower().startswith("the ") else f", facing {doing}"
        if task.get("miss"):
            where += f", missing {count(task['miss'], 'turn')}"
        said.append(f"{with_colour(view, player)} {where}.")
    demon = view.get("demon")
    if demon:
        said.append(f"The Demon King is {_on(demon)} {names.get(demon, 'his castle')}.")
    return said


def _standing(player: dict[str, Any], names: dict[str, str]) -> str:
    """Where an adventurer stands in the words of their panel on the board ("is on the Demon
    Castle moat, castle side"), a plain space's nearest named place after them."""
    at, panel = player.get("at"), player.get("where")
    if not panel:
        return f"is at {names.get(at, 'a space off the board')}"
    return f"is {panel}" + ("" if at in _landmarks() else beside().get(at, ""))


def _on(space: str) -> str:
    """ "on" a path, "at" any other place, as the board's panels say it."""
    words = _board()["names"]["standing"]
    kind = _plain().get(space, ("", ""))[0]
    return words.get(kind, words["default"])


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        kit = Counter(item_names().get(i, str(i)) for i in player.get("equip") or [])
        equipment = joined(count(n, f"{item} card") if n > 1 else item
                           for item, n in sorted(kit.items())) or "no equipment"
        deep = int(player.get("deep") or 0)
        magic = f", {count(deep, 'Deep Magic card')}" if deep else ""
        said.append(f"{name_of(view, player.get('seat'))} carries {equipment}; "
                    f"{count(player.get('treasures'), 'Treasure holder')}{magic}.")
    return said


def table(view: dict[str, Any]) -> list[str]:
    names = place_names()
    worlds = view.get("worlds") or {}
    said = []
    if worlds:
        said.append(f"The panels show {joined(f'{w} in the {side}' for side, w in worlds.items())}.")
    waiting = [names.get(loc, "a Key Location") for loc, held in (view.get("locations") or {}).items() if held]
    if waiting:
        said.append(f"Treasure still waits at {joined(waiting)}.")
    lost = int(view.get("lost_treasures") or 0)
    lost_kit = len(view.get("lost_equipment") or [])
    said.append(f"Lost pile: {count(lost, 'Treasure holder')} and {count(lost_kit, 'piece')} of equipment.")
    return said


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's panels used to show, as short lines for the table's text (a phone wraps
    text; it shrinks a picture): one line per adventurer (equipment, Treasure holders as a
    count, Deep Magic, what they are doing), then the Ring and the lost pile, and the Worlds on
    the side panels' backs."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    lost = Counter(item_names().get(e.get("item"), str(e.get("item")))
                   for e in view.get("lost_equipment") or [] if isinstance(e, dict))
    kit = "".join(f", {item}" + (f"×{n}" if n > 1 else "") for item, n in sorted(lost.items()))
    return [*(player_line(view, p, view.get("monster"), view.get("fold_job")) for p in players),
            f"Ring: {count(view.get('deep_left'), 'Deep Magic card')} · "
            f"Lost: {count(view.get('lost_treasures'), 'Treasure holder')}{kit}", panels(view)]


def panels(view: dict[str, Any]) -> str:
    """The World each side panel shows and the one on its back (it shows when the panel folds)."""
    fold, job = view.get("fold") or {}, view.get("fold_job") or {}
    said = []
    for side in ("west", "east"):
        face = fold.get(side) if fold.get(side) in ("in", "out") else "in"
        worlds = _board()["panels"][side]
        if job.get("panel") == side:
            to = job.get("to") if job.get("to") in ("in", "out") else "out"
            turning = f"{'opening out' if to == 'out' else 'folding in'} to the {worlds[to]['world']} now"
        else:
            turning = f"folds to {worlds['out' if face == 'in' else 'in']['world']}"
        said.append(f"{side.capitalize()} panel: {worlds[face]['world']} ({turning})")
    return " · ".join(said)


def player_line(view: dict[str, Any], player: dict[str, Any], monster: dict[str, Any] | None,
                job: dict[str, Any] | None) -> str:
    """ "Ana (red): Axe, Net×2 · 1 Treasure holder · 1 Deep Magic card · fighting a Wyvern (strength 7)"."""
    kit = Counter(item_names().get(i, str(i)) for i in player.get("equip") or [])
    said = [", ".join(item + (f"×{n}" if n > 1 else "") for item, n in sorted(kit.items())) or "no equipment",
            count(player.get("treasures"), "Treasure holder")]
    if player.get("deep"):
        said.append(count(player.get("deep"), "Deep Magic card"))
    doing = status(player, monster, job)
    if doing:
        said.append(doing)
    return f"{with_colour(view, player)}: {' · '.join(said)}"


def status(player: dict[str, Any], monster: dict[str, Any] | None, job: dict[str, Any] | None) -> str:
    """What an adventurer is doing, in the words of the board's panel."""
    if player.get("revealed"):
        return "carried " + ", ".join(str(t) for t in player["revealed"])
    run = ((job or {}).get("runners") or {}).get(str(player.get("seat")))
    if run:
        return f"running from the fold: {count(run.get('left'), 'throw')} left"
    if monster and monster.get("seat") == player.get("seat"):
        return f"fighting a {monster.get('name')} (strength {monster.get('strength')})"
    task = player.get("task")
    if task:
        label = str(task.get("label") or task.get("name") or "")
        if task.get("miss"):
            label += f" ({task['miss']} turns to miss)"
        elif task.get("length") and task.get("lane"):
            label += f" ({task.get('pos')}/{task.get('length')})"
        return label
    if player.get("spot"):
        return "held"
    return str(player.get("where") or "")

"""Key to the Kingdom's board in words: the round and who plays, where each adventurer and the
Demon King stand, what each carries (equipment face up, a count of Treasure holders: what is
inside one is secret), which Worlds the panels show and which Key Locations still hold their
Treasure.

Places are named from the board's data: Key Locations, the Gate, the Ring of Stones and the
Whirlpools by their own names, a White Dagger by its hazard and side as the buttons and the
board's key say it ("the Sleeping Giant, near side"), and a plain or supply space by its region
and the nearest named place along the paths.

Every word is the game's message (data/kingdom/locales) in the view's language (view["lang"]):
the view carries ids (spaces, items, a hazard and its step), never words.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from data import load_toml
from data.locales import DEFAULT, LANGUAGES, has, text

from . import acting, fit, name_of, sentence

TITLE = "Key to the Kingdom"
GAME = "game.kingdom."


def lang_of(view: dict[str, Any]) -> str:
    lang = view.get("lang")
    return lang if lang in LANGUAGES else DEFAULT


def say(lang: str, key: str, **params: Any) -> str:
    """The game's message `key` in `lang`."""
    return text(lang, GAME + key, **params)


@lru_cache(maxsize=1)
def _board() -> dict[str, Any]:
    return load_toml("kingdom", "board.toml")


@lru_cache(maxsize=None)
def place_names(lang: str = DEFAULT) -> dict[str, str]:
    """Every space and holding place of the board by a name a player can find on the picture:
    the words the buttons and the board's panels use, a plain space's followed by the nearest
    named place along the paths (`beside`)."""
    names = dict(_landmarks(lang))
    for space in _plain():
        if space not in names:
            names[space] = ", ".join(filter(None, (plain_name(lang, space), beside(lang)[space])))
    return names


def plain_name(lang: str, space: Any) -> str:
    """A space by its own words alone: a landmark's name, or "a path in the Heartland"."""
    if space in _landmarks(lang):
        return _landmarks(lang)[space]
    kind, world = _plain().get(space, ("track", "world.heart"))
    return say(lang, f"place.{'supply' if kind == 'supply' else 'track'}", world=say(lang, world))


@lru_cache(maxsize=None)
def _landmarks(lang: str) -> dict[str, str]:
    """The places with names of their own, in the board's words."""
    board = _board()
    named = {k for k, v in board["names"].items() if isinstance(v, str)} | set(board["locations"])
    names = {space: say(lang, f"place.{space}") for space in named}
    names.update({spot: say(lang, f"spot.{spot}") for spot in board.get("spots", {})})
    return names


@lru_cache(maxsize=1)
def _plain() -> dict[str, tuple[str, str]]:
    """Every space of the track: its kind and its World's message key."""
    board = _board()
    out = {space: (spec[2], "world.heart") for space, spec in board["heart"]["spaces"].items()}
    for side, panel in board["panels"].items():
        for face in ("in", "out"):
            for space, spec in panel[face]["spaces"].items():
                out[space] = (spec[2], f"world.{side}.{face}")
    return out


@lru_cache(maxsize=None)
def beside(lang: str = DEFAULT) -> dict[str, str]:
    """Each space of the track -> "next to the Gate", "3 spaces from the Snake Pit, near side":
    the nearest named place along the paths of its own region ("" if none)."""
    board = _board()
    paths: list[str] = list(board["heart"]["paths"])
    region = {space: "heart" for space in board["heart"]["spaces"]}
    for side, panel in board["panels"].items():
        for face in ("in", "out"):
            paths += panel[face]["paths"]
            region.update({space: f"{side} {face}" for space in panel[face]["spaces"]})
    links, landmarks = neighbours(paths), _landmarks(lang)
    return {space: nearest(lang, space, links, landmarks, region) for space in region}


def neighbours(paths: list[str]) -> dict[str, list[str]]:
    """The spaces each space is joined to, from paths written as "a b c" (a-b, b-c)."""
    links: dict[str, list[str]] = {}
    for path in paths:
        spaces = path.split()
        for a, b in zip(spaces, spaces[1:]):
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    return links


def nearest(lang: str, space: str, links: dict[str, list[str]], landmarks: dict[str, str],
            region: dict[str, str]) -> str:
    """ "next to the Gate" or "3 spaces from the Snake Pit, near side": the closest named place
    along the paths of the space's own region (the first found among equals)."""
    seen, frontier, steps = {space}, [space], 0
    while frontier:
        steps += 1
        ahead = []
        for here in frontier:
            for there in links.get(here, []):
                if there in seen:
                    continue
                if there in landmarks:
                    return say(lang, "board.next_to", place=landmarks[there]) if steps == 1 else \
                        say(lang, "board.spaces_from", count=steps, place=landmarks[there])
                seen.add(there)
                if region.get(there) == region[space]:
                    ahead.append(there)
        frontier = ahead
    return ""


@lru_cache(maxsize=1)
def treasure_ids() -> dict[str, str]:
    """A Treasure's name as the view reveals it at the end (cards.toml's English) -> its id."""
    cards = load_toml("kingdom", "cards.toml")
    return {name: tid for tid, name in {**cards["treasures"], "cobra": cards["cobra"]["label"]}.items()}


def item_name(lang: str, item: Any) -> str:
    return say(lang, f"item.{item}")


def with_colour(view: dict[str, Any], player: dict[str, Any]) -> str:
    """A player as the words name them: "Ana (red)", the colour in the view's language."""
    return say(lang_of(view), "board.with_colour", who=name_of(view, player.get("seat")),
               colour=say(lang_of(view), f"colour.{player.get('colour')}"))


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *positions(view, players), *holdings(view, players), *table(view)])


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    lang = lang_of(view)
    heading = say(lang, "board.heading", title=TITLE, round=int(view.get("round") or 1),
                  rounds=int(view.get("rounds") or 0))
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = say(lang, "board.over_win", who=name_of(view, winner)) if isinstance(winner, int) \
            else say(lang, "board.over_none")
        return [heading, sentence(result)]
    job = view.get("fold_job")
    if job:
        return [heading, acting(view, folding(view, job))]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    if current is None:
        return [heading, acting(view, say(lang, "board.nobody"))]
    phase = str(view.get("phase"))
    step = phase if phase in ("demon", "move", "steal") else "act"
    return [heading, acting(view, say(lang, f"board.step.{step}", who=with_colour(view, current)))]


def folding(view: dict[str, Any], job: dict[str, Any]) -> str:
    """A panel turning over: who must run from it, or who may stop it with Deep Magic."""
    lang = lang_of(view)
    panel = say(lang, f"panel.{job.get('panel') if job.get('panel') in ('west', 'east') else 'west'}")
    runners = job.get("runners") or {}
    if runners:
        running = tuple(say(lang, "board.runner", who=name_of(view, int(seat)), count=int(run.get("left") or 0))
                        for seat, run in sorted(runners.items()))
        return say(lang, "board.fold_run", panel=panel, runners=running)
    if job.get("waiting"):
        return say(lang, "board.fold_deep", panel=panel, who=tuple(name_of(view, s) for s in job["waiting"]))
    return say(lang, "board.fold", panel=panel)


def doing(lang: str, task: dict[str, Any]) -> tuple[str, str]:
    """(the hazard's name, what the adventurer does in it: "" when its step says nothing)."""
    hazard = str(task.get("hazard") or "")
    step = f"hazard.{hazard}.{task.get('step')}.show"
    name = say(lang, f"hazard.{hazard}") if has(f"{GAME}hazard.{hazard}") else hazard
    return name, say(lang, step) if has(GAME + step) else ""


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    lang = lang_of(view)
    names = place_names(lang)
    said = []
    for player in players:
        spot = player.get("spot")
        task = player.get("task") or {}
        where = [say(lang, "board.held", place=names.get(spot, "?")) if spot else _standing(lang, player)]
        if task:
            hazard, shown = doing(lang, task)
            if hazard.lower() in where[0].lower():  # at the Boats, "rowing" says enough
                where += [shown] if shown else []
            else:
                where.append(say(lang, "board.facing_doing", hazard=hazard, doing=shown) if shown
                             else say(lang, "board.facing", hazard=hazard))
        if task.get("miss"):
            where.append(say(lang, "board.missing", count=int(task["miss"])))
        said.append(say(lang, "board.position", who=with_colour(view, player), where=", ".join(where)))
    demon = view.get("demon")
    if demon:
        said.append(say(lang, f"board.demon_{_on(demon)}", place=names.get(demon, "?")))
    return said


def _standing(lang: str, player: dict[str, Any]) -> str:
    """Where an adventurer stands in the words of their panel on the board ("is on the Demon
    Castle moat, castle side"), a plain space's nearest named place after them."""
    at = player.get("at")
    return say(lang, f"board.is_{_on(at)}", place=place_names(lang).get(at, "?"))


def _on(space: Any) -> str:
    """ "on" a path, "at" any other place, as the board's panels say it."""
    words = _board()["names"]["standing"]
    kind = _plain().get(space, ("", ""))[0]
    return words.get(kind, words["default"])


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    lang = lang_of(view)
    said = []
    for player in players:
        kit = Counter(item_name(lang, i) for i in player.get("equip") or [])
        equipment = tuple(say(lang, "board.cards", count=n, item=item) if n > 1 else item
                          for item, n in sorted(kit.items())) or say(lang, "board.no_equipment")
        held = [say(lang, "board.holders", count=int(player.get("treasures") or 0))]
        if player.get("deep"):
            held.append(say(lang, "board.deep", count=int(player["deep"])))
        said.append(say(lang, "board.carries", who=name_of(view, player.get("seat")), equipment=equipment,
                        held=", ".join(held)))
    return said


def table(view: dict[str, Any]) -> list[str]:
    lang = lang_of(view)
    names = place_names(lang)
    fold = view.get("fold") or {}
    said = []
    if fold:
        said.append(say(lang, "board.panels_show", worlds=tuple(
            say(lang, f"board.in_{side}", world=say(lang, f"world.{side}.{face}"))
            for side, face in fold.items() if side in ("west", "east") and face in ("in", "out"))))
    waiting = tuple(names.get(loc, "?") for loc, held in (view.get("locations") or {}).items() if held)
    if waiting:
        said.append(say(lang, "board.waiting", places=waiting))
    said.append(say(lang, "board.lost", holders=say(lang, "board.holders", count=int(view.get("lost_treasures") or 0)),
                    count=len(view.get("lost_equipment") or [])))
    return said


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's panels used to show, as short lines for the table's text (a phone wraps
    text; it shrinks a picture): one line per adventurer (equipment, Treasure holders as a
    count, Deep Magic, what they are doing), then the Ring and the lost pile, and the Worlds on
    the side panels' backs."""
    lang = lang_of(view)
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    lost = Counter(item_name(lang, e.get("item")) for e in view.get("lost_equipment") or [] if isinstance(e, dict))
    kit = "".join(f", {item}" + (f"×{n}" if n > 1 else "") for item, n in sorted(lost.items()))
    return [*(player_line(view, p, view.get("monster"), view.get("fold_job")) for p in players),
            say(lang, "board.ring", deep=say(lang, "board.deep", count=int(view.get("deep_left") or 0)),
                holders=say(lang, "board.holders", count=int(view.get("lost_treasures") or 0)), kit=kit),
            panels(view)]


def panels(view: dict[str, Any]) -> str:
    """The World each side panel shows and the one on its back (it shows when the panel folds)."""
    lang = lang_of(view)
    fold, job = view.get("fold") or {}, view.get("fold_job") or {}
    said = []
    for side in ("west", "east"):
        face = fold.get(side) if fold.get(side) in ("in", "out") else "in"
        if job.get("panel") == side:
            to = job.get("to") if job.get("to") in ("in", "out") else "out"
            turning = say(lang, f"board.turning_{to}", world=say(lang, f"world.{side}.{to}"))
        else:
            turning = say(lang, "board.folds_to", world=say(lang, f"world.{side}.{'out' if face == 'in' else 'in'}"))
        said.append(say(lang, "board.panel_line", panel=say(lang, f"panel.{side}"),
                        world=say(lang, f"world.{side}.{face}"), turning=turning))
    return " · ".join(said)


def player_line(view: dict[str, Any], player: dict[str, Any], monster: dict[str, Any] | None,
                job: dict[str, Any] | None) -> str:
    """ "Ana (red): Axe, Net×2 · 1 Treasure holder · 1 Deep Magic card · fighting a Wyvern (strength 7)"."""
    lang = lang_of(view)
    kit = Counter(item_name(lang, i) for i in player.get("equip") or [])
    said = [", ".join(item + (f"×{n}" if n > 1 else "") for item, n in sorted(kit.items()))
            or say(lang, "board.no_equipment"),
            say(lang, "board.holders", count=int(player.get("treasures") or 0))]
    if player.get("deep"):
        said.append(say(lang, "board.deep", count=int(player["deep"])))
    now = status(lang, player, monster, job)
    if now:
        said.append(now)
    return f"{with_colour(view, player)}: {' · '.join(said)}"


def status(lang: str, player: dict[str, Any], monster: dict[str, Any] | None, job: dict[str, Any] | None) -> str:
    """What an adventurer is doing, in the words of the board's panel."""
    if player.get("revealed"):
        return say(lang, "board.carried", treasures=tuple(
            say(lang, f"treasure.{treasure_ids()[t]}") if t in treasure_ids() else str(t) for t in player["revealed"]))
    run = ((job or {}).get("runners") or {}).get(str(player.get("seat")))
    if run:
        return say(lang, "board.running", count=int(run.get("left") or 0))
    if monster and monster.get("seat") == player.get("seat"):
        return say(lang, "board.fighting", monster=say(lang, f"monster.{monster.get('id')}"),
                   strength=monster.get("strength"))
    task = player.get("task")
    if task:
        hazard, shown = doing(lang, task)
        label = say(lang, "hazard.doing", hazard=hazard, show=shown) if shown else hazard
        if task.get("miss"):
            return say(lang, "board.status_miss", status=label, count=int(task["miss"]))
        if task.get("length") and task.get("lane"):
            return f"{label} ({task.get('pos')}/{task.get('length')})"
        return label
    if player.get("spot"):
        return say(lang, "board.held_short")
    at = player.get("at")
    return say(lang, f"board.{_on(at)}", place=plain_name(lang, at)) if at else ""

"""Firetop Mountain's board in words: the round and who does what, where each adventurer stands
(rooms by name, corridor squares by the coordinates printed round the board), their adventure
sheets as the panels show them (counts of Treasure and Key cards, never which ones), a battle
going on, and the rooms explored.

Every sentence is in the view's language (`view["lang"]`, English by default): the catalogs'
`game.firetop.alt.*` (the describer) and `game.firetop.panel.*` (the panel's lines). The view
names rooms, monsters and shown treasure by their data's English names; they are read in the
view's language through their ids."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from babel.lists import format_list

from data import load_toml
from data.locales import DEFAULT, text

from . import acting, fit, name_of, sentence

STEPS = ("start", "move", "maze", "stop", "offer", "ask", "shop", "open", "battle", "task", "done")
DICE = ("move", "luck", "battle", "escape", "bridge", "passage")


def words(view: dict[str, Any], key: str, **params: Any) -> str:
    """Message `game.firetop.<key>` in the view's language."""
    return text(_lang(view), "game.firetop." + key, **params)


def _lang(view: dict[str, Any]) -> str:
    return str(view.get("lang") or DEFAULT)


def joined(view: dict[str, Any], items: Any) -> str:
    """Things listed as the view's language lists them: "A, B and C" / "A, B und C"."""
    items = [str(item) for item in items if item]
    return format_list(items, locale=_lang(view)) if items else ""


@lru_cache(maxsize=1)
def ids() -> dict[str, dict[str, str]]:
    """The English names the view carries -> their ids: rooms, encounters and treasure cards."""
    encounters = load_toml("firetop", "encounters.toml")
    treasures = load_toml("firetop", "treasures.toml")
    return {"room": {room["name"]: rid for rid, room in load_toml("firetop", "board.toml")["rooms"].items()},
            "encounter": {spec["name"]: eid for table in ("fixed", "cards")
                          for eid, spec in encounters[table].items()},
            "treasure": {card["name"]: cid for cid, card in treasures["cards"].items()}}


def named(view: dict[str, Any], kind: str, name: Any) -> str:
    """A room, encounter or treasure card the view names (in English) in the view's language."""
    ident = ids()[kind].get(str(name))
    return words(view, f"{kind}.{ident}") if ident is not None else str(name)


@lru_cache(maxsize=1)
def squares() -> dict[str, tuple[str, dict[str, str]]]:
    """The named squares that are not rooms, from the board's data: the Entrance, the Secret
    Passage entrances, the Maze spaces and the river crossings' banks (a message and its
    parameters)."""
    board = load_toml("firetop", "board.toml")
    names: dict[str, tuple[str, dict[str, str]]] = {"entrance": ("alt.at.entrance", {})}
    for passage in board["passage"]:
        for square in passage["entrances"]:
            names[square] = (f"alt.at.passage.{passage['colour']}", {"square": square})
    for square in board["maze"]["spaces"]:
        names[square] = ("alt.at.maze", {"square": square})
    for crossing in board["crossing"]:
        for bank in ("south", "north"):
            names[crossing[bank]] = (f"alt.at.bank.{bank}", {"crossing": crossing["id"], "square": crossing[bank]})
    return names


def place(view: dict[str, Any], node: Any) -> str:
    """ "in the Kennels", "at the Entrance", "in the corridor at K9"."""
    room = (view.get("rooms") or {}).get(node)
    if room:
        return words(view, "alt.in_room", room=named(view, "room", room["name"]))
    spot = squares().get(node)
    if spot is None:
        return words(view, "alt.in_corridor", square=str(node))
    key, params = spot
    if "crossing" in params:
        params = {**params, "crossing": words(view, f"crossing.{params['crossing']}")}
    return words(view, key, **params)


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view), *battle(view), *positions(view, players), *sheets(view, players), *rooms(view)])


def who(view: dict[str, Any], seat: Any) -> str:
    colour = next((p.get("colour") for p in view.get("players") or [] if p.get("seat") == seat), None)
    return words(view, "alt.who", name=name_of(view, seat), colour=words(view, f"colour.{colour}")) \
        if colour else name_of(view, seat)


def turn(view: dict[str, Any]) -> list[str]:
    heading = words(view, "alt.heading", round=int(view.get("round") or 1), limit=int(view.get("limit") or 0))
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = (words(view, "alt.won", who=name_of(view, winner)) if winner is not None
                  else words(view, "alt.woke"))
        return [heading, sentence(result)]
    if view.get("phase") == "create":
        rolling = joined(view, (who(view, p.get("seat")) for p in view.get("players") or [] if p.get("creating")))
        return [heading, acting(view, words(view, "alt.creating", who=rolling or words(view, "alt.everyone")))]
    current = view.get("current")
    if current is None:
        return [heading, acting(view, words(view, "alt.nobody"))]
    step = str(view.get("step"))
    if step == "move" and view.get("roll"):
        return [heading, acting(view, words(view, "alt.rolled", who=who(view, current), roll=int(view["roll"])))]
    key = f"alt.step.{step}" if step in STEPS else "alt.step.play"
    return [heading, acting(view, words(view, key, who=who(view, current)))]


def battle(view: dict[str, Any]) -> list[str]:
    fight = view.get("battle")
    if not fight:
        return []
    if fight.get("kind") == "monster":
        return [words(view, "alt.battle.monster", who=name_of(view, fight.get("seat")),
                      monster=named(view, "encounter", fight.get("name")), skill=int(fight.get("skill") or 0),
                      stamina=int(fight.get("stamina") or 0), stamina0=int(fight.get("stamina0") or 0))]
    return [words(view, "alt.battle.duel", who=name_of(view, fight.get("seat")), foe=name_of(view, fight.get("foe")))]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    """One sentence per place, in the order of the first adventurer there: "Ana (red) and Bo
    (blue) are in the Kennels." (Six adventurers often share a room.)"""
    places: dict[str, list[str]] = {}
    for player in players:
        where = place(view, player["pos"]) if player.get("pos") else words(view, "alt.off_board")
        places.setdefault(where, []).append(who(view, player.get("seat")))
    return [words(view, "alt.there", count=len(people), who=joined(view, people), where=where)
            for where, people in places.items()]


def sheets(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        def n(key: str) -> int:
            return int(player.get(key) or 0)
        extras = [named(view, "treasure", s) for s in player.get("shown") or []]
        if not player.get("lantern"):
            extras.append(words(view, "alt.no_lantern"))
        if n("miss"):
            extras.append(words(view, "alt.misses"))
        sheet = words(view, "alt.sheet", who=name_of(view, player.get("seat")), skill=n("skill"),
                      stamina=n("stamina"), stamina0=n("stamina0"), luck=n("luck"), luck0=n("luck0"),
                      gold=n("gold"), provisions=words(view, "alt.provisions", count=n("provisions")),
                      treasures=words(view, "alt.treasures", count=n("treasures")),
                      keycards=words(view, "alt.keycards", count=n("keycards")))
        said.append(sentence(words(view, "alt.with", sheet=sheet, extras=", ".join(extras)) if extras else sheet))
    return said


def rooms(view: dict[str, Any]) -> list[str]:
    explored = [named(view, "room", r["name"]) for r in (view.get("rooms") or {}).values() if r.get("visited")]
    said = [words(view, "alt.explored", rooms=joined(view, explored)) if explored else words(view, "alt.unexplored")]
    piles = view.get("piles") or []
    if piles:
        lying = [words(view, "alt.pile", count=int(p.get("count") or 0), where=place(view, p.get("node")))
                 for p in piles]
        said.append(words(view, "alt.piles", piles="; ".join(lying)))
    return said


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's adventurer sheets used to show, as short lines for the table's text (a
    phone wraps text; it shrinks a picture): one line per adventurer, the battle and the dice,
    then the board's legend."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return [*(sheet_line(view, p) for p in players), *battle(view), *fight_dice(view), *throws(view),
            words(view, "panel.legend")]


def fight_dice(view: dict[str, Any]) -> list[str]:
    """The battle's last round: "Last round: 6 and 5 = 21 against 1 and 2 = 10"."""
    last = (view.get("battle") or {}).get("last")
    if not isinstance(last, dict):
        return []
    mine, theirs = (joined(view, (str(int(f)) for f in last.get(k) or [])) for k in ("mine", "theirs"))
    return [words(view, "panel.last_round", mine=mine, total=int(last.get("my_total") or 0), theirs=theirs,
                  their_total=int(last.get("their_total") or 0))]


def throws(view: dict[str, Any]) -> list[str]:
    """The last dice thrown outside a battle, the latest tries at the chest, and its keys once
    the game is over."""
    said = []
    dice = view.get("dice")
    if not view.get("battle") and isinstance(dice, dict) and dice.get("faces"):
        what = str(dice.get("what"))
        said.append(words(view, f"panel.dice.{what if what in DICE else 'roll'}", who=name_of(view, dice.get("seat")),
                          faces=joined(view, (str(int(f)) for f in dice["faces"]))))
    tries = [words(view, "panel.try", who=name_of(view, a.get("seat")),
                   keys="-".join(str(int(k)) for k in a.get("keys") or []), wrong=int(a.get("wrong") or 0))
             for a in (view.get("attempts") or [])[-3:]]
    if tries:
        said.append(words(view, "panel.tries", tries=" · ".join(tries)))
    if view.get("phase") == "over" and view.get("chest"):
        said.append(words(view, "panel.chest", keys=", ".join(str(int(k)) for k in view["chest"])))
    return said


def sheet_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red): Skill 11 · Luck 10/11 · Stamina 22/22 · Gold 1 · Food 3 · Treasure 2 · Keys 2 · Fine Sword"."""
    def n(key: str, default: int = 0) -> int:
        return int(player.get(key) or default)
    said = [words(view, "panel.sheet", skill=n("skill"), luck=n("luck"), luck0=n("luck0"), stamina=n("stamina"),
                  stamina0=n("stamina0"), gold=n("gold"), food=n("provisions"), treasure=n("treasures"),
                  keys=n("keycards"))]
    if player.get("creating"):
        said.append(words(view, "panel.new"))
    if n("miss"):
        said.append(words(view, "panel.lost_turn"))
    if not player.get("lantern"):
        said.append(words(view, "panel.no_lantern"))
    if n("lives", 1) > 1:
        said.append(words(view, "panel.life", n=n("lives", 1)))
    said += [named(view, "treasure", s) for s in player.get("swords") or [] if s != "Sword"][:1]
    return f"{who(view, player.get('seat'))}: {' · '.join(said)}"

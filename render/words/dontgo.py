"""Don't Go In There's board in words: whose turn, whose meeples stand in which room, the cards
every player has taken (face up on the table) and, once the game is over, the scores. Ghost
tokens are never named until the end: a player's ghosts are theirs alone while the game runs."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from data import load_toml

from . import acting, count, fit, joined, name_of, sentence

TITLE = "Don't Go In There"
STEPS = {"place": "to place a meeple", "reroll": "to decide on a re-roll",
         "change": "to decide whether to change a die", "pick": "to pick a card",
         "choose": "to choose"}


@lru_cache(maxsize=1)
def card_labels() -> dict[str, str]:
    return {kind: spec["label"] for kind, spec in load_toml("dontgo", "dontgo.toml")["types"].items()}


def label(card: dict[str, Any]) -> str:
    kind = str(card.get("type"))
    return card_labels().get(kind, kind.capitalize())


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *scores(view), *rooms(view), *holdings(view, players)])


def who(view: dict[str, Any], seat: Any) -> str:
    colour = next((p.get("colour") for p in view.get("players") or [] if p.get("seat") == seat), None)
    return f"{name_of(view, seat)} ({colour})" if colour else name_of(view, seat)


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    heading = f"{TITLE}, turn {int(view.get('turn') or 0)}."
    if view.get("phase") == "over":
        winners = [name_of(view, s) for s in view.get("winners") or []]
        result = f"{joined(winners)} {'wins' if len(winners) == 1 else 'win'}." if winners else "Nobody won."
        return [heading, sentence(f"Game over: {result}")]
    current = view.get("current")
    if not isinstance(current, int):
        return [heading, acting(view, "Nobody is to play")]
    return [heading, acting(view, f"{who(view, current)} {STEPS.get(str(view.get('phase')), 'to play')}")]


def rooms(view: dict[str, Any]) -> list[str]:
    said = []
    dice = view.get("dice") or {}
    for room in view.get("rooms") or []:
        name = str(room.get("name"))
        if room.get("removed"):
            said.append(f"The {name} is closed.")
            continue
        meeples = Counter(name_of(view, s["meeple"]) for s in room.get("spaces") or [] if s.get("meeple") is not None)
        inside = f"meeples of {joined(n if k == 1 else f'{n} ({k})' for n, k in meeples.items())}" \
            if meeples else "no meeples"
        cards = room.get("cards") or []
        shown = [f"{label(c)} {int(c.get('curse') or 0)}" for c in cards if not c.get("hidden")]
        face_down = sum(1 for c in cards if c.get("hidden"))
        on_offer = f"cards (curses): {', '.join(shown)}" if shown else "no cards face up"
        hidden = f", and {count(face_down, 'card')} face down" if face_down else ""
        said.append(f"{name}: {inside}; {on_offer}{hidden}.")
        if dice.get("slot") == room.get("slot") and dice.get("faces"):
            faces = joined(str(int(f)) for f in dice["faces"])
            said.append(f"The ghost dice in the {name} show {faces}.")
    return said


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        cards = player.get("cards") or []
        kinds = Counter(("dispelled " if c.get("dispelled") else "") + label(c) for c in cards)
        taken = joined(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda k: (k[0].startswith("d"), k[0])))
        held = f"{count(len(cards), 'card')} with {count(player.get('curses'), 'curse')} showing: {taken}" \
            if cards else "no cards"
        said.append(f"{who(view, player.get('seat'))}: {count(player.get('meeples'), 'meeple')} left; {held}.")
    said.append(f"{count(view.get('deck'), 'card')} left in the deck.")
    return said


def scores(view: dict[str, Any]) -> list[str]:
    rows = view.get("scores") or []
    if not rows:
        return []
    told = [f"{name_of(view, r.get('seat'))} {int(r.get('total') or 0)} ({count(r.get('curses'), 'curse')}, "
            f"{count(r.get('ghosts'), 'ghost')})" for r in rows]
    return [f"Final scores, lowest best: {joined(told)}."]


SIDES = ("A", "B")
LEGEND = ("On a card: the purple hand is its curse value, each small die a ghost die it adds, a gold "
          "number the amulet's. On a space: how many flashlights shine there.")


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's player rows used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (meeples left, curses showing, the
    cards taken), the rooms' cards by name, the dice, the deck, and the legend of the cards."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return [*(player_line(view, p) for p in players), *room_lines(view),
            f"Deck: {count(view.get('deck'), 'card')}", LEGEND]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red): 2 meeples left · 7 curses · Amulet 3 1; Doll 2, dispelled 4" (each kind's
    curse values, as the cards lie in front of the player)."""
    kinds: dict[str, tuple[list[str], list[str]]] = {}
    for card in player.get("cards") or []:
        live, gone = kinds.setdefault(label(card), ([], []))
        (gone if card.get("dispelled") else live).append(str(int(card.get("curse") or 0)))
    taken = "; ".join(" ".join([kind, *live]) + (f"{',' if live else ''} dispelled {' '.join(gone)}" if gone else "")
                      for kind, (live, gone) in kinds.items()) or "no cards"
    return (f"{who(view, player.get('seat'))}: {count(player.get('meeples'), 'meeple')} left · "
            f"{count(player.get('curses'), 'curse')} · {taken}")


def room_lines(view: dict[str, Any]) -> list[str]:
    """ "Library (side B): Mirror 2, Amulet 3 (amulet 1), a card face down · dice 1 and 0, re-rolled"."""
    said = []
    dice = view.get("dice") or {}
    for room in sorted(view.get("rooms") or [], key=lambda r: r.get("slot", 0)):
        name = str(room.get("name"))
        if room.get("removed"):
            said.append(f"{name}: closed")
            continue
        side = room.get("side")
        head = f"{name} (side {SIDES[side]})" if side in (0, 1) else name
        cards = []
        for card in room.get("cards") or []:
            if card.get("hidden"):
                cards.append("a card face down")
                continue
            amulet = f" (amulet {card['amulet']})" if isinstance(card.get("amulet"), int) else ""
            cards.append(f"{label(card)} {int(card.get('curse') or 0)}{amulet}")
        line = f"{head}: {', '.join(cards) or 'no cards'}"
        if dice.get("slot") == room.get("slot") and dice.get("faces"):
            flags = [word for flag, word in (("rerolled", "re-rolled"), ("changed", "changed")) if dice.get(flag)]
            line += f" · dice {joined(str(int(f)) for f in dice['faces'])}" + "".join(f", {w}" for w in flags)
        said.append(line)
    return said

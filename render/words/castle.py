"""Keys to the Castle's board in words: whose turn, where each piece stands (doors by the
coordinates printed on the board, as players type them), hand sizes, then the doors and piles."""
from __future__ import annotations

from typing import Any

from . import acting, count, fit, joined, name_of, sentence, with_colour

TITLE = "Keys to the Castle"
STEPS = {"play": "to play a card", "move": "to move", "bonus": "to take a bonus"}
SIDES = {"N": "north", "S": "south", "W": "west", "E": "east"}
FACES = {"barred": "barred", "extra_key": "extra key", "extra_turn": "extra turn"}


def card_name(card: str) -> str:
    """A card as the board labels it: "key-red" is the "Red key", "passage" the "Secret passage"."""
    if card.startswith("key-"):
        return f"{card[4:].capitalize()} key"
    return {"skeleton": "Skeleton key", "passage": "Secret passage"}.get(card, card.capitalize())


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *positions(view, players), hands(view, players),
                *doors(view), piles(view)])


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    heading = f"{TITLE}, turn {int(view.get('turn') or 0)}."
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = f"{name_of(view, winner)} wins." if winner is not None else "Nobody won."
        return [heading, sentence(f"Game over: {result}")]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    if current is None:
        return [heading, acting(view, "Nobody is to play")]
    step = STEPS.get(str(view.get("phase")), "to play")
    return [heading, acting(view, f"{with_colour(view, current)} {step}")]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        side = SIDES.get(str(player.get("side")), "their")
        where = (f"is at {player['pos']}, from the {side} edge" if player.get("pos")
                 else f"waits outside the {side} edge")
        netted = int(player.get("netted") or 0)
        caught = f", caught in a net for {count(netted, 'more turn')}" if netted > 0 else ""
        said.append(f"{with_colour(view, player)} {where}{caught}.")
    return said


def hands(view: dict[str, Any], players: list[dict[str, Any]]) -> str:
    sizes = [f"{name_of(view, p.get('seat'))} {count(p.get('hand_size'), 'card')}" for p in players]
    return f"Cards in hand: {joined(sizes)}."


def doors(view: dict[str, Any]) -> list[str]:
    tiles = view.get("tiles") or []
    opened = [t for t in tiles if t.get("open")]
    said = [f"{len(opened)} of {len(tiles)} doors are open."]
    shown = [f"{t['coord']} {FACES[t['face']]}" for t in opened if t.get("face") in FACES]
    if shown:
        said.append(f"Open doors showing a face: {joined(shown)}.")
    for key, what in (("padlock", "Padlocks"), ("hacksaw", "Hacksaws")):
        marked = [str(t["coord"]) for t in tiles if t.get(key)]
        if marked:
            said.append(f"{what} on {joined(marked)}.")
    passages = [f"{a} and {b}" for a, b in view.get("passages") or []]
    if passages:
        said.append(f"Secret passages join {'; '.join(passages)}.")
    return said


def piles(view: dict[str, Any]) -> str:
    top = view.get("discard_top")
    discard = f"{count(view.get('discard_count'), 'card')}, {card_name(top)} on top" if top else "empty"
    return f"Draw pile: {count(view.get('draw_pile'), 'card')}. Discard pile: {discard}."


LEGEND = ("On the tiles: padlock · hacksaw · net (with the netter's number) · purple line: secret passage · "
          "bars: barred · gold key: extra key · green arrow: extra turn · blue frame: the last move.")


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's side panel used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (colour and side, cards in hand,
    where, bonuses used, nets), then the piles, and the legend of the tiles."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    top = view.get("discard_top")
    discard = f"{card_name(top)} on top of {count(view.get('discard_count'), 'card')}" if top else "empty"
    return [*(player_line(view, p) for p in players),
            f"Draw pile: {count(view.get('draw_pile'), 'card')} · Discard pile: {discard}", LEGEND]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red, south side): 3 cards · at D3 · bonus used on A1 · netted for 1 more turn"."""
    side = SIDES.get(str(player.get("side")), "their")
    said = [count(player.get("hand_size"), "card"), f"at {player['pos']}" if player.get("pos") else "outside"]
    used = player.get("bonuses_used") or []
    if used:
        said.append(f"bonus used on {joined(used)}")
    netted = int(player.get("netted") or 0)
    if netted > 0:
        said.append(f"netted for {count(netted, 'more turn')}")
    return f"{name_of(view, player.get('seat'))} ({player.get('colour')}, {side} side): {' · '.join(said)}"

"""Keys to the Castle's board in words: whose turn, where each piece stands (doors by the
coordinates printed on the board, as players type them), hand sizes, then the doors and piles.

In the view's language (`view["lang"]`, the channel's), from the game's catalogs."""
from __future__ import annotations

from typing import Any

from data.locales import DEFAULT, render, text

from . import acting, fit, name_of, sentence

TITLE = "Keys to the Castle"
STEPS = ("play", "move", "bonus")
FACES = ("barred", "extra_key", "extra_turn")


def say(view: dict[str, Any], id: str, /, **params: Any) -> str:
    """Castle's message `id` in the view's language."""
    return text(view.get("lang") or DEFAULT, f"game.castle.{id}", **params)


def listed(view: dict[str, Any], items: list[str]) -> str:
    """ "A", "A and B", "A, B and C" as the view's language lists them."""
    return render(view.get("lang") or DEFAULT, tuple(items))


def card_name(view: dict[str, Any], card: str) -> str:
    """A card as the game names it: "key-red" is the "Red Key"."""
    return say(view, f"card.{card}")


def colour_of(view: dict[str, Any], player: dict[str, Any]) -> str:
    return say(view, f"colour.{player.get('colour')}")


def with_colour(view: dict[str, Any], player: dict[str, Any]) -> str:
    """A player as the words name them: "Ana (red)"."""
    return say(view, "words.with_colour", name=name_of(view, player.get("seat")),
               colour=colour_of(view, player))


def side_of(view: dict[str, Any], player: dict[str, Any]) -> str:
    return say(view, f"words.side.{player.get('side')}")


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view, players), *positions(view, players), hands(view, players),
                *doors(view), piles(view)])


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    heading = say(view, "words.heading", title=TITLE, turn=int(view.get("turn") or 0))
    if view.get("phase") == "over":
        winner = view.get("winner")
        result = say(view, "words.over.won", name=name_of(view, winner)) if winner is not None \
            else say(view, "words.over.nobody")
        return [heading, sentence(result)]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    if current is None:
        return [heading, acting(view, say(view, "words.nobody_to_play"))]
    step = view.get("phase") if view.get("phase") in STEPS else "other"
    return [heading, acting(view, say(view, f"words.to.{step}", who=with_colour(view, current)))]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        who, side = with_colour(view, player), side_of(view, player)
        netted = int(player.get("netted") or 0)
        if not player.get("pos"):
            said.append(say(view, "words.outside", player=who, side=side))
        elif netted > 0:
            said.append(say(view, "words.at_netted", player=who, tile=player["pos"], side=side, count=netted))
        else:
            said.append(say(view, "words.at", player=who, tile=player["pos"], side=side))
    return said


def hands(view: dict[str, Any], players: list[dict[str, Any]]) -> str:
    sizes = [say(view, "words.hand", name=name_of(view, p.get("seat")), count=int(p.get("hand_size") or 0))
             for p in players]
    return say(view, "words.hands", hands=listed(view, sizes))


def doors(view: dict[str, Any]) -> list[str]:
    tiles = view.get("tiles") or []
    opened = [t for t in tiles if t.get("open")]
    said = [say(view, "words.doors_open", open=len(opened), count=len(tiles))]
    shown = [say(view, "words.face", tile=t["coord"], face=say(view, f"words.face.{t['face']}"))
             for t in opened if t.get("face") in FACES]
    if shown:
        said.append(say(view, "words.faces", faces=listed(view, shown)))
    for key in ("padlock", "hacksaw"):
        marked = [str(t["coord"]) for t in tiles if t.get(key)]
        if marked:
            said.append(say(view, f"words.{key}s", tiles=listed(view, marked)))
    passages = [say(view, "words.pair", a=a, b=b) for a, b in view.get("passages") or []]
    if passages:
        said.append(say(view, "words.passages", pairs="; ".join(passages)))
    return said


def cards(view: dict[str, Any], number: Any) -> str:
    return say(view, "words.cards", count=int(number or 0))


def piles(view: dict[str, Any]) -> str:
    top = view.get("discard_top")
    discard = say(view, "words.discard_top", cards=cards(view, view.get("discard_count")),
                  card=card_name(view, top)) if top else say(view, "words.empty")
    return say(view, "words.piles", draw=cards(view, view.get("draw_pile")), discard=discard)


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's side panel used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (colour and side, cards in hand,
    where, bonuses used, nets), then the piles, and the legend of the tiles."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    top = view.get("discard_top")
    discard = say(view, "words.panel.discard_top", card=card_name(view, top),
                  cards=cards(view, view.get("discard_count"))) if top else say(view, "words.empty")
    return [*(player_line(view, p) for p in players),
            say(view, "words.panel.piles", draw=cards(view, view.get("draw_pile")), discard=discard),
            say(view, "words.legend")]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red, south side): 3 cards · at D3 · bonus used on A1 · netted for 1 more turn"."""
    said = [cards(view, player.get("hand_size")),
            say(view, "words.fact.at", tile=player["pos"]) if player.get("pos") else say(view, "words.fact.outside")]
    used = player.get("bonuses_used") or []
    if used:
        said.append(say(view, "words.fact.bonus", tiles=listed(view, list(used))))
    netted = int(player.get("netted") or 0)
    if netted > 0:
        said.append(say(view, "words.fact.netted", count=netted))
    return say(view, "words.player", name=name_of(view, player.get("seat")), colour=colour_of(view, player),
               side=side_of(view, player), facts=" · ".join(said))

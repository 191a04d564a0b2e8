"""Don't Go In There's board in words: whose turn, whose meeples stand in which room, the cards
every player has taken (face up on the table) and, once the game is over, the scores. Ghost
tokens are never named until the end: a player's ghosts are theirs alone while the game runs.

Every word is the view's language (`view["lang"]`, English when it has none), from the game's
catalogs (data/dontgo/locales): the view names rooms and card types as the data file labels
them, and these read them back as ids."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from data import load_toml
from data.locales import DEFAULT, Msg, render, text

from . import acting, fit, name_of, sentence

TITLE = "Don't Go In There"
STEPS = ("place", "reroll", "change", "pick", "choose")  # the phases with words of their own
SIDES = ("A", "B")


def say(view: dict[str, Any], id: str, /, **params: Any) -> str:
    """The game's message `id` (without the game's prefix) in the view's language."""
    return text(lang_of(view), f"game.dontgo.{id}", **params)


def lang_of(view: dict[str, Any]) -> str:
    return str(view.get("lang") or DEFAULT)


def counted(noun: str, number: Any) -> Msg:
    """ "1 card", "3 cards" in the reader's language."""
    return Msg(f"game.dontgo.n.{noun}", count=int(number or 0))


def listed(view: dict[str, Any], items: list[Any]) -> str:
    """Items as the view's language lists them ("a, b and c")."""
    return str(render(lang_of(view), tuple(items))) if items else ""


@lru_cache(maxsize=1)
def ids_by_label() -> dict[str, str]:
    """Card types' and rooms' ids by the label views carry ("Music Box" -> "type.musicbox")."""
    data = load_toml("dontgo", "dontgo.toml")
    return {**{spec["label"]: f"type.{kind}" for kind, spec in data["types"].items()},
            **{spec["label"]: f"room.{room}" for room, spec in data["rooms"].items()}}


def room_word(view: dict[str, Any], name: str) -> str:
    """A room's name (as the view labels it) in the view's language."""
    found = ids_by_label().get(name)
    return say(view, found) if found else name


def label(view: dict[str, Any], card: dict[str, Any]) -> str:
    """A card's type in the view's language."""
    kind = str(card.get("type"))
    return say(view, f"type.{kind}") if f"type.{kind}" in ids_by_label().values() else kind.capitalize()


def describe(view: dict[str, Any]) -> str:
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return fit([*turn(view), *scores(view), *rooms(view), *holdings(view, players)])


def who(view: dict[str, Any], seat: Any) -> str:
    colour = next((p.get("colour") for p in view.get("players") or [] if p.get("seat") == seat), None)
    return f"{name_of(view, seat)} ({say(view, f'colour.{colour}')})" if colour else name_of(view, seat)


def turn(view: dict[str, Any]) -> list[str]:
    heading = say(view, "alt.heading", title=TITLE, turn=int(view.get("turn") or 0))
    if view.get("phase") == "over":
        winners = [name_of(view, s) for s in view.get("winners") or []]
        result = say(view, "alt.won", count=len(winners), names=listed(view, winners)) if winners \
            else say(view, "alt.nobody_won")
        return [heading, sentence(result)]
    current = view.get("current")
    if not isinstance(current, int):
        return [heading, acting(view, say(view, "alt.nobody_to_play"))]
    phase = str(view.get("phase"))
    step = f"alt.step.{phase}" if phase in STEPS else "alt.step.other"
    return [heading, acting(view, say(view, step, who=who(view, current)))]


def rooms(view: dict[str, Any]) -> list[str]:
    said = []
    dice = view.get("dice") or {}
    for room in view.get("rooms") or []:
        name = room_word(view, str(room.get("name")))
        if room.get("removed"):
            said.append(say(view, "alt.closed", room=name))
            continue
        meeples = Counter(name_of(view, s["meeple"]) for s in room.get("spaces") or [] if s.get("meeple") is not None)
        inside = say(view, "alt.meeples", names=listed(view, [n if k == 1 else f"{n} ({k})"
                                                              for n, k in meeples.items()])) \
            if meeples else say(view, "alt.no_meeples")
        cards = room.get("cards") or []
        shown = [f"{label(view, c)} {int(c.get('curse') or 0)}" for c in cards if not c.get("hidden")]
        face_down = sum(1 for c in cards if c.get("hidden"))
        offer = say(view, "alt.offer", cards=", ".join(shown)) if shown else say(view, "alt.no_offer")
        said.append(say(view, "alt.room_hidden", room=name, inside=inside, offer=offer,
                        hidden=counted("card", face_down)) if face_down
                    else say(view, "alt.room", room=name, inside=inside, offer=offer))
        if dice.get("slot") == room.get("slot") and dice.get("faces"):
            said.append(say(view, "alt.dice", room=name, faces=listed(view, [str(int(f)) for f in dice["faces"]])))
    return said


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    said = []
    for player in players:
        cards = player.get("cards") or []
        kinds = Counter((bool(c.get("dispelled")), label(view, c)) for c in cards)
        taken = listed(view, [say(view, "alt.kind_dispelled" if down else "alt.kind", count=n, type=kind)
                              for (down, kind), n in sorted(kinds.items())])
        held = say(view, "alt.held", cards=counted("card", len(cards)), curses=counted("curse", player.get("curses")),
                   taken=taken) if cards else say(view, "alt.no_cards")
        said.append(say(view, "alt.player", who=who(view, player.get("seat")),
                        meeples=counted("meeple", player.get("meeples")), held=held))
    said.append(say(view, "alt.deck", cards=counted("card", view.get("deck"))))
    return said


def scores(view: dict[str, Any]) -> list[str]:
    rows = view.get("scores") or []
    if not rows:
        return []
    told = [say(view, "alt.score", who=name_of(view, r.get("seat")), total=int(r.get("total") or 0),
                curses=counted("curse", r.get("curses")), ghosts=counted("ghost", r.get("ghosts"))) for r in rows]
    return [say(view, "alt.scores", scores=listed(view, told))]


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's player rows used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (meeples left, curses showing, the
    cards taken), the rooms' cards by name, the dice, the deck, and the legend of the cards."""
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    return [*(player_line(view, p) for p in players), *room_lines(view),
            say(view, "panel.deck", cards=counted("card", view.get("deck"))), say(view, "panel.legend")]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> str:
    """ "Ana (red): 2 meeples left · 7 curses · Amulet 3 1; Doll 2, dispelled 4" (each kind's
    curse values, as the cards lie in front of the player)."""
    kinds: dict[str, tuple[list[str], list[str]]] = {}
    for card in player.get("cards") or []:
        live, gone = kinds.setdefault(label(view, card), ([], []))
        (gone if card.get("dispelled") else live).append(str(int(card.get("curse") or 0)))
    taken = "; ".join(" ".join([kind, *live]) + (("," if live else "") + " " + say(
        view, "panel.dispelled", values=" ".join(gone)) if gone else "")
                      for kind, (live, gone) in kinds.items()) or say(view, "panel.no_cards")
    return say(view, "panel.player", who=who(view, player.get("seat")),
               meeples=counted("meeple", player.get("meeples")), curses=counted("curse", player.get("curses")),
               taken=taken)


def room_lines(view: dict[str, Any]) -> list[str]:
    """ "Library (side B): Mirror 2, Amulet 3 (amulet 1), a card face down · dice 1 and 0, re-rolled"."""
    said = []
    dice = view.get("dice") or {}
    for room in sorted(view.get("rooms") or [], key=lambda r: r.get("slot", 0)):
        name = room_word(view, str(room.get("name")))
        if room.get("removed"):
            said.append(say(view, "panel.closed", room=name))
            continue
        side = room.get("side")
        head = say(view, "panel.side", room=name, side=SIDES[side]) if side in (0, 1) else name
        cards = []
        for card in room.get("cards") or []:
            if card.get("hidden"):
                cards.append(say(view, "panel.face_down"))
                continue
            amulet = say(view, "panel.amulet", value=card["amulet"]) if isinstance(card.get("amulet"), int) else ""
            cards.append(f"{label(view, card)} {int(card.get('curse') or 0)}{amulet}")
        line = f"{head}: {', '.join(cards) or say(view, 'panel.no_cards')}"
        if dice.get("slot") == room.get("slot") and dice.get("faces"):
            flags = [say(view, f"panel.{flag}") for flag in ("rerolled", "changed") if dice.get(flag)]
            line += " · " + say(view, "panel.dice", faces=listed(view, [str(int(f)) for f in dice["faces"]])) \
                + "".join(f", {w}" for w in flags)
        said.append(line)
    return said

"""Atmosfear's board in words: who plays, where each Harbinger stands (stones named by their
kind and realm, as the board shows them), the keys each holds (a count: which keys are in a
rack is the player's secret), then the realms' keys, the black key and the Well. And the
Gatekeeper's picture in a sentence, for the messages he speaks in. In the view's language
(`view["lang"]`): every sentence is a message of the game's catalogs, `game.atmosfear.words.*`."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from data import load_toml
from data.locales import DEFAULT, Msg, render

from . import acting, fit, name_of

TITLE = "Atmosfear: The Harbingers"  # the same in every edition (glossary)


def words(key: str, /, **params: Any) -> Msg:
    """One of this module's messages, `game.atmosfear.words.<key>`."""
    return Msg("game.atmosfear.words." + key, **params)


def colour_word(colour: Any) -> Msg | str:
    """A colour as the catalogs name it (the seat colours), or as the view gives it."""
    return Msg(f"game.atmosfear.colour.{colour}") if colour in COLOURS else str(colour or "?")


@lru_cache(maxsize=1)
def board_data() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The Inner Ring's stone next to the Well, where each realm's path comes in, and the seat
    colours (data: board.gate, board.ends in realm order, the Harbingers' colours)."""
    data = load_toml("atmosfear", "board.toml")
    board = data["board"]
    return str(board["gate"]), tuple(board["ends"]), tuple(h["colour"] for h in data["harbinger"])


COLOURS = frozenset(board_data()[2])


def realm_words(key: str, colour: Any) -> Msg | str:
    """"in the red realm" / "from the red realm" (`key` in / from), as each language says it."""
    return words(f"{key}_realm.{colour}") if colour in COLOURS else str(colour or "?")


def place_names(view: dict[str, Any]) -> dict[str, Msg]:
    """Every stone of the view's board by a name a player can find on the picture: "the purple
    headstone", "the second key stone in the purple realm", "the path in from the red realm"."""
    board = view.get("board") or {}
    colour = {r.get("index"): r.get("colour") for r in view.get("realms") or []}
    names: dict[str, Msg] = {}
    outer = board.get("outer") or []
    for stone in outer:
        realm, kind = stone.get("realm"), str(stone.get("kind"))
        realm_colour = colour.get(realm) or stone.get("colour")
        if kind == "headstone":
            names[stone["id"]] = words(f"headstone.{realm_colour}")
            continue
        alike = [s["id"] for s in outer if s.get("realm") == realm and s.get("kind") == kind]
        where = realm_words("in", realm_colour)
        n = alike.index(stone["id"]) + 1
        names[stone["id"]] = words(f"stone.{kind}.nth", nth=words(f"nth.{n}") if n <= 6 else str(n), realm=where) \
            if len(alike) > 1 else words(f"stone.{kind}", realm=where)
    for realm, path in enumerate(board.get("radials") or []):
        for step, stone in enumerate(path):
            names[stone] = words("radial", n=step + 1, realm=realm_words("from", colour.get(realm)))
    gate, ends, _ = board_data()
    for stone in board.get("inner") or []:
        if stone in ends:
            names[stone] = words("inner.end", realm=realm_words("from", colour.get(ends.index(stone))))
        else:
            names[stone] = words("inner.gate" if stone == gate else "inner")
    if board.get("well"):
        names[board["well"]] = words("well")
    return names


def describe(view: dict[str, Any]) -> str:
    lang = view.get("lang") or DEFAULT
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    said = [*turn(view, players), *positions(view, players), *holdings(view, players), *table(view)]
    return fit([render(lang, line) if isinstance(line, Msg) else line for line in said])


def who(view: dict[str, Any], player: dict[str, Any]) -> Msg:
    return words("who", name=name_of(view, player.get("seat")), colour=colour_word(player.get("colour")),
                 harbinger=str(player.get("harbinger")))


def turn(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Msg | str]:
    lang = view.get("lang") or DEFAULT
    minutes = (view.get("clock") or {}).get("minutes")
    number = int(view.get("turn") or 0)
    heading = words("heading.clock", title=TITLE, minutes=minutes, turn=number) if minutes \
        else words("heading", title=TITLE, turn=number)
    phase = view.get("phase")
    if view.get("gatekeeper_won"):
        return [heading, words("over.gatekeeper")]
    if phase == "over" or view.get("winner") is not None:
        winner = view.get("winner")
        return [heading, words("over.winner", name=name_of(view, winner)) if winner is not None
                else words("over")]
    if phase == "fears":
        writers = tuple(name_of(view, p.get("seat")) for p in players)
        return [heading, acting(view, render(lang, words("writing", writers=writers)))]
    current = next((p for p in players if p.get("seat") == view.get("current")), None)
    moment = {"gatekeeper": ".gatekeeper", "paused": ".paused"}.get(phase, "")
    now = words("to_play" + moment, name=name_of(view, current.get("seat")),
                colour=colour_word(current.get("colour"))) if current else words("nobody" + moment)
    return [heading, acting(view, render(lang, now))]


def positions(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Msg]:
    names = place_names(view)
    holes = {s.get("id") for s in (view.get("board") or {}).get("outer") or [] if s.get("kind") == "black_hole"}
    said = []
    for player in players:
        pos = player.get("pos")
        place = names.get(pos, words("the_board"))
        where = words("on", place=place) if pos else words("off_board")
        if player.get("in_black_hole"):
            where = words("stuck_in", place=place) if pos in holes else words("stuck", place=place)
        said.append(words("position", who=who(view, player), states=(where, *conditions(player, True))))
    return said


def holdings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Msg]:
    held = tuple(words("held.black" if p.get("black_key") else "held", name=name_of(view, p.get("seat")),
                       count=int(p.get("keys") or 0)) for p in players)
    return [words("keys_held", held=held)]


def realms_left(view: dict[str, Any]) -> tuple[Msg, ...]:
    return tuple(words("left", colour=colour_word(r.get("colour")), n=int(r.get("keys_left") or 0))
                 for r in view.get("realms") or [])


def table(view: dict[str, Any]) -> list[Msg]:
    said = []
    left = realms_left(view)
    if left:
        said.append(words("realms_left", left=", ".join(render(view.get("lang") or DEFAULT, x) for x in left)))
    black = view.get("black_key") or {}
    if black.get("holder") is None:
        said.append(words("black_key.on_stone" if black.get("on_board", True) else "black_key.gone"))
    dice = view.get("dice")
    if dice:
        said.append(words("dice", dice=tuple(str(int(d)) for d in dice)))
    read = len(view.get("fears_read") or [])
    said.append(words("fears", n=int(view.get("fears_in_well") or 0), read=read))
    return said


def describe_gatekeeper(line: str, name: str | None = None, lang: str = DEFAULT) -> str:
    """The Gatekeeper's picture (`render.atmosfear.render_gatekeeper`) in words, in `lang`: who
    he is, whom he calls if anyone, and his line, as the picture prints it."""
    text = " ".join(str(line or "").split()) or "..."
    said = words("gatekeeper.calling", name=name, line=text) if name else words("gatekeeper", line=text)
    return fit([render(lang, said)])


def panel(view: dict[str, Any]) -> list[str]:
    """What the board's side panel used to show, as short lines for the table's text (a phone
    wraps text; it shrinks a picture): one line per player (colour, Harbinger, keys held as a
    count, what holds them back), then the realms' keys, the dice, the Well and the black key,
    and the legend of the stones."""
    lang = view.get("lang") or DEFAULT
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    lines = [render(lang, player_line(view, p)) for p in players]
    facts = []
    left = realms_left(view)
    if left:
        facts.append(words("panel.left", left=", ".join(render(lang, x) for x in left)))
    dice = view.get("dice")
    if dice:
        facts.append(words("panel.dice", dice=tuple(str(int(d)) for d in dice)))
    facts.append(words("panel.well", count=int(view.get("fears_in_well") or 0),
                       read=len(view.get("fears_read") or [])))
    black = view.get("black_key") or {}
    if black.get("holder") is None:
        facts.append(words("panel.black_key.on_stone" if black.get("on_board", True) else "panel.black_key.gone"))
    return [*lines, " · ".join(render(lang, fact) for fact in facts), render(lang, words("legend"))]


def player_line(view: dict[str, Any], player: dict[str, Any]) -> Msg:
    """ "Ana (red, Khufu): 2 keys and the black key · must roll 6"."""
    held = words("panel.held.black" if player.get("black_key") else "panel.held", count=int(player.get("keys") or 0))
    states = [held, *([words("panel.in_hole")] if player.get("in_black_hole") else []), *conditions(player, False)]
    lang = view.get("lang") or DEFAULT
    return words("panel.player", who=who(view, player), states=" · ".join(render(lang, s) for s in states))


def conditions(player: dict[str, Any], in_sentence: bool) -> list[Msg]:
    """What holds a player back or marks them out, the same words in the alt text and the
    panel ("is the Chosen One" in a sentence, "the Chosen One" in the panel)."""
    states = []
    if player.get("must_roll") is not None:
        states.append(words("must_roll", number=player["must_roll"]))
    if player.get("waiting_at_well"):
        states.append(words("waits"))
    if player.get("chosen_one"):
        states.append(words("chosen.sentence" if in_sentence else "chosen"))
    return states

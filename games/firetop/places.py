"""Places as players read them, told apart by what is near them, as message ids.

A die often reaches several corridor squares at once, and "Corridor south of the river" three
times over tells a player nothing but the letters. So a corridor square (or a Secret Passage
door) is named by the room (or the Entrance) nearest to it on foot, and, where two choices would
still read alike, by its direction from the adventurer and then by how many steps from it; a
river crossing's bank and a Maze gate by what they are, a Maze space by its direction.

Every name is a `Msg` (`game.firetop.…`): the reader's language words it. `where` names a
space inside a sentence ("moves to {place}"), `place_words` as a choice's label.
"""
from __future__ import annotations

from functools import cache, lru_cache

from data.locales import Msg

from .board import BOARD, steps_from, xy

PRECISIONS = 4  # the ways `corridor_words` can name a square, the shortest first


def words(key: str, **params: object) -> Msg:
    """A message of this game's catalogs: `game.firetop.<key>`."""
    return Msg("game.firetop." + key, **params)


ROOMS = {rid: words(f"room.{rid}") for rid in BOARD.rooms}
ENTRANCE = words("place.entrance")
ENTRANCE_LABEL = words("label.entrance")
MAZE_SPACE = words("place.maze")
MAZE_LABEL = words("label.maze")
CROSSINGS = {cid: words(f"crossing.{cid}") for cid in BOARD.crossings}


@cache
def landmark(node: str) -> tuple[str, int]:
    """The room (or the Entrance) nearest to corridor square `node` on foot, and its steps away;
    of two as near, the first by id, so a square is always named alike."""
    dist = steps_from(node)
    steps, place = min((steps, place) for place, steps in dist.items()
                       if place in BOARD.rooms or place == "entrance")
    return place, steps


def _name(place: str) -> Msg:
    return ENTRANCE_LABEL if place == "entrance" else ROOMS[place]


ARROWS = {"north": "↑", "south": "↓", "east": "→", "west": "←", "north-east": "↗", "north-west": "↖",
          "south-east": "↘", "south-west": "↙", "here": "·"}


@lru_cache(maxsize=1 << 16)  # asked for every choice of every move: the same few squares
def corridor_words(node: str, precision: int, start: str, kind: str = "") -> Msg:
    """A square by its landmark, in words as precise as asked: 0 "Near Armoury" ("By Armoury"
    beside its door); 1 the same after an arrow from `start`, where the adventurer stands, to
    the square, by its main direction ("↑ near Armoury"); 2 by its exact direction ("↖ near
    Armoury"); 3 with its steps from the landmark too ("↖ 3 steps from Armoury"). `kind` names
    a square that is not a corridor: "exit" or a Secret Passage's colour ("blue door")."""
    place, steps = landmark(node)
    how = "by" if steps == 1 else "steps" if precision == 3 else "near"
    key = f"near.{how}" + (f".{kind}" if kind else "") + ("" if precision == 0 else ".arrow")
    arrow = "" if precision == 0 else ARROWS[direction(start, node, main=precision == 1)]
    return words(key, place=_name(place), count=steps, arrow=arrow)


def place_words(nodes: list[str], start: str, exits: bool = False) -> dict[str, Msg]:
    """Each of `nodes` (one choice's places, reached from `start`) in words that tell them apart
    where the board's own words would not: a corridor square or a Secret Passage door by its
    landmark, only as precisely as it takes. `exits`: the doors a passage leads out at."""
    said_of = {node: own_names().get(node) or label(node) for node in nodes}
    squares = [n for n in nodes if (n in BOARD.corridors or n in BOARD.passages) and n not in own_names()]
    kinds = {n: "exit" if exits else _kind(n) for n in squares}
    for node in squares:
        for precision in range(PRECISIONS):
            said = corridor_words(node, precision, start, kinds[node])
            if all(corridor_words(other, precision, start, kinds[other]) != said
                   for other in squares if other != node):
                break
        else:
            said = corridor_words(node, 1, start, kinds[node])  # the letters tell twins apart
        said_of[node] = said
    return said_of


@cache
def own_names() -> dict[str, Msg]:
    """The corridor squares named by what they are, one of a kind: each crossing's two banks
    ("Rope Bridge, south bank") and the Maze's gates ("Maze gate, north")."""
    names = {}
    for crossing in BOARD.crossings.values():
        for side in ("north", "south"):
            names[crossing[side]] = words(f"label.bank.{side}", crossing=CROSSINGS[crossing["id"]])
    for gate in BOARD.maze_gates:
        names[gate] = words(f"label.gate.{BOARD.side(gate)}")
    return names


def _kind(node: str) -> str:
    return BOARD.passages[node]["colour"] if node in BOARD.passages else ""


def where(node: str) -> Msg:
    """A space inside a sentence: a room's name, "the Entrance", "a corridor north of the river".
    Never a square's coordinate: where a choice names several squares alike, the board's markers
    tell them apart."""
    if node in BOARD.rooms:
        return ROOMS[node]
    if node == "entrance":
        return ENTRANCE
    if node in BOARD.passages:
        return words(f"place.passage.{BOARD.passages[node]['colour']}")
    if node in BOARD.maze_links and node not in BOARD.maze_gates:
        return MAZE_SPACE
    return words(f"place.corridor.{BOARD.side(node)}")


def label(node: str) -> Msg:
    """A space as a label names it (a name, no article): "Armoury", "Entrance", "Maze space"."""
    if node == "entrance":
        return ENTRANCE_LABEL
    if node in BOARD.maze_links and node not in BOARD.maze_gates:
        return MAZE_LABEL
    return where(node)


def bank(node: str) -> Msg:
    """A river bank square as the far side of a crossing: "the north bank"."""
    return words(f"place.bank.{BOARD.side(node)}")


def direction(start: str, end: str, main: bool = False) -> str:
    """The compass direction of space `end` from space `start`: "north", "south-east"; `main`:
    only its main direction where one axis far outweighs the other."""
    (x0, y0), (x1, y1) = _spot(start), _spot(end)
    dx, dy = x1 - x0, y1 - y0
    # `main`: a way mostly along one axis is named by it alone (5 north and 1 west: "north")
    slack_x, slack_y = (abs(dy) / 2, abs(dx) / 2) if main else (0.5, 0.5)
    north_south = "" if abs(dy) <= slack_y else "north" if dy < 0 else "south"
    east_west = "" if abs(dx) <= slack_x else "east" if dx > 0 else "west"
    return "-".join(part for part in (north_south, east_west) if part) or "here"


def _spot(node: str) -> tuple[float, float]:
    """Where a space lies on the grid: a square's own place, a room's (or the Entrance's) middle."""
    cells = BOARD.entrance_cells if node == "entrance" else \
        BOARD.rooms[node]["cells"] if node in BOARD.rooms else [node]
    spots = [xy(c) for c in cells]
    return sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots)

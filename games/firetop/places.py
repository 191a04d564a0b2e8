"""Places as a choice names them, told apart by what is near them.

A die often reaches several corridor squares at once, and "Corridor south of the river" three
times over tells a player nothing but the letters. So a corridor square (or a Secret Passage
door) is named by the room (or the Entrance) nearest to it on foot, and, where two choices would
still read alike, by how many steps from it and then by its direction from the adventurer; a
Maze space by its direction.
"""
from __future__ import annotations

from functools import cache

from .board import BOARD, steps_from, xy

PRECISIONS = 4  # the ways `corridor_words` can name a square, the shortest first



@cache
def landmark(node: str) -> tuple[str, int]:
    """The room (or the Entrance) nearest to corridor square `node` on foot, and its steps away;
    of two as near, the first by id, so a square is always named alike."""
    dist = steps_from(node)
    steps, place = min((steps, place) for place, steps in dist.items()
                       if place in BOARD.rooms or place == "entrance")
    return place, steps


def _name(place: str) -> str:
    return "the Entrance" if place == "entrance" else f"the {BOARD.rooms[place]['name']}"


def corridor_words(node: str, precision: int, start: str, kind: str = "corridor") -> str:
    """A square by its landmark, in words as precise as asked: 0 "corridor near the Armoury",
    1 "corridor 3 steps from the Armoury" ("by the Armoury" beside its door), 2 and 3 the same
    and its direction from `start`, where the adventurer stands ("…, north-west"), exactly (2)
    or by its main direction (3). `kind` names the square ("corridor", "exit")."""
    place, steps = landmark(node)
    name = _name(place)
    if precision == 0:
        return f"{kind} near {name}"
    words = f"{kind} by {name}" if steps == 1 else f"{kind} {steps} steps from {name}"
    return words if precision == 1 else f"{words}, {direction(start, node, main=precision == 3)}"


def place_words(nodes: list[str], start: str, exits: bool = False) -> dict[str, str]:
    """Each of `nodes` (one choice's places, reached from `start`) in words that tell them apart
    where the board's own words would not: a corridor square or a Secret Passage door by its
    landmark, only as precisely as it takes. `exits`: the doors a passage leads out at."""
    words = {node: BOARD.label(node) for node in nodes}
    squares = [n for n in nodes if n in BOARD.corridors or n in BOARD.passages]
    kinds = {n: "exit" if exits else _kind(n) for n in squares}
    for node in squares:
        for precision in range(PRECISIONS):
            said = corridor_words(node, precision, start, kinds[node])
            if all(corridor_words(other, precision, start, kinds[other]) != said
                   for other in squares if other != node):
                break
        else:
            said = corridor_words(node, 1, start, kinds[node])  # the letters tell twins apart
        words[node] = said
    return words


def _kind(node: str) -> str:
    if node in BOARD.passages:
        return f"{BOARD.passages[node]['colour']} passage door"
    return "corridor"


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

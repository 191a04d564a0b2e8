"""The board of The Warlock of Firetop Mountain, built once from data/firetop/board.toml.

Spaces ("nodes") are named as players type them: a corridor square by its coordinate ("K9"),
a room by its id ("armoury"), the Entrance as "entrance", a Secret Passage entrance and a Maze
space by their squares ("A3", "B7"). `ADJ` joins the spaces an adventurer walks between
(corridors, doors, iron rings); the Maze and the river are crossed by actions of their own.
"""
from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field
from typing import Any

from data import load_toml

COLS = "ABCDEFGHIJKLMNOPQRSTUV"
CELL = re.compile(r"^([A-Va-v])(1[0-5]|[1-9])$")


def cell(x: int, y: int) -> str:
    return f"{COLS[x]}{y + 1}"


def xy(name: str) -> tuple[int, int]:
    return COLS.index(name[0].upper()), int(name[1:]) - 1


@dataclass
class Board:
    grid: list[str]
    rooms: dict[str, dict[str, Any]]
    room_of_letter: dict[str, str]
    corridors: set[str]
    entrance_cells: list[str]
    passages: dict[str, dict[str, Any]]          # entrance square -> {colour, ring, index}
    passage_colours: dict[str, dict[str, Any]]   # colour -> {entrances, rings, roll}
    crossings: dict[str, dict[str, Any]]         # id -> {id, name, south, north}
    crossing_at: dict[str, str]                  # bank square -> crossing id
    maze_spaces: list[str]
    maze_gates: list[str]
    maze_links: dict[str, list[str]]
    landing: str
    adj: dict[str, list[str]] = field(default_factory=dict)
    north: set[str] = field(default_factory=set)

    @property
    def width(self) -> int:
        return len(self.grid[0])

    @property
    def height(self) -> int:
        return len(self.grid)

    def char(self, name: str) -> str:
        x, y = xy(name)
        return self.grid[y][x]

    def is_room(self, node: str) -> bool:
        return node in self.rooms

    def side(self, node: str) -> str:
        return "north" if node in self.north else "south"


def _build() -> Board:
    raw = load_toml("firetop", "board.toml")
    grid: list[str] = raw["map"]
    width = len(grid[0])
    assert all(len(row) == width for row in grid), "board rows differ in length"
    rooms: dict[str, dict[str, Any]] = {}
    letters: dict[str, str] = {}
    for rid, spec in raw["rooms"].items():
        letters[spec["letter"]] = rid
        rooms[rid] = {"id": rid, "name": spec["name"], "letter": spec["letter"], "doors": list(spec["doors"]),
                      "kind": spec.get("kind", "room"), "fixed": spec.get("fixed"), "cells": []}
    corridors: set[str] = set()
    entrance: list[str] = []
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            name = cell(x, y)
            if ch == ".":
                corridors.add(name)
            elif ch == "e":
                entrance.append(name)
            elif ch in letters:
                rooms[letters[ch]]["cells"].append(name)
            elif ch not in "#~mrb":
                raise ValueError(f"board.toml: unknown map character {ch!r} at {name}")
    passages: dict[str, dict[str, Any]] = {}
    colours: dict[str, dict[str, Any]] = {}
    for spec in raw["passage"]:
        colour = spec["colour"]
        colours[colour] = {"entrances": list(spec["entrances"]), "rings": list(spec["rings"]),
                           "roll": list(spec["roll"])}
        assert len(spec["roll"]) == 6 and len(spec["entrances"]) == len(spec["rings"]) >= 2
        for index, (square, ring) in enumerate(zip(spec["entrances"], spec["rings"])):
            assert ring in corridors, f"passage ring {ring} is not a corridor"
            assert _touch(square, ring), f"passage {square} is not beside its ring {ring}"
            passages[square] = {"colour": colour, "ring": ring, "index": index}
    crossings = {c["id"]: dict(c) for c in raw["crossing"]}
    crossing_at: dict[str, str] = {}
    for c in crossings.values():
        for bank in (c["south"], c["north"]):
            assert bank in corridors, f"crossing bank {bank} is not a corridor"
            crossing_at[bank] = c["id"]
    maze = raw["maze"]
    links: dict[str, list[str]] = {s: [] for s in [*maze["spaces"], *maze["gates"]]}
    for a, b in maze["links"]:
        links[a].append(b)
        links[b].append(a)
    for gate in maze["gates"]:
        assert gate in corridors, f"maze gate {gate} is not a corridor"
    board = Board(grid, rooms, letters, corridors, entrance, passages, colours, crossings, crossing_at,
                  list(maze["spaces"]), list(maze["gates"]), links, raw["river"]["landing"])
    adj: dict[str, set[str]] = {n: set() for n in [*corridors, *rooms, "entrance", *passages]}
    for name in corridors:
        x, y = xy(name)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < len(grid):
                other = cell(nx, ny)
                if other in corridors:
                    adj[name].add(other)
                elif other in entrance:
                    adj[name].add("entrance")
                    adj["entrance"].add(name)
    for rid, room in rooms.items():
        for door in room["doors"]:
            assert door in corridors, f"door {door} of {rid} is not a corridor"
            assert any(_touch(door, c) for c in room["cells"]), f"door {door} is not beside {rid}"
            adj[rid].add(door)
            adj[door].add(rid)
    for square, spec in passages.items():
        adj[square].add(spec["ring"])
        adj[spec["ring"]].add(square)
    board.adj = {n: sorted(v) for n, v in adj.items()}
    river_row = next(y for y, row in enumerate(grid) if "~" in row)
    for node in board.adj:
        if node in rooms:
            y = xy(rooms[node]["cells"][0])[1]
        elif node == "entrance":
            y = xy(entrance[0])[1]
        else:
            y = xy(node)[1]
        if y < river_row:
            board.north.add(node)
    for space in maze["spaces"]:
        if xy(space)[1] < river_row:
            board.north.add(space)
    board.north.add(maze["gates"][0])
    _check_connected(board)
    return board


def _touch(a: str, b: str) -> bool:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by) == 1


def _check_connected(board: Board) -> None:
    """Each bank of the river is one connected walk (crossings, passages and the maze join them)."""
    for bank in ("north", "south"):
        nodes = [n for n in board.adj if board.side(n) == bank]
        seen = {nodes[0]}
        todo = [nodes[0]]
        while todo:
            for nb in board.adj[todo.pop()]:
                if nb not in seen and board.side(nb) == bank:
                    seen.add(nb)
                    todo.append(nb)
        missing = set(nodes) - seen
        assert not missing, f"board.toml: {sorted(missing)} cannot be reached on the {bank} bank"


BOARD = _build()


def steps_from(start: str, blocked: frozenset[str] = frozenset()) -> dict[str, int]:
    """Walking distance (squares) from `start` to every space, not through rooms or passages."""
    dist = {start: 0}
    todo = [start]
    while todo:
        node = todo.pop(0)
        if node != start and (node in BOARD.rooms or node in BOARD.passages):
            continue
        for nb in BOARD.adj[node]:
            if nb not in dist and nb not in blocked:
                dist[nb] = dist[node] + 1
                todo.append(nb)
    return dist


# Weighted routes for planning (the AI): a step costs 1, a river crossing, a passage ride and the
# Maze cost roughly what they cost in turns of walking.
CROSS_COST = {"ferry": 9.0, "bridge": 12.0, "raft": 12.0}  # the bridge and the raft may drop you in
PASSAGE_COST = 4.0
MAZE_COST = 5.0


def route_graph(maze: bool = True) -> dict[str, list[tuple[str, float]]]:
    graph: dict[str, list[tuple[str, float]]] = {n: [] for n in BOARD.adj}
    for node, nbs in BOARD.adj.items():
        for nb in nbs:
            graph[node].append((nb, 1.0))
    for c in BOARD.crossings.values():
        graph[c["south"]].append((c["north"], CROSS_COST[c["id"]]))
        graph[c["north"]].append((c["south"], CROSS_COST[c["id"]]))
    for spec in BOARD.passage_colours.values():
        for a in spec["entrances"]:
            for b in spec["entrances"]:
                if a != b:
                    graph[a].append((b, PASSAGE_COST))
    if maze:
        a, b = BOARD.maze_gates
        graph[a].append((b, MAZE_COST))
        graph[b].append((a, MAZE_COST))
    return graph


ROUTES = {True: route_graph(True), False: route_graph(False)}


def route_costs(target: str, maze: bool = True, ferry: bool = True) -> dict[str, float]:
    """Dijkstra over ROUTES (symmetric) from `target`: the cost of getting there from anywhere
    (`maze` False: with no way through the Maze; `ferry` False: no Gold for the ferryman)."""
    banks = {BOARD.crossings["ferry"]["south"], BOARD.crossings["ferry"]["north"]}
    dist = {target: 0.0}
    heap = [(0.0, target)]
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > dist.get(node, float("inf")):
            continue
        # a room stops a move: walking through one on the way costs about a turn
        extra = 3.0 if node in BOARD.rooms and node != target else 0.0
        for nb, w in ROUTES[maze].get(node, []):
            if not ferry and node in banks and nb in banks:
                continue
            new = cost + w + extra
            if new < dist.get(nb, float("inf")):
                dist[nb] = new
                heapq.heappush(heap, (new, nb))
    return dist

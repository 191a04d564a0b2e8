"""The Kingdom's board as a graph that changes with the fold (data/kingdom/board.toml).

The Heartland never moves; each of the two panels shows one of its two Worlds ("in" or "out").
A fold state is a dict {"west": "in"|"out", "east": "in"|"out"}. Spaces of a hidden face are off the
board; a panel's Whirlpool is on both of its faces.

Movement (`destinations`): any direction, but a throw never turns back (no space twice); a White
Dagger and a Whirlpool stop a move early; the Gate, the Ring of Stones and a Key Location that
still holds a Treasure may be entered without the exact count; nobody passes or lands on the Demon King.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from data import load_toml

RAW: dict[str, Any] = load_toml("kingdom", "board.toml")
KINDS = {"track", "supply", "white", "black", "pool", "ring", "gate"}
PANELS = ("west", "east")
FACES = ("in", "out")


@dataclass(frozen=True)
class Space:
    id: str
    x: int
    y: int
    kind: str
    area: str          # "heart" or a panel name
    face: str | None   # "in"/"out" for a panel face, None for the Heartland or a panel's pool


@dataclass(eq=False)  # hashed by identity: the adjacency cache is keyed by the board
class Board:
    spaces: dict[str, Space] = field(default_factory=dict)
    edges: dict[str | None, set[frozenset[str]]] = field(default_factory=dict)  # key: None/"west.in"...
    hazards: dict[str, tuple[str, str]] = field(default_factory=dict)
    by_dagger: dict[str, list[str]] = field(default_factory=dict)
    locations: dict[str, str] = field(default_factory=dict)
    exits: dict[str, list[str]] = field(default_factory=dict)
    detours: dict[str, list[str]] = field(default_factory=dict)  # barred hazard -> stop there first
    spots: dict[str, dict[str, Any]] = field(default_factory=dict)
    panels: dict[str, dict[str, Any]] = field(default_factory=dict)
    demon: frozenset[str] = frozenset()
    demon_strides: dict[str, set[str]] = field(default_factory=dict)  # his steps across the Gate road
    safe: frozenset[str] = frozenset()
    start: str = "gate"
    demon_start: str = "ht"
    wizard: str = "wiz"
    names: dict[str, Any] = field(default_factory=dict)  # board.toml [names]: the words players read

    # ---------------------------------------------------------- places
    def world(self, panel: str, face: str) -> str:
        return self.panels[panel][face]["world"]

    def panel_of(self, space: str) -> str | None:
        """The panel a space (or a hazard's dagger) lies on; None for the Heartland."""
        area = self.spaces[space].area
        return None if area == "heart" else area

    def present(self, space: str, fold: dict[str, str]) -> bool:
        s = self.spaces[space]
        return s.face is None or fold[s.area] == s.face

    def world_phrase(self, space: str) -> str:
        """The World a space lies in, as a sentence says it ("the Heartland", "the Ice Palace").
        Static: only a Whirlpool sits on both faces of its panel, and a Whirlpool has a name."""
        s = self.spaces[space]
        if s.area == "heart":
            name = RAW["heart"]["name"]
            return name[:1].lower() + name[1:]
        return "the " + self.world(s.area, s.face or "in")

    def name(self, space: str) -> str:
        """A space as players read it: "the Sleeping Giant, near side", "a path in the Evil Tower".
        Ids never reach a player; two plain path spaces share words, and the board's markers
        tell them apart whenever a choice names them."""
        if space in self.names:
            return self.names[space]
        if space in self.locations:
            return self.locations[space]
        return self.names["kinds"][self.spaces[space].kind].format(world=self.world_phrase(space))

    def standing(self, space: str) -> str:
        """Where an adventurer stands, for a player panel: "on a path in …", "at the Gate"."""
        words = self.names["standing"]
        return f"{words.get(self.spaces[space].kind, words['default'])} {self.name(space)}"

    def hazards_at(self, space: str) -> list[str]:
        return self.by_dagger.get(space, [])

    def far_end(self, hazard: str, near: str) -> str:
        a, b = self.hazards[hazard]
        return b if near == a else a

    def pools(self) -> dict[str, str]:
        return {p: self.panels[p]["pool"] for p in PANELS}

    # ---------------------------------------------------------- graph
    def neighbours(self, space: str, fold: dict[str, str]) -> list[str]:
        return list(_adjacency(self, fold["west"], fold["east"]).get(space, ()))

    def adjacency(self, fold: dict[str, str]) -> dict[str, tuple[str, ...]]:
        return _adjacency(self, fold["west"], fold["east"])

    def destinations(self, fold: dict[str, str], start: str, n: int, demon: str | None,
                     optional_stop: Iterable[str] = (), barred: Iterable[str] = ()) -> dict[str, int]:
        """Where a throw of `n` can end, with the points left over when it stops early.

        Stops that end a move: White Daggers and Whirlpools (always), and the spaces in
        `optional_stop` (may stop there without the exact count, e.g. a Key Location holding a
        Treasure, the Ring, the Gate). `barred` spaces cannot be entered."""
        blocked = frozenset(barred) | ({demon} if demon is not None else frozenset())
        return dict(_destinations(self, fold["west"], fold["east"], start, n, frozenset(optional_stop), blocked))

    def demon_moves(self, fold: dict[str, str], start: str, n: int) -> list[str]:
        """Where the Demon King can end a throw of `n` on his own ground (no turning back). His
        ground is a ring: he steps across the Gate road (a stride in board.toml) without stopping."""
        return list(_demon_moves(self, fold["west"], fold["east"], start, n))

    def distances(self, fold: dict[str, str], source: str) -> dict[str, int]:
        """Plain step distances over the track (hazards not crossed)."""
        adj = self.adjacency(fold)
        dist = {source: 0}
        frontier = [source]
        while frontier:
            nxt = []
            for node in frontier:
                for nb in adj.get(node, ()):
                    if nb not in dist:
                        dist[nb] = dist[node] + 1
                        nxt.append(nb)
            frontier = nxt
        return dist


@lru_cache(maxsize=8)
def _adjacency(board: Board, west: str, east: str) -> dict[str, tuple[str, ...]]:
    fold = {"west": west, "east": east}
    keys = [None, f"west.{west}", f"east.{east}"]
    adj: dict[str, list[str]] = {}
    for key in keys:
        for edge in board.edges.get(key, ()):
            a, b = sorted(edge)
            if board.present(a, fold) and board.present(b, fold):
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
    return {k: tuple(sorted(v)) for k, v in adj.items()}


@lru_cache(maxsize=8192)
def _destinations(board: Board, west: str, east: str, start: str, n: int, early: frozenset[str],
                  blocked: frozenset[str]) -> tuple[tuple[str, int], ...]:
    """`Board.destinations`, kept (in its order): every move's prompt and check ask it."""
    adj = board.adjacency({"west": west, "east": east})
    out: dict[str, int] = {}

    def note(space: str, left: int) -> None:
        out[space] = max(out.get(space, -1), left)

    def walk(node: str, steps: int, seen: frozenset[str]) -> None:
        if steps == n:
            note(node, 0)
            return
        for nb in adj.get(node, ()):
            if nb in seen or nb in blocked:
                continue
            kind = board.spaces[nb].kind
            left = n - steps - 1
            if kind in ("white", "pool"):
                note(nb, left)
                continue
            if nb in early:
                note(nb, left)
            walk(nb, steps + 1, seen | {nb})

    if n > 0:
        walk(start, 0, frozenset({start}))
    return tuple(out.items())


@lru_cache(maxsize=1024)
def _demon_moves(board: Board, west: str, east: str, start: str, n: int) -> tuple[str, ...]:
    """`Board.demon_moves`, kept: the AIs ask it for every face at every move they weigh."""
    adj = board.adjacency({"west": west, "east": east})
    out: set[str] = set()

    def walk(node: str, steps: int, seen: frozenset[str]) -> None:
        if steps == n:
            out.add(node)
            return
        for nb in (*adj.get(node, ()), *board.demon_strides.get(node, ())):
            if nb in board.demon and nb not in seen:
                walk(nb, steps + 1, seen | {nb})

    walk(start, 0, frozenset({start}))
    return tuple(sorted(out))


def _add_paths(board: Board, key: str | None, paths: list[str]) -> None:
    for path in paths:
        ids = path.split()
        for a, b in zip(ids, ids[1:]):
            for s in (a, b):
                if s not in board.spaces:
                    raise ValueError(f"board.toml: path {path!r} names unknown space {s!r}")
            board.edges.setdefault(key, set()).add(frozenset((a, b)))


def load(raw: dict[str, Any] = RAW) -> Board:
    board = Board(start=raw["start"], demon_start=raw["demon_start"], wizard=raw["wizard"])

    def add(sid: str, spec: list[Any], area: str, face: str | None) -> None:
        if sid in board.spaces:
            raise ValueError(f"board.toml: space {sid!r} defined twice")
        x, y, kind = spec
        if kind not in KINDS:
            raise ValueError(f"board.toml: space {sid!r} has unknown kind {kind!r}")
        board.spaces[sid] = Space(sid, int(x), int(y), kind, area, face)

    for sid, spec in raw["heart"]["spaces"].items():
        add(sid, spec, "heart", None)
    for name in PANELS:
        panel = raw["panels"][name]
        board.panels[name] = panel
        px, py = panel["pool_xy"]
        add(panel["pool"], [px, py, "pool"], name, None)
        for face in FACES:
            for sid, spec in panel[face]["spaces"].items():
                add(sid, spec, name, face)
    _add_paths(board, None, raw["heart"]["paths"])
    for name in PANELS:
        for face in FACES:
            _add_paths(board, f"{name}.{face}", raw["panels"][name][face]["paths"])
    for hz, (a, b) in raw["hazards"].items():
        for s in (a, b):
            if board.spaces[s].kind != "white":
                raise ValueError(f"board.toml: hazard {hz} ends on {s}, which is not a White Dagger")
            board.by_dagger.setdefault(s, []).append(hz)
        if board.panel_of(a) != board.panel_of(b) or board.spaces[a].face != board.spaces[b].face:
            raise ValueError(f"board.toml: hazard {hz} spans two Worlds")
        board.hazards[hz] = (a, b)
    for loc in raw["locations"]:
        if board.spaces[loc].kind != "black":
            raise ValueError(f"board.toml: Key Location {loc} is not a Black Dagger")
    board.locations = dict(raw["locations"])
    board.exits = {k: list(v) for k, v in raw["exits"].items()}
    for name, spots in board.exits.items():
        for s in spots:
            if s not in board.spaces:
                raise ValueError(f"board.toml: exit {name} names unknown space {s}")
    board.detours = {k: list(v) for k, v in raw.get("detours", {}).items()}
    for hz, spots in board.detours.items():
        for s in spots:
            if hz not in board.hazards or s not in board.spaces:
                raise ValueError(f"board.toml: detour for {hz} names unknown {hz} or {s}")
    board.spots = {k: dict(v) for k, v in raw["spots"].items()}
    board.names = dict(raw["names"])
    for sid, spec in board.spaces.items():
        if sid not in board.names and sid not in board.locations and spec.kind not in board.names["kinds"]:
            raise ValueError(f"board.toml: space {sid} has no name for players ([names])")
    board.demon = frozenset(raw["heart"]["demon"])
    board.safe = frozenset(raw["heart"]["safe"])
    for a, b in raw["heart"].get("demon_strides", []):
        if a not in board.demon or b not in board.demon:
            raise ValueError(f"board.toml: the Demon King's stride {a}-{b} leaves his ground")
        board.demon_strides.setdefault(a, set()).add(b)
        board.demon_strides.setdefault(b, set()).add(a)
    for s in board.demon | board.safe:
        if board.spaces[s].area != "heart":
            raise ValueError(f"board.toml: {s} is not in the Heartland")
    return board


BOARD = load()

"""Frozen reference, copied on purpose: `games/castle/ai.py` as it stood at main 770dbda (issue 39),
the smart policy today's smart AI must keep winning its fair share against
(tests/test_smart_reference.py). It must not follow later changes to the game's AI, nor be
merged with it: the duplication is the point. Changed from the original: absolute imports,
and `play` at the end, which seats it in a self-play loop.

The original docstring:

AI players for Keys to the Castle, deciding from one seat's view and prompt alone.

"random" picks uniformly among the legal choices. "smart" plans a route with a reverse Dijkstra
(distance-to-goal for every tile, where closed or barred doors cost extra turns). It takes a win
when one is there (a step onto the far edge, or a play that opens that step and then the step),
stops the next opponent's winning step when it can (net, padlock, close), and otherwise scores
each legal choice: open or saw the doors on its own route, shortcut with passages, and block the
opponent closest to winning where that really delays them (a door with an equally short way
round is not worth a card). It reads the seat's compact view (`compact_view`): only what the
seat may know (revealed faces, the board, its own hand), as tuples rather than the view's dicts.
"""
from __future__ import annotations

import heapq
from functools import cache, lru_cache
from typing import Any

from games.core import Prompt, Rng
from games.castle.engine import KEY_CARDS, OPPOSITE, TOGGLERS, Geometry, geometry

INF = float("inf")
# A door in the compact view: (colour, open, face if revealed else None, padlock, hacksaw).
COLOUR, OPEN, FACE, PADLOCK, HACKSAW = range(5)
# A seat in the compact view: (side, pos, netted, bonuses_used).
SIDE, POS, NETTED, BONUSES = range(4)
OUTSIDE_STEP = 1.0  # moving out of the castle takes a turn
FULL_DELAY = 2.0  # a block that costs the leader this many turns is worth its whole value
EXTRA_TURN_BONUS = 2.5  # what a step onto an unused Extra Turn door is worth, in turns
EXTRA_KEY_BONUS = 1.0  # and onto an unused Extra Key door
# A step whose D is this much above staying's loses even with a bonus (and a hair, for ties).
STEP_MARGIN = max(EXTRA_TURN_BONUS, EXTRA_KEY_BONUS) + 1e-6
# A play weighs only tiles nearer the goal than the seat: its route, and the far ends of passages
# that would shorten it (a step costs at least a turn, so no tile further away can).
PLAY_MARGIN = 1e-6


def view_from_view(view: dict[str, Any], seat: int, level: str, prompt: Prompt) -> dict[str, Any]:
    """What the engine's `ai_view` gives, worked out from the seat's whole view instead
    (the game's `ai_view_from_view`): the conformance suite checks the two agree, so the compact
    view holds nothing the seat may not see."""
    if level == "random" or len(prompt.choices) == 1:
        return {}
    return compact_view(view)


def compact_view(view: dict[str, Any]) -> dict[str, Any]:
    """What the smart AI reads, from a seat's view: the board size, phase, hand and passages as
    the view has them, each door and each seat as a tuple (`CastleGame.ai_view` builds the same
    from the state, without the view's dicts)."""
    return {"rows": view["rows"], "cols": view["cols"], "phase": view["phase"],
            "hand": view["hand"], "passages": view["passages"],
            "doors": [(t["colour"], t["open"], t["face"], t["padlock"], t["hacksaw"])
                      for t in view["tiles"]],
            "seats": [(pl["side"], pl["pos"], pl["netted"], tuple(pl["bonuses_used"]))
                      for pl in view["players"]]}


def passable(t: tuple[Any, ...]) -> bool:
    """The engine's rule for a door of the compact view: open, not padlocked, not barred unless sawn."""
    return t[OPEN] and not t[PADLOCK] and (t[FACE] != "barred" or t[HACKSAW])


class Board:
    """A read-only picture of the castle for planning, built from a seat's compact view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.rows, self.cols = view["rows"], view["cols"]
        self.n = self.rows * self.cols
        self.geo = geometry(self.rows, self.cols)
        self.doors = view["doors"]
        self.seats = view["seats"]
        index = self.geo.index
        self.passages = tuple([(index[x], index[y]) for x, y in view["passages"]])
        self.adj = adjacency(self.geo, self.passages)
        self.occ = {index[s[POS]]: seat for seat, s in enumerate(self.seats) if s[POS] is not None}
        self.unknown_hand_costs: list[float] | None = None
        self._preds: dict[str, list[Any]] = {}

    def node(self, seat: int) -> int:
        pos = self.seats[seat][POS]
        return self.n if pos is None else self.geo.index[pos]

    def costs(self, seat: int, hand: list[str] | None) -> list[float]:
        """Rough turns to step onto each tile, seen by `seat` (hand None: an opponent's unknown
        hand), and last (at node n) OUTSIDE_STEP, for a step out of the castle."""
        if hand is None:
            if self.unknown_hand_costs is None:
                self.unknown_hand_costs = self.door_costs(None)
            out = list(self.unknown_hand_costs)
        else:
            out = self.door_costs(hand)
        for i, who in self.occ.items():
            if who != seat:
                out[i] += 4.0 if self.seats[who][NETTED] else 2.0
        return out

    def door_costs(self, hand: list[str] | None) -> list[float]:
        """The doors' part of `costs`: what opening, unlocking or sawing each one takes (and
        the step out); an unseen hand's from `unknown_hand_costs`."""
        if hand is None:
            return unknown_hand_costs(self.doors)
        keys = {c[4:] for c in hand if c in KEY_CARDS}
        skel = "skeleton" in hand
        saw_cost = 1.0 if "hacksaw" in hand else 6.0
        out = []
        for colour, is_open, face, padlock, hacksaw in self.doors:
            if is_open:
                if face == "barred" and not hacksaw:
                    cost = 1.0 + saw_cost
                else:
                    cost = 1.0
            else:
                cost = 1.0 + (0.3 if (skel or colour in keys) else 1.5)
                if face is not None:
                    if face == "barred":
                        cost += saw_cost
                else:
                    cost += 1.0  # one closed door in five hides bars
            if padlock:  # a padlock blocks the door until a Skeleton Key removes it
                cost += 2.0 if skel else 5.0
            out.append(cost)
        out.append(OUTSIDE_STEP)
        return out

    def dist_to_goal(self, seat: int, cost: list[float], stop: int | None = None,
                     limit: float = INF, margin: float | None = None) -> list[float]:
        """D[node]: cost still to pay from node (tiles 0..n-1, n = outside on own side).

        With `stop`, the search ends once D[stop] is final: so is D of every node on the best
        route from there, which is all an opponent's route needs. With `limit`, it also ends
        once every node left costs at least `limit`: their D is then `limit` or more, which is
        all a caller comparing against `limit` needs. With `stop` and `margin`, it goes on past
        `stop` until every node left costs at least D[stop] + margin (a step's choice needs no
        more).
        """
        side = self.seats[seat][SIDE]
        far, far_set, start_dist = goal_start(self.geo, side)
        dist = list(start_dist)
        preds = self.preds(side)
        step = cost  # leaving node v costs step[v]; outside (node n), OUTSIDE_STEP
        pop, push = heapq.heappop, heapq.heappush
        if stop in far_set or limit <= 0:  # the search ends among the far edge: popped as any node
            heap = [(0.0, i) for i in far]
        else:  # the far edge first, D 0 (every other node costs a turn or more): no heap needed
            heap = []
            for v in far:
                nd = step[v]
                for u in preds[v]:
                    if nd < dist[u]:
                        dist[u] = nd
                        push(heap, (nd, u))
        while heap:
            dv, v = pop(heap)
            if dv > dist[v]:
                continue
            if v == stop:
                if margin is None:
                    break
                limit, stop = dv + margin, None
            if dv >= limit:
                break
            nd = dv + step[v]
            for u in preds[v]:
                if nd < dist[u]:
                    dist[u] = nd
                    push(heap, (nd, u))
        return dist

    def preds(self, side: str) -> list[Any]:
        """Per node, the nodes one step before it on a route toward `side`'s far edge
        (its neighbours; from the own edge, also outside; from outside, the own edge)."""
        if side not in self._preds:
            self._preds[side] = links(self.geo, self.passages, side)
        return self._preds[side]

    def dist_from(self, seat: int, start: int, cost: list[float], limit: float = INF) -> list[float]:
        """F[node]: cost paid to get from `start` onto node (the mirror of dist_to_goal).

        With both, a new Secret Passage a-b is judged without another search: the best route
        through it costs F[a] + cost[b] + D[b] (or the reverse). With `limit`, the search ends
        once every node left costs at least `limit` to reach.
        """
        side = self.seats[seat][SIDE]
        n = self.n
        own_edge = self.geo.edge[side]
        own = self.geo.edge_set[side]
        adj = self.adj
        dist = [INF] * (n + 1)
        dist[start] = 0.0
        heap = [(0.0, start)]
        while heap:
            dv, v = heapq.heappop(heap)
            if dv > dist[v]:
                continue
            if dv >= limit:
                break
            if v == n:
                nexts: Any = own_edge
            else:
                if v in own and dv + OUTSIDE_STEP < dist[n]:
                    dist[n] = dv + OUTSIDE_STEP
                    heapq.heappush(heap, (dist[n], n))
                nexts = adj[v]
            for u in nexts:
                nd = dv + cost[u]
                if nd < dist[u]:
                    dist[u] = nd
                    heapq.heappush(heap, (nd, u))
        return dist

    def path(self, seat: int, start: int, cost: list[float], dist: list[float]) -> list[int]:
        """Tiles along the best route from `start` (excluding it), nearest first: each step to
        the next node (`preds`: the relation is symmetric) with the least cost + D, the lowest
        index among equals."""
        succ = self.preds(self.seats[seat][SIDE])
        n = self.n
        out: list[int] = []
        cur = start
        for _ in range(n + 2):
            if dist[cur] == 0 or dist[cur] == INF:
                break
            best, best_u = INF, n + 1
            for u in succ[cur]:
                v = cost[u] + dist[u]
                if v < best or (v == best and u < best_u):
                    best, best_u = v, u
            if best == INF:
                break
            cur = best_u
            if cur != n:
                out.append(cur)
        return out


def unknown_hand_costs(doors: list[tuple[Any, ...]]) -> list[float]:
    """`Board.door_costs` for a hand the seat cannot see: no key fits, no Hacksaw, no Skeleton
    Key (1 to open a door, 6 to saw bars, 5 for a padlock), each door's sum written out."""
    out = []
    for _, is_open, face, padlock, hacksaw in doors:
        if is_open:
            cost = 7.0 if face == "barred" and not hacksaw else 1.0  # 1, and 6 to saw without one
        else:  # 1, and 1 to open, and 6 to saw bars seen, or 1 for bars unseen
            cost = 8.0 if face == "barred" else 3.0 if face is None else 2.0
        out.append(cost + 5.0 if padlock else cost)
    out.append(OUTSIDE_STEP)
    return out


@lru_cache(maxsize=256)
def adjacency(geo: Geometry, passages: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Each tile's neighbours on a board with these Secret Passages (tile pairs, as laid)."""
    adj = list(geo.adj)
    for a, b in passages:
        adj[a] = adj[a] + (b,)
        adj[b] = adj[b] + (a,)
    return tuple(adj)


@cache
def goal_start(geo: Geometry, side: str) -> tuple[tuple[int, ...], frozenset[int], list[float]]:
    """`Board.dist_to_goal`'s start: the far edge's tiles (in order, and as a set), and D
    (copied by every search) 0 on them, INF elsewhere (outside included)."""
    far = geo.edge[OPPOSITE[side]]
    return far, geo.edge_set[OPPOSITE[side]], [0.0 if i in far else INF for i in range(geo.n + 1)]


@cache
def steps_to_win(geo: Geometry, side: str) -> tuple[int, ...]:
    """Per node, the fewest steps from it onto `side`'s far edge (a Secret Passage moves one
    row or column toward it at most; from outside, one step onto the own edge first)."""
    gap = {"N": [geo.rows - 1 - r for r in geo.row], "S": list(geo.row),
           "W": [geo.cols - 1 - c for c in geo.col], "E": list(geo.col)}[side]
    return (*gap, geo.rows if side in ("N", "S") else geo.cols)


@lru_cache(maxsize=256)
def links(geo: Geometry, passages: tuple[tuple[int, int], ...], side: str) -> list[Any]:
    """`Board.preds` for a board with these passages (one table per passage layout)."""
    own = geo.edge_set[side]
    return ([a + (geo.n,) if v in own else a for v, a in enumerate(adjacency(geo, passages))]
            + [geo.edge[side]])


Move = tuple[str, str | None, int | None, int | None, bool, int]  # an action split by `parsed`
# A Move's kind, for `_scores`: a key or a Skeleton Key turning a door, a Padlock, a Passage, else.
TURN_KEY, TURN_SKELETON, LOCK, PASSAGE, OTHER = range(5)


class Moves(dict):  # type: ignore[type-arg]
    """Offered actions split as (verb, card or word, tile, second tile, unlock, kind), once per
    spelling on a board size: the smart AI weighs every choice of every decision, and a plain look-up
    here is a third of a cached function's call."""

    def __init__(self, geo: Geometry) -> None:
        super().__init__()
        self.geo = geo

    def __missing__(self, action: str) -> Move:
        parts = action.split()
        verb, word = parts[0], parts[1] if len(parts) > 1 else None
        typed = self.geo.typed
        target = typed.get(parts[2] if verb == "play" else word) if word is not None else None
        second = typed[parts[3]] if verb == "play" and word == "passage" else None
        unlock = len(parts) == 4 and parts[3] == "unlock"
        kind = OTHER
        if verb == "play":
            if word in TOGGLERS and not unlock:
                kind = TURN_SKELETON if word == "skeleton" else TURN_KEY
            else:
                kind = {"padlock": LOCK, "passage": PASSAGE}.get(word, OTHER)
        move = self[action] = verb, word, target, second, unlock, kind
        return move


@lru_cache(maxsize=None)
def moves_on(geo: Geometry) -> Moves:
    """The split actions (`Moves`) of a board size."""
    return Moves(geo)


def parsed(geo: Geometry, action: str) -> Move:
    """`action` split (see `Moves`)."""
    return moves_on(geo)[action]


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    choices = prompt.choices
    if level == "random" or len(choices) == 1:
        return rng.choice(choices).action
    return _smart(view, prompt.seat, [c.action for c in choices], rng)


class Plan:
    """One decision's picture of the race: this seat's route and, when needed, the leader's."""

    def __init__(self, view: dict[str, Any], seat: int, margin: float) -> None:
        self.seat = seat
        self.board = board = Board(view)
        self.doors = board.doors
        self.index = board.geo.typed
        self.cost = board.costs(seat, view["hand"])
        self.me = board.node(seat)
        # D of the tiles up to `margin` further from the goal than this seat's: all it weighs. A
        # tile one step away is never further than stepping back here (cost[me]), so a step's
        # choice needs no more than that either.
        margin = min(margin, self.cost[self.me] + 1e-6)
        self.dist = board.dist_to_goal(seat, self.cost, stop=self.me, margin=margin)
        self.d = self.dist[self.me]
        self.forward: list[float] | None = None  # distances from me, computed if a passage needs them
        self.detours: dict[int, float] = {}  # per tile of the leader's route, `lead_delay`'s detour

    def finish_line(self, seat: int) -> list[int]:
        """Far-edge tiles `seat` could step onto from where it stands (none while outside)."""
        board = self.board
        here, side = board.node(seat), board.seats[seat][SIDE]
        if steps_to_win(board.geo, side)[here] > 1:  # outside, or too far for any step to reach
            return []
        far = board.geo.edge_set[OPPOSITE[side]]
        return [t for t in board.adj[here] if t in far]

    def open_doors_to_win(self, seat: int) -> list[int]:
        """Tiles on which `seat` would win by stepping there on its next move."""
        if self.board.seats[seat][NETTED]:
            return []
        return [t for t in self.finish_line(seat)
                if passable(self.doors[t]) and t not in self.board.occ]

    def plan_race(self) -> None:
        """My route, and the opponent nearest to winning (as far as this seat can tell)."""
        board = self.board
        self.path = board.path(self.seat, self.me, self.cost, self.dist)
        self.on_path = {t: i for i, t in enumerate(self.path)}
        self.near = {self.me, *self.path[:2]}  # where a passage may help: here or the next steps
        self.lead, self.lead_d, self.lead_path, self.lead_cost = None, INF, [], []
        for o in range(len(board.seats)):
            if o == self.seat:
                continue
            on = board.node(o)
            if self.lead is not None and steps_to_win(board.geo, board.seats[o][SIDE])[on] >= self.lead_d:
                continue  # a step costs at least a turn: this one cannot be nearer than the lead
            oc = board.costs(o, None)
            od = board.dist_to_goal(o, oc, stop=on, limit=self.lead_d)  # only a nearer one leads
            if od[on] < self.lead_d or self.lead is None:
                self.lead, self.lead_d, self.lead_cost = o, od[on], oc
                self.lead_path = board.path(o, on, oc, od)
        self.on_lead_path = {t: i for i, t in enumerate(self.lead_path)}
        self.threat = self.lead_d <= self.d or self.lead_d <= 3.5
        self.urgency = 3.0 if self.lead_d <= 3.5 else 0.0

    def lead_delay(self, target: int, extra: float) -> float:
        """How many turns the leader loses if `target` costs it `extra` more to step onto (up to
        FULL_DELAY: `_effective` reads no further).

        `target` is on the leader's best route, so the leader then pays either that route plus
        `extra` or its best way round `target` (its detour, searched once per tile whatever the
        block: a Padlock and a closed door on the same tile share it).
        """
        detour = self.detours.get(target)
        if detour is None:
            cost = list(self.lead_cost)
            cost[target] = INF
            node = self.board.node(self.lead)
            dist = self.board.dist_to_goal(self.lead, cost, stop=node, limit=self.lead_d + FULL_DELAY)
            detour = self.detours[target] = dist[node] - self.lead_d
        return min(extra, detour)


def _smart(view: dict[str, Any], seat: int, actions: list[str], rng: Rng) -> str:
    moving = view["phase"] == "move"
    plan = Plan(view, seat, STEP_MARGIN if moving else PLAY_MARGIN)
    if moving:
        return _move(plan, actions, rng)
    split = moves_on(plan.board.geo)
    moves = [split[a] for a in actions]  # split once, read by every step below
    forced = _winning_plays(plan, actions, moves) if view["phase"] == "play" else []
    forced = forced or _stop_a_win(plan, actions)
    if forced:
        return rng.choice(forced)
    plan.plan_race()
    scores = _scores(plan, moves)
    top = max(scores)
    return rng.choice([a for s, a in zip(scores, actions) if s >= top - 1e-9])


def _move(plan: Plan, actions: list[str], rng: Rng) -> str:
    """Win if a step wins; else the step that leaves the least to pay, bonus doors counted."""
    wins = set(plan.open_doors_to_win(plan.seat))
    winning = [a for a in actions if a.startswith("move ") and plan.index.get(a[5:]) in wins]
    if winning:
        return rng.choice(winning)
    best: list[str] = []
    best_v = INF
    used = set(plan.board.seats[plan.seat][BONUSES])
    geo = plan.board.geo
    for a in actions:
        if a == "stay":
            v = plan.d
        elif a == "move out":
            v = plan.dist[plan.board.n] + 0.5
        else:
            _, c, target, _, _, _ = parsed(geo, a)
            v = plan.dist[target]
            face = plan.doors[target][FACE]
            if v > 0 and c not in used:
                if face == "extra_turn":
                    v -= EXTRA_TURN_BONUS
                elif face == "extra_key":
                    v -= EXTRA_KEY_BONUS
        if v < best_v - 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return rng.choice(best)


def _winning_plays(plan: Plan, actions: list[str], moves: list[Move]) -> list[str]:
    """Plays after which this seat's move wins: keep an open finish, or make one.

    A door opened for the first time may show bars, so a sure finish beats a hoped-for one.
    """
    seat, doors = plan.seat, plan.doors
    if plan.board.seats[seat][NETTED]:
        return []
    ready = plan.open_doors_to_win(seat)
    if ready:
        only = ready[0] if len(ready) == 1 else None
        keep = [a for a in actions if only is None or not _shuts(plan, a, only)]
        return [a for a in keep if a.startswith("discard")] or keep
    finish = set(plan.finish_line(seat))
    if not finish:  # no far tile next to me, so none diagonal to me either (no passage wins)
        return []
    far = plan.board.geo.edge_set[OPPOSITE[plan.board.seats[seat][SIDE]]]
    occ = plan.board.occ
    sure, hoped = [], []
    me = plan.me
    for a, (verb, card, target, second, unlock, _) in zip(actions, moves):
        if verb != "play":
            continue
        if card == "passage":
            if me != target and me != second:  # a passage away from me is no step for me
                continue
            ends = {target, second} - {me}
            if len(ends) == 1:
                (other,) = ends
                if other in far and passable(doors[other]) and other not in occ:
                    sure.append(a)
            continue
        if target not in finish or target in occ:
            continue
        colour, is_open, face, padlock, hacksaw = doors[target]
        if card in KEY_CARDS or (card == "skeleton" and not unlock):
            if is_open:
                continue
            if face is None:
                hoped.append(a)
                continue
            is_open = True
        elif card == "skeleton":  # unlock
            padlock = False
        elif card == "hacksaw":
            hacksaw = True
        else:
            continue
        if passable((colour, is_open, face, padlock, hacksaw)):
            sure.append(a)
    best = sure or hoped
    return [a for a in best if not a.startswith("play skeleton")] or best  # keep the Skeleton Key


def _shuts(plan: Plan, action: str, target: int) -> bool:
    """Does `action` close or padlock the open door `target` (a card, or the Extra Key)?"""
    verb, card, tile, second, unlock, _ = parsed(plan.board.geo, action)
    if verb == "bonus":
        return tile == target
    return (verb == "play" and second is None and not unlock and tile == target
            and (card == "padlock" or card in KEY_CARDS or card == "skeleton"))


def _stop_a_win(plan: Plan, actions: list[str]) -> list[str]:
    """When the next opponent to move could win on that move, the play (or Extra Key) that stops it.

    A Net stops every step; a Padlock or a closed door stops one door, and only until a
    Skeleton Key (or any matching key) comes along, so they rank below it.
    """
    seats = len(plan.board.seats)
    for step in range(1, seats):
        o = (plan.seat + step) % seats
        doors = plan.open_doors_to_win(o)
        if not doors:
            continue
        pos = plan.board.node(o)
        nets = [a for a in actions if a == f"play net {plan.board.geo.names[pos]}"]
        if nets or len(doors) > 1:
            return nets
        (door,) = doors
        locks = [a for a in actions if a == f"play padlock {plan.board.geo.names[door]}"]
        closes = [a for a in actions if a.startswith(("play key-", "bonus")) and _shuts(plan, a, door)]
        skeleton = [a for a in actions if a.startswith("play skeleton") and _shuts(plan, a, door)]
        return locks or closes or skeleton
    return []


def _scores(plan: Plan, moves: list[Move]) -> list[float]:
    """`_score` of each action (`parsed`). Most plays are Padlocks or Passages far from both
    routes, worth a constant, or keys turning a door: those are settled here without the full
    weighing, each door's turn weighed once (`_toggle_score`; a Skeleton Key costs 1 more)."""
    my_idx, lead_idx, near, doors = plan.on_path, plan.on_lead_path, plan.near, plan.doors
    turns: dict[int, float] = {}
    out: list[float] = []
    append = out.append
    for move in moves:
        kind, target = move[5], move[2]
        if kind <= TURN_SKELETON:
            turn = turns.get(target)
            if turn is None:  # a door off both routes: closing costs a card, opening shows a face
                if target in my_idx or target in lead_idx:
                    turn = _toggle_score(plan, target)
                else:
                    turn = -3.0 if doors[target][OPEN] else -0.5
                turns[target] = turn
            append(turn - 1.0 if kind == TURN_SKELETON else turn)
        elif kind == PASSAGE and target not in near and move[3] not in near:
            append(-1.0)
        elif kind == LOCK and target not in my_idx and target not in lead_idx:
            append(-2.0)
        else:
            append(_score(plan, move))
    return out


def _score(plan: Plan, move: Move) -> float:
    """A heuristic value of a play or Extra Key action (`parsed`): my progress, the leader's
    delay, card cost."""
    verb, card, target, second, _, _ = move
    my_idx, lead_idx = plan.on_path, plan.on_lead_path
    if verb == "discard":
        return -0.3 - _card_value(plan, card) / 3.0
    if verb == "bonus":
        return 0.0 if card == "skip" else _toggle_score(plan, target)
    if card == "skeleton":  # unlock (a key or a Skeleton Key turning a door: `_scores`)
        if target in my_idx:
            return 9.0 - 2.0 * my_idx[target]
        return -4.0 if target in lead_idx else -1.5
    if card == "padlock":
        if target in my_idx:
            return -6.0  # a padlock blocks its owner too
        if target in lead_idx:
            i = lead_idx[target]
            base = (9.0 + plan.urgency if plan.threat else 2.5) - 1.5 * i
            return _effective(plan, base, target, 5.0)
        return -2.0
    if card == "hacksaw":
        if target in my_idx:
            return 11.0 - 2.0 * my_idx[target]
        return -3.0 if target in lead_idx else 0.0
    if card == "passage":
        return _passage_score(plan, target, second)
    if card == "net":
        return 9.0 + plan.urgency if plan.board.occ[target] == plan.lead and plan.threat else 0.5
    raise AssertionError(move)


def _effective(plan: Plan, base: float, target: int, extra: float) -> float:
    """Scale a block's value by how much it really delays the leader (a detour may cost nothing)."""
    if base <= 0 or plan.on_lead_path[target] > 3:
        return base
    delay = plan.lead_delay(target, extra)
    if delay < 0.05:
        return -2.0
    return base if delay >= FULL_DELAY else base * delay / FULL_DELAY


def _toggle_score(plan: Plan, target: int) -> float:
    """Opening or closing door `target` with a key or the Extra Key (a Skeleton Key costs 1 more)."""
    my_idx, lead_idx = plan.on_path, plan.on_lead_path
    if not plan.doors[target][OPEN]:
        if target in my_idx:
            s = 10.0 - 2.0 * my_idx[target]
        else:
            s = -0.5
            if lead_idx.get(target, 99) < 4:
                s -= 2.0
    elif target in my_idx:
        s = -6.0
    elif target in lead_idx:
        base = (8.0 + plan.urgency if plan.threat else 1.5) - 1.5 * lead_idx[target]
        s = _effective(plan, base, target, 1.0)
    else:
        s = -3.0
    return s


def _card_value(plan: Plan, card: str) -> float:
    """What keeping a card is worth, to choose which to discard."""
    doors = plan.doors
    if card == "skeleton":
        return 3.0
    if card in KEY_CARDS:
        colour = card[4:]
        soon = [t for t in plan.path[:4] if not doors[t][OPEN]]
        return 3.0 if any(doors[t][COLOUR] == colour for t in soon) else 1.0
    if card == "hacksaw":
        return 3.0 if any(doors[t][FACE] == "barred" for t in plan.path) else 1.5
    return {"padlock": 1.5, "net": 2.0, "passage": 1.0}.get(card, 1.0)


def _passage_score(plan: Plan, a: int, b: int) -> float:
    """Worth laying only next to me or my next steps, by the turns it saves on my route."""
    near = plan.near
    if a not in near and b not in near:
        return -1.0
    if plan.forward is None:  # a passage reached at my D or more shortens nothing
        plan.forward = plan.board.dist_from(plan.seat, plan.me, plan.cost, limit=plan.d)
    f, c, dist = plan.forward, plan.cost, plan.dist
    through = min(f[a] + c[b] + dist[b], f[b] + c[a] + dist[a])
    return 3.0 * (plan.d - min(plan.d, through)) - 0.5


def play(game: Any, state: Any, seat: int, prompt: Prompt, rng: Rng) -> str:
    """This policy's action for `seat`, from its seat's view alone (as `decide` gives the smart AI)."""
    return choose(view_from_view(game.view(state, seat), seat, "smart", prompt), prompt, rng)

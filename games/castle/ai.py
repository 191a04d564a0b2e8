"""AI players for Keys to the Castle, deciding from one seat's view and prompt alone.

"random" picks uniformly among the legal choices. "smart" plans a route with a reverse Dijkstra
(distance-to-goal for every tile, where closed or barred doors cost extra turns), then scores each
legal choice: open or saw the doors on its own route, shortcut with passages, and block the
opponent closest to winning (close or padlock the door ahead of them, net them). The view holds
only what the seat may know: revealed faces, the board, and its own hand.
"""
from __future__ import annotations

import heapq
from typing import Any

from games.core import Prompt, Rng

from .engine import KEY_CARDS, OPPOSITE, geometry

INF = float("inf")
OUTSIDE_STEP = 1.0  # moving out of the castle takes a turn


class Board:
    """A compact, read-only picture of the castle for planning, built from a seat's view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.rows, self.cols = view["rows"], view["cols"]
        self.n = self.rows * self.cols
        self.geo = geometry(self.rows, self.cols)
        self.tiles = view["tiles"]
        self.players = view["players"]
        adj = list(self.geo.adj)
        for a, b in ((self.geo.index[x], self.geo.index[y]) for x, y in view["passages"]):
            adj[a] = adj[a] + (b,)
            adj[b] = adj[b] + (a,)
        self.adj = adj
        self.occ = {i: t["occupant"] for i, t in enumerate(self.tiles) if t["occupant"] is not None}

    def node(self, seat: int) -> int:
        pos = self.players[seat]["pos"]
        return self.n if pos is None else self.geo.index[pos]

    def costs(self, seat: int, hand: list[str] | None) -> list[float]:
        """Rough turns to step onto each tile, seen by `seat` (hand None: an opponent's unknown hand)."""
        keys = set() if hand is None else {c[4:] for c in hand if c in KEY_CARDS}
        skel = hand is not None and "skeleton" in hand
        saw = hand is not None and "hacksaw" in hand
        saw_cost = 1.0 if saw else 6.0
        out = []
        for i, t in enumerate(self.tiles):
            if t["open"]:
                if t["face"] == "barred" and not t["hacksaw"]:
                    cost = 1.0 + saw_cost
                else:
                    cost = 1.0
            else:
                if hand is None:
                    open_cost = 1.0
                else:
                    open_cost = 0.3 if (skel or t["colour"] in keys) else 1.5
                cost = 1.0 + open_cost
                if t["face"] is not None:
                    if t["face"] == "barred":
                        cost += saw_cost
                else:
                    cost += 1.0  # one closed door in five hides bars
            if t["padlock"]:  # a padlock blocks the door until a Skeleton Key removes it
                cost += 2.0 if skel else 5.0
            who = self.occ.get(i)
            if who is not None and who != seat:
                cost += 4.0 if self.players[who]["netted"] else 2.0
            out.append(cost)
        return out

    def dist_to_goal(self, seat: int, cost: list[float]) -> list[float]:
        """D[node]: cost still to pay from node (tiles 0..n-1, n = outside on own side)."""
        side = self.players[seat]["side"]
        n = self.n
        dist = [INF] * (n + 1)
        heap = []
        for i in self.geo.edge[OPPOSITE[side]]:
            dist[i] = 0.0
            heap.append((0.0, i))
        heapq.heapify(heap)
        own_edge = self.geo.edge[side]
        own = self.geo.edge_set[side]
        adj = self.adj
        while heap:
            dv, v = heapq.heappop(heap)
            if dv > dist[v]:
                continue
            if v == n:
                preds: Any = own_edge
                nd = dv + OUTSIDE_STEP
            else:
                preds = adj[v] + (n,) if v in own else adj[v]
                nd = dv + cost[v]
            if nd == INF:
                continue
            for u in preds:
                if nd < dist[u]:
                    dist[u] = nd
                    heapq.heappush(heap, (nd, u))
        return dist

    def dist_from(self, seat: int, start: int, cost: list[float]) -> list[float]:
        """F[node]: cost paid to get from `start` onto node (the mirror of dist_to_goal).

        With both, a new Secret Passage a-b is judged without another search: the best route
        through it costs F[a] + cost[b] + D[b] (or the reverse).
        """
        side = self.players[seat]["side"]
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
        """Tiles along the best route from `start` (excluding it), nearest first."""
        side = self.players[seat]["side"]
        own_edge = self.geo.edge[side]
        own = self.geo.edge_set[side]
        out: list[int] = []
        cur = start
        for _ in range(self.n + 2):
            if dist[cur] == 0 or dist[cur] == INF:
                break
            if cur == self.n:
                opts = [(cost[u] + dist[u], u) for u in own_edge]
            else:
                opts = [(cost[u] + dist[u], u) for u in self.adj[cur]]
                if cur in own:
                    opts.append((OUTSIDE_STEP + dist[self.n], self.n))
            best = min(opts)
            if best[0] == INF:
                break
            cur = best[1]
            if cur != self.n:
                out.append(cur)
        return out


def choose(view: dict[str, Any], prompt: Prompt, rng: Rng, level: str = "smart") -> str:
    choices = prompt.choices
    if level == "random" or len(choices) == 1:
        return rng.choice(choices).action
    return _smart(view, prompt.seat, [c.action for c in choices], rng)


def _smart(view: dict[str, Any], seat: int, actions: list[str], rng: Rng) -> str:
    board = Board(view)
    hand = view["hand"]
    my_cost = board.costs(seat, hand)
    my_dist = board.dist_to_goal(seat, my_cost)
    me = board.node(seat)
    my_d = my_dist[me]
    index = board.geo.typed
    tiles = board.tiles

    if view["phase"] == "move":
        best: list[str] = []
        best_v = INF
        used = set(board.players[seat]["bonuses_used"])
        for a in actions:
            if a == "stay":
                v = my_d
            elif a == "move out":
                v = my_dist[board.n] + 0.5
            else:
                c = a.split()[1]
                target = index[c]
                v = my_dist[target]
                face = tiles[target]["face"]
                if v > 0 and c not in used:
                    if face == "extra_turn":
                        v -= 2.5
                    elif face == "extra_key":
                        v -= 1.0
            if v < best_v - 1e-9:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return rng.choice(best)

    my_path = board.path(seat, me, my_cost, my_dist)
    my_idx = {t: i for i, t in enumerate(my_path)}
    lead, lead_d, lead_path = None, INF, []
    for o in range(len(board.players)):
        if o == seat:
            continue
        oc = board.costs(o, None)
        od = board.dist_to_goal(o, oc)
        on = board.node(o)
        if od[on] < lead_d or lead is None:
            lead, lead_d, lead_path = o, od[on], board.path(o, on, oc, od)
    lead_idx = {t: i for i, t in enumerate(lead_path)}
    threat = lead_d <= my_d or lead_d <= 3.5
    urgency = 3.0 if lead_d <= 3.5 else 0.0

    def toggle_score(target: int, skeleton: bool) -> float:
        t = tiles[target]
        if not t["open"]:
            if target in my_idx:
                s = 10.0 - 2.0 * my_idx[target]
            else:
                s = -0.5
                if lead_idx.get(target, 99) < 4:
                    s -= 2.0
        else:
            if target in my_idx:
                s = -6.0
            elif target in lead_idx:
                s = (8.0 + urgency if threat else 1.5) - 1.5 * lead_idx[target]
            else:
                s = -3.0
        return s - (1.0 if skeleton else 0.0)

    def card_value(card: str) -> float:
        if card == "skeleton":
            return 3.0
        if card in KEY_CARDS:
            colour = card[4:]
            soon = [t for t in my_path[:4] if not tiles[t]["open"]]
            return 3.0 if any(tiles[t]["colour"] == colour for t in soon) else 1.0
        if card == "hacksaw":
            return 3.0 if any(tiles[t]["face"] == "barred" for t in my_path) else 1.5
        return {"padlock": 1.5, "net": 2.0, "passage": 1.0}.get(card, 1.0)

    passage_ok = {me} | set(my_path[:2])
    my_from: list[float] | None = None  # forward distances, computed once if a passage needs them
    scored: list[tuple[float, str]] = []
    for a in actions:
        parts = a.split()
        if parts[0] == "discard":
            s = -0.3 - card_value(parts[1]) / 3.0
        elif parts[0] == "bonus":
            s = 0.0 if parts[1] == "skip" else toggle_score(index[parts[1]], False)
        else:
            card = parts[1]
            target = index[parts[2]]
            t = tiles[target]
            if card in KEY_CARDS or (card == "skeleton" and len(parts) == 3):
                s = toggle_score(target, card == "skeleton")
            elif card == "skeleton":  # unlock
                if target in my_idx:
                    s = 9.0 - 2.0 * my_idx[target]
                elif target in lead_idx:
                    s = -4.0
                else:
                    s = -1.5
            elif card == "padlock":
                if target in lead_idx and target not in my_idx:
                    i = lead_idx[target]
                    s = ((9.0 + urgency if threat else 2.5) if not t["open"] else
                         (1.0 if threat else 0.0)) - 1.5 * i
                elif target in my_idx and t["open"]:
                    s = 0.5
                else:
                    s = -2.0
            elif card == "hacksaw":
                s = 11.0 - 2.0 * my_idx[target] if target in my_idx else (-3.0 if target in lead_idx else 0.0)
            elif card == "passage":
                other = index[parts[3]]
                if target in passage_ok or other in passage_ok:
                    if my_from is None:
                        my_from = board.dist_from(seat, me, my_cost)
                    through = min(my_from[target] + my_cost[other] + my_dist[other],
                                  my_from[other] + my_cost[target] + my_dist[target])
                    gain = my_d - min(my_d, through)
                    s = 3.0 * gain - 0.5
                else:
                    s = -1.0
            elif card == "net":
                victim = board.occ[target]
                if victim == lead and threat:
                    s = 9.0 + urgency
                else:
                    s = 0.5
            else:  # pragma: no cover
                s = -10.0
        scored.append((s, a))
    top = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s >= top - 1e-9])

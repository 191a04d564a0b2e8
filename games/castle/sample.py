"""Keys to the Castle as its seat may imagine it: one complete state consistent with a seat's view,
for the hard AI's search (`games.core.search`).

The view shows the board's colours, the faces of revealed doors, every card on the castle, each
hand's size, the piles' sizes and the discard's top card. The rest is drawn at random: the faces of
unrevealed doors and the spare tiles from the tiles of their colour not yet seen, the others'
hands, the draw pile and the discard below its top from the cards the seat cannot place; the hand
of the player whose last step the view shows, in proportion to how likely that step was with it
(`belief.py`: the smart policy would have stepped elsewhere, or won, with some hands).
Public history the view leaves out (the door each player last stepped out by) is taken as none.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.core import Rng, State
from games.core.search import searcher

from .belief import Belief, last_step
from .engine import all_tiles, full_deck
from .evaluate import HORIZON, evaluate


HANDS = 12  # hands dealt for the opponent whose last step is seen, one kept by its likelihood


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    tiles, unused = _tiles(view, rng)
    hands, draw, discard = _cards(view, seat, rng)
    players = [{"side": pl["side"], "pos": pl["pos"], "hand": hands[s], "netted": pl["netted"],
                "bonuses_used": list(pl["bonuses_used"]), "left_by": None}
               for s, pl in enumerate(view["players"])]
    data = {"rows": view["rows"], "cols": view["cols"], "tiles": tiles, "unused": unused,
            "passages": [list(pair) for pair in view["passages"]], "players": players,
            "draw": draw, "discard": discard, "current": view["current"], "phase": view["phase"],
            "last": None if view["last"] is None else {"seat": view["last"]["seat"],
                                                       "tiles": list(view["last"]["tiles"])},
            "winner": view["winner"]}
    return State(game="castle", seats=len(players), seed=0, options={}, rng=rng.next64(),
                 turn=view["turn"], data=data)


def _tiles(view: dict[str, Any], rng: Rng) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The board's tiles, unrevealed faces drawn from their colour's unseen ones, and the spares."""
    unseen: dict[str, list[str]] = {}
    for tile in all_tiles():
        unseen.setdefault(tile["colour"], []).append(tile["face"])
    for tile in view["tiles"]:
        if tile["face"] is not None:
            unseen[tile["colour"]].remove(tile["face"])
    for faces in unseen.values():
        rng.shuffle(faces)
    tiles = []
    for tile in view["tiles"]:
        face = tile["face"] if tile["face"] is not None else unseen[tile["colour"]].pop()
        tiles.append({"colour": tile["colour"], "face": face, "open": tile["open"],
                      "revealed": tile["face"] is not None, "padlock": tile["padlock"],
                      "hacksaw": tile["hacksaw"]})
    spares = [{"colour": colour, "face": face} for colour, faces in unseen.items() for face in faces]
    return tiles, spares


def _cards(view: dict[str, Any], seat: int, rng: Rng) -> tuple[list[list[str]], list[str], list[str]]:
    """Every hand (the seat's own as it is), the draw pile and the discard pile, the cards the
    seat cannot place shuffled among the others' hands, the draw and the discard below its top."""
    unknown = Counter(full_deck())
    unknown.subtract(view["hand"])
    unknown["padlock"] -= sum(t["padlock"] for t in view["tiles"])
    unknown["hacksaw"] -= sum(t["hacksaw"] for t in view["tiles"])
    unknown["passage"] -= len(view["passages"])
    unknown["net"] -= sum(1 for pl in view["players"] if pl["netted"] > 0)
    top = view["discard_top"]
    if top is not None:
        unknown[top] -= 1
    pool = sorted(unknown.elements())
    rng.shuffle(pool)
    belief = _belief(view, seat)
    hands = []
    for s, pl in enumerate(view["players"]):
        if s == seat:
            hands.append(list(view["hand"]))
        elif belief is not None and s == belief.opponent:
            hands.append(_likely_hand(pool, pl["hand_size"], belief, rng))
        else:
            hands.append(_take(pool, pl["hand_size"], rng))
    draw = _take(pool, view["draw_pile"], rng)
    discard = _take(pool, max(view["discard_count"] - 1, 0), rng) + ([top] if top is not None else [])
    return hands, draw, discard


def _likely_hand(pool: list[str], n: int, belief: Belief, rng: Rng) -> list[str]:
    """`n` cards off the shuffled pool for the opponent whose last step `belief` saw: of HANDS
    hands dealt from it, one drawn in proportion to how likely that step was with it (sampling
    importance resampling), its cards taken off the pool."""
    count = min(HANDS, len(pool) // n) if n else 0
    if count < 2:
        return _take(pool, n, rng)
    chosen = rng.weighted([belief.weight(pool[i * n:(i + 1) * n]) for i in range(count)])
    hand = pool[chosen * n:(chosen + 1) * n]
    del pool[chosen * n:(chosen + 1) * n]
    return hand


def _belief(view: dict[str, Any], seat: int) -> Belief | None:
    """The opponent's last step as `belief.last_step` reads it, worked out once per view: the
    search samples the same view again and again (held here with the view it came from)."""
    global _LAST
    if _LAST is None or _LAST[0] is not view or _LAST[1] != seat:
        _LAST = (view, seat, last_step(view, seat))
    return _LAST[2]


_LAST: tuple[dict[str, Any], int, Belief | None] | None = None


def _take(pool: list[str], n: int, rng: Rng) -> list[str]:
    """`n` cards off the shuffled pool; should it run short (a count the view cannot explain),
    the rest are drawn from a fresh deck."""
    out = [pool.pop() for _ in range(min(n, len(pool)))]
    deck = full_deck()
    out += [deck[rng.below(len(deck))] for _ in range(n - len(out))]
    return out


search = searcher(sample, evaluate, HORIZON)

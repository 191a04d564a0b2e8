"""Don't Go In There as its seat may imagine it: one complete state consistent with a seat's view,
for the hard AI's search (`games.core.search`).

The view shows the rooms' face-up cards, every held card, the deck's size and the seat's own
ghosts. Drawn at random: which card types the game left out (among those nobody has seen), the
deck's order, the cards removed at setup and a face-down Secret Passage card the seat has not
peeked at, from the ids of the types in play not seen; the others' ghosts (a few either side of
the seat's own, as the dice hand them out to everyone alike) and the tokens they are paid in.
A queued decision (a dispel, a cat to save) is not in the view: the search then leaves the
choice to the smart policy (its sample asks another question, so it is not used).
"""
from __future__ import annotations

from typing import Any

from games.core import Rng, State
from games.core.search import searcher

from .engine import CARD_TYPES, SETUP, TOKENS, TYPE_CARDS, TYPES, give_ghosts

GHOST_SPREAD = 3  # the others' ghosts are drawn within this many of the seat's own


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    seats = len(view["players"])
    rooms, hidden_slot = _rooms(view, seat)
    deck, removed, unused, secret = _unseen_cards(view, seats, hidden_slot is not None, rng)
    if hidden_slot is not None:
        rooms[hidden_slot]["cards"][2] = secret
    d: dict[str, Any] = {
        "deck": deck, "removed": removed, "unused": unused, "rooms": rooms, "pool": dict(TOKENS),
        "players": [{"meeples": pl["meeples"], "tokens": {"1": 0, "2": 0, "5": 0, "sub": 0},
                     "cards": [{"id": c["id"], "dispelled": c["dispelled"], "used": c["used"]}
                               for c in pl["cards"]]} for pl in view["players"]],
        "current": view["current"], "active": view["current"], "phase": view["phase"],
        "res": None,
        "dice": None if view["dice"] is None else dict(view["dice"], faces=list(view["dice"]["faces"])),
        "pending": [], "ending": False, "clocks": view["clocks"],
        "last": None if view["last"] is None else dict(view["last"]), "scores": None, "winners": None,
    }
    if d["dice"] is not None and view["phase"] in ("reroll", "change", "pick"):
        d["res"] = {"slot": d["dice"]["slot"], "seat": view["current"], "stage": view["phase"]}
    own = view["players"][seat]["ghosts"] or 0
    for s in range(seats):
        k = own if s == seat else max(0, own + rng.randint(-GHOST_SPREAD, GHOST_SPREAD))
        give_ghosts(d, s, k)
    return State(game="dontgo", seats=seats, seed=0, options={}, rng=rng.next64(),
                 turn=view["turn"], data=d)


def _rooms(view: dict[str, Any], seat: int) -> tuple[list[dict[str, Any]], int | None]:
    """The rooms as the state holds them, and the slot whose face-down card is to be drawn."""
    secret = view.get("secret")
    rooms, hidden_slot = [], None
    for room in view["rooms"]:
        cards = [c.get("id") for c in room["cards"]]
        hidden = any(c.get("hidden") for c in room["cards"])
        seen: list[int] = []
        if hidden:
            if secret is not None and secret["slot"] == room["slot"]:
                cards[2], seen = secret["card"]["id"], [seat]
            else:
                hidden_slot = room["slot"]
        rooms.append({"side": room["side"], "removed": room["removed"],
                      "spaces": [space["meeple"] for space in room["spaces"]], "cards": cards,
                      "hidden": hidden, "seen": seen,
                      "lib": None if room["lib"] is None else list(room["lib"])})
    return rooms, hidden_slot


def _unseen_cards(view: dict[str, Any], seats: int, draw_secret: bool,
                  rng: Rng) -> tuple[list[int], list[int], list[int], int | None]:
    """The deck, the removed cards, the unused types' cards and the face-down card, from the
    types in play (those seen, and others drawn at random up to the game's number)."""
    seen = {c["id"] for room in view["rooms"] for c in room["cards"] if "id" in c}
    seen |= {c["id"] for pl in view["players"] for c in pl["cards"]}
    if view.get("secret"):
        seen.add(view["secret"]["card"]["id"])
    n_types, n_removed = SETUP[seats]
    known = {CARD_TYPES[cid] for cid in seen}
    others = [t for t in TYPES if t not in known]
    rng.shuffle(others)
    chosen = known | set(others[:max(n_types - len(known), 0)])
    unseen = [cid for t in TYPES if t in chosen for cid in TYPE_CARDS[t] if cid not in seen]
    rng.shuffle(unseen)
    secret = unseen.pop() if draw_secret and unseen else None
    deck = [unseen.pop() for _ in range(min(view["deck"], len(unseen)))]
    removed = sorted(unseen[:n_removed])
    unused = [cid for t in TYPES if t not in chosen for cid in TYPE_CARDS[t]]
    return deck, removed, unused, secret


search = searcher(sample)

"""Keys to the Castle: the pure rules engine.

State lives in `state.data` (JSON-native):

    rows, cols         board size
    tiles              row-major list of {"colour", "face", "open", "revealed", "padlock", "hacksaw"}
                       ("face" is the hidden open side: open | barred | extra_key | extra_turn)
    unused             tiles left out of the game (hidden, never shown)
    passages           [["B2", "C3"], ...] each pair sorted
    players            [{"side", "pos", "hand", "netted", "bonuses_used", "left_by"}]
                       (left_by: the door last stepped out by, barred to the next re-entry)
    draw, discard      card names; the end of each list is its top
    current, phase     whose turn and which step: play | move | bonus | over
    last, winner       last action's seat and touched tiles; the winning seat

Actions are canonical strings; see `parse` for the grammar.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable

from data import load_toml
from data.locales import Msg
from games.core import Choice, Event, Game, IllegalAction, Prompt, Rng, State, Step

from .words import edge_name, lines, say

CONFIG: dict[str, Any] = load_toml("castle", "castle.toml")

DOOR_COLOURS: tuple[str, ...] = tuple(CONFIG["door_colours"])
FACES = ("open", "barred", "extra_key", "extra_turn")
RULES = CONFIG["rules"]
NET_TURNS: int = RULES["net_turns"]
MAX_TURNS: int = RULES["max_turns"]
HAND: int = RULES["hand"]
# House rule (seat balance), per player count and seat: doors on the seat's own edge that start
# open (picked at random, face shown).
OPEN_DOORS: dict[int, list[int]] = {int(n): doors for n, doors in CONFIG["seat_balance"]["open_doors"].items()}

KEY_CARDS = tuple(f"key-{c}" for c in DOOR_COLOURS)
CARD_ORDER = KEY_CARDS + ("skeleton", "padlock", "hacksaw", "passage", "net")
CARD_LABELS = {card: say(f"card.{card}") for card in CARD_ORDER}  # "Red Key"
A_CARD = {card: say(f"a_card.{card}") for card in CARD_ORDER}  # "a Red Key"
OPPOSITE = {"S": "N", "N": "S", "W": "E", "E": "W"}
TOGGLERS = KEY_CARDS + ("skeleton",)  # cards that open or close a door
SKELETON_USES = {use: say(f"step.skeleton.{use}") for use in ("open", "close", "unlock")}
MAX_SEATS = max(map(int, CONFIG["boards"]))  # nets name their victim: one label per seat
MOVE_OUT = Choice("move out", (Step("out", say("step.out")),))
STAY = Choice("stay", (Step("stay", say("step.stay")),))
STAY_NETTED = Choice("stay", (Step("stay", say("step.stay_netted")),))
BONUS_SKIP = Choice("bonus skip", (Step("skip", say("step.skip")),))
SYNTAX = say("refuse.syntax")
PLAY_A_CARD = say("prompt.play")
MOVE = say("prompt.move")
EXTRA_KEY = say("prompt.bonus")
SHUFFLED = Event(say("event.shuffled"))
YOU_DREW = {card: say("event.you_drew", card=A_CARD[card]) for card in CARD_ORDER}
GAME_OVER = say("refuse.over")


def full_deck() -> list[str]:
    cards = CONFIG["cards"]
    deck = [k for k in KEY_CARDS for _ in range(cards["keys_per_colour"])]
    for name in ("skeleton", "padlock", "passage", "hacksaw", "net"):
        deck += [name] * cards[name]
    return deck


def all_tiles() -> list[dict[str, Any]]:
    return [{"colour": colour, "face": face}
            for colour in DOOR_COLOURS for face in FACES for _ in range(CONFIG["tiles"][face])]


def board_for(seats: int) -> dict[str, Any]:
    return CONFIG["boards"][str(seats)]


def a_card(card: str) -> Msg:
    """A card with its article, as a sentence names it ("You drew a Red Key.")."""
    return A_CARD[card]


def drawn_this_turn(d: dict[str, Any], seat: int) -> str | None:
    """The card `seat` drew as its turn began, while no card of that turn is played yet: the
    newest in its hand (`_draw` appends it), if a card was drawn (some were left to draw: with
    both piles empty now, the hand may hold no new card, and nothing is claimed)."""
    hand = d["players"][seat]["hand"]
    if d["current"] != seat or d["phase"] != "play" or not hand \
            or not (d["draw"] or d["discard"]):
        return None
    return hand[-1]


def p(seat: int) -> str:
    return "{p%d}" % seat


# ---------------------------------------------------------------- coordinates and geometry

def coord(rc: tuple[int, int] | int, cols: int | None = None) -> str:
    if isinstance(rc, int):
        assert cols is not None
        rc = divmod(rc, cols)
    r, c = rc
    return f"{chr(65 + c)}{r + 1}"


class Geometry:
    """Everything about a rows x cols castle that never changes, computed once per size.

    Legal-move generation runs for every prompt; recomputing tile names, neighbours and edges
    there dominated self-play time.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.n = rows, cols, rows * cols
        self.names = tuple(coord(i, cols) for i in range(self.n))
        self.row = tuple(i // cols for i in range(self.n))
        self.col = tuple(i % cols for i in range(self.n))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.typed = {**self.index, **{name.lower(): i for name, i in self.index.items()}}
        self.adj = tuple(tuple(self._neighbours(i)) for i in range(self.n))
        self.adj_sorted = tuple(tuple(sorted(a)) for a in self.adj)
        self.edge = {side: tuple(i for i in range(self.n) if self._on_edge(side, i))
                     for side in OPPOSITE}
        self.edge_set = {side: frozenset(tiles) for side, tiles in self.edge.items()}
        # Diagonal pairs in prompt order: (first, second) names sorted, and the crossing pair.
        self.diagonals: list[tuple[tuple[str, str], tuple[str, str]]] = []
        for i in range(self.n):
            r, c = divmod(i, cols)
            for dc in (-1, 1):
                if r + 1 < rows and 0 <= c + dc < cols:
                    pair = tuple(sorted((self.names[i], coord((r + 1, c + dc), cols))))
                    cross = tuple(sorted((coord((r, c + dc), cols), coord((r + 1, c), cols))))
                    self.diagonals.append((pair, cross))
        self._build_choices()

    def _build_choices(self) -> None:
        """Every prompt Choice a castle of this size can offer, made once: they are immutable."""
        def two(action: str, card: str, key: str, label: Msg) -> Choice:
            return Choice(action, (Step(card, CARD_LABELS[card]), Step(key, label)))

        def skeleton(action: str, use: str, key: str, label: str) -> Choice:
            """A Skeleton Key can open, close or unlock any door: what it does first, then
            which door ("A1"), so a player reads a few short lists rather than one of forty
            doors, and a button "Skeleton Key → Close a door → A1" stays short."""
            return Choice(action, (Step("skeleton", CARD_LABELS["skeleton"]),
                                   Step(use, SKELETON_USES[use]), Step(key, label)))

        plays: dict[tuple[str, int, str], Choice] = {}
        self.moves: list[Choice] = []
        self.bonus: dict[tuple[int, str], Choice] = {}
        for i, c in enumerate(self.names):
            for verb in ("Open", "Close"):
                turned = say(f"step.{verb.lower()}", tile=c)  # "Open C3"
                self.bonus[i, verb] = Choice(f"bonus {c}", (Step(c, turned),))
                for card in KEY_CARDS:
                    plays[card, i, verb] = two(f"play {card} {c}", card, c, turned)
                plays["skeleton", i, verb] = skeleton(f"play skeleton {c}", verb.lower(), c, c)
            plays["skeleton", i, "unlock"] = skeleton(f"play skeleton {c} unlock", "unlock", f"{c} unlock", c)
            for card in ("padlock", "hacksaw"):
                plays[card, i, ""] = two(f"play {card} {c}", card, c, say(f"step.{card}", tile=c))
            for seat in range(MAX_SEATS):
                plays["net", i, p(seat)] = two(f"play net {c}", "net", c, say("step.net", tile=c, who=p(seat)))
            self.moves.append(Choice(f"move {c}", (Step(c, say("step.move", tile=c)),)))
        self.plays = plays
        # The same Choices by tile (a tuple index per tile, not a key per choice): legal_plays
        # lists dozens of them per prompt.
        tiles = range(self.n)
        self.toggle_plays = {(card, verb): tuple(plays[card, i, verb] for i in tiles)
                             for card in TOGGLERS for verb in ("Open", "Close")}
        self.unlock_plays = tuple(plays["skeleton", i, "unlock"] for i in tiles)
        self.tile_plays = {card: tuple(plays[card, i, ""] for i in tiles) for card in ("padlock", "hacksaw")}
        self.passages = [two(f"play passage {a} {b}", "passage", f"{a} {b}", say("step.passage", a=a, b=b))
                         for (a, b), _ in self.diagonals]
        discard = say("step.discard")
        self.discards = {card: two(f"discard {card}", card, "discard", discard) for card in CARD_ORDER}

    def _on_edge(self, side: str, idx: int) -> bool:
        r, c = divmod(idx, self.cols)
        return {"S": r == self.rows - 1, "N": r == 0, "W": c == 0, "E": c == self.cols - 1}[side]

    def _neighbours(self, idx: int) -> list[int]:
        r, c = divmod(idx, self.cols)
        return [rr * self.cols + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < self.rows and 0 <= cc < self.cols]


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)


COORD = re.compile(r"([A-Z])([0-9]{1,3})", re.ASCII)


def shown(text: str, limit: int = 30) -> str:
    """Typed text quoted back in a refusal, cut short so junk can't flood the reply."""
    return text if len(text) <= limit else text[:limit] + "…"


def parse_coord(text: str, rows: int, cols: int) -> int:
    """Tile index of `text` ("C3", any case) or IllegalAction naming the valid range.

    Only ASCII letters and digits count: "A²" or "A２" pass str.isdigit but are not coordinates.
    """
    idx = geometry(rows, cols).typed.get(text)
    if idx is not None:
        return idx
    match = COORD.fullmatch(text.strip().upper())
    if match:
        c, r = ord(match[1]) - 65, int(match[2]) - 1
        if 0 <= c < cols and 0 <= r < rows:
            return r * cols + c
    raise IllegalAction(say("refuse.not_a_tile", typed=shown(text), last_column=chr(64 + cols), rows=rows))


def on_edge(side: str, idx: int, rows: int, cols: int) -> bool:
    return idx in geometry(rows, cols).edge_set[side]


def passage_links(d: dict[str, Any], idx: int) -> list[int]:
    g = geometry(d["rows"], d["cols"])
    here = g.names[idx]
    out = []
    for a, b in d["passages"]:
        if a == here:
            out.append(g.index[b])
        elif b == here:
            out.append(g.index[a])
    return out


def door_seen(t: dict[str, Any]) -> tuple[Any, ...]:
    """A door as the compact view has it: (colour, open, face if revealed else None, padlock, hacksaw)."""
    return (t["colour"], t["open"], t["face"] if t["revealed"] else None, t["padlock"], t["hacksaw"])


def passable(tile: dict[str, Any]) -> bool:
    """A character may step onto this door: open, not barred (unless sawn), not padlocked."""
    return tile["open"] and not tile["padlock"] and (tile["face"] != "barred" or tile["hacksaw"])


def occupants(d: dict[str, Any]) -> dict[int, int]:
    """Tile index -> seat standing there."""
    index = geometry(d["rows"], d["cols"]).index
    return {index[pl["pos"]]: seat for seat, pl in enumerate(d["players"]) if pl["pos"] is not None}


def toggle_verbs(tiles: list[dict[str, Any]], occ: dict[int, int]) -> list[str | None]:
    """Per tile, "Open" or "Close" if a key of its colour may turn it now, else None.

    The colour-free part of `toggle_error`, for all tiles at once.
    """
    out: list[str | None] = []
    for i, t in enumerate(tiles):
        if t["padlock"] or (t["open"] and (t["hacksaw"] or i in occ)):
            out.append(None)
        else:
            out.append("Close" if t["open"] else "Open")
    return out


# ---------------------------------------------------------------- legality checks (reason or None)

def toggle_error(d: dict[str, Any], seat: int, idx: int, key_colour: str | None) -> Msg | None:
    """Why `seat` can't open/close a door with a key of `key_colour` (None = any colour)."""
    t = d["tiles"][idx]
    c = coord(idx, d["cols"])
    if key_colour is not None and t["colour"] != key_colour:
        return say("refuse.wrong_colour", tile=c, colour=say(f"colour.{t['colour']}"),
                   key=A_CARD[f"key-{t['colour']}"])
    if t["padlock"]:
        return say("refuse.padlocked_door", tile=c)
    if t["open"]:
        if t["hacksaw"]:
            return say("refuse.sawn_stays_open", tile=c)
        who = occupants(d).get(idx)
        if who is not None:
            return say("refuse.stood_on_you" if who == seat else "refuse.stood_on", tile=c)
    return None


def play_error(d: dict[str, Any], seat: int, card: str, args: list[Any]) -> Msg | None:
    cols = d["cols"]
    if card in KEY_CARDS:
        return toggle_error(d, seat, args[0], card[4:])
    if card == "skeleton":
        if len(args) == 2:  # unlock
            if not d["tiles"][args[0]]["padlock"]:
                return say("refuse.no_padlock", tile=coord(args[0], cols))
            return None
        return toggle_error(d, seat, args[0], None)
    if card == "padlock":
        if d["tiles"][args[0]]["padlock"]:
            return say("refuse.padlocked_already", tile=coord(args[0], cols))
        return None
    if card == "hacksaw":
        t, c = d["tiles"][args[0]], coord(args[0], cols)
        if not t["open"]:
            return say("refuse.saw_closed", tile=c)
        if t["face"] != "barred":
            return say("refuse.saw_not_barred", tile=c)
        if t["hacksaw"]:
            return say("refuse.saw_sawn", tile=c)
        if t["padlock"]:
            return say("refuse.saw_padlocked", tile=c)
        return None
    if card == "passage":
        a, b = args
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        ca_, cb_ = coord(a, cols), coord(b, cols)
        if abs(ra - rb) != 1 or abs(ca - cb) != 1:
            return say("refuse.passage_not_diagonal", a=ca_, b=cb_)
        pair = sorted((ca_, cb_))
        cross = sorted((coord((ra, cb), cols), coord((rb, ca), cols)))  # the other diagonal
        for existing in d["passages"]:
            if existing == pair:
                return say("refuse.passage_there", a=pair[0], b=pair[1])
            if existing == cross:
                return say("refuse.passage_crossed", a=cross[0], b=cross[1])
        return None
    if card == "net":
        occ = occupants(d).get(args[0])
        c = coord(args[0], cols)
        if occ is None:
            return say("refuse.net_nobody", tile=c)
        if occ == seat:
            return say("refuse.net_yourself")
        if d["players"][occ]["netted"] > 0:
            return say("refuse.net_netted", tile=c)
        return None
    raise AssertionError(card)


def move_error(d: dict[str, Any], seat: int, target: int | None) -> Msg | None:
    """Why `seat` can't move to tile `target` (None = move out)."""
    rows, cols = d["rows"], d["cols"]
    pl = d["players"][seat]
    if pl["netted"] > 0:
        return say("refuse.netted", count=pl["netted"])
    side = pl["side"]
    here = None if pl["pos"] is None else parse_coord(pl["pos"], rows, cols)
    if target is None:
        if here is None:
            return say("refuse.outside_already")
        if not on_edge(side, here, rows, cols):
            return say("refuse.out_off_edge", edge=edge_name(side, rows, cols))
        return None
    c = coord(target, cols)
    if here is None:
        if not on_edge(side, target, rows, cols):
            return say("refuse.enter_off_edge", edge=edge_name(side, rows, cols), tile=c)
        if c == pl["left_by"]:
            return say("refuse.left_by", tile=c)
    elif target == here:
        return say("refuse.there_already")
    elif target not in geometry(rows, cols).adj[here] and target not in passage_links(d, here):
        return say("refuse.not_next", tile=c)
    t = d["tiles"][target]
    if t["padlock"]:
        return say("refuse.move_padlocked", tile=c)
    if not t["open"]:
        return say("refuse.move_closed", tile=c, key=A_CARD[f"key-{t['colour']}"])
    if not passable(t):
        return say("refuse.move_barred", tile=c)
    if target in occupants(d):
        return say("refuse.move_taken", tile=c)
    return None


# ---------------------------------------------------------------- parsing

def parse(action: str, d: dict[str, Any]) -> tuple[str, Any]:
    """(kind, payload) for an action string; IllegalAction with the expected syntax otherwise.

    kinds: ("play", (card, args)), ("discard", card), ("bonus", idx|None), ("move", idx|None),
    ("stay", None).
    """
    rows, cols = d["rows"], d["cols"]
    tokens = action.lower().split()
    if not tokens:
        raise IllegalAction(say("refuse.empty", syntax=SYNTAX))
    verb, rest = tokens[0], tokens[1:]
    if verb == "stay" and not rest:
        return "stay", None
    if verb == "move" and len(rest) == 1:
        return "move", None if rest[0] == "out" else parse_coord(rest[0], rows, cols)
    if verb == "bonus" and len(rest) == 1:
        return "bonus", None if rest[0] == "skip" else parse_coord(rest[0], rows, cols)
    if verb == "discard" and len(rest) == 1:
        if rest[0] not in CARD_LABELS:
            raise IllegalAction(say("refuse.not_a_card", typed=shown(rest[0]), cards=", ".join(CARD_ORDER)))
        return "discard", rest[0]
    if verb == "play" and rest:
        card, args = rest[0], rest[1:]
        if card not in CARD_LABELS:
            raise IllegalAction(say("refuse.not_a_card", typed=shown(card), cards=", ".join(CARD_ORDER)))
        if card == "passage":
            if len(args) != 2:
                raise IllegalAction(say("refuse.passage_two_tiles"))
            a, b = (parse_coord(x, rows, cols) for x in args)
            a, b = sorted((a, b), key=lambda i: coord(i, cols))
            return "play", (card, [a, b])
        if card == "skeleton" and len(args) == 2 and args[1] == "unlock":
            return "play", (card, [parse_coord(args[0], rows, cols), "unlock"])
        if len(args) != 1:
            one = "refuse.one_tile_skeleton" if card == "skeleton" else "refuse.one_tile"
            raise IllegalAction(say(one, card=A_CARD[card], typed=f"play {card} C3"))
        return "play", (card, [parse_coord(args[0], rows, cols)])
    raise IllegalAction(say("refuse.not_understood", typed=shown(action.strip()), syntax=SYNTAX))


def canonical(kind: str, payload: Any, cols: int) -> str:
    if kind == "stay":
        return "stay"
    if kind == "move":
        return "move out" if payload is None else f"move {coord(payload, cols)}"
    if kind == "bonus":
        return "bonus skip" if payload is None else f"bonus {coord(payload, cols)}"
    if kind == "discard":
        return f"discard {payload}"
    card, args = payload
    parts = ["play", card] + [a if isinstance(a, str) else coord(a, cols) for a in args]
    return " ".join(parts)


# ---------------------------------------------------------------- saved games

def upgrade_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: players gain `left_by` (no door left yet: an old game's player who is
    outside may come back in anywhere on their edge)."""
    return {**data, "players": [{**pl, "left_by": None} for pl in data["players"]]}


# ---------------------------------------------------------------- the game

class CastleGame(Game):
    name = "castle"
    ai = "games.castle.ai:choose"
    ai_view_from_view = "games.castle.ai:view_from_view"
    easy = "games.castle.easy:choose"
    renderer = "render.castle:render_castle"
    describer = "render.words.castle:describe"
    panel_text = "render.words.castle:panel"
    warm_up = "render.castle:warm_up"
    rules_page = ("data", "castle/rules.md")
    searcher = "games.castle.sample:search"
    title = "Keys to the Castle"
    pitch = "Race across a castle of hidden doors, opening a way for yourself and locking out everyone else."
    min_seats = 2
    max_seats = 4
    colours = ("red", "blue", "green", "yellow")
    to_move_acts_first = True  # only the current seat is ever prompted
    state_format = 2
    upgrades = {1: upgrade_1}
    verbs = {"play": "card and target, e.g. key-red C3", "discard": "the card to throw away",
             "move": "a tile such as C4, or out", "stay": "", "bonus": "a door such as C3, or skip"}
    colour_rgb = ((220, 40, 40), (40, 100, 230), (30, 160, 70), (240, 200, 20))

    # ------------------------------------------------------------ setup
    def setup_data(self, state: State, rng: Rng) -> None:
        board = board_for(state.seats)
        rows, cols = board["rows"], board["cols"]
        tiles = all_tiles()
        rng.shuffle(tiles)
        n = rows * cols
        deck = full_deck()
        rng.shuffle(deck)
        players = []
        for seat in range(state.seats):
            hand = [deck.pop() for _ in range(HAND)]
            players.append({"side": board["sides"][seat], "pos": None, "hand": hand, "netted": 0,
                            "bonuses_used": [], "left_by": None})
        state.data = {
            "rows": rows, "cols": cols,
            "tiles": [{"colour": t["colour"], "face": t["face"], "open": False, "revealed": False,
                       "padlock": False, "hacksaw": False} for t in tiles[:n]],
            "unused": tiles[n:],
            "passages": [],
            "players": players,
            "draw": deck, "discard": [],
            "current": RULES["first_seat"], "phase": "play", "last": None, "winner": None,
        }
        g = geometry(rows, cols)
        for seat, doors in enumerate(OPEN_DOORS[state.seats]):
            closed = list(g.edge[players[seat]["side"]])  # every door is closed so far
            for _ in range(doors):
                tile = state.data["tiles"][closed.pop(rng.below(len(closed)))]
                tile["open"] = tile["revealed"] = True
        state.turn = 1
        self._draw(state, rng, [])

    # ------------------------------------------------------------ turn machinery
    def _draw(self, state: State, rng: Rng, events: list[Event]) -> None:
        d = state.data
        seat = d["current"]
        if not d["draw"] and d["discard"]:
            d["draw"], d["discard"] = d["discard"], []
            rng.shuffle(d["draw"])
            events.append(SHUFFLED)
        if d["draw"]:
            card = d["draw"].pop()
            d["players"][seat]["hand"].append(card)
            events.append(Event(say("event.draws", who=p(seat))))
            events.append(Event(YOU_DREW[card], to=(seat,), kind="private"))
        if not d["players"][seat]["hand"]:
            d["phase"] = "move"
            events.append(Event(say("event.no_card", who=p(seat))))
        else:
            d["phase"] = "play"

    def _end_turn(self, state: State, rng: Rng, events: list[Event], extra: bool = False) -> None:
        d = state.data
        seat = d["current"]
        pl = d["players"][seat]
        if pl["netted"] > 0:
            pl["netted"] -= 1
            if pl["netted"] == 0:
                d["discard"].append("net")
                events.append(Event(say("event.net_off", who=p(seat))))
        if state.turn >= MAX_TURNS:
            state.over = True
            state.result = {"winners": [], "scores": None,
                            "reason": say("result.nobody_through", count=MAX_TURNS).stored()}
            d["current"], d["phase"] = None, "over"
            events.append(Event(say("event.castle_wins", count=MAX_TURNS), kind="end"))
            return
        nxt = seat if extra else (seat + 1) % state.seats
        state.turn += 1
        d["current"] = nxt
        if extra:
            events.append(Event(say("event.extra_turn", who=p(seat))))
        self._draw(state, rng, events)

    # ------------------------------------------------------------ reduce
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        if state.over or d["phase"] == "over":
            raise IllegalAction(GAME_OVER)
        if seat != d["current"]:
            raise IllegalAction(say("refuse.not_your_turn", who=p(d["current"])))
        kind, payload = parse(action, d)
        phase = d["phase"]
        if phase == "play" and kind not in ("play", "discard"):
            raise IllegalAction(say("refuse.card_first"))
        if phase == "move" and kind not in ("move", "stay"):
            raise IllegalAction(say("refuse.card_played"))
        if phase == "bonus" and kind != "bonus":
            raise IllegalAction(say("refuse.bonus_first"))
        events: list[Event] = []
        memo, self._doors_memo = self._doors_memo, None  # a refused action leaves no memo behind
        if kind in ("play", "discard"):
            self._play(state, seat, kind, payload, events)
            d["phase"] = "move"
        elif kind == "bonus":
            self._bonus(state, seat, payload, events)
            self._end_turn(state, rng, events)
        else:
            self._move(state, seat, kind, payload, rng, events)
        if memo is not None and memo[0] is d["tiles"] and memo[1] == state.version:
            self._carry_doors(d, memo[2], state.version + 1)
        return events

    def _take(self, d: dict[str, Any], seat: int, card: str) -> None:
        hand = d["players"][seat]["hand"]
        if card not in hand:
            raise IllegalAction(say("refuse.not_in_hand", card=CARD_LABELS[card]))
        hand.remove(card)

    def _play(self, state: State, seat: int, kind: str, payload: Any, events: list[Event]) -> None:
        d = state.data
        cols = d["cols"]
        who = p(seat)
        if kind == "discard":
            self._take(d, seat, payload)
            d["discard"].append(payload)
            d["last"] = {"seat": seat, "tiles": []}
            events.append(Event(say("event.discarded", who=who, card=A_CARD[payload])))
            return
        card, args = payload
        if card not in d["players"][seat]["hand"]:
            raise IllegalAction(say("refuse.not_in_hand", card=CARD_LABELS[card]))
        reason = play_error(d, seat, card, args)
        if reason:
            raise IllegalAction(reason)
        self._take(d, seat, card)
        idx = args[0]
        c = coord(idx, cols)
        tile = d["tiles"][idx]
        touched = [c]
        if card in KEY_CARDS or card == "skeleton":
            if len(args) == 2:
                tile["padlock"] = False
                d["discard"] += ["skeleton", "padlock"]
                events.append(Event(say("event.unlocked", who=who, tile=c)))
            else:
                d["discard"].append(card)
                events.append(Event(self._toggle(d, idx, say("event.played", who=who, card=A_CARD[card]))))
        elif card == "padlock":
            tile["padlock"] = True
            stays = "open" if tile["open"] else "closed"
            events.append(Event(say(f"event.padlocked_{stays}", who=who, tile=c)))
        elif card == "hacksaw":
            tile["hacksaw"] = True
            events.append(Event(say("event.sawn", who=who, tile=c)))
        elif card == "passage":
            pair = sorted(coord(a, cols) for a in args)
            d["passages"].append(pair)
            touched = pair
            events.append(Event(say("event.passage", who=who, a=pair[0], b=pair[1])))
        elif card == "net":
            victim = occupants(d)[idx]
            d["players"][victim]["netted"] = NET_TURNS
            events.append(Event(say("event.netted", who=who, victim=p(victim), tile=c, count=NET_TURNS)))
        d["last"] = {"seat": seat, "tiles": touched}

    def _toggle(self, d: dict[str, Any], idx: int, by: Msg) -> Msg:
        """Open or close the door, and say so: `by` is who did it with what ("Ana played a Red
        Key"); a face shown for the first time is told with an exclamation."""
        tile = d["tiles"][idx]
        c = coord(idx, d["cols"])
        if tile["open"]:
            tile["open"] = False
            return say("event.closed", by=by, tile=c)
        tile["open"] = True
        first = not tile["revealed"] and tile["face"] != "open"
        tile["revealed"] = True
        return say(f"event.opened.{tile['face']}{'.first' if first else ''}", by=by, tile=c)

    def _bonus(self, state: State, seat: int, target: int | None, events: list[Event]) -> None:
        d = state.data
        if target is None:
            d["last"] = {"seat": seat, "tiles": []}
            events.append(Event(say("event.bonus_skipped", who=p(seat))))
            return
        reason = toggle_error(d, seat, target, None)
        if reason:
            raise IllegalAction(reason)
        events.append(Event(self._toggle(d, target, say("event.used_extra_key", who=p(seat)))))
        d["last"] = {"seat": seat, "tiles": [coord(target, d["cols"])]}

    def _move(self, state: State, seat: int, kind: str, target: int | None, rng: Rng,
              events: list[Event]) -> None:
        d = state.data
        rows, cols = d["rows"], d["cols"]
        pl = d["players"][seat]
        who = p(seat)
        if kind == "stay":
            d["last"] = {"seat": seat, "tiles": []}
            if pl["netted"] > 0:
                events.append(Event(say("event.stays_netted", who=who)))
            else:
                events.append(Event(say("event.stays", who=who)))
            self._end_turn(state, rng, events)
            return
        reason = move_error(d, seat, target)
        if reason:
            raise IllegalAction(reason)
        here = pl["pos"]
        if target is None:
            pl["pos"], pl["left_by"] = None, here
            d["last"] = {"seat": seat, "tiles": [here]}
            events.append(Event(say("event.out", who=who, tile=here)))
            self._end_turn(state, rng, events)
            return
        g = geometry(rows, cols)
        c = g.names[target]
        if here is None:
            pl["left_by"] = None
            events.append(Event(say("event.entered", who=who, tile=c)))
        elif target in g.adj[g.index[here]]:
            events.append(Event(say("event.moved", who=who, tile=c)))
        else:
            events.append(Event(say("event.through_passage", who=who, tile=c)))
        pl["pos"] = c
        d["last"] = {"seat": seat, "tiles": [x for x in (here, c) if x]}
        if on_edge(OPPOSITE[pl["side"]], target, rows, cols):
            state.over = True
            state.result = {"winners": [seat], "scores": None,
                            "reason": say("result.through", tile=c).stored()}
            d["winner"], d["current"], d["phase"] = seat, None, "over"
            events.append(Event(say("event.wins", who=who, tile=c), kind="end"))
            return
        face = d["tiles"][target]["face"]
        if face in ("extra_key", "extra_turn") and c not in pl["bonuses_used"]:
            pl["bonuses_used"].append(c)
            if face == "extra_key":
                d["phase"] = "bonus"
                events.append(Event(say("event.found_extra_key", who=who, tile=c)))
                return
            events.append(Event(say("event.found_extra_turn", who=who, tile=c)))
            self._end_turn(state, rng, events, extra=True)
            return
        self._end_turn(state, rng, events)

    # ------------------------------------------------------------ prompts
    def legal_plays(self, d: dict[str, Any], seat: int) -> list[Choice]:
        """Every card play, then its discard, in card order and tile order (as play_error judges)."""
        g = geometry(d["rows"], d["cols"])
        tiles, plays = d["tiles"], g.plays
        held = set(d["players"][seat]["hand"])
        occ = occupants(d)
        verbs = toggle_verbs(tiles, occ) if not held.isdisjoint(TOGGLERS) else []
        turnable = [(i, verb, tiles[i]["colour"]) for i, verb in enumerate(verbs) if verb]
        choices: list[Choice] = []
        for card in CARD_ORDER:
            if card not in held:
                continue
            if card in KEY_CARDS:
                colour = card[4:]
                opens, closes = g.toggle_plays[card, "Open"], g.toggle_plays[card, "Close"]
                choices += [opens[i] if verb == "Open" else closes[i]
                            for i, verb, c in turnable if c == colour]
            elif card == "skeleton":
                opens, closes = g.toggle_plays[card, "Open"], g.toggle_plays[card, "Close"]
                unlocks = g.unlock_plays
                for i, verb in enumerate(verbs):
                    if verb is None:
                        if tiles[i]["padlock"]:
                            choices.append(unlocks[i])
                    else:
                        choices.append(opens[i] if verb == "Open" else closes[i])
            elif card == "padlock":
                locks = g.tile_plays[card]
                choices += [locks[i] for i, t in enumerate(tiles) if not t["padlock"]]
            elif card == "hacksaw":
                saws = g.tile_plays[card]
                choices += [saws[i] for i, t in enumerate(tiles)
                            if t["open"] and t["face"] == "barred" and not t["hacksaw"] and not t["padlock"]]
            elif card == "passage":
                if d["passages"]:
                    laid = {tuple(pair) for pair in d["passages"]}
                    choices += [choice for choice, (pair, cross) in zip(g.passages, g.diagonals)
                                if pair not in laid and cross not in laid]
                else:  # every corner is free
                    choices += g.passages
            elif card == "net":
                choices += [plays[card, i, p(who)] for i, who in sorted(occ.items())
                            if who != seat and d["players"][who]["netted"] == 0]
            choices.append(g.discards[card])
        return choices

    def legal_moves(self, d: dict[str, Any], seat: int) -> list[Choice]:
        """Steps onto passable, empty doors (as move_error judges), moving out, staying."""
        g = geometry(d["rows"], d["cols"])
        pl = d["players"][seat]
        if pl["netted"] > 0:
            return [STAY_NETTED]
        occ = occupants(d)
        tiles = d["tiles"]
        if pl["pos"] is None:
            left_by = pl["left_by"]
            cands: Iterable[int] = g.edge[pl["side"]]
            if left_by is not None:  # not back in by the door just left
                cands = [i for i in cands if g.names[i] != left_by]
        else:
            here = g.index[pl["pos"]]
            cands = sorted({*g.adj[here], *passage_links(d, here)}) if d["passages"] else g.adj_sorted[here]
        choices = [g.moves[i] for i in cands if i not in occ and passable(tiles[i])]
        if pl["pos"] is not None and here in g.edge_set[pl["side"]]:
            choices.append(MOVE_OUT)
        choices.append(STAY)
        return choices

    def legal_bonus(self, d: dict[str, Any], seat: int) -> list[Choice]:
        g = geometry(d["rows"], d["cols"])
        verbs = toggle_verbs(d["tiles"], occupants(d))
        return [g.bonus[i, verb] for i, verb in enumerate(verbs) if verb] + [BONUS_SKIP]

    def prompt(self, state: State, seat: int) -> Prompt | None:
        d = state.data
        if state.over or d["current"] != seat:
            return None
        if d["phase"] == "play":
            return Prompt(seat, PLAY_A_CARD, self.legal_plays(d, seat), private=True)
        if d["phase"] == "move":
            return Prompt(seat, MOVE, self.legal_moves(d, seat))
        if d["phase"] == "bonus":
            return Prompt(seat, EXTRA_KEY, self.legal_bonus(d, seat))
        return None

    # ------------------------------------------------------------ view
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.data
        rows, cols = d["rows"], d["cols"]
        g = geometry(rows, cols)
        occupant: list[int | None] = [None] * g.n
        net: list[int | None] = [None] * g.n
        for s, pl in enumerate(d["players"]):
            if pl["pos"] is not None:
                occupant[g.index[pl["pos"]]] = s
                if pl["netted"] > 0:
                    net[g.index[pl["pos"]]] = s
        names, row, col = g.names, g.row, g.col
        tiles = [{"coord": names[i], "row": row[i], "col": col[i], "colour": t["colour"],
                  "open": t["open"], "face": t["face"] if t["revealed"] else None,
                  "padlock": t["padlock"], "hacksaw": t["hacksaw"], "net": net[i],
                  "occupant": occupant[i]} for i, t in enumerate(d["tiles"])]
        players = [{"seat": s, "colour": self.colours[s], "side": pl["side"], "pos": pl["pos"],
                    "hand_size": len(pl["hand"]), "netted": pl["netted"],
                    "bonuses_used": list(pl["bonuses_used"])} for s, pl in enumerate(d["players"])]
        out: dict[str, Any] = {
            "game": "castle", "rows": rows, "cols": cols, "tiles": tiles,
            "passages": [list(x) for x in d["passages"]], "players": players,
            "current": None if state.over else d["current"],
            "phase": "over" if state.over else d["phase"], "turn": state.turn,
            "draw_pile": len(d["draw"]), "discard_top": d["discard"][-1] if d["discard"] else None,
            "discard_count": len(d["discard"]),
            "last": None if d["last"] is None else {"seat": d["last"]["seat"],
                                                     "tiles": list(d["last"]["tiles"])},
            "winner": d["winner"],
        }
        if seat is not None:
            out["hand"] = list(d["players"][seat]["hand"])
        return out

    def ai_view(self, state: State, seat: int, level: str, prompt: Prompt) -> dict[str, Any]:
        """The random AI, or any with one choice, reads only its prompt; the smart one, its seat's
        compact view (`ai.compact_view`: doors and seats as tuples), built here from the state."""
        if level == "random" or len(prompt.choices) == 1:
            return {}
        d = state.data
        return {"rows": d["rows"], "cols": d["cols"], "phase": d["phase"],
                "hand": list(d["players"][seat]["hand"]), "passages": [list(x) for x in d["passages"]],
                "doors": list(self._doors(state)),
                "seats": [(pl["side"], pl["pos"], pl["netted"], tuple(pl["bonuses_used"]))
                          for pl in d["players"]]}

    # The compact doors of one state's tiles at one version: (tiles, version, doors). Rebuilding
    # them from the tile dicts was ~3% of smart self-play; `reduce` carries them to the next
    # version by redoing only the tiles the action touched (its "last" tiles). Code that changes
    # a state's tiles other than through `reduce` must change its version too (apply and advance do).
    _doors_memo: tuple[list[dict[str, Any]], int, list[tuple[Any, ...]]] | None = None

    def _doors(self, state: State) -> list[tuple[Any, ...]]:
        """Each door as the smart AI sees it: (colour, open, face if revealed, padlock, hacksaw)."""
        tiles = state.data["tiles"]
        memo = self._doors_memo
        if memo is not None and memo[0] is tiles and memo[1] == state.version:
            return memo[2]
        doors = [door_seen(t) for t in tiles]
        self._doors_memo = (tiles, state.version, doors)
        return doors

    def _carry_doors(self, d: dict[str, Any], doors: list[tuple[Any, ...]], version: int) -> None:
        """Bring `_doors`' list up to date after an action (every tile a card, the Extra Key or a
        move changes is among the action's "last" tiles) and keep it for `version`."""
        tiles, index = d["tiles"], geometry(d["rows"], d["cols"]).index
        for name in d["last"]["tiles"]:
            i = index[name]
            doors[i] = door_seen(tiles[i])
        self._doors_memo = (tiles, version, doors)

    def opening(self, state: State) -> list[Msg]:
        """This table's house rules (castle.toml): the doors that start open for seat balance,
        the spare tiles a smaller castle leaves out, the turn limit."""
        opened = [(seat, doors) for seat, doors in enumerate(OPEN_DOORS[state.seats]) if doors]
        said = []
        if opened:
            (first, doors), others = opened[0], opened[1:]
            more = tuple(say("opening.seat_balance.other", who=p(s), count=n) for s, n in others)
            said.append(say("opening.seat_balance.more", who=p(first), count=doors, others=more) if more
                        else say("opening.seat_balance", who=p(first), count=doors))
        board = board_for(state.seats)
        spare = len(all_tiles()) - board["rows"] * board["cols"]
        if spare:
            said.append(say("opening.spare_tiles", cols=board["cols"], rows=board["rows"], count=spare))
        said.append(say("opening.turn_limit", count=MAX_TURNS))
        return said

    def private_text(self, state: State, seat: int) -> Msg:
        """Where the seat stands, its hand, and while its turn's card is still to play the card
        it drew for that turn (its "Take my turn" panel opens on this: the draw is told there,
        not by DM)."""
        d = state.data
        pl = d["players"][seat]
        cards = sorted(pl["hand"], key=CARD_ORDER.index)
        colour = say(f"colour.{self.colours[seat]}")
        where = say("private.on", colour=colour, tile=pl["pos"]) if pl["pos"] else \
            say("private.outside", colour=colour, edge=edge_name(pl["side"], d["rows"], d["cols"]))
        if pl["netted"]:
            where = say("private.netted", where=where, count=pl["netted"])
        hand = say("private.hand", count=len(cards), cards=tuple(CARD_LABELS[c] for c in cards)) \
            if cards else say("private.no_cards")
        drawn = drawn_this_turn(d, seat)
        if drawn is None:
            return lines(where, hand)
        return lines(where, hand, say("private.drawn", card=A_CARD[drawn]))

    # ------------------------------------------------------------ helpers for the bot
    def canonical(self, state: State, action: str) -> str:
        """The canonical spelling of `action` (raises IllegalAction if it is ill-formed)."""
        kind, payload = parse(action, state.data)
        return canonical(kind, payload, state.data["cols"])

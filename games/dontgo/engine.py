"""Don't Go In There: the pure rules engine.

State lives in `state.data` (JSON-native):

    deck               card ids, face down; the end of the list is the top
    removed, unused    ids taken out unseen at setup / ids of card types not in this game
    rooms              3 slots {"side", "removed", "spaces": [seat|None], "cards": [ids],
                       "hidden": bool (3rd card face down), "seen": [seats], "lib": [left, right]|None}
    pool               ghost-token pile {"1", "2", "5"} -> count
    players            [{"meeples", "tokens": {"1", "2", "5", "sub"}, "cards": [{"id", "dispelled", "used"}]}]
    current, phase     who must act and what: place | reroll | change | pick | choose | over
    active             whose turn it is (holds the planchette while a room resolves)
    res                the room being resolved {"slot", "seat", "stage"} or None
    dice               the current/last roll {"slot", "faces", "rerolled", "changed"} or None
    pending            queued decisions [{"seat", "kind": dispel|save|tome, "type", "count"}]
    ending             True once every room is gone (game-end effects are being applied)
    clocks             the seat that claimed the clocks effect, or None
    last               the last move's seat and room {"seat", "slot"} (the board frames that room)
    scores, winners

Cards are ints 0-95; `CARDS[id]` holds their printed values (data/dontgo/dontgo.toml).
Actions are canonical strings; see `parse` for the grammar.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from data import load_toml
from data.locales import Msg
from games.core import Choice, Event, Game, IllegalAction, Prompt, Rng, State, Step

from .words import counted, lines, refusal, room_name as room_word, say, type_name

CONFIG: dict[str, Any] = load_toml("dontgo", "dontgo.toml")

TYPES: tuple[str, ...] = tuple(CONFIG["type_order"])
TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
SETUP = {int(k): tuple(v) for k, v in CONFIG["setup"].items() if k.isdigit()}
MEEPLES: int = CONFIG["setup"]["meeples"]
FIRST_SEAT: int = CONFIG["setup"]["first_seat"]
# House rule (seat balance): curses taken off each seat's score at the end, per player count.
SEAT_BONUS: dict[int, list[float]] = {int(n): b for n, b in CONFIG["seat_balance"]["bonus"].items()}
TOKENS = {k: int(v) for k, v in CONFIG["ghosts"]["tokens"].items()}
TOKEN_VALUE = sum(int(k) * v for k, v in TOKENS.items())
DIE: tuple[int, ...] = tuple(CONFIG["ghosts"]["die"])
CAT_LIMIT: int = CONFIG["ghosts"]["cat_limit"]
SETS = CONFIG["sets"]
BOARDS: tuple[tuple[str, str], ...] = tuple(tuple(b["sides"]) for b in CONFIG["boards"])
ROOMS = CONFIG["rooms"]
ROOM_SLOTS = {name: slot for slot, sides in enumerate(BOARDS) for name in sides}  # each room has one
ROOM_LABELS = {k: v["label"] for k, v in ROOMS.items()}
ROOM_ALIASES = {"secretpassage": "secret", "secret-passage": "secret", "passage": "secret",
                "secret_passage": "secret"}
TYPE_ALIASES = {"music": "musicbox", "music-box": "musicbox", "music_box": "musicbox",
                "holy": "holywater", "holy-water": "holywater", "holy_water": "holywater",
                "clock": "clocks", "amulets": "amulet", "mirrors": "mirror", "cats": "cat",
                "portraits": "portrait", "dolls": "doll", "rings": "ring", "tomes": "tome",
                "masks": "mask", "twins": "twin", "musicboxes": "musicbox"}


def _cards() -> list[dict[str, Any]]:
    out = []
    for t in TYPES:
        spec = CONFIG["types"][t]
        for i in range(8):
            out.append({"id": len(out), "type": t, "curse": spec["curse"][i], "dice": spec["dice"][i],
                        "amulet": spec["amulet"][i] if "amulet" in spec else None})
    return out


CARDS: list[dict[str, Any]] = _cards()
# What a face-up card shows, shared by views (copied there) and messages.
CARD_VIEWS: tuple[dict[str, Any], ...] = tuple(
    {"id": c["id"], "type": c["type"], "curse": c["curse"], "dice": c["dice"], "amulet": c["amulet"]}
    for c in CARDS)
# A held card as views show it, by (id, dispelled, used): templates to copy, not to hand out.
HELD_VIEWS: dict[tuple[int, bool, bool], dict[str, Any]] = {
    (cid, down, used): {**CARD_VIEWS[cid], "dispelled": down, "used": used}
    for cid in range(len(CARDS)) for down in (False, True) for used in (False, True)}
# A face-up card in a room, as views show it (a template to copy).
ROOM_CARD_VIEWS: tuple[dict[str, Any], ...] = tuple({**v, "hidden": False} for v in CARD_VIEWS)
CURSES: tuple[int, ...] = tuple(c["curse"] for c in CARDS)
CARD_TYPES: tuple[str, ...] = tuple(c["type"] for c in CARDS)
DICE: tuple[int, ...] = tuple(c["dice"] for c in CARDS)
AMULETS: tuple[int | None, ...] = tuple(c["amulet"] for c in CARDS)
TYPE_CARDS = {t: tuple(c["id"] for c in CARDS if c["type"] == t) for t in TYPES}  # ids, ascending
# The card types whose taking has an effect at once (the others act at the end, or not at all).
IMMEDIATE = frozenset({"mirror", "ring", "twin", "doll", "clocks", "holywater", "tome", "mask"})
PAIRED = ("holywater", "tome")  # the types whose cards are used up in pairs (a card's "used")
# How many cards are in play (held, in the deck or in a room) all game, by number of seats.
IN_PLAY = {seats: n_types * len(TYPE_CARDS[TYPES[0]]) - n_removed
           for seats, (n_types, n_removed) in SETUP.items()}
ID_TUPLES = tuple((cid,) for cid in range(len(CARDS)))  # (cid,) for every card, made once
SYNTAX = say("refusal.syntax")


# How texts name a seat ("{p0}"): the bot puts each player's name in its place.
SEAT_TAGS: tuple[str, ...] = tuple("{p%d}" % seat for seat in range(5))
p = SEAT_TAGS.__getitem__  # p(seat), a table look-up: texts name seats on every move


def _card_text(cid: int) -> Msg:
    """A card in a sentence: "Mirror (2 curses, 1 die)", an amulet with the value it names:
    "Amulet (1 curse, 2 dice, names 3)"."""
    c = CARDS[cid]
    worded = {"type": type_name(c["type"]), "curses": counted("curse", c["curse"]),
              "dice": counted("die", c["dice"])}
    if c["amulet"] is not None:
        return Msg("game.dontgo.card.amulet", value=c["amulet"], **worded)
    return Msg("game.dontgo.card", **worded)


def card_label(cid: int) -> Msg:
    """A card as a button names it, shorter than `card_text`: "Mirror (2 curses, 1 die)", an
    amulet with the value it names as its card shows it: "Amulet 3 (1 curse, 2 dice)"."""
    c = CARDS[cid]
    if c["amulet"] is not None:
        return Msg("game.dontgo.card.amulet_label", type=type_name(c["type"]), value=c["amulet"],
                   details=_card_details(cid))
    return Msg("game.dontgo.card.label", type=type_name(c["type"]), details=_card_details(cid))


def _card_details(cid: int) -> Msg:
    """A card's curses and dice as a button says them: "2 curses, 1 die" (a language whose
    word for curses is long shortens it there, to fit a phone's button)."""
    c = CARDS[cid]
    return say("card.details", curses=counted("curse_short", c["curse"]), dice=counted("die", c["dice"]))


CARD_TEXTS: tuple[Msg, ...] = tuple(_card_text(c["id"]) for c in CARDS)


# The events that come back all game are made once and shared (Events are read-only values).

@lru_cache(maxsize=None)
def public_event(name: str, **params: Any) -> Event:
    """The public event saying message `name`: its parameters are seats' tags, card texts and
    small numbers, so each one recurs from game to game."""
    return Event(Msg("game.dontgo." + name, **params))


@lru_cache(maxsize=None)
def private_event(seat: int, name: str, **params: Any) -> Event:
    """`public_event`, seen by `seat` alone."""
    return Event(Msg("game.dontgo." + name, **params), to=(seat,), kind="private")


def told(name: str, **params: Any) -> Event:
    """The public event saying message `name`, made anew: its parameters are messages (a card,
    a count), which a cache would hash at a greater cost than making the event."""
    return Event(Msg("game.dontgo." + name, **params))


def told_to(seat: int, name: str, **params: Any) -> Event:
    """`told`, seen by `seat` alone."""
    return Event(Msg("game.dontgo." + name, **params), to=(seat,), kind="private")


@lru_cache(maxsize=None)
def mask_events(seat: int, right: int, n: int, k: int) -> tuple[Event, ...]:
    """`seat`, holding `n` masks, passing `k` ghosts to `right`."""
    out = (public_event("event.mask", who=p(seat), masks=counted("mask", n),
                        ghosts=counted("ghost", n), right=p(right)),
           private_event(seat, "event.mask_you_pass", ghosts=counted("ghost", k), right=p(right)))
    if right != seat:
        out += (private_event(right, "event.mask_passed_you", who=p(seat), ghosts=counted("ghost", k)),)
    return out


# A seat's private word on a discard it owed, by seat and ghosts discarded (0/1).
DISCARDS = tuple((private_event(seat, "event.discarded_none"), private_event(seat, "event.discarded_one"))
                 for seat in range(5))
FACE_DOWN = say("event.face_down")  # the Secret Passage's third card, as a new room is laid out
# the result's words, kept in the JSON state as stored messages (read in each reader's language)
FEWEST_CURSES = say("result.fewest_curses").stored()
SCORE_HEADER = [say(f"score.{column}").stored()
                for column in ("curses", "ghosts", "penalty", "bonus", "total")]


@lru_cache(maxsize=None)
def haunt_event(seat: int, space: int, k: int) -> Event:
    """A haunting: `seat` takes `k` ghosts for its meeple on `space` (from 0)."""
    return public_event("event.haunt", who=p(seat), space=space + 1, ghosts=counted("ghost", k))


@lru_cache(maxsize=4096)
def roll_text(faces: tuple[int, ...]) -> Msg:
    """What a roll of the ghost dice says."""
    if not faces:
        return say("event.roll_none")
    return say("event.roll", dice=counted("ghost_die", len(faces)), faces=" ".join(map(str, faces)),
               ghosts=counted("ghost", sum(faces)))


@lru_cache(maxsize=4096)
def roll_event(faces: tuple[int, ...]) -> Event:
    """A roll of the ghost dice."""
    return Event(roll_text(faces))


@lru_cache(maxsize=None)
def resolve_event(seat: int, name: str) -> Event:
    """`seat` placing the third meeple in room `name`."""
    return public_event("event.resolve", who=p(seat), room=room_word(name))


COLOURS = ("red", "blue", "green", "yellow", "purple")  # the seats' colours, in seat order


def take_move(cid: int, seat: int) -> Event:
    """`seat` taking card `cid`."""
    return public_event("event.take", who=p(seat), card=CARD_TEXTS[cid])


TAKE_MOVES = tuple(tuple(take_move(cid, seat) for cid in range(len(CARDS))) for seat in range(len(COLOURS)))


def card_text(cid: int) -> Msg:
    return CARD_TEXTS[cid]


def room_name(d: dict[str, Any], slot: int) -> str:
    return BOARDS[slot][d["rooms"][slot]["side"]]


# ---------------------------------------------------------------- ghost tokens

def ghosts(pl: dict[str, Any]) -> int:
    t = pl["tokens"]
    return t["1"] + 2 * t["2"] + 5 * t["5"] + t["sub"]


def pool_value(d: dict[str, Any]) -> int:
    return sum(int(k) * v for k, v in d["pool"].items())


DENOMINATIONS = (("5", 5), ("2", 2), ("1", 1))  # ghost tokens, biggest first: (key, value)


def give_ghosts(d: dict[str, Any], seat: int, k: int) -> None:
    """Hand `k` ghosts from the pile, biggest tokens first; substitutes when the pile can't pay."""
    t, pool = d["players"][seat]["tokens"], d["pool"]
    for den, value in DENOMINATIONS:
        if value > k:  # none of these fits
            continue
        n = k // value  # as many as fit, if the pile has them (a test, cheaper than min())
        if n > pool[den]:
            n = pool[den]
        if n:
            pool[den] -= n
            t[den] += n
            k -= n * value
    if k:
        t["sub"] += k


def take_ghosts(d: dict[str, Any], seat: int, k: int) -> int:
    """Return up to `k` ghosts from `seat` to the pile (making change); the number removed."""
    pl = d["players"][seat]
    t, pool = pl["tokens"], d["pool"]
    held = ghosts(pl)
    if k > held:
        k = held
    if not k:  # nothing to return (often: a discard from an empty screen)
        return 0
    done = k
    s = t["sub"] if t["sub"] < k else k  # substitutes go back to the box first
    t["sub"] -= s
    k -= s
    for den, value in DENOMINATIONS:
        n = k // value
        if n > t[den]:
            n = t[den]
        if n:
            t[den] -= n
            pool[den] += n
            k -= n * value
    if k:
        den = next(x for x in ("1", "2", "5") if t[x] and int(x) > k)
        t[den] -= 1
        pool[den] += 1
        give_ghosts(d, seat, int(den) - k)
    return done


# ---------------------------------------------------------------- tableaux

def face_up(pl: dict[str, Any], ctype: str | None = None) -> list[dict[str, Any]]:
    if ctype is None:
        return [c for c in pl["cards"] if not c["dispelled"]]
    # The type first: it rules out most cards, where "dispelled" rules out few.
    return [c for c in pl["cards"] if CARD_TYPES[c["id"]] == ctype and not c["dispelled"]]


def curses(pl: dict[str, Any], ctype: str | None = None) -> int:
    """The curses on `pl`'s face-up cards (of type `ctype`): face_up's test, without its list."""
    if ctype is None:
        return sum([CURSES[c["id"]] for c in pl["cards"] if not c["dispelled"]])
    return sum([CURSES[c["id"]] for c in pl["cards"] if CARD_TYPES[c["id"]] == ctype and not c["dispelled"]])


def dispel(pl: dict[str, Any], ids: list[int]) -> None:
    for c in pl["cards"]:
        if c["id"] in ids:
            c["dispelled"] = True


def names(ids: list[int]) -> tuple[Msg, ...]:
    """Cards as a list in a sentence ("A, B and C", as the reader's language lists)."""
    return tuple(map(CARD_TEXTS.__getitem__, ids))


def doll_set(pl: dict[str, Any], new: int) -> list[int] | None:
    """The doll set (containing `new`) whose curses make exactly the target: most cards, then lowest ids."""
    others = [c["id"] for c in face_up(pl, "doll") if c["id"] != new]
    target = SETS["doll_sum"] - CARDS[new]["curse"]
    for size in range(len(others), -1, -1):
        for combo in combinations(sorted(others), size):
            if sum([CURSES[i] for i in combo]) == target:
                return sorted(list(combo) + [new])
    return None


# ---------------------------------------------------------------- parsing

MAX_NUMBER_DIGITS = 4  # no card, space, die or face number is longer


def number(token: str) -> int | None:
    """`token` as a number if it is plain ASCII digits of a sensible length, else None.

    str.isdigit accepts superscripts ("²") that int() rejects, and int() accepts other scripts'
    digits ("٣", "３"); typed moves take only the digits the buttons show.
    """
    if token.isascii() and token.isdigit() and len(token) <= MAX_NUMBER_DIGITS:
        return int(token)
    return None


def quoted(words: list[str]) -> str:
    """Typed words echoed back in a refusal, cut short so junk can't flood the channel."""
    text = " ".join(words)
    return text if len(text) <= 30 else text[:29] + "…"


@lru_cache(maxsize=4096)
def parse(action: str) -> tuple[str, Any]:
    """(kind, payload) for an action string; IllegalAction with the expected syntax otherwise.

    Cached: the same few dozen spellings come back all game (refusals are not cached), and
    payloads are immutable."""
    tokens = action.lower().replace(",", " ").split()
    if not tokens:
        raise refusal("refusal.empty", syntax=SYNTAX)
    verb, rest = tokens[0], tokens[1:]
    if verb in ("reroll", "re-roll", "keep") and not rest:
        return ("reroll" if verb != "keep" else "keep"), None
    if verb == "place" and rest:
        space = number(rest[-1])
        if space is None or len(rest) < 2:
            raise refusal("refusal.place_syntax")
        room = "".join(rest[:-1])
        room = ROOM_ALIASES.get(room, room)
        if room not in ROOMS:
            raise refusal("refusal.not_room", typed=quoted(rest[:-1]), rooms=", ".join(sorted(ROOMS)))
        return "place", (room, space)
    if verb == "change":
        nums = [number(x) for x in rest if x != "to"]
        if len(nums) == 2 and None not in nums:
            return "change", (nums[0], nums[1])
        raise refusal("refusal.change_syntax")
    if verb in ("pick", "dispel", "save"):
        n = number(rest[0]) if len(rest) == 1 else None
        if n is not None:
            return verb, n
        raise refusal(f"refusal.{verb}_syntax")
    if verb == "tome" and rest:
        t = "".join(rest)
        t = TYPE_ALIASES.get(t, t)
        if t not in TYPES:
            raise refusal("refusal.not_type", typed=quoted(rest), types=", ".join(TYPES))
        return "tome", t
    raise refusal("refusal.unknown", typed=quoted(tokens), syntax=SYNTAX)


def canonical(kind: str, payload: Any) -> str:
    if kind in ("reroll", "keep"):
        return kind
    if kind == "place":
        return f"place {payload[0]} {payload[1]}"
    if kind == "change":
        return f"change {payload[0]} to {payload[1]}"
    return f"{kind} {payload}"


# ---------------------------------------------------------------- choices
# Choices are frozen, so the ones whose labels never change are made once and shared.

@lru_cache(maxsize=None)
def place_choices(name: str) -> tuple[Choice, ...]:
    """A placement on each space of room `name`, top first: "Attic → 1 (2 flashlights)", the
    space by the number the board shows on it (what a space does besides, the prompt says:
    `place_notes`)."""
    rstep = Step(name, room_word(name))
    return tuple(Choice(f"place {name} {i + 1}", (rstep, Step(str(i + 1), say(
        "step.space", space=i + 1, lights=counted("flashlight", lights)))))
                 for i, lights in enumerate(ROOMS[name]["flashlights"]))


# The spaces that move a ghost when a meeple is placed on them (room -> space from the top, -1
# the bottom one), told in the placing prompt's text (message note.<room>).
GHOST_SPACES = {"attic": 1, "nursery": -1}
LIB_NOTES = ("library_left", "library_right")  # the Library's leftmost, rightmost card


def lib_notes(d: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """What the Library's outer cards do besides, for the picking prompt ("card 1 also gives you
    a ghost; card 3 discards one of yours"): each note and the card's place ( () elsewhere)."""
    room = d["rooms"][d["res"]["slot"]]
    if not room["lib"]:
        return ()
    return tuple((note, room["cards"].index(cid) + 1) for cid, note in zip(room["lib"], LIB_NOTES)
                 if cid in room["cards"])


def place_notes(d: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """What the free ghost spaces of the rooms in play do, for the placing prompt ("the Attic's
    top space gives you a ghost; the Nursery's bottom space discards one of yours"): each
    room's note ( () when none is free)."""
    said: tuple[tuple[str, int], ...] = ()
    for slot, room in enumerate(d["rooms"]):
        name = BOARDS[slot][room["side"]]
        if not room["removed"] and name in GHOST_SPACES:
            space = GHOST_SPACES[name]
            if room["spaces"][space - 1 if space > 0 else space] is None:
                said += ((name, 0),)
    return said


@lru_cache(maxsize=None)
def noted(phase: str, notes: tuple[tuple[str, int], ...]) -> Msg:
    """A phase's prompt with what its spaces or cards do besides (`place_notes`, `lib_notes`):
    made once per phase and notes, as strings and numbers key it (cheaper than messages)."""
    said = [say(f"note.{note}", card=place) if place else say(f"note.{note}") for note, place in notes]
    if not said:
        return PROMPT_TEXTS[phase]
    joined = said[0] if len(said) == 1 else say("notes", first=said[0], second=said[1])
    return say("prompt.noted", text=PROMPT_TEXTS[phase], notes=joined)


@lru_cache(maxsize=None)
def place_move(name: str, space: int, seat: int) -> Event:
    """`seat` placing on `space` (from 1) of room `name`."""
    lights = ROOMS[name]["flashlights"][space - 1]
    return public_event("event.place", who=p(seat), room=room_word(name), space=space,
                        lights=counted("flashlight", lights))


@lru_cache(maxsize=None)
def free_places(name: str, *spaces: int | None) -> tuple[Choice, ...]:
    """The placements on room `name` whose spaces (seats or None, top first) are free."""
    return tuple(c for c, who in zip(place_choices(name), spaces) if who is None)


@lru_cache(maxsize=None)
def card_choice(verb: str, cid: int) -> Choice:
    """Dispelling ("dispel") or keeping ("save") card `cid`."""
    return Choice(f"{verb} {cid}", (Step(str(cid), say(f"step.{verb}", card=cid, details=_card_details(cid))),))


@lru_cache(maxsize=None)
def tome_choice(ctype: str, n: int, cursed: int) -> Choice:
    """The tomes dispelling every card of type `ctype`: `n` face-up cards worth `cursed` curses."""
    return Choice(f"tome {ctype}", (Step(ctype, say("step.tome", type=type_name(ctype), cards=counted("card", n),
                                                    curses=counted("curse_short", cursed))),))


REROLL_CHOICES = (Choice("reroll", (Step("reroll", say("step.reroll")),)),
                  Choice("keep", (Step("keep", say("step.keep")),)))


@lru_cache(maxsize=4096)
def change_choices(faces: tuple[int, ...]) -> tuple[Choice, ...]:
    """Every single-die change of a Hallway roll, then keeping it."""
    out = []
    for i, f in enumerate(faces):
        dstep = Step(str(i + 1), say("step.die", die=i + 1, face=f))
        for g in sorted(set(DIE)):
            if g != f:
                out.append(Choice(f"change {i + 1} to {g}", (dstep, Step(str(g), say(
                    "step.face", ghosts=counted("ghost", g))))))
    out.append(REROLL_CHOICES[1])
    return tuple(out)


def pick_choice(index: int, cid: int) -> Choice:
    """Taking card `cid` at `index` (what the Library's outer cards do besides, the prompt says)."""
    return Choice(f"pick {index + 1}", (Step(str(index + 1), say("step.pick", place=index + 1,
                                                                 card=card_label(cid))),))


# Taking each card from each of a room's three places.
PICKS = tuple(tuple(pick_choice(i, cid) for cid in range(len(CARDS))) for i in range(3))

# What each phase's prompt says, and the kinds of action it takes ("choose" depends on what is
# pending).
PROMPT_TEXTS = {phase: say(f"prompt.{phase}") for phase in ("place", "reroll", "change", "pick")}


@lru_cache(maxsize=None)
def choose_prompt(kind: str, ctype: str, n: int) -> Msg:
    """The prompt for a pending decision: the tomes' type, the cat to keep, or `n` cards of type
    `ctype` to dispel."""
    if kind != "dispel":
        return say(f"prompt.{kind}")
    return say("prompt.dispel", cards=Msg("game.dontgo.n.type_card", count=n, type=type_name(ctype)))


PHASE_KINDS = {"place": ("place",), "reroll": ("reroll", "keep"), "change": ("change", "keep"),
               "pick": ("pick",)}


# ---------------------------------------------------------------- the game

def upgrade_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: a finished game's score rows gain `bonus` (the seat balance's curses off,
    none before it existed)."""
    if not data.get("scores"):
        return dict(data)
    return {**data, "scores": [{**r, "bonus": 0} for r in data["scores"]]}


def upgrade_2(data: dict[str, Any]) -> dict[str, Any]:
    """Format 2 -> 3: the last move keeps its seat and room, not an English line (nobody read
    it; each reader's language words a move from its events)."""
    if not data.get("last"):
        return dict(data)
    return {**data, "last": {"seat": data["last"]["seat"], "slot": data["last"]["slot"]}}


def curses_off(bonus: float) -> Msg:
    """A seat bonus in words: 0.5 is "half a curse", 1.5 "1½ curses"."""
    whole, half = int(bonus), bonus % 1 == 0.5
    if not whole:
        return say("bonus.half")
    return say("bonus.and_half", whole=whole) if half else counted("curse", whole)


def curses_worth(total: float) -> Msg:
    """A score in curses: "3 curses", or "2.5 curses" once a seat bonus has halved one."""
    if total % 1:
        return say("n.curses_fraction", value=total)
    return counted("curse", int(total))


class DontGoGame(Game):
    name = "dontgo"
    ai = "games.dontgo.ai:choose"
    easy = "games.dontgo.easy:choose"
    ai_view_from_view = "games.dontgo.ai:view_from_view"
    renderer = "render.dontgo:render_dontgo"
    describer = "render.words.dontgo:describe"
    panel_text = "render.words.dontgo:panel"
    warm_up = "render.dontgo:warm_up"
    rules_page = ("data", "dontgo/rules.md")
    searcher = "games.dontgo.sample:search"
    title = "Don't Go In There"
    pitch = ("Creep through a haunted house collecting cursed cards: grab the ones with the fewest "
             "curses, dispel the rest, and don't end up the most haunted.")
    min_seats = 2
    max_seats = 5
    colours = COLOURS
    to_move_acts_first = True  # only the current seat is ever prompted
    state_format = 3
    upgrades = {1: upgrade_1, 2: upgrade_2}
    colour_rgb = ((220, 40, 40), (40, 100, 230), (30, 160, 70), (240, 200, 20), (150, 60, 200))
    verbs = {"place": "room and space from the top, e.g. attic 2", "reroll": "", "keep": "",
             "change": "die and new face, e.g. 3 to 0", "pick": "card position from the left, e.g. 2",
             "dispel": "your card's number, e.g. 17", "save": "the cat's number to keep, e.g. 17",
             "tome": "a card type, e.g. mirror"}

    # ------------------------------------------------------------ setup
    def setup_data(self, state: State, rng: Rng) -> None:
        n_types, n_removed = SETUP[state.seats]
        types = list(TYPES)
        rng.shuffle(types)
        chosen = set(types[:n_types])
        deck = [cid for ctype in TYPES if ctype in chosen for cid in TYPE_CARDS[ctype]]
        unused = [cid for ctype in TYPES if ctype not in chosen for cid in TYPE_CARDS[ctype]]
        rng.shuffle(deck)
        removed = sorted(deck[:n_removed])
        deck = deck[n_removed:]
        state.data = d = {
            "deck": deck, "removed": removed, "unused": unused, "rooms": [],
            "pool": dict(TOKENS),
            "players": [{"meeples": MEEPLES, "tokens": {"1": 0, "2": 0, "5": 0, "sub": 0}, "cards": []}
                        for _ in range(state.seats)],
            "current": FIRST_SEAT, "active": FIRST_SEAT, "phase": "place", "res": None, "dice": None,
            "pending": [], "ending": False, "clocks": None, "last": None, "scores": None,
            "winners": None,
        }
        for slot in range(len(BOARDS)):
            room = {"side": rng.below(2), "removed": False, "spaces": [], "cards": [], "hidden": False,
                    "seen": [], "lib": None}
            d["rooms"].append(room)
            self._deal(d, slot)
        state.turn = 1

    def _deal(self, d: dict[str, Any], slot: int) -> None:
        """Lay up to 3 cards from the deck above the room, by its side's rules."""
        room = d["rooms"][slot]
        name = BOARDS[slot][room["side"]]  # room_name, with the room at hand
        room["spaces"] = [None] * len(ROOMS[name]["flashlights"])
        deck = d["deck"]
        k = min(3, len(deck))
        drawn = deck[:-k - 1:-1]  # the top k cards, topmost first, as popping them would give
        del deck[len(deck) - k:]
        room["hidden"], room["seen"], room["lib"] = False, [], None
        if name == "library":
            drawn = sorted(drawn, key=CURSES.__getitem__)  # stable: equal curses keep the deal's order
            room["lib"] = [drawn[0], drawn[-1]] if len(drawn) == 3 else None
        if name == "secret" and len(drawn) == 3:
            room["hidden"] = True
        room["cards"] = drawn

    # ------------------------------------------------------------ reduce
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        if state.over or d["phase"] == "over":
            raise refusal("refusal.over")
        kind, payload = parse(action)
        if seat != d["current"]:
            raise refusal("refusal.not_your_move", who=p(d["current"]), doing=self._doing(d))
        phase = d["phase"]
        if phase == "choose":
            wanted: tuple[str, ...] = (d["pending"][0]["kind"],) if d["pending"] else ()
        else:
            wanted = PHASE_KINDS[phase]
        if kind not in wanted:
            raise refusal("refusal.now_you_must", doing=self._doing(d), hint=self._hint(d))
        return self._run(state, seat, kind, payload, rng, self.doers)

    def reduce_offered(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        """An offered move is the current seat's, of a kind its phase takes, and a placement is
        on a free space of a room in play: no need to ask again."""
        kind, payload = parse(action)
        events: list[Event] = []  # `_run`, written out: every self-play move comes through here
        self.offered_doers[kind](self, state, seat, payload, rng, events)
        self._advance(state, rng, events)
        return events

    def _run(self, state: State, seat: int, kind: str, payload: Any, rng: Rng,
             doers: dict[str, Any]) -> list[Event]:
        events: list[Event] = []
        doers[kind](self, state, seat, payload, rng, events)
        self._advance(state, rng, events)
        return events

    def _doing(self, d: dict[str, Any]) -> Msg:
        """What the player to move must do, as a phrase that follows "must" ("place a meeple")."""
        phase = d["phase"]
        if phase != "choose":
            return say(f"doing.{phase}")
        pend = d["pending"][0]
        if pend["kind"] != "dispel":
            return say(f"doing.{pend['kind']}")
        return say("doing.dispel", cards=self._to_dispel(pend))

    def _to_dispel(self, pend: dict[str, Any]) -> Msg:
        """The cards a pending dispel asks for: "2 Clocks cards"."""
        return Msg("game.dontgo.n.type_card", count=pend["count"], type=type_name(pend["type"]))

    def _hint(self, d: dict[str, Any]) -> Msg:
        phase = d["phase"]
        return say(f"hint.{phase if phase != 'choose' else d['pending'][0]['kind']}")

    # ------------------------------------------------------------ placing
    def _do_place(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        d = state.data
        name, space = payload
        slot = ROOM_SLOTS[name]
        if d["rooms"][slot]["removed"] or room_name(d, slot) != name:
            on = ", ".join(room_name(d, s) for s in range(len(BOARDS)) if not d["rooms"][s]["removed"])
            raise refusal("refusal.room_not_in_play", room=room_word(name), rooms=on)
        room = d["rooms"][slot]
        label = room_word(name)
        if not 1 <= space <= len(room["spaces"]):
            raise refusal("refusal.no_such_space", room=label, count=len(room["spaces"]), space=space)
        if room["spaces"][space - 1] is not None:
            free = ", ".join(str(i + 1) for i, s in enumerate(room["spaces"]) if s is None)
            raise refusal("refusal.space_taken", space=space, room=label, who=p(room["spaces"][space - 1]),
                          free=free)
        if d["players"][seat]["meeples"] <= 0:  # can't happen: seats without meeples are skipped
            raise refusal("refusal.no_meeple")
        self._place(state, seat, payload, rng, events)

    def _place(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        """A placement `_do_place` checked, or that the prompt offered (free space, room in play)."""
        d = state.data
        name, space = payload
        slot = ROOM_SLOTS[name]
        room = d["rooms"][slot]
        d["players"][seat]["meeples"] -= 1
        room["spaces"][space - 1] = seat
        events.append(place_move(name, space, seat))
        d["last"] = {"seat": seat, "slot": slot}
        if name == "attic" and space == 1:
            give_ghosts(d, seat, 1)
            events.append(public_event("event.attic_top", who=p(seat)))
        if name == "nursery" and space == len(room["spaces"]):
            gone = take_ghosts(d, seat, 1)
            events.append(public_event("event.nursery_bottom", who=p(seat)))
            events.append(DISCARDS[seat][gone])
        if len(room["spaces"]) - room["spaces"].count(None) >= 3:
            self._resolve(state, slot, seat, rng, events)
            return
        if room["hidden"]:
            if seat not in room["seen"]:
                room["seen"].append(seat)
            events.append(public_event("event.peek", who=p(seat)))
            events.append(told_to(seat, "event.peeked", card=CARD_TEXTS[room["cards"][2]]))
        self._next_turn(state, events)

    def _resolve(self, state: State, slot: int, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        room = d["rooms"][slot]
        name = BOARDS[slot][room["side"]]  # room_name, with the room at hand
        events.append(resolve_event(seat, name))
        if room["hidden"]:
            room["hidden"], room["seen"] = False, []
            events.append(told("event.revealed", card=CARD_TEXTS[room["cards"][2]]))
        n = sum(map(DICE.__getitem__, room["cards"]))
        d["res"] = {"slot": slot, "seat": seat, "stage": "pick"}
        events.append(roll_event(tuple(self._roll(d, slot, n, rng))))
        if n and name == "basement":
            d["res"]["stage"] = "reroll"
        elif n and name == "hallway":
            d["res"]["stage"] = "change"
        else:
            self._haunt(state, events)

    def _roll(self, d: dict[str, Any], slot: int, n: int, rng: Rng) -> list[int]:
        """Roll `n` ghost dice for the room in `slot`; the faces."""
        faces = rng.choices(DIE, n)
        d["dice"] = {"slot": slot, "faces": faces, "rerolled": False, "changed": False}
        return faces

    def _roll_text(self, d: dict[str, Any]) -> Msg:
        return roll_text(tuple(d["dice"]["faces"]))

    def _do_reroll(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        d = state.data
        self._roll(d, d["res"]["slot"], len(d["dice"]["faces"]), rng)
        d["dice"]["rerolled"] = True
        events.append(told("event.reroll", who=p(seat), roll=self._roll_text(d)))
        self._haunt(state, events)

    def _do_keep(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        events.append(public_event("event.keep", who=p(seat)))
        self._haunt(state, events)

    def _do_change(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        d = state.data
        die, face = payload
        faces = d["dice"]["faces"]
        if not 1 <= die <= len(faces):
            raise refusal("refusal.no_such_die", count=len(faces))
        if face not in DIE:
            raise refusal("refusal.no_such_face", faces=tuple(sorted(set(DIE))), face=face)
        if faces[die - 1] == face:
            raise refusal("refusal.same_face", die=die, face=face)
        faces[die - 1] = face
        d["dice"]["changed"] = True
        events.append(told("event.change", who=p(seat), die=die, face=face,
                                   ghosts=counted("ghost", sum(faces))))
        self._haunt(state, events)

    def _haunt(self, state: State, events: list[Event]) -> None:
        """Every meeple's owner takes the rolled ghosts minus their space's flashlights."""
        d = state.data
        slot = d["res"]["slot"]
        rolled = sum(d["dice"]["faces"])
        room = d["rooms"][slot]
        lights = ROOMS[BOARDS[slot][room["side"]]]["flashlights"]
        for space, who in enumerate(room["spaces"]):
            if who is None:
                continue
            k = rolled - lights[space]
            if k > 0:
                give_ghosts(d, who, k)
                events.append(haunt_event(who, space, k))
        d["res"]["stage"] = "pick"

    # ------------------------------------------------------------ picking and card effects
    def _do_pick(self, state: State, seat: int, payload: Any, rng: Rng, events: list[Event]) -> None:
        d = state.data
        room = d["rooms"][d["res"]["slot"]]
        n = len(room["cards"])
        if not 1 <= payload <= n:
            raise refusal("refusal.no_such_card", count=n)
        self._take_card(state, seat, payload - 1, events)

    def _take_card(self, state: State, seat: int, index: int, events: list[Event]) -> None:
        d = state.data
        slot = d["res"]["slot"]
        room = d["rooms"][slot]
        cid = room["cards"].pop(index)
        spaces = room["spaces"]
        top = 0
        while spaces[top] is None:  # the topmost meeple takes it
            top += 1
        spaces[top] = None
        pl = d["players"][seat]
        pl["meeples"] += 1
        events.append(TAKE_MOVES[seat][cid])
        d["last"] = {"seat": seat, "slot": slot}
        if room["lib"]:
            if cid == room["lib"][0]:
                give_ghosts(d, seat, 1)
                events.append(public_event("event.library_left", who=p(seat)))
            elif cid == room["lib"][1]:
                gone = take_ghosts(d, seat, 1)
                events.append(public_event("event.library_right", who=p(seat)))
                events.append(DISCARDS[seat][gone])
        pl["cards"].append({"id": cid, "dispelled": False, "used": False})
        self._effect(state, seat, cid, events)

    def _effect(self, state: State, seat: int, cid: int, events: list[Event]) -> None:
        """The immediate effect of taking card `cid`."""
        ctype = CARD_TYPES[cid]
        if ctype not in IMMEDIATE:
            return
        d = state.data
        pl = d["players"][seat]
        who = p(seat)
        if ctype == "mirror":
            give_ghosts(d, seat, 1)
            events.append(public_event("event.mirror", who=who))
            ups = face_up(pl, "mirror")
            if len(ups) >= SETS["mirror"]:
                ids = [c["id"] for c in ups[:SETS["mirror"]]]
                dispel(pl, ids)
                events.append(public_event("event.mirror_set", who=who, size=SETS["mirror"]))
        elif ctype == "ring":
            ups = face_up(pl, "ring")
            if len(ups) >= SETS["ring"]:
                dispel(pl, [c["id"] for c in ups[:SETS["ring"]]])
                events.append(public_event("event.ring_set", who=who, size=SETS["ring"]))
        elif ctype == "twin":
            mate = next((c["id"] for c in face_up(pl, "twin")
                         if c["id"] != cid and CARDS[c["id"]]["curse"] == CARDS[cid]["curse"]), None)
            if mate is not None:
                dispel(pl, [mate, cid])
                events.append(told("event.twins", who=who, curses=counted("curse", CURSES[cid])))
        elif ctype == "doll":
            ids = doll_set(pl, cid)
            if ids:
                dispel(pl, ids)
                events.append(told("event.dolls", who=who, sum=SETS["doll_sum"],
                                           dolls=counted("doll", len(ids))))
        elif ctype == "clocks":
            if d["clocks"] is None and curses(pl, "clocks") >= SETS["clocks_sum"]:
                d["clocks"] = seat
                events.append(public_event("event.clocks", who=who, sum=SETS["clocks_sum"],
                                           dispels=SETS["clocks_dispel"]))
                d["pending"].append({"seat": seat, "kind": "dispel", "type": "clocks",
                                     "count": SETS["clocks_dispel"]})
        elif ctype in PAIRED:
            fresh = [c for c in pl["cards"] if CARD_TYPES[c["id"]] == ctype and not c["used"]
                     and not c["dispelled"]]
            if len(fresh) >= SETS[ctype]:
                for c in fresh[:SETS[ctype]]:
                    c["used"] = True
                if ctype == "holywater":
                    k = take_ghosts(d, seat, ghosts(pl) // 2)
                    events.append(public_event("event.holywater", who=who))
                    events.append(told_to(seat, "event.holywater_you", ghosts=counted("ghost", k),
                                                left=ghosts(pl)))
                else:
                    events.append(public_event("event.tomes", who=who))
                    d["pending"].append({"seat": seat, "kind": "tome", "type": "tome", "count": 1})
        elif ctype == "mask":
            n = len(face_up(pl, "mask"))
            right = (seat - 1) % state.seats
            k = take_ghosts(d, seat, n)
            give_ghosts(d, right, k)
            events += mask_events(seat, right, n, k)

    # ------------------------------------------------------------ decisions
    def _candidates(self, d: dict[str, Any], pend: dict[str, Any]) -> list[int]:
        pl = d["players"][pend["seat"]]
        if pend["kind"] == "tome":
            return sorted({TYPE_INDEX[CARD_TYPES[c["id"]]] for c in face_up(pl)
                           if CARD_TYPES[c["id"]] != "tome"})
        return [c["id"] for c in face_up(pl, pend["type"])]

    def _auto(self, state: State, events: list[Event]) -> bool:
        """Resolve the first pending decision if the choice can't matter; True if it did."""
        d = state.data
        pend = d["pending"][0]
        cands = self._candidates(d, pend)
        seat = pend["seat"]
        if pend["kind"] == "tome":
            if len(cands) == 0:
                d["pending"].pop(0)
                events.append(public_event("event.tomes_nothing", who=p(seat)))
                return True
            if len(cands) == 1:
                self._do_tome(state, seat, TYPES[cands[0]], None, events)
                return True
            return False
        values = {CARDS[i]["curse"] for i in cands}
        if pend["kind"] == "save":
            if len(cands) <= 1 or len(values) == 1:
                self._do_save(state, seat, cands[0] if cands else None, None, events)
                return True
            return False
        if pend["count"] <= 0 or not cands:
            d["pending"].pop(0)
            return True
        if len(cands) <= pend["count"] or len(values) == 1:
            ids = cands[:pend["count"]]
            dispel(d["players"][seat], ids)
            d["pending"].pop(0)
            events.append(told("event.dispels", who=p(seat), cards=names(ids)))
            return True
        return False

    def _check_pending(self, d: dict[str, Any], seat: int, kind: str) -> dict[str, Any]:
        pend = d["pending"][0]
        assert pend["seat"] == seat and pend["kind"] == kind
        return pend

    def _do_dispel(self, state: State, seat: int, cid: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        pend = self._check_pending(d, seat, "dispel")
        cands = self._candidates(d, pend)
        if cid not in cands:
            raise refusal("refusal.not_your_card", card=cid, type=type_name(pend["type"]),
                          cards=", ".join(map(str, cands)))
        dispel(d["players"][seat], [cid])
        pend["count"] -= 1
        events.append(told("event.dispels", who=p(seat), cards=CARD_TEXTS[cid]))
        if pend["count"] <= 0:
            d["pending"].pop(0)

    def _do_save(self, state: State, seat: int, cid: int | None, rng: Rng | None,
                 events: list[Event]) -> None:
        d = state.data
        pend = self._check_pending(d, seat, "save")
        cands = self._candidates(d, pend)
        if cid is not None and cid not in cands:
            raise refusal("refusal.not_your_cat", card=cid, cards=", ".join(map(str, cands)))
        others = [i for i in cands if i != cid]
        dispel(d["players"][seat], others)
        d["pending"].pop(0)
        if others:
            events.append(told("event.save", who=p(seat), card=card_text(cid), cards=names(others)))

    def _do_tome(self, state: State, seat: int, ctype: str, rng: Rng | None,
                 events: list[Event]) -> None:
        d = state.data
        self._check_pending(d, seat, "tome")
        pl = d["players"][seat]
        if ctype == "tome":
            raise refusal("refusal.tome_tome")
        ids = [c["id"] for c in face_up(pl, ctype)]
        if not ids:
            held = sorted({CARDS[c["id"]]["type"] for c in face_up(pl)} - {"tome"})
            raise refusal("refusal.tome_none", type=type_name(ctype), types=", ".join(held))
        dispel(pl, ids)
        d["pending"].pop(0)
        events.append(told("event.tome", who=p(seat), type=type_name(ctype),
                                   cards=counted("card", len(ids))))

    # ------------------------------------------------------------ flow
    def _advance(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Run everything that needs no decision; stop at the next player who must act."""
        d = state.data
        while True:
            if d["pending"]:
                if self._auto(state, events):
                    continue
                d["phase"], d["current"] = "choose", d["pending"][0]["seat"]
                return
            res = d["res"]
            if res is not None:
                if res["stage"] in ("reroll", "change"):
                    d["phase"], d["current"] = res["stage"], res["seat"]
                    return
                room = d["rooms"][res["slot"]]
                picker = None
                for who in room["spaces"]:  # the topmost meeple picks
                    if who is not None:
                        picker = who
                        break
                if picker is not None and len(room["cards"]) > 1:
                    d["phase"], d["current"] = "pick", picker
                    return
                if picker is not None:
                    if room["cards"]:
                        self._take_card(state, picker, 0, events)
                    else:  # a short room: nothing left for this meeple
                        top = room["spaces"].index(picker)
                        room["spaces"][top] = None
                        d["players"][picker]["meeples"] += 1
                        events.append(public_event("event.no_card_left", who=p(picker)))
                    continue
                self._finish_room(state, events)
                # Rooms go only once the deck is empty: while it holds cards, none is gone for good.
                if not d["deck"] and all(r["removed"] for r in d["rooms"]):
                    self._start_end(state, events)
                    continue
                self._next_turn(state, events)
                return
            if d["ending"]:
                self._score(state, events)
                return
            return

    def _finish_room(self, state: State, events: list[Event]) -> None:
        d = state.data
        slot = d["res"]["slot"]
        room = d["rooms"][slot]
        old = room_word(BOARDS[slot][room["side"]])
        d["res"] = None
        if not d["deck"]:
            room.update(removed=True, cards=[], spaces=[None] * len(room["spaces"]), hidden=False,
                        seen=[], lib=None)
            events.append(told("event.room_removed", room=old))
            return
        room["side"] = 1 - room["side"]
        self._deal(d, slot)
        new = room_word(BOARDS[slot][room["side"]])
        shown = list(map(CARD_TEXTS.__getitem__, room["cards"]))
        if room["hidden"]:
            shown[2] = FACE_DOWN
        events.append(told("event.room_flips", old=old, new=new, cards=tuple(shown)))

    def _next_turn(self, state: State, events: list[Event]) -> None:
        d = state.data
        seat = d["active"]
        for _ in range(state.seats):
            seat = (seat + 1) % state.seats
            if d["players"][seat]["meeples"] > 0:
                break
            events.append(public_event("event.skip", who=p(seat)))
        d["active"] = d["current"] = seat
        d["phase"] = "place"
        state.turn += 1

    def _start_end(self, state: State, events: list[Event]) -> None:
        d = state.data
        d["ending"] = True
        d["phase"] = "choose"
        events.append(Event(say("event.end"), kind="end"))
        for seat, pl in enumerate(d["players"]):  # amulets act together
            ups = face_up(pl, "amulet")
            gone: list[int] = []
            for value in sorted({CARDS[c["id"]]["amulet"] for c in ups}):
                naming = sum(1 for c in ups if CARDS[c["id"]]["amulet"] == value)
                targets = [c["id"] for c in ups if CARDS[c["id"]]["curse"] == value]
                gone += targets[:naming]
            if gone:
                dispel(pl, gone)
                events.append(told("event.amulets", who=p(seat), cards=names(sorted(gone))))
        boxes = [curses(pl, "musicbox") for pl in d["players"]]
        top = max(boxes)
        order = [(d["active"] + i) % state.seats for i in range(state.seats)]
        for seat in order:
            pl = d["players"][seat]
            if ghosts(pl) <= CAT_LIMIT and len(face_up(pl, "cat")) >= 2:
                d["pending"].append({"seat": seat, "kind": "save", "type": "cat", "count": 1})
            if top > 0 and boxes[seat] == top:
                d["pending"].append({"seat": seat, "kind": "dispel", "type": "musicbox",
                                     "count": SETS["musicbox_dispel"]})
            half = len(face_up(pl, "portrait")) // 2
            if half:
                d["pending"].append({"seat": seat, "kind": "dispel", "type": "portrait", "count": half})

    def _score(self, state: State, events: list[Event]) -> None:
        d = state.data
        counts = [ghosts(pl) for pl in d["players"]]
        most = max(counts)
        rows = []
        for seat, pl in enumerate(d["players"]):
            c = curses(pl)
            pen = counts[seat] // 2 if most > 0 and counts[seat] == most else 0
            bonus = SEAT_BONUS[state.seats][seat]
            rows.append({"seat": seat, "curses": c, "ghosts": counts[seat], "penalty": pen,
                         "bonus": bonus, "total": c + pen - bonus})
        best = min((r["total"], r["ghosts"]) for r in rows)
        winners = [r["seat"] for r in rows if (r["total"], r["ghosts"]) == best]
        d["scores"], d["winners"] = rows, winners
        d["phase"], d["current"], d["res"], d["ending"] = "over", None, None, False
        state.over = True
        state.result = {"winners": winners, "reason": FEWEST_CURSES,
                        "scores": {"header": SCORE_HEADER,
                                   "rows": [[r["seat"], r["curses"], r["ghosts"], r["penalty"], r["bonus"],
                                             r["total"]] for r in rows]}}
        for r in rows:
            worded = {"who": p(r["seat"]), "ghosts": counted("ghost", r["ghosts"]),
                      "curses": counted("curse", r["curses"]), "penalty": r["penalty"], "total": r["total"]}
            said = Msg("game.dontgo.event.score_bonus", bonus=r["bonus"], **worded) if r["bonus"] \
                else Msg("game.dontgo.event.score", **worded)
            events.append(Event(said, kind="end"))
        won = "event.wins" if len(winners) == 1 else "event.share"
        events.append(Event(Msg("game.dontgo." + won, who=tuple(p(s) for s in winners),
                                 curses=curses_worth(best[0])), kind="end"))

    # Each kind of action's rule, looked up once per action (not by name).
    doers: ClassVar[dict[str, Any]] = {
        "place": _do_place, "reroll": _do_reroll, "keep": _do_keep, "change": _do_change,
        "pick": _do_pick, "dispel": _do_dispel, "save": _do_save, "tome": _do_tome}
    offered_doers: ClassVar[dict[str, Any]] = {**doers, "place": _place}

    # ------------------------------------------------------------ prompts
    def choices(self, d: dict[str, Any], seat: int) -> list[Choice]:
        phase = d["phase"]
        out: list[Choice] = []
        if phase == "place":
            for slot, room in enumerate(d["rooms"]):
                if not room["removed"]:
                    out += free_places(BOARDS[slot][room["side"]], *room["spaces"])
        elif phase == "reroll":
            out = list(REROLL_CHOICES)
        elif phase == "change":
            out = list(change_choices(tuple(d["dice"]["faces"])))
        elif phase == "pick":
            out = list(map(tuple.__getitem__, PICKS, d["rooms"][d["res"]["slot"]]["cards"]))  # [i][cid]
        elif phase == "choose" and d["pending"]:
            pend = d["pending"][0]
            cands = self._candidates(d, pend)
            if pend["kind"] == "tome":
                held: dict[str, list[int]] = {}  # the curses of each face-up type
                for c in d["players"][seat]["cards"]:
                    if not c["dispelled"]:
                        held.setdefault(CARD_TYPES[c["id"]], []).append(CURSES[c["id"]])
                for ti in cands:
                    t = TYPES[ti]
                    out.append(tome_choice(t, len(held[t]), sum(held[t])))
            else:
                seen: set[int] = set()
                verb = "dispel" if pend["kind"] == "dispel" else "save"
                for cid in cands:
                    if CURSES[cid] not in seen:
                        seen.add(CURSES[cid])
                        out.append(card_choice(verb, cid))
        return out

    def prompt(self, state: State, seat: int) -> Prompt | None:
        d = state.data
        if state.over or d["current"] != seat:
            return None
        phase = d["phase"]
        if phase == "place":
            text = noted(phase, place_notes(d))
        elif phase == "pick":
            text = noted(phase, lib_notes(d))
        elif phase == "choose":
            pend = d["pending"][0]
            text = choose_prompt(pend["kind"], pend["type"], pend["count"])
        else:
            text = PROMPT_TEXTS[phase]
        return Prompt(seat, text, self.choices(d, seat))

    # ------------------------------------------------------------ view
    def card_view(self, cid: int) -> dict[str, Any]:
        return dict(CARD_VIEWS[cid])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.data
        over = state.over
        rooms, secret = self._rooms_view(d, seat)
        dice = d["dice"]
        return {
            "game": "dontgo", "turn": state.turn, "current": None if over else d["current"],
            "phase": "over" if over else d["phase"], "rooms": rooms, "deck": len(d["deck"]),
            "dice": None if dice is None else {"slot": dice["slot"], "faces": list(dice["faces"]),
                                                "rerolled": dice["rerolled"], "changed": dice["changed"]},
            "players": self._players_view(state, seat), "clocks": d["clocks"],
            "last": None if d["last"] is None else dict(d["last"]),
            "scores": [dict(r) for r in d["scores"]] if over and d["scores"] else None,
            "winners": list(d["winners"]) if over and d["winners"] is not None else None,
            "secret": secret,
        }

    def _rooms_view(self, d: dict[str, Any],
                    seat: int | None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The rooms as views show them, and the face-down card `seat` has peeked at."""
        rooms = []
        secret = None
        for slot, room in enumerate(d["rooms"]):
            name = BOARDS[slot][room["side"]]  # room_name, with the room at hand
            cards = [ROOM_CARD_VIEWS[cid].copy() for cid in room["cards"]]
            if room["hidden"] and len(cards) > 2:
                cards[2] = {"hidden": True}
                if seat is not None and seat in room["seen"]:
                    secret = {"slot": slot, "card": CARD_VIEWS[room["cards"][2]].copy()}
            rooms.append({"slot": slot, "name": ROOM_LABELS[name], "side": room["side"],
                          "removed": room["removed"],
                          "spaces": [{"flashlights": f, "meeple": who}
                                     for f, who in zip(ROOMS[name]["flashlights"], room["spaces"])],
                          "cards": cards, "lib": None if room["lib"] is None else list(room["lib"])})
        return rooms, secret

    def _players_view(self, state: State, seat: int | None) -> list[dict[str, Any]]:
        """Every seat's meeples, cards and curses (ghosts only for `seat`, or all once over)."""
        over = state.over
        players = []
        for s, pl in enumerate(state.data["players"]):
            cards = []
            up_curses = 0
            for c in pl["cards"]:  # one pass for the card views and the face-up curses
                cid, dispelled = c["id"], c["dispelled"]
                cards.append(HELD_VIEWS[cid, dispelled, c["used"]].copy())
                if not dispelled:
                    up_curses += CURSES[cid]
            players.append({"seat": s, "colour": self.colours[s], "meeples": pl["meeples"],
                            "cards": cards, "curses": up_curses,
                            "ghosts": ghosts(pl) if (over or s == seat) else None})
        return players

    def ai_view(self, state: State, seat: int, level: str, prompt: Prompt) -> Any:
        """The random AI reads only its prompt; the smart one, its seat's compact view
        (`ai.compact_view`: a tuple of ids and tuples), built here from the state."""
        if level == "random":
            return {}
        d = state.data
        rooms = []
        secret = None
        dice = d["dice"]
        # Only placing weighs every room; the other phases read the dice's room alone.
        shown = None if d["phase"] == "place" else (-1 if dice is None else dice["slot"])
        for slot, room in enumerate(d["rooms"]):
            if shown is not None and slot != shown:
                rooms.append(None)
                continue
            cards = room["cards"]
            if room["hidden"] and len(cards) > 2:
                if seat in room["seen"]:
                    secret = (slot, cards[2])
                cards = (cards[0], cards[1], None, *cards[3:])
            else:
                cards = tuple(cards)
            lib = room["lib"]
            rooms.append((room["side"], room["removed"], tuple(room["spaces"]), cards,
                          None if lib is None else tuple(lib)))
        me = d["players"][seat]
        up: dict[str, tuple[int, ...]] = {}  # face-up card ids by type
        fresh: tuple[str, ...] = ()
        for c in me["cards"]:
            if not c["dispelled"]:
                cid = c["id"]
                ctype = CARD_TYPES[cid]
                up[ctype] = up[ctype] + ID_TUPLES[cid] if ctype in up else ID_TUPLES[cid]
                if ctype in PAIRED and not c["used"] and ctype not in fresh:
                    fresh += (ctype,)
        held = 0
        for pl in d["players"]:
            held += len(pl["cards"])
        roll = None if shown is None or dice is None else (dice["slot"], tuple(dice["faces"]))
        return (d["phase"], d["clocks"], roll, held, IN_PLAY[state.seats], up, fresh, ghosts(me),
                tuple(rooms), secret)

    def opening(self, state: State) -> list[Msg]:
        """The seat bonus for this many players and the ghost die's faces: house rules (dontgo.toml)."""
        seat_bonus = SEAT_BONUS[state.seats]
        bonuses = tuple(say("opening.bonus", who=p(seat), off=curses_off(bonus))
                        for seat, bonus in enumerate(seat_bonus) if bonus)
        said = []
        if bonuses:
            tie = any(bonus % 1 for bonus in seat_bonus)
            said.append(say("opening.seat_bonus_tie" if tie else "opening.seat_bonus", bonuses=bonuses))
        return said + [say("opening.die", faces=DIE)]

    def private_text(self, state: State, seat: int) -> dict[str, Any]:
        """What `seat` alone knows (its ghosts, a peeked card) and holds, as a stored message:
        JSON-native, as the bot keeps a fingerprint of it."""
        d = state.data
        pl = d["players"][seat]
        t = pl["tokens"]
        tokens = tuple(f"{t[k]}×{k}" for k in ("1", "2", "5") if t[k])
        if t["sub"]:
            tokens += (counted("substitute", t["sub"]),)
        worded = {"colour": say(f"colour.{self.colours[seat]}"), "ghosts": ghosts(pl), "meeples": pl["meeples"]}
        said = [say("private.you_tokens", tokens=tokens, **worded) if tokens else say("private.you", **worded)]
        for slot, room in enumerate(d["rooms"]):
            if room["hidden"] and seat in room["seen"]:
                said.append(say("private.secret", card=card_text(room["cards"][2])))
        ups = [c["id"] for c in pl["cards"] if not c["dispelled"]]
        downs = [c["id"] for c in pl["cards"] if c["dispelled"]]
        if len(ups) > 1:  # each card says its curses; the total, where there is one to add
            said.append(say("private.cards", curses=counted("curse", curses(pl)), cards=names(ups)))
        elif ups:
            said.append(say("private.card", card=card_text(ups[0])))
        else:
            said.append(say("private.no_cards"))
        if downs:
            said.append(say("private.dispelled", types=tuple(type_name(CARD_TYPES[i]) for i in downs)))
        return lines(*said).stored()

    # ------------------------------------------------------------ helpers for the bot
    def canonical(self, state: State, action: str) -> str:
        """The canonical spelling of `action` (raises IllegalAction if it is ill-formed)."""
        kind, payload = parse(action)
        return canonical(kind, payload)

"""Atmosfear: The Harbingers -- the pure rules engine, with a live Gatekeeper driven by timers.

State lives in `state.data` (JSON-native):

    phase        "fears" | "play" | "over"   (view adds "gatekeeper" and "paused")
    step         what the current player must do: turn | branch | ring | key | duel | flight | pass,
                 or draw (the Chosen One draws the fear of the player waiting at the Well)
    current      whose turn it is
    players      [{"pos", "rack" (colours), "hole", "must_roll", "must_dice", "extra", "time_cards",
                   "waited" (in a Black Hole: their turn has come round there since they fell in),
                   "must_move" (handed the Black Key at the Well: their next turn rolls on)}]
    fears        [text|None] per seat, then the Gatekeeper's decoys (secret); well: indexes into
                 fears still in the Well
    read         fear texts drawn and read aloud (public); realm_keys: keys left per realm
    removed      colour -> keys removed from the game; black_key: {"holder", "on_board"}
    fate, time   deck orders (card ids, top first; secret)
    clock        {"end", "paused_at", "minutes"}
    gk           the Gatekeeper: {"next", "on", "line", "calling", "order", "deadline", "leave_at", "n",
                 "said" (line group -> bit mask of the lines he has said this game)}
    move         a roll being walked: {"steps", "dir", "decided", "inside", "path"}
    chosen, dice, last, winner

Actions are canonical strings; see `reduce` and docs/games/atmosfear.md for the grammar.
"""
from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from data import load_toml
from data.locales import DEFAULT, Msg, ids
from games.core import SYSTEM, Choice, Event, Game, IllegalAction, OptionText, Prompt, Rng, State, Step

from .questions import situation


def _load(name: str) -> dict[str, Any]:
    return load_toml("atmosfear", name)


def say(key: str, /, **params: Any) -> Msg:
    """Words a player reads, as a message of this game's catalogs (data/atmosfear/locales/*.po,
    ids `game.atmosfear.<key>`): the bot renders it in each reader's language."""
    return Msg("game.atmosfear." + key, **params)


def numbered(prefix: str) -> dict[str, tuple[str, ...]]:
    """The catalog's numbered messages `game.atmosfear.<prefix>.<group>.<n>` (the Gatekeeper's
    lines, his own fears), by group, in order: a group is as long as the catalogs make it."""
    head = f"game.atmosfear.{prefix}."
    found: dict[str, list[tuple[int, str]]] = {}
    for id in ids(DEFAULT):
        if id.startswith(head):
            group, _, n = id[len(head):].rpartition(".")
            found.setdefault(group, []).append((int(n), id))
    return {group: tuple(id for _, id in sorted(numbers)) for group, numbers in sorted(found.items())}


def stacked(lines: list[Msg]) -> Msg:
    """Several messages as one, a line each (`game.atmosfear.lines`: "{line}\n{rest}")."""
    out = lines[-1]
    for line in reversed(lines[:-1]):
        out = say("lines", line=line, rest=out)
    return out


BOARD_FILE = _load("board.toml")
GK = _load("gatekeeper.toml")
FATE = {c["id"]: c for c in _load("fate.toml")["card"]}
TIME_FILE = _load("time.toml")
TIME = {c["id"]: c for c in TIME_FILE["card"]}
TIME_DECK = TIME_FILE["deck"]
AI_FEARS: list[str] = _load("fears.toml")["fears"]  # typed by AI seats, as a player types theirs
DECOYS = tuple(Msg(id).stored() for id in numbered("fear")["decoy"])  # the Gatekeeper's own fears

HARBINGERS = BOARD_FILE["harbinger"]
NAMES = tuple(h["name"] for h in HARBINGERS)
COLOURS = tuple(h["colour"] for h in HARBINGERS)
EVERY_COLOUR = frozenset(COLOURS)  # a rack with all of them may win
RULES = BOARD_FILE["rules"]
BOARD = BOARD_FILE["board"]
OUTER = BOARD["outer"]
OUTER_IDS = [s["id"] for s in OUTER]
N_OUTER = len(OUTER)
STONE = {s["id"]: s for s in OUTER}
INNER: list[str] = BOARD["inner"]
RADIALS: list[list[str]] = BOARD["radials"]
BRANCHES: list[str] = BOARD["branches"]
ENDS: list[str] = BOARD["ends"]
WELL: str = BOARD["well"]
GATE: str = BOARD["gate"]
HEADSTONES = [next(s["id"] for s in OUTER if s["realm"] == r and s["kind"] == "headstone")
              for r in range(6)]
HOLES = [s["id"] for s in OUTER if s["kind"] == "black_hole"]
FLIGHTS = [s["id"] for s in OUTER if s["kind"] == "flight"]
KEYS_PER = RULES["keys_per_colour"]
LINES = numbered("gk")  # his lines, by group (gatekeeper.toml says when he says which)
ORDERS: dict[str, dict[str, Any]] = GK["orders"]
GATEKEEPER_WINS = say("result.gatekeeper_wins").stored()
TAUNTS = ("greeting", "time_left", "black_key", "black_hole_taunt", "leader")
ALL_SAID = {group: (1 << len(lines)) - 1 for group, lines in LINES.items()}  # gk.said when all are said
PUNISHMENTS: list[dict[str, Any]] = GK["punishment"]
RADIAL_OF = {sid: r for r, rad in enumerate(RADIALS) for sid in rad}
OUTER_INDEX = {sid: i for i, sid in enumerate(OUTER_IDS)}
# One step along each track, looked up rather than searched for on every step of a walk.
NEXT_OUTER = {sid: OUTER_IDS[(i + 1) % N_OUTER] for i, sid in enumerate(OUTER_IDS)}
BRANCH_RADIAL = {b: RADIALS[r][0] for r, b in enumerate(BRANCHES)}
NEXT_RADIAL = {sid: rad[k + 1] if k + 1 < len(rad) else ENDS[r]
               for r, rad in enumerate(RADIALS) for k, sid in enumerate(rad)}
INNER_INDEX = {sid: i for i, sid in enumerate(INNER)}
# The next stone from stones where a walk never chooses (outer stones off the branches, radials).
PLAIN_NEXT = {**{sid: nxt for sid, nxt in NEXT_OUTER.items() if sid not in BRANCH_RADIAL}, **NEXT_RADIAL}


def _run_from(sid: str) -> tuple[str, ...]:
    """The stones a walk passes from `sid` up to the first where it may choose (a branch, the
    Inner Ring), that one included: a walk covers them without asking at each step."""
    out = [PLAIN_NEXT[sid]]
    while out[-1] in PLAIN_NEXT:
        out.append(PLAIN_NEXT[out[-1]])
    return tuple(out)


PLAIN_RUNS = {sid: _run_from(sid) for sid in PLAIN_NEXT}


def _ring_run(sid: str, step: int) -> tuple[str, ...]:
    """The Inner Ring stones a walk passes from `sid` one way round (`step` +1 clockwise), up to
    the Gate, that one included (there the walk may turn to the Well)."""
    out = [INNER[(INNER_INDEX[sid] + step) % len(INNER)]]
    while out[-1] != GATE:
        out.append(INNER[(INNER_INDEX[out[-1]] + step) % len(INNER)])
    return tuple(out)


RING_RUNS = {way: {sid: _ring_run(sid, step) for sid in INNER if sid != GATE}
             for way, step in (("cw", 1), ("ccw", -1))}
# From a branch stone, the run on along the outer track (False) or up its radial (True, inside).
BRANCH_RUNS = {b: {inside: (nxt, *PLAIN_RUNS[nxt])
                   for inside, nxt in ((False, NEXT_OUTER[b]), (True, BRANCH_RADIAL[b]))}
               for b in BRANCH_RADIAL}
ALL_STONES = set(OUTER_IDS) | set(INNER) | set(RADIAL_OF) | {WELL}
# The number the board draws beside each Flight stone (its place on the outer track): the one
# mark the flight buttons name, so the board and the buttons say the same thing.
FLIGHT_MARKS = {f: str(OUTER_INDEX[f]) for f in FLIGHTS}


def _stone_name(sid: str) -> Msg:
    """A stone as players read it (`game.atmosfear.stone.*`), never its id."""
    if sid == WELL:
        return say("stone.well")
    if sid in INNER:
        return say("stone.inner")
    if sid in RADIAL_OF:
        return say("stone.radial", realm=NAMES[RADIAL_OF[sid]])
    stone = STONE[sid]
    if stone["kind"] == "flight":
        return say("stone.flight", mark=FLIGHT_MARKS[sid])
    return say("stone." + stone["kind"], realm=NAMES[stone["realm"]])


STONE_NAMES = {sid: _stone_name(sid) for sid in ALL_STONES}
FLIGHT_BY_MARK = {mark: f for f, mark in FLIGHT_MARKS.items()}  # typed "fly 30"
# The outer track as views show it (never changes: each view gets copies of these).
OUTER_VIEW = tuple({"id": s["id"], "realm": s["realm"], "kind": s["kind"], "colour": s["colour"] or None,
                    "mark": FLIGHT_MARKS.get(s["id"])}
                   for s in OUTER)

DICE_WORDS = {1: say("dice.one"), 2: say("dice.both")}
DIE_FACES = (1, 2, 3, 4, 5, 6)
TIMER_ORDER = itemgetter("due", "id")
# Per clock (minutes) and Time card: its timer's id and action, and how long before the clock's
# end it falls due, its time written for an hour-long clock shrunk to this one (timers are
# listed at every step of a game: these parts never change).
TIME_TIMERS = {minutes: {cid: (f"time-{cid}", f"time {cid}", card["at"] * 60 * minutes / TIME_FILE["clock"])
                         for cid, card in TIME.items()} for minutes in RULES["minutes_allowed"]}
TIME_BEFORE = {minutes: {cid: before for cid, (_, _, before) in timers.items()}
               for minutes, timers in TIME_TIMERS.items()}
# Per clock and Time card, the card's text with its time on that clock (mm:ss left).
TIME_TEXT = {minutes: {cid: say("time." + cid, time="%02d:%02d" % divmod(round(before), 60))
                       for cid, before in befores.items()} for minutes, befores in TIME_BEFORE.items()}
FATE_TEXT = {cid: say("fate." + cid) for cid in FATE}
# What each outer stone does when landed on ("plain": no effect; inside stones are all plain).
KIND = {s["id"]: s["kind"] for s in OUTER}
LANDING_EFFECTS = frozenset(("black_key", "black_hole", "time", "headstone"))  # see _land_simple

# The typed moves (protocol: the same in every language), offered when one is not understood.
SYNTAX = say("refusal.syntax", moves="'roll 1', 'roll 2', 'inside', 'outside', 'cw', 'ccw', 'take', 'skip', "
                                     "'fly 30', 'duel 2', 'pass 2', 'try', 'read', 'leave'", last="'yes'")
EMPTY = say("refusal.empty", syntax=SYNTAX)


def echo(text: str, limit: int = 24) -> str:
    """Typed text quoted back in a refusal: printable, no placeholders, short."""
    clean = "".join(c for c in text if c.isprintable() and c not in "{}")
    return clean if len(clean) <= limit else clean[:limit] + "…"


def clean_fear(text: str) -> str:
    """A fear as shown to everyone: no control or invisible format characters, no placeholders."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" or c in " \t\n")
    return " ".join(kept.replace("{", "(").replace("}", ")").split())


# A seat's name placeholder in event text ("{p2}"): made once per seat and looked up (a C call,
# no Python frame: events name seats all game); a seat out of range is a KeyError.
p: Callable[[int], str] = {seat: "{p%d}" % seat for seat in range(6)}.__getitem__


def roll_text(seat: int, dice: tuple[int, ...]) -> Msg:
    if len(dice) == 2:
        return say("roll.two", who=p(seat), a=dice[0], b=dice[1], total=sum(dice))
    return say("roll.one", who=p(seat), die=dice[0])


# The events every turn has, made once per seat (and dice, stone or way) and handed out again:
# events are read-only values (games.core.Event).
ROLLS_OF = [(a,) for a in range(1, 7)] + [(a, b) for a in range(1, 7) for b in range(1, 7)]
ROLL_EVENTS = [{dice: (Event(roll_text(s, dice)), sum(dice)) for dice in ROLLS_OF} for s in range(6)]  # and total
DICE_COUNT = {"1": 1, "2": 2}  # a roll's argument, as offered
# A key of each colour as a sentence's object: "a red key", "your red key".
A_KEY = {c: say("key.a." + c) for c in COLOURS}
YOUR_KEY = {c: say("key.your." + c) for c in COLOURS}
COLOUR_WORD = {c: say("colour." + c) for c in COLOURS}
BRANCH_EVENTS = [{"inside": Event(say("event.inside", who=p(s))),
                  "outside": Event(say("event.outside", who=p(s)))} for s in range(6)]
MOVE_EVENTS = [{sid: Event(say("event.moves", who=p(s), stone=STONE_NAMES[sid])) for sid in ALL_STONES}
               for s in range(6)]
DUEL_EVENTS = [[[[Event(say("event.duel_tie" if a == b else "event.duel", who=p(s), other=p(o), a=a, b=b))
                  for b in DIE_FACES] for a in DIE_FACES] for o in range(6)] for s in range(6)]  # [seat][other][a-1][b-1]
BLIND_EVENTS = [[{c: (Event(say("event.blind", who=p(w), other=p(lo))),  # [winner][loser][colour]
                      Event(say("private.blind_took", key=A_KEY[c], other=p(lo)), to=(w,), kind="private"),
                      Event(say("private.blind_lost", who=p(w), key=YOUR_KEY[c]), to=(lo,), kind="private"))
                  for c in COLOURS}
                 for lo in range(6)] for w in range(6)]
TAKE_EVENTS = [[(Event(say("event.takes", who=p(s), realm=NAMES[r])),  # public, then the taker's own
                 Event(say("private.took", key=A_KEY[COLOURS[r]]), to=(s,), kind="private")) for r in range(6)]
               for s in range(6)]
NOTHING = Event(say("event.nothing"))


def step_table(points: list[list[Any]], x: float) -> Any:
    """The value of the last [threshold, value] point whose threshold is at most `x`."""
    return next(v for t, v in reversed(points) if x >= t)


def own_fears(per_player: float, seats: int) -> int:
    """The fears of his own the Gatekeeper puts in the Well at the start (house rule: `well_fears`
    fills it up to a number that follows the minutes each)."""
    return min(len(DECOYS), max(0, step_table(RULES["well_fears"], per_player) - seats))


# ---------------------------------------------------------------- geometry

def realm_of(stone: str) -> int | None:
    if stone in STONE:
        return STONE[stone]["realm"]
    if stone in RADIAL_OF:
        return RADIAL_OF[stone]
    if stone in INNER:
        return INNER.index(stone) // 2
    return None


def outer_index(stone: str) -> int:
    return OUTER_INDEX[stone]


def proxy_outer(stone: str) -> int:
    """An outer-track index standing for `stone` (inside stones use their realm's branch)."""
    if stone in STONE:
        return outer_index(stone)
    r = realm_of(stone)
    return outer_index(BRANCHES[r if r is not None else 0])


def nearest_hole(stone: str) -> str:
    i = proxy_outer(stone)
    best = None
    for h in HOLES:
        j = outer_index(h)
        dist = min((j - i) % N_OUTER, (i - j) % N_OUTER)
        if best is None or dist < best[0]:
            best = (dist, h)
    return best[1]


def inside(stone: str) -> bool:
    return stone not in STONE


def footprint(d: dict[str, Any]) -> str:
    """What a card can change: places, racks, Black Holes, dice owed, the Black Key, the Chosen One,
    the realms' keys (not the cards held)."""
    players = [{k: v for k, v in pl.items() if k != "time_cards"} for pl in d["players"]]
    return json.dumps([players, d["black_key"], d["chosen"], d["realm_keys"], d["removed"]], sort_keys=True)


def time_band(cid: str) -> int:
    """Which band of the stacked Time deck a card lies in: the earliest to strike on top."""
    return (TIME_FILE["clock"] - TIME[cid]["at"]) // TIME_DECK["band"]


# Each moment's bonus to an order's weight (gatekeeper.toml), in order_weights' argument order.
ORDER_BONUSES = ("leader_bonus", "hole_bonus", "late_bonus", "black_key_bonus", "no_chosen_bonus",
                 "inside_bonus")


@lru_cache(maxsize=1024)
def order_weights(cruel: float, leader: bool, hole: bool, late: bool, black_key: bool, no_chosen: bool,
                  sneaks: bool, active: bool, releasable: bool = False) -> tuple[tuple[str, float], ...]:
    """The Gatekeeper's orders he may give now, with their weights (gatekeeper.toml), from his
    temper and what the table looks like: a leader with 3 keys or more, anyone in a Black Hole,
    the last quarter of the clock, the Black Key held, no Chosen One, anyone sneaking inside
    without every colour, anyone out of the Black Holes, anyone who has waited a turn in a Black
    Hole (only they can be freed). Cached: the same few come back all game."""
    out = []
    for name, o in ORDERS.items():
        w = o.get("weight", 0.0)
        if isinstance(w, list):  # [when kind, when cruel]
            w = w[0] + (w[1] - w[0]) * cruel
        for applies, bonus in zip((leader, hole, late, black_key, no_chosen, sneaks), ORDER_BONUSES):
            if applies:
                w += o.get(bonus, 0.0)
        if o.get("call") and not active:
            w = 0.0
        if name == "inside_catch" and not sneaks:
            w = 0.0
        if name == "release" and not releasable:
            w = 0.0
        if w > 0:
            out.append((name, w))
    return tuple(out)


# ---------------------------------------------------------------- choices (built once: immutable)

def _one(action: str, label: str) -> Choice:
    return Choice(action, (Step(action, label),))


def _two(action: str, first: tuple[str, str], label: str) -> Choice:
    key = action.split()[1]
    return Choice(action, (Step(*first), Step(key, label)))


# The Gatekeeper's call is answered in these words in every language (the rules pages say so).
ANSWER = "YES! MY GATEKEEPER!"
FIXED = {a: _one(a, label) for a, label in (
    ("read", say("choice.read")), ("leave", say("choice.leave")),
    ("yes", ANSWER), ("roll 1", say("choice.roll_one")), ("roll 2", say("choice.roll_two")),
    ("inside", say("choice.inside")), ("outside", say("choice.outside")),
    ("cw", say("choice.cw")), ("ccw", say("choice.ccw")))}
FEAR = Choice("fear", (Step("fear", say("choice.fear")),), input="text")
ROLLS = {None: (FIXED["roll 1"], FIXED["roll 2"]), 1: (FIXED["roll 1"],), 2: (FIXED["roll 2"],)}
PAIRS = {"branch": (FIXED["inside"], FIXED["outside"]), "ring": (FIXED["cw"], FIXED["ccw"])}
SKIPS = {step: _one("skip", say("choice.skip." + step)) for step in ("key", "flight", "duel", "pass")}
TRY_HOLE = [_one("try", say("choice.try_hole", number=s + 1)) for s in range(6)]
TRY_NUMBER = {n: _one("try", say("choice.try_number", number=n)) for n in range(1, 7)}
TAKE = [_one("take", say("choice.take." + c)) for c in COLOURS]
FLY = {f: _two(f"fly {f}", ("fly", say("choice.fly")), STONE_NAMES[f]) for f in FLIGHTS}
DUEL = [_two(f"duel {s + 1}", ("duel", say("choice.duel")), NAMES[s]) for s in range(6)]
PASS = [_two(f"pass {s + 1}", ("pass", say("choice.pass")), NAMES[s]) for s in range(6)]
STEP_LABELS = {step: say("step." + step) for step in ("turn", "branch", "ring", "key", "flight", "duel", "pass")}
# The prompts most steps ask, made once per seat and handed out again (prompts are read-only
# values, games.core.Prompt): a turn's (see turn_prompt), the branch and ring questions, the
# Gatekeeper's call and a key stone's (per seat and realm).
TURN_PROMPTS = [{dice: {on_stone: Prompt(s, STEP_LABELS["turn"], list(rolls) + ([] if on_stone else [FIXED["leave"]]))
                        for on_stone in (False, True)} for dice, rolls in ROLLS.items()} for s in range(6)]
HOLE_PROMPTS = [Prompt(s, STEP_LABELS["turn"], [TRY_HOLE[s]]) for s in range(6)]
NUMBER_PROMPTS = [{n: Prompt(s, STEP_LABELS["turn"], [choice]) for n, choice in TRY_NUMBER.items()} for s in range(6)]
READ_PROMPTS = [Prompt(s, STEP_LABELS["turn"], [FIXED["read"]]) for s in range(6)]
# The Chosen One's (or their left neighbour's) duty: draw the fear of the player at the Well.
DRAW_PROMPTS = [Prompt(s, say("step.draw"), [FIXED["read"]]) for s in range(6)]
PAIR_PROMPTS = [{step: Prompt(s, STEP_LABELS[step], list(pair)) for step, pair in PAIRS.items()} for s in range(6)]
CALL_PROMPTS = [Prompt(s, say("step.called"), [FIXED["yes"]]) for s in range(6)]
KEY_PROMPTS = [[Prompt(s, STEP_LABELS["key"], [TAKE[r], SKIPS["key"]]) for r in range(6)] for s in range(6)]
OPTION_PROMPTS: dict[tuple[int, str, Any], Prompt] = {}  # see AtmosfearGame.step_prompt


# ---------------------------------------------------------------- saved games

def upgrade_2(data: dict[str, Any]) -> dict[str, Any]:
    """Format 2 -> 3: players gain `waited` (a player already in a Black Hole waits for their
    next turn there before anything but their own number frees them) and `must_move` (a Black
    Key holder waiting at the Well was handed it there: they roll on next turn)."""
    new = dict(data)
    holder = data["black_key"]["holder"]
    new["players"] = [{**pl, "waited": False, "must_move": pl["pos"] == WELL and holder == s}
                      for s, pl in enumerate(data["players"])]
    return new


def upgrade_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: players gain `must_dice` (none imposed yet) and the Gatekeeper `said`
    (the lines he has said; an old game starts with none)."""
    new = dict(data)
    new["players"] = [{**pl, "must_dice": None} for pl in data["players"]]
    new["gk"] = {**data["gk"], "said": {}}
    return new


# ---------------------------------------------------------------- the game


def running_clock_end(state: State) -> float | None:
    """When the clock runs out, or None while no timer can fire (the game over, the clock paused
    or not started yet): next_timer and next_due share this."""
    clock = state.data["clock"]
    if state.over or clock["paused_at"] is not None:
        return None
    return clock["end"]


class AtmosfearGame(Game):
    name = "atmosfear"
    ai = "games.atmosfear.ai:choose"
    ai_view_from_view = "games.atmosfear.ai:view_from_view"
    easy = "games.atmosfear.easy:choose"
    renderer = "render.atmosfear:render_atmosfear"
    describer = "render.words.atmosfear:describe"
    warm_up = "render.atmosfear:warm_up"
    rules_page = ("data", "atmosfear/rules.md")
    searcher = "games.atmosfear.sample:search"
    speaker = "render.atmosfear:render_gatekeeper"
    speaker_describer = "render.words.atmosfear:describe_gatekeeper"
    panel_text = "render.words.atmosfear:panel"
    speakers = {"gatekeeper": "THE GATEKEEPER"}
    title = "Atmosfear: The Harbingers"
    pausable = True
    to_move_acts_first = True  # only the seat to move is prompted (in the fears phase: the first)
    image_ignores = ("gatekeeper",)  # he has messages (and a picture) of his own
    option_choices = {"minutes": (40, 20, 60), "answer": tuple(RULES["gk_answer_seconds"])}
    option_texts = {
        "minutes": OptionText("Game clock", "The whole game's time: when it runs out, the "
                                            "Gatekeeper wins.", "minutes"),
        "answer": OptionText("Answer window", "How long a player the Gatekeeper calls has to "
                                              "answer him before he punishes them.", "seconds")}
    state_format = 3
    upgrades = {1: upgrade_1, 2: upgrade_2}
    pitch = ("Gather a key of every colour and face your fear at the Well before the clock runs out, "
             "while the Gatekeeper barks orders at you.")
    min_seats = 3
    max_seats = 6
    colours = COLOURS
    colour_rgb = tuple(tuple(h["rgb"]) for h in HARBINGERS)  # type: ignore[assignment]
    verbs = {"fear": "your greatest fear", "roll": "1 or 2 dice", "inside": "", "outside": "",
             "cw": "", "ccw": "", "take": "", "skip": "",
             "fly": "a Flight stone by the number the board draws beside it, e.g. 30",
             "duel": "a seat number or Harbinger", "pass": "a seat number or Harbinger",
             "try": "", "read": "", "leave": "", "yes": ""}

    # ------------------------------------------------------------ setup
    def setup_data(self, state: State, rng: Rng) -> None:
        minutes = state.options.get("minutes", RULES["minutes_default"])
        if minutes not in RULES["minutes_allowed"]:
            raise IllegalAction(say("refusal.minutes", allowed=", ".join(map(str, RULES["minutes_allowed"])),
                                    minutes=minutes))
        if self.answer_seconds(state) not in RULES["gk_answer_seconds"]:
            raise IllegalAction(say("refusal.answer_window",
                                    allowed=", ".join(map(str, RULES["gk_answer_seconds"]))))
        fate = sorted(FATE)
        rng.shuffle(fate)
        time = sorted(TIME)
        rng.shuffle(time)
        time.sort(key=time_band)  # house rule: stacked by time, shuffled within each band
        per_player = minutes / state.seats
        decoys = list(DECOYS)
        rng.shuffle(decoys)
        decoys = decoys[:own_fears(per_player, state.seats)]
        head = step_table(RULES["head_start"], per_player)
        racks = [[COLOURS[(s + k) % 6] for k in range(1, head + 1)] for s in range(state.seats)]
        state.data = {
            "phase": "fears", "step": "turn", "current": None,
            "players": [{"pos": HEADSTONES[s], "rack": racks[s], "hole": False, "must_roll": None,
                         "must_dice": None, "extra": False, "time_cards": [], "waited": False,
                         "must_move": False} for s in range(state.seats)],
            # fears[seats:] are the Gatekeeper's own (decoys), in the Well from the start
            "fears": [None] * state.seats + decoys,
            "well": list(range(state.seats, state.seats + len(decoys))), "read": [],
            "realm_keys": [KEYS_PER - sum(rack.count(c) for rack in racks) for c in COLOURS],
            "removed": {c: 0 for c in COLOURS},
            "black_key": {"holder": None, "on_board": True},
            "fate": fate, "time": time,
            "clock": {"end": None, "paused_at": None, "minutes": minutes},
            "gk": {"next": None, "on": False, "line": None, "calling": None, "order": None,
                   "deadline": None, "leave_at": None, "n": 0, "said": {}},
            "move": None, "chosen": None, "dice": None, "last": None, "winner": None,
        }
        state.turn = 0

    # ------------------------------------------------------------ small helpers
    def qualified(self, d: dict[str, Any], seat: int) -> bool:
        rack = d["players"][seat]["rack"]
        return (EVERY_COLOUR.issubset(rack) and d["black_key"]["holder"] != seat
                and seat in d["well"])

    def may_stand(self, d: dict[str, Any], seat: int, stone: str) -> bool:
        """Whether a card may put `seat` on `stone`: the inside track, the Well included, only with
        a key of every colour (house rule: a swap never carries a player there unfit)."""
        return not inside(stone) or EVERY_COLOUR.issubset(d["players"][seat]["rack"])

    def keys_count(self, d: dict[str, Any], seat: int) -> int:
        return len(d["players"][seat]["rack"]) + (d["black_key"]["holder"] == seat)

    def keys_shown(self, d: dict[str, Any]) -> tuple[int, ...]:
        """`keys_count` of every seat, in one pass."""
        shown = [len(pl["rack"]) for pl in d["players"]]
        holder = d["black_key"]["holder"]
        if holder is not None:
            shown[holder] += 1
        return tuple(shown)

    def active(self, d: dict[str, Any]) -> list[int]:
        """Seats not in a Black Hole (in the game)."""
        return [s for s, pl in enumerate(d["players"]) if not pl["hole"]]

    def target(self, d: dict[str, Any], seat: int | None, how: str, rng: Rng) -> int | None:
        """Whom a card or the Gatekeeper picks: never `seat`, never anyone in a Black Hole.
        "leader"/"trailer" (most/fewest coloured keys) break ties at random."""
        players = d["players"]
        n = len(players)
        cands = [s for s, pl in enumerate(players) if s != seat and not pl["hole"]]
        if not cands:
            return None
        if how in ("left", "right") and seat is not None:
            step = 1 if how == "left" else -1
            return next(s for k in range(1, n) if (s := (seat + step * k) % n) in cands)
        if how in ("leader", "trailer"):
            keys = [len(players[s]["rack"]) for s in cands]
            best = (max if how == "leader" else min)(keys)
            cands = [s for s, k in zip(cands, keys) if k == best]
        return cands[0] if len(cands) == 1 else rng.choice(cands)

    def _take_from_realm(self, d: dict[str, Any], seat: int, realm: int | None, events: list[Event]) -> bool:
        if realm is None:
            realm = seat
        colour = COLOURS[realm]
        if d["realm_keys"][realm] <= 0:
            events.append(Event(say("event.no_key_found", who=p(seat), colour=COLOUR_WORD[colour],
                                    realm=NAMES[realm])))
            return False
        d["realm_keys"][realm] -= 1
        d["players"][seat]["rack"].append(colour)
        events += TAKE_EVENTS[seat][realm]
        return True

    def _blind(self, d: dict[str, Any], loser: int, winner: int, rng: Rng, events: list[Event]) -> None:
        """`winner` takes one key, chosen blind, from `loser`'s rack (the Black Key included)."""
        rack = d["players"][loser]["rack"]
        pool = list(rack) + (["black"] if d["black_key"]["holder"] == loser else [])
        if not pool:
            events.append(Event(say("event.no_key_to_give", who=p(loser))))
            return
        pick = pool[rng.below(len(pool))]
        if pick == "black":
            self._give_black(d, winner, events, quiet=True)
            events.append(Event(say("event.blind_black_key", who=p(winner), other=p(loser))))
        else:
            rack.remove(pick)
            d["players"][winner]["rack"].append(pick)
            events += BLIND_EVENTS[winner][loser][pick]

    def _give_black(self, d: dict[str, Any], seat: int, events: list[Event], quiet: bool = False) -> None:
        bk = d["black_key"]
        bk["holder"], bk["on_board"] = seat, False
        if not quiet:
            events.append(Event(say("event.holds_black_key", who=p(seat))))
        if d["players"][seat]["pos"] == WELL:
            d["players"][seat]["must_move"] = True
            events.append(Event(say("event.must_leave_well", who=p(seat))))

    def _lose_key(self, d: dict[str, Any], seat: int, rng: Rng, events: list[Event],
                  remove: bool = False) -> None:
        rack = d["players"][seat]["rack"]
        if not rack:
            events.append(Event(say("event.no_key_to_lose", who=p(seat))))
            return
        colour = rack.pop(rng.below(len(rack)))
        if remove:
            d["removed"][colour] += 1
            events.append(Event(say("event.key_removed", who=p(seat))))
            events.append(Event(say("private.key_removed", key=YOUR_KEY[colour]), to=(seat,), kind="private"))
        else:
            d["realm_keys"][COLOURS.index(colour)] += 1
            events.append(Event(say("event.key_returned", who=p(seat), key=A_KEY[colour],
                                    realm=NAMES[COLOURS.index(colour)])))

    def _fall(self, pl: dict[str, Any], hole: str) -> None:
        """Into a Black Hole: an extra turn won earlier is lost with the rest of the game, and
        nothing but their own number frees them before their next turn has come round there."""
        pl["pos"], pl["hole"], pl["extra"], pl["waited"] = hole, True, False, False

    def _to_hole(self, d: dict[str, Any], seat: int, events: list[Event]) -> None:
        pl = d["players"][seat]
        hole = nearest_hole(pl["pos"])
        self._fall(pl, hole)
        events.append(Event(say("event.cast_into_hole", who=p(seat), hole=STONE_NAMES[hole])))

    def _release(self, d: dict[str, Any], seat: int, events: list[Event], why: str, **params: Any) -> None:
        """Free `seat` from a Black Hole, saying how (`why`: the `event.released.<why>` message)."""
        pl = d["players"][seat]
        if pl["hole"] and not pl["waited"]:
            events.append(Event(say("event.fell_too_recently", who=p(seat))))
        elif pl["hole"]:
            pl["hole"] = False
            events.append(Event(say("event.released." + why, who=p(seat), **params)))

    def _impose_dice(self, d: dict[str, Any], seat: int, n: int, events: list[Event]) -> None:
        """The Gatekeeper or Fate picks how many dice `seat` rolls next time they move."""
        d["players"][seat]["must_dice"] = n
        events.append(Event(say("event.must_dice", who=p(seat), dice=DICE_WORDS[n])))

    def _to_headstone(self, d: dict[str, Any], seat: int, events: list[Event]) -> None:
        """Back home (not a landing). A player in a Black Hole is out of the game: they stay."""
        pl = d["players"][seat]
        if pl["hole"]:
            events.append(Event(say("event.stays_in_hole", who=p(seat))))
            return
        pl["pos"] = HEADSTONES[seat]
        events.append(Event(say("event.to_headstone", who=p(seat))))

    # ------------------------------------------------------------ the clock
    def _start_clock(self, state: State, now: float, rng: Rng, events: list[Event]) -> None:
        d = state.data
        d["clock"]["end"] = now + d["clock"]["minutes"] * 60
        lo, hi = RULES["gk_first_gap"]
        d["gk"]["next"] = now + lo + rng.random() * (hi - lo)
        d["phase"], d["current"], d["step"] = "play", RULES["first_seat"], "turn"
        state.turn = 1
        events.append(Event(say("event.clock_starts", count=d["clock"]["minutes"], who=p(d["current"]))))
        self._begin_turn(d, d["current"], events)

    def _end_game_clock(self, state: State, events: list[Event], rng: Rng) -> None:
        d = state.data
        state.over = True
        state.result = {"winners": [], "scores": None, "reason": GATEKEEPER_WINS}
        d["phase"], d["current"] = "over", None
        d["gk"].update(on=True, calling=None, deadline=None, leave_at=None)
        line = self._say(d, "lose", rng)
        d["gk"]["line"] = line
        events.append(Event(line, kind="gatekeeper"))
        events.append(Event(say("event.time_up"), kind="end"))

    def minutes_left(self, d: dict[str, Any], now: float) -> int:
        end = d["clock"]["end"]
        return max(0, int((end - now) // 60)) if end is not None else d["clock"]["minutes"]

    # ------------------------------------------------------------ reduce
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        return self.reduce_offered(state, seat, action, now, rng, offered=False)

    def reduce_offered(self, state: State, seat: int, action: str, now: float, rng: Rng,
                       offered: bool = True) -> list[Event]:
        """Both doors in one (`reduce` passes offered=False): an offered move is one of the
        step's choices already, so only a move from outside is checked against them."""
        d = state.data
        if state.over or d["phase"] == "over":
            raise IllegalAction(say("refusal.over"))
        verb, arg = split_action(action)
        if not verb:
            raise IllegalAction(EMPTY)
        d["now"] = now
        if seat == SYSTEM:
            return self._system(state, verb, arg, now, rng)
        clock = d["clock"]
        if clock["paused_at"] is not None:
            raise IllegalAction(say("refusal.paused"))
        if d["phase"] == "fears":
            if verb != "fear":
                raise IllegalAction(say("refusal.fear_first"))
            return self._fear(state, seat, arg, now, rng)
        gk = d["gk"]
        if gk["on"]:
            if verb == "yes" and not arg and gk["calling"] == seat:
                return self._answer(state, seat, now, rng)
            lines = LINES["silence"]
            raise IllegalAction(Msg(lines[(state.version + seat) % len(lines)], name=NAMES[seat]))
        if clock["end"] is not None and now >= clock["end"]:
            events: list[Event] = []
            self._end_game_clock(state, events, rng)
            return events
        if not offered:  # an offered move is the current seat's, and one of the step's choices
            if verb == "yes":
                raise IllegalAction(say("refusal.not_called"))
            if verb == "fear":
                raise IllegalAction(say("refusal.fear_in_well"))
            drawer = self.drawer(d)
            if seat != d["current"] and seat != drawer:
                raise IllegalAction(say("refusal.not_your_turn",
                                        harbinger=NAMES[d["current"] if drawer is None else drawer]))
            canon = canonical_action(verb, arg)
            allowed = [c.action for c in self.choices(state, seat)]
            if canon not in allowed:
                raise IllegalAction(self._why(d, seat, verb, canon, allowed))
        play = STEP_PLAYS.get(d["step"])
        if play is None:
            raise IllegalAction(SYNTAX)
        return play(self, state, seat, verb, arg, rng)

    def _fear(self, state: State, seat: int, text: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        if d["fears"][seat] is not None:
            raise IllegalAction(say("refusal.fear_wait"))
        text = clean_fear(text)
        if not text:
            raise IllegalAction(say("refusal.fear_empty"))
        max_c = RULES["fear_max_chars"]
        if len(text) > max_c:
            raise IllegalAction(say("refusal.fear_long", count=len(text), most=max_c))
        d["fears"][seat] = text
        d["well"].append(seat)
        events = [Event(say("event.fear_dropped", who=p(seat)))]
        if all(f is not None for f in d["fears"]):
            self._start_clock(state, now, rng, events)
        return events

    # ------------------------------------------------------------ system actions
    def _system(self, state: State, verb: str, arg: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        clock, gk = d["clock"], d["gk"]
        events: list[Event] = []
        if verb == "pause" and not arg:
            if clock["paused_at"] is not None:
                raise IllegalAction(say("refusal.already_paused"))
            clock["paused_at"] = now
            return [Event(say("event.paused"))]
        if verb == "resume" and not arg:
            if clock["paused_at"] is None:
                raise IllegalAction(say("refusal.not_paused"))
            delta = max(0.0, now - clock["paused_at"])
            clock["paused_at"] = None
            if clock["end"] is not None:
                clock["end"] += delta
            for k in ("next", "deadline", "leave_at"):
                if gk[k] is not None:
                    gk[k] += delta
            return [Event(say("event.resumed"))]
        if clock["paused_at"] is not None:
            raise IllegalAction(say("refusal.timers_paused"))
        if clock["end"] is None:
            raise IllegalAction(say("refusal.clock_not_started"))
        if gk["on"] and verb not in ("gk", "pause", "resume"):
            raise IllegalAction(say("refusal.gatekeeper_on"))
        if verb == "clock" and arg == "end":
            if now < clock["end"]:
                raise IllegalAction(say("refusal.clock_running"))
            self._end_game_clock(state, events, rng)
            return events
        if verb == "gk" and arg == "appear":
            if gk["on"] or gk["next"] is None or now < gk["next"]:
                raise IllegalAction(say("refusal.gatekeeper_not_due"))
            return self._appear(state, now, rng)
        if verb == "gk" and arg == "late":
            if not gk["on"] or gk["calling"] is None or now < gk["deadline"]:
                raise IllegalAction(say("refusal.nobody_late"))
            return self._late(state, now, rng)
        if verb == "gk" and arg == "leave":
            if not gk["on"] or gk["calling"] is not None or now < gk["leave_at"]:
                raise IllegalAction(say("refusal.gatekeeper_stays"))
            line = self._say(d, "leave", rng)
            lo, hi = RULES["gk_gap"]
            state.turn += 1  # a fresh turn timer for whoever plays on (see _appear)
            gk.update(on=False, line=None, order=None, leave_at=None, deadline=None,
                      next=now + lo + rng.random() * (hi - lo))
            return [Event(line, kind="gatekeeper")]
        if verb == "time":
            cid = arg.upper()
            for s, pl in enumerate(d["players"]):
                if cid in pl["time_cards"]:
                    if now < self.time_due(d, cid):
                        raise IllegalAction(say("refusal.time_card_not_due", card=cid))
                    pl["time_cards"].remove(cid)  # spent: set aside, never drawn again
                    card = TIME[cid]
                    events.append(Event(say("event.time_strikes", who=p(s), card=self.time_text(d, cid)),
                                        kind="time"))
                    self._interrupt(state, events, lambda: self._strike(state, s, card, rng, events))
                    return events
            raise IllegalAction(say("refusal.time_card_unheld", card=echo(cid)))
        raise IllegalAction(say("refusal.not_system", action=echo((verb + ' ' + arg).strip())))

    def _strike(self, state: State, seat: int, card: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        """A Time card acts. One that would change nothing acts as the deck's `otherwise` effects
        instead (aimed at the Harbinger with the most keys), the first that changes something
        (house rule: a card that strikes matters). A card may list its own `otherwise`."""
        d = state.data
        tries = [card] + [{"effect": e, "target": "leader"} for e in card.get("otherwise", TIME_DECK["otherwise"])]
        for attempt in tries:
            before = footprint(d)
            said: list[Event] = []
            self._effect(state, seat, attempt, rng, said, on_turn=False)
            if footprint(d) != before or attempt is tries[-1]:
                events.extend(said)
                return

    def time_due(self, d: dict[str, Any], cid: str) -> float:
        return d["clock"]["end"] - TIME_BEFORE[d["clock"]["minutes"]][cid]

    def time_text(self, d: dict[str, Any], cid: str) -> Msg:
        """Time card `cid`'s text, with its time on this game's clock."""
        return TIME_TEXT[d["clock"]["minutes"]][cid]

    # ------------------------------------------------------------ the Gatekeeper
    def temper(self, d: dict[str, Any]) -> float:
        """How cruel he is, 0 (kind) to 1 (cruel): it follows the clock's minutes per player, so
        tables with little time each get help and tables with plenty get trouble (gatekeeper.toml)."""
        x = d["clock"]["minutes"] / len(d["players"])
        points = GK["temper"]
        if x <= points[0][0]:
            return points[0][1]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            if x <= x1:
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return points[-1][1]

    def _weights(self, d: dict[str, Any], now: float) -> list[tuple[str, float]]:
        players = d["players"]
        act = self.active(d)
        leader_keys = max([len(players[s]["rack"]) for s in act], default=0)
        end, total = d["clock"]["end"], d["clock"]["minutes"] * 60
        weights = order_weights(self.temper(d), leader_keys >= 3, len(act) < len(players),
                                end is not None and (end - now) < total / 4,
                                d["black_key"]["holder"] is not None, d["chosen"] is None,
                                bool(self.sneaks(d)), bool(act),
                                any(pl["hole"] and pl["waited"] for pl in players))
        # an order whose lines he has all said in this game is left out
        said = d["gk"]["said"]
        taunt = any(said.get(group, 0) != ALL_SAID[group] for group in TAUNTS)
        return [(name, w) for name, w in weights
                if (said.get(name, 0) != ALL_SAID[name] if name != "taunt" else taunt)]

    def _pick(self, items: list[tuple[Any, float]], rng: Rng) -> Any:
        return items[rng.weighted([w for _, w in items])][0]

    def _appear(self, state: State, now: float, rng: Rng) -> list[Event]:
        """He takes the screen. `state.turn` moves on as he comes and goes: a turn timer armed
        before he came is stale, and whoever plays on after him gets a whole turn's time."""
        d = state.data
        gk = d["gk"]
        gk["n"] += 1
        state.turn += 1
        order = self._pick(self._weights(d, now) or [("taunt", 1.0)], rng)
        o = ORDERS[order]
        target = None
        args: dict[str, Any] = {}
        if o.get("call"):
            target = self._victim(d, o.get("target", "random"), rng)
            if order in ("must_roll", "dice"):
                args["number"] = rng.choice(GK[order + "_numbers"])
            if order == "dice":
                line = self._say(d, order, rng, target, dice=DICE_WORDS[args["number"]])
            else:
                line = self._say(d, order, rng, target, **args)
        elif order == "taunt":
            line = self._taunt(d, now, rng)
        else:
            line = self._say(d, order, rng)
        events = [Event(line, kind="gatekeeper")]
        gk.update(on=True, line=line, order={"kind": order, "target": target, **args})
        if target is not None:
            gk["calling"] = target
            gk["deadline"] = now + self.answer_seconds(state)
            gk["leave_at"] = None
        else:
            self._interrupt(state, events, lambda: self._carry_out(state, order, None, {}, rng, events))
            gk["calling"], gk["deadline"] = None, None
            gk["leave_at"] = now + RULES["gk_leave_seconds"]
        return events

    @staticmethod
    def answer_seconds(state: State) -> int:
        """How long a called player has to answer: the lobby's choice; a game saved before the
        option existed has none in its options and keeps the first (the old fixed window)."""
        return state.options.get("answer", RULES["gk_answer_seconds"][0])

    def _victim(self, d: dict[str, Any], how: str, rng: Rng) -> int | None:
        if how != "inside":
            return self.target(d, None, how, rng)
        return rng.choice(self.sneaks(d))

    def sneaks(self, d: dict[str, Any]) -> list[int]:
        """Players on the inside track (the Well included) without a key of every colour."""
        players = d["players"]
        return [s for s in self.active(d) if inside(players[s]["pos"])
                and not EVERY_COLOUR.issubset(players[s]["rack"])]

    def _taunt(self, d: dict[str, Any], now: float, rng: Rng) -> dict[str, Any]:
        """A taunt fitted to the moment: the clock, the Black Key, the void, or the leader."""
        options: list[tuple[str, int | None]] = [("greeting", None), ("time_left", None)]
        holder = d["black_key"]["holder"]
        if holder is not None:
            options.append(("black_key", holder))
        holes = [s for s, pl in enumerate(d["players"]) if pl["hole"]]
        if holes:
            options.append(("black_hole_taunt", rng.choice(holes)))
        lead = self.target(d, None, "leader", rng)
        if lead is not None and d["players"][lead]["rack"]:
            options.append(("leader", lead))
        group, who = rng.choice([o for o in options if self._fresh(d, o[0])] or options[:1])
        if group == "time_left":
            return self._say(d, group, rng, minutes=self.minutes_left(d, now))
        return self._say(d, group, rng, who)

    def _fresh(self, d: dict[str, Any], group: str) -> bool:
        """Has he a line of `group` left that he has not said in this game?"""
        return d["gk"]["said"].get(group, 0) != ALL_SAID[group]

    def _say(self, d: dict[str, Any], group: str, rng: Rng, seat: int | None = None,
             **params: Any) -> dict[str, Any]:
        """A line of `group` not said yet in this game, remembered in gk.said as a bit mask
        (a used-up group starts over, which the weights make rare); as the state keeps it (a
        stored message), naming `seat` ({name}) if he addresses one."""
        said = d["gk"]["said"]
        used = said.get(group, 0)
        if used == ALL_SAID[group]:
            used = 0
        unsaid = ALL_SAID[group] & ~used
        # the k-th line not said yet (the pick of one from their list, in order): drop the k first
        for _ in range(rng.below(unsaid.bit_count())):
            unsaid &= unsaid - 1
        index = (unsaid & -unsaid).bit_length() - 1
        said[group] = used | 1 << index
        if seat is not None:
            params["name"] = p(seat)
        return Msg(LINES[group][index], **params).stored()

    def _answer(self, state: State, seat: int, now: float, rng: Rng) -> list[Event]:
        d = state.data
        gk = d["gk"]
        if now >= gk["deadline"]:
            return self._late(state, now, rng)
        events = [Event(f"{p(seat)}: {ANSWER}"),
                  Event(self._say(d, "answered", rng, seat), kind="gatekeeper")]
        order = gk["order"]
        self._interrupt(state, events, lambda: self._carry_out(state, order["kind"], seat, order, rng, events))
        gk.update(calling=None, deadline=None, leave_at=now + RULES["gk_leave_seconds"])
        return events

    def _late(self, state: State, now: float, rng: Rng) -> list[Event]:
        d = state.data
        gk = d["gk"]
        seat = gk["calling"]
        kinds = [(x["kind"], x["weight"]) for x in PUNISHMENTS]
        kind = self._pick([k for k in kinds if self._fresh(d, "punish_" + k[0])] or kinds, rng)
        line = self._say(d, "punish_" + kind, rng, seat)
        gk["line"] = line
        events = [Event(line, kind="gatekeeper")]
        self._interrupt(state, events, lambda: self._carry_out(state, kind, seat, {}, rng, events))
        gk.update(calling=None, deadline=None, leave_at=now + RULES["gk_leave_seconds"])
        return events

    def _carry_out(self, state: State, kind: str, seat: int | None, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        d = state.data
        players = d["players"]
        if kind == "must_roll":
            players[seat]["must_roll"] = order["number"]
            events.append(Event(say("event.must_roll_order", who=p(seat), number=order["number"])))
        elif kind == "dice":
            self._impose_dice(d, seat, order["number"], events)
        elif kind == "take_key":
            self._take_from_realm(d, seat, realm_of(players[seat]["pos"]), events)
        elif kind == "lose_key":
            self._lose_key(d, seat, rng, events)
        elif kind == "remove_key":
            self._lose_key(d, seat, rng, events, remove=True)
        elif kind == "black_hole":
            self._to_hole(d, seat, events)
        elif kind in ("headstone", "inside_catch"):
            self._to_headstone(d, seat, events)
        elif kind == "all_headstones":
            for s in self.active(d):
                self._to_headstone(d, s, events)
        elif kind == "release":
            for s in range(len(players)):
                self._release(d, s, events, "gatekeeper")
        elif kind == "fate":
            self._draw_fate(state, seat, rng, events, on_turn=False)
        elif kind == "chosen":
            d["chosen"] = seat
            events.append(Event(say("event.chosen", who=p(seat))))

    def _interrupt(self, state: State, events: list[Event], fn: Any) -> None:
        """Run an off-turn effect (the Gatekeeper, a Time card), then tidy up the current turn: a
        player banished to a Black Hole, or moved while in the middle of a move, loses the turn."""
        d = state.data
        seat = d["current"]
        before = (d["players"][seat]["pos"], d["players"][seat]["hole"])
        fn()
        if state.over:
            return
        pl = d["players"][seat]
        if pl["hole"] and not before[1]:
            self._end_turn(state, events)
        elif d["step"] != "turn" and pl["pos"] != before[0]:
            self._end_turn(state, events)
        elif d["step"] == "duel" and not self.duel_targets(d, seat):
            self._end_turn(state, events)
        elif d["step"] == "pass" and not self.pass_targets(d, seat):
            self._end_turn(state, events)
        elif d["step"] == "draw" and not self.qualified(d, seat):  # no longer fit for the Well
            self._end_turn(state, events)

    # ------------------------------------------------------------ turns
    def _begin_turn(self, d: dict[str, Any], seat: int, events: list[Event]) -> None:
        pl = d["players"][seat]
        d["step"], d["move"] = "turn", None
        if pl["hole"]:
            pl["waited"] = True  # their turn has come round in the Black Hole
        if pl["hole"] and COLOURS[seat] in pl["rack"]:
            self._release(d, seat, events, "own_key", colour=COLOUR_WORD[COLOURS[seat]])

    def _end_turn(self, state: State, events: list[Event], force: bool = False) -> None:
        d = state.data
        seat = d["current"]
        pl = d["players"][seat]
        d["move"] = None
        if pl["extra"] and not pl["hole"]:
            pl["extra"] = False
            events.append(Event(say("event.another_turn", who=p(seat))))
            self._begin_turn(d, seat, events)
            return
        nxt = (seat + 1) % state.seats
        d["current"] = nxt
        state.turn += 1
        self._begin_turn(d, nxt, events)

    # A player's action, one handler per step, for an action the step allows (offered, or
    # checked in `reduce_offered`).
    def _play_turn(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        d = state.data
        pl = d["players"][seat]
        events: list[Event] = []
        if verb == "roll":
            pl["must_dice"], pl["must_move"] = None, False
            dice = rng.choices(DIE_FACES, DICE_COUNT[arg])  # n throws of rng.die(), one call
            d["dice"] = dice
            event, total = ROLL_EVENTS[seat][tuple(dice)]
            events.append(event)
            d["move"] = {"steps": total, "dir": None, "decided": None, "inside": False,
                         "path": [pl["pos"]]}
            self._walk(state, seat, rng, events)
            return events
        if verb == "try":
            die = rng.die()
            d["dice"] = [die]
            if pl["hole"]:
                if die == seat + 1:
                    pl["hole"] = False
                    events.append(Event(say("event.hole_escape", who=p(seat), number=die)))
                else:
                    events.append(Event(say("event.hole_stays", who=p(seat), number=die)))
                self._end_turn(state, events)
                return events
            need = pl["must_roll"]
            if die == need:
                pl["must_roll"] = None
                events.append(Event(say("event.demanded_rolled", who=p(seat), number=die)))
                return events
            events.append(Event(say("event.demanded_missed", who=p(seat), number=die, need=need)))
            self._end_turn(state, events)
            return events
        if verb == "read":  # the player at the Well asks: the Chosen One draws, or the Gatekeeper
            drawer = self.chosen_reader(d, seat)
            if drawer is None:
                return self._read(state, seat, rng)
            d["step"] = "draw"
            return [Event(say("event.asks_chosen", who=p(seat), chosen=p(drawer)))]
        if verb == "leave":
            self._to_headstone(d, seat, events)
            d["last"] = {"seat": seat, "path": [pl["pos"]]}
            self._end_turn(state, events)
            return events
        if verb == "pass":
            self._pass(d, seat, canonical_action(verb, arg), events)
            return events
        raise IllegalAction(SYNTAX)

    def _play_branch(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        d = state.data
        mv = d["move"]
        mv["decided"] = d["players"][seat]["pos"]
        mv["inside"] = verb == "inside"
        events = [BRANCH_EVENTS[seat][verb]]
        self._walk(state, seat, rng, events)
        return events

    def _play_ring(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        state.data["move"]["dir"] = verb
        events: list[Event] = []
        self._walk(state, seat, rng, events)
        return events

    def _play_key(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        d = state.data
        events: list[Event] = []
        if verb == "take":
            self._take_from_realm(d, seat, realm_of(d["players"][seat]["pos"]), events)
        else:
            events.append(Event(say("event.leaves_key", who=p(seat))))
        self._after_landing(state, seat, events)
        return events

    def _play_flight(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        d = state.data
        events: list[Event] = []
        if verb == "fly":
            dest = canonical_action(verb, arg).split()[1]
            d["players"][seat]["pos"] = dest
            d["last"]["path"].append(dest)
            events.append(Event(say("event.flies", who=p(seat), stone=STONE_NAMES[dest])))
        self._after_landing(state, seat, events, done=("flight",))
        return events

    def _play_duel(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        d = state.data
        events: list[Event] = []
        if verb == "duel":
            self._duel(d, seat, int(canonical_action(verb, arg).split()[1]) - 1, rng, events)
        self._after_landing(state, seat, events, done=("flight", "duel"))
        return events

    def _play_pass(self, state: State, seat: int, verb: str, arg: str, rng: Rng) -> list[Event]:
        events: list[Event] = []
        if verb == "pass":
            self._pass(state.data, seat, canonical_action(verb, arg), events)
        self._end_turn(state, events)
        return events

    def _pass(self, d: dict[str, Any], seat: int, canon: str, events: list[Event]) -> None:
        to = int(canon.split()[1]) - 1
        events.append(Event(say("event.passes_black_key", who=p(seat), other=p(to))))
        self._give_black(d, to, events, quiet=True)

    def _duel(self, d: dict[str, Any], seat: int, other: int, rng: Rng, events: list[Event]) -> None:
        for _ in range(RULES["max_duel_rerolls"]):
            a, b = rng.die(), rng.die()
            events.append(DUEL_EVENTS[seat][other][a - 1][b - 1])
            if a != b:
                break
        else:
            a, b = 1, 0
        d["dice"] = [a, b]
        win, lose = (seat, other) if a > b else (other, seat)
        self._blind(d, lose, win, rng, events)

    # ------------------------------------------------------------ moving
    def _next_stone(self, d: dict[str, Any], seat: int, here: str) -> str | None:
        """The stone after `here` (the Well or the Inner Ring) on the walk, or None if a choice
        is needed first (step set)."""
        mv = d["move"]
        if here == WELL:
            return GATE
        if here == GATE and self.qualified(d, seat):
            return WELL
        if mv["dir"] is None:
            d["step"] = "ring"
            return None
        i = INNER_INDEX[here]
        return INNER[(i + (1 if mv["dir"] == "cw" else -1)) % len(INNER)]

    def _walk(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        pl = d["players"][seat]
        mv = d["move"]
        d["step"] = "turn"
        steps, path = mv["steps"], mv["path"]
        here = pl["pos"]
        while steps > 0:
            run = PLAIN_RUNS.get(here)
            if run is None:
                if here in BRANCH_RUNS:  # a way inside: taken or not, as the player decided here
                    if mv["decided"] != here:
                        d["step"] = "branch"
                        pl["pos"] = here
                        mv["steps"] = steps
                        return  # waiting for a choice
                    run = BRANCH_RUNS[here][mv["inside"]]
                    mv["inside"] = False
                elif mv["dir"] is not None:
                    run = RING_RUNS[mv["dir"]].get(here)
            if run is not None:  # no choice before the run's end: as many steps of it as the roll
                taken = run[:steps]
                path += taken
                here = taken[-1]
                steps -= len(taken)
                continue
            nxt = self._next_stone(d, seat, here)
            if nxt is None:
                pl["pos"] = here
                mv["steps"] = steps
                return  # waiting for a choice
            here = nxt
            path.append(nxt)
            steps -= 1
            if nxt == WELL:
                steps = 0
        pl["pos"] = here
        d["last"] = {"seat": seat, "path": path}  # the move is over: its path is the last one
        d["move"] = None
        events.append(MOVE_EVENTS[seat][here])
        self._land(state, seat, rng, events)

    def _land(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        """Landing on a stone by a roll (all effects; some are choices)."""
        d = state.data
        pl = d["players"][seat]
        here = pl["pos"]
        if here == WELL:
            events.append(Event(say("event.at_well", who=p(seat))))
            self._after_landing(state, seat, events, done=("flight", "duel"))
            return
        kind = KIND.get(here, "plain")
        if kind == "key":
            realm = STONE[here]["realm"]
            if d["realm_keys"][realm] > 0:
                d["step"] = "key"
                return
            events.append(Event(say("event.realm_empty", colour=COLOUR_WORD[COLOURS[realm]], realm=NAMES[realm])))
        elif kind == "fate":
            self._draw_fate(state, seat, rng, events, on_turn=True)
            if pl["hole"]:
                self._end_turn(state, events)
            else:
                self._after_landing(state, seat, events, done=("flight", "duel"))
            return
        elif kind in LANDING_EFFECTS:
            self._land_simple(state, seat, rng, events)
            if pl["hole"]:
                self._end_turn(state, events)
                return
        self._after_landing(state, seat, events)

    def _land_simple(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        """Landing effects that need no choice (also used when a card moves a player)."""
        d = state.data
        pl = d["players"][seat]
        here = pl["pos"]
        kind = KIND.get(here, "plain")
        if kind == "black_key" and d["black_key"]["on_board"]:
            events.append(Event(say("event.picks_black_key", who=p(seat))))
            self._give_black(d, seat, events, quiet=True)
        elif kind == "black_hole":
            self._fall(pl, here)
            events.append(Event(say("event.falls_into_hole", who=p(seat), hole=STONE_NAMES[here])))
        elif kind == "time":
            self._draw_time(state, seat, events)
        elif kind == "headstone":
            owner = STONE[here]["realm"]
            die = rng.die()
            if owner == seat:
                if die == seat + 1:
                    events.append(Event(say("event.home_lucky", who=p(seat), number=die)))
                    self._take_from_realm(d, seat, seat, events)
                else:
                    events.append(Event(say("event.home_unlucky", who=p(seat), number=die)))
            elif owner < state.seats and not d["players"][owner]["hole"]:
                # the owner rolls for the visitor's number, not their own
                if die == seat + 1:
                    events.append(Event(say("event.trespass_caught", who=p(seat), owner=p(owner), number=die)))
                    self._blind(d, seat, owner, rng, events)
                else:
                    events.append(Event(say("event.trespass_safe", who=p(seat), owner=p(owner), number=die)))

    def _after_landing(self, state: State, seat: int, events: list[Event], done: tuple[str, ...] = ()) -> None:
        """The optional steps that follow a landing: flight, duel, passing the Black Key."""
        d = state.data
        kind = KIND.get(d["players"][seat]["pos"], "plain")
        if kind == "flight" and "flight" not in done:
            d["step"] = "flight"
            return
        if kind == "duel" and "duel" not in done and self.duel_targets(d, seat):
            d["step"] = "duel"
            return
        if d["black_key"]["holder"] == seat and self.pass_targets(d, seat):
            d["step"] = "pass"
            return
        self._end_turn(state, events)

    def duel_targets(self, d: dict[str, Any], seat: int) -> list[int]:
        if self.keys_count(d, seat) == 0 or d["players"][seat]["hole"]:
            return []
        holder = d["black_key"]["holder"]
        return [s for s, pl in enumerate(d["players"]) if s != seat and not pl["hole"]
                and (pl["rack"] or holder == s)]

    def pass_targets(self, d: dict[str, Any], seat: int) -> list[int]:
        if d["black_key"]["holder"] != seat:
            return []
        here = d["players"][seat]["pos"]
        return [s for s, pl in enumerate(d["players"]) if s != seat and not pl["hole"] and pl["pos"] == here]

    # ------------------------------------------------------------ cards
    def _draw_fate(self, state: State, seat: int, rng: Rng, events: list[Event], on_turn: bool) -> None:
        d = state.data
        cid = d["fate"].pop(0)
        d["fate"].append(cid)
        card = FATE[cid]
        events.append(Event(say("event.fate", who=p(seat), card=FATE_TEXT[cid]), kind="fate"))
        self._effect(state, seat, card, rng, events, on_turn=on_turn)

    def _draw_time(self, state: State, seat: int, events: list[Event]) -> None:
        """Draw the top Time card and keep it hidden until its time. A card whose time has passed
        is useless and set aside; with `skip_passed` (house rule) the next one is drawn instead,
        until a card with its time still to come turns up. Cards never go back under the deck."""
        d = state.data
        passed = 0
        while d["time"]:
            cid = d["time"].pop(0)
            if d["clock"]["end"] is not None and self.time_due(d, cid) > self._now_hint(d):
                if passed:
                    events.append(Event(say("event.time_passed", who=p(seat), count=passed), kind="time"))
                d["players"][seat]["time_cards"].append(cid)
                events.append(Event(say("event.time_drawn", who=p(seat)), kind="time"))
                events.append(Event(say("private.time_card", card=self.time_text(d, cid)), to=(seat,),
                                    kind="private"))
                return
            passed += 1
            if not TIME_DECK["skip_passed"]:
                events.append(Event(say("event.time_useless", who=p(seat)), kind="time"))
                return
        if passed:
            events.append(Event(say("event.time_passed_empty", who=p(seat), count=passed), kind="time"))
        else:
            events.append(Event(say("event.time_empty", who=p(seat)), kind="time"))

    def _now_hint(self, d: dict[str, Any]) -> float:
        return d.get("now", 0.0)

    def _effect(self, state: State, seat: int, card: dict[str, Any], rng: Rng, events: list[Event],
                on_turn: bool) -> None:
        d = state.data
        players = d["players"]
        pl = players[seat]
        e = card["effect"]
        tgt = self.target(d, seat, card.get("target", "leader"), rng)
        nothing = NOTHING
        if e == "take_key":
            self._take_from_realm(d, seat, realm_of(pl["pos"]), events)
        elif e == "steal":
            if tgt is None or self.keys_count(d, tgt) == 0:
                events.append(nothing)
            else:
                self._blind(d, tgt, seat, rng, events)
        elif e == "lose_key":
            self._lose_key(d, seat, rng, events)
        elif e == "remove_key":
            self._lose_key(d, seat, rng, events, remove=True)
        elif e == "black_hole":
            self._to_hole(d, seat, events)
        elif e == "black_hole_target":
            if tgt is None:
                events.append(nothing)
            else:
                self._to_hole(d, tgt, events)
        elif e == "release":
            if pl["hole"]:
                self._release(d, seat, events, "time_card")
            else:
                events.append(nothing)
        elif e == "release_all":
            if not any(x["hole"] for x in players):
                events.append(nothing)
            for s in range(len(players)):
                self._release(d, s, events, "plain")
        elif e == "swap":
            if tgt is None or pl["hole"] or not self.may_stand(d, seat, players[tgt]["pos"]) \
                    or not self.may_stand(d, tgt, pl["pos"]):
                events.append(nothing)
            else:
                pl["pos"], players[tgt]["pos"] = players[tgt]["pos"], pl["pos"]
                events.append(Event(say("event.swap", who=p(seat), other=p(tgt))))
        elif e == "move":
            if inside(pl["pos"]) or pl["hole"]:
                events.append(Event(say("event.off_track", who=p(seat))))
            else:
                i = (outer_index(pl["pos"]) + card["n"]) % N_OUTER
                pl["pos"] = OUTER_IDS[i]
                events.append(Event(say("event.moved", who=p(seat), stone=STONE_NAMES[pl["pos"]])))
                self._land_simple(state, seat, rng, events)
        elif e == "fly":
            if inside(pl["pos"]) or pl["hole"]:
                events.append(Event(say("event.off_track", who=p(seat))))
            else:
                i = outer_index(pl["pos"])
                dest = min(FLIGHTS, key=lambda f: (outer_index(f) - i - 1) % N_OUTER)
                pl["pos"] = dest
                events.append(Event(say("event.flies", who=p(seat), stone=STONE_NAMES[dest])))
        elif e == "roll_again":
            pl["extra"] = True
            events.append(Event(say("event.will_play_again", who=p(seat))))
        elif e == "black_key_give":
            if d["black_key"]["holder"] != seat or tgt is None:
                events.append(nothing)
            else:
                events.append(Event(say("event.gives_black_key", who=p(seat), other=p(tgt))))
                self._give_black(d, tgt, events, quiet=True)
        elif e == "black_key_take":
            if d["black_key"]["holder"] == seat:
                events.append(nothing)
            else:
                events.append(Event(say("event.black_key_flies", who=p(seat))))
                self._give_black(d, seat, events, quiet=True)
        elif e == "headstone":
            self._to_headstone(d, seat, events)
        elif e == "all_headstones":
            for s in self.active(d):
                self._to_headstone(d, s, events)
        elif e == "dice":
            self._impose_dice(d, seat, card["n"], events)
        elif e == "must_roll":
            pl["must_roll"] = card["n"]
            events.append(Event(say("event.must_roll_card", who=p(seat), number=card["n"])))
        elif e == "chosen":
            d["chosen"] = seat
            events.append(Event(say("event.chosen", who=p(seat))))
        elif e == "duel":
            if tgt is None or pl["hole"] or self.keys_count(d, tgt) == 0 and self.keys_count(d, seat) == 0:
                events.append(nothing)
            else:
                self._duel(d, seat, tgt, rng, events)
        elif e == "give_key":
            if tgt is None or not pl["rack"]:
                events.append(nothing)
            else:
                colour = pl["rack"].pop(rng.below(len(pl["rack"])))
                players[tgt]["rack"].append(colour)
                events.append(Event(say("event.gives_key", who=p(seat), other=p(tgt))))
                events.append(Event(say("private.gave", key=YOUR_KEY[colour]), to=(seat,), kind="private"))
                events.append(Event(say("private.received", key=A_KEY[colour]), to=(tgt,), kind="private"))
        elif e == "everyone_lose":
            for s in range(len(players)):
                if s != seat and players[s]["rack"]:
                    self._lose_key(d, s, rng, events)
        else:
            raise AssertionError(e)

    # ------------------------------------------------------------ the Well
    def chosen_reader(self, d: dict[str, Any], seat: int) -> int | None:
        """Who draws `seat`'s fear at the Well as the Chosen One (`reader`), unless nobody is
        chosen or that player is out of the game in a Black Hole: then the Gatekeeper draws."""
        r = self.reader(d, seat)
        return None if r is None or d["players"][r]["hole"] else r

    def drawer(self, d: dict[str, Any]) -> int | None:
        """In the "draw" step (the player at the Well has asked for their fear), the seat that
        draws it: the Chosen One or the one on their left, else the player at the Well."""
        if d["step"] != "draw" or d["current"] is None:
            return None
        r = self.chosen_reader(d, d["current"])
        return d["current"] if r is None else r

    def reader(self, d: dict[str, Any], seat: int) -> int | None:
        ch = d["chosen"]
        if ch is None:
            return None
        return (ch + 1) % len(d["players"]) if ch == seat else ch

    def _read(self, state: State, seat: int, rng: Rng) -> list[Event]:
        d = state.data
        reader = self.chosen_reader(d, seat)
        owner = d["well"].pop(rng.below(len(d["well"])))
        text = d["fears"][owner]
        d["read"].append(text)
        if reader is None:
            events = [Event(say("event.read.gatekeeper", fear=text))]
        elif d["chosen"] == seat:
            events = [Event(say("event.read.left_of_chosen", reader=p(reader), fear=text))]
        else:
            events = [Event(say("event.read.chosen", reader=p(reader), fear=text))]
        if owner == seat:
            state.over = True
            d["winner"], d["phase"], d["current"] = seat, "over", None
            state.result = {"winners": [seat], "scores": None,
                            "reason": say("result.won", harbinger=NAMES[seat]).stored()}
            events.append(Event(self._say(d, "win", rng, seat), kind="gatekeeper"))
            events.append(Event(say("event.won", who=p(seat)), kind="end"))
            return events
        if owner >= state.seats:
            events.append(Event(say("event.decoy_read", who=p(seat))))
        else:
            events.append(Event(say("event.other_fear_read", who=p(seat))))
        if step_table(RULES["well_miss"], d["clock"]["minutes"] / state.seats) == "headstone":
            self._to_headstone(d, seat, events)
        d["last"] = {"seat": seat, "path": [d["players"][seat]["pos"]]}
        self._end_turn(state, events)
        return events

    # ------------------------------------------------------------ parsing and choices
    def _why(self, d: dict[str, Any], seat: int, verb: str, canon: str, allowed: list[str]) -> Msg:
        opts = ", ".join(f"'{a}'" for a in allowed)  # typed moves: the same in every language
        step = d["step"]
        pl = d["players"][seat]
        if verb == "duel" and step == "duel":
            return say("refusal.duel_target", moves=opts)
        if verb == "fly" and step == "flight":
            return say("refusal.fly_target", typed=echo(canon[4:]), moves=opts)
        drawer = self.drawer(d)
        if drawer is not None and seat != drawer:
            return say("refusal.drawer", harbinger=NAMES[drawer])
        if step == "turn" and pl["pos"] == WELL and self.moves_on(d, seat) and verb != "roll":
            return say("refusal.handed_at_well", moves=opts)
        if verb == "pass":
            return say("refusal.pass_target", moves=opts)
        if step == "turn" and pl["hole"]:
            return say("refusal.in_hole", number=seat + 1)
        if step == "turn" and pl["must_roll"]:
            return say("refusal.must_roll", number=pl["must_roll"])
        if verb == "roll" and step == "turn" and pl["must_dice"]:
            return say("refusal.must_dice", dice=DICE_WORDS[pl["must_dice"]], n=pl["must_dice"])
        if verb == "roll":
            return say("refusal.roll", moves=opts)
        return say("refusal.cannot", moves=opts)

    def choices(self, state: State, seat: int) -> list[Choice]:
        """Every legal action of `seat` at the current step (shared, immutable Choice objects)."""
        d = state.data
        step = d["step"]
        if step == "turn":
            return list(self.turn_prompt(d, seat).choices)
        if step == "draw":  # the Chosen One draws; the player at the Well waits
            return [FIXED["read"]] if seat == self.drawer(d) else []
        if step in PAIRS:
            return list(PAIRS[step])
        return list(self.step_prompt(d, seat, step).choices)

    def prompt(self, state: State, seat: int) -> Prompt | None:
        d = state.data
        if state.over or d["clock"]["paused_at"] is not None or seat < 0 or seat >= state.seats:
            return None
        if d["phase"] == "fears":
            if d["fears"][seat] is not None:
                return None
            return Prompt(seat, say("step.fear"), [FEAR], private=True)
        gk = d["gk"]
        if gk["on"]:
            if gk["calling"] == seat:
                return CALL_PROMPTS[seat]
            return None
        if d["step"] == "draw":  # the Chosen One draws for the player at the Well
            return DRAW_PROMPTS[seat] if seat == self.drawer(d) else None
        if d["current"] != seat:
            return None
        step = d["step"]
        if step == "turn":
            return self.turn_prompt(d, seat)
        if step in PAIRS:
            return PAIR_PROMPTS[seat][step]
        return self.step_prompt(d, seat, step)

    def step_prompt(self, d: dict[str, Any], seat: int, step: str) -> Prompt:
        """A key, flight, duel or pass step's prompt. One whose choices name stones or seats is
        made the first time its (seat, step, stone or seats) comes up and kept (a few hundred at
        most), then handed out again like the prebuilt ones."""
        pl = d["players"][seat]
        if step == "key":
            return KEY_PROMPTS[seat][realm_of(pl["pos"])]
        if step == "flight":
            options = pl["pos"]
        else:
            options = tuple(self.duel_targets(d, seat) if step == "duel" else self.pass_targets(d, seat))
        prompt = OPTION_PROMPTS.get((seat, step, options))
        if prompt is None:
            if step == "flight":
                choices = [FLY[f] for f in FLIGHTS if f != options]
            else:
                choices = [(DUEL if step == "duel" else PASS)[s] for s in options]
            prompt = OPTION_PROMPTS[seat, step, options] = Prompt(seat, STEP_LABELS[step], choices + [SKIPS[step]])
            note_situation(prompt)
        return prompt

    def turn_prompt(self, d: dict[str, Any], seat: int) -> Prompt:
        """`seat`'s prompt at the start of their turn: a prebuilt one unless they hold the Black
        Key (whom they may pass it to changes)."""
        pl = d["players"][seat]
        if pl["hole"]:
            return HOLE_PROMPTS[seat]
        if pl["must_roll"]:
            return NUMBER_PROMPTS[seat][pl["must_roll"]]
        pos = pl["pos"]
        if pos == WELL and self.moves_on(d, seat):  # handed the Black Key here: roll on, no way out
            return TURN_PROMPTS[seat][pl["must_dice"]][True]
        if pos == WELL and self.qualified(d, seat):  # waiting at the Well
            return READ_PROMPTS[seat]
        everyday = TURN_PROMPTS[seat][pl["must_dice"]][pos in STONE]
        if d["black_key"]["holder"] != seat:
            return everyday
        targets = self.pass_targets(d, seat)
        if not targets:  # nobody on their stone to pass the Black Key to
            return everyday
        return Prompt(seat, everyday.text, everyday.choices + [PASS[s] for s in targets])

    def moves_on(self, d: dict[str, Any], seat: int) -> bool:
        """At the Well with the Black Key, or handed it there since their last turn: this turn
        they must roll and move on (neither leave, nor pass it and read)."""
        return d["players"][seat]["must_move"] or d["black_key"]["holder"] == seat

    def to_move(self, state: State) -> int | None:
        d = state.data
        if state.over or d["clock"]["paused_at"] is not None:
            return None
        if d["phase"] == "fears":
            missing = [s for s, f in enumerate(d["fears"]) if f is None]
            return missing[0] if missing else None
        if d["gk"]["on"]:  # the one he calls answers; paused() keeps their turn timer off
            return d["gk"]["calling"]
        return self.drawer(d) if d["step"] == "draw" else d["current"]

    def paused(self, state: State) -> bool:
        """Paused by the host, or stopped while the Gatekeeper is on screen: nobody is timed out."""
        d = state.data
        return d["clock"]["paused_at"] is not None or (d["gk"]["on"] and not state.over)

    # ------------------------------------------------------------ timers
    def timers(self, state: State) -> list[dict[str, Any]]:
        d = state.data
        if state.over or d["clock"]["paused_at"] is not None or d["clock"]["end"] is None:
            return []
        gk = d["gk"]
        n = gk["n"]
        if gk["on"]:  # while he is on screen only his own timer runs; the rest fall due after
            if gk["calling"] is not None:
                return [{"id": f"gk-late-{n}", "due": gk["deadline"], "seat": SYSTEM, "action": "gk late"}]
            return [{"id": f"gk-leave-{n}", "due": gk["leave_at"], "seat": SYSTEM, "action": "gk leave"}]
        end = d["clock"]["end"]
        out = [{"id": "clock-end", "due": end, "seat": SYSTEM, "action": "clock end"}]
        if gk["next"] is not None:
            out.append({"id": f"gk-appear-{n + 1}", "due": gk["next"], "seat": SYSTEM, "action": "gk appear"})
        time_timers = TIME_TIMERS[d["clock"]["minutes"]]
        for pl in d["players"]:
            for cid in pl["time_cards"]:
                timer_id, action, before = time_timers[cid]
                out.append({"id": timer_id, "due": end - before, "seat": SYSTEM, "action": action})
        out.sort(key=TIMER_ORDER)
        return out

    def next_timer(self, state: State) -> dict[str, Any] | None:
        """The first of `timers` (earliest, then by id), found without listing the rest."""
        end = running_clock_end(state)
        if end is None:
            return None
        d = state.data
        gk = d["gk"]
        if gk["on"]:
            return self.timers(state)[0]
        due = gk["next"]
        if due is not None and due < end:  # at the same time, "clock-end" sorts first
            best = (due, "gk-appear", "gk appear")  # sorts as its id does; numbered if it is first
        else:
            best = (end, "clock-end", "clock end")
        time_before = TIME_BEFORE[d["clock"]["minutes"]]
        for pl in d["players"]:
            for cid in pl["time_cards"]:
                if end - time_before[cid] <= best[0]:
                    timer_id, action, before = TIME_TIMERS[d["clock"]["minutes"]][cid]
                    best = min(best, (end - before, timer_id, action))
        due, timer_id, action = best
        if timer_id == "gk-appear":
            timer_id = f"gk-appear-{gk['n'] + 1}"
        return {"id": timer_id, "due": due, "seat": SYSTEM, "action": action}

    def next_due(self, state: State) -> float | None:
        """When `next_timer` falls due: the earliest of the Gatekeeper's next visit, the end of the
        clock and the held Time cards' strikes, with no timer named or built."""
        end = running_clock_end(state)
        if end is None:
            return None
        d = state.data
        gk = d["gk"]
        if gk["on"]:
            return self.timers(state)[0]["due"]
        due = gk["next"]
        if due is None or due > end:
            due = end
        for pl in d["players"]:
            if pl["time_cards"]:  # seldom: most players hold none
                for cid in pl["time_cards"]:
                    strike = end - TIME_BEFORE[d["clock"]["minutes"]][cid]
                    if strike < due:
                        due = strike
        return due

    def interlude(self, view: dict[str, Any]) -> dict[str, Any] | None:
        gk = view.get("gatekeeper") or {}
        if not gk.get("on_screen") or not gk.get("line"):
            return None
        return {"speaker": "gatekeeper", "line": gk["line"], "calls": gk.get("calling"),
                "until": gk.get("deadline"), "first": gk.get("appearances", 1) <= 1}

    # ------------------------------------------------------------ view
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.data
        gk = d["gk"]
        if state.over:
            phase = "over"
        elif d["clock"]["paused_at"] is not None:
            phase = "paused"
        elif gk["on"]:
            phase = "gatekeeper"
        else:
            phase = d["phase"]
        out: dict[str, Any] = {
            "game": "atmosfear", "turn": state.turn,
            "current": None if state.over or d["phase"] != "play" else d["current"],
            "phase": phase,
            "clock": {"end": d["clock"]["end"], "paused_at": d["clock"]["paused_at"],
                      "minutes": d["clock"]["minutes"]},
            "board": {"outer": [s.copy() for s in OUTER_VIEW], "radials": [list(r) for r in RADIALS],
                      "inner": list(INNER), "well": WELL},
            "realms": self._realms_view(d), "black_key": dict(d["black_key"]),
            "players": self._players_view(d),
            "gatekeeper": {"on_screen": gk["on"], "line": gk["line"] if gk["on"] else None,
                           "calling": gk["calling"] if gk["on"] else None,
                           "deadline": gk["deadline"] if gk["on"] else None, "next_at": None,
                           "appearances": gk["n"]},
            "dice": list(d["dice"]) if d["dice"] else None,
            "last": None if d["last"] is None else {"seat": d["last"]["seat"], "path": list(d["last"]["path"])},
            "fears_in_well": len(d["well"]), "fears_read": list(d["read"]),
            "winner": d["winner"], "gatekeeper_won": bool(state.over and d["winner"] is None),
        }
        if seat is not None and 0 <= seat < state.seats:
            out.update(self._seat_view(d, seat))
        return out

    def _players_view(self, d: dict[str, Any]) -> list[dict[str, Any]]:
        holder, chosen = d["black_key"]["holder"], d["chosen"]
        # waiting_at_well is what others can tell: whether a rack still holds every colour is hidden
        return [{"seat": s, "harbinger": NAMES[s], "number": s + 1, "colour": COLOURS[s],
                 "pos": pl["pos"], "keys": len(pl["rack"]), "black_key": holder == s,
                 "in_black_hole": pl["hole"], "must_roll": pl["must_roll"], "must_dice": pl["must_dice"],
                 "chosen_one": chosen == s, "waiting_at_well": pl["pos"] == WELL and holder != s}
                for s, pl in enumerate(d["players"])]

    def _realms_view(self, d: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"index": r, "harbinger": NAMES[r], "colour": COLOURS[r], "keys_left": d["realm_keys"][r]}
                for r in range(6)]

    def _seat_view(self, d: dict[str, Any], seat: int) -> dict[str, Any]:
        """What only `seat` sees: its rack, its Time cards, its fear."""
        return {"rack": self._rack_view(d, seat),
                "time_cards": [{"id": cid, "at": TIME_BEFORE[d["clock"]["minutes"]][cid] / 60,
                                "text": self.time_text(d, cid).stored()}
                               for cid in d["players"][seat]["time_cards"]],
                "fear": self._fear_view(d, seat)}

    def _rack_view(self, d: dict[str, Any], seat: int) -> dict[str, int]:
        rack: dict[str, int] = {}
        for c in d["players"][seat]["rack"]:
            rack[c] = rack.get(c, 0) + 1
        return rack

    def _fear_view(self, d: dict[str, Any], seat: int) -> dict[str, Any]:
        return {"text": d["fears"][seat], "in_well": seat in d["well"]}

    def ai_view(self, state: State, seat: int, level: str, prompt: Prompt) -> Any:
        """The smart AI's compact view (`ai.compact_view`: the question its prompt asks and the
        facts of the seat's view it turns on), built from the state; the random AI reads none."""
        if level != "smart":
            return {}
        noted = NOTED_QUESTIONS.get(id(prompt))
        if noted is not None:  # with no facts to read, the noted question is the whole view
            kind, answer, facts = noted
            return noted if facts is None else (kind, answer, facts(self, state.data, seat))
        kind, answer = situation(tuple([c.action for c in prompt.choices]))
        facts = AI_FACTS.get(kind)
        return kind, answer, facts(self, state.data, seat) if facts else None

    def opening(self, state: State) -> list[Msg]:
        """This table's house rules (board.toml, time.toml): the head start and the Well's own
        fears for its minutes each, what a wrong fear at the Well does, the stacked Time deck."""
        minutes = state.data["clock"]["minutes"]
        per_player = minutes / state.seats
        head, fears = step_table(RULES["head_start"], per_player), own_fears(per_player, state.seats)
        gifts = []
        if head:
            gifts.append(say("opening.head_start", count=head))
        if fears:
            gifts.append(say("opening.decoys", count=fears))
        lines = [say("opening.gifts", minutes=minutes, seats=state.seats, gifts=tuple(gifts))] if gifts else []
        lines.append(say("opening.well_miss." + step_table(RULES["well_miss"], per_player)))
        if TIME_DECK["skip_passed"]:
            lines.append(say("opening.stacked"))
        return lines

    def private_text(self, state: State, seat: int) -> dict[str, Any]:
        """The seat's sheet: who they are, their rack, the Black Key, Time cards, orders on
        them, their fear; as a stored message (JSON: the bot fingerprints it)."""
        d = state.data
        pl = d["players"][seat]
        rack = tuple(say("private.rack_item", n=pl["rack"].count(c), colour=COLOUR_WORD[c])
                     for c in COLOURS if c in pl["rack"])
        missing = tuple(COLOUR_WORD[c] for c in COLOURS if c not in pl["rack"])
        lines = [say("private.who", harbinger=NAMES[seat], number=seat + 1, colour=COLOUR_WORD[COLOURS[seat]]),
                 say("private.rack", rack=rack) if rack else say("private.rack_empty")]
        lines[-1] = say("private.rack_missing", rack=lines[-1], missing=missing) if missing \
            else say("private.rack_complete", rack=lines[-1])
        if d["black_key"]["holder"] == seat:
            lines.append(say("private.black_key"))
        for cid in pl["time_cards"]:
            lines.append(say("private.time_card_held", card=self.time_text(d, cid)))
        if pl["must_roll"]:
            lines.append(say("private.must_roll", number=pl["must_roll"]))
        if pl["must_dice"]:
            lines.append(say("private.must_dice", dice=DICE_WORDS[pl["must_dice"]]))
        if pl["hole"]:
            lines.append(say("private.in_hole"))
        if d["fears"][seat] is not None:
            lines.append(say("private.fear" if seat in d["well"] else "private.fear_cast_out",
                             fear=d["fears"][seat]))
        return stacked(lines).stored()

    def canonical(self, state: State, action: str) -> str:
        verb, arg = split_action(action)
        if not verb:
            raise IllegalAction(EMPTY)
        if verb == "fear":
            return f"fear {clean_fear(arg)}"
        return canonical_action(verb, arg)


# ---------------------------------------------------------------- parsing
# Cached: the same few dozen spellings come back all game.
@lru_cache(maxsize=4096)
def split_action(action: str) -> tuple[str, str]:
    """(verb, argument) of an action; ("", "") for an empty one."""
    tokens = action.split(None, 1)
    if not tokens:
        return "", ""
    return tokens[0].lower(), (tokens[1].strip() if len(tokens) > 1 else "")


@lru_cache(maxsize=4096)
def canonical_action(verb: str, arg: str) -> str:
    """The spelling the choices use: a seat by number, a stone in capitals, the rest lower case."""
    if verb in ("duel", "pass"):
        s = seat_arg(arg)
        return f"{verb} {s + 1}" if s is not None else f"{verb} {arg}"
    if verb == "fly":
        return f"fly {FLIGHT_BY_MARK.get(arg.strip(), arg.upper())}"
    return f"{verb} {arg}".strip().lower()


def seat_arg(arg: str) -> int | None:
    """A seat named by its number or its Harbinger's (first) name."""
    a = arg.strip().lower()
    if a.isascii() and a.isdigit() and len(a) <= 2:
        return int(a) - 1
    for i, n in enumerate(NAMES):
        if a and (n.lower() == a or n.lower().split()[0] == a.split()[0]):
            return i
    return None


# What a player's action does at each step (`reduce_offered`).
STEP_PLAYS: dict[str, Callable[..., list[Event]]] = {
    "turn": AtmosfearGame._play_turn, "branch": AtmosfearGame._play_branch, "ring": AtmosfearGame._play_ring,
    "key": AtmosfearGame._play_key, "flight": AtmosfearGame._play_flight, "duel": AtmosfearGame._play_duel,
    "pass": AtmosfearGame._play_pass,
    "draw": lambda game, state, seat, verb, arg, rng: game._read(state, state.data["current"], rng),
}

# The facts of the seat's view the smart AI's questions turn on (`ai.FACTS`), from the state.
AI_FACTS: dict[str, Callable[[AtmosfearGame, dict[str, Any], int], Any]] = {
    "inside": AtmosfearGame.qualified,  # a key of every colour, no Black Key, its fear in the Well
    "leave": AtmosfearGame.qualified,
    "ring": lambda game, d, seat: d["players"][seat]["pos"],
    "duel": lambda game, d, seat: game.keys_shown(d),
    "flight": lambda game, d, seat: (d["players"][seat]["pos"],
                                     tuple(c for c in COLOURS if c not in d["players"][seat]["rack"]),
                                     tuple(d["realm_keys"])),
}

# The smart AI's question (`situation`) for each prebuilt or kept prompt, worked out once and
# found by the prompt's identity (those prompts live as long as this module, so no other shares
# an id): (question, answer, the AI_FACTS function it reads or None). Most questions (roll the
# dice, answer the Gatekeeper) read no fact, and their entry is then the whole compact view.
NOTED_QUESTIONS: dict[int, tuple[str, str | None, Callable[..., Any] | None]] = {}


def note_situation(prompt: Prompt) -> None:
    """Note the smart AI's question for `prompt`, one kept as long as this module."""
    kind, answer = situation(tuple(c.action for c in prompt.choices))
    NOTED_QUESTIONS[id(prompt)] = kind, answer, AI_FACTS.get(kind)


for _prompt in (
        *(by_place for by_dice in TURN_PROMPTS for places in by_dice.values() for by_place in places.values()),
        *HOLE_PROMPTS, *(by_n for numbers in NUMBER_PROMPTS for by_n in numbers.values()), *READ_PROMPTS, *DRAW_PROMPTS,
        *(pair for pairs in PAIR_PROMPTS for pair in pairs.values()), *CALL_PROMPTS,
        *(by_realm for realms in KEY_PROMPTS for by_realm in realms)):
    note_situation(_prompt)
del _prompt

"""The Warlock of Firetop Mountain: the pure rules engine.

State lives in `state.data` (JSON-native):

    phase        "create" (everyone rolls up an adventurer) | "play" | "over"
    current      whose turn it is; `first` started (lowest Skill); `round` counts from 1
    step         what the player to move is doing: start | move | maze | stop | offer | ask |
                 shop | open | battle | done (the turn is over once the queue is empty)
    roll         this turn's movement die, `challenged` once he has used a 1 for a Key Challenge
    players      per seat: scores (skill/skill0, stamina/stamina0, luck/luck0), gold, provisions,
                 lantern, swords, items (the rucksack: treasure card ids), keys (numbered Key
                 cards; each also holds one blank), pos (a board node), door (where he came in),
                 left_room, extras (Gold/Provisions still to choose: a fresh adventurer), ate,
                 turns, miss, face, revealed (his treasure cards the table has seen), lives,
                 know {"held": {n: [seats]}, "chest": [n]} (what he has learned about keys)
    rooms        per room: treasure, encounter (face-down card), fixed, seen (the card once
                 turned up: public memory), barred (a permanently occupied room: the last
                 adventurer to leave it), visited
    chest        the three numbers under the Treasure Chest
    maze         Maze space -> its face-down card ("open" | "dead"); `maze_seen`: the cards the
                 table has seen turned up (they are turned back down, but everyone remembers)
    piles        treasure left on the board [{"node", "items", "owner"}] (owner: only he may
                 reclaim them; None: anyone)
    battle       the fight going on, or None
    task         an effect in progress {"effect", "at" (a step id), "room", "then", ...}
    queue        decisions the turn waits for [{"seat", "kind": spoils|flee|leave|drop, ...}]
    offers       key exchanges offered [{"from", "to", "key"}]
    attempts     tries at the chest, public [{"seat", "keys", "wrong"}]
    challenges   Key Challenges made, public [{"seat", "n"}]
    tally        public counts for self-play reports: monster fights, fled (escaped from a monster),
                 slain (adventurers killed by monsters), killed (by adventurers), maze (entries)
    last, dice   the last move and the last dice, for the board

Actions are canonical strings; `parse` gives the grammar.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

from data.locales import Msg
from games.core import SYSTEM, Choice, Event, Game, IllegalAction, OptionText, Prompt, Rng, State, Step
from games.core.marks import marked
from games.core.typed import squash, typed_forms

from .board import BOARD, CELL
from .places import bank, direction, place_words, where, words
from .content import (BRIDGE, CARDS, CHEST_KEYS, ESCAPE, EAT, ENCOUNTER_WORDS, FERRY_GOLD, FIXED, FLEE_STEPS,
                      KEY_TREASURES, KILL_LUCK, MAX_SWORDS, MAZE_CARDS, MONSTER_WORDS, NUMBERS, OTHER_TREASURES,
                      ROLL_WAIT, RUCKSACK, SHORT_TREASURE_WORDS, SKILL_TABLE, STOP_AT_CROSSING, TREASURE_WORDS, TREASURES, WARE_WORDS,
                      WARES, WOUND, CHAR, check, effect, is_monster, treasure_name)

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
KEY_NAMES = {n: str(n) for n in range(1, NUMBERS + 1)}
OPEN_TEXT = words("prompt.open")
# the words that never change, made once (the engine is speed-measured)
YOUR_TURN, IN_MAZE, COMPANY = words("prompt.turn"), words("prompt.maze"), words("prompt.company")
OFFER_TEXT, ASK_TEXT = words("prompt.offer"), words("prompt.ask")
KEY_LABELS = {n: words("label.key", n=n) for n in range(1, NUMBERS + 1)}
CHEST_KEY_LABELS = {n: words("label.chest_key", n=n) for n in range(1, NUMBERS + 1)}
MY_KEY_LABELS = {n: words("label.my_key", n=n) for n in range(1, NUMBERS + 1)}
SHOW_KEY_LABELS = {n: words("label.show_key", n=n) for n in range(1, NUMBERS + 1)}
LABELS = {key: words("label." + key) for key in (
    "their_keys", "random", "nothing", "lantern", "no_lantern", "stay", "keep", "face_chest", "face",
    "roll", "grope", "raft", "bridge", "eat", "end_turn", "never_mind", "key_challenge", "no_challenge",
    "leave_pedlar", "not_now", "rest", "fight_on", "escape", "refuse", "bot_rolls", "press", "attack",
    "nowhere")}
# "Fight to the end" (a house convenience, not a rule: docs/games/firetop.md) stops when the
# adventurer's Stamina is down to this (two wounds from death), so escaping is his to weigh; and
# after this many rounds in one go (blades may lock round after round), so an action stays small.
PRESS_FLOOR = 4
PRESS_ROUNDS = 50


def p(seat: int) -> str:
    return "{p%d}" % seat


def listing(parts: list[Any]) -> tuple[Any, ...] | Msg:
    """Things to name in one message: a tuple (the reader's language lists it), or "nothing"."""
    return tuple(parts) if parts else words("nothing")


def numbers(nums: list[int] | tuple[int, ...]) -> str:
    """Key numbers as a list of figures, the same in every language: "2, 5, 9"."""
    return ", ".join(map(str, nums))


def lines(parts: list[Any]) -> Any:
    """Several lines as one message, each rendered in the reader's language."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = words("lines", first=part, rest=out)
    return out


def arrows(steps: list[Any]) -> Any:
    """A choice's steps in one line, as its label reads: "Key Challenge → Key 4"."""
    out = steps[-1]
    for step in reversed(steps[:-1]):
        out = words("arrows", first=step, rest=out)
    return out


def semicolons(parts: list[Any]) -> Any:
    """Things of several words each, one after another with semicolons: "A at B; C at D"."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = words("semicolons", first=part, rest=out)
    return out


def _task_words(task: dict[str, Any]) -> Msg:
    """The name of the encounter a task runs."""
    return ENCOUNTER_WORDS[task["effect"].partition(":")[2]]


# prompts that end with a question mark: what follows them needs no full stop between
QUESTIONS = {"game.firetop.prompt.move", "game.firetop.prompt.flee"}
EAT_REFUSALS = {why: words(f"refusal.eat.{why}") for why in ("none_left", "ate", "encounter", "company", "full")}
DOUBLE_SIX = words("round.double_six")


def key_treasure_numbers(items: list[str]) -> list[int]:
    return sorted({n for cid in items if TREASURES[cid]["kind"] == "keys" for n in TREASURES[cid]["keys"]})


# ---------------------------------------------------------------- parsing

# First words of every action (at most 25: Discord's limit on a command's subcommands). Some verbs
# mean what the moment needs: `move` also takes a passage exit, a Maze space or where to flee;
# `pass` ends the turn, declines, refuses or keeps; `show` offers or answers a look at Key cards.
VERBS = {
    "extras": "Gold to take with a new adventurer (the rest become Provisions), e.g. 2",
    "roll": "", "eat": "", "face": "", "cross": "", "grope": "", "pass": "", "attack": "", "press": "",
    "escape": "", "dice": "",
    "move": "a letter the board shows, a square or a room, e.g. A, K9 or armoury",
    "challenge": "a key number 1-9",
    "nominate": "who rolls for the monster, by colour, e.g. blue",
    "fight": "the adventurer to attack, by colour, e.g. blue",
    "confer": "the adventurer to show Key cards to, by colour, e.g. blue",
    "show": "one of your Key cards, e.g. 4",
    "open": "three key numbers you carry, e.g. 2 5 9",
    "buy": "provision, draught, blade or sword",
    "spoils": "keys, random, nothing or a card you have seen; add 'lantern' to take it too",
    "drop": "one of your treasure cards as /hand names it, e.g. gaoler's keys",
}
BARE = {v for v, help_ in VERBS.items() if not help_}
# Names typed as players see them, compared squashed (letters and digits only): a room by its name
# ("move the warlock's study"), a treasure card as /hand and the buttons name it ("drop Gaoler's Keys
# (1, 4, 7)", "spoils their studded shield"), a ware as the Pedlar's buttons do ("buy a fine sword").
ROOM_ALIASES = {squash(r["name"]): rid for rid, r in BOARD.rooms.items()} | {squash(rid): rid for rid in BOARD.rooms}
TREASURE_ALIASES = ({squash(t["name"]): tid for tid, t in TREASURES.items()}
                    | {squash(treasure_name(tid)): tid for tid in TREASURES} | {squash(tid): tid for tid in TREASURES})
WARE_ALIASES = ({squash(w["name"]): wid for wid, w in WARES.items()} | {squash(wid): wid for wid in WARES}
                | {squash(w["name"].removeprefix("a ")): wid for wid, w in WARES.items()} | {"provisions": "provision"})
SPOILS = ("keys", "random", "nothing")
ARTICLES = ("the", "a", "an", "their", "my", "your")


def named(tokens: list[str], aliases: dict[str, str]) -> str | None:
    """The id that `tokens` name in `aliases`, with or without a leading article."""
    if tokens and tokens[0] in ARTICLES:
        tokens = tokens[1:]
    return aliases.get(squash(" ".join(tokens)))


def plain_number(token: str, digits: int) -> bool:
    """`token` is 1 to `digits` ASCII digits: str.isdigit also passes '⁰' or '٣', which int() refuses
    or reads as another number."""
    return token.isascii() and token.isdigit() and len(token) <= digits


def normalize(action: str) -> str:
    """The canonical spelling of a typed action; IllegalAction says what was expected."""
    tokens = action.lower().replace(",", " ").split()
    if not tokens:
        raise IllegalAction(words("refusal.empty"))
    verb, rest = tokens[0], tokens[1:]
    if verb not in VERBS:
        raise IllegalAction(words("refusal.unknown", action=action.strip()[:40]))
    if verb in BARE:
        if rest:
            raise IllegalAction(words("refusal.bare", verb=verb))
        return verb
    if not rest:
        raise IllegalAction(words("refusal.say_what", verb=verb, what=words(f"verb.{verb}.choice")))
    if verb == "move":
        word = "".join(rest)
        if CELL.match(word):
            return f"move {word.upper()}"
        if word in BOARD.rooms or word == "entrance":
            return f"move {word}"
        room = named(rest, ROOM_ALIASES)
        if room is not None:
            return f"move {room}"
        raise IllegalAction(words("refusal.not_a_place", place=" ".join(rest)[:30]))
    if verb in ("challenge", "show", "extras"):
        if len(rest) == 1 and plain_number(rest[0], 2):
            return f"{verb} {int(rest[0])}"
        raise IllegalAction(words("refusal.one_number", what=words(f"verb.{verb}.choice")))
    if verb == "open":
        if len(rest) == CHEST_KEYS and all(plain_number(t, 1) for t in rest):
            nums = sorted(int(t) for t in rest)
            if len(set(nums)) == CHEST_KEYS:
                return "open " + " ".join(map(str, nums))
        raise IllegalAction(words("refusal.open_numbers", count=CHEST_KEYS))
    if verb in ("nominate", "fight", "confer"):
        if len(rest) == 1 and rest[0] in COLOURS:
            return f"{verb} {rest[0]}"
        raise IllegalAction(words("refusal.colour", colours=", ".join(f"`{c}`" for c in COLOURS)))
    if verb == "buy":
        ware = named(rest, WARE_ALIASES)
        if ware is not None:
            return f"buy {ware}"
        raise IllegalAction(words("refusal.wares", wares=", ".join(f"`{w}`" for w in WARES)))
    if verb == "drop":
        card = named(rest, TREASURE_ALIASES)
        if card is not None:
            return f"drop {card}"
        raise IllegalAction(words("refusal.drop_what"))
    lantern = rest[-1] == "lantern"
    what = rest[:-1] if lantern else rest
    if lantern and what and what[-1] in ("and", "&", "+"):
        what = what[:-1]
    card = what[0] if len(what) == 1 and what[0] in SPOILS else named(what, TREASURE_ALIASES)
    if card is not None:
        return f"spoils {card}" + (" lantern" if lantern else "")
    raise IllegalAction(words("refusal.spoils_what"))


def arg_of(action: str) -> Any:
    """The argument of a canonical action, as its handler wants it."""
    verb, _, rest = action.partition(" ")
    if verb in ("challenge", "show", "extras"):
        return int(rest)
    if verb == "open":
        return tuple(int(t) for t in rest.split())
    if verb == "spoils":
        parts = rest.split()
        return parts[0], len(parts) > 1
    return rest or None


# ---------------------------------------------------------------- effects: registered ops

class Ctx:
    """What an op works on: the state, the seat the effect happens to, dice, the event list."""

    def __init__(self, game: "FiretopGame", state: State, seat: int, rng: Rng, now: float,
                 events: list[Event]) -> None:
        self.game, self.state, self.d, self.seat, self.rng, self.now, self.events = \
            game, state, state.data, seat, rng, now, events

    @property
    def me(self) -> dict[str, Any]:
        return self.d["players"][self.seat]

    def say(self, key: str, to: tuple[int, ...] | None = None, kind: str = "info", **params: Any) -> None:
        """Tell the table (or `to`) message `game.firetop.<key>`; `who` is the seat it happens to."""
        self.events.append(Event(words(key, who=p(self.seat), **params), to, kind))


OPS: dict[str, Callable[[Ctx, dict[str, Any]], str | None]] = {}


def op(name: str) -> Callable[[Callable[[Ctx, dict[str, Any]], str | None]], Callable[[Ctx, dict[str, Any]], str | None]]:
    def register(fn: Callable[[Ctx, dict[str, Any]], str | None]) -> Callable[[Ctx, dict[str, Any]], str | None]:
        OPS[name] = fn
        return fn
    return register


# An op returns None (go on to the next step), a step id or "end" (jump), "wait" (a decision or a
# battle: the effect resumes at the next step) or "stop" (the adventurer died or was moved away).

@op("say")
def _op_say(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.say(f"say.{ctx.d['task']['effect'].partition(':')[2]}.{step['id']}")
    return None


@op("stamina")
def _op_stamina(ctx: Ctx, step: dict[str, Any]) -> str | None:
    n = step["n"]
    if n < 0:
        ctx.say("stamina.lose", count=-n)
        if ctx.game._wound(ctx, ctx.seat, -n, cause=words("cause.encounter", what=_task_words(ctx.d["task"]))):
            return "stop"
        ctx.say("stamina.now", stamina=ctx.me["stamina"])
        return None
    me = ctx.me
    gain = min(n, me["stamina0"] - me["stamina"])
    me["stamina"] += gain
    ctx.say("stamina.gain", count=gain, stamina=me["stamina"])
    return None


@op("luck")
def _op_luck(ctx: Ctx, step: dict[str, Any]) -> str | None:
    me = ctx.me
    n = step["n"]
    me["luck"] = max(0, min(me["luck0"], me["luck"] + n))
    ctx.say("luck.now", luck=me["luck"])
    return None


@op("gold")
def _op_gold(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.me["gold"] = max(0, ctx.me["gold"] + step["n"])
    ctx.say("gold.now", count=ctx.me["gold"])
    return None


@op("provisions")
def _op_provisions(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.me["provisions"] = max(0, ctx.me["provisions"] + step["n"])
    ctx.say("provisions.now", count=ctx.me["provisions"])
    return None


@op("heal")
def _op_heal(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.me["stamina"] = ctx.me["stamina0"]
    ctx.say("stamina.healed", stamina=ctx.me["stamina0"])
    return None


@op("test_luck")
def _op_test_luck(ctx: Ctx, step: dict[str, Any]) -> str | None:
    return step["lucky"] if ctx.game._test_luck(ctx, ctx.seat) else step["unlucky"]


@op("fight")
def _op_fight(ctx: Ctx, step: dict[str, Any]) -> str | None:
    task = ctx.d["task"]
    spec = effect(task["effect"])
    ctx.game._start_battle(ctx, spec["name"], spec["skill"], spec["stamina"])
    return "wait"


@op("challenge")
def _op_challenge(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.d["step"] = "ask"
    return "wait"


@op("glimpse")
def _op_glimpse(ctx: Ctx, step: dict[str, Any]) -> str | None:
    known = set(ctx.me["know"]["chest"])
    unseen = [n for n in ctx.d["chest"] if n not in known]
    ctx.say("orb.shows")
    if not unseen:
        ctx.say("orb.nothing_new", to=(ctx.seat,))
        return None
    n = unseen[ctx.rng.below(len(unseen))]
    ctx.me["know"]["chest"] = sorted(known | {n})
    ctx.say("orb.key", to=(ctx.seat,), kind="secret", n=n)
    return None


@op("shop")
def _op_shop(ctx: Ctx, step: dict[str, Any]) -> str | None:
    ctx.d["step"] = "shop"
    return "wait"


check(OPS)


# ---------------------------------------------------------------- the game

TALLY = ("fights", "fled", "slain", "killed", "maze")


def new_tally() -> dict[str, int]:
    return dict.fromkeys(TALLY, 0)


def upgrade_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: the public tally of fights, escapes, deaths and Maze entries (from zero)."""
    return {**data, "tally": new_tally()}


def upgrade_2(data: dict[str, Any]) -> dict[str, Any]:
    """Format 2 -> 3: the public list of Key Challenges (those made before are not known)."""
    return {**data, "challenges": []}


class FiretopGame(Game):
    name = "firetop"
    title = "The Warlock of Firetop Mountain"
    pitch = ("Brave Firetop Mountain's rooms, river and maze, fight its monsters and each other, "
             "deduce which three keys open the Warlock's chest, and be first to carry them there.")
    min_seats = 2
    max_seats = 6
    colours = COLOURS
    colour_rgb = ((200, 40, 40), (40, 90, 210), (30, 150, 70), (230, 190, 30), (150, 70, 200),
                  (235, 120, 20))
    verbs = VERBS
    option_choices = {"double6": ("off", "on"), "rounds": (60, 40, 30)}
    option_texts = {
        "double6": OptionText("Double six", "A battle roll won with a double 6 does double damage."),
        "rounds": OptionText("Round limit", "The Warlock wakes after this round and the game ends.",
                             "rounds")}
    ai = "games.firetop.ai:choose"
    easy = "games.firetop.easy:choose"
    renderer = "render.firetop:render_firetop"
    describer = "render.words.firetop:describe"
    panel_text = "render.words.firetop:panel"
    warm_up = "render.firetop:warm_up"
    rules_page = ("data", "firetop/rules.md")
    searcher = "games.firetop.sample:search"
    state_format = 3
    upgrades = {1: upgrade_1, 2: upgrade_2}

    # ------------------------------------------------------------ set-up
    def setup_data(self, state: State, rng: Rng) -> None:
        n = state.seats
        drawn = list(range(1, NUMBERS + 1))
        rng.shuffle(drawn)
        chest, rest = sorted(drawn[:CHEST_KEYS]), drawn[CHEST_KEYS:]
        players = []
        for _ in range(n):
            pl = {"keys": [], "know": {"held": {}, "chest": []}, "lives": 1}
            pl.update(self._character(rng))
            players.append(pl)
        each, spare = divmod(len(rest), n)
        for seat in range(n):
            players[seat]["keys"] = sorted(rest[seat * each:(seat + 1) * each])
        treasure_rooms = [rid for rid, r in BOARD.rooms.items() if r["kind"] == "room"]
        others = list(OTHER_TREASURES)
        rng.shuffle(others)
        laid = KEY_TREASURES + others[:len(treasure_rooms) - len(KEY_TREASURES)]
        rng.shuffle(laid)
        deck = list(CARDS)
        rng.shuffle(deck)
        rooms = {}
        for rid, room in BOARD.rooms.items():
            rooms[rid] = {"treasure": None, "encounter": None, "fixed": room["fixed"], "seen": None,
                          "barred": None, "visited": False}
            if room["kind"] == "room":
                rooms[rid]["treasure"] = laid.pop()
                if room["fixed"] is None:
                    rooms[rid]["encounter"] = deck.pop()
        maze = list(MAZE_CARDS)
        rng.shuffle(maze)
        # house rule: ties for the lowest Skill are settled by lot (the earlier seat won them, and
        # seat 1 went first in half of all three-player games)
        lot = list(range(n))
        rng.shuffle(lot)
        lowest = sorted(range(n), key=lambda s: (players[s]["skill"], lot.index(s)))
        for i, seat in enumerate(lowest[:spare]):
            players[seat]["keys"] = sorted(players[seat]["keys"] + [rest[n * each + i]])
        first = lowest[0]
        state.data = {
            "phase": "create", "current": first, "first": first, "round": 1, "step": "start",
            "roll": None, "challenged": False, "players": players, "rooms": rooms, "chest": chest,
            "maze": {space: maze[i] for i, space in enumerate(BOARD.maze_spaces)}, "maze_seen": {},
            "maze_trail": [], "piles": [], "battle": None, "task": None, "queue": [], "offers": [],
            "conferred": [], "attempts": [], "challenges": [], "last": None, "dice": None, "winner": None,
            "limit": int(state.options.get("rounds", 60)),
            "double6": state.options.get("double6", "off") == "on", "tally": new_tally(),
        }
        state.turn = 1

    def _character(self, rng: Rng) -> dict[str, Any]:
        skill = SKILL_TABLE[rng.die() - 1]
        stamina = sum(rng.die() for _ in range(CHAR["stamina_dice"])) + CHAR["stamina_base"]
        luck = rng.die() + CHAR["luck_base"]
        return {"skill": skill, "skill0": skill, "stamina": stamina, "stamina0": stamina, "luck": luck,
                "luck0": luck, "gold": 0, "provisions": CHAR["provisions"], "lantern": True,
                "swords": ["sword"], "items": [], "pos": "entrance", "door": None, "left_room": False,
                "extras": CHAR["extras_from"] - skill, "ate": -9, "turns": 0, "miss": 0, "face": False,
                "revealed": []}

    # ------------------------------------------------------------ helpers
    def _others_here(self, d: dict[str, Any], seat: int) -> list[int]:
        node = d["players"][seat]["pos"]
        return [s for s, q in enumerate(d["players"])
                if s != seat and q["extras"] is None and q["pos"] == node]

    def _can_duel(self, d: dict[str, Any], a: int, b: int) -> bool:
        pa, pb = d["players"][a], d["players"][b]
        node = pa["pos"]
        return (pa["left_room"] and pb["left_room"] and pb["extras"] is None and pb["pos"] == node
                and node not in BOARD.passages and node not in BOARD.maze_links)

    def _duel_reason(self, d: dict[str, Any], a: int, b: int) -> Msg:
        pa, pb = d["players"][a], d["players"][b]
        if pb["pos"] != pa["pos"] or pb["extras"] is not None:
            return words("refusal.duel.elsewhere", who=p(b))
        if pa["pos"] in BOARD.passages:
            return words("refusal.duel.passage")
        if pa["pos"] in BOARD.maze_links:
            return words("refusal.duel.maze")
        if not pa["left_room"]:
            return words("refusal.duel.you_not_left")
        return words("refusal.duel.not_left", who=p(b))

    def _can_eat(self, d: dict[str, Any], seat: int) -> Msg | None:
        """None if `seat` may eat now, else why not."""
        me = d["players"][seat]
        if me["provisions"] <= 0:
            return EAT_REFUSALS["none_left"]
        if me["ate"] == me["turns"] - 1:
            return EAT_REFUSALS["ate"]
        if me["face"]:
            return EAT_REFUSALS["encounter"]
        if any(self._can_duel(d, s, seat) for s in self._others_here(d, seat)):
            return EAT_REFUSALS["company"]
        if me["stamina"] >= me["stamina0"]:
            return EAT_REFUSALS["full"]
        return None

    def _sword_bonus(self, me: dict[str, Any]) -> tuple[int, str | None]:
        best, name = 0, None
        for cid in me["swords"]:
            bonus = TREASURES[cid]["attack"] if cid in TREASURES else 0
            if bonus > best:
                best, name = bonus, cid
        return best, name

    def _reveal(self, ctx: Ctx, seat: int, cid: str) -> None:
        me = ctx.d["players"][seat]
        if cid not in me["revealed"]:
            me["revealed"].append(cid)

    def _set_pos(self, d: dict[str, Any], seat: int, node: str) -> None:
        """Move a figure. Leaving a room counts for the 'entered and left a room' rule and bars a
        permanently occupied room to him until someone else has been in and out."""
        me = d["players"][seat]
        old = me["pos"]
        if old == node:
            return
        me["face"] = False
        if old in BOARD.rooms:
            me["left_room"] = True
            fixed = d["rooms"][old]["fixed"]
            if fixed is not None and FIXED[fixed].get("permanent"):
                d["rooms"][old]["barred"] = seat
        me["pos"] = node
        # conferring needs both on one space: an offer lapses when they part
        spots = [q["pos"] for q in d["players"]]
        d["offers"] = [o for o in d["offers"] if spots[o["from"]] == spots[o["to"]]]

    def _test_luck(self, ctx: Ctx, seat: int) -> bool:
        me = ctx.d["players"][seat]
        a, b = ctx.rng.die(), ctx.rng.die()
        lucky = a + b <= me["luck"]
        before = me["luck"]
        me["luck"] = max(0, me["luck"] - 1)
        ctx.d["dice"] = {"seat": seat, "what": "luck", "faces": [a, b]}
        verdict = "lucky" if lucky else "unlucky"
        if not lucky and "clover" in me["items"]:
            me["items"].remove("clover")
            lucky = True
            verdict = "charm"
        ctx.events.append(Event(words(f"luck.test.{verdict}", who=p(seat), a=a, b=b, total=a + b,
                                      before=before, luck=me["luck"])))
        return lucky

    def _wound(self, ctx: Ctx, seat: int, n: int, cause: Any, battle: bool = False,
               killer: int | None = None) -> bool:
        """Take `n` Stamina from `seat`; True if that killed him."""
        me = ctx.d["players"][seat]
        if battle and "shield" in me["items"] and n > 1:
            n -= 1
            self._reveal(ctx, seat, "shield")
        me["stamina"] = max(0, me["stamina"] - n)
        if me["stamina"] == 0:
            self._die(ctx, seat, cause, killer)
            return True
        if me["stamina"] <= 4 and "draught" in me["items"]:
            me["items"].remove("draught")
            me["stamina"] = min(me["stamina0"], me["stamina"] + 8)
            ctx.events.append(Event(words("draught", who=p(seat), stamina=me["stamina"])))
        return False

    def _die(self, ctx: Ctx, seat: int, cause: Any, killer: int | None) -> None:
        d = ctx.d
        me = d["players"][seat]
        node = me["pos"]
        cards = list(me["items"]) + [s for s in me["swords"] if s != "sword"]
        ctx.events.append(Event(words("slain", who=p(seat), cause=cause), kind="death"))
        fight = d["battle"]
        if killer is not None:
            d["tally"]["killed"] += 1
        elif fight is not None and fight["kind"] == "monster" and fight["seat"] == seat:
            d["tally"]["slain"] += 1
        if killer is None:
            if cards:
                self._add_pile(d, node, cards, owner=seat)
                ctx.events.append(Event(words("pile.hidden", who=p(seat), count=len(cards))))
        else:
            victor = d["players"][killer]
            victor["gold"] += me["gold"]
            victor["provisions"] += me["provisions"]
            got = [words("things.gold", count=me["gold"]), words("things.provisions", count=me["provisions"])]
            if me["lantern"]:
                victor["lantern"] = True
                got.append(words("things.their_lantern"))
            if cards:
                got.append(words("things.cards", count=len(cards)))
            ctx.events.append(Event(words("claims.dead", who=p(killer), things=listing(got), loser=p(seat))))
            names = []
            for cid in cards:
                names.append(TREASURE_WORDS[cid])
                self._gain(ctx, killer, cid, quiet=True)
            if names:
                ctx.events.append(Event(words("claims.dead.yours", loser=p(seat), things=listing(names)),
                                        to=(killer,)))
            d["queue"].append({"seat": killer, "kind": "leave"})
        me.update(self._character(ctx.rng))
        me["lives"] += 1
        ctx.events.append(Event(words("new_adventurer", who=p(seat), skill=me["skill"], stamina=me["stamina"],
                                      luck=me["luck"])))
        battle = d["battle"]
        if battle is not None and seat in (battle["seat"], battle.get("foe")):
            d["battle"] = None
            d["task"] = None
        d["queue"] = [q for q in d["queue"] if q["seat"] != seat]
        d["offers"] = [o for o in d["offers"] if seat not in (o["from"], o["to"])]
        if seat == d["current"]:
            d["task"] = None
            d["step"] = "done"

    def _add_pile(self, d: dict[str, Any], node: str, cards: list[str], owner: int | None) -> None:
        for pile in d["piles"]:
            if pile["node"] == node and pile["owner"] == owner:
                pile["items"] += cards
                return
        d["piles"].append({"node": node, "items": list(cards), "owner": owner})

    def _gain(self, ctx: Ctx, seat: int, cid: str, quiet: bool = False) -> None:
        """`seat` takes treasure card `cid` (face down unless it is Gold or Provisions)."""
        d = ctx.d
        me = d["players"][seat]
        card = TREASURES[cid]
        kind = card["kind"]
        if kind == "gold":
            me["gold"] += card["n"]
            ctx.events.append(Event(words("finds.gold", who=p(seat), card=TREASURE_WORDS[cid], count=card["n"])))
            return
        if kind == "provisions":
            me["provisions"] += card["n"]
            ctx.events.append(Event(words("finds.provisions", who=p(seat), card=TREASURE_WORDS[cid],
                                          count=card["n"])))
            return
        if not quiet:
            ctx.events.append(Event(words("finds.card", who=p(seat))))
            ctx.events.append(Event(words("finds.card.yours", card=TREASURE_WORDS[cid]), to=(seat,), kind="secret"))
        if kind == "sword":
            me["swords"].append(cid)
            if len(me["swords"]) > MAX_SWORDS:
                self._shed_sword(ctx, seat)
            return
        me["items"].append(cid)
        if len(me["items"]) > RUCKSACK and not any(q["seat"] == seat and q["kind"] in ("drop", "leave")
                                                   for q in d["queue"]):
            d["queue"].append({"seat": seat, "kind": "drop"})

    def _shed_sword(self, ctx: Ctx, seat: int) -> None:
        """Back to MAX_SWORDS swords, telling the table nothing of what his face-down cards are.

        He keeps his best sword (the one he fights with). Of the others he leaves one the table
        has not seen if he can: his starting sword goes unnoticed (it is no treasure card), a
        hidden card goes down face down; dropping a sword everyone has seen would tell them the
        card just found is a sword."""
        me = ctx.d["players"][seat]
        swords = me["swords"]

        def attack(i: int) -> int:
            return TREASURES[swords[i]]["attack"] if swords[i] in TREASURES else 0

        keep = max(range(len(swords)), key=lambda i: (attack(i), swords[i] in me["revealed"]))
        shed = min((i for i in range(len(swords)) if i != keep),
                   key=lambda i: (swords[i] in me["revealed"], attack(i)))
        cid = swords.pop(shed)
        shed = words("swords.shed.card", count=MAX_SWORDS, card=TREASURE_WORDS[cid]) if cid in TREASURES \
            else words("swords.shed.old", count=MAX_SWORDS)
        ctx.events.append(Event(shed, to=(seat,)))
        if cid in TREASURES:
            if cid in me["revealed"] and cid not in swords:
                me["revealed"].remove(cid)
            self._add_pile(ctx.d, me["pos"], [cid], owner=None)
            ctx.events.append(Event(words("leaves_card", who=p(seat))))

    def _pick_piles(self, ctx: Ctx, seat: int) -> None:
        d = ctx.d
        node = d["players"][seat]["pos"]
        for pile in [pl for pl in d["piles"] if pl["node"] == node and pl["owner"] in (None, seat)]:
            d["piles"].remove(pile)
            mine = pile["owner"] == seat
            ctx.events.append(Event(words("pile.reclaims" if mine else "pile.picks_up", who=p(seat),
                                          count=len(pile["items"]))))
            ctx.events.append(Event(words("pile.yours", things=listing([TREASURE_WORDS[c] for c in pile["items"]])),
                                    to=(seat,)))
            for cid in pile["items"]:
                self._gain(ctx, seat, cid, quiet=True)

    # ------------------------------------------------------------ movement
    def destinations(self, d: dict[str, Any], seat: int, steps: int, flee: bool = False) -> dict[str, list[str]]:
        """Where `seat` may end a move of `steps` squares, with one path to each.

        A move is exactly `steps` squares, no square twice, except that it stops on entering a
        room, a Secret Passage or a square beside the Maze, may stop where another adventurer or
        discarded treasure is or on a river crossing's bank (a house rule: STOP_AT_CROSSING), and
        ends early in a dead end. A fleeing adventurer (escaping another) goes exactly FLEE_STEPS,
        never into a Secret Passage, stopping for nothing but rooms.
        """
        me = d["players"][seat]
        start = me["pos"]
        company = {q["pos"] for s, q in enumerate(d["players"]) if s != seat and q["extras"] is None}
        piles = {pl["node"] for pl in d["piles"] if pl["owner"] in (None, seat)}
        banks = set(BOARD.crossing_at) if STOP_AT_CROSSING else set()
        out: dict[str, list[str]] = {}
        rooms = d["rooms"]

        def allowed(node: str) -> bool:
            if node in BOARD.rooms and rooms[node]["barred"] == seat:
                return False
            return not (flee and node in BOARD.passages)

        def visit(path: list[str]) -> None:
            node = path[-1]
            k = len(path) - 1
            if k > 0:
                if node in BOARD.rooms or node in BOARD.passages or (node in BOARD.maze_gates and not flee):
                    out.setdefault(node, path)
                    return
                if k == steps:
                    out.setdefault(node, path)
                    return
                if not flee and (node in company or node in piles or node in banks):
                    out.setdefault(node, path)
            went = False
            for nb in BOARD.adj[node]:
                if nb in path or not allowed(nb):
                    continue
                went = True
                visit(path + [nb])
            if not went and k > 0:
                out.setdefault(node, path)

        visit([start])
        return out

    def _move_to(self, ctx: Ctx, seat: int, path: list[str]) -> None:
        d = ctx.d
        me = d["players"][seat]
        start = me["pos"]
        self._set_pos(d, seat, path[-1])
        me["door"] = path[-2] if len(path) > 1 else me["door"]
        d["last"] = {"seat": seat, "from": start, "to": path[-1], "path": list(path)}

    # ------------------------------------------------------------ battles
    def _start_battle(self, ctx: Ctx, name: str, skill: int, stamina: int) -> None:
        d = ctx.d
        d["battle"] = {"kind": "monster", "seat": ctx.seat, "name": name, "skill": skill, "stamina": stamina,
                       "stamina0": stamina, "round": 0, "roller": None, "chosen": False, "mroll": None,
                       "waiting": False, "due": None, "last": None}
        d["tally"]["fights"] += 1
        d["step"] = "battle"
        ctx.say("battle.monster", kind="battle", monster=MONSTER_WORDS[name], skill=skill, stamina=stamina)

    def _resolve_round(self, ctx: Ctx) -> None:
        d = ctx.d
        b = d["battle"]
        seat = b["seat"]
        me = d["players"][seat]
        rng = ctx.rng
        bonus, sword = self._sword_bonus(me)
        if sword:
            self._reveal(ctx, seat, sword)
        mine = [rng.die(), rng.die()]
        my_total = sum(mine) + me["skill"] + bonus
        bonus_text = f"+{bonus}" if bonus else ""
        if b["kind"] == "monster":
            theirs = b["mroll"] or [rng.die(), rng.die()]
            their_total = sum(theirs) + b["skill"]
            foe_name, foe_skill, foe_bonus = MONSTER_WORDS[b["name"]], b["skill"], ""
        else:
            foe = d["players"][b["foe"]]
            fbonus, fsword = self._sword_bonus(foe)
            if fsword:
                self._reveal(ctx, b["foe"], fsword)
            theirs = [rng.die(), rng.die()]
            their_total = sum(theirs) + foe["skill"] + fbonus
            foe_name, foe_skill, foe_bonus = p(b["foe"]), foe["skill"], (f"+{fbonus}" if fbonus else "")
        b["round"] += 1
        b["mroll"], b["waiting"], b["due"], b["held"] = None, False, None, False
        b["last"] = {"mine": mine, "theirs": theirs, "my_total": my_total, "their_total": their_total}
        d["dice"] = {"seat": seat, "what": "battle", "faces": mine + theirs}
        rolls = dict(round=b["round"], foe=foe_name, foe_roll=f"{theirs[0]}+{theirs[1]}+{foe_skill}{foe_bonus}",
                     foe_total=their_total, who=p(seat), roll=f"{mine[0]}+{mine[1]}+{me['skill']}{bonus_text}",
                     total=my_total)
        if my_total == their_total:
            ctx.events.append(Event(words("round.lock", **rolls), kind="battle"))
            return
        won = my_total > their_total
        sixes = (mine if won else theirs) == [6, 6] and d["double6"]
        wound = WOUND * (2 if sixes else 1)
        extra = DOUBLE_SIX if sixes else ""
        if b["kind"] == "monster":
            if won:
                b["stamina"] = max(0, b["stamina"] - wound)
                ctx.events.append(Event(words("round.monster_hurt", **rolls, stamina=b["stamina"], extra=extra),
                                        kind="battle"))
                if b["stamina"] == 0:
                    self._monster_slain(ctx)
            else:
                ctx.events.append(Event(words("round.hurt", **rolls, hurt=p(seat), extra=extra), kind="battle"))
                self._wound(ctx, seat, wound, cause=words("cause.encounter", what=foe_name), battle=True)
                if d["players"][seat]["stamina"] > 0:
                    ctx.events.append(Event(words("stamina.now", who=p(seat), stamina=d["players"][seat]["stamina"]),
                                            kind="battle"))
            return
        loser, winner = (b["foe"], seat) if won else (seat, b["foe"])
        ctx.events.append(Event(words("round.hurt", **rolls, hurt=p(loser), extra=extra), kind="battle"))
        if not self._wound(ctx, loser, wound, cause=p(winner), battle=True, killer=winner):
            ctx.events.append(Event(words("stamina.now", who=p(loser), stamina=d["players"][loser]["stamina"]),
                                    kind="battle"))
        else:
            d["battle"] = None
            if d["players"][seat]["extras"] is None:
                d["step"] = "done"

    def _monster_slain(self, ctx: Ctx) -> None:
        d = ctx.d
        b = d["battle"]
        seat = b["seat"]
        me = d["players"][seat]
        me["luck"] = min(me["luck0"], me["luck"] + KILL_LUCK)
        task = d["task"]
        ctx.events.append(Event(words("slays", who=p(seat), monster=MONSTER_WORDS[b["name"]], gain=KILL_LUCK,
                                      luck=me["luck"]), kind="battle"))
        d["battle"] = None
        room = task.get("room")
        if room is not None:
            kind = task["effect"].split(":")[0]
            if kind == "card":
                d["rooms"][room]["encounter"] = None
            else:
                d["rooms"][room]["fixed"] = None
        elif task["effect"] == "fixed:crocodile":
            ctx.events.append(Event(words("crocodile.another")))
        d["step"] = "task"
        self._run(ctx)

    def _escape(self, ctx: Ctx, seat: int) -> None:
        d = ctx.d
        b = d["battle"]
        face = ctx.rng.die()
        row = next(r for r in ESCAPE if face in r["faces"])
        d["dice"] = {"seat": seat, "what": "escape", "faces": [face]}
        ctx.events.append(Event(words("escape.roll", who=p(seat), face=face,
                                      result=words(f"escape.{row['faces'][0]}", who=p(seat))), kind="battle"))
        other = None if b["kind"] == "monster" else (b["foe"] if seat == b["seat"] else b["seat"])
        if row["stamina"] and self._wound(ctx, seat, -row["stamina"], cause=words("cause.parting_blow"),
                                          killer=other):
            d["battle"] = None
            d["step"] = "done"
            return
        if not row["escaped"]:
            # held: he fights the next round. The one attacked choosing first, his failure leaves
            # the attacker his own choice; the attacker's (or a monster fight's) starts the round
            b["mroll"] = None
            if b["kind"] == "duel" and seat == b["foe"]:
                b["stand"] = True
            else:
                b["held"] = True
            return
        d["battle"] = None
        if b["kind"] == "monster":
            d["tally"]["fled"] += 1
            task = d["task"]
            d["task"] = None
            me = d["players"][seat]
            back = me["door"] or me["pos"]
            self._set_pos(d, seat, back)
            how = "escaped.bank" if task.get("room") is None else "escaped.door"
            ctx.events.append(Event(words(how, who=p(seat), monster=MONSTER_WORDS[b["name"]], place=where(back))))
            d["step"] = "done"
            return
        victor = b["foe"] if seat == b["seat"] else b["seat"]
        d["queue"].append({"seat": victor, "kind": "spoils", "from": seat})
        d["queue"].append({"seat": seat, "kind": "flee"})
        d["step"] = "done"

    # ------------------------------------------------------------ effects
    def _begin(self, ctx: Ctx, source: str, **task: Any) -> None:
        spec = effect(source)
        ctx.d["task"] = {"effect": source, "at": spec["steps"][0]["id"], "name": spec["name"], **task}
        ctx.d["step"] = "task"
        self._run(ctx)

    def _run(self, ctx: Ctx) -> None:
        """Run the task's effect from its resume point until it waits, stops or ends."""
        d = ctx.d
        for _ in range(60):  # runaway guard
            task = d["task"]
            if task is None:
                return
            spec = effect(task["effect"])
            at = task["at"]
            if at == "end":
                self._finish(ctx)
                return
            step = spec["index"][at]
            after = step.get("then") or spec["next"][at]
            result = OPS[step["op"]](ctx, step)
            if d["task"] is not task:
                return  # the op ended the task (a death)
            if result == "stop":
                d["task"] = None
                return
            if result == "wait":
                task["at"] = after
                return
            task["at"] = result if result is not None else after
        raise AssertionError("an effect loops")

    def _finish(self, ctx: Ctx) -> None:
        d = ctx.d
        task = d["task"]
        d["task"] = None
        then = task["then"]
        if then == "loot":
            room = d["rooms"][task["room"]]
            source_kind, _, ident = task["effect"].partition(":")
            if source_kind == "card" and room["encounter"] == ident and not is_monster(task["effect"]):
                room["encounter"] = None
            self._loot(ctx)
        elif then == "far_bank":
            self._set_pos(d, ctx.seat, task["far"])
            d["players"][ctx.seat]["door"] = task["far"]
            ctx.events.append(Event(words("far_bank", who=p(ctx.seat))))
            d["step"] = "done"

    def _enter_room(self, ctx: Ctx) -> None:
        d = ctx.d
        rid = ctx.me["pos"]
        room = d["rooms"][rid]
        ctx.me["face"] = False
        room["visited"] = True
        if room["fixed"] is not None:
            self._begin(ctx, "fixed:" + room["fixed"], room=rid, then="loot")
        elif room["encounter"] is not None:
            room["seen"] = room["encounter"]
            ctx.events.append(Event(words("encounter.turned", room=where(rid), who=p(ctx.seat),
                                          card=ENCOUNTER_WORDS[room["encounter"]])))
            self._begin(ctx, "card:" + room["encounter"], room=rid, then="loot")
        else:
            self._loot(ctx)

    def _loot(self, ctx: Ctx) -> None:
        d = ctx.d
        rid = ctx.me["pos"]
        room = d["rooms"][rid]
        if room["treasure"] is not None:
            cid, room["treasure"] = room["treasure"], None
            self._gain(ctx, ctx.seat, cid)
        self._pick_piles(ctx, ctx.seat)
        if BOARD.rooms[rid]["kind"] == "treasure":
            # always the same words and a private choice: whether he carries keys is his secret
            d["step"] = "open"
            ctx.events.append(Event(words("chest.before", who=p(ctx.seat))))
            return
        self._company(ctx)

    def _company(self, ctx: Ctx) -> None:
        """After a move: stop to deal with another adventurer here, or end the turn."""
        d = ctx.d
        d["step"] = "stop" if self._others_here(d, ctx.seat) else "done"

    def _arrive(self, ctx: Ctx) -> None:
        d = ctx.d
        node = ctx.me["pos"]
        if node in BOARD.passages:
            colour = BOARD.passages[node]["colour"]
            ctx.events.append(Event(words(f"passage.into.{colour}", who=p(ctx.seat))))
            d["step"] = "done"
        elif node in BOARD.maze_gates:
            ctx.events.append(Event(words("maze.edge", who=p(ctx.seat))))
            self._pick_piles(ctx, ctx.seat)
            d["step"] = "done"
        elif node in BOARD.rooms:
            self._enter_room(ctx)
        else:
            self._pick_piles(ctx, ctx.seat)
            self._company(ctx)

    # ------------------------------------------------------------ keys
    def _challenge(self, ctx: Ctx, n: int) -> None:
        d = ctx.d
        seat = ctx.seat
        ctx.events.append(Event(words("challenge", who=p(seat), n=n)))
        d["challenges"].append({"seat": seat, "n": n})
        ctx.events.append(Event(self._held_out(d, seat, n), to=(seat,), kind="secret"))

    def _held_out(self, d: dict[str, Any], seat: int, n: int) -> Msg:
        """What `seat` sees when the others hold out their Key cards for `n` (and learns from it)."""
        holders = [s for s, q in enumerate(d["players"]) if s != seat and n in q["keys"]]
        know = d["players"][seat]["know"]
        know["held"][str(n)] = holders
        if holders:
            return words("held_out.by", n=n, who=listing([p(s) for s in holders]))
        if n in d["players"][seat]["keys"]:
            return words("held_out.own", n=n)
        know["chest"] = sorted(set(know["chest"]) | {n})
        return words("held_out.chest", n=n)

    def _open(self, ctx: Ctx, keys: tuple[int, ...]) -> None:
        d = ctx.d
        seat = ctx.seat
        wrong = sum(1 for n in keys if n not in d["chest"])
        d["attempts"].append({"seat": seat, "keys": list(keys), "wrong": wrong})
        ctx.events.append(Event(words("open.names", who=p(seat), keys=tuple(str(n) for n in keys))))
        if wrong == 0:
            ctx.events.append(Event(words("open.won", who=p(seat)), kind="end"))
            d["winner"] = seat
            d["phase"] = "over"
            d["step"] = "done"
            ctx.state.over = True
            ctx.state.result = {"winners": [seat], "reason": words("result.opened").stored(),
                                "scores": None}
            return
        # a Key Challenge: he alone sees the cards held out for each number he named
        ctx.events.append(Event(words("open.held_out", lines=lines([self._held_out(d, seat, n) for n in keys])),
                                to=(seat,), kind="secret"))
        ctx.events.append(Event(words("open.wrong", who=p(seat), count=wrong)))
        self._set_pos(d, seat, BOARD.landing)
        d["players"][seat]["door"] = BOARD.landing
        d["last"] = {"seat": seat, "from": "treasure", "to": BOARD.landing, "path": ["treasure", BOARD.landing]}
        d["step"] = "done"

    # ------------------------------------------------------------ turns
    def _settle(self, ctx: Ctx) -> None:
        d = ctx.d
        state = ctx.state
        if state.over or d["queue"] or d["phase"] != "play" or d["step"] != "done":
            return
        self._pass_turn(ctx)

    def _pass_turn(self, ctx: Ctx) -> None:
        d = ctx.d
        state = ctx.state
        d.update(step="start", roll=None, challenged=False, task=None, battle=None, maze_trail=[],
                 conferred=[])
        for _ in range(state.seats * 4):
            nxt = (d["current"] + 1) % state.seats
            if nxt == d["first"]:
                d["round"] += 1
                if d["round"] > d["limit"]:
                    self._time_up(ctx)
                    return
            d["current"] = nxt
            state.turn += 1
            me = d["players"][nxt]
            d["offers"] = [o for o in d["offers"] if o["from"] != nxt]
            if me["miss"] > 0 and me["extras"] is None:
                me["miss"] -= 1
                ctx.events.append(Event(words("maze.misses", who=p(nxt))))
                continue
            me["turns"] += 1
            return
        raise AssertionError("nobody can take a turn")

    def _time_up(self, ctx: Ctx) -> None:
        d = ctx.d
        d["phase"] = "over"
        d["step"] = "done"
        ctx.state.over = True
        ctx.state.result = {"winners": [], "reason": words("result.woke").stored(), "scores": None}
        ctx.events.append(Event(words("time_up", round=d["limit"]), kind="end"))

    # ------------------------------------------------------------ prompts
    # A seat's options: each legal action with its UI path and the handler that carries it out.
    # `prompt` shows them; `reduce` accepts exactly these, so the two can never disagree.

    def options(self, state: State, seat: int) -> tuple[Any, list[tuple[Choice, Callable[..., None]]], bool]:
        """The seat's options, the places they name lettered as the board marks them."""
        text, opts, private = self._options(state, seat)
        marks = self._marks_of(state, seat, opts)
        if marks:
            opts = [(_marked(choice, marks), handler) for choice, handler in opts]
            there = _who_is_where(state.data, seat, marks)
            if there:
                asked = isinstance(text, Msg) and text.id in QUESTIONS
                text = words("prompt.there_q" if asked else "prompt.there", text=text, there=there)
        return text, opts, private

    def marks(self, state: State) -> dict[str, str]:
        """The places the mover's choices name -> the letter the board draws on each, in the
        order the buttons list them. Only the mover (the queue's head, else the player whose
        turn it is) is offered places, and never in a private prompt."""
        d = state.data
        if state.over or d["phase"] != "play":
            return {}
        seat = d["queue"][0]["seat"] if d["queue"] else d["current"]
        return self._marks_of(state, seat, self._options(state, seat)[1])

    def _marks_of(self, state: State, seat: int, opts: list[tuple[Choice, Callable[..., None]]]) -> dict[str, str]:
        here = state.data["players"][seat]["pos"]
        return marked([c.action.split()[1] for c, _ in opts
                       if c.action.startswith("move ") and c.action.split()[1] != here])

    def _options(self, state: State, seat: int) -> tuple[str, list[tuple[Choice, Callable[..., None]]], bool]:
        if state.over or seat == SYSTEM:
            return "", [], False
        d = state.data
        me = d["players"][seat]
        if d["queue"]:
            head = d["queue"][0]
            if head["seat"] == seat:
                return self._queue_options(d, seat, head)
            return self._side_options(d, seat)
        if me["extras"] is not None:
            return self._extras_options(d, seat)
        if d["phase"] != "play":
            return "", [], False
        if seat == d["current"]:
            return self._turn_options(d, seat)
        return self._side_options(d, seat)

    def prompt(self, state: State, seat: int) -> Prompt | None:
        text, opts, private = self.options(state, seat)
        if not opts:
            return None
        return Prompt(seat, text, [c for c, _ in opts], private=private)

    def _extras_options(self, d: dict[str, Any], seat: int) -> tuple[Any, list[Any], bool]:
        me = d["players"][seat]
        n = me["extras"]
        opts = [(_choice(f"extras {g}", (str(g), words("label.extras", gold=g, count=n - g))),
                 self._do_extras) for g in range(n + 1)]
        return (words("prompt.extras", skill=me["skill"], stamina=me["stamina"], luck=me["luck"], count=n, eat=EAT),
                opts, False)

    def _side_options(self, d: dict[str, Any], seat: int) -> tuple[Any, list[Any], bool]:
        """Options for someone who is not the player to move: rolling for a monster, a battle's
        defender, a new adventurer's extras, an offered look at Key cards."""
        me = d["players"][seat]
        b = d["battle"]
        if b is not None and not d["queue"]:
            # the monster's dice wait until the adventurer has chosen to fight the round, not escape
            if b["kind"] == "monster" and b["roller"] == seat and b["waiting"]:
                monster = MONSTER_WORDS[b["name"]]
                return (words("prompt.roll_for", monster=monster, who=p(b["seat"])),
                        [(_choice("dice", ("dice", words("label.roll_for", monster=monster))), self._do_dice),
                         (_choice("pass", ("pass", LABELS["bot_rolls"])), self._do_decline)], False)
            if b["kind"] == "duel" and b["foe"] == seat and b["round"] >= 1 and not b["stand"]:
                return (words("prompt.defend", who=p(b["seat"])),
                        [(_choice("attack", ("attack", LABELS["fight_on"])), self._do_stand),
                         (_choice("escape", ("escape", LABELS["escape"])), self._do_escape)], False)
        if me["extras"] is not None:
            return self._extras_options(d, seat)
        offer = next((o for o in d["offers"] if o["to"] == seat), None)
        if offer is not None and not d["queue"]:
            opts = [(_choice(f"show {n}", (str(n), SHOW_KEY_LABELS[n])), self._do_reply) for n in me["keys"]]
            opts.append((_choice("pass", ("pass", LABELS["refuse"])), self._do_refuse))
            return words("prompt.offered", who=p(offer["from"])), opts, True
        return "", [], False

    def _queue_options(self, d: dict[str, Any], seat: int, head: dict[str, Any]) -> tuple[Any, list[Any], bool]:
        me = d["players"][seat]
        kind = head["kind"]
        if kind == "spoils":
            loser = d["players"][head["from"]]
            whats: list[tuple[str, Any]] = []
            # offered whatever he carries: the buttons must not tell whether he has keys
            whats.append(("keys", LABELS["their_keys"]))
            if loser["items"] or any(s != "sword" for s in loser["swords"]):
                whats.append(("random", LABELS["random"]))
            for cid in _distinct(loser["revealed"]):
                if cid in loser["items"] or cid in loser["swords"]:
                    whats.append((cid, words("label.their", card=words(f"treasure.{cid}"))))
            whats.append(("nothing", LABELS["nothing"]))
            opts = []
            for what, said in whats:
                if loser["lantern"]:
                    opts.append((_choice(f"spoils {what} lantern", (what, said), ("lantern", LABELS["lantern"])),
                                 self._do_spoils))
                    opts.append((_choice(f"spoils {what}", (what, said), ("nolantern", LABELS["no_lantern"])),
                                 self._do_spoils))
                else:
                    opts.append((_choice(f"spoils {what}", (what, said)), self._do_spoils))
            return words("prompt.spoils", who=p(head["from"])), opts, False
        if kind == "flee":
            dests = sorted(self.destinations(d, seat, FLEE_STEPS, flee=True), key=_order)
            said = place_words(dests, me["pos"])
            opts = [(_choice(f"move {n}", (n, self._dest_label(d, seat, n, said[n]))), self._do_flee)
                    for n in dests]
            if not opts:
                opts = [(_choice(f"move {me['pos']}", (me["pos"], LABELS["nowhere"])), self._do_flee)]
            return words("prompt.flee", count=FLEE_STEPS), opts, False
        cards = _distinct(me["items"] + ([s for s in me["swords"] if s != "sword"] if kind == "leave" else []))
        opts = [(_choice(f"drop {cid}", (cid, words("label.leave", card=SHORT_TREASURE_WORDS[cid]))),
                 self._do_leave if kind == "leave" else self._do_drop) for cid in cards]
        if kind == "leave":
            if len(me["items"]) <= RUCKSACK:
                opts.insert(0, (_choice("pass", ("pass", LABELS["keep"])), self._do_keep))
            return words("prompt.leave", count=RUCKSACK, carried=len(me["items"])), opts, True
        return words("prompt.drop", count=RUCKSACK), opts, True

    def _dest_label(self, d: dict[str, Any], seat: int, node: str, said: Msg) -> Msg:
        """A place a move may end on, in words (`places.place_words`), with what waits there
        (who stands there the prompt's text says: `_who_is_where`)."""
        if node in BOARD.rooms and BOARD.rooms[node]["kind"] == "room" and not d["rooms"][node]["visited"]:
            return words("label.unexplored", place=said)
        return said

    def _turn_options(self, d: dict[str, Any], seat: int) -> tuple[Any, list[Any], bool]:
        me = d["players"][seat]
        step = d["step"]
        node = me["pos"]
        opts: list[tuple[Choice, Callable[..., None]]] = []
        private = False
        text: Any = ""
        if step == "start":
            text = YOUR_TURN
            if me["face"] and BOARD.rooms[node]["kind"] == "treasure":
                return (words("prompt.fled_to_chest"),
                        [(_choice("face", ("face", LABELS["face_chest"])), self._do_face)], False)
            if me["face"]:
                return (words("prompt.face"),
                        [(_choice("face", ("face", LABELS["face"])), self._do_face)], False)
            if node in BOARD.maze_spaces:
                opts += self._maze_options(d, seat)
            else:
                opts.append((_choice("roll", ("roll", LABELS["roll"])), self._do_roll))
                if node in BOARD.passages:
                    spec = BOARD.passage_colours[BOARD.passages[node]["colour"]]
                    if me["lantern"]:
                        others = [other for other in spec["entrances"] if other != node]
                        said = place_words(others, node, exits=True)
                        for other in others:
                            opts.append((_choice(f"move {other}", (other, said[other])), self._do_exit))
                    else:
                        opts.append((_choice("grope", ("grope", LABELS["grope"])), self._do_grope))
                if node in BOARD.maze_gates:
                    opts += self._maze_options(d, seat)
                if node in BOARD.crossing_at:
                    c = BOARD.crossings[BOARD.crossing_at[node]]
                    if c["id"] != "ferry" or me["gold"] >= FERRY_GOLD:
                        crossing = LABELS.get(c["id"]) or words("label.ferry", gold=FERRY_GOLD)
                        opts.append((_choice("cross", ("cross", crossing)), self._do_cross))
            if self._can_eat(d, seat) is None:
                opts.append((_choice("eat", ("eat", words("label.eat", gain=EAT))), self._do_eat))
            opts += self._company_options(d, seat)
        elif step == "move":
            text = words("prompt.move", roll=d["roll"])
            dests = sorted(self.destinations(d, seat, d["roll"]), key=_order)
            said = place_words(dests, me["pos"])
            for n in dests:
                opts.append((_choice(f"move {n}", (n, self._dest_label(d, seat, n, said[n]))), self._do_move))
            if not dests:
                opts.append((_choice("pass", ("pass", LABELS["stay"])), self._do_stay))
            if d["roll"] == 1 and not d["challenged"]:
                # after the moves (the likelier choice). Every number is offered (naming your own is
                # pointless but legal): the buttons may be public, and leaving out your own numbers
                # would show everyone what you hold
                text = words("prompt.one")
                for n in range(1, NUMBERS + 1):
                    opts.append((_choice(f"challenge {n}", ("challenge", LABELS["key_challenge"]),
                                         (str(n), KEY_LABELS[n])), self._do_challenge))
        elif step == "maze":
            text = IN_MAZE
            opts += self._maze_options(d, seat)
            opts.append((_choice("pass", ("pass", LABELS["rest"])), self._do_end))
        elif step == "stop":
            text = COMPANY
            opts += self._company_options(d, seat)
            opts.append((_choice("pass", ("pass", LABELS["end_turn"])), self._do_end))
        elif step == "offer":
            text = OFFER_TEXT
            private = True
            opts = [(_choice(f"show {n}", (str(n), MY_KEY_LABELS[n])), self._do_offer) for n in me["keys"]]
            opts.append((_choice("pass", ("pass", LABELS["never_mind"])), self._do_cancel))
        elif step == "ask":
            text = ASK_TEXT
            for n in range(1, NUMBERS + 1):
                opts.append((_choice(f"challenge {n}", (str(n), KEY_LABELS[n])), self._do_challenge))
            opts.append((_choice("pass", ("pass", LABELS["no_challenge"])), self._do_skip))
        elif step == "shop":
            text = words("prompt.shop", count=me["gold"])
            for wid, ware in WARES.items():
                if me["gold"] >= ware["price"]:
                    opts.append((_choice(f"buy {wid}", (wid, words("label.buy", ware=WARE_WORDS[wid],
                                                                   price=ware["price"]))), self._do_buy))
            opts.append((_choice("pass", ("pass", LABELS["leave_pedlar"])), self._do_done))
        elif step == "open":
            text = OPEN_TEXT
            private = True
            for combo in combinations(key_treasure_numbers(me["items"]), CHEST_KEYS):
                opts.append((_choice("open " + " ".join(map(str, combo)), *[(str(n), CHEST_KEY_LABELS[n]) for n in combo]),
                             self._do_open))
            opts.append((_choice("pass", ("pass", LABELS["not_now"])), self._do_end))
        elif step == "battle":
            return self._battle_options(d, seat)
        return text, opts, private

    def _maze_options(self, d: dict[str, Any], seat: int) -> list[tuple[Choice, Callable[..., None]]]:
        node = d["players"][seat]["pos"]
        out = []
        for nb in BOARD.maze_links[node]:
            if nb in d["maze_trail"] or d["maze_seen"].get(nb) == "dead":
                continue
            if nb in BOARD.maze_gates:
                if node in BOARD.maze_gates:
                    continue
                said = words(f"label.maze_out.{BOARD.side(nb)}")
            else:
                way = "open" if d["maze_seen"].get(nb) == "open" else "go"
                said = words(f"label.maze_{way}.{direction(node, nb)}")
            out.append((_choice(f"move {nb}", (nb, said)), self._do_maze))
        return out

    def _company_options(self, d: dict[str, Any], seat: int) -> list[tuple[Choice, Callable[..., None]]]:
        out = []
        for other in self._others_here(d, seat):
            colour = COLOURS[other]
            if self._can_duel(d, seat, other):
                out.append((_choice(f"fight {colour}", (f"fight-{colour}", words("label.attack_who", who=p(other)))),
                            self._do_fight))
            if other not in d["conferred"] and not any(o["from"] == seat and o["to"] == other for o in d["offers"]):
                out.append((_choice(f"confer {colour}", (f"confer-{colour}", words("label.confer", who=p(other)))),
                            self._do_confer))
        return out

    def _battle_options(self, d: dict[str, Any], seat: int) -> tuple[Any, list[Any], bool]:
        b = d["battle"]
        if b is None or b["seat"] != seat or b.get("waiting") or self._defender_deciding(b):
            return "", [], False
        if b["kind"] == "duel":
            opts = [(_choice("attack", ("attack", words("label.attack_who", who=p(b["foe"])))), self._do_attack)]
            if b["round"] >= 1 and not b.get("held"):
                opts.append((_choice("escape", ("escape", LABELS["escape"])), self._do_escape))
            return words("prompt.duel", who=p(b["foe"])), opts, False
        monster = MONSTER_WORDS[b["name"]]
        text = words("prompt.battle", monster=monster)
        opts = []
        if self._can_press(d, b):
            opts.append((_choice("press", ("press", LABELS["press"])), self._do_press))
            text = words("prompt.battle.press", monster=monster, floor=PRESS_FLOOR)
        if not b["chosen"]:
            opts.append((_choice("attack", ("attack", LABELS["attack"])), self._do_attack))
            for other, q in enumerate(d["players"]):
                if other != seat and q["extras"] is None:
                    colour = COLOURS[other]
                    opts.append((_choice(f"nominate {colour}",
                                         (f"nominate-{colour}", words("label.nominate", who=p(other)))),
                                 self._do_nominate))
        else:
            opts.append((_choice("attack", ("attack", LABELS["attack"])), self._do_attack))
        if b["round"] >= 1 and not b.get("held"):
            opts.append((_choice("escape", ("escape", LABELS["escape"])), self._do_escape))
        return text, opts, False

    def _can_press(self, d: dict[str, Any], b: dict[str, Any]) -> bool:
        """"Fight to the end" is offered in a monster's battle whose dice the bot rolls (a player
        rolling for it is asked each round) while the adventurer has Stamina to spare."""
        return b["roller"] is None and d["players"][b["seat"]]["stamina"] > PRESS_FLOOR

    def _defender_deciding(self, b: dict[str, Any]) -> bool:
        """Between rounds of a duel the defender says first whether he fights on or escapes: the
        attacker's next attack waits for it."""
        return b["kind"] == "duel" and b["round"] >= 1 and not b["stand"]

    # ------------------------------------------------------------ reduce
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        if state.over:
            raise IllegalAction(words("refusal.over"))
        events: list[Event] = []
        if seat == SYSTEM:
            if action != "botroll":
                raise IllegalAction(words("refusal.clock"))
            b = d["battle"]
            if b is None or b["kind"] != "monster" or b["roller"] is None or not b["waiting"] or now < (b["due"] or 0):
                raise IllegalAction(words("refusal.no_dice"))
            ctx = Ctx(self, state, b["seat"], rng, now, events)
            events.append(Event(words("slow_roller", who=p(b["roller"]), monster=MONSTER_WORDS[b["name"]])))
            b["roller"] = None
            self._resolve_round(ctx)
            self._settle(ctx)
            return events
        _, opts, _ = self.options(state, seat)
        try:
            wanted = normalize(self._from_marker(state, action))
            if wanted.startswith("show ") and not (seat == d["current"] and d["step"] == "offer") \
                    and not any(o["to"] == seat for o in d["offers"]):
                raise IllegalAction(words("refusal.no_offer"))
            if not opts:
                raise IllegalAction(self._idle_reason(state, seat))
            handler = next((h for c, h in opts if c.action == wanted), None)
            if handler is None:
                raise IllegalAction(self._why_not(state, seat, wanted, [c for c, _ in opts]))
        except IllegalAction as refusal:
            # what he could type instead; with nothing to do now, why not
            said = refusal.msg or refusal.reason
            if opts:
                forms = typed_forms(self._typed_form(state, c.action) for c, _ in opts)
                raise IllegalAction(words("refusal.with_forms", reason=said, forms=forms)) from None
            idle = self._idle_reason(state, seat)
            raise IllegalAction(said if said == idle else words("refusal.with_idle", reason=said, idle=idle)) \
                from None
        ctx = Ctx(self, state, seat, rng, now, events)
        handler(ctx, arg_of(wanted))
        self._settle(ctx)
        return events

    def _typed_form(self, state: State, action: str) -> str:
        """`action` as a player would type it: a place by the letter the board shows, a card by
        its name."""
        verb, _, arg = action.partition(" ")
        if verb == "move":
            return f"move {self.marks(state).get(arg, arg)}"
        if verb in ("drop", "spoils") and arg.split()[0] in TREASURES:
            card, _, lantern = arg.partition(" ")
            return f"{verb} {TREASURES[card]['name'].lower()} {lantern}".strip()
        return action

    def _from_marker(self, state: State, action: str) -> str:
        """A place typed by its letter on the board ("move a") as the square or room it marks."""
        verb, _, arg = action.strip().partition(" ")
        if verb.lower() == "move" and arg.strip().isalpha() and len(arg.strip()) <= 2:
            for node, mark in self.marks(state).items():
                if mark == arg.strip().upper():
                    return f"move {node}"
        return action

    def _idle_reason(self, state: State, seat: int) -> Msg:
        d = state.data
        if d["queue"]:
            return words("idle.queue", who=p(d["queue"][0]["seat"]))
        b = d["battle"]
        if b is not None and b["seat"] == seat and b.get("waiting"):
            return words("idle.roller", who=p(b["roller"]), monster=MONSTER_WORDS[b["name"]])
        if b is not None and b["seat"] == seat and self._defender_deciding(b):
            return words("idle.defender", who=p(b["foe"]))
        if b is not None and b["kind"] == "monster" and b["roller"] == seat:
            return words("idle.fighter", who=p(b["seat"]), monster=MONSTER_WORDS[b["name"]])
        if d["phase"] == "create":
            return words("idle.create")
        return words("idle.turn", who=p(d["current"]))

    def _why_not(self, state: State, seat: int, wanted: str, choices: list[Choice]) -> Msg:
        d = state.data
        me = d["players"][seat]
        kind, _, rest = wanted.partition(" ")
        verbs = sorted({c.action.split()[0] for c in choices})
        mine = seat == d["current"]
        if kind not in verbs:
            if kind == "eat" and mine and d["step"] == "start":
                return self._can_eat(d, seat) or words("refusal.cannot", verb=kind)
            if kind == "fight" and mine:
                other = COLOURS.index(rest)
                if other < state.seats and other != seat:
                    return self._duel_reason(d, seat, other)
            if kind == "cross" and mine and me["pos"] in BOARD.crossing_at:
                return words("refusal.ferry", gold=FERRY_GOLD, have=me["gold"])
            if kind == "press":
                return words("refusal.press", floor=PRESS_FLOOR)
            if kind in ("cross", "challenge", "open"):
                return words(f"refusal.{kind}")
            return words("refusal.cannot", verb=kind)
        same = [arrows([step.label for step in c.path]) for c in choices if c.action.split()[0] == kind]
        if kind == "move" and d["step"] == "move" and mine:
            return words("refusal.move", roll=d["roll"], places=semicolons(same[:12]),
                         more="…" if len(same) > 12 else ".")
        if kind == "challenge" and rest.isdigit() and int(rest) in me["keys"]:
            return words("refusal.challenge_own", n=rest)
        if kind == "challenge":
            return words("refusal.challenge_number", most=NUMBERS)
        if kind == "open":
            held = key_treasure_numbers(me["items"])
            return words("refusal.open_keys", keys=numbers(held) or words("none"))
        if kind == "show":
            return words("refusal.show", n=rest, keys=numbers(me["keys"]))
        if kind == "buy":
            return words("refusal.buy", ware=WARE_WORDS[rest], price=WARES[rest]["price"], have=me["gold"])
        if kind == "extras":
            return words("refusal.extras", most=me["extras"])
        if kind == "drop":
            return words("refusal.drop")
        return words("refusal.try", choices=semicolons(same[:8]))

    # ------------------------------------------------------------ actions
    def _do_extras(self, ctx: Ctx, gold: int) -> None:
        d = ctx.d
        me = ctx.me
        n = me["extras"]
        me["gold"] += gold
        me["provisions"] += n - gold
        me["extras"] = None
        ctx.say("ready", skill=me["skill"], stamina=me["stamina"], luck=me["luck"],
                gold=words("things.gold", count=me["gold"]),
                provisions=words("things.provisions", count=me["provisions"]))
        if d["phase"] == "create" and all(q["extras"] is None for q in d["players"]):
            d["phase"] = "play"
            d["current"] = d["first"]
            d["players"][d["first"]]["turns"] = 1
            tied = sum(1 for q in d["players"] if q["skill0"] == d["players"][d["first"]]["skill0"]) > 1
            ctx.events.append(Event(words("start.lot" if tied else "start", who=p(d["first"])), kind="start"))

    def _do_roll(self, ctx: Ctx, _: Any) -> None:
        d = ctx.d
        die = ctx.rng.die()
        d["roll"], d["challenged"], d["step"] = die, False, "move"
        d["dice"] = {"seat": ctx.seat, "what": "move", "faces": [die]}
        ctx.say("rolls.one" if die == 1 else "rolls", die=die)

    def _do_move(self, ctx: Ctx, node: str) -> None:
        path = self.destinations(ctx.d, ctx.seat, ctx.d["roll"])[node]
        self._move_to(ctx, ctx.seat, path)
        ctx.say("moves", place=where(node))
        self._arrive(ctx)

    def _do_stay(self, ctx: Ctx, _: Any) -> None:
        ctx.say("stays")
        ctx.d["step"] = "done"

    def _do_challenge(self, ctx: Ctx, n: int) -> None:
        d = ctx.d
        self._challenge(ctx, n)
        if d["step"] == "ask":
            d["step"] = "task"
            self._run(ctx)
        else:
            d["challenged"] = True

    def _do_skip(self, ctx: Ctx, _: Any) -> None:
        ctx.d["step"] = "task"
        ctx.say("no_challenge")
        self._run(ctx)

    def _do_eat(self, ctx: Ctx, _: Any) -> None:
        me = ctx.me
        me["provisions"] -= 1
        me["stamina"] = min(me["stamina0"], me["stamina"] + EAT)
        me["ate"] = me["turns"]
        ctx.say("eats", stamina=me["stamina"])
        ctx.d["step"] = "done"

    def _do_face(self, ctx: Ctx, _: Any) -> None:
        self._enter_room(ctx)

    def _do_cross(self, ctx: Ctx, _: Any) -> None:
        d = ctx.d
        me = ctx.me
        start = me["pos"]
        c = BOARD.crossings[BOARD.crossing_at[start]]
        far = c["north"] if start == c["south"] else c["south"]
        me["door"] = start
        d["last"] = {"seat": ctx.seat, "from": start, "to": far, "path": [start, far]}
        if c["id"] == "ferry":
            me["gold"] -= FERRY_GOLD
            ctx.say("ferry", gold=FERRY_GOLD, bank=bank(far))
            self._set_pos(d, ctx.seat, far)
            d["step"] = "done"
            return
        if c["id"] == "raft":
            ctx.say("raft")
            if self._test_luck(ctx, ctx.seat):
                ctx.say("raft.across", bank=bank(far))
                self._set_pos(d, ctx.seat, far)
                d["step"] = "done"
                return
            ctx.say("raft.falls")
        else:
            face = ctx.rng.die()
            row = next(r for r in BRIDGE if face in r["faces"])
            d["dice"] = {"seat": ctx.seat, "what": "bridge", "faces": [face]}
            ctx.say("bridge", face=face, result=words(f"bridge.{row['faces'][0]}", who=p(ctx.seat)))
            if row["result"] == "back":
                d["step"] = "done"
                return
            if row["result"] == "cross":
                self._set_pos(d, ctx.seat, far)
                if row.get("stamina") and self._wound(ctx, ctx.seat, -row["stamina"], cause=words("cause.bridge")):
                    return
                d["step"] = "done"
                return
        self._begin(ctx, "fixed:crocodile", then="far_bank", far=far)

    def _do_exit(self, ctx: Ctx, node: str) -> None:
        colour = BOARD.passages[ctx.me["pos"]]["colour"]
        self._set_pos(ctx.d, ctx.seat, node)
        ctx.d["last"] = None
        ctx.say(f"passage.lit.{colour}", place=where(node))
        self._do_roll(ctx, None)

    def _do_grope(self, ctx: Ctx, _: Any) -> None:
        here = ctx.me["pos"]
        colour = BOARD.passages[here]["colour"]
        spec = BOARD.passage_colours[colour]
        face = ctx.rng.die()
        node = spec["entrances"][spec["roll"][face - 1] - 1]
        ctx.d["dice"] = {"seat": ctx.seat, "what": "passage", "faces": [face]}
        self._set_pos(ctx.d, ctx.seat, node)
        ctx.say(f"passage.groped.{colour}" + (".same" if node == here else ""), face=face, place=where(node))
        self._do_roll(ctx, None)

    def _do_maze(self, ctx: Ctx, node: str) -> None:
        d = ctx.d
        me = ctx.me
        here = me["pos"]
        if node in BOARD.maze_gates:
            self._set_pos(d, ctx.seat, node)
            d["last"] = {"seat": ctx.seat, "from": here, "to": node, "path": [here, node]}
            ctx.say("maze.out", place=where(node))
            d["step"] = "done"
            return
        card = d["maze"][node]
        if here in BOARD.maze_gates:
            d["tally"]["maze"] += 1
        d["maze_seen"][node] = card
        d["maze_trail"].append(here)
        if card == "dead":
            ctx.say("maze.dead")
            me["miss"] = 1
            d["step"] = "done"
            return
        self._set_pos(d, ctx.seat, node)
        d["last"] = {"seat": ctx.seat, "from": here, "to": node, "path": [here, node]}
        ctx.say("maze.through")
        d["step"] = "maze"

    def _do_end(self, ctx: Ctx, _: Any) -> None:
        if ctx.d["step"] == "open":
            ctx.say("chest.later")
            if ctx.d["roll"] is None:  # at the chest before moving (he fled in): the move is still his
                ctx.d["step"] = "start"
                return
            self._company(ctx)
            return
        ctx.d["step"] = "done"

    def _do_fight(self, ctx: Ctx, colour: str) -> None:
        d = ctx.d
        foe = COLOURS.index(colour)
        d["battle"] = {"kind": "duel", "seat": ctx.seat, "foe": foe, "round": 0, "stand": False, "last": None,
                       "name": None}
        d["step"] = "battle"
        ctx.say("attacks", kind="battle", foe=p(foe))

    def _do_attack(self, ctx: Ctx, _: Any) -> None:
        b = ctx.d["battle"]
        if b["kind"] == "monster":
            b["chosen"] = True
            if b["roller"] is not None and b["mroll"] is None:
                b["waiting"] = True
                b["due"] = ctx.now + ROLL_WAIT
                ctx.say("waits_roller", kind="battle", roller=p(b["roller"]), monster=MONSTER_WORDS[b["name"]])
                return
        else:
            b["stand"] = False
        self._resolve_round(ctx)

    def _do_press(self, ctx: Ctx, _: Any) -> None:
        """Fight to the end: round after round, each in the story as if clicked, until the battle
        is over (the monster slain, the adventurer dead) or his Stamina is down to PRESS_FLOOR,
        where whether to escape matters again: then he is asked as after any round."""
        d = ctx.d
        b = d["battle"]
        b["chosen"] = True
        ctx.say("press", kind="battle", monster=MONSTER_WORDS[b["name"]])
        for _ in range(PRESS_ROUNDS):
            self._resolve_round(ctx)
            if d["battle"] is not b or ctx.state.over:
                return
            if ctx.me["stamina"] <= PRESS_FLOOR:
                ctx.say("press.stops", kind="battle", stamina=ctx.me["stamina"])
                return

    def _do_nominate(self, ctx: Ctx, colour: str) -> None:
        """Fight, with another player rolling for the monster: the first round is on at once."""
        b = ctx.d["battle"]
        b["roller"], b["chosen"] = COLOURS.index(colour), True
        b["waiting"], b["due"] = True, ctx.now + ROLL_WAIT
        ctx.say("nominates", kind="battle", monster=MONSTER_WORDS[b["name"]], roller=p(b["roller"]))

    def _do_dice(self, ctx: Ctx, _: Any) -> None:
        b = ctx.d["battle"]
        b["mroll"] = [ctx.rng.die(), ctx.rng.die()]
        ctx.say("rolls_for", kind="battle", monster=MONSTER_WORDS[b["name"]], a=b["mroll"][0], b=b["mroll"][1])
        if b["waiting"]:
            self._resolve_round(Ctx(self, ctx.state, b["seat"], ctx.rng, ctx.now, ctx.events))

    def _do_decline(self, ctx: Ctx, _: Any) -> None:
        b = ctx.d["battle"]
        b["roller"] = None
        ctx.say("declines", kind="battle", monster=MONSTER_WORDS[b["name"]])
        if b["waiting"]:
            self._resolve_round(Ctx(self, ctx.state, b["seat"], ctx.rng, ctx.now, ctx.events))

    def _do_stand(self, ctx: Ctx, _: Any) -> None:
        ctx.d["battle"]["stand"] = True
        ctx.say("stands", kind="battle")

    def _do_escape(self, ctx: Ctx, _: Any) -> None:
        self._escape(ctx, ctx.seat)

    def _do_confer(self, ctx: Ctx, colour: str) -> None:
        d = ctx.d
        d["confer_with"] = COLOURS.index(colour)
        d["back"] = d["step"]
        d["step"] = "offer"

    def _do_offer(self, ctx: Ctx, n: int) -> None:
        d = ctx.d
        other = d.pop("confer_with")
        d["conferred"].append(other)
        d["offers"].append({"from": ctx.seat, "to": other, "key": n})
        d["step"] = d.pop("back")
        ctx.say("offers", other=p(other))

    def _do_cancel(self, ctx: Ctx, _: Any) -> None:
        d = ctx.d
        d.pop("confer_with", None)
        d["step"] = d.pop("back")

    def _do_reply(self, ctx: Ctx, n: int) -> None:
        d = ctx.d
        offer = next(o for o in d["offers"] if o["to"] == ctx.seat)
        d["offers"].remove(offer)
        giver = offer["from"]
        self._learn(d, giver, ctx.seat, n)
        self._learn(d, ctx.seat, giver, offer["key"])
        ctx.events.append(Event(words("conferred", who=p(giver), other=p(ctx.seat))))
        ctx.events.append(Event(words("shows_you", who=p(ctx.seat), n=n), to=(giver,), kind="secret"))
        ctx.events.append(Event(words("shows_you", who=p(giver), n=offer["key"]), to=(ctx.seat,), kind="secret"))

    def _learn(self, d: dict[str, Any], seat: int, holder: int, n: int) -> None:
        held = d["players"][seat]["know"]["held"]
        held[str(n)] = sorted(set(held.get(str(n), [])) | {holder})

    def _do_refuse(self, ctx: Ctx, _: Any) -> None:
        d = ctx.d
        offer = next(o for o in d["offers"] if o["to"] == ctx.seat)
        d["offers"].remove(offer)
        ctx.say("refuses", other=p(offer["from"]))

    def _do_buy(self, ctx: Ctx, wid: str) -> None:
        ware = WARES[wid]
        me = ctx.me
        me["gold"] -= ware["price"]
        ctx.say("buys", ware=WARE_WORDS[wid], price=ware["price"])
        if ware["gives"] == "provisions":
            me["provisions"] += 1
            return
        # a full rucksack is no bar: what he buys may make him leave a card behind (in private,
        # so the shop's buttons never depend on what his face-down cards are)
        self._gain(ctx, ctx.seat, ware["gives"], quiet=True)
        if TREASURES[ware["gives"]]["kind"] == "sword" and ware["gives"] in me["swords"]:
            self._reveal(ctx, ctx.seat, ware["gives"])  # bought in front of everyone

    def _do_done(self, ctx: Ctx, _: Any) -> None:
        ctx.d["step"] = "task"
        self._run(ctx)

    def _do_open(self, ctx: Ctx, keys: tuple[int, ...]) -> None:
        self._open(ctx, keys)

    def _do_spoils(self, ctx: Ctx, arg: tuple[str, bool]) -> None:
        d = ctx.d
        head = d["queue"].pop(0)
        what, lantern = arg
        loser_seat = head["from"]
        loser = d["players"][loser_seat]
        held = loser["items"] + [s for s in loser["swords"] if s != "sword"]
        taken: list[str] = []
        if what == "keys":
            taken = [cid for cid in loser["items"] if TREASURES[cid]["kind"] == "keys"]
        elif what == "random" and held:
            taken = [held[ctx.rng.below(len(held))]]
        elif what not in ("nothing", "random"):
            taken = [what]
        for cid in taken:
            if cid in loser["items"]:
                loser["items"].remove(cid)
            else:
                loser["swords"].remove(cid)
            if cid in loser["revealed"]:
                loser["revealed"].remove(cid)
        parts = [words("things.cards", count=len(taken))] if taken else []
        if lantern:
            loser["lantern"] = False
            ctx.me["lantern"] = True
            parts.append(words("things.the_lantern"))
        ctx.say("claims.fled", things=listing(parts), loser=p(loser_seat))
        if taken:
            cards = listing([TREASURE_WORDS[c] for c in taken])
            ctx.events.append(Event(words("claims.fled.yours", things=cards), to=(ctx.seat,)))
            ctx.events.append(Event(words("claims.fled.theirs", who=p(ctx.seat), things=cards), to=(loser_seat,)))
        for cid in taken:
            self._gain(ctx, ctx.seat, cid, quiet=True)

    def _do_flee(self, ctx: Ctx, node: str) -> None:
        d = ctx.d
        d["queue"].pop(0)
        me = ctx.me
        start = me["pos"]
        dests = self.destinations(d, ctx.seat, FLEE_STEPS, flee=True)
        if node in dests:
            self._move_to(ctx, ctx.seat, dests[node])
        ctx.say("flees", place=where(node))
        if node in BOARD.rooms and node != start:
            room = d["rooms"][node]
            if BOARD.rooms[node]["kind"] == "treasure":
                me["face"] = True  # arriving there, he may try the chest: on his next turn
                ctx.say("flees.chest")
            elif room["encounter"] is not None or room["fixed"] is not None or room["treasure"] is not None:
                me["face"] = True
                ctx.say("flees.face")

    def _do_leave(self, ctx: Ctx, cid: str) -> None:
        me = ctx.me
        if cid in me["items"]:
            me["items"].remove(cid)
        else:
            me["swords"].remove(cid)
        if cid in me["revealed"]:
            me["revealed"].remove(cid)
        self._add_pile(ctx.d, me["pos"], [cid], owner=None)
        ctx.say("leaves_card")

    def _do_drop(self, ctx: Ctx, cid: str) -> None:
        self._do_leave(ctx, cid)
        if len(ctx.me["items"]) <= RUCKSACK:
            ctx.d["queue"].pop(0)

    def _do_keep(self, ctx: Ctx, _: Any) -> None:
        ctx.d["queue"].pop(0)

    # ------------------------------------------------------------ view
    def to_move(self, state: State) -> int | None:
        d = state.data
        if state.over:
            return None
        if d["queue"]:
            return d["queue"][0]["seat"]
        b = d["battle"]
        if b is not None and self._defender_deciding(b):
            return b["foe"]
        if d["phase"] == "create":
            return next((s for s, q in enumerate(d["players"]) if q["extras"] is not None), None)
        return d["current"]

    def timers(self, state: State) -> list[dict[str, Any]]:
        b = state.data.get("battle")
        if state.over or b is None or b["kind"] != "monster" or b["roller"] is None or not b["waiting"]:
            return []
        return [{"id": "monster-dice", "due": b["due"], "seat": SYSTEM, "action": "botroll"}]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.data
        over = state.over
        players = []
        for s, q in enumerate(d["players"]):
            players.append({
                "seat": s, "colour": COLOURS[s], "skill": q["skill"], "skill0": q["skill0"],
                "stamina": q["stamina"], "stamina0": q["stamina0"], "luck": q["luck"], "luck0": q["luck0"],
                "gold": q["gold"], "provisions": q["provisions"], "lantern": q["lantern"],
                # the kinds of sword the table has seen used or bought (a second card of a kind may
                # be a face-down find); his starting one is not listed, so leaving it behind for a
                # sword found face down changes nothing anyone sees
                "swords": [TREASURES[c]["name"] for c in _distinct(q["swords"]) if c in q["revealed"]],
                "treasures": len(q["items"]) + sum(1 for c in q["swords"] if c != "sword"),
                "shown": [TREASURES[c]["name"] for c in q["revealed"]],
                "shown_ids": list(q["revealed"]),
                "keycards": len(q["keys"]), "pos": q["pos"], "creating": q["extras"] is not None,
                "lives": q["lives"], "left_room": q["left_room"], "miss": q["miss"], "face": q["face"],
            })
        rooms = {}
        for rid, r in d["rooms"].items():
            seen = r["seen"]
            rooms[rid] = {"name": BOARD.rooms[rid]["name"], "visited": r["visited"],
                          "looted": r["treasure"] is None, "barred": r["barred"],
                          "waiting": CARDS[seen]["name"] if seen is not None and r["encounter"] == seen else None,
                          "fixed": FIXED[r["fixed"]]["name"] if r["fixed"] else None}
        b = d["battle"]
        battle = None
        if b is not None:
            battle = {"kind": b["kind"], "seat": b["seat"], "round": b["round"], "last": b["last"]}
            if b["kind"] == "monster":
                battle.update(name=b["name"], skill=b["skill"], stamina=b["stamina"], stamina0=b["stamina0"],
                              roller=b["roller"], waiting=b["waiting"], mroll=b["mroll"])
            else:
                battle.update(foe=b["foe"])
        view: dict[str, Any] = {
            "game": "firetop", "turn": state.turn, "round": d["round"], "limit": d["limit"],
            "phase": d["phase"], "current": None if over else d["current"], "step": d["step"],
            "roll": d["roll"], "players": players, "rooms": rooms,
            "piles": [{"node": pl["node"], "count": len(pl["items"]), "owner": pl["owner"]} for pl in d["piles"]],
            "maze": {space: d["maze_seen"].get(space) for space in BOARD.maze_spaces},
            "maze_trail": list(d["maze_trail"]),
            "battle": battle, "queue": [{"seat": q["seat"], "kind": q["kind"]} for q in d["queue"]],
            "offers": [{"from": o["from"], "to": o["to"]} for o in d["offers"]],
            "conferred": list(d["conferred"]),
            "attempts": [dict(a) for a in d["attempts"]],
            "challenges": [dict(c) for c in d["challenges"]], "last": d["last"], "dice": d["dice"],
            "winner": d["winner"], "double6": d["double6"], "secret": None,
            "marks": [{"node": node, "mark": mark} for node, mark in self.marks(state).items()],
        }
        if over:
            view["chest"] = list(d["chest"])
        if seat is not None and 0 <= seat < state.seats:
            me = d["players"][seat]
            view["secret"] = {
                "seat": seat, "keys": list(me["keys"]), "items": list(me["items"]),
                "swords": list(me["swords"]),
                "held": {k: list(v) for k, v in me["know"]["held"].items()},
                "chest": list(me["know"]["chest"]),
                "offer": next((o["key"] for o in d["offers"] if o["from"] == seat), None),
            }
        return view

    def opening(self, state: State) -> list[Msg]:
        """This table's house rules (game.toml and the lobby's round limit) and the bot's
        convenience of fighting to the end."""
        return [words("opening.limit", round=state.data["limit"]),
                words("opening.crossing_roller" if STOP_AT_CROSSING else "opening.roller",
                      count=round(ROLL_WAIT)),
                words("opening.press", floor=PRESS_FLOOR)]

    def private_text(self, state: State, seat: int) -> dict[str, Any]:
        """The adventure sheet, as a stored message (JSON, as the bot fingerprints DMs by it)."""
        d = state.data
        me = d["players"][seat]
        swords = [TREASURE_WORDS[s] if s in TREASURES else words("sword") for s in me["swords"]]
        said = [words("sheet.title", colour=words(f"colour.{COLOURS[seat]}"), lives=me["lives"]),
                words("sheet.scores", skill=me["skill"], skill0=me["skill0"], stamina=me["stamina"],
                      stamina0=me["stamina0"], luck=me["luck"], luck0=me["luck0"]),
                words("sheet.goods", gold=me["gold"], provisions=me["provisions"],
                      lantern=words("yes" if me["lantern"] else "no"), swords=listing(swords))]
        if me["extras"] is not None:
            said.append(words("sheet.extras", count=me["extras"]))
        items = [TREASURE_WORDS[c] for c in me["items"]]
        said.append(words("sheet.rucksack", carried=len(me["items"]), most=RUCKSACK,
                          items=semicolons(items) if items else words("empty")))
        nums = key_treasure_numbers(me["items"])
        if nums:
            said.append(words("sheet.carried_keys", keys=numbers(nums)))
        said.append(words("sheet.key_cards", keys=numbers(me["keys"])))
        know = me["know"]
        facts = []
        for n in range(1, NUMBERS + 1):
            holders = know["held"].get(str(n))
            if holders:
                facts.append(words("sheet.held_by", n=n, who=tuple(words(f"colour.{COLOURS[s]}") for s in holders)))
        if facts:
            said.append(words("sheet.seen", facts=semicolons(facts)))
        if know["chest"]:
            said.append(words("sheet.chest", keys=numbers(know["chest"])))
        mine = [pl for pl in d["piles"] if pl["owner"] == seat]
        for pl in mine:
            said.append(words("sheet.lost", place=where(pl["node"]), count=len(pl["items"])))
        return lines(said).stored()



def _order(node: str) -> tuple[int, int, str]:
    if CELL.match(node):
        x, y = COLS_INDEX[node[0]], int(node[1:])
        return (1, y * 100 + x, node)
    return (0, 0, node)


COLS_INDEX = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUV")}


def _distinct(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _who_is_where(d: dict[str, Any], seat: int, marks: dict[str, str]) -> Msg | None:
    """Who stands on the lettered places and where treasure the mover may take lies, for the
    text above their buttons (which stay short): "Already there: {p1} at B; {p2} and {p3} at E.
    Treasure lies at C." (None when neither)."""
    said = []
    for node, letter in marks.items():
        who = [p(s) for s, q in enumerate(d["players"]) if s != seat and q["extras"] is None and q["pos"] == node]
        if who:
            said.append(words("there.at", who=tuple(who), mark=letter))
    loot = [letter for node, letter in marks.items()
            if any(pl["node"] == node and pl["owner"] in (None, seat) for pl in d["piles"])]
    if said and loot:
        return words("there.both", who=semicolons(said), marks=tuple(loot))
    if said:
        return words("there.people", who=semicolons(said))
    return words("there.loot", marks=tuple(loot)) if loot else None


def _choice(action: str, *steps: tuple[str, Any]) -> Choice:
    return Choice(action, tuple(Step(key, label) for key, label in steps))


def _marked(choice: Choice, marks: dict[str, str]) -> Choice:
    """`choice` with the board's marker on its label when it names a marked place."""
    verb, _, place = choice.action.partition(" ")
    if verb != "move" or place not in marks:
        return choice
    last = choice.path[-1]
    return Choice(choice.action, (*choice.path[:-1], Step(last.key, words("label.marked", mark=marks[place],
                                                                          place=last.label))),
                  choice.input)

"""Key to the Kingdom: the pure rules engine.

State lives in `state.data` (JSON-native):

    players     [{"at": space | None, "spot": holding place | None, "task": hazard attempt | None,
                  "equip": [items], "hand": [treasure ids] (secret), "deep": Deep Magic cards,
                  "wizard_used", "after_visit", "barred": hazard the adventurer must walk away from (or,
                  for one with a detour in board.toml, go round before trying again)}]
    demon       the Demon King's space
    fold        {"west": "in"|"out", "east": "in"|"out"}: which World each panel shows
    locations   Key Location -> treasure id | None (secret)
    equip_deck, monster_deck, monster_discard, lost_equip [{"item", "owner"}], lost_treasure (secret)
    deep_left   Deep Magic cards still at the Ring of Stones
    bridge      the Evil Tower bridge: {"built": sections, "from": the White Dagger it starts at}
    current     whose turn it is; phase: act | demon | move | steal | fold | over
    turn_info   {"die", "moved", "left", "entry", "must_roll", "no_demon", "targets",
                 "then", "then_left": how a hazard's exit goes on once a steal at its way out is settled}
    fold_job    the fold in progress (jumper, panel, stage, who was asked, the runners' throws)
    round, rounds, rolls (this turn's dice), last (last move), monster (a fight in progress),
    knows       per seat: what it has learned ({"key": seat it saw take the Key})
    winner

Hazards are data (hazards.toml, run by hazards.py); the board is data (board.toml, board.py).
Actions are canonical strings; the prompt's choices are the only legal ones.
"""
from __future__ import annotations

from typing import Any

from data.locales import Msg
from games.core import Choice, Event, Game, IllegalAction, OptionText, Prompt, Rng, State, Step
from games.core.marks import marked
from games.core.typed import squash, typed_forms

from . import hazards as hz
from . import stock
from .board import BOARD, PANELS
from .hazards import HAZARDS, Ctx
from .places import beyond_alike, place_words
from .stock import SETUP, TREASURE_NAMES, p
from .words import CROSS, LANDMARK, PANEL, PLACE, SPOT, TREASURE, WORLD, chain, place, say, short

FORMAT = 2


def upgrade_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: the Gate road (hs, hc) is no longer the Demon King's ground; one standing
    there (he would be stuck on hc) steps onto the ring beside it."""
    new = dict(data)
    if data["demon"] not in BOARD.demon:
        new["demon"] = "h1"
    return new

ROUNDS = tuple(SETUP["rounds"])

# The words that take no parameters, built once (the engine is speed-measured).
NO_WAY, LEAVE, ROLL = say("choice.no_way"), say("choice.leave"), say("choice.roll")
NOTHING, END_HERE = say("choice.nothing"), say("choice.end_here")
FIGHT, VISIT = say("choice.fight"), say("choice.visit")
DEEP, LET, NO_WAY_OUT = say("choice.deep"), say("choice.let"), say("choice.no_way_out")
STEAL_ASK, STOPPED, YOUR_TURN = say("prompt.steal"), say("prompt.stopped"), say("prompt.your_turn")
OVER, FOLDING = say("refusal.over"), say("refusal.folding")
DEMON_STUCK, DEEP_ASK = say("event.demon_stuck"), say("event.deep_ask")
NOTE = {"black": ("choice.mark_treasure", "choice.mark_empty"), "pool": ("choice.mark_pool",) * 2}


ITEM_VERBS = ("use", "drop", "take")  # the actions that may name a piece of equipment
# A hazard typed by its name or key, compared squashed ("cross the Spider's Web").
HAZARD_ALIASES = {squash(h.name): hid for hid, h in HAZARDS.items()} | {squash(hid): hid for hid in HAZARDS}


def norm(action: str) -> str:
    """A typed action, lower case, with equipment named as the buttons and /hand name it read as
    its key ("use grappling hook" is "use hook")."""
    words = action.lower().replace(",", " ").split()
    if len(words) > 1 and words[0] in ITEM_VERBS:
        item = stock.item_named(words[1:])
        if item is not None:
            return f"{words[0]} {item}"
        if words[0] == "take" and words[-1] in ("holder", "holders"):
            return "take holder"  # "take a lost Treasure holder", as its button says
    return " ".join(words)


PLACE_VERBS = ("move", "demon", "go")  # the actions that name a place: typed, the board's letter does


def _reading_order(space: str) -> tuple[int, int]:
    """Top of the board first, then left to right: the order markers are lettered in."""
    return BOARD.spaces[space].y, BOARD.spaces[space].x


class KingdomGame(Game):
    name = "kingdom"
    title = "Key to the Kingdom"
    pitch = ("Brave the hazards of a folding Kingdom, fight monsters for hidden Treasures, dodge the "
             "Demon King, and escape with the Key and one more Treasure.")
    min_seats = 2
    max_seats = 4
    colours = ("red", "blue", "green", "yellow")
    colour_rgb = ((200, 40, 40), (40, 90, 210), (30, 150, 70), (230, 190, 30))
    verbs = {"roll": "", "demon": "where the Demon King goes: its letter on the board, e.g. A",
             "move": "where you go: its letter on the board, e.g. A", "stay": "",
             "cross": "the hazard beside you, e.g. bone pit", "fight": "", "visit": "",
             "use": "a way or an item, e.g. net",
             "drop": "the equipment you give up, e.g. rope", "take": "an item or holder",
             "done": "", "go": "where you climb out: its letter on the board, e.g. A",
             "steal": "whose Treasure, e.g. blue",
             "leave": "", "deep": "", "let": ""}
    option_choices = {"rounds": ROUNDS}
    option_texts = {"rounds": OptionText(
        "Round limit", "Rounds before the Demon King seals the Kingdom and nobody wins.", "rounds")}
    image_ignores = ("turn", "rolls", "moved")  # shown in the log, not in the picture
    ai = "games.kingdom.ai:choose"
    easy = "games.kingdom.easy:choose"
    renderer = "render.kingdom:render_kingdom"
    describer = "render.words.kingdom:describe"
    panel_text = "render.words.kingdom:panel"
    warm_up = "render.kingdom:warm_up"
    rules_page = ("data", "kingdom/rules.md")
    searcher = "games.kingdom.sample:search"
    state_format = FORMAT
    upgrades = {1: upgrade_1}

    # ------------------------------------------------------------ setup
    def setup_data(self, state: State, rng: Rng) -> None:
        n = state.seats
        treasures = list(stock.TREASURES)
        rng.shuffle(treasures)
        locations = dict(zip(sorted(BOARD.locations), treasures))
        deck = stock.fresh_equipment_deck(rng)
        monsters = sorted(stock.MONSTERS)
        rng.shuffle(monsters)
        players = []
        extra = SETUP["seat_balance"]["equipment_extra"].get(str(n), [0] * n)  # house rule
        for seat in range(n):
            equip = [deck.pop() for _ in range(SETUP["equipment_each"] + extra[seat])]
            players.append({"at": BOARD.start, "spot": None, "task": None, "equip": equip, "hand": [],
                            "deep": 0, "wizard_used": False, "after_visit": False, "barred": None})
        rounds = state.options.get("rounds", ROUNDS[0])
        if rounds not in ROUNDS:
            rounds = ROUNDS[0]
        state.data = {
            "players": players, "demon": BOARD.demon_start, "fold": dict(SETUP["fold"]),
            "locations": locations, "equip_deck": deck, "monster_deck": monsters, "monster_discard": [],
            "lost_equip": [], "lost_treasure": [stock.COBRA] if SETUP["cobra_in_lost"] else [],
            "deep_left": SETUP["deep_magic"], "bridge": {"built": 0, "from": None},
            "current": SETUP["first_seat"], "phase": "act", "turn_info": {}, "fold_job": None,
            "round": 1, "rounds": rounds, "rolls": [], "last": None, "monster": None,
            "knows": [{"key": None} for _ in range(n)], "winner": None,
        }
        state.turn = 1

    # ------------------------------------------------------------ helpers
    def ctx(self, d: dict[str, Any], seat: int, rng: Rng, events: list[Event], action: str | None = None) -> Ctx:
        ctx = Ctx(d, seat, rng, events)
        if action == "roll":
            ctx.roll = True
        elif action is not None:
            ctx.choice = action
        return ctx

    def on_track(self, pl: dict[str, Any]) -> bool:
        return pl["task"] is None and pl["spot"] is None and pl["at"] is not None

    def optional_stops(self, d: dict[str, Any], seat: int) -> list[str]:
        """Where a move may end short of its count. The Gate is one for everybody (house rule): were it
        offered only to whoever holds the Key and another Treasure, the public buttons and the board's
        marks would tell everyone who can escape. Stopping there without them just ends the move."""
        stops = [loc for loc, tid in d["locations"].items() if tid is not None]
        stops += ["ring", BOARD.start, *BOARD.detours.get(d["players"][seat]["barred"], ())]
        return stops

    def move_targets(self, d: dict[str, Any], seat: int, n: int, run: bool = False) -> dict[str, int]:
        pl = d["players"][seat]
        stops = [BOARD.start] if run else self.optional_stops(d, seat)
        return BOARD.destinations(d["fold"], pl["at"], n, d["demon"], optional_stop=stops)

    def crossable(self, d: dict[str, Any], seat: int) -> list[str]:
        pl = d["players"][seat]
        if not self.on_track(pl):
            return []
        return [h for h in BOARD.hazards_at(pl["at"]) if pl["barred"] != h]

    def can_fight(self, d: dict[str, Any], seat: int) -> bool:
        pl = d["players"][seat]
        return self.on_track(pl) and d["locations"].get(pl["at"]) is not None

    def can_visit(self, d: dict[str, Any], seat: int) -> bool:
        pl = d["players"][seat]
        return self.on_track(pl) and pl["at"] == BOARD.wizard and not pl["wizard_used"]

    def victims(self, d: dict[str, Any], seat: int) -> list[int]:
        pl = d["players"][seat]
        if not self.on_track(pl) or pl["at"] in BOARD.safe:
            return []
        return [s for s, o in enumerate(d["players"]) if s != seat and self.on_track(o)
                and o["at"] == pl["at"] and o["hand"]]

    def panel_of_player(self, pl: dict[str, Any]) -> str | None:
        if pl["spot"] is not None or pl["at"] is None:
            return None
        return BOARD.panel_of(pl["at"])

    # ------------------------------------------------------------ choices
    def choices(self, state: State, seat: int) -> list[Choice]:
        d = state.data
        if state.over or d["phase"] == "over":
            return []
        if d["phase"] == "fold":
            return self.fold_choices(d, seat)
        if seat != d["current"]:
            return []
        pl = d["players"][seat]
        phase = d["phase"]
        ti = d["turn_info"]
        out: list[tuple[str, Msg]] = []
        if pl["task"] is not None:
            wanted = hz.needs(self.ctx(d, seat, Rng(0), []))
            if wanted == "roll":
                out.append(("roll", hz.roll_label(d, pl["task"])))
            elif wanted:
                out.extend(self._marked_ways_out(d, wanted))
        elif phase == "demon":
            marks = self.marks(d)
            beyond = beyond_alike(list(marks), d["demon"], d)
            for s in marks:
                # "DK toward Gate": the way the Demon King goes (a path or a cache: no matter to him)
                where = say("choice.demon_to", place=short(s)) if beyond[s] is None \
                    else say("choice.demon_toward", place=LANDMARK[beyond[s]])
                out.append((f"demon {s}", say("choice.mark", mark=marks[s], place=where)))
        elif phase == "move":
            marks = self.marks(d)
            words = place_words(list(marks), d["players"][seat]["at"], d)
            for s in marks:
                out.append((f"move {s}", self._space_label(d, s, marks[s], words[s])))
            if not marks:
                out.append(("stay", NO_WAY))
        elif phase == "steal":
            for v in self.victims(d, seat):
                out.append((f"steal {self.colours[v]}", say("choice.steal", who=p(v))))
            out.append(("leave", LEAVE))
        else:  # act
            moved = ti.get("moved")
            if not moved:
                if self.move_possible(d, seat):
                    out.append(("roll", ROLL))
                if not ti.get("must_roll"):
                    out += self._place_choices(d, seat)
                if not out:
                    out.append(("stay", NOTHING))
            else:
                out += self._place_choices(d, seat)
                out.append(("stay", END_HERE))
        return [Choice(a, (Step(a.replace(" ", "-"), lab),)) for a, lab in out]

    def move_possible(self, d: dict[str, Any], seat: int) -> bool:
        at = d["players"][seat]["at"]
        return bool(BOARD.neighbours(at, d["fold"]))

    def _place_choices(self, d: dict[str, Any], seat: int) -> list[tuple[str, Msg]]:
        out = [(f"cross {h}", CROSS[h]) for h in self.crossable(d, seat)]
        if self.can_fight(d, seat):
            out.append(("fight", FIGHT))
        if self.can_visit(d, seat):
            out.append(("visit", VISIT))
        return out

    def _catch_notes(self, d: dict[str, Any]) -> tuple[Msg, ...]:
        """Whom the Demon King would catch where, for the text above his buttons (which stay
        short): "{p1} at B" for each place that catches somebody."""
        return tuple(say("prompt.catch", who=tuple(p(s) for s in caught), mark=mark)
                     for space, mark in self.marks(d).items() if (caught := self.caught_by_demon(d, space)))

    def _space_label(self, d: dict[str, Any], space: str, mark: str, words: Msg) -> Msg:
        """A move button: the board's letter and the place's words, and whether a Key Location
        still holds its Treasure (public: the board shows it too), that a Whirlpool is jumped into."""
        note = NOTE.get(BOARD.spaces[space].kind)
        key = "choice.mark" if note is None else note[0 if d["locations"].get(space) else 1]
        return say(key, mark=mark, place=words)

    def marks(self, d: dict[str, Any]) -> dict[str, str]:
        """The places the current choices name -> the letter the board draws on each, in the
        order the buttons list them (top of the board first). The choices and the public view
        both read this, so a button and the picture always agree."""
        if d["phase"] == "over":
            return {}
        places: list[str] = []
        if d["phase"] == "demon":
            places = BOARD.demon_moves(d["fold"], d["demon"], d["turn_info"]["die"])
        elif d["phase"] == "move":
            places = list(self.move_targets(d, d["current"], d["turn_info"]["die"]))
        elif d["phase"] == "fold" and d["fold_job"]["stage"] == "run":
            for s, run in d["fold_job"]["runners"].items():
                if run["die"] is not None:
                    places += self.move_targets(d, int(s), run["die"], run=True)
        elif d["phase"] == "act" and d["players"][d["current"]]["task"] is not None:
            wanted = hz.needs(self.ctx(d, d["current"], Rng(0), []))
            if isinstance(wanted, list):
                places = [action.split()[1] for action, _ in wanted if action.startswith("go ")]
        return marked(sorted(set(places), key=_reading_order))

    def _marked_ways_out(self, d: dict[str, Any], wanted: list[tuple[str, Msg]]) -> list[tuple[str, Msg]]:
        """A hazard's choices, its ways out lettered as the board marks them."""
        marks = self.marks(d)
        order = {place: i for i, place in enumerate(marks)}
        out = []
        for action, label in wanted:
            verb, _, place = action.partition(" ")
            marked_way = verb == "go" and place in marks
            out.append((action, say("choice.mark", mark=marks[place], place=label) if marked_way else label))
        # the ways out in letter order, after the hazard's other choices
        return sorted(out, key=lambda c: order.get(c[0][3:], -1) if c[0].startswith("go ") else -1)

    def fold_choices(self, d: dict[str, Any], seat: int) -> list[Choice]:
        job = d["fold_job"]
        out: list[tuple[str, Msg]] = []
        if job["stage"] == "deep":
            if seat in job["asked"] and seat not in job["answered"]:
                out = [("deep", DEEP), ("let", LET)]
        elif job["stage"] == "run":
            run = job["runners"].get(str(seat))
            if run is not None:
                if run["die"] is None:
                    out = [("roll", say("choice.run", throw=4 - run["left"], of=3))]
                else:
                    targets = self.move_targets(d, seat, run["die"], run=True)
                    marks = self.marks(d)
                    words = place_words([s for s in marks if s in targets],
                                        d["players"][seat]["at"], d)
                    out = [(f"move {s}", self._space_label(d, s, marks[s], words[s]))
                           for s in marks if s in targets]
                    if not targets:
                        out = [("stay", NO_WAY_OUT)]
        return [Choice(a, (Step(a.replace(" ", "-"), lab),)) for a, lab in out]

    def prompt(self, state: State, seat: int) -> Prompt | None:
        choices = self.choices(state, seat)
        if not choices:
            return None
        return Prompt(seat, self.prompt_text(state, seat), choices)

    def prompt_text(self, state: State, seat: int) -> Msg:
        d = state.data
        pl = d["players"][seat]
        if d["phase"] == "fold":
            job = d["fold_job"]
            if job["stage"] == "deep":
                return say("prompt.deep", world=WORLD[(job["panel"], job["to"])])
            return say("prompt.run", count=job["runners"][str(seat)]["left"])
        if pl["task"] is not None:
            progress = hz.roll_progress(pl["task"])
            label = hz.label(pl["task"])
            return say("prompt.task", label=label, progress=progress) if progress else label
        ti = d["turn_info"]
        if d["phase"] == "demon":
            caught = self._catch_notes(d)
            if caught:
                return say("prompt.demon_catches", count=ti["die"], caught=caught)
            return say("prompt.demon", count=ti["die"])
        if d["phase"] == "move":
            return say("prompt.move", count=ti["die"])
        if d["phase"] == "steal":
            return STEAL_ASK
        if ti.get("moved"):
            return STOPPED
        return YOUR_TURN

    def from_typed(self, d: dict[str, Any], seat: int, act: str) -> str:
        """A typed action in players' words as the canonical one: a place by its letter on the
        board ("move a"), a hazard by its name ("cross the bone pit"), a hazard's way by the item
        it uses ("use rope" for "Rope or Hook: a 2 in 4 rolls")."""
        verb, _, arg = act.partition(" ")
        if verb == "cross":
            words = arg.split()
            hazard = HAZARD_ALIASES.get(squash(" ".join(words[1:] if words[:1] == ["the"] else words)))
            return f"cross {hazard}" if hazard else act
        if verb in PLACE_VERBS and arg and arg not in BOARD.spaces:
            for space, mark in self.marks(d).items():
                if mark.lower() == arg:
                    return f"{verb} {space}"
        if verb == "use" and arg in stock.ITEMS and d["players"][seat]["task"] is not None:
            ctx = self.ctx(d, seat, Rng(0), [])
            offered = hz.needs(ctx)
            if isinstance(offered, list) and any(action == act for action, _ in offered):
                return act
            way = hz.way_for(ctx, arg)
            return f"use {way}" if way else act
        return act

    def typed_form(self, d: dict[str, Any], action: str) -> str:
        """A legal action as a player types it: a place by its letter, a hazard by its name."""
        verb, _, arg = action.partition(" ")
        if verb in PLACE_VERBS:
            return f"{verb} {self.marks(d).get(arg, arg)}"
        if verb == "cross":
            return f"cross {HAZARDS[arg].name.lower()}"
        return action

    # ------------------------------------------------------------ reduce
    def reduce(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        d = state.data
        if state.over or d["phase"] == "over":
            raise IllegalAction(OVER)
        choices = self.choices(state, seat)
        if not choices:
            if d["phase"] == "fold":
                raise IllegalAction(FOLDING)
            raise IllegalAction(say("refusal.turn", who=p(d["current"])))
        act = self.from_typed(d, seat, norm(action))
        legal = [c.action for c in choices]
        if act not in legal:
            labels = [c.path[0].label for c in choices[:12]] + (["…"] if len(choices) > 12 else [])
            shown = chain("choices", labels)
            forms = typed_forms(self.typed_form(d, a) for a in legal)
            raise IllegalAction(say("refusal.choices", typed=action.strip()[:60], shown=shown,
                                    forms=forms))
        return self.play(state, seat, act, rng)

    def reduce_offered(self, state: State, seat: int, action: str, now: float, rng: Rng) -> list[Event]:
        """An action the prompt offered (self-play, a search's rollouts): already one of the
        choices, word for word, so the choices are not built again to check it."""
        return self.play(state, seat, action, rng)

    def play(self, state: State, seat: int, act: str, rng: Rng) -> list[Event]:
        """Carry out `act`, one of the seat's choices as the prompt words it."""
        d = state.data
        events: list[Event] = []
        if d["phase"] == "fold":
            self.fold_action(state, seat, act, rng, events)
            return events
        pl = d["players"][seat]
        verb, _, arg = act.partition(" ")
        if pl["task"] is not None:
            self.run_task(state, seat, rng, events, act)
        elif verb == "roll":
            self.throw(state, seat, rng, events)
        elif verb == "demon":
            self.move_demon(state, seat, arg, rng, events)
        elif verb == "move":
            self.move_to(state, seat, arg, rng, events)
        elif verb == "cross":
            task = hz.new_task(arg, pl["at"], entry=d["turn_info"].get("entry"), left=d["turn_info"].get("left", 0))
            self.begin_task(state, seat, task, rng, events)
        elif verb == "fight":
            self.begin_task(state, seat, hz.new_task("fight"), rng, events)
        elif verb == "visit":
            self.begin_task(state, seat, hz.new_task("wizard"), rng, events)
        elif verb in ("steal", "leave"):
            if verb == "steal":
                self.steal(state, seat, self.colours.index(arg), rng, events)
            ti = d["turn_info"]
            if "then" in ti:  # landed on a rival coming out of a hazard: go on as the hazard said
                self.carry_on(state, seat, ti.pop("then"), ti.pop("then_left"), rng, events)
            else:
                self.after_landing(state, seat, rng, events)
        elif verb == "stay":
            if d["phase"] == "move":
                events.append(Event(say("event.stays_put", who=p(seat), die=d["turn_info"]["die"])))
            self.end_turn(state, rng, events)
        else:  # pragma: no cover - every legal action is handled above
            raise IllegalAction(say("refusal.unknown", typed=act))
        return events

    # ------------------------------------------------------------ moving
    def throw(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        ti = d["turn_info"]
        face = rng.die(stock.DIE)
        d["rolls"].append(face)
        ti.update(die=face, entry=face, must_roll=False)
        events.append(Event(say("event.throw", who=p(seat), die=face)))
        if ti.get("no_demon"):
            d["phase"] = "move"
            return self.check_move(state, seat, rng, events)
        options = BOARD.demon_moves(d["fold"], d["demon"], face)
        if len(options) == 1:
            return self.move_demon(state, seat, options[0], rng, events)
        if not options:
            events.append(Event(DEMON_STUCK))
            d["phase"] = "move"
            return self.check_move(state, seat, rng, events)
        d["phase"] = "demon"

    def caught_by_demon(self, d: dict[str, Any], space: str) -> list[int]:
        near = set(BOARD.neighbours(space, d["fold"])) | {space}
        return [s for s, pl in enumerate(d["players"])
                if self.on_track(pl) and pl["at"] in near and pl["at"] not in BOARD.safe]

    def move_demon(self, state: State, seat: int, space: str, rng: Rng, events: list[Event]) -> None:
        d = state.data
        d["demon"] = space
        events.append(Event(say("event.demon_moves", who=p(seat), place=place(space))))
        for victim in self.caught_by_demon(d, space):
            self.to_dungeon(state, victim, rng, events)
        if not self.on_track(d["players"][seat]):
            return self.end_turn(state, rng, events)
        d["phase"] = "move"
        self.check_move(state, seat, rng, events)

    def to_dungeon(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        pl = d["players"][seat]
        events.append(Event(say("event.dungeon", who=p(seat))))
        pl["at"], pl["spot"], pl["barred"] = None, "dungeon", None
        pl["task"] = hz.new_task("demon_dungeon")

    def check_move(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        targets = self.move_targets(d, seat, d["turn_info"]["die"])
        if not targets:
            events.append(Event(say("event.no_way", who=p(seat), die=d["turn_info"]["die"])))
            self.end_turn(state, rng, events)

    def move_to(self, state: State, seat: int, space: str, rng: Rng, events: list[Event]) -> None:
        d = state.data
        pl = d["players"][seat]
        ti = d["turn_info"]
        left = self.move_targets(d, seat, ti["die"])[space]
        d["last"] = {"seat": seat, "from": pl["at"], "to": space}
        if pl["at"] != space:
            detour = BOARD.detours.get(pl["barred"])
            if detour is None or space in detour:  # a detour must be walked before the bar lifts
                pl["barred"] = None
            if pl["at"] == BOARD.wizard:
                pl["after_visit"] = False
        pl["at"] = space
        ti.update(moved=True, left=left, no_demon=False)
        d["phase"] = "act"
        kind = BOARD.spaces[space].kind
        events.append(Event(say("event.moves", who=p(seat), place=place(space))))
        if kind == "pool":
            return self.start_fold(state, seat, rng, events)
        if self.escapes(pl):
            return self.win(state, seat, events)
        if kind == "supply":
            stock.draw_equipment(d, seat, events)
        if kind == "ring":
            return self.begin_task(state, seat, hz.new_task("ring_of_stones", entry=ti["die"]), rng, events)
        if self.victims(d, seat):
            d["phase"] = "steal"
            return
        self.after_landing(state, seat, rng, events)

    def after_landing(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        d["phase"] = "act"
        if self._place_choices(d, seat):
            return  # cross / fight / stay
        self.end_turn(state, rng, events)

    def steal(self, state: State, seat: int, victim: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        hand = d["players"][victim]["hand"]
        tid = hand.pop(rng.below(len(hand)))
        d["players"][seat]["hand"].append(tid)
        events.append(Event(say("event.steal", who=p(seat), victim=p(victim))))
        events.append(Event(say("private.stole", treasure=TREASURE[tid], victim=p(victim)), to=(seat,),
                            kind="private"))
        events.append(Event(say("private.robbed", treasure=TREASURE[tid], who=p(seat)), to=(victim,),
                            kind="private"))
        stock.forget_holder(d, victim)
        if tid == "key":
            d["knows"][victim]["key"] = seat

    # ------------------------------------------------------------ hazards
    def begin_task(self, state: State, seat: int, task: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        d = state.data
        d["players"][seat]["task"] = task
        ctx = self.ctx(d, seat, rng, events)
        hz.start(ctx)
        self.settle_task(state, seat, ctx, hz.advance(ctx), rng, events)

    def run_task(self, state: State, seat: int, rng: Rng, events: list[Event], action: str) -> None:
        ctx = self.ctx(state.data, seat, rng, events, action)
        self.settle_task(state, seat, ctx, hz.advance(ctx), rng, events)

    def settle_task(self, state: State, seat: int, ctx: Ctx, result: tuple[Any, ...], rng: Rng,
                    events: list[Event]) -> None:
        d = state.data
        pl = d["players"][seat]
        kind = result[0]
        if kind == "need":
            d["phase"] = "act"
            return
        if kind == "end":
            return self.end_turn(state, rng, events)
        # exit
        task = pl["task"]
        info = result[1]
        pl["task"] = None
        if info["to"] is not None:
            pl["at"], pl["spot"] = info["to"], None
            if self.escapes(pl):  # out of the Demon King's dungeon onto the Gate, say
                return self.win(state, seat, events)
        if info["to"] is not None and info["to"] != task["near"]:
            pl["barred"] = None
        if info["to"] is not None and info["to"] != BOARD.wizard:
            pl["after_visit"] = False
        then, left = info["then"], task["v"].get("left", 0)
        if info["to"] is not None and info["to"] != task["near"] and self.victims(d, seat):
            d["turn_info"].update(then=then, then_left=left)  # a rival at the way out: steal first
            d["phase"] = "steal"
            return
        self.carry_on(state, seat, then, left, rng, events)

    def carry_on(self, state: State, seat: int, then: str, left: int, rng: Rng, events: list[Event]) -> None:
        """After leaving a hazard: end the turn, throw and move on, or spend the points left."""
        d = state.data
        ti = d["turn_info"]
        if then == "move":
            ti.update(moved=False, must_roll=True, no_demon=False)
            d["phase"] = "act"
            return
        if then == "continue" and left > 0:
            ti.update(die=left, no_demon=True, moved=False)
            d["phase"] = "move"
            return self.check_move(state, seat, rng, events)
        self.end_turn(state, rng, events)

    # ------------------------------------------------------------ turns
    def end_turn(self, state: State, rng: Rng, events: list[Event]) -> None:
        d = state.data
        n = state.seats
        for _ in range(200):
            if state.over:
                return
            seat = (d["current"] + 1) % n
            if seat == SETUP["first_seat"]:
                d["round"] += 1
                if d["round"] > d["rounds"]:
                    return self.time_up(state, events)
            d["current"] = seat
            d["phase"] = "act"
            d["turn_info"] = {}
            d["rolls"] = []
            state.turn += 1
            pl = d["players"][seat]
            if pl["task"] is None:
                return
            ctx = self.ctx(d, seat, rng, events)
            result = hz.advance(ctx)
            if result[0] == "need":
                return
            if result[0] == "exit":
                # a task that finishes by itself at the start of a turn (after missed turns)
                return self.settle_task(state, seat, ctx, result, rng, events)
            # "end": the turn is missed; on to the next seat
        raise AssertionError("turns loop")

    def time_up(self, state: State, events: list[Event]) -> None:
        d = state.data
        d["phase"], d["winner"] = "over", None
        state.over = True
        state.result = {"winners": [], "reason": say("result.kept").stored()}
        events.append(Event(say("event.time_up", count=d["rounds"]), kind="end"))

    def escapes(self, pl: dict[str, Any]) -> bool:
        """The adventurer stands on the Gate with the Key and another Treasure: they win. Asked
        wherever one can arrive there (a move, a run from the fold, a way out of a hazard)."""
        return pl["at"] is not None and BOARD.spaces[pl["at"]].kind == "gate" and stock.can_escape(pl)

    def win(self, state: State, seat: int, events: list[Event]) -> None:
        d = state.data
        pl = d["players"][seat]
        d["phase"], d["winner"] = "over", seat
        state.over = True
        carried = tuple(TREASURE[t] for t in pl["hand"])
        state.result = {"winners": [seat], "reason": say("result.escaped").stored()}
        events.append(Event(say("event.win", who=p(seat), treasures=carried), kind="end"))

    # ------------------------------------------------------------ the folding board
    def start_fold(self, state: State, jumper: int, rng: Rng, events: list[Event]) -> None:
        d = state.data
        panel = BOARD.panel_of(d["players"][jumper]["at"])
        to = "out" if d["fold"][panel] == "in" else "in"
        events.append(Event(say(f"event.jump_{to}", who=p(jumper), panel=PANEL[panel], world=WORLD[(panel, to)])))
        # Deep Magic holds the board shut: it stops a panel opening out, not one folding back in
        asked = [s for s, pl in enumerate(d["players"]) if s != jumper and pl["deep"] > 0] if to == "out" else []
        d["fold_job"] = {"panel": panel, "to": to, "jumper": jumper, "stage": "deep", "asked": asked,
                         "answered": [], "runners": {}, "caught": []}
        d["phase"] = "fold"
        if asked:
            events.append(Event(DEEP_ASK))
            return
        self.fold_runs(state, rng, events)

    def affected(self, d: dict[str, Any]) -> list[int]:
        job = d["fold_job"]
        pool = BOARD.panels[job["panel"]]["pool"]
        return [s for s, pl in enumerate(d["players"]) if s != job["jumper"]
                and self.panel_of_player(pl) == job["panel"] and not (pl["task"] is None and pl["at"] == pool)]

    def fold_runs(self, state: State, rng: Rng, events: list[Event]) -> None:
        d = state.data
        job = d["fold_job"]
        job["stage"] = "run"
        for s in self.affected(d):
            if self.on_track(d["players"][s]):
                job["runners"][str(s)] = {"left": 3, "die": None}
                events.append(Event(say("event.must_run", who=p(s), count=3,
                                        world=WORLD[(job["panel"], d["fold"][job["panel"]])])))
        if not job["runners"]:
            self.do_fold(state, rng, events)

    def fold_action(self, state: State, seat: int, act: str, rng: Rng, events: list[Event]) -> None:
        d = state.data
        job = d["fold_job"]
        if job["stage"] == "deep":
            job["answered"].append(seat)
            if act == "deep":
                d["players"][seat]["deep"] -= 1
                d["deep_left"] += 1
                events.append(Event(say("event.deep_used", who=p(seat))))
                d["fold_job"] = None
                d["phase"] = "act"
                return self.end_turn(state, rng, events)
            events.append(Event(say("event.lets_fold", who=p(seat))))
            if set(job["asked"]) <= set(job["answered"]):
                self.fold_runs(state, rng, events)
            return
        run = job["runners"][str(seat)]
        pl = d["players"][seat]
        if act == "roll":
            face = rng.die(stock.DIE)
            run["die"] = face
            d["rolls"].append(face)
            events.append(Event(say("event.run_throw", who=p(seat), die=face)))
            if not self.move_targets(d, seat, face, run=True):
                events.append(Event(say("event.run_stuck", who=p(seat), die=face)))
                self.runner_done(state, seat, rng, events, safe=False)
            return
        if act != "stay":
            space = act.split()[1]
            pl["at"] = space
            pl["barred"] = None
            d["last"] = {"seat": seat, "from": d["last"]["to"] if d["last"] else None, "to": space}
            events.append(Event(say("event.runs", who=p(seat), place=place(space))))
            if self.escapes(pl):
                return self.win(state, seat, events)
        pool = BOARD.panels[job["panel"]]["pool"]
        safe = BOARD.panel_of(pl["at"]) != job["panel"] or pl["at"] == pool
        if safe:
            events.append(Event(say("event.run_pool" if pl["at"] == pool else "event.run_safe", who=p(seat))))
        self.runner_done(state, seat, rng, events, safe=safe)

    def runner_done(self, state: State, seat: int, rng: Rng, events: list[Event], safe: bool) -> None:
        d = state.data
        job = d["fold_job"]
        run = job["runners"][str(seat)]
        run["die"] = None
        run["left"] -= 1
        if safe or run["left"] <= 0:
            del job["runners"][str(seat)]
        if not job["runners"]:
            self.do_fold(state, rng, events)

    def do_fold(self, state: State, rng: Rng, events: list[Event]) -> None:
        d = state.data
        job = d["fold_job"]
        panel, to = job["panel"], job["to"]
        caught = self.affected(d)
        d["fold"] = {**d["fold"], panel: to}
        spot = BOARD.panels[panel]["hole" if to == "out" else "black"]
        for s in caught:
            pl = d["players"][s]
            pl["at"], pl["spot"], pl["barred"], pl["after_visit"] = None, spot, None, False
            pl["task"] = hz.new_task("caught", spot=spot)
            events.append(Event(say("event.fold_caught", who=p(s), spot=SPOT[spot])))
        if d["monster"] and d["monster"]["seat"] in caught:
            d["monster_discard"].append(d["monster"]["id"])
            d["monster"] = None
        events.append(Event(say("event.panel_shows", panel=PANEL[panel], world=WORLD[(panel, to)])))
        d["fold_job"] = None
        d["phase"] = "act"
        self.end_turn(state, rng, events)

    # ------------------------------------------------------------ whose move
    def to_move(self, state: State) -> int | None:
        d = state.data
        if state.over:
            return None
        if d["phase"] == "fold":
            n = state.seats
            for k in range(n):
                s = (d["current"] + k) % n
                if self.fold_choices(d, s):
                    return s
            return None
        return d["current"]

    # ------------------------------------------------------------ views
    def player_view(self, d: dict[str, Any], s: int, over: bool) -> dict[str, Any]:
        pl = d["players"][s]
        task = pl["task"]
        tv = None
        if task is not None:
            hazard = HAZARDS[task["hz"]]
            tv = {"hazard": task["hz"], "name": hazard.name, "step": task["at"],
                  "lane": task["lane"], "pos": task["pos"],
                  "length": hazard.lanes.get(task["lane"], 0) if task["lane"] else 0,
                  "near": task["near"], "far": task["far"], "miss": task["v"].get("miss")}
        return {"seat": s, "colour": self.colours[s], "at": pl["at"], "spot": pl["spot"], "task": tv,
                "where": BOARD.standing(pl["at"]) if pl["at"] is not None else None,
                "equip": list(pl["equip"]), "treasures": len(pl["hand"]), "deep": pl["deep"],
                "wizard_used": pl["wizard_used"], "barred": pl["barred"],
                "revealed": [TREASURE_NAMES[t] for t in pl["hand"]] if over else None}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self._view(state, seat, with_marks=True)

    def ai_view(self, state: State, seat: int, level: str, prompt: Prompt) -> dict[str, Any]:
        """The view without where the current choice leads (the AIs read the prompt for that):
        the board's letters and the reachable places are most of a view's cost, asked at every
        action of a hard search's rollouts."""
        return self._view(state, seat, with_marks=False)

    _MARKED = ("worlds", "targets", "demon_targets", "marks")  # the keys only `view` builds

    def _view(self, state: State, seat: int | None, with_marks: bool) -> dict[str, Any]:
        d = state.data
        over = state.over
        ti = d["turn_info"]
        job = d["fold_job"]
        targets: list[str] = []
        demon_targets: list[str] = []
        marks: dict[str, str] = {}
        if with_marks and not over:
            if d["phase"] == "move":
                targets = sorted(self.move_targets(d, d["current"], ti["die"]))
            if job and job["stage"] == "run":
                for s, run in job["runners"].items():
                    if run["die"] is not None:
                        targets += self.move_targets(d, int(s), run["die"], run=True)
                targets = sorted(set(targets))
            if d["phase"] == "demon":
                demon_targets = BOARD.demon_moves(d["fold"], d["demon"], ti["die"])
            marks = self.marks(d)
        view = {
            "game": self.name, "turn": state.turn, "round": d["round"], "rounds": d["rounds"],
            "current": None if over else d["current"], "phase": "over" if over else d["phase"],
            "fold": dict(d["fold"]),
            "worlds": {pn: BOARD.world(pn, d["fold"][pn]) for pn in PANELS},
            "demon": d["demon"], "die": ti.get("die"), "rolls": list(d["rolls"]),
            "players": [self.player_view(d, s, over) for s in range(state.seats)],
            "locations": {loc: tid is not None for loc, tid in d["locations"].items()},
            "lost_equipment": [{"item": e["item"], "owner": e["owner"]} for e in d["lost_equip"]],
            "lost_treasures": len(d["lost_treasure"]), "equipment_left": len(d["equip_deck"]),
            "deep_left": d["deep_left"], "bridge": dict(d["bridge"]),
            "monster": None if not d["monster"] else {"id": d["monster"]["id"], "seat": d["monster"]["seat"],
                                                     "at": d["monster"]["at"],
                                                     "name": stock.MONSTERS[d["monster"]["id"]]["name"],
                                                     "strength": stock.MONSTERS[d["monster"]["id"]]["strength"]},
            "fold_job": None if not job else {"panel": job["panel"], "to": job["to"], "jumper": job["jumper"],
                                             "stage": job["stage"],
                                             "runners": {k: dict(v) for k, v in job["runners"].items()},
                                             "waiting": [s for s in job["asked"] if s not in job["answered"]]},
            "moved": bool(ti.get("moved")), "targets": targets, "demon_targets": demon_targets,
            "marks": [{"space": s, "mark": m, "name": BOARD.name(s)} for s, m in marks.items()],
            "last": dict(d["last"]) if d["last"] else None, "winner": d["winner"],
            "hand": None, "knows": None,
        }
        if seat is not None and 0 <= seat < state.seats:
            view["hand"] = list(d["players"][seat]["hand"])
            view["knows"] = dict(d["knows"][seat])
            view["seat"] = seat
        if not with_marks:
            for key in self._MARKED:
                del view[key]
        return view

    def opening(self, state: State) -> list[Msg]:
        """This table's house rules (cards.toml, board.toml): the seat balance's extra Equipment,
        the Demon King's ring and the round limit."""
        extra = SETUP["seat_balance"]["equipment_extra"].get(str(state.seats), [])
        each = SETUP["equipment_each"]
        lines = [say("opening.balance", who=p(seat), count=more, total=each + more)
                 for seat, more in enumerate(extra) if more]
        safe = tuple(PLACE[space] for space in sorted(BOARD.safe, key=BOARD.name))
        lines.append(say("opening.demon_strides" if BOARD.demon_strides else "opening.demon", safe=safe))
        lines.append(say("opening.rounds", count=state.data["rounds"]))
        return lines

    def private_text(self, state: State, seat: int) -> dict[str, Any]:
        """What only the seat knows: the Treasures in its face-down holders and who took its Key
        (its equipment and Deep Magic lie face up: the table shows them). One line each, joined
        by the `lines` message (a message holds no list of lines); stored (`Msg.stored`), as the
        bot keeps a fingerprint of it in JSON."""
        d = state.data
        pl = d["players"][seat]
        lines = [say("private.colour", colour=say(f"colour.{self.colours[seat]}"))]
        if pl["hand"]:
            lines.append(say("private.holders", treasures=tuple(say("bold", what=TREASURE[t]) for t in pl["hand"])))
        else:
            lines.append(say("private.no_treasure"))
        if stock.can_escape(pl):
            lines.append(say("private.can_escape"))
        elif "key" in pl["hand"]:
            lines.append(say("private.has_key"))
        knows = d["knows"][seat].get("key")
        if knows is not None and "key" not in pl["hand"]:
            lines.append(say("private.key_taken", colour=say(f"colour.{self.colours[knows]}")))
        return chain("lines", lines).stored()

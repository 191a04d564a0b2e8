"""Property tests for The Warlock of Firetop Mountain: whole games under random and smart play."""
from __future__ import annotations

import functools
import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from data.locales import LANGUAGES, render, text as catalog_text
from games.core import SYSTEM, IllegalAction, State, ai_rng, apply, decide, replay, setup
from games.firetop import GAME
from games.firetop.board import BOARD
from games.firetop.content import KEY_TREASURES, RUCKSACK, TREASURES

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NODES = set(BOARD.adj) | set(BOARD.maze_links)
KEY_NAMES = [TREASURES[c]["name"] for c in KEY_TREASURES]


def check_invariants(state: State) -> None:
    d = state.data
    # the numbered Key cards never move: three under the chest, the rest with the players
    numbers = list(d["chest"]) + [n for pl in d["players"] for n in pl["keys"]]
    assert sorted(numbers) == list(range(1, 10))
    # every Bunch of Keys is in exactly one place: a room, a rucksack or a pile on the board
    places = [r["treasure"] for r in d["rooms"].values() if r["treasure"]]
    places += [c for pl in d["players"] for c in pl["items"]]
    places += [c for pile in d["piles"] for c in pile["items"]]
    assert sorted(c for c in places if c in KEY_TREASURES) == sorted(KEY_TREASURES)
    for seat, pl in enumerate(d["players"]):
        assert pl["skill"] == pl["skill0"] and pl["skill"] in (9, 10, 11)
        assert 0 <= pl["stamina"] <= pl["stamina0"] and 0 <= pl["luck"] <= pl["luck0"]
        assert pl["stamina"] > 0 or state.over
        assert pl["gold"] >= 0 and pl["provisions"] >= 0
        assert 1 <= len(pl["swords"]) <= 2
        lightening = any(q["seat"] == seat and q["kind"] in ("drop", "leave") for q in d["queue"])
        assert len(pl["items"]) <= RUCKSACK or lightening
        assert pl["pos"] in NODES
    for rid, room in d["rooms"].items():
        assert room["barred"] is None or 0 <= room["barred"] < state.seats
    assert json.loads(json.dumps(d)) == d


def hidden_ids(state: State) -> set[str]:
    """Treasure cards nobody but their holder may know of."""
    d = state.data
    out = {r["treasure"] for r in d["rooms"].values() if r["treasure"]}
    for pl in d["players"]:
        out |= {c for c in pl["items"] + pl["swords"] if c != "sword" and c not in pl["revealed"]}
    for pile in d["piles"]:
        out |= set(pile["items"])
    revealed = {c for pl in d["players"] for c in pl["revealed"]}
    return out - revealed


def check_secrecy(state: State, events) -> None:
    d = state.data
    public = GAME.view(state, None)
    text = json.dumps(public)
    assert public["secret"] is None
    assert ("chest" in public) == state.over
    for cid in hidden_ids(state):
        assert f'"{cid}"' not in text, cid
    for e in events:
        if e.public:
            said = render("en", e.text)
            assert not any(name in said for name in KEY_NAMES), said
            assert "held out by" not in said and "must lie under" not in said
            for lang in LANGUAGES:
                assert not any(catalog_text(lang, f"game.firetop.treasure.{cid}") in render(lang, e.text)
                               for cid in KEY_TREASURES), render(lang, e.text)
        else:
            assert e.to is not None and all(0 <= s < state.seats for s in e.to)
    for seat in range(state.seats):
        mine = GAME.view(state, seat)
        assert mine["secret"]["keys"] == d["players"][seat]["keys"]
        assert {k: v for k, v in mine.items() if k != "secret"} == {k: v for k, v in public.items()
                                                                  if k != "secret"}


def play_checked(seats: int, seed: int, level: str, options=None, limit: int = 6000):
    state = setup(GAME, seats, options, seed)
    log = []
    now = 1000.0
    for _ in range(limit):
        if state.over:
            break
        due = [t for t in GAME.timers(state) if t["due"] <= now]
        if due:
            step = (SYSTEM, due[0]["action"], now)
        else:
            seat = next((s for s in range(seats) if GAME.prompt(state, s) is not None), None)
            if seat is None:
                now = min(t["due"] for t in GAME.timers(state))
                continue
            step = (seat, decide(GAME, state, seat, ai_rng(seed, state.version), level), now)
        out = apply(GAME, state, *step)
        state = out.state
        log.append(step)
        check_invariants(state)
        check_secrecy(state, out.events)
        now += 3.0
    return state, log


@FAST
@given(seats=st_.integers(2, 6), seed=st_.integers(0, 10_000), level=st_.sampled_from(["random", "smart"]),
       double6=st_.sampled_from(["off", "on"]))
def test_random_and_smart_games_end_with_invariants_and_secrets_kept(seats, seed, level, double6):
    options = {"double6": double6, "rounds": 30}
    state, log = play_checked(seats, seed, level, options)
    assert state.over
    assert replay(GAME, seats, options, seed, log).to_json() == state.to_json()
    assert State.from_json(state.to_json()) == state
    if state.result["winners"]:
        assert state.result["winners"] == [state.data["winner"]]


@functools.lru_cache(maxsize=None)
def random_play(seed: int, moves: int = 120) -> tuple[State, ...]:
    """A three-seat game of random moves from `seed`: its state after 0, 1, ... moves (up to
    `moves`, or its end), played once however many examples start from it."""
    states = [setup(GAME, 3, None, seed)]
    while len(states) <= moves and not states[-1].over:
        state = states[-1]
        seat = next(s for s in range(3) if GAME.prompt(state, s) is not None)
        states.append(apply(GAME, state, seat,
                            decide(GAME, state, seat, ai_rng(seed, state.version), "random")).state)
    return tuple(states)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 50), moves=st_.integers(0, 120),
       text=st_.one_of(st_.text(max_size=30),
                       st_.builds(lambda v, a: f"{v} {a}",
                                  st_.sampled_from(sorted(GAME.verbs) + ["Move", "OPEN", "spoils"]),
                                  st_.text(alphabet="abcdefghijklmnopqrstuvwxyzABKV0123456789 ,'", max_size=14))))
def test_mangled_typed_actions_only_ever_raise_illegal_action(seed, moves, text):
    played = random_play(seed)
    state = played[min(moves, len(played) - 1)]
    before = state.to_json()
    for seat in range(3):
        try:
            apply(GAME, state, seat, text)
        except IllegalAction as exc:
            assert exc.reason and len(exc.reason) < 400
        assert state.to_json() == before


def test_every_prompted_choice_is_accepted():
    """Whatever the prompt offers, reduce accepts (over many positions of random games)."""
    for seed in range(6):
        state = setup(GAME, 4, None, seed)
        for _ in range(300):
            if state.over:
                break
            seat = next(s for s in range(4) if GAME.prompt(state, s) is not None)
            prompt = GAME.prompt(state, seat)
            for choice in prompt.choices:
                apply(GAME, state, seat, choice.action)
            assert len({c.action for c in prompt.choices}) == len(prompt.choices)
            assert all(len(render(lang, step.label)) <= 80 for c in prompt.choices for step in c.path
                       for lang in LANGUAGES)
            state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(seed, state.version), "random")).state


def rehide(state: State, rng) -> State:
    """The same public game with every hidden thing dealt again (counts kept)."""
    new = state.copy()
    d = new.data
    numbers = list(d["chest"]) + [n for pl in d["players"] for n in pl["keys"]]
    rng.shuffle(numbers)
    d["chest"], numbers = sorted(numbers[:3]), numbers[3:]
    for pl in d["players"]:
        k = len(pl["keys"])
        pl["keys"], numbers = sorted(numbers[:k]), numbers[k:]
    pool = [c for pl in d["players"] for c in pl["items"] if c not in pl["revealed"]]
    rng.shuffle(pool)
    for pl in d["players"]:
        keep = [c for c in pl["items"] if c in pl["revealed"]]
        take = len(pl["items"]) - len(keep)
        pl["items"], pool = keep + pool[:take], pool[take:]
    rooms = [r for r in d["rooms"].values() if r["treasure"]]
    cards = [r["treasure"] for r in rooms]
    rng.shuffle(cards)
    for room, cid in zip(rooms, cards):
        room["treasure"] = cid
    return new


def test_public_prompts_never_depend_on_hidden_information():
    """A prompt shown as buttons in the channel (not private) must read the same whatever is hidden."""
    import random
    checked = 0
    for seed in range(5):
        state = setup(GAME, 4, None, seed)
        rng = random.Random(seed)
        for _ in range(250):
            if state.over:
                break
            other = rehide(state, rng)
            for seat in range(4):
                prompt = GAME.prompt(state, seat)
                if prompt is not None and not prompt.private:
                    assert GAME.prompt(other, seat) == prompt, prompt
                    checked += 1
            seat = next(s for s in range(4) if GAME.prompt(state, s) is not None)
            state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(seed, state.version), "smart")).state
    assert checked > 500


# ------------------------------------------------------------------ typed input fuzz

ODD_DIGITS = "⁰¹²³٣۴０１९߁๓᠒½Ⅻ①"


def _positions() -> list[State]:
    """Positions of every kind: random games caught every few actions."""
    out = []
    for seed in range(4):
        state = setup(GAME, 2 + seed, None, seed)
        for step in range(240):
            if state.over:
                break
            if step % 12 == 0:
                out.append(state)
            seat = next(s for s in range(state.seats) if GAME.prompt(state, s) is not None)
            state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(seed, state.version), "random")).state
    return out


POSITIONS = _positions()
JUNK = st_.one_of(
    st_.text(alphabet=ODD_DIGITS + "0123456789 ", min_size=1, max_size=8),
    st_.text(max_size=12),
    st_.builds(lambda c, n: c * n, st_.sampled_from(["9", "x", "⁰", " 1", "K9", "٣"]), st_.integers(50, 5000)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st_.integers(0, len(POSITIONS) - 1),
       verb=st_.sampled_from(sorted(GAME.verbs) + ["spoils keys", "open 1 2", "move K", "extras 1"]),
       args=st_.lists(JUNK, max_size=3))
def test_every_action_form_with_odd_digits_junk_or_huge_input_is_refused_or_legal(position, verb, args):
    state = POSITIONS[position]
    before = state.to_json()
    text = " ".join([verb, *args])
    for seat in [*range(state.seats), SYSTEM]:
        try:
            out = apply(GAME, state, seat, text)
        except IllegalAction as exc:
            assert exc.reason and len(exc.reason) < 400
        else:
            check_invariants(out.state)
        assert state.to_json() == before


def test_non_ascii_digits_are_refused_not_crashed_on():
    state = setup(GAME, 3, None, 1)
    seat = next(s for s in range(3) if GAME.prompt(state, s) is not None)
    for text in ("extras ⁰", "extras ٣", "extras ０", "open ⁰ ¹ ²", "open ٣ ۴ 5", "challenge ²", "show ½"):
        with pytest.raises(IllegalAction):
            apply(GAME, state, seat, text)

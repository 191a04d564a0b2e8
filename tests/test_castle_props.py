"""Property tests for Keys to the Castle: whole games under random and smart play."""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from data.locales import render
from games.castle import GAME
from games.castle.engine import CARD_LABELS, MAX_TURNS, full_deck, parse_coord
from games.core import Rng, State, apply, decide, replay, setup

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECK = Counter(full_deck())


def board_cards(d) -> Counter:
    c = Counter()
    for t in d["tiles"]:
        c["padlock"] += t["padlock"]
        c["hacksaw"] += t["hacksaw"]
    c["passage"] += len(d["passages"])
    c["net"] += sum(1 for pl in d["players"] if pl["netted"] > 0)
    return c


def check_invariants(state: State) -> None:
    d = state.data
    cards = Counter(d["draw"]) + Counter(d["discard"]) + board_cards(d)
    for pl in d["players"]:
        cards += Counter(pl["hand"])
    assert cards == DECK
    tiles = d["tiles"] + d["unused"]
    assert len(tiles) == 40
    assert Counter(t["colour"] for t in tiles) == Counter({c: 10 for c in GAME.colours})
    positions = [pl["pos"] for pl in d["players"] if pl["pos"] is not None]
    assert len(positions) == len(set(positions))
    for pl in d["players"]:
        if pl["pos"] is not None:
            t = d["tiles"][parse_coord(pl["pos"], d["rows"], d["cols"])]
            assert t["open"] and (t["face"] != "barred" or t["hacksaw"])  # a padlock may come later
    for t in d["tiles"]:
        if t["open"]:
            assert t["revealed"]
        if t["hacksaw"]:
            assert t["open"] and t["face"] == "barred"
    assert json.loads(json.dumps(d)) == d
    assert state.turn <= MAX_TURNS


def check_secrecy(state: State) -> None:
    pub = GAME.view(state, None)
    assert "hand" not in pub
    for tv, t in zip(pub["tiles"], state.data["tiles"]):
        assert tv["face"] == (t["face"] if t["revealed"] else None)
    for seat in range(state.seats):
        v = GAME.view(state, seat)
        assert v["hand"] == state.data["players"][seat]["hand"]
        assert {k: v[k] for k in v if k != "hand"} == pub
    text = json.dumps(pub)
    assert '"draw"' not in text and '"unused"' not in text


def check_events(events) -> None:
    labels = [render("en", label) for label in CARD_LABELS.values()]
    for e in events:
        said = render("en", e.text)
        if e.public and "draw" in said.lower() and "draw pile" not in said:
            assert said.endswith("draws a card."), said
            assert not any(lab in said for lab in labels)
        if not e.public:
            assert e.to is not None and len(e.to) == 1


def play_game(seats: int, seed: int, levels: list[str], checks: bool = True, use_apply: bool = False):
    state = setup(GAME, seats, None, seed)
    ai_rng = Rng(seed ^ 0x5EED)
    log = []
    if checks:
        check_invariants(state)
    while not state.over:
        seat = GAME.to_move(state)
        prompts = [GAME.prompt(state, s) for s in range(seats)]
        assert [p is not None for p in prompts] == [s == seat for s in range(seats)]
        action = decide(GAME, state, seat, ai_rng, levels[seat])
        assert action in [c.action for c in prompts[seat].choices]
        if use_apply:
            out = apply(GAME, state, seat, action)
            state, events = out.state, out.events
        else:
            rng = Rng(state.rng)
            events = GAME.reduce(state, seat, action, 0.0, rng)
            state.rng = rng.state
            state.version += 1
        log.append((seat, action, 0.0))
        if checks:
            check_invariants(state)
            check_events(events)
    return state, log


@FAST
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32),
       levels=st_.lists(st_.sampled_from(["random", "smart"]), min_size=4, max_size=4))
def test_games_always_end_and_keep_invariants(seats, seed, levels):
    state, log = play_game(seats, seed, levels[:seats])
    assert state.over
    r = state.result
    assert r["scores"] is None and isinstance(render("en", r["reason"]), str) \
        and json.loads(json.dumps(r["reason"])) == r["reason"]
    if r["winners"]:
        (w,) = r["winners"]
        d = state.data
        assert d["winner"] == w
        assert GAME.view(state, None)["phase"] == "over"
    else:
        assert state.turn == MAX_TURNS


@settings(max_examples=12, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32))
def test_replay_and_json_round_trip(seats, seed):
    levels = ["smart", "random", "smart", "random"][:seats]
    state, log = play_game(seats, seed, levels, checks=False, use_apply=True)
    again = replay(GAME, seats, None, seed, log)
    assert again.to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()


@settings(max_examples=10, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32))
def test_secrecy_and_every_listed_choice_is_legal(seats, seed):
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed + 1)
    steps = 0
    while not state.over and steps < 120:
        seat = GAME.to_move(state)
        check_secrecy(state)
        choices = GAME.prompt(state, seat).choices
        if steps % 7 == 0:
            for c in choices:
                out = apply(GAME, state, seat, c.action)  # never raises
                check_events(out.events)
        action = decide(GAME, state, seat, rng, "smart" if steps % 3 else "random")
        state = apply(GAME, state, seat, action).state
        steps += 1


@settings(max_examples=20, deadline=None)
@given(seed=st_.integers(0, 2**32), junk=st_.text(max_size=20))
def test_illegal_actions_change_nothing(seed, junk):
    from games.core import IllegalAction
    state = setup(GAME, 3, None, seed)
    before = state.to_json()
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for seat, action in ((1, "stay"), (2, "discard net"), (0, junk), (0, "move C6"),
                         (0, "play passage A1 A2")):
        if seat == 0 and " ".join(action.lower().split()) in {a.lower() for a in legal}:
            continue
        try:
            apply(GAME, state, seat, action)
        except IllegalAction as err:
            assert err.reason
        else:  # only possible if the junk happened to be legal
            assert seat == 0
        assert state.to_json() == before


def test_smart_ai_is_deterministic():
    a = play_game(2, 99, ["smart", "smart"], checks=False)[1]
    b = play_game(2, 99, ["smart", "smart"], checks=False)[1]
    assert a == b


DIGITS = {"superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹", "fullwidth": "０１２３４５６７８９",
          "arabic-indic": "٠١٢٣٤٥٦٧٨٩", "subscript": "₀₁₂₃₄₅₆₇₈₉", "devanagari": "०१२३४५६७८९"}


@st_.composite
def mangled(draw, action: str) -> str:
    """A typed version of a legal action, damaged the ways people and keyboards damage text."""
    text = action
    for _ in range(draw(st_.integers(1, 3))):
        how = draw(st_.sampled_from(["digits", "spaces", "case", "truncate", "junk", "huge", "tokens"]))
        if how == "digits":
            table = DIGITS[draw(st_.sampled_from(sorted(DIGITS)))]
            text = "".join(table[int(ch)] if ch.isascii() and ch.isdigit() else ch for ch in text)
        elif how == "spaces":
            at = draw(st_.integers(0, len(text)))
            text = text[:at] + draw(st_.sampled_from([" ", "  ", "\t", "\u00a0", "\u3000", "\n"])) + text[at:]
        elif how == "case":
            text = draw(st_.sampled_from([text.upper(), text.swapcase(), text.title()]))
        elif how == "truncate":
            text = text[:draw(st_.integers(0, len(text)))]
        elif how == "junk":
            at = draw(st_.integers(0, len(text)))
            text = text[:at] + draw(st_.text(max_size=6)) + text[at:]
        elif how == "huge":
            number = draw(st_.sampled_from(["0", "-1", "10" * 30, "9" * 5000, "1e9", "+3"]))
            text = "".join(ch for ch in text if not ch.isdigit()) + number
        else:
            words = text.split()
            text = " ".join(draw(st_.lists(st_.sampled_from(words or ["play"]), max_size=5)))
    return text


@settings(max_examples=300, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32), steps=st_.integers(0, 40),
       data=st_.data())
def test_mangled_typed_actions_are_applied_or_refused_never_crash(seats, seed, steps, data):
    from games.core import IllegalAction
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.over:
            break
        seat = GAME.to_move(state)
        state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "random")).state
    if state.over:
        return
    seat = GAME.to_move(state)
    action = data.draw(st_.sampled_from([c.action for c in GAME.prompt(state, seat).choices]))
    typed = data.draw(mangled(action))
    before = state.to_json()
    for who in (seat, (seat + 1) % seats):
        try:
            apply(GAME, state, who, typed)
        except IllegalAction as err:
            assert err.reason and len(render("en", err.reason)) < 400
    assert state.to_json() == before


def every_action(state: State) -> list[str]:
    """Each well-formed action for the current phase, legal or not (passages: near pairs only)."""
    d = state.data
    rows, cols = d["rows"], d["cols"]
    names = [f"{chr(65 + i % cols)}{i // cols + 1}" for i in range(rows * cols)]
    if d["phase"] == "move":
        return [f"move {c}" for c in names] + ["move out", "stay"]
    if d["phase"] == "bonus":
        return [f"bonus {c}" for c in names] + ["bonus skip"]
    out = [f"discard {card}" for card in CARD_LABELS]
    out += [f"play {card} {c}" for card in CARD_LABELS if card != "passage" for c in names]
    out += [f"play skeleton {c} unlock" for c in names]
    for i in range(rows * cols):
        for j in range(i + 1, rows * cols):
            if abs(i // cols - j // cols) <= 1 and abs(i % cols - j % cols) <= 1:
                out.append(f"play passage {names[i]} {names[j]}")
    return out


@settings(max_examples=25, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32), steps=st_.integers(0, 150))
def test_prompt_lists_exactly_the_actions_the_rules_accept(seats, seed, steps):
    """The prompt's fast legality must agree with the checks apply makes, both ways."""
    from games.core import IllegalAction
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed)
    for step in range(steps):
        if state.over:
            return
        seat = GAME.to_move(state)
        level = "random" if step % 2 else "smart"
        state = apply(GAME, state, seat, decide(GAME, state, seat, rng, level)).state
    if state.over:
        return
    seat = GAME.to_move(state)
    listed = [c.action for c in GAME.prompt(state, seat).choices]
    accepted = []
    for action in every_action(state):
        try:
            apply(GAME, state, seat, action)
        except IllegalAction:
            continue
        accepted.append(GAME.canonical(state, action))
    assert sorted(listed) == sorted(accepted)
    assert len(listed) == len(set(listed))

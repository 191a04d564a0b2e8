"""Property tests for Don't Go In There: whole games under random and smart play."""
from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from data.locales import LANGUAGES, render, text
from games.core import IllegalAction, Rng, State, apply, decide, replay, setup
from games.dontgo import GAME
from games.dontgo.engine import CARDS, CONFIG, TOKEN_VALUE, card_text, ghosts, pool_value

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: State) -> None:
    d = state.data
    ids = list(d["deck"]) + d["removed"] + d["unused"]
    for r in d["rooms"]:
        ids += r["cards"]
    for pl in d["players"]:
        ids += [c["id"] for c in pl["cards"]]
    assert sorted(ids) == list(range(96))
    real = sum(int(k) * v for pl in d["players"] for k, v in pl["tokens"].items() if k != "sub")
    assert pool_value(d) + real == TOKEN_VALUE
    assert all(v >= 0 for v in d["pool"].values())
    for pl in d["players"]:
        assert all(v >= 0 for v in pl["tokens"].values())
        assert 0 <= pl["meeples"] <= 5
    for seat, pl in enumerate(d["players"]):
        placed = sum(s == seat for r in d["rooms"] for s in r["spaces"])
        assert pl["meeples"] + placed == 5
    for r in d["rooms"]:
        if r["removed"]:
            assert r["cards"] == [] and all(s is None for s in r["spaces"])
    assert json.loads(json.dumps(d)) == d


def hidden_ids(state: State) -> set[int]:
    return {r["cards"][2] for r in state.data["rooms"] if r["hidden"]}


def check_secrecy(state: State) -> None:
    pub = GAME.view(state, None)
    over = state.over
    for p in pub["players"]:
        assert (p["ghosts"] is None) != over
    assert pub["secret"] is None
    text = json.dumps(pub)
    assert '"tokens"' not in text and '"pool"' not in text and '"removed": [' not in text
    for r, vr in zip(state.data["rooms"], pub["rooms"]):
        if r["hidden"]:
            assert vr["cards"][2] == {"hidden": True}
            assert len(vr["cards"][2]) == 1
    for seat in range(state.seats):
        v = GAME.view(state, seat)
        for p in v["players"]:
            if p["seat"] == seat or over:
                assert p["ghosts"] == ghosts(state.data["players"][p["seat"]])
            else:
                assert p["ghosts"] is None
        r = next((r for r in state.data["rooms"] if r["hidden"] and seat in r["seen"]), None)
        assert (v["secret"] is None) == (r is None)
        # besides its own ghosts and secret card, a seat sees exactly the public view
        strip = {k: v[k] for k in v if k not in ("secret", "players")}
        assert strip == {k: pub[k] for k in pub if k not in ("secret", "players")}


def en(words) -> str:
    """Engine words (message ids) as an English reader reads them."""
    return render("en", words)


def check_events(state_before: State, events) -> None:
    d = state_before.data
    visible = [c["id"] for pl in d["players"] for c in pl["cards"]]
    visible += [c for r in d["rooms"] for i, c in enumerate(r["cards"]) if not (r["hidden"] and i == 2)]
    # a hidden card's text must not appear, unless an identical-looking card is public
    secret = {en(card_text(i)) for i in hidden_ids(state_before)} - {en(card_text(i)) for i in visible}
    revealed = any("revealed" in en(e.text) for e in events if e.public)
    for e in events:
        if not e.public:
            assert e.to is not None and len(e.to) == 1
            continue
        if not revealed:
            for s in secret:
                assert s not in en(e.text) or "flips" in en(e.text), en(e.text)
        if e.kind != "end":
            # never a running total: no "has N ghosts", "keeps N", "discards N"
            assert not re.search(r"(has|keeps?|discards?|left with) \d+ ghosts?", en(e.text)), en(e.text)


def play_game(seats: int, seed: int, levels: list[str], checks: bool = True, use_apply: bool = False):
    state = setup(GAME, seats, None, seed)
    ai_rng = Rng(seed ^ 0x5EED)
    log = []
    if checks:
        check_invariants(state)
        check_secrecy(state)
    steps = 0
    while not state.over:
        seat = GAME.to_move(state)
        if checks:
            prompts = [GAME.prompt(state, s) for s in range(seats)]
            assert [p is not None for p in prompts] == [s == seat for s in range(seats)]
        action = decide(GAME, state, seat, ai_rng, levels[seat])
        if checks:
            assert action in [c.action for c in prompts[seat].choices]
        before = state
        if use_apply or checks:
            out = apply(GAME, state, seat, action)
            state, events = out.state, out.events
        else:
            rng = Rng(state.rng)
            events = GAME.reduce(state, seat, action, 0.0, rng)
            state.rng = rng.state
        log.append((seat, action, 0.0))
        if checks:
            check_invariants(state)
            check_secrecy(state)
            check_events(before, events)
        steps += 1
        assert steps < 1000
    return state, log


@FAST
@given(seats=st_.integers(2, 5), seed=st_.integers(0, 2**32),
       levels=st_.lists(st_.sampled_from(["random", "smart"]), min_size=5, max_size=5))
def test_games_always_end_and_keep_invariants(seats, seed, levels):
    state, log = play_game(seats, seed, levels[:seats])
    assert state.over and state.data["phase"] == "over"
    d = state.data
    assert d["deck"] == [] and all(r["removed"] for r in d["rooms"])
    r = state.result
    assert r["winners"] and render("en", r["reason"]) == "fewest curses"
    rows = r["scores"]["rows"]
    assert [row[0] for row in rows] == list(range(seats))
    most = max(row[2] for row in rows)
    for seat, cur, gh, pen, bonus, tot in rows:
        assert pen == (gh // 2 if gh == most and most > 0 else 0) and tot == cur + pen - bonus
        assert bonus == CONFIG["seat_balance"]["bonus"][str(seats)][seat]
    best = min((row[5], row[2]) for row in rows)
    assert r["winners"] == [row[0] for row in rows if (row[5], row[2]) == best]


def test_every_player_count_ends():
    for seats in range(2, 6):
        for seed in range(3):
            state, _ = play_game(seats, seed, ["random"] * seats)
            assert state.over


@settings(max_examples=10, deadline=None)
@given(seats=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_replay_and_json_round_trip(seats, seed):
    levels = ["smart", "random", "smart", "random", "smart"][:seats]
    state, log = play_game(seats, seed, levels, checks=False, use_apply=True)
    again = replay(GAME, seats, None, seed, log)
    assert again.to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()


@settings(max_examples=8, deadline=None)
@given(seats=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_every_listed_choice_is_legal(seats, seed):
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed + 1)
    steps = 0
    while not state.over:
        seat = GAME.to_move(state)
        choices = GAME.prompt(state, seat).choices
        assert choices and len({c.action for c in choices}) == len(choices)
        if steps % 5 == 0:
            for c in choices:
                apply(GAME, state, seat, c.action)  # never raises
        state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "random")).state
        steps += 1


@settings(max_examples=20, deadline=None)
@given(seed=st_.integers(0, 2**32), junk=st_.text(max_size=20))
def test_illegal_actions_change_nothing(seed, junk):
    state = setup(GAME, 3, None, seed)
    before = state.to_json()
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for seat, action in ((1, "place attic 1"), (0, junk), (0, "pick 1"), (0, "keep"),
                         (0, "place attic 0"), (0, "dispel 3"), (0, "tome cat")):
        if seat == 0 and " ".join(action.lower().split()) in legal:
            continue
        try:
            apply(GAME, state, seat, action)
        except IllegalAction as err:
            assert err.reason
        else:
            assert seat == 0
        assert state.to_json() == before


def test_smart_ai_is_deterministic():
    a = play_game(5, 99, ["smart"] * 5, checks=False)[1]
    b = play_game(5, 99, ["smart"] * 5, checks=False)[1]
    assert a == b


def test_smart_beats_random():
    wins = 0
    for seed in range(30):
        smart = seed % 2
        levels = ["random", "random"]
        levels[smart] = "smart"
        state, _ = play_game(2, 500 + seed, levels, checks=False)
        wins += smart in state.result["winners"] and len(state.result["winners"]) == 1
    assert wins >= 18, f"smart won only {wins}/30"


def hide_otherwise(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` that differs only in what `seat` cannot see: the deck's order and the
    set-aside cards, a face-down card it has not peeked at, and the other players' ghosts."""
    other = state.copy()
    d = other.data
    unseen = d["deck"] + d["removed"]
    for r in d["rooms"]:
        if r["hidden"] and seat not in r["seen"]:
            unseen.append(r["cards"][2])
    rng.shuffle(unseen)
    for r in d["rooms"]:
        if r["hidden"] and seat not in r["seen"]:
            r["cards"][2] = unseen.pop()
    d["removed"] = sorted(unseen[:len(d["removed"])])
    d["deck"] = unseen[len(d["removed"]):]
    for s, pl in enumerate(d["players"]):
        if s != seat:
            pl["tokens"]["sub"] += rng.below(9)
    return other


@settings(max_examples=15, deadline=None)
@given(seats=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_ai_decides_from_what_its_seat_can_see(seats, seed):
    """Changing what the seat cannot see leaves its view and the AI's choice (same dice) alone."""
    state = setup(GAME, seats, None, seed)
    rng = Rng(seed)
    while not state.over:
        seat = GAME.to_move(state)
        other = hide_otherwise(state, seat, Rng(state.version))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert GAME.prompt(other, seat) == GAME.prompt(state, seat)
        prompt = GAME.prompt(state, seat)  # the compact view the smart AI reads, too
        assert GAME.ai_view(other, seat, "smart", prompt) == GAME.ai_view(state, seat, "smart", prompt)
        for level in ("smart", "random"):
            assert decide(GAME, other, seat, Rng(7), level) == decide(GAME, state, seat, Rng(7), level)
        state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "random")).state


def test_labels_are_human():
    """Every card type has a name in every language, and English names it as its card does."""
    for ctype in {c["type"] for c in CARDS}:
        assert text("en", f"game.dontgo.type.{ctype}") == CONFIG["types"][ctype]["label"]
        assert all(text(lang, f"game.dontgo.type.{ctype}").strip() for lang in LANGUAGES)

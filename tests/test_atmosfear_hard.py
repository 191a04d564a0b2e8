"""Atmosfear's hard AI: its evaluation (the clock counted, as sure as smart games bear out), its
sampler's reading of the clock, and its own policy (dice, duels and flights chosen by their worth)."""
from __future__ import annotations

from typing import Any

import pytest

import games
from bot.simulate import play
from games.atmosfear.engine import COLOURS, WELL
from games.atmosfear.evaluate import evaluate
from games.atmosfear.hard import choose
from games.atmosfear.sample import sample
from games.core import SYSTEM, Rng, State, apply, setup

GAME = games.get("atmosfear")


def playing(seed: int = 3) -> State:
    """A three-player game some way into play, its clock running, seat 0 to roll."""
    log: list[tuple[int, str, float]] = []
    play("atmosfear", 3, seed, max_actions=400, log=log)
    state = setup(GAME, 3, {}, seed)
    for seat, action, now in log:
        state = apply(GAME, state, seat, action, now).state
        d = state.data
        if (d["phase"] == "play" and not d["gk"]["on"] and d["current"] == 0 and d["step"] == "turn"
                and seat != SYSTEM and state.turn > 30):
            return state
    raise AssertionError("no position found")


def seat_zero(state: State, rack: list[str], pos: str, step: str = "turn") -> tuple[dict[str, Any], Any]:
    """Seat 0 standing on `pos` with `rack` (its fear in the Well, no Black Key, no Black Hole),
    asked `step`: its view and prompt."""
    d = state.data
    pl = d["players"][0]
    pl.update(rack=list(rack), pos=pos, hole=False, must_roll=None, must_dice=None)
    d["well"] = sorted({*d["well"], 0})
    if d["black_key"]["holder"] == 0:
        d["black_key"] = {"holder": None, "on_board": True}
    d["step"] = step
    return GAME.view(state, 0), GAME.prompt(state, 0)


def test_one_die_where_two_would_risk_the_black_hole_and_two_on_the_way_in():
    """From O14 one die lands on a yellow key stone one time in six and never on the Black Hole
    seven stones on; two dice fall in it one time in six. With every colour, two dice get further
    toward the Well (the way inside is two stones on)."""
    state = playing()
    state.data["realm_keys"][1] = 3
    view, prompt = seat_zero(state, ["red", "green"], "O14")
    assert [choose(view, prompt, Rng(k)) for k in range(10)] == ["roll 1"] * 10
    view, prompt = seat_zero(state, list(COLOURS), "O14")
    assert [choose(view, prompt, Rng(k)) for k in range(10)] == ["roll 2"] * 10


def duel_prompt(state: State, rack: list[str], black_key: bool) -> tuple[dict[str, Any], Any]:
    """Seat 0 on the duel stone O4 with `rack`, asked whom to duel; seat 1 holds two keys."""
    d = state.data
    d["players"][1].update(rack=["red", "blue"], hole=False)
    d["players"][2].update(rack=[], hole=False)
    view, prompt = seat_zero(state, rack, "O4", "duel")
    if black_key:
        d["black_key"] = {"holder": 0, "on_board": False}
        view, prompt = GAME.view(state, 0), GAME.prompt(state, 0)
    assert "duel 2" in [c.action for c in prompt.choices]
    return view, prompt


def test_a_full_rack_skips_a_duel_and_the_black_key_is_duelled_away():
    """With one key of each colour and no spare, a duel risks a colour for a spare: skipped (smart
    duels). Holding the Black Key, losing a duel may hand it over: fought."""
    state = playing()
    view, prompt = duel_prompt(state, list(COLOURS), black_key=False)
    assert choose(view, prompt, Rng(1)) == "skip"
    view, prompt = duel_prompt(playing(), ["red", "yellow"], black_key=True)
    assert choose(view, prompt, Rng(1)) == "duel 2"


def test_with_every_colour_it_flies_to_the_flight_nearest_the_well():
    """From Flight O8 the way inside nearest the Gate is O60's, eight stones past Flight O52."""
    state = playing()
    view, prompt = seat_zero(state, list(COLOURS), "O8", "flight")
    assert choose(view, prompt, Rng(1)) == "fly O52"


def test_the_clock_running_down_lowers_every_seat_s_chance():
    """The Gatekeeper wins when the clock runs out: the same position with less time left is worth
    less to every seat, and what the seats share together (the chance somebody escapes) too."""
    state = playing()
    d = state.data
    chances = []
    for minutes in (30, 10, 1):
        d["now"] = d["clock"]["end"] - minutes * 60
        chances.append([evaluate(state, s) for s in range(3)])
    for seat in range(3):
        assert chances[0][seat] > chances[1][seat] > chances[2][seat]
    assert sum(chances[0]) > sum(chances[2]) + 0.2
    assert all(sum(c) < 1 for c in chances)


def test_at_the_well_a_seat_s_chance_grows_as_the_fears_in_it_run_out():
    state = playing()
    state.data["players"][0].update(rack=list(COLOURS), pos=WELL)
    state.data["well"] = list(range(17))
    many = evaluate(state, 0)
    state.data["well"] = [0, 1, 2, 3]
    assert evaluate(state, 0) > many + 0.2


def test_the_evaluation_is_as_sure_as_smart_games_bear_out():
    """Over smart three-player games, positions rated a better chance than 25% are won about as
    often as rated, and the seats' chances together match the games the players (not the
    Gatekeeper) win. Shares of the players' win alone rated such positions near 60%, won 25%."""
    rated = won = count = 0
    total = escaped = positions = 0
    for seed in range(40):
        log: list[tuple[int, str, float]] = []
        final = play("atmosfear", 3, seed, log=log)
        winner = final.data["winner"]
        state = setup(GAME, 3, {}, seed)
        for k, (seat, action, now) in enumerate(log):
            state = apply(GAME, state, seat, action, now).state
            if k % 10 or state.over or state.data["phase"] != "play":
                continue
            shares = [evaluate(state, s) for s in range(3)]
            positions, total, escaped = positions + 1, total + sum(shares), escaped + (winner is not None)
            for s, share in enumerate(shares):
                if share > 0.25:
                    count, rated, won = count + 1, rated + share, won + (winner == s)
    assert count > 300 and abs(rated / count - won / count) < 0.1, (count, rated / count, won / count)
    assert abs(total / positions - escaped / positions) < 0.1, (total / positions, escaped / positions)


@pytest.mark.parametrize("visits", [0, 1, 6])
def test_the_sampler_times_the_gatekeeper_by_his_visits_not_the_turn(visits):
    """The turn says how many moves were made, not how long they took (AI seats move in seconds):
    the sample has the Gatekeeper come back as his own rhythm after his visits so far allows."""
    state = playing()
    d = state.data
    d["gk"].update(n=visits, on=False, calling=None, deadline=None)
    state.turn = 400
    start = d["clock"]["end"] - d["clock"]["minutes"] * 60
    earliest = start + (40 + visits * 96 if visits else 40)
    latest = start + (100 + visits * 216 if visits else 100)
    for k in range(20):
        drawn = sample(GAME.view(state, 0), 0, Rng(k)).data["gk"]["next"]
        assert earliest <= drawn <= latest


def test_the_black_key_goes_to_the_rival_with_the_most_keys():
    state = playing()
    d = state.data
    d["players"][1].update(rack=["red"], pos="O4", hole=False)
    d["players"][2].update(rack=["red", "blue", "green"], pos="O4", hole=False)
    seat_zero(state, ["red"], "O4")
    d["black_key"] = {"holder": 0, "on_board": False}
    prompt = GAME.prompt(state, 0)
    assert {"pass 2", "pass 3"} <= {c.action for c in prompt.choices}
    assert choose(GAME.view(state, 0), prompt, Rng(1)) == "pass 3"


def test_in_the_search_s_rollouts_the_hard_policy_plays_its_seat_from_the_whole_view():
    """Opted in with `WholeView`: the policy is asked only for the searching seat's moves, and
    reads that seat's whole view (its rack), which smart's compact view leaves out."""
    from games.core.search import WholeView, rollout, start_time
    state = playing()
    seen: list[tuple[int, dict[str, int]]] = []

    def recording(view, prompt, rng):
        seen.append((prompt.seat, view["rack"]))
        return choose(view, prompt, rng)
    board = state.copy()
    rollout(GAME, board, seed=5, now=start_time(GAME, board), actions=60, policy=WholeView(recording), own=0)
    assert seen and {seat for seat, _ in seen} == {0}
    assert len(seen) < board.version - state.version  # the others played too, as smart


def test_atmosfear_s_search_leaves_the_policy_only_by_two_standard_errors():
    """Rollouts that may end in a win at the Well are noisy: a candidate ahead of the base pick by
    one and a half standard errors replaces it at the default margin, not at Atmosfear's."""
    from games.atmosfear.sample import MARGIN
    from games.core.search import Tally
    tally = Tally("ccw")
    for k in range(60):
        tally.add(0.1 + (0.5 if k % 2 else -0.5))  # mean 0.1, standard error about 0.065
    assert tally.clearly_better() and not tally.clearly_better(MARGIN)

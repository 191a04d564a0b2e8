"""The hard AI (games.core.search and each game's sampler): it decides from its seat's view alone,
replays from its seed, and leaves the smart policy's pick only for a clearly better one."""
from __future__ import annotations

from importlib import import_module

import pytest

import games
import games.core.search as search_module
from bot.simulate import play
from games.core import SYSTEM, Choice, Prompt, Rng, State, Step, apply, decide, setup
from games.core.search import (CANDIDATES, Horizon, Tally, Verdict, Searcher, candidates, glance, score,
                               start_time)

NAMES = ["atmosfear", "castle", "dontgo", "firetop", "kingdom"]
ITERATIONS = 2  # samples per decision: enough to move off smart's pick, cheap enough for a test


def sampler(name: str):
    return import_module(f"games.{name}.sample").sample


def positions(name: str, seats: int, seed: int, count: int) -> list[tuple[State, int]]:
    """`count` states spread along a smart self-play game, each with a seat that has a real choice
    (two actions or more, none asking for words) and that seat."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    play(name, seats, seed, max_actions=600, log=log)
    state = setup(game, seats, {}, seed)
    found = []
    for seat, action, now in log:
        if seat != SYSTEM:
            prompt = game.prompt(state, seat)
            if len({c.action for c in prompt.choices}) > 1 and not any(c.input for c in prompt.choices):
                found.append((state, seat))
        state = apply(game, state, seat, action, now).state
    step = max(len(found) // count, 1)
    return found[::step][:count]


def hard(name: str, state: State, seat: int, seed: int) -> str:
    """The hard AI's action from the seat's view, a fixed number of samples: replayable."""
    game = games.get(name)
    return game.hook("searcher")(game, game.view(state, seat), game.prompt(state, seat), Rng(seed),
                                 None, iterations=ITERATIONS)


def asks_the_same(name: str, state: State, seat: int, sample: State) -> bool:
    game = games.get(name)
    return [c.action for c in game.prompt(sample, seat).choices] == \
        [c.action for c in game.prompt(state, seat).choices]


@pytest.mark.parametrize("name", NAMES)
def test_a_sample_shows_the_seat_exactly_its_view(name):
    """A sampled state is one the seat cannot tell from the real game: its view of it is the
    seat's view; and samples differ in what the seat cannot see."""
    game = games.get(name)
    sample = sampler(name)
    for seats in (game.min_seats, game.max_seats):
        for state, seat in positions(name, seats, seed=21 + seats, count=8):
            view = game.view(state, seat)
            drawn = [sample(view, seat, Rng(k)) for k in range(3)]
            for one in drawn:
                assert game.view(one, seat) == view, (seats, seat, state.version)
            assert len({one.to_json() for one in drawn}) > 1


@pytest.mark.parametrize("name", NAMES)
def test_most_samples_ask_the_seat_its_real_question(name):
    """The search uses only samples whose prompt for the seat is the real one: most are."""
    game = games.get(name)
    sample = sampler(name)
    hits = total = 0
    for state, seat in positions(name, game.min_seats, seed=5, count=40):
        total += 1
        hits += asks_the_same(name, state, seat, sample(game.view(state, seat), seat, Rng(total)))
    assert hits >= 0.75 * total, (hits, total)


def scramble_castle(state: State, seat: int, rng: Rng) -> None:
    """Others' hands and the draw pile dealt anew; unrevealed door faces swapped within a colour."""
    d = state.data
    others = [s for s in range(state.seats) if s != seat]
    pool = d["draw"] + [c for s in others for c in d["players"][s]["hand"]]
    rng.shuffle(pool)
    for s in others:
        n = len(d["players"][s]["hand"])
        d["players"][s]["hand"], pool = pool[:n], pool[n:]
    d["draw"] = pool
    hidden = [t for t in d["tiles"] if not t["revealed"]] + d["unused"]
    for colour in {t["colour"] for t in hidden}:
        same = [t for t in hidden if t["colour"] == colour]
        faces = [t["face"] for t in same]
        rng.shuffle(faces)
        for tile, face in zip(same, faces):
            tile["face"] = face


def scramble_dontgo(state: State, seat: int, rng: Rng) -> None:
    """The deck and the cards removed at setup mixed and dealt anew; a face-down card the seat
    has not seen swapped with one from the deck."""
    d = state.data
    pool = d["deck"] + d["removed"]
    rng.shuffle(pool)
    d["removed"], d["deck"] = sorted(pool[:len(d["removed"])]), pool[len(d["removed"]):]
    for room in d["rooms"]:
        if room["hidden"] and seat not in room["seen"] and d["deck"] and len(room["cards"]) > 2:
            room["cards"][2], d["deck"][0] = d["deck"][0], room["cards"][2]


def scramble_kingdom(state: State, seat: int, rng: Rng) -> None:
    """The Treasures in others' holders, at the Key Locations and in the lost pile dealt anew;
    the equipment and monster decks shuffled."""
    d = state.data
    others = [s for s in range(state.seats) if s != seat]
    held = sorted(loc for loc, t in d["locations"].items() if t is not None)
    pool = [d["locations"][loc] for loc in held] + d["lost_treasure"] \
        + [t for s in others for t in d["players"][s]["hand"]]
    rng.shuffle(pool)
    for loc in held:
        d["locations"][loc] = pool.pop()
    d["lost_treasure"] = [pool.pop() for _ in d["lost_treasure"]]
    for s in others:
        d["players"][s]["hand"] = [pool.pop() for _ in d["players"][s]["hand"]]
    rng.shuffle(d["equip_deck"])
    rng.shuffle(d["monster_deck"])


def scramble_firetop(state: State, seat: int, rng: Rng) -> None:
    """Unlooted rooms' treasures and unvisited rooms' encounters swapped among themselves, the
    Maze cards not turned up likewise, and a chest number swapped with a Key card of another
    adventurer that the seat has not seen."""
    d = state.data
    rooms = [r for r in d["rooms"].values() if r["treasure"] is not None]
    treasures = [r["treasure"] for r in rooms]
    rng.shuffle(treasures)
    for room, treasure in zip(rooms, treasures):
        room["treasure"] = treasure
    unvisited = [r for r in d["rooms"].values() if r["encounter"] is not None and not r["visited"]]
    encounters = [r["encounter"] for r in unvisited]
    rng.shuffle(encounters)
    for room, encounter in zip(unvisited, encounters):
        room["encounter"] = encounter
    unseen = [space for space in d["maze"] if space not in d["maze_seen"]]
    cards = [d["maze"][space] for space in unseen]
    rng.shuffle(cards)
    d["maze"].update(zip(unseen, cards))
    know = d["players"][seat]["know"]
    for s, pl in enumerate(d["players"]):
        free = [n for n in pl["keys"] if str(n) not in know["held"]]
        if s != seat and free and not know["chest"]:
            n, top = free[0], d["chest"][0]
            pl["keys"] = sorted([k for k in pl["keys"] if k != n] + [top])
            d["chest"] = sorted(d["chest"][1:] + [n])
            break


def scramble_atmosfear(state: State, seat: int, rng: Rng) -> None:
    """The Fate and Time decks shuffled, two others' racks swapping a key of another colour, and
    the others' unread fears rewritten."""
    d = state.data
    rng.shuffle(d["fate"])
    rng.shuffle(d["time"])
    others = [s for s in range(state.seats) if s != seat]
    a, b = d["players"][others[0]]["rack"], d["players"][others[1]]["rack"]
    if a and b and a[0] != b[0]:
        a[0], b[0] = b[0], a[0]
    for s in others:
        if d["fears"][s] is not None and d["fears"][s] not in d["read"]:
            d["fears"][s] = f"something else {s}"


SCRAMBLE = {"atmosfear": scramble_atmosfear, "castle": scramble_castle, "dontgo": scramble_dontgo,
            "firetop": scramble_firetop, "kingdom": scramble_kingdom}


@pytest.mark.parametrize("name", NAMES)
def test_fair_play_what_the_seat_cannot_see_changes_nothing(name):
    """Changing only what the hard AI's seat cannot see (others' hidden cards, deck orders, face-down
    cards) leaves its view, and so its decisions for the same seed, unchanged; and the search did
    run on those positions (their samples ask the seat's real question)."""
    game = games.get(name)
    searched = changed = 0
    for state, seat in positions(name, game.min_seats, seed=33, count=4):
        other = state.copy()
        SCRAMBLE[name](other, seat, Rng(state.version))
        changed += other.to_json() != state.to_json()
        assert game.view(other, seat) == game.view(state, seat)
        assert hard(name, other, seat, seed=state.version) == hard(name, state, seat, seed=state.version)
        view = game.view(state, seat)
        searched += asks_the_same(name, state, seat, sampler(name)(view, seat, Rng(1)))
    assert changed >= 3 and searched >= 2, (changed, searched)


@pytest.mark.parametrize("name", NAMES)
def test_hard_plays_one_of_its_choices_and_replays_from_its_seed(name):
    game = games.get(name)
    for state, seat in positions(name, game.min_seats, seed=8, count=3):
        action = hard(name, state, seat, seed=4)
        assert action in [c.action for c in game.prompt(state, seat).choices]
        assert hard(name, state, seat, seed=4) == action


def test_a_search_stops_at_its_time_budget(monkeypatch):
    """On a fake clock that moves a millisecond at every look: the search (which would take
    seconds at a fixed number of samples here) gives up within a few looks of its budget."""
    game = games.get("kingdom")
    state, seat = positions("kingdom", 2, seed=3, count=1)[0]
    now = [0.0]

    def ticking() -> float:
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(search_module.time, "perf_counter", ticking)
    action = game.hook("searcher")(game, game.view(state, seat), game.prompt(state, seat),
                                   Rng(1), 0.05)
    assert action in [c.action for c in game.prompt(state, seat).choices]
    assert 0.02 < now[0] <= 0.05 + 0.01  # it searched, and stopped by its budget


def test_with_no_sample_to_search_the_smart_pick_stands():
    """A sampler that cannot rebuild the seat's question (or fails) leaves the smart policy's pick."""
    game = games.get("castle")
    for state, seat in positions("castle", 2, seed=12, count=3):
        smart = decide(game, state, seat, Rng(9), "smart")

        def broken(view, seat, rng):
            raise KeyError("a detail the view leaves out")
        assert Searcher(broken)(game, game.view(state, seat), game.prompt(state, seat), Rng(9),
                                None, iterations=3) == smart


def test_an_action_must_beat_the_smart_pick_clearly():
    """Paired results: a small lead over few samples, a lead buried in noise, or a steady hair of
    a lead is not enough."""
    few = Tally("a")
    for difference in (1.0, 1.0):
        few.add(difference)
    noisy = Tally("b")
    for difference in (1.0, -1.0, 1.0, -1.0, 1.0):
        noisy.add(difference)
    steady = Tally("c")
    for difference in (1.0, 0.0, 1.0, 1.0, 0.0, 1.0):
        steady.add(difference)
    assert not few.clearly_better() and not noisy.clearly_better() and steady.clearly_better()
    hair = Tally("d")  # an evaluation's steady but negligible preference
    for difference in (0.005, 0.006, 0.005, 0.007, 0.005, 0.006):
        hair.add(difference)
    assert not hair.clearly_better()


def test_the_search_s_edge_in_standard_errors_and_the_margin_it_must_clear():
    """A lead of 0.3 with a standard error of 0.3 / sqrt(10) is an edge of sqrt(10): taken at a
    margin of 3, not 3.5; a single sample or no candidate leaves the base pick."""
    lead = Tally("c")
    for difference in (0.0, 0.6, 0.3, 0.3, 0.3):
        lead.add(difference)
    assert abs(lead.edge() - 10 ** 0.5) < 1e-9
    assert Verdict("base", lead).action(3.0) == "c" and Verdict("base", lead).action(3.5) == "base"
    once = Tally("e")
    once.add(0.5)
    assert once.edge() == 0.0 and Verdict("base", once).action(0.0) == "base"
    assert Verdict("base").action() == "base"


def test_a_single_choice_is_played_without_a_search():
    game = games.get("castle")
    state, seat = positions("castle", 2, seed=2, count=1)[0]
    only = Prompt(seat, "Move", [Choice("stay", (Step("stay", "Stay"),))])

    def unused(view, seat, rng):
        raise AssertionError("no sample is needed for one choice")
    assert Searcher(unused)(game, game.view(state, seat), only, Rng(1), None, iterations=3) == "stay"


def test_words_to_write_are_the_smart_policy_s():
    """A prompt that asks for words (Atmosfear's fear) is answered as the smart AI answers it."""
    game = games.get("atmosfear")
    state = setup(game, 3, {}, 4)
    prompt = game.prompt(state, 0)
    assert prompt.choices[0].input == "text"
    action = game.hook("searcher")(game, game.view(state, 0), prompt, Rng(2), None, iterations=1)
    assert action == decide(game, state, 0, Rng(2), "smart") and action.startswith("fear ")


EVALUATED = ["atmosfear", "castle", "firetop", "kingdom"]


def evaluation(name: str):
    return import_module(f"games.{name}.evaluate")


@pytest.mark.parametrize("name", NAMES)
def test_every_choice_plays_out_from_a_sample(name):
    """A sample is a game the engine can play on: every choice of the seat's, rolled out from it
    (to the horizon where the game has one), raises nothing (a round that raised would be dropped,
    leaving the decision to smart)."""
    game = games.get(name)
    horizon = None
    if name in EVALUATED:
        horizon = Horizon(evaluation(name).evaluate, evaluation(name).HORIZON)
    for k, (state, seat) in enumerate(positions(name, max(game.min_seats, 2), seed=17, count=30)):
        board = sampler(name)(game.view(state, seat), seat, Rng(k))
        for choice in game.prompt(board, seat).choices[:4]:
            assert 0.0 <= score(game, board, seat, choice.action, seed=k, horizon=horizon) <= 1.0


@pytest.mark.parametrize("name", EVALUATED)
def test_the_evaluation_shares_the_win_and_favours_the_winner_late(name):
    """Shares of the win add up to one (in Atmosfear, where the clock may win, at most one); near
    the end of a game the seat that goes on to win is rated above an even share of what the seats
    share far more often than not."""
    game = games.get(name)
    evaluate = evaluation(name).evaluate
    seats = max(game.min_seats, 2)
    ahead = total = 0
    for seed in range(6):
        log: list[tuple[int, str, float]] = []
        final = play(name, seats, seed, max_actions=2000, log=log)
        winners = (final.result or {}).get("winners") or []
        state = setup(game, seats, {}, seed)
        states = []
        for seat, action, now in log:
            state = apply(game, state, seat, action, now).state
            states.append(state)
        for state in states[:-1]:
            shared = sum(evaluate(state, s) for s in range(seats))
            assert shared <= 1.0 + 1e-9 if name == "atmosfear" else shared == pytest.approx(1.0)
        if len(winners) == 1:
            for state in states[int(len(states) * 0.8):-1]:
                total += 1
                ahead += evaluate(state, winners[0]) > sum(evaluate(state, s) for s in range(seats)) / seats
    assert total and ahead >= 0.7 * total, (ahead, total)


def castle_stood_by_a_closed_finish() -> tuple[State, dict, str]:
    """Seat 1 stands on C7, the closed door C8 (its far edge) next to it, and has just ended its
    turn by staying there: holding a key of C8's colour or a Skeleton Key, the smart policy would
    have opened C8 and won. Seat 0, outside, is to play; also the key that would have won."""
    game = games.get("castle")
    state = next(s for s in (setup(game, 2, {}, seed) for seed in range(50))
                 if s.data["tiles"][32]["face"] == "open" and not s.data["tiles"][37]["open"])
    d = state.data
    d["tiles"][32].update(open=True, revealed=True)  # C7
    d["players"][1]["pos"] = "C7"
    d["last"] = {"seat": 1, "tiles": []}
    return state, game.view(state, 0), "key-" + d["tiles"][37]["colour"]


def test_castle_samples_the_hand_the_opponent_s_last_turn_suggests():
    """The player before this seat stayed beside a door it could have won through with a key of
    its colour or a Skeleton Key: the sampler seldom deals it one (dealt uniformly, about two hands
    in three would hold one)."""
    from games.castle.sample import sample
    _, view, key = castle_stood_by_a_closed_finish()
    hands = [sample(view, 0, Rng(k)).data["players"][1]["hand"] for k in range(200)]
    could_win = sum(any(c in (key, "skeleton") for c in hand) for hand in hands)
    assert could_win < 0.25 * len(hands), could_win


def test_castle_belief_reads_the_last_step_and_weighs_hands_by_it():
    """The opponent's last action read from the view: its step (from where, to where) or its stay;
    a hand that would have won instead is unlikely, one that had no better step is not; with no
    step seen (this seat's own move to make) there is nothing to weigh."""
    from games.castle.belief import WON, last_step
    state, view, key = castle_stood_by_a_closed_finish()
    belief = last_step(view, 0)
    assert (belief.opponent, belief.step) == (1, "stay")
    assert belief.weight(["padlock", "net", "passage"]) == 1.0
    assert belief.weight(["padlock", key, "passage"]) == WON
    state.data["last"] = {"seat": 1, "tiles": ["C6", "C7"]}
    belief = last_step(games.get("castle").view(state, 0), 0)
    assert (belief.opponent, belief.step) == (1, "move C7")
    state.data["phase"] = "move"
    assert last_step(games.get("castle").view(state, 0), 0) is None


def test_the_castle_evaluation_is_as_sure_as_smart_games_bear_out():
    """Where the Castle evaluation rates a seat above 70%, in smart self-play, that seat goes on
    to win about as often as rated (an evaluation far surer than the games leaves the search
    rollouts that all look decided)."""
    game = games.get("castle")
    evaluate = evaluation("castle").evaluate
    rated = won = count = 0
    for seed in range(30):
        log: list[tuple[int, str, float]] = []
        winners = (play("castle", 2, seed, max_actions=2000, log=log).result or {}).get("winners") or []
        state = setup(game, 2, {}, seed)
        for seat, action, now in log[:-1]:
            state = apply(game, state, seat, action, now).state
            for s in range(2):
                if len(winners) == 1 and (share := evaluate(state, s)) > 0.7:
                    count, rated, won = count + 1, rated + share, won + (winners[0] == s)
    assert count > 300 and abs(rated / count - won / count) < 0.15, (count, rated / count, won / count)


def test_a_rollout_stops_at_its_horizon_and_the_evaluation_scores_it():
    game = games.get("kingdom")
    state, seat = positions("kingdom", 2, seed=3, count=1)[0]
    action = game.prompt(state, seat).choices[0].action
    seen = []

    def fixed(board, who):
        seen.append(board.version - state.version)
        return 0.37
    assert score(game, state, seat, action, seed=1, horizon=Horizon(fixed, 5)) == 0.37
    assert seen == [6]  # the seat's action, then five more


def test_with_many_choices_the_evaluation_picks_the_candidates():
    """Past CANDIDATES choices, those weighed are the ones the evaluation rates best just after
    them (in the sample searched), not a random few."""
    game = games.get("castle")
    horizon = Horizon(evaluation("castle").evaluate, 1)
    state, seat = next((s, seat) for s, seat in positions("castle", 2, seed=2, count=30)
                       if len(game.prompt(s, seat).choices) > 20)
    actions = [c.action for c in game.prompt(state, seat).choices]
    smart = decide(game, state, seat, Rng(1), "smart")
    picked = candidates(game, state, seat, actions, smart, Rng(1), horizon)
    assert len(picked) == CANDIDATES - 1 and smart not in picked
    value = {a: glance(game, state, seat, a, start_time(game, state), horizon) for a in actions}
    left = [a for a in actions if a not in picked and a != smart]
    assert min(value[a] for a in picked) >= max(value[a] for a in left)
    assert len({value[a] for a in actions}) > 2  # the evaluation does tell the plays apart


def test_the_atmosfear_evaluation_counts_spare_keys_and_being_stuck_inside():
    """In a rollout's few turns keys only go: a spare key is worth something (the one a duel
    takes instead of a needed colour), less than a colour; standing inside without every colour
    costs (the only way on is back home)."""
    from games.atmosfear.engine import COLOURS, INNER
    game = games.get("atmosfear")
    state = setup(game, 3, {}, 4)
    d = state.data
    d["well"] = sorted({*d["well"], 0, 1, 2})
    for pl in d["players"]:
        pl["rack"] = list(COLOURS[:3])
    evaluate = evaluation("atmosfear").evaluate
    three = evaluate(state, 0)
    d["players"][0]["rack"] = list(COLOURS[:3]) + [COLOURS[0]]
    spare = evaluate(state, 0)
    d["players"][0]["rack"] = list(COLOURS[:4])
    assert three < spare < evaluate(state, 0)
    d["players"][0]["rack"] = list(COLOURS[:3])
    d["players"][0]["pos"] = INNER[0]
    assert evaluate(state, 0) < three


def test_a_game_s_own_policy_makes_the_base_pick_and_plays_its_seat_in_rollouts():
    """Opted in with `policy`: the pick that stands without a better one is the policy's, and in
    a rollout the policy plays the searching seat alone (the others stay smart)."""
    from games.core.search import rollout
    game = games.get("kingdom")
    state, seat = positions("kingdom", 2, seed=3, count=1)[0]
    asked: list[int] = []

    def last_choice(view, prompt, rng):
        asked.append(prompt.seat)
        return prompt.choices[-1].action

    def broken(view, seat, rng):
        raise KeyError("a detail the view leaves out")
    prompt = game.prompt(state, seat)
    assert Searcher(broken, policy=last_choice)(game, game.view(state, seat), prompt, Rng(9), None,
                                                iterations=3) == prompt.choices[-1].action
    asked.clear()
    board = state.copy()
    rollout(game, board, seed=5, now=start_time(game, board), actions=60, policy=last_choice, own=seat)
    played = board.version - state.version
    assert asked and set(asked) == {seat} and len(asked) < played  # the rival played too, as smart

"""One conformance suite over every registered game: playouts end, states replay exactly and
round-trip through JSON, the public view holds no private keys, and the contract's metadata is
usable by the bot (verbs, colours, seat range)."""
from __future__ import annotations

import json

import pytest

import games
from bot.simulate import play
from bot.table import prompt_sig
from data.locales import DEFAULT, render
from games.core import SYSTEM, Game, IllegalAction, State, ai_rng, apply, decide, replay, setup

PRIVATE_KEYS = {"hand", "rack", "time_cards", "secret", "fear", "fears", "deck", "ghosts"}
NAMES = [g.name for g in games.all_games()]


def private_paths(value, path=""):
    """Every value under a private key, at any depth of a view (counts are public: a deck's
    size is on the table, its order is not)."""
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}"
            if key in PRIVATE_KEYS and item not in (None, [], {}, "") \
                    and not isinstance(item, (int, float)):
                yield here
            else:
                yield from private_paths(item, here)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from private_paths(item, f"{path}[{index}]")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["random", "easy", "smart"])
def test_every_player_count_plays_to_the_end_and_replays(name, level):
    game = games.get(name)
    for seats in range(game.min_seats, game.max_seats + 1):
        log: list[tuple[int, str, float]] = []
        state = play(name, seats, seed=40 + seats, level=level, log=log)
        assert state.over, f"{name} with {seats} seats did not end"
        assert replay(game, seats, {}, 40 + seats, log).to_json() == state.to_json()
        assert State.from_json(state.to_json()) == state


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["random", "smart"])
def test_the_ai_reads_a_part_of_its_seat_view(name, level):
    """`ai_view` may leave keys out of the seat's view, never add or change one; or, in a game
    whose AI reads a compact form of the view (`ai_view_from_view` works it out from the whole
    seat view), it is exactly that form, so it holds nothing the seat may not see."""
    game = games.get(name)
    from_view = game.hook("ai_view_from_view")
    for seats in (game.min_seats, game.max_seats):
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed=90 + seats, level=level, max_actions=300, log=log)
        state = setup(game, seats, {}, 90 + seats)
        for seat, action, now in log:
            if seat != SYSTEM:
                prompt = game.prompt(state, seat)
                part, whole = game.ai_view(state, seat, level, prompt), game.view(state, seat)
                if from_view is None:
                    assert part == {key: whole[key] for key in part}, (seats, action)
                else:
                    assert part == from_view(whole, seat, level, prompt), (seats, action)
            state = apply(game, state, seat, action, now).state


@pytest.mark.parametrize("name", NAMES)
def test_next_timer_is_the_earliest_listed_timer(name):
    """Self-play fires `next_timer`: the earliest of `timers`, the first listed among equals,
    once `next_due` says it is due."""
    game = games.get(name)
    listed = 0
    for seats in (game.min_seats, game.max_seats):
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed=80 + seats, level="random", log=log)
        state = setup(game, seats, {}, 80 + seats)
        for seat, action, now in log:
            timers = game.timers(state)
            expected = min(timers, key=lambda t: t["due"]) if timers else None
            assert game.next_timer(state) == expected, (seats, action)
            assert game.next_due(state) == (expected["due"] if expected else None), (seats, action)
            listed += bool(timers)
            state = apply(game, state, seat, action, now).state
    if type(game).timers is not Game.timers:  # a game with timers: the check saw some listed
        assert listed


@pytest.mark.parametrize("name", [g.name for g in games.all_games() if g.to_move_acts_first])
@pytest.mark.parametrize("level", ["random", "smart"])
def test_to_move_is_the_first_prompted_seat_where_a_game_says_so(name, level):
    """Self-play asks only `to_move`'s seat of these games: it must be the one a scan finds."""
    game = games.get(name)
    for seats in (game.min_seats, game.max_seats):
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed=70 + seats, level=level, log=log)
        state = setup(game, seats, {}, 70 + seats)
        for seat, action, now in log:
            first = next((s for s in range(seats) if game.prompt(state, s) is not None), None)
            hinted = game.to_move(state)
            if hinted is not None and game.prompt(state, hinted) is None:
                hinted = None
            assert first == hinted, (seats, action)
            state = apply(game, state, seat, action, now).state


@pytest.mark.parametrize("name", NAMES)
def test_public_views_hold_no_private_keys(name):
    game = games.get(name)
    for seats in (game.min_seats, game.max_seats):
        for moves in (0, 7, 40, 120):
            state = play(name, seats, seed=seats * 1000 + moves, max_actions=moves)
            public = game.view(state, None)
            assert list(private_paths(public)) == []
            text = json.dumps(public)
            for seat in range(seats):  # nobody's private text is copied into the public view
                for line in render(DEFAULT, game.private_text(state, seat)).splitlines():
                    assert len(line) < 25 or line not in text, line
            json.dumps(public)  # views travel to the render process: JSON-native
            for seat in range(seats):
                assert game.view(state, seat)["game"] == public["game"]


@pytest.mark.parametrize("name", NAMES)
def test_metadata_the_bot_relies_on(name):
    game = games.get(name)
    assert 1 <= game.min_seats <= game.max_seats <= len(game.colours) == len(game.colour_rgb)
    assert game.verbs and all(" " not in verb for verb in game.verbs)
    assert len(game.verbs) <= 25  # Discord: at most 25 subcommands in a command group
    assert all(values for values in game.option_choices.values())


@pytest.mark.parametrize("name", NAMES)
def test_private_events_stay_private(name):
    """An event for some seats never also goes out publicly with the same words."""
    game = games.get(name)
    for seats in (game.min_seats, game.max_seats):
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed=77 + seats, max_actions=300, log=log)
        state = setup(game, seats, {}, 77 + seats)
        for seat, action, now in log:
            outcome = apply(game, state, seat, action, now)
            state = outcome.state
            public = {render(DEFAULT, e.text) for e in outcome.events if e.to is None}
            for event in outcome.events:
                if event.to is not None:
                    assert all(0 <= s < seats for s in event.to)
                    assert render(DEFAULT, event.text) not in public, event.text


@pytest.mark.parametrize("name", NAMES)
def test_an_unchanged_prompt_stays_playable_after_another_seat_moves(name):
    """The platform keeps one token per seat and bumps it only when that seat's prompt changes:
    so when seat A moves and seat B's prompt is unchanged, B's pending answer must still be legal
    (simultaneous answers all land)."""
    game = games.get(name)
    checked = simultaneous = 0
    for seats in range(game.min_seats, game.max_seats + 1):
        log: list[tuple[int, str, float]] = []
        play(name, seats, seed=500 + seats, max_actions=400, log=log)
        state = setup(game, seats, {}, 500 + seats)
        for seat, action, now in log:
            waiting = [s for s in range(seats) if s != seat and game.prompt(state, s) is not None]
            simultaneous += bool(waiting) and game.prompt(state, seat) is not None
            before = {s: prompt_sig(game.prompt(state, s)) for s in waiting}
            answers = {s: decide(game, state, s, ai_rng(s, state.version)) for s in waiting}
            state = apply(game, state, seat, action, now).state
            for other in waiting:
                if prompt_sig(game.prompt(state, other)) == before[other] and not state.over:
                    try:
                        apply(game, state, other, answers[other], now)
                    except IllegalAction as exc:
                        pytest.fail(f"{name}: seat {other}'s unchanged prompt refused "
                                    f"{answers[other]!r} after seat {seat} played {action!r}: {exc}")
                    checked += 1
    assert (checked > 0) == (simultaneous > 0)  # every game that offers them is checked


@pytest.mark.parametrize("name", NAMES)
def test_long_names_fit_on_the_board(name):
    """Discord display names run to 32 characters: the board keeps its size and draws them."""
    from io import BytesIO

    from PIL import Image

    from bot.rendering import draw
    game = games.get(name)
    state = play(name, game.max_seats, seed=9, max_actions=30)
    view = game.view(state, None)
    sizes = []
    for names in (["Al", "Bo", "Cy", "Di", "Ed", "Fy"], ["W" * 32] * 6):
        png = draw({**view, "names": names[:game.max_seats]})
        sizes.append(Image.open(BytesIO(png)).size)
    assert sizes[0] == sizes[1]

"""One conformance suite over every registered game: playouts end, states replay exactly and
round-trip through JSON, the public view holds no private keys, and the contract's metadata is
usable by the bot (verbs, colours, seat range)."""
from __future__ import annotations

import json

import pytest

import games
from bot.simulate import play
from games.core import State, replay

PRIVATE_KEYS = {"hand", "rack", "time_cards", "secret"}
NAMES = [g.name for g in games.all_games()]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["random", "smart"])
def test_every_player_count_plays_to_the_end_and_replays(name, level):
    game = games.get(name)
    for seats in range(game.min_seats, game.max_seats + 1):
        log: list[tuple[int, str, float]] = []
        state = play(name, seats, seed=40 + seats, level=level, log=log)
        assert state.over, f"{name} with {seats} seats did not end"
        assert replay(game, seats, {}, 40 + seats, log).to_json() == state.to_json()
        assert State.from_json(state.to_json()) == state


@pytest.mark.parametrize("name", NAMES)
def test_public_views_hold_no_private_keys(name):
    game = games.get(name)
    for seats in (game.min_seats, game.max_seats):
        for moves in (0, 7, 40, 120):
            state = play(name, seats, seed=seats * 1000 + moves, max_actions=moves)
            public = game.view(state, None)
            leaked = {k for k in PRIVATE_KEYS if public.get(k) is not None}
            assert not leaked, sorted(leaked)
            json.dumps(public)  # views travel to the render process: JSON-native
            for seat in range(seats):
                assert game.view(state, seat)["game"] == public["game"]


@pytest.mark.parametrize("name", NAMES)
def test_metadata_the_bot_relies_on(name):
    game = games.get(name)
    assert 1 <= game.min_seats <= game.max_seats <= len(game.colours) == len(game.colour_rgb)
    assert game.verbs and all(" " not in verb for verb in game.verbs)
    assert all(values for values in game.option_choices.values())

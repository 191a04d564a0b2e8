"""The Kingdom bounds benchmark (bench/kingdom_bounds.py) tells smart exactly the hidden fact it names."""
from __future__ import annotations

import games
from bench.kingdom_bounds import main, told
from games.core import advance, setup


def a_game_with_the_key_held(holder: int):
    game = games.get("kingdom")
    state = setup(game, 2, {}, 3)
    d = state.data
    key_at = next(loc for loc, tid in d["locations"].items() if tid == "key")
    d["players"][holder]["hand"].append("key")
    d["locations"][key_at] = None
    return game, state


def test_holder_is_told_as_the_one_seen_taking_the_key():
    game, state = a_game_with_the_key_held(holder=1)
    prompt = game.prompt(state, 0)
    assert told(state, 0, prompt, "holder")["knows"] == {"key": 1}
    assert told(state, 0, prompt, "none")["knows"] == {"key": None}
    assert told(state, 1, game.prompt(state, 0), "holder")["knows"] == {"key": None}  # its own Key


def test_route_shows_the_key_s_location_as_the_only_full_one_for_moves():
    game = games.get("kingdom")
    state = setup(game, 2, {}, 3)
    key_at = next(loc for loc, tid in state.data["locations"].items() if tid == "key")
    advance(game, state, 0, "roll", 0.0)
    while state.data["phase"] == "demon":
        advance(game, state, 0, game.prompt(state, 0).choices[0].action, 0.0)
    prompt = game.prompt(state, 0)
    assert prompt.choices[0].action.startswith("move ")
    assert told(state, 0, prompt, "route")["locations"] == {loc: loc == key_at for loc in state.data["locations"]}
    assert all(told(state, 0, prompt, "none")["locations"].values())


def test_it_prints_a_row_per_mode(capsys):
    main(["--games", "2", "--seed", "5", "--modes", "none,both"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].startswith("| none | 2 | ") and rows[3].startswith("| both | 2 | ")

"""AI levels: easy loses clearly to smart in every game, each level reaches its policy through
`Game.ai_action`, and "hard" goes to a game's `searcher` with the seat's whole view."""
from __future__ import annotations

import pytest

import games
from bot.simulate import play, simulate
from games.core import SYSTEM, Rng, apply, decide, setup

# Games per two-player match-up: enough that these seeds hold the margin, few enough for a test.
MATCHES = {"castle": 100, "kingdom": 150, "firetop": 60, "dontgo": 200}


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_smart_wins_at_least_65_percent_against_easy(name):
    """Players rotate through the seats, so neither level keeps the first seat's advantage."""
    count = MATCHES[name]
    summary = simulate(name, count, seed=1, levels=["smart", "easy"])
    assert not summary["errors"]
    wins = summary["wins_by_player"]
    assert wins.get(0, 0) >= 0.65 * count, wins


def test_atmosfear_smart_wins_half_again_each_easy_players_share():
    """Atmosfear seats three: smart's wins are at least 1.5 times each easy player's."""
    summary = simulate("atmosfear", 150, seed=1, levels=["smart", "easy", "easy"])
    assert not summary["errors"]
    wins = summary["wins_by_player"]
    assert wins.get(0, 0) >= 1.5 * max(wins.get(1, 0), wins.get(2, 0)), wins


@pytest.mark.parametrize("name", [g.name for g in games.all_games()])
def test_easy_is_the_games_own_policy_and_plays_differently_from_smart(name):
    """Every built-in game names an easy policy, and over a game's decisions it does not
    always choose what smart would."""
    game = games.get(name)
    assert game.easy == f"games.{name}.easy:choose"
    log: list = []
    play(name, 3 if name == "atmosfear" else 2, 7, "easy", max_actions=400, log=log)
    state = setup(game, 3 if name == "atmosfear" else 2, {}, 7)
    differs = 0
    for seat, action, now in log:
        if seat != SYSTEM and game.prompt(state, seat) is not None:
            differs += decide(game, state, seat, Rng(5), "easy") != decide(game, state, seat, Rng(5), "smart")
        state = apply(game, state, seat, action, now).state
    assert differs > 0


def test_hard_goes_to_the_searcher_with_the_seats_whole_view(monkeypatch):
    game = games.get("castle")
    state = setup(game, 2, {}, 3)
    seat = game.to_move(state)
    asked = []

    def search(game_, view, prompt, rng, budget_s):
        asked.append((game_, view, prompt, budget_s))
        return prompt.choices[-1].action

    monkeypatch.setattr("games.core.contract._PARTS", {"tests.fake:search": search})
    monkeypatch.setattr(type(game), "searcher", "tests.fake:search")
    action = decide(game, state, seat, Rng(1), "hard")
    (got_game, view, prompt, budget), = asked
    assert got_game is game and view == game.view(state, seat) and budget == 0.2
    assert action == prompt.choices[-1].action


def test_without_a_searcher_hard_plays_smart(monkeypatch):
    """A game (a plugin, say) that brings no search: its hard seats play smart."""
    game = games.get("castle")
    monkeypatch.setattr(type(game), "searcher", None)
    state = setup(game, 2, {}, 3)
    seat = game.to_move(state)
    assert decide(game, state, seat, Rng(4), "hard") == decide(game, state, seat, Rng(4), "smart")


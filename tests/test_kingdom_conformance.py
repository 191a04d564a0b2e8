"""The conformance suite for Key to the Kingdom, run with the game registered by hand (it is not
advertised as an entry point until it is finished)."""
from __future__ import annotations

import pytest

import games
from games.kingdom import GAME
from tests import test_conformance as conformance


@pytest.fixture(autouse=True)
def kingdom(monkeypatch):
    monkeypatch.setitem(games.registry(), "kingdom", GAME)
    yield GAME


@pytest.mark.parametrize("level", ["random", "smart"])
def test_every_player_count_plays_to_the_end_and_replays(level):
    conformance.test_every_player_count_plays_to_the_end_and_replays("kingdom", level)


def test_public_views_hold_no_private_keys():
    conformance.test_public_views_hold_no_private_keys("kingdom")


def test_metadata_the_bot_relies_on():
    conformance.test_metadata_the_bot_relies_on("kingdom")


def test_private_events_stay_private():
    conformance.test_private_events_stay_private("kingdom")


def test_an_unchanged_prompt_stays_playable_after_another_seat_moves():
    conformance.test_an_unchanged_prompt_stays_playable_after_another_seat_moves("kingdom")


def test_long_names_fit_on_the_board():
    conformance.test_long_names_fit_on_the_board("kingdom")


def test_simultaneous_fold_answers_all_land():
    """The suite's check on seeds that do reach folds with several adventurers to answer at once:
    when one answers, another's unchanged prompt still accepts the answer it had chosen."""
    from bot.table import prompt_sig
    from games.core import IllegalAction, ai_rng, apply, decide, setup

    checked = 0
    for seed in range(40):
        state = setup(GAME, 4, {}, seed)
        for _ in range(1500):
            if state.over or checked >= 12:
                break
            waiting = [s for s in range(4) if GAME.prompt(state, s) is not None]
            seat = waiting[0]
            action = decide(GAME, state, seat, ai_rng(seed, state.version))
            others = waiting[1:]
            before = {s: prompt_sig(GAME.prompt(state, s)) for s in others}
            answers = {s: decide(GAME, state, s, ai_rng(s, state.version)) for s in others}
            state = apply(GAME, state, seat, action).state
            for other in others:
                if not state.over and prompt_sig(GAME.prompt(state, other)) == before[other]:
                    try:
                        apply(GAME, state, other, answers[other])
                    except IllegalAction as exc:  # pragma: no cover - the failure is the message
                        pytest.fail(f"seat {other}'s unchanged prompt refused {answers[other]!r}: {exc}")
                    checked += 1
    assert checked >= 5

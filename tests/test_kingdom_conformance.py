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

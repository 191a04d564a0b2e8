"""The conformance suite (tests/test_conformance.py) run for The Warlock of Firetop Mountain, which
is not yet advertised as an entry point: it is registered here for the duration of each test."""
from __future__ import annotations

import pytest

import games
from games.firetop import GAME
from tests import test_conformance as conformance


@pytest.fixture(autouse=True)
def firetop(monkeypatch):
    monkeypatch.setitem(games.registry(), "firetop", GAME)


@pytest.mark.parametrize("level", ["random", "smart"])
def test_every_player_count_plays_to_the_end_and_replays(level):
    conformance.test_every_player_count_plays_to_the_end_and_replays("firetop", level)


def test_public_views_hold_no_private_keys():
    conformance.test_public_views_hold_no_private_keys("firetop")


def test_metadata_the_bot_relies_on():
    conformance.test_metadata_the_bot_relies_on("firetop")
    assert len(GAME.verbs) <= 25  # Discord: at most 25 subcommands in a command group


def test_private_events_stay_private():
    conformance.test_private_events_stay_private("firetop")


def test_an_unchanged_prompt_stays_playable_after_another_seat_moves():
    conformance.test_an_unchanged_prompt_stays_playable_after_another_seat_moves("firetop")


def test_long_names_fit_on_the_board():
    conformance.test_long_names_fit_on_the_board("firetop")

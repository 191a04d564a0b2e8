"""Don't Go In There games saved in an older state format load after the upgrades."""
from __future__ import annotations

from pathlib import Path

from games.dontgo import GAME
from tests.rules_helpers import saved_and_upgraded

# A finished 3-player game saved by the format-1 engine (score rows without the seat bonus).
SAVED = Path(__file__).parent / "data" / "dontgo-state-format1.json"


def test_a_finished_format_1_game_upgrades_and_shows_its_scores():
    raw, state = saved_and_upgraded(GAME, SAVED)
    old_rows = raw["data"]["scores"]
    assert state.data["scores"] == [{**r, "bonus": 0} for r in old_rows]  # no bonus back then
    assert all(r["total"] == r["curses"] + r["penalty"] for r in state.data["scores"])
    view = GAME.view(state, None)
    assert view["phase"] == "over" and [r["bonus"] for r in view["scores"]] == [0, 0, 0]
    # a game still running has no scores to upgrade
    running = {**raw["data"], "scores": None}
    assert GAME.upgrades[1](running) == running

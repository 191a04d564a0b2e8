"""Helpers shared by the per-game rule tests: apply an action, or check it is refused cleanly."""
from __future__ import annotations

import pytest

from games.core import Game, IllegalAction, State, apply


def act(game: Game, st: State, seat: int, action: str, now: float = 0.0):
    out = apply(game, st, seat, action, now)
    return out.state, out.events


def refused(game: Game, st: State, seat: int, action: str, *fragments: str, now: float = 0.0) -> str:
    """The action raises IllegalAction, leaves the state untouched, and its reason says each fragment."""
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(game, st, seat, action, now)
    assert st.to_json() == before
    for fragment in fragments:
        assert fragment.lower() in err.value.reason.lower(), err.value.reason
    return err.value.reason

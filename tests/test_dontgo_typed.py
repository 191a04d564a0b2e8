"""Typed moves: however a legal action is mangled, `apply` either accepts it or refuses it clearly."""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from games.core import IllegalAction, State, ai_rng, apply, decide, setup
from games.dontgo import GAME

from tests import rules_helpers

# Digits from other scripts and styles: each maps "0".."9" to its look-alike.
LOOKALIKES = ["⁰¹²³⁴⁵⁶⁷⁸⁹", "０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९",
              "₀₁₂₃₄₅₆₇₈₉", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"]
JUNK = ["\u200b", "\u00a0", "\u202e", "\ufeff", "\x00", "👻", "é", "İ", "ß", "\t", "\n", ",", "-", "½"]


@lru_cache(maxsize=None)
def positions() -> tuple[str, ...]:
    """Saved states from seeded random games, one for each decision the game asks for, as JSON."""
    found: dict[str, str] = {}
    for seats in range(2, 6):
        for seed in range(12):
            state = setup(GAME, seats, None, seed)
            while True:
                d = state.data
                found.setdefault(d["phase"] + "".join(p["kind"] for p in d["pending"][:1]), state.to_json())
                if state.over:
                    break
                seat = GAME.to_move(state)
                state = apply(GAME, state, seat, decide(GAME, state, seat, ai_rng(seed, state.version),
                                                        "random")).state
    return tuple(found[k] for k in sorted(found))


def test_positions_cover_every_decision():
    phases = {State.from_json(s).data["phase"] for s in positions()}
    assert {"place", "reroll", "change", "pick", "choose", "over"} <= phases


@st_.composite
def mangled(draw) -> tuple[State, int, str]:
    """A saved position, the seat to move, and one of its legal actions put through some damage."""
    state = State.from_json(draw(st_.sampled_from(positions())))
    seat = GAME.to_move(state)
    prompt = GAME.prompt(state, seat) if seat is not None else None
    action = draw(st_.sampled_from([c.action for c in prompt.choices])) if prompt else "place attic 1"
    for _ in range(draw(st_.integers(1, 4))):
        how = draw(st_.sampled_from(["digits", "spaces", "case", "cut", "junk", "huge", "drop"]))
        if how == "digits":
            style = draw(st_.sampled_from(LOOKALIKES))
            action = "".join(style[int(ch)] if ch.isascii() and ch.isdigit() else ch for ch in action)
        elif how == "spaces":
            action = draw(st_.sampled_from(["  ", " \t ", "\u3000", ""])).join(action.split(" "))
        elif how == "case":
            action = "".join(ch.upper() if draw(st_.booleans()) else ch for ch in action)
        elif how == "cut":
            action = action[:draw(st_.integers(0, len(action)))]
        elif how == "junk":
            at = draw(st_.integers(0, len(action)))
            action = action[:at] + draw(st_.sampled_from(JUNK) | st_.text(max_size=3)) + action[at:]
        elif how == "huge":
            big = draw(st_.sampled_from(["9" * 5000, str(2**64), "-1", "1e9", "0x10", "1.0", "00002"]))
            action = " ".join(big if w.isdigit() else w for w in action.split(" "))
        else:
            words = action.split(" ")
            del words[draw(st_.integers(0, len(words) - 1))]
            action = " ".join(words)
    return state, seat if seat is not None else 0, action


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mangled())
def test_mangled_typed_moves_are_accepted_or_clearly_refused(case):
    state, seat, action = case
    before = state.to_json()
    try:
        apply(GAME, state, seat, action)
    except IllegalAction as err:
        assert err.reason.strip() and len(err.reason) < 400
    assert state.to_json() == before


@pytest.mark.parametrize("action", ["place attic ²", "place attic ２", "place attic ٣", "pick ¹",
                                    "change ³ to 0", "dispel ١٧", "place attic " + "9" * 5000])
def test_non_ascii_and_huge_numbers_are_refused_not_crashed(action):
    state = next(s for s in map(State.from_json, positions()) if s.data["phase"] == "place")
    reason = rules_helpers.refused(GAME, state, GAME.to_move(state), action)
    assert "9999" not in reason

"""Typed Atmosfear moves, however mangled, are applied or refused with a reason; never a crash."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from bot.simulate import play
from games.atmosfear import GAME
from games.core import SYSTEM, IllegalAction, State, apply, setup

# Digits a phone keyboard or a copy-paste may produce instead of 0-9.
LOOKALIKES = {str(d): [chr(0x2070 + d) if d not in (1, 2, 3) else "¹²³"[d - 1],  # superscript
                       chr(0xFF10 + d),  # fullwidth
                       chr(0x0660 + d),  # Arabic-Indic
                       chr(0x2080 + d)]  # subscript
              for d in range(10)}
JUNK = ["\u200b", "\u00a0", "\ufeff", "\u0301", "🗝️", "\x00", "\t", "ß", "İ", "\U0001F600", "\u202e"]
EXTRA = ["fear", "roll", "duel", "pass", "fly", "try", "yes", "time", "gk", "clock", "pause", "resume"]


@lru_cache(maxsize=1)
def positions() -> list[tuple[State, list[str]]]:
    """Snapshots of real games (every step kind, the Gatekeeper calling) with their legal moves."""
    out = []
    for seats, seed, level in ((3, 1, "smart"), (4, 2, "random"), (6, 3, "smart"), (5, 4, "random")):
        log: list[tuple[int, str, float]] = []
        play("atmosfear", seats, seed, level, max_actions=400, log=log)
        state = setup(GAME, seats, None, seed)
        for index, (seat, action, now) in enumerate(log):
            if index % 7 == 0:
                legal = [c.action for s in range(seats) for c in getattr(GAME.prompt(state, s), "choices", [])]
                out.append((state, legal + EXTRA + [f"{v} 3" for v in EXTRA]))
            state = apply(GAME, state, seat, action, now).state
    return out


@st_.composite
def mangled(draw) -> tuple[State, int, str]:
    state, actions = draw(st_.sampled_from(positions()))
    text = draw(st_.sampled_from(actions))
    for _ in range(draw(st_.integers(1, 4))):
        how = draw(st_.sampled_from(["digits", "spaces", "case", "cut", "junk", "huge", "seat"]))
        if how == "digits":
            text = "".join(draw(st_.sampled_from(LOOKALIKES[c])) if c in LOOKALIKES else c for c in text)
        elif how == "spaces":
            text = draw(st_.sampled_from(["  ", " ", "\u3000"])).join(text.split(" ")) + " " * draw(st_.integers(0, 3))
        elif how == "case":
            text = draw(st_.sampled_from([str.upper, str.title, str.swapcase, str.casefold]))(text)
        elif how == "cut":
            text = text[:draw(st_.integers(0, max(0, len(text) - 1)))]
        elif how == "junk":
            at = draw(st_.integers(0, len(text)))
            text = text[:at] + draw(st_.sampled_from(JUNK) | st_.text(max_size=3)) + text[at:]
        elif how == "huge":
            text = text.split(" ")[0] + " " + draw(st_.sampled_from(["9" * 5000, "-1", "0", "1e9", "10**9",
                                                                    str(2**70), "٣٣٣", "+2", "02"]))
        else:
            text = text + " " + draw(st_.sampled_from(["khufu", "O30", "o8", "I0", "WELL", "R1-1", "7"]))
    seat = draw(st_.sampled_from([SYSTEM] + list(range(state.seats)) + [state.seats]))
    return state, seat, text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mangled())
def test_mangled_typed_moves_are_applied_or_refused_with_a_reason(case):
    state, seat, text = case
    before = state.to_json()
    try:
        apply(GAME, state, seat, text, 1_700_000_000.0 + 60)
    except IllegalAction as exc:
        assert exc.reason and "{" not in exc.reason and len(exc.reason) < 600, exc.reason
    assert state.to_json() == before


def test_lookalike_digits_are_refused_not_read_as_other_seats():
    checked = 0
    for state, actions in positions():
        for action in actions:
            if action.startswith(("duel ", "pass ")) and action[-1].isdigit():
                checked += action not in ("duel 3", "pass 3")  # the extras every position has
                seat = GAME.to_move(state)
                seat = state.data["current"] if seat is None else seat
                for look in LOOKALIKES[action[-1]]:
                    try:
                        apply(GAME, state, seat, action[:-1] + look, 1_700_000_060.0)
                    except IllegalAction:
                        continue
                    raise AssertionError(f"{action[:-1] + look!r} was accepted")
    assert checked >= 3


def test_a_typed_fear_loses_invisible_characters_and_placeholders():
    state = play("atmosfear", 3, 1, max_actions=0)
    out = apply(GAME, state, 0, "fear \u202espiders\u200b in {p1} my\x00 bed\ufeff", 1.0)
    assert out.state.data["fears"][0] == "spiders in (p1) my bed"
    try:
        apply(GAME, state, 0, "fear \u200b\u202e\x00", 1.0)
    except IllegalAction as exc:
        assert "Write your fear" in exc.reason
    else:
        raise AssertionError("an invisible fear was accepted")

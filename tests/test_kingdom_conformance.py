"""Key to the Kingdom beyond the shared conformance suite (tests/test_conformance.py runs it for
every registered game): its simultaneous answers only arise in folds, which the suite's seeds
rarely reach, so they are sought out here."""
from __future__ import annotations

import pytest

from games.kingdom import GAME


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
                    except IllegalAction as exc:
                        pytest.fail(f"seat {other}'s unchanged prompt refused {answers[other]!r}: {exc}")
                    checked += 1
    assert checked >= 5

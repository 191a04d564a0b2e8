"""The Gatekeeper's lines: short, well formed, and never the same line twice in a game."""
from __future__ import annotations

import re

import pytest

from data.locales import LANGUAGES, catalog, render
from games.atmosfear import GAME
from games.atmosfear.engine import DICE_WORDS, LINES, ORDERS, PUNISHMENTS, RULES, TAUNTS
from games.core import Rng, apply, decide, setup

LONG_NAME = "Elizabeth Bathory the Second"  # longer than any Harbinger's name


def spoken(seats: int, seed: int, minutes: int, sleepy: int | None) -> list[str]:
    """Everything he says in one AI game on a simulated clock; `sleepy` never answers him."""
    state = setup(GAME, seats, {"minutes": minutes}, seed)
    rng, now, said = Rng(seed), 1000.0, []
    while not state.over:
        due = [t for t in GAME.timers(state) if t["due"] <= now]
        seat = next((s for s in range(seats) if GAME.prompt(state, s) is not None and s != sleepy
                     or s == sleepy and state.data["gk"]["calling"] is None
                     and GAME.prompt(state, s) is not None), None)
        if due:
            seat, action = due[0]["seat"], due[0]["action"]
        elif seat is None:
            now = min(t["due"] for t in GAME.timers(state))
            continue
        else:
            action = decide(GAME, state, seat, rng, "smart")
            now += 4.0
        out = apply(GAME, state, seat, action, now)
        state = out.state
        said += [render("en", e.text) for e in out.events if e.kind == "gatekeeper"]
    return said


def template(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\{p\d\}", "{name}", text))


@pytest.mark.parametrize("seats,seed,sleepy", [(3, 1, None), (4, 2, 0), (5, 3, None), (6, 4, 2), (4, 7, 1)])
def test_no_line_repeats_in_a_60_minute_game(seats, seed, sleepy):
    said = spoken(seats, seed, 60, sleepy)
    assert len(said) > 10
    repeated = {t for t in map(template, said) if list(map(template, said)).count(t) > 1}
    assert not repeated


def test_every_line_reads_at_a_glance():
    for lang in LANGUAGES:
        both = render(lang, DICE_WORDS[2])
        for group, ids in LINES.items():
            lines = [catalog(lang).gettext(id) for id in ids]
            assert len(lines) == len(set(lines)) and len(lines) < 64, group  # gk.said is a bit mask
            for line in lines:
                filled = line.replace("{name}", LONG_NAME).replace("{minutes}", "60").replace(
                    "{number}", "6").replace("{dice}", both)
                assert len(filled) <= 140, line
                assert set(re.findall(r"{(\w*)}", line)) <= {"name", "minutes", "number", "dice"}, line


def test_enough_lines_for_every_visit_in_an_hour():
    """He comes at most once per shortest gap plus his shortest stay: answered and leave lines
    must outnumber the most visits a 60-minute game can hold."""
    most = 1 + (60 * 60 - RULES["gk_first_gap"][0]) // (RULES["gk_gap"][0] + RULES["gk_leave_seconds"])
    assert len(LINES["leave"]) >= most and len(LINES["answered"]) >= most
    assert all(LINES[o] for o in ORDERS if o != "taunt") and all(LINES[t] for t in TAUNTS)
    assert all(LINES["punish_" + p["kind"]] for p in PUNISHMENTS)

"""`gatekeeper bench --engine-only`: self-play speed per game and AI level, written into the
report's engine section and nowhere else."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import games
from bot.bench.run import GAMES, main

REPORT = """# Performance

Produced by `gatekeeper bench` on a machine.

## Engine (smart AI self-play, every player count in turn)

| game | games | games/s | turns/s |
| --- | --- | --- | --- |
| castle | 200 | 74.5 | 2579 |

Before and after: a comparison written by hand from its own runs.

| game | before | after |
| --- | --- | --- |
| castle | 17.3 | 176.6 |

What is left: a paragraph.

## Board render + PNG encode

| game | variant | p50 ms |
| castle | cached | 5.87 |
"""


def test_engine_only_rewrites_just_the_engine_section(tmp_path):
    out = tmp_path / "performance.md"
    out.write_text(REPORT)
    assert main("smoke", out=out, engine_only=True) == 0
    text = out.read_text()
    before, engine = text.split("## Engine", 1)
    engine, after = engine.split("## Board render", 1)
    assert before == REPORT.split("## Engine")[0]
    assert after == REPORT.split("## Board render")[1]
    rows = re.findall(r"^\| (\w+) \| (\w+) \| 1 \| ([\d.]+) \| (\d+) \|$", engine, re.M)
    expected = [(name, level) for name in GAMES for level in games.get(name).ai_levels]
    assert [(name, level) for name, level, _, _ in rows] == expected
    assert all(float(rate) > 0 and int(turns) > 0 for _, _, rate, turns in rows)
    assert "gatekeeper bench --engine-only --smoke" in engine
    assert "| castle | 200 | 74.5 |" not in text
    history = REPORT.split("| castle | 200 | 74.5 | 2579 |\n\n")[1].split("\n## Board render")[0]
    assert engine.endswith("\n" + history + "\n"), "the comparison under the table is kept as it was"



def test_speedup_compares_two_trees_run_by_run():
    """bench/speedup.py runs self-play against each tree in turn (here the same tree twice) and
    reports medians of the games per second and of the per-run ratios."""
    from bot.bench.speedup import compare
    root = Path(__file__).resolve().parent.parent
    r = compare(root, root, "dontgo", "random", 4, runs=2)
    assert (r["game"], r["level"], r["games"], r["runs"]) == ("dontgo", "random", 4, 2)
    assert r["before"] > 0 and r["after"] > 0
    assert r["lowest"] <= r["speedup"] <= r["highest"]


def test_speedup_refuses_a_path_that_is_not_a_source_tree(tmp_path):
    """A mistyped tree would put nothing on PYTHONPATH and measure the installed games instead:
    it is refused, before any run."""
    from bot.bench.speedup import compare, main
    root = Path(__file__).resolve().parent.parent
    with pytest.raises(ValueError, match="no games/__init__.py"):
        compare(tmp_path / "before-dontgo", root, "dontgo", "random", 4, runs=1)
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path), str(root), "dontgo", "random", "4"])
    assert exit_.value.code == 2


"""The hard AI's benchmark (bench/ai_levels.py) runs and writes its section of the report."""
from __future__ import annotations

import re

import pytest

import bench.ai_levels
from bench.ai_levels import interval, main, strength
from games.core import State


def test_the_benchmark_writes_its_section(tmp_path, capsys):
    out = tmp_path / "perf.md"
    main(["dontgo", "--games", "2", "--iterations", "1", "--decisions", "3", "--out", str(out)])
    bought = re.search(r"dontgo: a 0.2 s decision searched (\d+) samples \(median\), (\d+) at the least, "
                       r"at (\d+) positions", capsys.readouterr().out)
    assert bought and int(bought[1]) >= int(bought[2]) >= 1 and 1 <= int(bought[3]) <= 3
    text = out.read_text()
    assert "<!-- bench:ai-hard -->" in text and "## The hard AI" in text
    assert "Budget, p95 <= 200 ms, every game: " in text
    row = next(line for line in text.splitlines() if line.startswith("| dontgo |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1:4] == ["2", "2", "1"] and cells[6] == "3"
    main(["castle", "--games", "1", "--iterations", "1", "--decisions", "2", "--out", str(out)])
    rows = [line for line in out.read_text().splitlines() if line.startswith(("| castle |", "| dontgo |"))]
    assert len(rows) == 2 and rows[1] == row  # the other game's row is kept
    main(["castle", "--games", "0", "--decisions", "2", "--out", str(out)])
    castle = next(line for line in out.read_text().splitlines() if line.startswith("| castle |"))
    assert [cell.strip() for cell in castle.strip("|").split("|")][2:7] == ["0", "-", "-", "-", "2"]


def test_players_rotate_through_the_seats(monkeypatch):
    """Were seat 0 to win every game, the players would share the wins: each sits there in turn."""
    def seat_zero_wins(game, seats, seed, choose):
        return State(game.name, seats, seed, {}, 0, over=True, result={"winners": [0]})
    monkeypatch.setattr(bench.ai_levels, "self_play", seat_zero_wins)
    assert strength("dontgo", 4, seed=7, iterations=0) == [2.0, 2.0]
    assert strength("atmosfear", 6, seed=7, iterations=0) == [2.0, 2.0, 2.0]


def test_hard_s_share_comes_with_its_95_percent_interval(tmp_path):
    """60% of 400 games tells hard from an even match; 60% of 20 does not."""
    assert interval(240, 400) == pytest.approx((0.551, 0.647), abs=0.001)
    low, high = interval(12, 20)
    assert low < 0.5 < high
    out = tmp_path / "perf.md"
    main(["dontgo", "--games", "2", "--iterations", "1", "--decisions", "1", "--out", str(out)])
    row = next(line for line in out.read_text().splitlines() if line.startswith("| dontgo |"))
    assert re.fullmatch(r"\d+% \(\d+%-\d+%\)", row.strip("|").split("|")[4].strip()), row


def test_decisions_0_measures_strength_without_timing(tmp_path):
    """The strength runs replay from the seed with `--decisions 0`: no worker is started."""
    out = tmp_path / "perf.md"
    main(["dontgo", "--games", "2", "--iterations", "1", "--decisions", "0", "--out", str(out)])
    row = next(line for line in out.read_text().splitlines() if line.startswith("| dontgo |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1:4] == ["2", "2", "1"] and cells[6] == "0"

"""`gatekeeper bench`: every benchmark writes its own marked section of the report and nothing
else, and finds the games by discovery, a plugin's included."""
from __future__ import annotations

import re
import time
from pathlib import Path

import psycopg
import pytest

import games
from bench.delayproxy import DelayProxy
from bench.report import replace_section, write_section
from bench.run import main
from bench.stores import latency_allowance, latency_section
from bot.cli import main as cli_main

HAND_WRITTEN = "# Performance\n\nBudgets, written by hand.\n\n"
SECTIONS = ("<!-- bench:engine -->\n## Engine\n\nold engine figures\n<!-- /bench:engine -->\n\n"
            "Between the sections, by hand.\n\n"
            "<!-- bench:soak -->\n## Soak\n\nold soak figures\n<!-- /bench:soak -->\n")


def test_a_benchmark_replaces_only_its_own_section(tmp_path):
    report = tmp_path / "performance.md"
    report.write_text(HAND_WRITTEN + SECTIONS)
    write_section(report, "soak", ["## Soak", "", "new soak figures"])
    assert report.read_text() == HAND_WRITTEN + SECTIONS.replace("old soak", "new soak")
    write_section(report, "engine", ["## Engine", "", "new engine figures"])
    assert report.read_text() == HAND_WRITTEN + SECTIONS.replace("old", "new")


def test_a_new_section_is_added_at_the_end_and_a_new_report_gets_a_title(tmp_path):
    assert replace_section("# Performance\n", "stores", ["x"]) == \
        "# Performance\n\n<!-- bench:stores -->\nx\n<!-- /bench:stores -->\n"
    report = tmp_path / "docs" / "performance.md"
    write_section(report, "restart", ["figures"])
    assert report.read_text() == "# Performance\n\n<!-- bench:restart -->\nfigures\n<!-- /bench:restart -->\n"


def test_a_section_s_table_follows_its_text_without_a_blank_line():
    """The report has a line budget: a table starts under a line of text in Markdown anyway."""
    section = replace_section("", "x", ["## X", "`cmd` · figures.", "", "| a |", "| --- |", "", "After."])
    assert "\n## X\n`cmd` · figures.\n| a |\n| --- |\n\nAfter.\n" in section


def test_one_part_rewrites_just_its_section_for_every_game_and_level(tmp_path):
    report = tmp_path / "performance.md"
    report.write_text(HAND_WRITTEN + SECTIONS)
    assert cli_main(["bench", "--smoke", "--only", "engine", "--out", str(report)]) == 0
    text = report.read_text()
    engine = text.split("<!-- bench:engine -->")[1].split("<!-- /bench:engine -->")[0]
    assert text.replace(engine, "\nX\n") == (HAND_WRITTEN + SECTIONS).replace(
        "\n## Engine\n\nold engine figures\n", "\nX\n")
    # a row per game, a games/s and a turns/s column per AI level ("-" where it has none), then
    # smart's and easy's shares of the games won when they meet
    levels = list(dict.fromkeys(level for game in games.all_games() for level in game.ai_levels))
    header = "| game | " + " | ".join(f"{lv} games/s | {lv} turns/s" for lv in levels) \
        + " | smart vs easy |"
    assert header in engine
    lines = engine.splitlines()
    rows = {cells[0]: cells[1:] for line in lines[lines.index(header) + 2:]
            if (cells := [c.strip() for c in line.strip("|").split("|")])[0]}
    assert list(rows) == [game.name for game in games.all_games()]
    for game in games.all_games():
        for n, level in enumerate(levels):
            rate, turns = rows[game.name][2 * n:2 * n + 2]
            if level in game.ai_levels:
                assert float(rate) > 0 and int(turns) > 0, (game.name, level)
            else:
                assert (rate, turns) == ("-", "-"), (game.name, level)
        easy_players = " \\d+%, \\d+%" if game.name == "atmosfear" else " \\d+%"
        assert re.fullmatch(f"smart \\d+% · easy{easy_players}", rows[game.name][-1]), rows[game.name]
    assert "; games per game and level: 1." in engine and "shares of 1 game won" in engine
    assert "`gatekeeper bench --smoke --only engine` ·" in engine


@pytest.mark.usefixtures("keypile")
def test_the_plugin_game_runs_through_the_smoke_benchmark_like_the_others(tmp_path):
    # the parts measured game by game (the others play the scenarios' games: bench/scenarios.py;
    # they run below and, moves, in test_packaging's run of the installed package)
    report = tmp_path / "performance.md"
    per_game = ("engine", "render", "replays")
    assert main("smoke", out=report, parts=per_game) == 0
    text = report.read_text()
    names = [game.name for game in games.all_games()]
    assert "keypile" in names
    for part in per_game:
        section = text.split(f"<!-- bench:{part} -->")[1].split(f"<!-- /bench:{part} -->")[0]
        assert list(dict.fromkeys(re.findall(r"^\| (\w+) \|", section, re.M)))[1:] == names, part


def test_the_timers_and_restart_parts_measure_at_smoke_size(tmp_path):
    report = tmp_path / "performance.md"
    assert main("smoke", out=report, parts=("timers", "restart")) == 0
    text = report.read_text()
    # a second of two idle games (at this size no timer need fall due)
    assert re.search(r"^\| atmosfear \| 2 \| 1 \| \d+ \| [\d.]+ \|", text, re.M), text
    # twenty games loaded again (in a few milliseconds)
    assert re.search(r"^\| castle \| 20 \| [\d.]+ \| -?[\d.]+ \|$", text, re.M), text
    assert "<!-- bench:moves -->" not in text


def test_an_unknown_part_is_refused_with_the_parts_there_are(capsys):
    with pytest.raises(SystemExit) as refused:
        cli_main(["bench", "--smoke", "--only", "engine,speed"])
    assert refused.value.code == 2
    assert "unknown part speed: choose from moves, timers, restart, engine, render, replays" \
        in capsys.readouterr().err


def test_speedup_compares_two_trees_run_by_run():
    """bench/speedup.py runs self-play against each tree in turn (here the same tree twice) and
    reports medians of the games per second and of the per-run ratios."""
    from bench.speedup import compare
    root = Path(__file__).resolve().parent.parent
    r = compare(root, root, "dontgo", "random", 4, runs=2)
    assert (r["game"], r["level"], r["games"], r["runs"]) == ("dontgo", "random", 4, 2)
    assert r["before"] > 0 and r["after"] > 0
    assert r["lowest"] <= r["speedup"] <= r["highest"]


def test_speedup_refuses_a_path_that_is_not_a_source_tree(tmp_path):
    """A mistyped tree would put nothing on PYTHONPATH and measure the installed games instead:
    it is refused, before any run."""
    from bench.speedup import compare, main as speedup
    root = Path(__file__).resolve().parent.parent
    with pytest.raises(ValueError, match="no games/__init__.py"):
        compare(tmp_path / "before-dontgo", root, "dontgo", "random", 4, runs=1)
    with pytest.raises(SystemExit) as exit_:
        speedup([str(tmp_path), str(root), "dontgo", "random", "4"])
    assert exit_.value.code == 2


async def test_the_delay_proxy_holds_each_answer_back_and_passes_everything(postgres_url):
    """bench.delayproxy: every round trip through it takes `delay` longer, answers intact
    (the slower-network run of bench.stores)."""
    async def round_trips(url: str, trips: int = 5) -> list[float]:
        took = []
        async with await psycopg.AsyncConnection.connect(url) as conn:
            for n in range(trips):
                began = time.perf_counter()
                row = await (await conn.execute("SELECT %s::int * 2, repeat('x', 100000)",
                                                [n])).fetchone()
                took.append(time.perf_counter() - began)
                assert row == (2 * n, "x" * 100000)
        return took

    with DelayProxy(postgres_url, 0.0) as plain:
        quick = await round_trips(plain)
    with DelayProxy(postgres_url, 0.05) as slower:
        slow = await round_trips(slower)
    # every trip is held at least the delay; a busy machine may slow any trip, so the upper
    # bound compares the fastest of each
    assert min(slow) >= 0.05 and min(slow) - min(quick) < 0.2


def test_the_slower_network_bar_allows_round_trips_times_the_latency_delivered():
    """bench.stores: the p99 of a move (own, and click to board) may rise by the round
    trips per move times what the proxy added to a lone client's round trip at p99."""
    def run(injected: float, alone_p99: float, own_p99: float, p99: float) -> dict:
        return {"trips": 1200, "moves": 1000, "behind": 0, "alone_p50": 0.5, "alone_p99": alone_p99,
                "own_p50": 1.0, "own_p99": own_p99, "p50": 20.0, "p99": p99, "lag_p99": 1.0,
                "injected_ms": injected, "games": 100, "rate": 50.0, "errors": []}
    sqlite = {"loop_ms": 0.1, "thread_ms": 1.0, "loop_gap_p99_ms": 0.1, "thread_gap_p99_ms": 0.1}
    # runs taken in turn; each side's median counts (a hiccup in one run does not)
    bases = [run(0, 1.0, 8.0, 40.0), run(0, 1.5, 30.0, 90.0), run(0, 0.5, 7.0, 38.0)]
    bar = latency_allowance([*bases, run(5, 7.0, 8.0, 40.0)])
    assert bar["allowed"] == pytest.approx(1.2 * 6.0)
    within = latency_section([*bases, run(5, 7.0, 15.0, 47.0), run(5, 7.0, 15.0, 47.0)],
                             sqlite, "cmd")
    assert "(medians, with against without: +7.0 and +7.0 ms)" in within[1]
    assert "(1.20 x +6.0 = 7.2 ms): met." in within[1]
    # the runs side by side (the third run without has no partner), then their medians
    assert "| 3 | 0.50 / - | 0.50 / - |" in "\n".join(within)
    assert any(line.startswith("| median | 0.50 / 0.50 | 1.00 / 7.00 | 1000 / 1000 | "
                               "1.20 / 1.20 |") for line in within)
    for own, click in ((15.5, 40.0), (8.0, 47.5)):  # either rising more is over budget
        over = latency_section([*bases, run(5, 7.0, own, click)], sqlite, "cmd")
        assert "**not met**" in over[1]

"""The story a channel keeps, every game played to its end through the fake Discord: each turn
is summarised once (a turn spread over several table messages, as Don't Go In There's room
resolutions are, included) and no summary leaves a Markdown marker open. Checked on the
channel as it stands after every step, and on every version of every message it ever showed
(each game played once a run, its record shared with tests/test_live_table.py:
tests/played.py)."""
from __future__ import annotations

import re

import pytest

from bot.clock import FakeClock

from tests.harness import InThreadHarness, Players, play_out
from tests.markup_check import open_markers
from tests.played import played

SUMMARY = re.compile(r"^-# \*\*Turns? (\d+)(?:–(\d+))?\*\*: ", re.M)


def summaries(text: str) -> list[tuple[range, str]]:
    """The turn summaries in a message's text: the turns each covers, and its line."""
    found = []
    for match in SUMMARY.finditer(text):
        first = int(match[1])
        line = text[match.start():].split("\n", 1)[0]
        found.append((range(first, int(match[2] or first) + 1), line))
    return found


def check_story(channel: tuple[str, ...] | list[str], story: dict) -> list[int]:
    """The channel now (its messages' texts): no turn in two summaries, nothing left open. The
    turns told."""
    told: dict[int, str] = {}
    for text in channel:
        for turns, line in summaries(text):
            assert open_markers(line) == [], line
            for turn in turns:
                assert turn not in told, f"turn {turn} told twice:\n{told[turn]}\n{line}"
                told[turn] = line
    story["turns"] = max(story.get("turns", 0), len(told))
    return sorted(told)


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_each_turn_is_told_once_and_whole(game, tmp_path_factory):
    story: dict = {}
    record = await played(game, tmp_path_factory)  # shared with tests/test_live_table.py
    for step in record.steps:
        check_story(step.channel, story)
    check_story(record.channel, story)  # the channel the game leaves
    every = [line for text in record.every_version for _, line in summaries(text)]
    assert every and all(open_markers(line) == [] for line in every)
    assert story["turns"] > 10 and record.figures.moves > 20


async def test_each_turn_is_told_once_across_restarts(fake_discord, tmp_path):
    """The bot restarts every few moves of a game of Don't Go In There: the live table's
    summaries and lines are read back from the message (where it began: after the last turn
    it carries), and still each turn is told once, under its own number."""
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                              turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
        table = await players.start_game("Ana", ["Bo", "Cy"], game="dontgo")
        story: dict = {}

        async def restart_now_and_then(step: int, table):
            if step % 5 == 0 and table.status == "running":
                await harness.restart()
                table = await players.bot.service.get(table.id)
                await players.settle(table)
            check_story([m.text() for m in players.channel_messages()], story)
            return table

        table = await play_out(players, table, clock, restart_now_and_then)
        assert table.status == "over" and story["turns"] > 10
        told = check_story([m.text() for m in players.channel_messages()], story)
        assert told == list(range(1, told[-1] + 1))  # and each under its own number
    finally:
        await harness.stop()

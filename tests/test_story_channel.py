"""The story a channel keeps, every game played to its end through the fake Discord: each turn
is summarised once (a turn spread over several table messages, as Don't Go In There's room
resolutions are, included) and no summary leaves a Markdown marker open. Checked on the
channel as it stands after every step, and on every version of every message it ever showed."""
from __future__ import annotations

import re

import pytest

from bot.bench import table_volume
from bot.fakediscord.people import Players
from bot.table import Table

from tests.markup_check import open_markers
from tests.test_live_table import SHORT

SUMMARY = re.compile(r"^-# \*\*Turns? (\d+)(?:–(\d+))?\*\*: ", re.M)


def summaries(text: str) -> list[tuple[range, str]]:
    """The turn summaries in a message's text: the turns each covers, and its line."""
    found = []
    for match in SUMMARY.finditer(text):
        first = int(match[1])
        line = text[match.start():].split("\n", 1)[0]
        found.append((range(first, int(match[2] or first) + 1), line))
    return found


def check_story(players: Players, table: Table, story: dict) -> None:
    """The channel now: no turn in two summaries, nothing left open."""
    told: dict[int, str] = {}
    for message in players.channel_messages():
        for turns, line in summaries(message.text()):
            assert open_markers(line) == [], line
            for turn in turns:
                assert turn not in told, f"turn {turn} told twice:\n{told[turn]}\n{line}"
                told[turn] = line
    story["turns"] = max(story.get("turns", 0), len(told))


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_each_turn_is_told_once_and_whole(game, tmp_path):
    story: dict = {}
    last: dict = {}

    def each_step(players: Players, table: Table) -> None:
        last["players"], last["table"] = players, table
        check_story(players, table, story)

    volume = await table_volume.play(game, 1, tmp_path, SHORT.get(game), each_step)
    players = last["players"]
    check_story(players, last["table"], story)  # the channel the game leaves
    every = [line for version in players.every_version()
             for _, line in summaries(version.text())]
    assert every and all(open_markers(line) == [] for line in every)
    assert story["turns"] > 10 and volume.moves > 20

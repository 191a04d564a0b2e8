"""/log tells the whole story, every line, through the fake Discord: a played game's story in
pages (Previous / Next, page N of M, still turning after a restart) and as story.txt; a story too
long to page through as the file alone; a short one as text; "since my last turn" as before."""
from __future__ import annotations

import pytest

from bot import present, story
from bot.clock import FakeClock
from fakediscord import Message
from tests.harness import InThreadHarness, Players, play_out

PEOPLE = ["Ana", "Bo", "Cy"]


@pytest.fixture
async def played(fake_discord, tmp_path):
    """A game of Don't Go In There played to its end by three people (its story runs to
    several pages), with the bot still running."""
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                              turn_timeout=100_000.0)
    await harness.start()
    players = Players(fake_discord, harness, PEOPLE)
    table = await play_out(players, await players.start_game("Ana", PEOPLE[1:], game="dontgo"),
                           clock)
    assert table.status == "over"
    yield harness, players, table
    await harness.stop()


async def whole_story(players: Players, table) -> list[str]:
    return present.public_lines(table, await players.bot.service.public_events(table))


async def log(players: Players, who: str, options: dict | None = None):
    ix = await players.fake.slash(players.users[who], players.channel.id, "log", options or {})
    answer = await ix.response()
    assert answer.type == 4 and answer.ephemeral
    return answer.message


def button(message: Message, label: str) -> tuple[str, bool]:
    return next((cid, disabled) for cid, text, disabled in message.buttons() if text == label)


async def click(players: Players, who: str, message: Message, label: str):
    custom_id, disabled = button(message, label)
    assert not disabled, label
    ix = await players.fake.click(players.users[who], message.id, custom_id)
    return await ix.response()


def page_lines(message: Message, number: int, count: int) -> list[str]:
    heading, *lines = message.content.split("\n")
    assert heading.endswith(f"· page {number} of {count}"), heading
    assert len(message.content) <= story.MESSAGE_CHARS
    return lines


def file_lines(message: Message) -> list[str]:
    assert [name for name, _ in message.attachments] == [story.FILE_NAME]
    heading, blank, *lines = message.attachments[0][1].decode("utf-8").splitlines()
    assert heading.startswith("The story of game #") and blank == ""
    return lines


async def test_a_games_story_in_pages_every_line_and_after_a_restart(played):
    harness, players, table = played
    lines = await whole_story(players, table)
    assert len("\n".join(lines)) > 2 * story.MESSAGE_CHARS  # several pages
    shown = await log(players, "Bo")
    count = int(shown.content.split("\n")[0].rsplit(" of ", 1)[1])
    assert 2 < count <= story.MAX_PAGES
    assert button(shown, "◀ Previous")[1] and not button(shown, "Next ▶")[1]
    pages = [page_lines(shown, 1, count)]
    for number in range(2, count + 1):
        answer = await click(players, "Bo", shown, "Next ▶")
        assert answer.type == 7  # the same private message turns its page
        shown = players.fake.messages[shown.id]
        pages.append(page_lines(shown, number, count))
    assert [line for page in pages for line in page] == lines  # every line, in order, none cut
    assert button(shown, "Next ▶")[1] and not button(shown, "◀ Previous")[1]
    await harness.restart()  # the buttons name their page: they still turn
    await click(players, "Bo", shown, "◀ Previous")
    assert page_lines(players.fake.messages[shown.id], count - 1, count) == pages[-2]
    download = await click(players, "Bo", players.fake.messages[shown.id], "Download as text")
    assert download.type == 4 and download.ephemeral
    assert file_lines(download.message) == lines


async def test_a_story_too_long_to_page_comes_as_its_file(played, monkeypatch):
    _, players, table = played
    monkeypatch.setattr(story, "MAX_PAGES", 2)
    message = await log(players, "Cy")
    assert message.buttons() == []
    assert f"{len(await whole_story(players, table))} lines long" in message.content
    assert file_lines(message) == await whole_story(players, table)


async def test_a_short_story_is_text_and_since_my_last_turn_as_before(played):
    _, players, table = played
    bot = players.bot
    seat = table.seat_of(players.users["Ana"])
    since = present.public_lines(table, await bot.service.public_events(table, since_seat=seat))
    message = await log(players, "Ana", {"since": "mine"})
    assert since and message.content == "\n".join(since) and message.buttons() == []
    outsider = players.fake.add_user("Dee")
    players.fake.add_member(players.guild.id, outsider.id)
    players.users["Dee"] = outsider.id
    refused = await log(players, "Dee", {"since": "mine"})
    assert "not playing" in refused.content and "`/log`" in refused.content
    assert (await log(players, "Dee")).buttons()  # anyone may read the story from the start

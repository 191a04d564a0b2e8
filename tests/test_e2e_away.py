"""/away through the fake Discord on the fake clock: the channel is told once that a player went
away and once that they are back; the turns the AI plays for them in between show in the
table's story (its lines and carried summaries), not as a notice each."""
from __future__ import annotations

import pytest

from bot import present
from bot.clock import FakeClock
from tests.harness import InThreadHarness, Players, until

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def players(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=FakeClock())
    await harness.start()
    yield Players(fake_discord, harness, ["Ana", "Bo"])
    await harness.stop()


async def slash(players: Players, who: str, command: str, options: dict | None = None) -> str:
    ix = await players.fake.slash(players.users[who], players.channel.id, command, options or {})
    return (await ix.wait_followups())[0].content


def notices(players: Players) -> list[str]:
    """The channel's plain messages: notices, not tables."""
    return [m.content for m in players.channel_messages() if m.content]


async def test_away_is_told_once_and_the_turns_played_meanwhile_are_in_the_story(players):
    table = await players.start_game("Ana", ["Bo"])
    clock = players.harness.clock
    bo = table.seat_of(players.users["Bo"])
    assert "away until you use /back" in await slash(players, "Bo", "away", {"until": "back"})
    await until(lambda: any("Bo is away" in n for n in notices(players)), what="the away notice")
    played_for_bo = 0
    for _ in range(200):
        if played_for_bo >= 3 or table.status != "running":
            break
        if players.mover(table) == "Ana":
            await players.play_by_buttons(table)
            continue
        done = len(await players.bot.store.actions(table.id))
        clock.advance(1)  # Bo's turn goes to the AI at once
        await until(lambda: players.mover(table) != "Bo" or table.status != "running",
                    what="Bo's turn to be played for him")
        await players.settle(table)
        rows = (await players.bot.store.actions(table.id))[done:]
        assert rows and {r["source"] for r in rows if r["seat"] == bo} == {"away"}
        played_for_bo += 1
        # what the AI did for Bo is in the table's story: carried, or among the turn's lines
        said = present.public_lines(table, await players.bot.service.public_events(table))
        story = players.current_board(table).text()
        assert all(line.replace("\n", " ")[:60] in story.replace("\n", " ")
                   for line in said[-2:]), (said[-2:], story)
    assert played_for_bo >= 3
    assert [n for n in notices(players) if "Bo" in n] == [
        "💤 Bo is away until they use /back: meanwhile the AI plays their turns."]
    assert "Welcome back" in await slash(players, "Bo", "back")
    await until(lambda: any("Bo is back" in n for n in notices(players)), what="the back notice")
    assert [n for n in notices(players) if "Bo" in n][1:] == [
        "👋 Bo is back: their turns wait for them again."]
    while players.mover(table) == "Ana":
        await players.play_by_buttons(table)
    turn = table.state.turn
    clock.advance(60)  # back: Bo's turn waits for Bo
    await players.settle(table)
    assert players.mover(table) == "Bo" and table.state.turn == turn

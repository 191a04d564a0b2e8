"""The lobby through the fake Discord: the host leaves (hosting passes on, then the lobby closes)
and a host watches a game of AIs only from start to finish."""
from __future__ import annotations

import pytest

import bot.table as bot_table
from games.core import IllegalAction
from sandbox.harness import until
from tests.harness import InThreadHarness, Players


@pytest.fixture
async def players(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "lobby.db")
    await harness.start()
    yield Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    await harness.stop()


def host_field(players: Players) -> str:
    (embed,) = players.lobby().embeds
    return next(f["value"] for f in embed["fields"] if f["name"] == "Host")


async def test_the_host_leaves_and_hosting_passes_on_until_nobody_is_left(fake_discord, players):
    ana, bo, cy = (players.users[n] for n in ("Ana", "Bo", "Cy"))
    await players.open("Ana", "castle")
    await players.lobby_click("Bo", "join")
    await players.lobby_click("Cy", "join")
    table = players.table()
    await players.lobby_click("Ana", "leave")
    assert table.host_id == bo and [s.name for s in table.seats] == ["Bo", "Cy"]
    await until(lambda: host_field(players) == f"<@{bo}>", what="the lobby to name Bo host")
    ix = await fake_discord.slash(bo, players.channel.id, "leave")
    assert "left the lobby" in (await ix.wait_followups())[0].content
    await players.settle(table)
    assert table.host_id == cy and [s.name for s in table.seats] == ["Cy"]
    await until(lambda: host_field(players) == f"<@{cy}>", what="the lobby to name Cy host")
    lobby_id = players.lobby().id
    await players.lobby_click("Cy", "leave")
    assert table.status == "cancelled" and players.table() is None
    await until(lambda: "cancelled" in (fake_discord.messages[lobby_id].embeds[0].get("description")
                                        or ""), what="the lobby to close")
    assert not any(not disabled for _, _, disabled in fake_discord.messages[lobby_id].buttons())


async def test_a_host_watches_a_game_of_ais_only_to_its_end(fake_discord, players):
    ana = players.users["Ana"]
    await players.open("Ana", "castle")
    await players.lobby_click("Ana", "ai")
    await players.lobby_click("Ana", "ai")
    await players.lobby_click("Ana", "watch")
    table = players.table()
    assert table.host_id == ana and [s.name for s in table.seats] == ["AI 1", "AI 2"]
    watch = next(disabled for cid, _, disabled in players.lobby().buttons()
                 if cid.endswith(":lobby:watch"))
    assert watch  # the host has no seat left to give up
    await players.lobby_click("Ana", "start")
    await until(lambda: table.status == "over", timeout=120, what="the AIs to finish the game")
    await players.settle(table)
    final = players.boards()[-1]
    assert "Game over" in final.text() and "AI 1" in final.text() and "wins" in final.text()
    moves = [row for row in await players.bot.store.actions(table.id) if row["seat"] >= 0]
    assert len(moves) > 10 and all(row["user_id"] is None for row in moves)
    # the host who watched may ask for another game of the same AIs
    again = next(cid for cid, label, _ in final.buttons() if label == "Play again")
    await (await fake_discord.click(ana, final.id, again)).response()
    rematch = await until(lambda: (t := players.table()) and t.status == "lobby" and t,
                          what="the rematch lobby")
    assert rematch.host_id == ana and [s.ai for s in rematch.seats] == [True, True]  # still watching


async def test_the_host_picks_each_ais_level_and_it_plays_at_that_level(fake_discord, players,
                                                                        monkeypatch):
    """Add AI offers easy, smart and hard (smart the default's plain op); the level shows beside
    the AI's name in the lobby and on the table, and the AI decides at it."""
    played: set[tuple[int, str]] = set()
    decide = bot_table.decide

    def spying(game, state, seat, rng, level="smart", prompt=None):
        played.add((seat, level))
        return decide(game, state, seat, rng, level, prompt)

    monkeypatch.setattr(bot_table, "decide", spying)
    worker = players.bot.service.ai_worker
    searched = worker.decide

    async def searching(game, state, seat, rng):  # a hard seat's search, in the AI worker
        played.add((seat, "hard"))
        return await searched(game, state, seat, rng)

    monkeypatch.setattr(worker, "decide", searching)
    ana = players.users["Ana"]
    await players.open("Ana", "dontgo")
    labels = {label: cid for cid, label, _ in players.lobby().buttons()}
    assert labels["Add smart AI"].endswith(":lobby:ai")  # the default, as before levels
    for label in ("Add easy AI", "Add hard AI"):
        await (await fake_discord.click(ana, players.lobby().id, labels[label])).response()
    table = players.table()
    await players.settle(table)
    assert [(s.name, s.level) for s in table.seats if s.ai] == [("AI 1", "easy"), ("AI 2", "hard")]
    await until(lambda: "AI 1 · easy AI" in players.lobby().text()
                and "AI 2 · hard AI" in players.lobby().text(), what="the lobby to show the levels")
    await players.lobby_click("Ana", "watch")
    await players.lobby_click("Ana", "start")
    await until(lambda: table.status == "over", timeout=120, what="the AIs to finish the game")
    await players.settle(table)
    by_name = {s.name: seat for seat, s in enumerate(table.seats)}
    assert played == {(by_name["AI 1"], "easy"), (by_name["AI 2"], "hard")}
    shown = "\n".join(m.text() for m in players.every_table())
    assert "easy AI" in shown and "hard AI" in shown  # the header of an AI's turn
    assert "AI 1 (easy)" in shown and "AI 2 (hard)" in shown  # the players' panel
    final = players.boards()[-1]
    again = next(cid for cid, label, _ in final.buttons() if label == "Play again")
    await (await fake_discord.click(ana, final.id, again)).response()
    rematch = await until(lambda: (t := players.table()) and t.status == "lobby" and t,
                          what="the rematch lobby")
    assert sorted(s.level for s in rematch.seats if s.ai) == ["easy", "hard"]  # the same AIs


async def test_a_level_nobody_offers_is_refused_and_changes_nothing(fake_discord, players):
    await players.open("Ana", "castle")
    table = players.table()
    with pytest.raises(IllegalAction, match="There is no AI level called genius: choose easy, smart or hard"):
        await players.bot.service.lobby(table.id, players.users["Ana"], "Ana", "ai.genius")
    assert [s.name for s in table.seats] == ["Ana"]

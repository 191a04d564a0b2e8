"""The Warlock of Firetop Mountain end to end: three people and an AI play a whole game through the
real discord.py client and the fake Discord, by buttons and panels."""
from __future__ import annotations

import re

import pytest

from games.firetop import GAME
from tests.harness import InThreadHarness, Players, until

pytestmark = pytest.mark.asyncio

SECRET_WORDS = ("held out by", "must lie under", "You find:", "shows you Key card", "The orb shows key",
                "Your Key cards", "Adventure sheet")


@pytest.fixture
async def harness(fake_discord, tmp_path):
    # pictures drawn in a thread: Atmosfear's, Kingdom's and Don't Go's end-to-end tests run
    # the render process
    h = InThreadHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def play_out(players: Players, table, max_steps: int = 3000) -> int:
    """Play every person's prompts (several may be open at once) until the game ends."""
    clicks = 0
    for _ in range(max_steps):
        if table.status != "running":
            await players.settle(table)
            return clicks
        await players.settle(table)
        people = [s for s, seat in enumerate(table.seats) if not seat.ai and table.prompts[s] is not None]
        if not people:
            await until(lambda: table.status != "running" or any(
                not seat.ai and table.prompts[s] is not None for s, seat in enumerate(table.seats)),
                what="the AI to play")
            continue
        mover = table.game.to_move(table.state)
        seat = mover if mover in people else people[0]
        await players.play_by_buttons(table, seat=seat)
        clicks += 1
    raise AssertionError("the game did not end")


async def test_three_people_and_an_ai_play_to_the_chest(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    table = await players.start_game("Ana", ["Bo", "Cy"], ais=1, game="firetop",
                                     options={"rounds": 30})  # the shortest game
    assert table.game.name == "firetop" and len(table.seats) == 4
    # everyone rolls up an adventurer at once: each person gets buttons of their own
    first = players.current_board(table)
    owners = {cid.split(":")[2] for cid, _, _ in first.buttons() if cid and cid.split(":")[2].isdigit()}
    assert len(owners) >= 3
    clicks = await play_out(players, table)
    assert table.status == "over" and clicks > 20
    final = players.boards()[-1]
    text = final.text()
    assert "Game over" in text
    winners = table.result["winners"]
    if winners:
        assert table.seats[winners[0]].name[:14] in text
    assert any(name == "board.png" for name, _ in final.attachments)
    # a battle is one message, edited round by round, with the dice in its log
    battles = [m for m in players.every_table() if re.search(r"Round 1: .*= \d+", m.text())
               and "Round 2:" in m.text()]
    assert battles, "no battle of two rounds or more was shown on one board"
    # secrets: Key Challenge results, found treasure and Key cards never reach the channel
    for message in players.every_version():
        for words in SECRET_WORDS:
            assert words not in message.readable(), (words, message.text()[:200])
    # the adventure sheet comes by DM at the start, to each person their own; later DMs carry
    # only the news that reached them, never the same twice in a row
    for index, seat in enumerate(table.seats):
        if seat.ai:
            assert fake_discord.dms(seat.user_id) == [] if seat.user_id else True
            continue
        dms = fake_discord.dms(seat.user_id)
        mine = f"Adventure sheet** ({GAME.colours[index]}"
        assert dms and mine in dms[0].content
        assert all(a.content != b.content for a, b in zip(dms, dms[1:]))
        for other in table.seats:
            if other.user_id not in (None, seat.user_id):
                assert not any(mine in m.readable() for m in fake_discord.seen_by(other.user_id))
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []


async def test_hand_rules_and_typed_moves(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"], game="firetop")
    ana, bo = players.users["Ana"], players.users["Bo"]
    ix = await fake_discord.slash(ana, players.channel.id, "hand")
    reply = await ix.response()
    assert reply.ephemeral and "Adventure sheet" in reply.data["content"] and "Key cards" in reply.data["content"]
    ix = await fake_discord.slash(bo, players.channel.id, "rules", {"game": "firetop", "topic": "river"})
    reply = await ix.response()
    assert reply.ephemeral and "ferry" in reply.data["content"].lower()
    # a typed move: both roll up their adventurers with /move
    for user in (ana, bo):
        ix = await fake_discord.slash(user, players.channel.id, "move", {"action": "extras 0"})
        await ix.response()
    await until(lambda: table.state.data["phase"] == "play", what="both adventurers")
    mover = table.game.to_move(table.state)
    other = bo if table.seats[mover].user_id == ana else ana
    ix = await fake_discord.slash(other, players.channel.id, "move", {"action": "roll"})
    answer = await ix.response()
    said = answer.data.get("content") or (await ix.wait_original(lambda m: bool(m.content))).content
    assert answer.ephemeral and "turn, not yours" in said
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []


async def typed(fake_discord, players: Players, table, seat: int, action: str) -> None:
    version = table.version
    ix = await fake_discord.slash(table.seats[seat].user_id, players.channel.id, "move", {"action": action})
    await ix.response()
    await until(lambda: table.version > version, what=f"{action!r} to apply")
    await players.settle(table)


async def click(fake_discord, players: Players, table, seat: int, label: str) -> None:
    version = table.version
    board = players.current_board(table)
    custom_id = next(cid for cid, text, _ in board.buttons()
                     if cid and cid.split(":")[2] == str(seat) and text.endswith(label))
    ix = await fake_discord.click(table.seats[seat].user_id, board.id, custom_id)
    await ix.response()
    await until(lambda: table.version > version, what=f"{label!r} to apply")
    await players.settle(table)


async def test_a_person_rolls_for_the_monster_on_the_same_board(fake_discord, harness):
    """Ana hands the monster's dice to Bo: both have buttons on one board, which is edited, not
    posted again, round by round."""
    from games.core import Rng, decide
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    table = await players.start_game("Ana", ["Bo"], game="firetop")
    for _ in range(200):  # play on (typed moves, the AI's choices) until someone meets a monster
        battle = table.state.data["battle"]
        if battle is not None and battle["kind"] == "monster" and battle["round"] == 0:
            break
        seat = next(s for s in range(2) if table.game.prompt(table.state, s) is not None)
        await typed(fake_discord, players, table, seat, decide(table.game, table.state, seat, Rng(table.version)))
    else:
        raise AssertionError("nobody met a monster")
    fighter = table.state.data["battle"]["seat"]
    roller = 1 - fighter
    board = players.current_board(table)
    boards_before = len(players.boards())
    await click(fake_discord, players, table, fighter, f"Fight, {table.seats[roller].name} rolls")
    name = table.state.data["battle"]["name"]
    # the fighter has chosen the round: now only the roller has buttons (the bot rolls if he is slow)
    assert table.prompts[roller] is not None and table.prompts[fighter] is None
    assert table.game.timers(table.state)
    await click(fake_discord, players, table, roller, f"Roll for the {name}")
    battle = table.state.data["battle"]
    assert battle is None or battle["round"] == 1
    if battle is not None and battle["seat"] == fighter:  # between rounds: he may escape before any dice
        assert table.prompts[roller] is None and table.prompts[fighter] is not None
    assert players.current_board(table).id == board.id and len(players.boards()) == boards_before
    text = players.current_board(table).text()
    assert f"rolls for the {name}" in text and "Round 1:" in text

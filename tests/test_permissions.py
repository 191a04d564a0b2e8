"""A channel where the bot lacks a permission: /play says which and where to grant it; a running
game that loses one tells its host once, waits without a retry storm, and goes on by itself
when it is granted. The fake Discord answers 403 (code 50013) as Discord does."""
from __future__ import annotations

import asyncio

from fakediscord.models import ATTACH_FILES, CREATE_PUBLIC_THREADS, SEND_MESSAGES
from tests.harness import InThreadHarness, Players, until


async def play(fake, players: Players, who: str = "Ana") -> str:
    ix = await fake.slash(players.users[who], players.channel.id, "play", {"game": "castle"})
    return (await ix.response()).data.get("content", "")


def posts(fake, channel_id: int) -> int:
    return sum(1 for method, path in fake.requests
               if method == "POST" and path == f"/channels/{channel_id}/messages")


async def test_play_names_the_missing_permission_and_where_to_grant_it(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana"])
        role = fake_discord.bot_role_id(players.guild.id)
        await fake_discord.set_overwrite(players.channel.id, role, deny=ATTACH_FILES)
        answer = await play(fake_discord, players)
        assert "**Attach Files**" in answer and "Edit Channel → Permissions" in answer
        assert "Send Messages" not in answer
        assert players.table() is None and players.channel_messages() == []
        await fake_discord.set_overwrite(players.channel.id, role)  # granted: /play works
        await play(fake_discord, players)
        await until(lambda: players.table() is not None, what="the lobby")
    finally:
        await harness.stop()


async def test_a_busy_channel_needs_the_thread_permissions_too(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        await players.start_game("Ana", ["Bo"])
        role = fake_discord.bot_role_id(players.guild.id)
        await fake_discord.set_overwrite(players.channel.id, role, deny=CREATE_PUBLIC_THREADS)
        answer = await play(fake_discord, players, "Bo")
        assert "**Create Public Threads**" in answer
        assert fake_discord.threads(players.channel.id) == []
    finally:
        await harness.stop()


async def test_a_game_that_loses_a_permission_tells_its_host_once_and_goes_on(fake_discord,
                                                                               tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana"])
        table = await players.start_game("Ana", [], ais=1)
        await until(lambda: players.mover(table) == "Ana", what="Ana's turn")
        role = fake_discord.bot_role_id(players.guild.id)
        await fake_discord.set_overwrite(players.channel.id, role, deny=SEND_MESSAGES)
        ana = players.users["Ana"]
        dms = len(fake_discord.dms(ana))
        board = players.current_board(table)
        # Ana moves (her clicks edit the board through their interactions); when the AI hands
        # the turn back, the new board that pings her is refused
        def parked() -> bool:
            return any(slot.parked for slot in harness.bot.delivery.slots.values())

        while not parked():
            assert table.status == "running" and players.current_board(table).id == board.id
            if players.mover(table) == "Ana":
                await players.play_by_buttons(table)
            else:
                await until(lambda: players.mover(table) == "Ana" or parked(), what="the AI")
        def warnings() -> list:
            return [m for m in fake_discord.dms(ana)[dms:] if "is waiting" in m.content]

        told = await until(warnings, what="the host's DM")
        assert len(told) == 1 and "**Send Messages**" in told[0].content
        assert "goes on by itself" in told[0].content
        tried = posts(fake_discord, players.channel.id)
        await asyncio.sleep(1.0)  # no retry storm while the permission is missing
        assert posts(fake_discord, players.channel.id) == tried
        await fake_discord.set_overwrite(players.channel.id, role)  # granted again
        await until(lambda: harness.bot.store.shown_version(table.id) == table.version
                    and not harness.bot.delivery.slots, what="the board to catch up")
        live = players.current_board(table)
        assert live.id != board.id and f"<@{ana}>" in live.text()  # the ping came
        assert len(warnings()) == 1  # told once
    finally:
        await harness.stop()

"""DMs to many people: each person's DM channel is asked of Discord once, however many people
the bot has written to since (discord.py itself remembers only 128)."""
from __future__ import annotations

from bot.dms import DmChannels
from tests.harness import InThreadHarness


async def test_a_dm_channel_is_asked_for_once_per_person_beyond_discordpys_128(fake_discord,
                                                                              tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db")
    bot = await harness.start()
    try:
        people = [fake_discord.add_user(f"p{n}").id for n in range(200)]
        for round_ in (1, 2):
            for person in people:
                await (await bot.dms.of(person)).send(f"round {round_}")
        opened = [call for call in fake_discord.requests if call == ("POST", "/users/@me/channels")]
        assert len(opened) == len(people)
        assert all([m.content for m in fake_discord.dms(person)] == ["round 1", "round 2"]
                   for person in people)
    finally:
        await harness.stop()


async def test_the_oldest_person_is_forgotten_past_the_limit():
    asked: list[int] = []

    class Client:
        async def create_dm(self, user):
            asked.append(user.id)
            return type("Dm", (), {"id": 1000 + user.id})()

        def get_partial_messageable(self, id, *, type=None):
            return ("partial", id)

    dms = DmChannels(Client(), kept=2)
    await dms.of(1)
    await dms.of(2)
    assert await dms.of(1) == ("partial", 1001)  # 1 is now the newest use
    await dms.of(3)  # forgets 2
    assert await dms.of(1) == ("partial", 1001)
    await dms.of(2)
    assert asked == [1, 2, 3, 2]

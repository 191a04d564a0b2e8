"""The soak (bench.soak) in its short form, on both stores: 20 games against real
`gatekeeper run` processes, one SIGKILL restart, a gateway disconnect, 5% of the bot's requests
failed with 429/500/503, users who refuse DMs; nothing lost, applied twice, stalled or leaked.
And the soak's checks themselves: they find a lost move and a leaked hand when there is one."""
from __future__ import annotations

import pytest

from bench.soak import (
    Click,
    Plan,
    Saved,
    Soak,
    Unpublished,
    open_game,
    private_strings,
)
from bot.clock import FakeClock
from fakediscord import FakeDiscord
from bot.store import Store
from bot.table import Seat, TableService
from games.core import Rng, decide

# quick readers and impatient clickers (who click again when Discord says the click failed,
# after 3 s): the same faults in half the time
SHORT = Plan(seconds=8, moves=3, kills=1, disconnects=1, failure=0.05, dm_refusing=0.05,
             think=(0.2, 1.0), patience=2.0, answer_wait=3.0)


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
async def test_the_short_soak_loses_stalls_doubles_and_leaks_nothing(store, tmp_path, request):
    target = (str(tmp_path / "soak.db") if store == "sqlite"
              else request.getfixturevalue("postgres_url"))
    result = await Soak(20, target, tmp_path, SHORT, seed=3).run()
    assert (result["lost"], result["applied_twice"], result["stalled"], result["hidden"]) \
        == (0, 0, 0, 0), result
    # ... while everything it promises went wrong, and the games were really played
    assert result["restarts"] == 1 and result["disconnects"] == 1 and result["resumes"] >= 1
    assert result["injected"] > 0 and result["dm_refused"] > 0
    assert result["moves"] >= 20 * SHORT.moves and result["secrets_checked"] > 0
    assert result["processes"] == (2 if store == "postgres" else 1)


async def test_the_checks_find_a_lost_move_and_a_leaked_hand(tmp_path):
    fake = FakeDiscord()  # never started: the checks read only its records
    guild = fake.add_guild("checks")
    channel = fake.add_channel(guild.id, "game")
    users = [fake.add_user(f"player {n}") for n in range(2)]
    for user in users:
        fake.add_member(guild.id, user.id)
    db = Store(tmp_path / "checks.db")
    game_id = await open_game(db, "castle", guild.id, channel.id,
                              [Seat(u.name, u.id) for u in users], seed=4)
    service = TableService(db, Unpublished(), FakeClock())
    await service.load()
    saved = await Saved.read(db, game_id)
    seat, version = saved.person_to_move(), saved.row["version"]
    action = decide(saved.game, saved.state, seat, Rng(1))
    await service.act(game_id, saved.row["seats"][seat]["user_id"], action, 0, seat=seat,
                      source="button", interaction_id=111)
    await service.close()
    soak = Soak(1, str(tmp_path / "checks.db"), tmp_path, Plan(seconds=1))
    channels = {game_id: channel.id}

    soak.seen.clicks = [Click(game_id, version, 111, accepted=True)]
    assert (await soak.check(fake, db, channels))["lost"] == 0
    soak.seen.clicks = [Click(game_id, version, 222, accepted=True)]  # not the move saved
    assert (await soak.check(fake, db, channels))["lost"] == 1

    saved = await Saved.read(db, game_id)
    hand = min(private_strings(saved.game, saved.state, 0))
    assert (await soak.check(fake, db, channels))["hidden"] == 0
    await fake.say(users[0].id, channel.id, f"psst: {hand}")
    assert (await soak.check(fake, db, channels))["hidden"] == 1
    await db.close()

"""Delivery under Discord failures: the fake's injected faults, the retry rules, and every kind of
message the bot owns (lobby, board, DM, the Gatekeeper's lines) converging to the committed
state through 500s, 503s, 429 storms and dropped connections, with no action applied twice."""
from __future__ import annotations

import asyncio
import logging
import random
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot import delivery, present, publisher, ui
from bench.faults_soak import Soak
from bot.clock import FakeClock
from bot.delivery import Delivery, ServerError
from fakediscord.faults import Faults
from bot.feed import Change
from bot.publisher import PrivateNote
from games.core import Event
from tests.harness import InThreadHarness, Players, is_board, until


# -- the fault module ------------------------------------------------------------------------------
async def rest(fake, method: str, path: str, **body):
    """One request to the fake as the bot would make it: (status, json or None if cut off)."""
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        try:
            async with http.request(method, f"{fake.api_base}{path}", json=body) as answer:
                return answer.status, await answer.json()
        except aiohttp.ClientConnectionError:
            return None, None


@pytest.fixture
def room(fake_discord):
    guild = fake_discord.add_guild("Faults")
    return fake_discord.add_channel(guild.id, "here")


async def test_a_rule_fails_the_next_n_matching_requests_only(fake_discord, room):
    fake_discord.faults.add("POST", r"/channels/\d+/messages$", outcomes=(503,), count=2)
    path = f"/channels/{room.id}/messages"
    assert (await rest(fake_discord, "GET", f"/channels/{room.id}"))[0] == 200  # other method
    statuses = [(await rest(fake_discord, "POST", path, content=str(i)))[0] for i in range(3)]
    assert statuses == [503, 503, 200]
    assert [m.content for m in fake_discord.channel_messages(room.id)] == ["2"]
    assert [outcome for _, _, outcome in fake_discord.faults.injected] == [503, 503]


async def test_a_rule_can_be_limited_to_one_channel(fake_discord, room):
    other = fake_discord.add_channel(room.guild_id, "elsewhere")
    fake_discord.faults.add(None, r"/messages", outcomes=(500,), count=None, channel=other.id)
    assert (await rest(fake_discord, "POST", f"/channels/{room.id}/messages", content="a"))[0] == 200
    assert (await rest(fake_discord, "POST", f"/channels/{other.id}/messages", content="b"))[0] == 500


async def test_a_429_says_how_long_to_wait_and_whether_it_is_global(fake_discord, room):
    fake_discord.faults.add("POST", r"/messages$", outcomes=(429,), retry_after=2.5,
                            global_limit=True)
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as http:
        async with http.post(f"{fake_discord.api_base}/channels/{room.id}/messages",
                             json={"content": "x"}) as answer:
            body = await answer.json()
            assert answer.status == 429
            assert answer.headers["Retry-After"] == "2.500"
            assert answer.headers["X-RateLimit-Global"] == "true"
            assert answer.headers["Via"]  # discord.py needs it to retry rather than give up
    assert body["retry_after"] == 2.5 and body["global"] is True
    assert fake_discord.channel_messages(room.id) == []


async def test_a_dropped_request_never_lands_and_a_drop_after_lands_unanswered(fake_discord, room):
    path = f"/channels/{room.id}/messages"
    fake_discord.faults.add("POST", r"/messages$", outcomes=("drop",))
    assert await rest(fake_discord, "POST", path, content="lost") == (None, None)
    assert fake_discord.channel_messages(room.id) == []
    fake_discord.faults.add("POST", r"/messages$", outcomes=("drop-after",))
    assert await rest(fake_discord, "POST", path, content="landed") == (None, None)
    assert [m.content for m in fake_discord.channel_messages(room.id)] == ["landed"]


async def test_random_faults_follow_the_seed():
    def fired(seed: int) -> list[bool]:
        faults = Faults(rng=random.Random(seed))
        faults.add(None, r".", outcomes=(500, 503, 429, "drop"), count=None, probability=0.2)
        return [faults.pick("POST", "/channels/1/messages") is not None for _ in range(500)]

    assert fired(7) == fired(7)
    assert fired(7) != fired(8)
    assert 60 < sum(fired(7)) < 140  # about one in five


async def test_a_resent_message_with_the_same_nonce_is_posted_once(fake_discord, room):
    path = f"/channels/{room.id}/messages"
    first = await rest(fake_discord, "POST", path, content="hi", nonce="n1", enforce_nonce=True)
    again = await rest(fake_discord, "POST", path, content="hi", nonce="n1", enforce_nonce=True)
    other = await rest(fake_discord, "POST", path, content="hi", nonce="n2", enforce_nonce=True)
    assert first[1]["id"] == again[1]["id"] != other[1]["id"]
    assert len(fake_discord.channel_messages(room.id)) == 2


def test_unknown_outcomes_are_refused():
    with pytest.raises(ValueError, match="unknown fault outcome"):
        Faults().add("POST", r".", outcomes=(418,))


# -- the retry rules ------------------------------------------------------------------------------------
class Flaky:
    """A message sender that fails its first `failures` attempts with `error`."""

    def __init__(self, failures: int, error: Exception | None = None) -> None:
        self.failures = failures
        self.error = error or ServerError(503)
        self.shown: list[object] = []
        self.attempts: list[object] = []

    async def __call__(self, state, slot) -> None:
        self.attempts.append(state)
        if len(self.attempts) <= self.failures:
            raise self.error
        self.shown.append(state)


def tasks_runner():
    loop = asyncio.get_running_loop()
    running: set[asyncio.Task] = set()

    def spawn(coro):
        task = loop.create_task(coro)
        running.add(task)
        task.add_done_callback(running.discard)

    async def drain():
        while running:
            await asyncio.gather(*list(running))
    return spawn, drain


async def test_a_failed_send_is_retried_with_growing_jittered_backoff():
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn, random.Random(1))
    sender = Flaky(failures=4)
    tried_at = []
    sender_call = sender.__call__

    async def timed(state, slot):
        tried_at.append(clock.now())
        await sender_call(state, slot)
    await outbox.deliver("m", 1, "v1", timed)
    while outbox.pending("m"):
        clock.advance(0.01)
        await drain()
    assert sender.shown == ["v1"] and len(sender.attempts) == 5
    waits = [later - earlier for earlier, later in zip(tried_at, tried_at[1:])]
    for tries, wait in enumerate(waits, start=1):  # from half the ceiling up to the ceiling
        ceiling = delivery.BASE_DELAY * 2 ** (tries - 1)
        assert ceiling / 2 - 0.01 <= wait <= ceiling + 0.01, (tries, waits)
    assert len(set(round(w / (delivery.BASE_DELAY * 2 ** i), 2) for i, w in enumerate(waits))) > 1


async def test_a_newer_state_replaces_the_one_waiting_for_a_retry():
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn)
    sender = Flaky(failures=1)
    await outbox.deliver("m", 1, "v1", sender)
    outbox.send("m", 1, "v2", sender)
    outbox.send("m", 1, "v3", sender)
    await drain()
    assert sender.attempts == ["v1"]  # one pending delivery per message: nothing started
    clock.advance(delivery.MAX_DELAY)
    await drain()
    assert sender.attempts == ["v1", "v3"] and sender.shown == ["v3"]
    assert not outbox.pending("m")


async def test_a_refusal_is_not_retried_and_giving_up_is_logged_once(caplog):
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn)
    refused = Flaky(failures=99, error=ValueError("no such thing"))
    with caplog.at_level(logging.WARNING, "gatekeeper.delivery"):
        await outbox.deliver("a", 1, "v1", refused)
        failing = Flaky(failures=99)
        await outbox.deliver("b", 1, "v1", failing)
        for _ in range(delivery.MAX_TRIES + 2):
            clock.advance(120)
            await drain()
    assert len(refused.attempts) == 1
    assert len(failing.attempts) == delivery.MAX_TRIES
    gave_up = [r.getMessage() for r in caplog.records if "gave up" in r.getMessage()]
    assert gave_up == [
        "delivery gave up message=a channel=1 tries=1 why=ValueError: no such thing",
        f"delivery gave up message=b channel=1 tries={delivery.MAX_TRIES} why=server error 503"]
    assert outbox.gave_up == 2 and not outbox.slots


async def test_a_long_rate_limit_is_waited_out():
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn)
    sender = Flaky(failures=1, error=discord.RateLimited(90.0))
    await outbox.deliver("m", 1, "v1", sender)
    clock.advance(89)
    await drain()
    assert sender.shown == []
    clock.advance(2)
    await drain()
    assert sender.shown == ["v1"]


async def test_retries_per_channel_are_capped_per_minute():
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn)
    cap = delivery.CHANNEL_RETRIES_PER_MINUTE
    senders = [Flaky(failures=1) for _ in range(cap + 5)]
    for index, sender in enumerate(senders):
        await outbox.deliver(index, 7, "v", sender)
    clock.advance(delivery.BASE_DELAY)
    await drain()
    assert sum(bool(s.shown) for s in senders) == cap  # the rest wait for the next minute
    clock.advance(60)
    await drain()
    assert all(s.shown for s in senders)


async def test_an_attempt_that_never_ends_times_out_and_is_retried(monkeypatch):
    monkeypatch.setattr(delivery, "ATTEMPT_TIMEOUT", 0.01)
    clock, (spawn, drain) = FakeClock(), tasks_runner()
    outbox = Delivery(clock, spawn)
    shown = []

    async def hangs_once(state, slot) -> None:
        if not slot.tries:
            await asyncio.get_running_loop().create_future()  # Discord never answers
        shown.append(state)
    await outbox.deliver("m", 1, "v1", hangs_once)
    assert outbox.slots["m"].tries == 1 and shown == []
    clock.advance(delivery.BASE_DELAY)
    await drain()
    assert shown == ["v1"] and not outbox.pending("m")


def test_only_passing_failures_are_retried():
    assert delivery.retry_reason(ServerError(500)) == "server error 500"
    assert delivery.retry_reason(asyncio.TimeoutError()) == "timeout"
    assert delivery.retry_reason(aiohttp.ServerDisconnectedError()) is not None
    assert delivery.retry_reason(ConnectionResetError()) is not None
    assert delivery.retry_reason(ValueError()) is None


# -- every message the bot owns, through the fake Discord with faults ---------------------------------
FAULTS = {  # how a fault rule fails its requests, and how many in a row
    "500": dict(outcomes=(500,), count=3),
    "503": dict(outcomes=(503,), count=3),
    "429 storm": dict(outcomes=(429,), count=5, retry_after=0.01),  # discord.py waits it out
    "429 global": dict(outcomes=(429,), count=3, retry_after=0.01, global_limit=True),
    "429 long": dict(outcomes=(429,), count=2, retry_after=90.0),  # too long: ours to retry
    "dropped": dict(outcomes=("drop",), count=2),
    "dropped after landing": dict(outcomes=("drop-after",), count=2),
}
POSTS = r"/messages$"
EDITS = r"/messages/\d+$"


@pytest.fixture
async def world(fake_discord, tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock)
    await harness.start()
    yield clock, Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    await harness.stop()


@pytest.fixture
async def stored_world(fake_discord, tmp_path, store_target):
    """The world on each store: what start-up reads back must survive in both."""
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                         db_url=store_target if isinstance(store_target, str) else None)
    await harness.start()
    yield clock, Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    await harness.stop()


async def converge(players: Players, clock: FakeClock, shown, what: str) -> None:
    """Let retries fall due (on the fake clock) until Discord shows what `shown` checks and no
    delivery is waiting any more."""
    for _ in range(40):
        await until(lambda: not players.bot.service._tasks and not players.bot._inflight,
                    what="the bot to settle")
        if shown() and not players.bot.delivery.slots:
            return
        clock.advance(delivery.MAX_DELAY + 1)
    raise AssertionError(f"{what} never caught up")


def buttons_of(view: discord.ui.View | None) -> list[tuple[str, bool]]:
    """A view's buttons as the fake shows them (a closed lobby has none)."""
    children = view.children if view is not None else []
    return [(b.custom_id, b.disabled) for b in children if isinstance(b, discord.ui.Button)]


def table_buttons(table) -> list[tuple[str, bool]]:
    """The buttons the live table of `table` should carry, in order."""
    return [(b.custom_id, b.disabled) for row in ui.turn_rows(table, "en") for b in row.children
            if isinstance(b, discord.ui.Button)]


def lobby_shows(players: Players, table) -> bool:
    if "lobby" not in players.bot.store.messages(table.id):
        return False
    channel_id, message_id = players.bot.store.messages(table.id)["lobby"]
    message = players.fake.messages[message_id]
    return not message.deleted and message.embeds == [present.lobby_embed(table, "en").to_dict()] \
        and [(c, d) for c, _, d in message.buttons()] == buttons_of(ui.lobby_view(table, "en"))


def board_shows(players: Players, table) -> bool:
    """The live board shows the committed turn, and every older board has lost its buttons."""
    store = players.bot.store
    live = players.current_board(table)
    older = [m for m in players.boards() if m.id != live.id]
    return not live.deleted and store.shown_version(table.id) == table.version \
        and [(c, d) for c, _, d in live.buttons()] == table_buttons(table) \
        and all(not m.buttons() for m in older)


async def joins(players: Players, table) -> list[str]:
    return [s["name"] for s in (await players.bot.store.game(table.id))["seats"]]


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_lobby_edit_converges(world, fault):
    clock, players = world
    await players.open("Ana")
    table = players.table()
    rule = players.fake.faults.add("PATCH", EDITS, channel=players.channel.id, **FAULTS[fault])
    await players.lobby_click("Bo", "join")
    assert await joins(players, table) == ["Ana", "Bo"]  # committed first, whatever Discord does
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert rule.fired == FAULTS[fault]["count"]
    assert await joins(players, table) == ["Ana", "Bo"]


# discord.py's webhook adapter waits out any 429 on an interaction's reply itself (it has no
# max_ratelimit_timeout), so a long one only delays the answer; the other faults come to us.
# It also resends a 503 itself, after 1, 3 and 5 s of real time: one 503 shows that.
@pytest.mark.parametrize("fault", [name for name in FAULTS if name != "429 long"])
async def test_a_new_lobby_converges_in_the_answer_to_play(world, fault):
    clock, players = world
    failing = {**FAULTS[fault], "count": 1} if fault == "503" else FAULTS[fault]
    rule = players.fake.faults.add("PATCH", r"/messages/@original$", **failing)
    ix = await players.fake.slash(players.users["Ana"], players.channel.id, "play",
                                  {"game": "castle"})
    table = await until(players.table, what="the lobby to open")
    await until(lambda: rule.fired, what="the first failure")
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert rule.fired == failing["count"]
    assert players.bot.store.messages(table.id)["lobby"][1] == ix.original.id
    assert [m.id for m in players.channel_messages() if m.buttons()] == [ix.original.id]


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_deleted_lobby_is_posted_again_through_faults(world, fault):
    clock, players = world
    first = await players.open("Ana")
    table = players.table()
    players.fake.faults.add("PATCH", EDITS, outcomes=(503,))
    await players.lobby_click("Bo", "join")  # its edit fails and waits for a retry...
    first.deleted = True  # ...meanwhile someone deletes the lobby
    rule = players.fake.faults.add("POST", POSTS, channel=players.channel.id, **FAULTS[fault])
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert rule.fired == FAULTS[fault]["count"]
    assert len([m for m in players.channel_messages() if m.buttons()]) == 1  # posted once
    assert await joins(players, table) == ["Ana", "Bo"]


async def test_a_5xx_on_a_message_is_retried_by_delivery_alone(world):
    """discord.py would sleep and resend a 500 itself; on message routes the delivery owns
    the retry, so the failed edit comes back at once and waits on the (fake) clock."""
    clock, players = world
    await players.open("Ana")
    table = players.table()
    lobby_id = players.bot.store.messages(table.id)["lobby"][1]
    players.fake.faults.add("PATCH", EDITS, outcomes=(500,))
    await players.lobby_click("Bo", "join")
    landed = [p for m, p in players.fake.requests if m == "PATCH" and p.endswith(str(lobby_id))]
    assert len(players.fake.faults.injected) == 1 and landed == []  # not resent by discord.py
    assert players.bot.delivery.pending(("lobby", table.id))
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")


async def test_a_lobby_converges_within_15_s_of_a_run_of_failures_ending(world):
    clock, players = world
    await players.open("Ana")
    table = players.table()
    failures = players.fake.faults.add("PATCH", EDITS, outcomes=(500,), count=7)
    await players.lobby_click("Bo", "join")
    while failures.fired < 7:  # the retries meet every failure (on the fake clock)
        await until(lambda: not players.bot.service._tasks, what="the bot to settle")
        clock.advance(0.25)
    ended = clock.now()
    while not lobby_shows(players, table):
        assert clock.now() - ended <= 15.0, "the lobby was still behind 15 s after the failures"
        await until(lambda: not players.bot.service._tasks, what="the bot to settle")
        clock.advance(0.25)


async def test_the_issue_a_failed_join_edit_is_retried_and_the_host_can_start(world):
    clock, players = world
    await players.open("Ana")
    table = players.table()
    players.fake.faults.add("PATCH", EDITS, outcomes=(500,), count=2)
    await players.lobby_click("Bo", "join")
    start = next(cid for cid, _, _ in players.lobby().buttons() if cid.endswith(":lobby:start"))
    assert players.lobby().button(start)["disabled"]  # Discord still shows the old lobby
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert not players.lobby().button(start).get("disabled")
    await players.lobby_click("Ana", "start")
    await until(lambda: table.status == "running", what="the game to start")


async def test_a_click_on_a_lobby_that_gave_up_republishes_it(world):
    clock, players = world
    await players.open("Ana")
    table = players.table()
    players.fake.faults.add("PATCH", EDITS, outcomes=(503,), count=delivery.MAX_TRIES)
    await players.lobby_click("Bo", "join")
    await converge(players, clock, lambda: not players.bot.delivery.slots, "giving up")
    assert not lobby_shows(players, table) and players.bot.delivery.gave_up == 1
    told = [m for m in players.fake.dms(players.users["Ana"]) if "has not taken" in m.text()]
    assert len(told) == 1  # the host hears that the channel is behind (once), not silence
    await players.lobby_click("Bo", "join")  # refused (already in), and the lobby catches up
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert await joins(players, table) == ["Ana", "Bo"]


async def play_until_fired(players: Players, table, rule,
                           clock: FakeClock | None = None) -> list[tuple[int, str]]:
    """Moves by the movers' buttons (and, given the clock, the AI's moves as they fall due)
    until one of them meets the fault; the people's (seat, action)s."""
    played = []
    while not rule.fired:
        if clock is not None and players.mover(table) is None:
            clock.advance(0)
            await until(lambda: rule.fired or players.mover(table) is not None
                        or not players.bot.service._tasks, what="the AI's move")
            continue
        seat = table.game.to_move(table.state)
        played.append((seat, await players.play_by_buttons(table)))
    return played


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_new_board_post_converges(world, fault):
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    rule = players.fake.faults.add("POST", POSTS, channel=players.channel.id, **FAULTS[fault])
    played = await play_until_fired(players, table, rule)
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert rule.fired == FAULTS[fault]["count"]
    moves = [(a["seat"], a["action"]) for a in await players.bot.store.actions(table.id)]
    assert moves == played  # each applied once, whatever Discord answered


async def test_a_retried_board_post_cut_short_again_still_retires_the_old_board(world):
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    posts = players.fake.faults.add("POST", POSTS, outcomes=(503,), channel=players.channel.id)
    await play_until_fired(players, table, posts)
    # the retry posts the board, then its edit to the newest state is cut off
    edits = players.fake.faults.add("PATCH", EDITS, outcomes=("drop",), channel=players.channel.id)
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert edits.fired == 1


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_board_edit_converges(world, fault):
    clock, players = world
    table = await players.start_game("Ana", [], ais=1)
    if players.mover(table) is None:  # the AI opens: let it move
        clock.advance(0)
        await until(lambda: players.mover(table) == "Ana", what="Ana's turn")
    rule = players.fake.faults.add("PATCH", EDITS, channel=players.channel.id, **FAULTS[fault])
    ana = players.users["Ana"]
    before = [a for a in await players.bot.store.actions(table.id) if a["user_id"] == ana]
    played = await play_until_fired(players, table, rule, clock)  # the AI's moves: edits
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert rule.fired == FAULTS[fault]["count"]
    mine = [a for a in await players.bot.store.actions(table.id) if a["user_id"] == ana]
    assert [a["action"] for a in mine[len(before):]] == [action for _, action in played]


async def test_a_deleted_board_is_posted_again(world):
    clock, players = world
    table = await players.start_game("Ana", [], ais=1)
    if players.mover(table) is None:
        clock.advance(0)
        await until(lambda: players.mover(table) == "Ana", what="Ana's turn")
    players.current_board(table).deleted = True
    players.fake.faults.add("POST", POSTS, outcomes=(503,), count=1)
    prompt = table.game.prompt(table.state, table.game.to_move(table.state))
    ix = await players.fake.slash(players.users["Ana"], players.channel.id, "move",
                                  {"action": prompt.choices[0].action})
    await ix.response()
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert not players.current_board(table).deleted


def away_seat(table) -> int:
    """A seat with nothing to do now: news to it comes by DM (a seat answering a private
    prompt is shown its news in its panel)."""
    return next(seat for seat, prompt in enumerate(table.prompts) if prompt is None)


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_dm_converges(world, fault):
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    seat = away_seat(table)
    person = table.seats[seat].user_id
    rule = players.fake.faults.add("POST", POSTS, channel=players.fake.dm_channel(person).id,
                                   **FAULTS[fault])
    secret = Change(seat, [], [Event("You found the golden key.", to=(seat,))], True, "test")
    await players.bot.publisher.send_private(table, secret)

    def delivered() -> list:
        return [m for m in players.fake.dms(person) if "golden key" in m.text()]
    await converge(players, clock, delivered, "the DM")
    assert rule.fired == FAULTS[fault]["count"]
    assert len(delivered()) == 1  # sent once, though retried


async def test_closed_dms_are_not_retried_and_the_channel_is_told_once(fake_discord, tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"], dms_open={"Ana": False})
        table = await players.start_game("Ana", ["Bo"])
        secret = Change(0, [], [Event("You found the golden key.", to=(0,))], True, "test")
        dm = fake_discord.dm_channel(players.users["Ana"]).id
        await converge(players, clock, lambda: table.seats[0].dm_closed, "the closed DMs")
        await players.bot.publisher.send_private(table, secret)
        await converge(players, clock, lambda: True, "nothing")
        clock.advance(600)
        await until(lambda: not players.bot.service._tasks)
        tries = [p for m, p in fake_discord.requests if m == "POST" and p.endswith(f"{dm}/messages")]
        told = [m for m in players.channel_messages() if "DMs are closed" in m.text()]
        assert len(tries) == 1 and len(told) == 1
    finally:
        await harness.stop()


@pytest.mark.parametrize("fault", FAULTS)
async def test_the_gatekeeper_on_the_table_converges(world, fault):
    clock, players = world
    table = await players.start_game("Ana", ["Bo", "Cy"], game="atmosfear")
    rule = players.fake.faults.add("POST", POSTS, channel=players.channel.id, **FAULTS[fault])
    for _ in range(200):  # fears, then play, until he takes the screen
        if players.table().state.data["gk"]["on"]:
            break
        human = next((i for i, s in enumerate(table.seats)
                      if table.game.prompt(players.table().state, i) is not None), None)
        if human is not None:
            await players.play_by_buttons(players.table(), seat=human)
        clock.advance(4)
        await players.settle()
    line = table.fill(players.table().state.data["gk"]["line"])
    await converge(players, clock, lambda: board_shows(players, players.table()), "the table")
    assert rule.fired == FAULTS[fault]["count"]
    shown = [m for m in players.fake.channel_messages(players.channel.id, include_deleted=True)
             for m in [m, *m.edits] if line in m.text()]
    assert shown, "his line never reached the channel"
    assert len([m for m in players.channel_messages() if is_board(m)]) == 1  # posted once


# -- the soak ------------------------------------------------------------------------------------------
async def test_a_small_soak_plays_to_the_end_with_nothing_applied_twice():
    # people quicker than the benchmark's (same seeded faults: 429, 500, 503, drops, moves resent)
    result = await Soak(games=1, failure=0.05, seed=3, think=0.05, resend_after=1.0).run()
    assert result["ended"] == result["final_board_shown"] == 1
    assert result["applied_twice"] == 0 and result["stray_boards"] == 0
    # the run did meet every kind of failure
    assert set(result["injected"]) == {"429", "500", "503", "drop", "drop-after"}


# -- after a restart: what was committed but not yet shown catches up --------------------------------
def lobby_edits(players: Players, table) -> int:
    _, lobby_id = players.bot.store.messages(table.id)["lobby"]
    return sum(1 for m, p in players.fake.requests if m == "PATCH" and p.endswith(f"/{lobby_id}"))


async def test_the_issue_after_a_restart_the_lobby_catches_up_and_the_host_can_start(stored_world):
    clock, players = stored_world
    await players.open("Ana")
    table = players.table()
    rule = players.fake.faults.add("PATCH", EDITS, channel=players.channel.id, outcomes=(500,))
    await players.lobby_click("Bo", "join")
    assert rule.fired == 1 and players.bot.delivery.pending(("lobby", table.id))
    await players.harness.restart()  # the retry that was waiting is gone with the process
    table = players.table()
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert await joins(players, table) == ["Ana", "Bo"]  # the join counted once
    start = next(cid for cid, _, _ in players.lobby().buttons() if cid.endswith(":lobby:start"))
    assert not players.lobby().button(start).get("disabled")
    await players.lobby_click("Ana", "start")
    await until(lambda: table.status == "running", what="the game to start")


async def test_a_restart_leaves_a_lobby_that_is_shown_alone(stored_world):
    clock, players = stored_world
    await players.open("Ana")
    await players.lobby_click("Bo", "join")
    table = players.table()
    edits = lobby_edits(players, table)
    await players.harness.restart()
    await converge(players, clock, lambda: True, "start-up")
    assert lobby_edits(players, players.table()) == edits


async def test_after_a_restart_the_lobby_of_a_started_game_closes(world):
    clock, players = world
    await players.open("Ana")
    await players.lobby_click("Bo", "join")
    table = players.table()
    _, lobby_id = players.bot.store.messages(table.id)["lobby"]
    players.fake.faults.add("PATCH", rf"/messages/{lobby_id}$", outcomes=(503,))
    await players.lobby_click("Ana", "start")
    assert players.fake.messages[lobby_id].buttons()  # still offers Join and Start
    await players.harness.restart()
    table = players.table()
    await converge(players, clock, lambda: lobby_shows(players, table), "the lobby")
    assert table.status == "running" and not any(
        cid.endswith(":lobby:start") for cid, _, _ in players.fake.messages[lobby_id].buttons())


async def test_a_dm_still_waiting_merges_into_the_next_turns_so_no_event_is_lost(world):
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    seat = away_seat(table)
    ana = table.seats[seat].user_id
    before = len(players.fake.dms(ana))
    rule = players.fake.faults.add("POST", POSTS, channel=players.fake.dm_channel(ana).id,
                                   outcomes=(503,), count=2)
    for text in ("You found the golden key.", "You heard the door creak."):  # two turns
        await players.bot.publisher.send_private(
            table, Change(seat, [], [Event(text, to=(seat,))], True, "test"))
    await until(lambda: not players.bot.service._tasks, what="the DM's first try")  # (background)
    assert rule.fired == 1  # the first turn's DM waits; the second merges into it
    await converge(players, clock, lambda: len(players.fake.dms(ana)) > before, "the DM")
    sent = [m.text() for m in players.fake.dms(ana)[before:]]
    assert len(sent) == 1 and rule.fired == 2
    assert sent[0].index("golden key") < sent[0].index("door creak")


def test_merged_dms_show_the_latest_private_state_whichever_arrives_last():
    older, newer = SimpleNamespace(version=3), SimpleNamespace(version=5)
    first = PrivateNote(older, 0, [Event("a", to=(0,))])
    second = PrivateNote(newer, 0, [Event("b", to=(0,))])
    for merged in (PrivateNote.merge(first, second), PrivateNote.merge(second, first)):
        assert merged.table is newer
    assert [e.text for e in PrivateNote.merge(first, second).events] == ["a", "b"]


def hand_in(table, seat: int) -> str:
    return table.fill(table.game.private_text(table.state, seat))


async def test_after_a_restart_a_dm_that_was_waiting_shows_the_current_hand_once(stored_world):
    clock, players = stored_world
    bo = players.users["Bo"]
    failing = players.fake.faults.add("POST", POSTS, channel=players.fake.dm_channel(bo).id,
                                      outcomes=(503,), count=None)
    table = await players.start_game("Ana", ["Bo"])
    await players.play_by_buttons(table)
    moves = [(a["seq"], a["action"]) for a in await players.bot.store.actions(table.id)]
    assert failing.fired and players.fake.dms(bo) == []
    failing.count = 0  # Discord recovers, but the process restarts before the retry
    await players.harness.restart()
    table = players.table()
    await converge(players, clock, lambda: players.fake.dms(bo), "Bo's DM")
    assert [m.text() for m in players.fake.dms(bo)] == [
        present.hand_message(table, table.seat_of(bo), [], players.bot.publisher.jump_url(table),
                             "en")]
    # Bo's DM shows his current hand (Ana's last DM is older: her own move is no news to her)
    assert hand_in(table, table.seat_of(bo)) in players.fake.dms(bo)[-1].text()
    sent = {user: len(players.fake.dms(user)) for user in table.humans()}
    await players.harness.restart()  # nothing is behind now: nothing is sent again
    await converge(players, clock, lambda: True, "start-up")
    assert {user: len(players.fake.dms(user)) for user in table.humans()} == sent
    assert [(a["seq"], a["action"]) for a in await players.bot.store.actions(table.id)] == moves


async def test_after_a_restart_a_player_whose_dms_closed_is_told_once_to_use_hand(stored_world):
    clock, players = stored_world
    table = await players.start_game("Ana", ["Bo"])
    seat = away_seat(table)
    ana = table.seats[seat].user_id
    players.fake.users[ana].dms_open = False  # she closes her DMs during the game
    notices = players.fake.faults.add("POST", POSTS, channel=players.channel.id, outcomes=(503,))
    secret = Change(seat, [], [Event("You found the golden key.", to=(seat,))], True, "test")
    await players.bot.publisher.send_private(table, secret)
    await until(lambda: notices.fired == 1, what="the DM's refusal and the notice's first try")
    assert table.seats[seat].dm_closed  # committed first

    def told() -> list:
        return [m for m in players.channel_messages() if "DMs are closed" in m.text()]
    await players.harness.restart()
    await converge(players, clock, told, "the notice")
    await players.harness.restart()  # told already: not again
    await converge(players, clock, lambda: True, "start-up")
    assert len(told()) == 1 and f"<@{ana}>" in told()[0].text()


async def test_after_a_restart_a_board_whose_post_failed_catches_up(stored_world):
    clock, players = stored_world
    table = await players.start_game("Ana", ["Bo"])
    failing = players.fake.faults.add(None, r"/messages(/\d+)?$", channel=players.channel.id,
                                      outcomes=(500, 503, "drop"), count=None)
    played = await play_until_fired(players, table, failing)
    assert players.bot.store.shown_version(table.id) < table.version
    failing.count = 0
    await players.harness.restart()
    table = players.table()
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    moves = [(a["seat"], a["action"]) for a in await players.bot.store.actions(table.id)]
    assert moves == played  # each applied once, across the failures and the restart


async def orphan_then_restart(world):
    """A board post lands while the bot never hears so; the bot restarts (the post's retry is
    gone with the process) and start-up's first look for orphans fails once. The orphan, the
    failing look's fault, and the table."""
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    landed = players.fake.faults.add("POST", POSTS, outcomes=("drop-after",),
                                     channel=players.channel.id)
    await play_until_fired(players, table, landed)
    orphan = players.boards()[-1]
    assert orphan.id != players.current_board(table).id and orphan.buttons()
    scan = players.fake.faults.add("GET", POSTS, outcomes=(503,), channel=players.channel.id)
    await players.harness.restart()
    return orphan, scan, players.table()


async def test_after_a_restart_a_board_that_landed_unrecorded_loses_its_buttons(world):
    """A board post that landed while the bot never heard so, the process then stopping, leaves
    a board with live buttons that the store does not know; the store's mark says a post was
    under way. If start-up's look for it fails (or comes late), the game's next post must not
    clear that mark with its own: it looks first, so the orphan is never forgotten."""
    clock, players = world
    orphan, scan, table = await orphan_then_restart(world)
    await converge(players, clock, lambda: scan.fired, "start-up's look")
    recorded = players.current_board(table).id
    while players.current_board(table).id == recorded:  # until the next turn's board is posted
        await players.play_by_buttons(table)
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert players.fake.messages[orphan.id].deleted
    live = [m.id for m in players.channel_messages() if m.buttons() and is_board(m)]
    assert live == [players.current_board(table).id]


async def test_after_a_restart_a_failed_look_for_an_orphaned_board_is_retried(world):
    """Start-up's look for a board that landed unrecorded is retried when it fails for a
    passing reason, even when no new board follows (here the live one already shows the turn:
    the post that landed was owed for it)."""
    clock, players = world
    orphan, scan, table = await orphan_then_restart(world)
    await converge(players, clock, lambda: board_shows(players, table), "the board")
    assert scan.fired == 1 and players.fake.messages[orphan.id].deleted


async def test_a_new_turn_whose_post_waited_is_posted_after_a_restart(world):
    """The turn passes while the channel's posts are spent: the live table is edited to show it
    and the new post (which pings whoever must act) waits. A restart meanwhile must not lose
    that post: the store keeps the debt."""
    clock, players = world
    table = await players.start_game("Ana", ["Bo"])
    # the board's post, then the owed post when it tries: refused for 90 s (our retry's wait)
    spent = players.fake.faults.add("POST", POSTS, outcomes=(429,), retry_after=90.0,
                                    channel=players.channel.id, count=2)
    await play_until_fired(players, table, spent)
    await until(lambda: spent.fired == 2 and not players.bot.service._tasks,
                what="the owed post to be refused too")
    assert players.bot.store.shown_version(table.id) == table.version  # by an edit
    edited = players.current_board(table)
    await players.harness.restart()
    table = players.table()
    await converge(players, clock, lambda: board_shows(players, table)
                   and players.current_board(table).id != edited.id, "the owed post")
    assert players.bot.store.shown_version(table.id, publisher.OWED) == 0

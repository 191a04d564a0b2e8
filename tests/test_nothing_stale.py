"""Nothing on screen is stale: every game played to its end through the fake Discord on the fake
clock (Atmosfear with the Gatekeeper's calls, some of them left unanswered), and every version of
every table and lobby message the channel showed read for words that no longer held while it
was on screen:

- "The game begins!" after the first turn;
- a countdown (`<t:…:R>`) already past when the version was shown, or still on screen after it
  passed (its window closed and the table was not changed to say how it ended);
- a turn deadline in the header later than the game clock's end;
- a lobby calling people to join after the game started, or telling everyone (the seated host
  too) to Join;
- a carried summary that says only "no moves".

The clock moves to each timer's due time exactly, so a table changed when its timer fires is
changed at the time its countdown named.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

import games
from bot import livetable
from bot.clock import FakeClock
from fakediscord import FakeDiscord, Message
from sandbox.harness import is_board
from bot.table import Seat, Table
from games.core import Rng, apply, decide, setup
from tests.harness import InThreadHarness, Players, until

SHORT = {"kingdom": {"rounds": 50}, "firetop": {"rounds": 30}, "atmosfear": {"minutes": 20}}
SECONDS_PER_MOVE = 4.0
COUNTDOWN = re.compile(r"<t:(\d+):R>")
TURN = re.compile(r"^### .+ · turn (\d+)$", re.M)
TURN_DEADLINE = re.compile(r"^➡️ .*· <t:(\d+):R>$", re.M)
GAME_CLOCK = re.compile(r"game clock runs out <t:(\d+):R>")
SENTENCE = re.compile(r"[^.;!?\n]*\bJoin\b[^.;!?\n]*")


@dataclass
class Shown:
    """One version of a channel message: what it showed, from when until when (fake clock)."""

    message: Message
    since: float
    until: float | None = None


@dataclass
class Screen:
    """Every version of every public message of the channel, timed on the fake clock. A version
    ends when the next one of its message is shown, or when the message is seen deleted (the
    channel is looked at after every settled step, before the clock moves)."""

    clock: FakeClock
    channel_id: int
    versions: dict[int, list[Shown]] = field(default_factory=dict)

    def record(self, message: Message) -> None:
        if message.channel_id != self.channel_id:
            return
        now = self.clock.now()
        shown = self.versions.setdefault(message.id, [])
        if shown:
            shown[-1].until = now
        shown.append(Shown(message.snapshot(), now))

    def look(self, fake: FakeDiscord) -> None:
        """Close the versions of messages deleted since the last look."""
        for message in fake.channel_messages(self.channel_id, include_deleted=True):
            shown = self.versions.get(message.id)
            if message.deleted and shown and shown[-1].until is None:
                shown[-1].until = self.clock.now()

    def tables(self) -> list[Shown]:
        return [v for shown in self.versions.values() for v in shown if is_board(v.message)]

    def lobby(self, lobby_id: int) -> list[Shown]:
        return self.versions.get(lobby_id, [])


def stale_tables(screen: Screen, end: float) -> list[str]:
    """What every version of every table message said that no longer held while it showed."""
    found: list[str] = []
    tables = screen.tables()
    first_turn = min(int(m.group(1)) for v in tables if (m := TURN.search(v.message.text())))
    for version in tables:
        text = version.message.text()
        gone = version.until if version.until is not None else end
        turn = TURN.search(text)
        if "The game begins!" in text and turn and int(turn.group(1)) != first_turn:
            found.append(f"begins at turn {turn.group(1)}: {text[:200]!r}")
        for stamp in map(int, COUNTDOWN.findall(text)):
            if stamp < version.since:
                found.append(f"countdown {stamp - version.since:+.0f} s when shown: {text[:300]!r}")
            elif stamp < gone:
                found.append(f"countdown still shown {gone - stamp:.0f} s after it passed: "
                             f"{text[:300]!r}")
        deadline, clock = TURN_DEADLINE.search(text), GAME_CLOCK.search(text)
        if deadline and clock and int(deadline.group(1)) > int(clock.group(1)):
            found.append(f"turn deadline after the game clock: {text[:300]!r}")
        if re.search(r"\*\*Turns? [\d–]+\*\*: no moves", text):
            found.append(f"a turn carried as 'no moves': {text[:300]!r}")
    return found


def stale_lobby(versions: list[Shown]) -> list[str]:
    """A lobby may invite to Join only while it is open, and only those without a seat."""
    found: list[str] = []
    for version in versions:
        message = version.message
        open_ = any(cid.endswith(":lobby:join") and not disabled
                    for cid, _, disabled in message.buttons() if cid)
        for sentence in SENTENCE.findall(message.text()):
            if not open_:
                found.append(f"a call to join after the start: {sentence.strip()!r}")
            elif "without a seat" not in sentence:
                found.append(f"a call to join to the seated too: {sentence.strip()!r}")
    return found


async def play(players: Players, clock: FakeClock, screen: Screen, game: str
               ) -> tuple[Table, int]:
    """Everyone in every seat plays their AI's choice, one move every few seconds; in Atmosfear
    every other call of the Gatekeeper to a person goes unanswered."""
    fake = players.fake
    lobby = await players.open("Ana", game)
    for name, value in SHORT.get(game, {}).items():
        await players.choose_option("Ana", name, value)
    for name in ("Bo", "Cy"):
        await players.lobby_click(name, "join")
    await players.lobby_click("Ana", "start")
    table = await until(lambda: (t := players.table()) and t.status == "running" and t,
                        what="the start")
    calls: list[tuple[int, int]] = []  # (turn, seat) of each call to a person
    frozen: set[tuple[int, int]] = set()
    for _ in range(20_000):
        await players.settle(table)
        screen.look(fake)
        if table.status != "running":
            break
        public = table.game.view(table.state, None)
        interlude = table.game.interlude(public)
        waiting = [s for s, p in enumerate(table.prompts)
                   if p is not None and not table.seats[s].ai]
        called = interlude.get("calls") if interlude else None
        call = (table.state.turn, called)
        if called is not None and called in waiting and call not in calls:
            calls.append(call)
            if len(calls) % 2 == 0:
                frozen.add(call)  # the called player freezes: his answer window closes
        if call in frozen:
            waiting.remove(called)
        if waiting:
            await players.play_by_buttons(table, seat=waiting[0])
        await tick(players, clock, screen, table)
    await players.settle(table)
    screen.look(fake)
    assert table.status == "over"
    if game == "atmosfear":
        assert frozen, "no Gatekeeper call was left unanswered"
    return table, lobby.id


async def tick(players: Players, clock: FakeClock, screen: Screen, table: Table) -> None:
    """A move's few seconds pass, stopping at each timer's due time on the way."""
    left = SECONDS_PER_MOVE
    while left > 0 and table.status == "running":
        now = clock.now()
        step = min([left] + [t["due_at"] - now for t in table.timers if t["due_at"] > now])
        clock.advance(step)
        await players.settle(table)
        screen.look(players.fake)
        left -= step


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_no_table_or_lobby_ever_shows_words_that_no_longer_hold(game, fake_discord,
                                                                      tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
        screen = Screen(clock, players.channel.id)
        fake_discord.on_public_message = screen.record
        lobby = await players.open("Ana", game)
        # the host is seated from the start: Join is for others, and says so to a seated clicker
        ix = await players.lobby_click("Ana", "join")
        refusal = (await ix.wait_followups())[0].content
        await players.lobby_click("Ana", "cancel")
        table, started = await play(players, clock, screen, game)
        stale = stale_tables(screen, clock.now()) + stale_lobby(screen.lobby(lobby.id)) \
            + stale_lobby(screen.lobby(started))
        if refusal != "You're already seated; Leave to give up your seat.":
            stale.append(f"a seated host clicking Join is told {refusal!r}")
        assert not stale, "\n".join(stale)
        assert len(screen.lobby(started)) >= 2 and len(screen.tables()) > 20
    finally:
        await harness.stop()


def visiting_gatekeeper() -> tuple[Table, float]:
    """An Atmosfear table the Gatekeeper has just come on to (self-play from the start, on
    the game's own timers), and the time he came."""
    game = games.get("atmosfear")
    state = setup(game, 3, {"minutes": 20}, 7)
    now = 1_700_000_000.0
    for seat in range(3):
        state = apply(game, state, seat, f"fear {seat}", now).state
    while not state.data["gk"]["on"]:
        mover = game.to_move(state)
        due = min(t["due"] for t in game.timers(state))
        if due <= now + SECONDS_PER_MOVE:
            now = due
            timer = next(t for t in game.timers(state) if t["due"] == due)
            state = apply(game, state, timer["seat"], timer["action"], now).state
        else:
            now += SECONDS_PER_MOVE
            state = apply(game, state, mover, decide(game, state, mover, Rng(state.version)),
                          now).state
    table = Table(id=1, guild_id=1, channel_id=1, game=game, host_id=1, seed=7, options={},
                  seats=[Seat(name) for name in ("Ana", "Bo", "Cy")], status="running",
                  state=state, prompts=[game.prompt(state, s) for s in range(3)])
    return table, now


def test_a_clock_running_out_while_the_gatekeeper_is_on_screen_counts_down_to_nothing():
    """What falls due while he is on screen waits until he leaves: a clock that runs out
    before then must not show a countdown that passes with nothing changing on the table."""
    table, now = visiting_gatekeeper()
    game, state = table.game, table.state
    leaves = min(t["due"] for t in game.timers(state))
    for end in (now + 1, leaves, now - 30):  # before he leaves, as he leaves, already past
        state.data["clock"]["end"] = end
        who = livetable.acting(table, game.view(state, None), now, "en")
        assert who.interlude is not None and "<t:" not in who.clock, who.clock
        assert "time is up as THE GATEKEEPER leaves" in who.clock
    state.data["clock"]["end"] = leaves + 60  # after he leaves: the countdown stands
    who = livetable.acting(table, game.view(state, None), now, "en")
    assert who.clock == f"⏳ The game clock runs out {livetable.countdown(leaves + 60)}."
    state.data["gk"]["on"] = False  # he left, and the clock's end is overdue for a moment
    state.data["clock"]["end"] = now - 1
    assert livetable.acting(table, game.view(state, None), now, "en").clock \
        == "⏳ The game clock has run out."

"""What a game leaves in its channel and its players' DMs: writes per move, DMs per own turn,
messages left after the end, and whether anything left still looks live.

Each game is played to its end through the fake Discord by people in every seat, each clicking
the choice the smart AI would make (the bot's own click paths: buttons, the "Take my turn"
panel, modals), on a fake clock: 4 s per move, so a game with a game clock, played on its 20-minute one,
lasts its 20 minutes. Measured from the fake's own request log:

- channel writes: REST posts, edits and deletes of messages in the game's channel (what spends
  the channel's rate limits); edits and deletes made through a click's interaction are counted
  apart (they spend none, and every click must be answered anyway);
- DMs per own turn: the players' DMs over the turns that came to them, at the standard pace
  (players at the table: a card drawn in their turn shows in their panel, so a DM is for news
  from away: others' turns, their own move's result, the start, the end) and, for a game with a
  pace, again at the relaxed and correspondence paces (the turn DM of bot.notify carries the
  news: one DM a turn);
- echo DMs: two DMs in a row with the same text, at any pace;
- ephemerals per own turn: the ephemeral messages the players are left with (panels,
  replies; one a newer panel replaced is gone) over the turns that came to them;
- messages left: the channel's messages after the end (the lobby included);
- stale: messages left showing a move button of a seat or a "to move" line.

Run: `python -m bench.table_volume [--seeds 1] [--out docs/performance.md]`.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import games
from bot import pace
from bot.clock import FakeClock
from fakediscord import FakeDiscord, patch_discord
from sandbox.harness import BotHarness
from sandbox.people import Players
from bot.notify import turn_changed
from bot.table import Table
from games.core import apply, setup

from .report import budget, produced_by, publish

WRITES_PER_MOVE = 1.2
CLOCKED_MESSAGES = 40  # messages a 20-minute game on a game clock leaves at most
SECONDS_PER_MOVE = 4.0
SEATS = 3
CLOCK = {"minutes": 20}  # a game with a game clock plays the 20-minute one
WRITE_METHODS = ("POST", "PATCH", "DELETE")
STALE_TEXT = re.compile(r"➡️|nobody moves|: answer him")  # what only a live header says
# DMs per own turn at the standard pace, at most: players sit at the table, so a DM is news from
# away, which most turns do not bring (a card drawn in one's turn shows in one's panel)
AT_THE_TABLE_DMS = 0.5
SLOW_PACES = pace.NOTIFIED  # paces played again for their DMs (one turn DM a turn)


@dataclass
class Volume:
    game: str
    moves: int = 0
    channel_writes: int = 0
    click_writes: int = 0
    messages_left: int = 0
    stale: list[str] = field(default_factory=list)
    dms: dict[str, int] = field(default_factory=dict)
    own_turns: dict[str, int] = field(default_factory=dict)
    echo_dms: int = 0
    ephemerals: dict[str, int] = field(default_factory=dict)
    minutes: float = 0.0
    clocked: bool = False  # played on the 20-minute game clock
    pace: str = "standard"
    slower: list["Volume"] = field(default_factory=list)  # the same game at the SLOW_PACES

    @property
    def writes_per_move(self) -> float:
        return self.channel_writes / max(1, self.moves)

    @property
    def dms_over_turns(self) -> int:
        """DMs beyond one per own turn (+1 at the start), summed over players: 0 is the target."""
        return sum(max(0, n - self.own_turns.get(who, 0) - 1) for who, n in self.dms.items())

    @property
    def dms_per_turn(self) -> float:
        return sum(self.dms.values()) / max(1, sum(self.own_turns.values()))

    @property
    def ephemerals_per_turn(self) -> float:
        return sum(self.ephemerals.values()) / max(1, sum(self.own_turns.values()))


def own_turns(table: Table, rows: list[dict[str, Any]]) -> dict[int, int]:
    """How many turns came to each seat, replaying the log: its prompt appeared, or the turn
    passed while it stayed asked (an extra turn), as TableService counts a turn coming."""
    game = table.game
    state = setup(game, len(table.seats), table.options, table.seed)
    asked = [game.prompt(state, s) is not None for s in range(len(table.seats))]
    counts = {s: int(a) for s, a in enumerate(asked)}
    for row in rows:
        before = state
        state = apply(game, state, row["seat"], row["action"], row["at"]).state
        passed = turn_changed(game, before, state)
        now = [game.prompt(state, s) is not None for s in range(len(table.seats))]
        for seat, (was, now_asked) in enumerate(zip(asked, now)):
            counts[seat] += int(now_asked and (passed or not was))
        asked = now
    return counts


async def measure(players: Players, table: Table, first_request: int = 0) -> Volume:
    """The figures of a finished game played in `players`' channel."""
    fake, store = players.fake, players.bot.store
    channel = str(players.channel.id)
    rows = await store.actions(table.id)
    volume = Volume(table.game.name, moves=len(rows))
    for method, path in fake.requests[first_request:]:
        if method in WRITE_METHODS and f"/channels/{channel}/messages" in path:
            volume.channel_writes += 1
        elif method in ("PATCH", "DELETE") and "/webhooks/" in path and "@original" in path:
            volume.click_writes += 1
    left = players.channel_messages()
    volume.messages_left = len(left)
    marker = f"gk:{table.id}:"
    for message in left:
        live = [cid for cid, _, disabled in message.buttons()
                if cid and cid.startswith(marker) and cid.split(":")[2].isdigit() and not disabled]
        if live or STALE_TEXT.search(message.text()):
            volume.stale.append(message.text()[:120])
    turns = own_turns(table, rows)
    for seat_index, seat in enumerate(table.seats):
        if seat.ai or seat.user_id is None:
            continue
        dms = [m.text() for m in fake.dms(seat.user_id)]
        volume.dms[seat.name] = len(dms)
        volume.ephemerals[seat.name] = len(fake.ephemerals(seat.user_id))
        volume.own_turns[seat.name] = turns[seat_index]
        volume.echo_dms += sum(a == b for a, b in zip(dms, dms[1:]))
    if rows:
        volume.minutes = (rows[-1]["at"] - rows[0]["at"]) / 60
    return volume


async def play(game_name: str, seed: int, home: Path, options: dict[str, Any] | None = None,
               each_step: Callable[[Players, Table], None] | None = None) -> Volume:
    """One game of `game_name`, people in every seat, to its end; its figures. `each_step`
    looks at the channel whenever the bot has shown a commit (the tests' checks)."""
    fake = FakeDiscord(real_rate_limits=False)
    await fake.start()
    restore = patch_discord(fake)
    clock = FakeClock()
    paced = (options or {}).get("pace", "standard")
    harness = BotHarness(fake, home / f"{game_name}-{seed}-{paced}.db", clock=clock, seed=seed,
                         render_workers=0, turn_timeout=100_000.0)
    try:
        await harness.start()
        game = games.get(game_name)
        names = [f"Player {n + 1}" for n in range(min(game.max_seats, max(game.min_seats, SEATS)))]
        players = Players(fake, harness, names)
        await players.open(names[0], game_name)
        clock_options = CLOCK if set(CLOCK) <= set(game.option_choices) else {}
        for name, value in {**clock_options, **(options or {})}.items():
            # the bot's own options (pace) share one select, whose values name the option
            choice = f"{name}={value}" if name in pace.OPTIONS else value
            await players.choose_option(names[0], name, choice)
        for name in names[1:]:
            await players.lobby_click(name, "join")
        await players.lobby_click(names[0], "start")
        table = players.table()
        assert table is not None
        for _ in range(20_000):
            if table.status != "running":
                break
            if each_step is not None:
                each_step(players, table)
            waiting = [s for s, p in enumerate(table.prompts) if p is not None]
            if waiting:
                await players.play_by_buttons(table, seat=waiting[0])
            clock.advance(SECONDS_PER_MOVE)
            await players.settle(table)
        await players.settle(table)
        volume = await measure(players, table)
        volume.clocked = bool(clock_options)
        volume.pace = str(table.options.get("pace") or "standard")
        return volume
    finally:
        await harness.stop()
        restore()
        await fake.stop()


def per_pace(volume: Volume, pace_name: str) -> str:
    """DMs per own turn of `volume`'s game at `pace_name` ("-" where the game has no pace)."""
    runs = [r for r in [volume, *volume.slower] if r.pace == pace_name]
    return f"{runs[0].dms_per_turn:.2f}" if runs else "-"


def all_runs(results: list[Volume]) -> list[Volume]:
    return [run for volume in results for run in [volume, *volume.slower]]


def section(results: list[Volume], command: str) -> list[str]:
    writes = sum(r.channel_writes for r in results) / max(1, sum(r.moves for r in results))
    clocked = [r.messages_left for r in results if r.clocked]
    runs = all_runs(results)
    met = writes <= WRITES_PER_MOVE and all(not r.stale and not r.echo_dms for r in runs) \
        and all(r.dms_per_turn <= AT_THE_TABLE_DMS for r in results) \
        and all(not r.dms_over_turns for r in runs if r.pace in SLOW_PACES) \
        and all(n <= CLOCKED_MESSAGES for n in clocked)
    return [
        "## The table in the channel: writes, DMs, messages left",
        f"{produced_by(command)}. Each game played to its end by people in every seat clicking "
        f"the smart AI's choice, {SECONDS_PER_MOVE:.0f} s a move on a fake clock (a game with a "
        "game clock: its 20-minute one). Channel writes: posts, edits and deletes in the channel "
        "(click writes: through a click's interaction, apart). DMs and ephemerals left (panels, "
        "replies): per turn of a player's; DMs per pace (replayed at the slow ones).",
        "",
        "| game | moves | minutes | channel writes | per move | click writes | DMs per turn: "
        "standard · relaxed · correspondence | echo DMs | ephemerals per turn | messages left "
        "| stale |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
        *(f"| {r.game} | {r.moves} | {r.minutes:.0f} | {r.channel_writes} | "
          f"{r.writes_per_move:.2f} | {r.click_writes} | "
          + " · ".join(per_pace(r, name) for name in ("standard", *SLOW_PACES))
          + f" | {sum(run.echo_dms for run in [r, *r.slower])} | {r.ephemerals_per_turn:.2f} | "
            f"{r.messages_left} | {len(r.stale)} |" for r in results),
        "",
        f"All games: {writes:.2f} channel writes per move. " + budget(
            f"at most {WRITES_PER_MOVE} writes per move, {AT_THE_TABLE_DMS} DMs a turn at the "
            f"standard pace, one (+1 at the start) at the slow ones, no echo, a 20-minute game "
            f"at most {CLOCKED_MESSAGES} messages, nothing stale", met),
    ]


async def run(seeds: int) -> list[Volume]:
    results = []
    with tempfile.TemporaryDirectory() as home:
        for game in games.all_games():
            for seed in range(1, seeds + 1):
                volume = await play(game.name, seed, Path(home))
                if pace.applies(game):
                    for name in SLOW_PACES:
                        volume.slower.append(await play(game.name, seed, Path(home),
                                                        {"pace": name}))
                results.append(volume)
                print(volume, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/performance.md"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    results = asyncio.run(run(args.seeds))
    command = "python -m bench.table_volume" + (f" --seeds {args.seeds}" if args.seeds != 1 else "")
    lines = section(results, command)
    publish(args.out, "table", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

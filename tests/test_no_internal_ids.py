"""No internal id reaches a player: every game is played through the fake Discord, people
clicking beside an AI seat, and every text anyone can read is searched for the game's ids
(tests/internal_ids.py builds them from the data and the engines' tables).

Read: every version of every message (the channel, DMs, ephemeral replies, /hand and /log
answers): content, embeds, text displays, button labels, select placeholders, option labels and
descriptions, attachment descriptions; and every string the board renderer draws.
"""
from __future__ import annotations

import asyncio
from typing import Any, Iterator

import pytest

import games
from bot.clock import FakeClock
from fakediscord import FakeDiscord, Message
from fakediscord.models import walk_components
from tests.drawn_text import record_drawn_text
from tests.harness import InThreadHarness, Players
from tests.internal_ids import id_pattern

HUMAN_MOVES = 30  # per game: enough for moves, hazards, flights, fights and their logs
LOOK_EVERY = 6    # every so many moves each person asks for /hand and /log


def component_texts(components: Any) -> Iterator[str]:
    for c in walk_components(components):
        for key in ("label", "placeholder", "content"):
            if c.get(key):
                yield str(c[key])
        for option in c.get("options") or []:
            yield str(option.get("label") or "")
            yield str(option.get("description") or "")


def message_texts(message: Message) -> Iterator[str]:
    """Everything a person reads in one version of a message."""
    yield message.text()
    for embed in message.embeds:
        for field in embed.get("fields") or []:
            yield str(field.get("name", ""))
            yield str(field.get("value", ""))
        for key in ("image", "thumbnail"):
            yield str((embed.get(key) or {}).get("description") or "")
    yield from component_texts(message.components)
    for meta in message.attachment_meta:
        yield str((meta or {}).get("description") or "")


def read_everything(fake: FakeDiscord) -> Iterator[tuple[str, str]]:
    """(where, text) for every version of every message the fake holds, ephemeral ones too."""
    for message in list(fake.messages.values()):
        where = "ephemeral" if message.ephemeral else f"channel {message.channel_id}"
        for version in [message, *message.edits]:
            for text in message_texts(version):
                yield where, text


async def drain(bot) -> None:
    for _ in range(3):
        await asyncio.sleep(0)
        if bot.service._tasks:
            await asyncio.gather(*list(bot.service._tasks))


async def look(fake: FakeDiscord, players: Players, names: list[str]) -> None:
    for name in names:
        for command in ("hand", "log"):
            ix = await fake.slash(players.users[name], players.channel.id, command, {})
            await ix.response()


async def play(fake: FakeDiscord, players: Players, clock: FakeClock, game: str, people: list[str],
               ais: int) -> None:
    """People and an AI play `game`: each person clicks the AI's pick for them through the real
    buttons, selects and text boxes; timers (the AI, a game clock) run on the fake clock."""
    table = await players.start_game(people[0], people[1:], ais=ais, game=game)
    bot = players.bot
    moves = 0
    for _ in range(40 * HUMAN_MOVES):
        if table.status != "running" or moves >= HUMAN_MOVES:
            break
        clock.advance(0)
        await drain(bot)
        await players.settle(table)
        if table.status != "running":
            break
        human = next((i for i, s in enumerate(table.seats)
                      if not s.ai and table.game.prompt(table.state, i) is not None), None)
        if human is None:
            clock.advance(4)  # the AI thinks, a game clock runs on
            continue
        await players.play_by_buttons(table, seat=human)
        moves += 1
        if moves % LOOK_EVERY == 0:
            await look(fake, players, people)
    await players.settle(table)
    await look(fake, players, people)
    assert moves >= min(HUMAN_MOVES, 10) or table.status != "running", f"{game}: only {moves} moves"


@pytest.mark.parametrize("game", sorted(g.name for g in games.all_games()))
async def test_no_internal_id_reaches_a_player(fake_discord, tmp_path, monkeypatch, game):
    drawn = record_drawn_text(monkeypatch)  # what the board pictures say
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock, turn_timeout=100_000.0)
    await harness.start()
    try:
        people = ["Ana", "Bo"]
        players = Players(fake_discord, harness, people)
        seats = games.get(game).min_seats
        await play(fake_discord, players, clock, game, people, ais=max(1, seats - len(people)))
        pattern = id_pattern(game)
        found = sorted({(where, hit.group(1), text[:120])
                        for where, text in [*read_everything(fake_discord), *(("image", t) for t in drawn)]
                        for hit in pattern.finditer(text)})
        assert drawn, "no board was drawn"
        assert found == [], "\n".join(f"{where}: {ident!r} in {text!r}" for where, ident, text in found[:30])
    finally:
        await harness.stop()

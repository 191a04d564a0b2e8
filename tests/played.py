"""Games played once per test run and read by every test that only reads them.

Each game is played as the live-table benchmark plays it (bench.table_volume.play: people in
every seat clicking the smart AI's choice, a move every 4 s on a fake clock, the shortest game
its lobby offers) once per test run, and what the channel and the table showed after every step
is recorded: tests/test_live_table.py and tests/test_story_channel.py check the record instead
of each playing the game again. The first worker to ask plays the game and leaves the record in
the run's temporary folder for the other workers (pytest-xdist gives them whole files, so the
two files may run in different workers). A record holds only frozen data (tuples, frozensets,
strings; its figures are copied for each reader), so no test can change what another reads; a
game whose play failed fails every test of the worker that reads it, with the same error.
"""
from __future__ import annotations

import copy
import fcntl
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench import table_volume
from bot import livetable
from bot.table import Table
from fakediscord import Message
from sandbox.people import Players

# the shortest game each lobby offers, so the suite plays every game to its end quickly
SHORT = {"kingdom": {"rounds": 50}, "firetop": {"rounds": 30}}
SEED = 1


@dataclass(frozen=True)
class Step:
    """The live table and the channel after one step of play, as the checks read them."""

    header: str | None  # the live table's header (None: no live table, or no header in it)
    buttons: tuple[tuple[str, str, bool], ...]  # (custom id, label, disabled)
    alt_texts: tuple[str, ...]
    attachments: tuple[str, ...]
    people: frozenset[int]  # seats of people with something to do
    people_ids: frozenset[int]  # their user ids
    interlude: str | None  # a character holding the floor: "calls" or "speeches"
    acting_header: str  # livetable.acting: who acts, as the header says it
    acting_plain: str  # and as the picture says it
    drawn: str | None  # the last picture drawn, as the publisher keeps it (JSON)
    channel: tuple[str, ...]  # the text of every message in the channel, oldest first
    panel: str | None  # the players' panel in words (livetable.panel_text), if the game has one
    texts: tuple[str, ...]  # the live table's text displays
    names: tuple[str, ...]  # the players' names


@dataclass(frozen=True)
class Played:
    steps: tuple[Step, ...]
    channel: tuple[str, ...]  # the channel the game leaves
    every_version: tuple[str, ...]  # every version of every message the channel showed
    figures: table_volume.Volume


_RECORDS: dict[tuple[str, int], Played | BaseException] = {}


def header_of(message: Message) -> str | None:
    """The live table's header: the first text display inside its container."""
    container = next((c for c in message.components if c.get("type") == 17), None)
    return next((c["content"] for c in (container or {}).get("components", [])
                 if c.get("type") == 10), None)


def texts_of(message: Message | None) -> tuple[str, ...]:
    """The text displays inside the live table's container."""
    container = next((c for c in message.components if c.get("type") == 17), None) \
        if message is not None else None
    return tuple(c["content"] for c in (container or {}).get("components", [])
                 if c.get("type") == 10)


def step(players: Players, table: Table, texts: dict[str, str]) -> Step:
    """What the checks read now (`texts` interns the channel's texts: most repeat step to step)."""
    board_id = players.bot.store.messages(table.id).get("board", (None, None))[1]
    live = players.fake.messages.get(board_id)
    people = frozenset(s for s, p in enumerate(table.prompts)
                       if p is not None and not table.seats[s].ai)
    public = table.game.view(table.state, None)
    interlude = table.game.interlude(public)
    who = livetable.acting(table, public, players.bot.service.clock.now(), "en")
    return Step(
        header=header_of(live) if live is not None else None,
        buttons=tuple(live.buttons()) if live is not None else (),
        alt_texts=tuple(live.alt_texts()) if live is not None else (),
        attachments=tuple(name for name, _ in live.attachments) if live is not None else (),
        people=people, people_ids=frozenset(table.seats[s].user_id for s in people),
        interlude=None if interlude is None else
        "calls" if interlude.get("calls") is not None else "speeches",
        acting_header=who.header, acting_plain=who.plain,
        drawn=players.bot.publisher._drawn.get(table.id),
        channel=tuple(texts.setdefault(m.text(), m.text()) for m in players.channel_messages()),
        panel=livetable.panel_text(table, "en") if table.game.panel_text is not None else None,
        texts=texts_of(live), names=tuple(table.names()))


async def play(game: str) -> Played:
    """Play `game` to its end and record it."""
    steps: list[Step] = []
    last: dict[str, Players] = {}
    texts: dict[str, str] = {}

    def each_step(players: Players, table: Table) -> None:
        last["players"] = players
        steps.append(step(players, table, texts))

    with tempfile.TemporaryDirectory() as home:
        figures = await table_volume.play(game, SEED, Path(home), SHORT.get(game), each_step)
    players = last["players"]
    return Played(steps=tuple(steps),
                  channel=tuple(m.text() for m in players.channel_messages()),
                  every_version=tuple(version.text() for version in players.every_version()),
                  figures=figures)


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this run sees: the run's base temporary folder (a worker's own
    is a folder inside it)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "played"
    folder.mkdir(exist_ok=True)
    return folder


async def played(game: str, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """`game` played to its end: once in this run (the first worker to ask plays it, under a
    lock, and leaves the record for the others), then read from the record."""
    key = (game, SEED)
    if key not in _RECORDS:
        folder = shared_folder(tmp_path_factory)
        record = folder / f"{game}-{SEED}.pickle"
        with open(folder / f"{game}-{SEED}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker playing it: wait for its record
            try:
                if record.exists():
                    _RECORDS[key] = pickle.loads(record.read_bytes())
                else:
                    _RECORDS[key] = await play(game)
                    written = record.with_suffix(".part")
                    written.write_bytes(pickle.dumps(_RECORDS[key]))
                    written.rename(record)
            except Exception as exc:  # every reader in this worker fails alike
                _RECORDS[key] = exc
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    found = _RECORDS[key]
    if isinstance(found, BaseException):
        raise found
    return Played(found.steps, found.channel, found.every_version, copy.deepcopy(found.figures))

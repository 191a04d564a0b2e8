"""The live table through the fake Discord, every game played to its end by people in every seat:
at every step the header, the picture's header and the buttons name the same people (calls,
fears and other simultaneous prompts included), and the whole game keeps to the volume targets
(writes per move, DMs per own turn, messages left, nothing live after the end)."""
from __future__ import annotations

import json
import re

import pytest

from bot import livetable
from bench import table_volume
from sandbox.people import Players
from bot.table import Table

# the shortest game each lobby offers, so the suite plays every game to its end quickly
SHORT = {"kingdom": {"rounds": 50}, "firetop": {"rounds": 30}}


def header_of(message) -> str:
    """The live table's header: the first text display inside its container."""
    container = next(c for c in message.components if c.get("type") == 17)
    return next(c["content"] for c in container["components"] if c.get("type") == 10)


def texts_of(message) -> list[str]:
    """The text displays inside the live table's container."""
    container = next(c for c in message.components if c.get("type") == 17)
    return [c["content"] for c in container["components"] if c.get("type") == 10]


def check_agreement(players: Players, table: Table, seen: dict) -> None:
    """Header mentions, button seats and the picture's "acting" all follow the prompts."""
    live = players.current_board(table)
    people = {s for s, p in enumerate(table.prompts) if p is not None and not table.seats[s].ai}
    header = header_of(live)
    mentioned = {int(u) for u in re.findall(r"<@(\d+)>", header)}
    assert mentioned == {table.seats[s].user_id for s in people}, header
    seats = {int(cid.split(":")[2]) for cid, _, disabled in live.buttons()
             if cid and cid.split(":")[2].isdigit() and not disabled}
    assert seats == people, (header, live.buttons())
    public = table.game.view(table.state, None)
    interlude = table.game.interlude(public)
    who = livetable.acting(table, public, players.bot.service.clock.now())
    assert who.header in header
    drawn = players.bot.publisher._drawn.get(table.id)
    if interlude is None:
        assert drawn and json.loads(drawn)["acting"] == who.plain  # the picture says the same
        assert live.alt_texts() and who.plain in live.alt_texts()[0]
        seen["board"] = seen.get("board", 0) + 1
        if table.game.panel_text is not None:  # the players' panel is the table's text, a line each
            panel = livetable.panel_text(table)
            assert panel in texts_of(live), panel
            assert len(panel.split("\n")) > len(table.seats)
            assert all(name in panel for name in table.names())
    else:
        assert "THE GATEKEEPER" in header and [n for n, _ in live.attachments] == ["speaker.png"]
        kind = "calls" if interlude.get("calls") is not None else "speeches"
        seen[kind] = seen.get(kind, 0) + 1
    if len(people) > 1:
        seen["simultaneous"] = seen.get("simultaneous", 0) + 1


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_a_game_keeps_its_table_in_agreement_and_its_channel_quiet(game, tmp_path):
    seen: dict = {}
    volume = await table_volume.play(game, 1, tmp_path, SHORT.get(game),
                                     lambda players, table: check_agreement(players, table, seen))
    assert seen.get("board", 0) > 10
    if game == "atmosfear":  # his calls and the fears written together were met and checked
        assert seen.get("calls") and seen.get("simultaneous")
        assert volume.clocked and volume.messages_left <= table_volume.CLOCKED_MESSAGES
    assert volume.writes_per_move <= table_volume.WRITES_PER_MOVE, volume
    assert volume.dms_over_turns == 0 and volume.echo_dms == 0, volume
    assert volume.stale == [], volume.stale
    assert volume.moves > 20

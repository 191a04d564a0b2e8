"""The live table through the fake Discord, every game played to its end by people in every seat:
at every step the header, the picture's header and the buttons name the same people (calls,
fears and other simultaneous prompts included), and the whole game keeps to the volume targets
(writes per move, DMs per own turn, messages left, nothing live after the end). Each game is
played once a run and its record shared (tests/played.py)."""
from __future__ import annotations

import json
import re

import pytest

import games
from bench import table_volume
from bot.table import fill_names
from games.core import setup
from tests.played import SEED, SHORT, Step, played


def check_agreement(step: Step, seen: dict) -> None:
    """Header mentions, button seats and the picture's "acting" all follow the prompts."""
    header = step.header
    assert header is not None, "no live table with a header"
    mentioned = {int(u) for u in re.findall(r"<@(\d+)>", header)}
    assert mentioned == step.people_ids, header
    seats = {int(cid.split(":")[2]) for cid, _, disabled in step.buttons
             if cid and cid.split(":")[2].isdigit() and not disabled}
    assert seats == step.people, (header, step.buttons)
    assert step.acting_header in header
    if step.interlude is None:
        # the picture says the same
        assert step.drawn and json.loads(step.drawn)["acting"] == step.acting_plain
        assert step.alt_texts and step.acting_plain in step.alt_texts[0]
        seen["board"] = seen.get("board", 0) + 1
        if step.panel is not None:  # the players' panel is the table's text, a line each
            assert step.panel in step.texts, step.panel
            assert len(step.panel.split("\n")) > len(step.names)
            assert all(name in step.panel for name in step.names)
    else:
        assert "THE GATEKEEPER" in header and step.attachments == ("speaker.png",)
        seen[step.interlude] = seen.get(step.interlude, 0) + 1
    if len(step.people) > 1:
        seen["simultaneous"] = seen.get("simultaneous", 0) + 1


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_a_game_keeps_its_table_in_agreement_and_its_channel_quiet(game, tmp_path_factory):
    seen: dict = {}
    record = await played(game, tmp_path_factory)
    for step in record.steps:
        check_agreement(step, seen)
    volume = record.figures
    assert seen.get("board", 0) > 10
    if game == "atmosfear":  # his calls and the fears written together were met and checked
        assert seen.get("calls") and seen.get("simultaneous")
        assert volume.clocked and volume.messages_left <= table_volume.CLOCKED_MESSAGES
    assert volume.writes_per_move <= table_volume.WRITES_PER_MOVE, volume
    assert volume.dms_over_turns == 0 and volume.echo_dms == 0, volume
    assert volume.stale == [], volume.stale
    assert volume.moves > 20


@pytest.mark.parametrize("game", ["castle", "dontgo", "atmosfear", "firetop", "kingdom"])
async def test_the_first_table_tells_the_house_rules_of_this_table_by_name(game, tmp_path_factory):
    """Before anyone moves, the players hear the house rules that change their game (its
    player count, its options), names filled in; a later table no longer says the game begins."""
    record = await played(game, tmp_path_factory)
    names = record.steps[0].names
    rule_book = games.get(game)
    tables = [text for text in record.every_version if f"### {rule_book.title} · turn" in text]
    clock = table_volume.CLOCK if set(table_volume.CLOCK) <= set(rule_book.option_choices) else {}
    rules = rule_book.opening(setup(rule_book, len(names), {**clock, **SHORT.get(game, {})}, SEED))
    assert rules
    first = tables[0]
    assert "The game begins! House rules at this table:" in first
    for line in rules:
        assert f"- {fill_names(line, list(names))}" in first, first
    assert "{p" not in first
    assert not any("The game begins!" in text for text in tables[-5:])

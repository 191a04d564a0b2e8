"""DMs carry only private news the player has not been shown, played through the fake Discord:
a card drawn as a castle turn begins shows in the "Take my turn" panel and comes by no DM;
Don't Go In There's DMs name no internal card number, repeat no line and never tell the same
thing twice in a row; Key to the Kingdom's DMs leave out what lies face up on the table; at a
relaxed pace the turn DM carries the news, one DM a turn."""
from __future__ import annotations

import re
from pathlib import Path

from bench import table_volume
from bot.clock import FakeClock
from data.locales import DEFAULT, render
from sandbox.people import Players as People
from games.castle.engine import a_card, drawn_this_turn
from tests.harness import InThreadHarness, Players

LINK = re.compile(r"^Back to the table: ")


def news_of(dm: str) -> list[str]:
    """A private DM's lines below its heading, its link left out."""
    return [line for line in dm.splitlines()[1:] if not LINK.match(line)]


async def played(game: str, tmp_path: Path, options: dict | None = None
                 ) -> tuple[table_volume.Volume, People]:
    """A whole game with people in every seat (the table benchmark's play), and its people."""
    seen: list[People] = []
    volume = await table_volume.play(game, 1, tmp_path, options,
                                     lambda players, table: seen or seen.append(players))
    return volume, seen[0]


async def test_a_card_drawn_in_your_turn_shows_in_your_panel_and_comes_by_no_dm(fake_discord,
                                                                               tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                              turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"])
        shown = 0
        for _ in range(12):  # turns
            seat = table.game.to_move(table.state)
            person = table.seats[seat].user_id
            drawn = drawn_this_turn(table.state.data, seat)
            panels = len(fake_discord.ephemerals(person, include_deleted=True))
            await players.play_by_buttons(table)  # the turn's card, played in the panel
            if drawn is not None:
                panel = fake_discord.ephemerals(person, include_deleted=True)[panels]
                opened = (panel.edits or [panel])[0]
                assert f"You drew {render(DEFAULT, a_card(drawn))} this turn." in opened.text()
                shown += 1
            while table.status == "running" and table.game.to_move(table.state) == seat:
                await players.play_by_buttons(table)
            if table.status != "running":
                break
        assert shown >= 10
        for person in table.humans():
            dms = [m.text() for m in fake_discord.dms(person)]
            assert len(dms) == 1 and "Your hand" in dms[0]  # the start's, and no other
            assert not any("drew" in m.readable() for m in players.every_version())
    finally:
        await harness.stop()


async def test_dont_go_dms_tell_each_thing_once_without_internal_numbers(tmp_path):
    volume, people = await played("dontgo", tmp_path)
    told = 0
    for person in people.users.values():
        dms = [m.text() for m in people.fake.dms(person)]
        for dm in dms:
            heading, *_ = dm.splitlines()
            assert re.fullmatch(r"\*\*Don't Go In There\*\* \(game #\d+(, turn \d+)?\)", heading)
            assert not re.search(r"#\d", "\n".join(news_of(dm))), dm
            lines = news_of(dm)
            assert len(lines) == len(set(lines)), dm
            for curse in set(re.findall(r"\(\d+ curses?", dm)):  # a card's curses, said once
                assert dm.count(curse + ")") + dm.count(curse + ",") <= dm.count(curse), dm
        secrets = [{line for line in news_of(dm) if "face-down card" in line} for dm in dms]
        for before, after in zip(secrets, secrets[1:]):
            assert not before & after  # a card seen is told once, not again in the next DM
        assert all(a != b for a, b in zip(dms, dms[1:]))
        told += sum(bool(lines) for lines in secrets)
    assert told, "nobody peeked at a face-down card: the game tells nothing to check"
    assert volume.dms_per_turn <= 0.3 and volume.echo_dms == 0  # the target at the table


async def test_dont_go_private_text_names_cards_without_numbers_or_a_repeated_total():
    from games.core import setup
    from games.dontgo.engine import CARDS
    import games
    game = games.get("dontgo")
    state = setup(game, 3, {}, 1)
    pl = state.data["players"][0]
    one_curse = next(c["id"] for c in CARDS if c["curse"] == 1)
    pl["cards"] = [{"id": one_curse, "dispelled": False}]
    text = render(DEFAULT, game.private_text(state, 0))
    assert "#" not in text and text.count("1 curse") == 1, text
    pl["cards"] = [{"id": one_curse, "dispelled": False}, {"id": one_curse + 1, "dispelled": True}]
    text = render(DEFAULT, game.private_text(state, 0))
    assert "#" not in text and "Dispelled: " in text, text


async def test_key_to_the_kingdom_dms_leave_out_the_equipment_on_the_table(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"], game="kingdom")
        for _ in range(20):
            await players.play_by_buttons(table)
        assert any(pl["equip"] for pl in table.state.data["players"])  # there is some to show
        for person in table.humans():
            dms = [m.text() for m in fake_discord.dms(person)]
            assert dms and not any("Equipment" in dm or "Deep Magic" in dm for dm in dms), dms
    finally:
        await harness.stop()


async def test_at_a_relaxed_pace_the_turn_dm_carries_the_card_drawn(tmp_path):
    volume, people = await played("castle", tmp_path, {"pace": "relaxed"})
    assert volume.dms_over_turns == 0 and volume.echo_dms == 0, volume
    for person in people.users.values():
        dms = [m.text() for m in people.fake.dms(person)]
        turns = [dm for dm in dms if dm.startswith("🎲 Your turn")]
        assert len(dms) <= len(turns) + 1  # the start's hand, then one DM a turn
        drew = [dm for dm in turns if "**For you alone:**\nYou drew a" in dm]
        assert len(drew) >= len(turns) - 2, turns  # each turn's card (the deck may run out)


async def test_with_turn_dms_off_the_news_still_comes_alone(fake_discord, tmp_path):
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"])
        table = await players.start_game("Ana", ["Bo"], options={"pace": "pace=relaxed"})
        bo = players.users["Bo"]
        ix = await fake_discord.slash(bo, players.channel.id, "notify", {"setting": "off"})
        await ix.response()
        started = len(fake_discord.dms(bo))
        for _ in range(12):
            await players.play_by_buttons(table)
        later = [m.text() for m in fake_discord.dms(bo)[started:]]
        assert later and not any("Your turn" in dm or "Your hand" in dm for dm in later)
        assert all(re.search(r"^You drew an? [A-Z]", dm, re.M) for dm in later), later
    finally:
        await harness.stop()

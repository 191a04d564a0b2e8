"""Games are plugins: a game from outside the project is discovered and played end to end.

Key Pile (tests/plugins/gk_keypile) is advertised the way an installed distribution would
advertise it, through an entry point in a *.dist-info folder; no core file names it.
"""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

import games
from tests.conftest import advertise
from tests.harness import BotHarness, Players, until

ROOT = Path(__file__).resolve().parents[1]
# The platform, benchmarks included: they find the games by discovery too.
CORE = [ROOT / "bot", ROOT / "render" / "__init__.py", ROOT / "render" / "core.py",
        ROOT / "games" / "core", ROOT / "games" / "__init__.py"]


def test_discovery_finds_the_plugin_beside_the_built_in_games(keypile):
    names = [g.name for g in games.all_games()]
    assert names == sorted(names) and {"castle", "dontgo", "atmosfear", "keypile"} <= set(names)
    assert keypile.title == "Key Pile" and "last key" in keypile.rules_text()


def test_no_core_file_names_a_game():
    built_in = {"castle", "dontgo", "atmosfear", "keypile", "firetop", "kingdom"}
    pattern = re.compile(r"\b(" + "|".join(built_in) + r")\b", re.I)
    offenders = []
    for place in CORE:
        for path in ([place] if place.is_file() else place.rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_a_broken_plugin_is_reported_and_the_others_still_load(tmp_path, monkeypatch):
    advertise(tmp_path, monkeypatch, "keypile = gk_keypile:GAME\nghost = gk_keypile.nowhere:GAME")
    try:
        assert "keypile" in games.registry()
        assert "ModuleNotFoundError" in games.broken()["ghost"]
        with pytest.raises(KeyError, match="Games: .*keypile"):
            games.get("ghost")
    finally:
        games.reload()


@pytest.fixture
async def harness(fake_discord, tmp_path):
    h = BotHarness(fake_discord, tmp_path / "gk.db")
    yield h
    await h.stop()


async def test_the_plugin_plays_through_discord_with_simultaneous_answers(keypile, fake_discord,
                                                                           harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"])
    await players.open("Ana", "keypile")
    await players.lobby_click("Bo", "join")
    await players.lobby_click("Cy", "join")
    await players.lobby_click("Ana", "start")
    table = await until(lambda: (t := players.table()) and t.status == "running" and t)
    await until(lambda: players.boards(), what="the first board")
    await players.settle(table)
    # everyone answers "how do you feel?" at once, each on their own buttons
    board = players.current_board(table)
    clicks = []
    for index, seat in enumerate(table.seats):
        mine = [cid for cid, label, _ in board.buttons()
                if label.endswith("· Bold") and cid.split(":")[2] == str(index)]
        assert len(mine) == 1, board.buttons()
        clicks.append(fake_discord.click(seat.user_id, board.id, mine[0]))
    interactions = await asyncio.gather(*clicks)
    await asyncio.gather(*(ix.response() for ix in interactions))
    await until(lambda: None not in table.state.data["moods"], what="every answer to land")
    await players.settle(table)
    assert table.state.data["moods"] == ["bold"] * 3
    for ix in interactions:
        assert not [m for m in fake_discord.ephemerals(ix.user_id) if "out of date" in m.text()]
    await players.run_to_end(table)
    assert table.status == "over"
    final = players.boards()[-1].text()
    assert "took the last key" in final
    ix = await fake_discord.slash(players.users["Bo"], players.channel.id, "rules",
                                  {"game": "keypile", "topic": "taking"})
    assert "last key wins" in (await ix.response()).data["content"]
    assert fake_discord.unknown_routes == [] and fake_discord.http_errors == []


async def test_an_unknown_game_gets_the_list_of_games(fake_discord, harness):
    await harness.start()
    players = Players(fake_discord, harness, ["Ana"])
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "play", {"game": "chess"})
    await ix.response()
    reply = fake_discord.ephemerals(players.users["Ana"])[-1].text()
    assert "no game called 'chess'" in reply and "Keys to the Castle (`castle`)" in reply


def test_a_plugin_brings_its_own_catalogs(keypile):
    """Key Pile words itself in message ids and ships catalogs in its own package
    (`Game.catalogs`): discovery adds them, so its prompts, events, refusals and result read
    in each reader's language, and its catalogs agree with each other as ours must."""
    from bot.refusal import said
    from bot.table import Seat, Table, fill_names
    from data.locales import ids, messages, placeholders
    from games.core import IllegalAction, apply, setup
    mine = {lang: {m.id if isinstance(m.id, str) else m.id[0]: m for m in messages(lang)
                   if str(m.id).startswith("game.keypile") or (
                       isinstance(m.id, tuple) and m.id[0].startswith("game.keypile"))}
            for lang in ("en", "de", "es")}
    assert len(mine["en"]) == 11 and mine["en"].keys() == mine["de"].keys() == mine["es"].keys()
    for id, message in mine["en"].items():
        english = message.string if isinstance(message.string, str) else message.string[1]
        for lang in ("de", "es"):
            other = mine[lang][id].string
            assert placeholders(english) == placeholders(
                other if isinstance(other, str) else other[1]), (lang, id)
    assert ids("de")["game.keypile.left"]  # a plural, by the language's rule
    state = setup(keypile, 2, {}, seed=3)
    table = Table(id=1, guild_id=1, channel_id=1, game=keypile, host_id=1, seed=3, options={},
                  seats=[Seat("Ana", 1), Seat("Bo", 2)], status="running", state=state,
                  prompts=[keypile.prompt(state, s) for s in range(2)], tokens=[0, 0])
    german = table.prompt(0, "de")
    assert german.text == "Wie fühlst du dich?"
    assert [c.label for c in german.choices] == ["Mutig", "Vorsichtig"]
    outcome = apply(keypile, state, 0, "feel bold")
    assert [fill_names(e.text, ["Ana", "Bo"], "es") for e in outcome.events] == ["Ana ya eligió."]
    with pytest.raises(IllegalAction) as refused:
        apply(keypile, outcome.state, 0, "feel careful")
    assert said("es", refused.value) == "No es tu turno."
    assert refused.value.reason == "It is not your turn."  # the English, for logs
    state = outcome.state
    for seat, action in ((1, "feel bold"), *[(i % 2, "take 1") for i in range(9)]):
        state = apply(keypile, state, seat, action).state
    assert state.over and fill_names(state.result["reason"], ["Ana", "Bo"], "de") == \
        "hat den letzten Schlüssel genommen"

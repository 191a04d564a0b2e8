"""The live table speaks the server's language: a game of Keys to the Castle played to its end
through the fake Discord on a German and on a Spanish server, the bot restarting now and then,
shows no English in any version of any message of its channel (a /status copy of the table
included), nor in its story (/log): neither the bot's own words nor the game's (its event
lines, the players' panel, house rules, choice labels, the result, the board's description);
its labels fit Discord's limits; its turn summaries, read back from the message after each
restart, tell each turn once under its own number, in the server's language."""
from __future__ import annotations

import re

import pytest

from bot import livetable, present
from bot.clock import FakeClock
from bot.livetable import Trail
from bot.rendering import speaker_name
from data.locales import text
from fakediscord import Message
from games.castle.engine import MAX_TURNS
from tests.harness import InThreadHarness, Players, play_out
from tests.test_languages import leftover_english


def summary_pattern(lang: str) -> re.Pattern[str]:
    """A carried summary's start in `lang`: "-# **Zug 7**: ", "-# **Turnos 3–7**: "."""
    one = re.escape(text(lang, "table.summary.turn", turn=0)).replace("0", r"(\d+)")
    many = re.escape(text(lang, "table.summary.turns", first=0, last=0)).replace("0", r"(\d+)")
    return re.compile(rf"^-# \*\*(?:{one}|{many})\*\*: ", re.M)


def turns_told(channel: list[str], lang: str) -> list[int]:
    """The turns the channel's summaries tell, each told once."""
    told: list[int] = []
    for shown in channel:
        for match in summary_pattern(lang).finditer(shown):
            first = int(match[1] or match[2])
            for turn in range(first, int(match[3] or first) + 1):
                assert turn not in told, (turn, shown)
                told.append(turn)
    return sorted(told)


def words_shown(message: Message) -> str:
    """What a message says to its readers: its texts, its labels, its placeholders, its
    options and its pictures' descriptions."""
    shown = [message.text(), *message.alt_texts()]
    for part in _components(message.components):
        if part.get("type") == 2:
            shown.append(part.get("label") or "")
        if part.get("type") == 3:
            shown.append(part.get("placeholder") or "")
            shown += [option["label"] for option in part.get("options", [])]
    return "\n".join(shown)


def _components(components: list) -> list[dict]:
    found, stack = [], list(components)
    while stack:
        item = stack.pop()
        found.append(item)
        stack += list(item.get("components") or []) + \
            ([item["accessory"]] if "accessory" in item else [])
    return found


def within_limits(message: Message) -> list[str]:
    """What in a message breaks Discord's limits: labels 80, placeholders 150, options 100,
    the text of a message 4,000 characters."""
    wrong = []
    for part in _components(message.components):
        if len(part.get("label") or "") > 80 or len(part.get("placeholder") or "") > 150 \
                or any(len(o["label"]) > 100 for o in part.get("options", [])):
            wrong.append(str(part))
    texts = sum(len(p.get("content") or "") for p in _components(message.components))
    return wrong + ([f"{texts} characters of text"] if texts > 4000 else [])


@pytest.mark.parametrize("locale, lang", [("de", "de"), ("es-ES", "es")])
async def test_a_game_on_a_german_or_spanish_server_reads_in_its_language(
        locale, lang, fake_discord, tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                              turn_timeout=100_000.0)
    await harness.start()
    try:
        players = Players(fake_discord, harness, ["Ana", "Bo"], locale=locale)
        table = await players.start_game("Ana", ["Bo"])
        house_rules = [table.fill(line, lang) for line in table.game.opening(table.state)]
        told: dict[str, list[int]] = {}

        async def restart_now_and_then(step: int, table):
            if step == 3:  # /status posts the table anew, in the server's language too
                ix = await fake_discord.slash(players.users["Bo"], players.channel.id, "status")
                assert (await ix.response()).message.content == text(lang, "status.posted")
                await players.settle(table)
            if step % 7 == 0 and table.status == "running":
                await harness.restart()
                table = await players.bot.service.get(table.id)
                await players.settle(table)
            told["turns"] = turns_told([m.text() for m in players.channel_messages()], lang)
            return table

        table = await play_out(players, table, clock, restart_now_and_then)
        assert table.status == "over"
        turns = turns_told([m.text() for m in players.channel_messages()], lang)
        assert len(turns) > 10 and turns == list(range(1, turns[-1] + 1))

        versions = players.every_version()
        assert len(versions) > 20
        assert any(all(rule in v.text() for rule in house_rules) for v in versions)
        for version in versions:
            assert within_limits(version) == [], version.text()
            words = words_shown(version)
            assert leftover_english(words, lang) == set(), (lang, words)
        boards = [v for v in versions if v.alt_texts()]
        to_move = {text(lang, "table.to_move", who=name) for name in ("Ana", "Bo")}
        assert any(who in alt for v in boards for alt in v.alt_texts() for who in to_move)
        final = players.channel_messages()[-1].text()
        assert f"**{text(lang, 'table.players')}**" in final
        assert text(lang, "game.castle.colour.red") in final

        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "log")
        story = (await ix.response()).message
        heading = text(lang, "story.heading.s", id=table.id, game=table.game.title)
        # a story of one message tells it all (to the end); one of pages starts with whose it is
        assert heading in story.text() if story.buttons() else the_end(table, lang) in story.text()
        words = words_shown(story)
        assert leftover_english(words, lang) == set(), (lang, words)
    finally:
        await harness.stop()


def the_end(table, lang: str) -> str:
    """The line that ended the castle game, in `lang`."""
    result = table.result or {}
    winners = result.get("winners") or []
    if not winners:
        return text(lang, "game.castle.event.castle_wins", count=MAX_TURNS)
    return text(lang, "game.castle.event.wins", who=table.seats[winners[0]].name,
                tile=result["reason"]["tile"])


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_a_summary_tells_the_next_turn_in_every_language(lang):
    """After a restart the live table's next turn is read back from its last summary,
    whatever language the server spoke when it was written."""
    assert Trail([livetable.turn_summary(3, 3, ["**Turn 9**: a trap"], lang)]).next_turn() == 4
    assert Trail([livetable.turn_summary(1, 2, ["a"], lang),
                  livetable.turn_summary(3, 7, ["b", "c"], lang)]).next_turn() == 8
    assert Trail(["**Zugabe 3**: a"]).next_turn() is None


def test_lines_read_back_leave_out_the_opening_and_the_pointer_in_every_language():
    opening = [{"type": 10, "id": livetable.LINES_ID, "content": "\n".join([
        text("de", "table.opening"), present.earlier_lines("es"), "Ana zieht."])}]
    assert livetable.lines_from([_Shown(part) for part in opening]) == ["Ana zieht."]


class _Shown:
    """A text display as discord.py reads one back from a message."""

    def __init__(self, part: dict) -> None:
        self.id, self.content, self.children = part["id"], part["content"], []


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_tables_controls_read_in_the_servers_language(lang):
    """Two people asked at once (each a "take my turn" naming them), a vote on an absent
    player, "My hand", and "Play again" once the game is over: all in `lang`."""
    import games
    from bot.table import Seat, Table
    from bot.ui import turn_rows
    from games.core import Choice, Prompt, Step
    asked = Prompt(0, "", [Choice("roll", (Step("roll", "Roll"),))], private=True)
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("castle"), host_id=1, seed=1,
                  options={"deadline": "vote"}, status="running", prompts=[asked, asked, None],
                  seats=[Seat("Ana", 1), Seat("Bo", 2), Seat("Cy", 3, timeouts=1)],
                  tokens=[0, 0, 0])
    shown = [(getattr(item, "label", None), getattr(item, "placeholder", None),
              [o.label for o in getattr(item, "options", [])])
             for row in turn_rows(table, lang) for item in row.children]
    assert shown == [
        (text(lang, "table.button.take_turn_of", name="Ana"), None, []),
        (text(lang, "table.button.take_turn_of", name="Bo"), None, []),
        (None, text(lang, "table.vote.placeholder"), [text(lang, "table.vote.option", name="Cy")]),
        (text(lang, "table.button.hand"), None, [])]
    table.status = "over"
    assert [item.label for row in turn_rows(table, lang) for item in row.children] == \
        [text(lang, "table.button.again")]


def test_news_that_came_several_times_says_so_in_its_readers_language():
    import games
    from bot.table import Seat, Table
    from games.core import Event
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("castle"), host_id=1, seed=1,
                  options={}, seats=[Seat("Ana", 1), Seat("Bo", 2)], status="running")
    events = [Event("You draw a key.", to=(0,))] * 2 + [Event("You lose a door.", to=(0,))] * 3
    assert present.news_lines(table, 0, events, "de") == [
        "You draw a key. (zweimal)", "You lose a door. (3-mal)"]
    assert present.news_lines(table, 0, events, "en") == [
        "You draw a key. (twice)", "You lose a door. (3 times)"]


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_gatekeepers_visit_and_the_game_clock_read_in_the_servers_language(lang):
    from tests.test_nothing_stale import visiting_gatekeeper
    table, now = visiting_gatekeeper()
    game, state = table.game, table.state
    leaves = min(t["due"] for t in game.timers(state))
    shown = []
    for end in (leaves, leaves + 60):
        state.data["clock"]["end"] = end
        who = livetable.acting(table, game.view(state, None), now, lang)
        shown += [who.header, who.plain, who.clock]
    name = speaker_name(game, "gatekeeper", lang).upper()  # his name in the server's language
    assert name == {"de": "DER GATEKEEPER", "es": "EL GATEKEEPER"}[lang]
    assert shown[2] == f"⏳ {text(lang, 'table.clock.during_visit', name=name)}"
    when = livetable.countdown(leaves + 60)
    assert shown[5] == f"⏳ {text(lang, 'table.clock.runs_out', when=when)}"
    state.data["clock"]["paused_at"] = now
    shown.append(livetable.acting(table, game.view(state, None), now, lang).clock)
    assert shown[-1] == f"⏸️ {text(lang, 'table.clock.paused')}"
    assert all(leftover_english(words, lang) == set() for words in shown), shown

"""The bot speaks English, German and Spanish: catalogs complete and alike, plurals by each
language's rule, the server's language in the channel and the reader's own in private, the
server language a manager picks (kept across a restart), and slash commands that Discord shows
translated."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural

import games
from bot import pace
from bot.refusal import Refusal, said
from data import resource
from data.locales import DEFAULT, LANGUAGES, Msg, ids, language, messages, placeholders, text
from fakediscord import FakeDiscordError
from sandbox.harness import until
from tests.harness import Players


def forms(lang: str, id: str) -> list[str]:
    found = messages(lang)[id].string
    return list(found) if isinstance(found, tuple) else [found]


def test_every_catalog_has_every_message_with_the_same_placeholders():
    """The bot's catalog of each language is whole; a game brings a language whole or not at
    all (its words then read in English); the games built in bring all three."""
    english = ids(DEFAULT)
    for lang in LANGUAGES:
        missing = set(english) - set(ids(lang))
        assert set(ids(lang)) <= set(english) and all(id.startswith("game.") for id in missing)
        for game in {id.split(".")[1] for id in missing}:
            assert not resource(game, "locales", f"{lang}.po").is_file(), (game, lang)
        assert all(ids(lang)[id] == plural for id, plural in english.items() if id in ids(lang))
        for id in ids(lang):
            wanted = set().union(*map(placeholders, forms(DEFAULT, id)))
            for form in forms(lang, id):
                assert form.strip(), (lang, id)
                assert placeholders(form) == wanted, (lang, id, form)


SAYING = ("text", "Msg", "Refusal", "ReplayError", "words", "command_text")


def test_every_message_the_bot_names_exists_and_is_given_its_placeholders():
    """A message named by a literal id (`text(lang, "lobby.title", game=...)`) must exist and be
    given every placeholder its English forms fill (and `count` when it has plural forms): a
    missing one would fail at the moment a player is answered."""
    root = Path(__file__).resolve().parents[1]
    wrong = []
    for path in (root / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            name = getattr(name, "id", None) or getattr(name, "attr", None)
            literal = [a.value for a in getattr(node, "args", []) if isinstance(a, ast.Constant)
                       and isinstance(a.value, str)] if name in SAYING else []
            if not literal:
                continue
            id, given = literal[0], {k.arg for k in node.keywords}
            if id not in ids(DEFAULT):
                wrong.append((path.name, node.lineno, id))
                continue
            wanted = set().union(*map(placeholders, forms(DEFAULT, id)))
            if ids(DEFAULT)[id]:
                wanted.add("count")
            if None not in given and not wanted <= given:
                wrong.append((path.name, node.lineno, id, wanted - given))
    assert wrong == []


def test_the_games_built_in_speak_english_german_and_spanish():
    for lang in ("en", "de", "es"):
        assert ids(lang) == ids(DEFAULT), lang


def test_plurals_follow_each_languages_rule_for_0_1_2_and_5():
    expected = {
        "en": ["0 games", "1 game", "2 games", "5 games"],
        "de": ["0 Spielen", "1 Spiel", "2 Spielen", "5 Spielen"],
        "es": ["0 partidas", "1 partida", "2 partidas", "5 partidas"],
    }
    for lang, wanted in expected.items():
        assert [text(lang, "stats.games", count=n) for n in (0, 1, 2, 5)] == wanted
        rule = get_plural(lang)  # Babel's (CLDR) rule is the one the catalog declares
        assert messages(lang).plural_forms == rule.plural_forms
        for id in (i for i, plural in ids(lang).items() if plural):
            assert len(forms(lang, id)) == rule.num_plurals, (lang, id)
    assert text("de", "refusal.full", count=1) == "Der Tisch ist voll (1 Platz)."
    assert text("es", "refusal.full", count=5) == "La mesa está llena (5 asientos)."
    assert text("en", "refusal.full", count=0) == "The table is full (0 seats)."


def test_counts_are_written_in_the_languages_number_format():
    assert text("en", "stats.games", count=1000000) == "1,000,000 games"
    assert text("de", "stats.games", count=1000000) == "1.000.000 Spielen"
    assert text("es", "stats.games", count=1000000) == "1.000.000 de partidas"


def test_a_message_inside_a_message_reads_in_the_same_language():
    assert text("es", "pace.describe", pace=Msg("pace.value.relaxed")) == "ritmo tranquilo"
    assert text("de", "pace.describe", pace=Msg("pace.value.relaxed")) == "Tempo entspannt"


def test_each_game_brings_its_pitch_and_options_and_its_english_is_the_games_own():
    """Where a game's plugin words itself (its pitch, options, move subcommands' help), its
    English words and its English catalog say the same (so a change to one without the other
    fails here)."""
    for game in games.all_games():
        assert text("en", f"game.{game.name}.pitch") == game.pitch
        for verb, help_text in game.verbs.items():
            assert text("en", f"game.{game.name}.verb.{verb}.name") == verb
            if help_text:
                assert text("en", f"game.{game.name}.verb.{verb}.choice") == help_text[:100]
        worded = pace.texts(game, "en")
        for name, words in game.option_texts.items():
            assert (worded[name].label, worded[name].help) == (words.label, words.help)
            assert [worded[name].value(v) for v in game.option_choices[name]] == \
                [words.value(v) for v in game.option_choices[name]]


def test_discord_locales_map_to_the_languages_we_speak():
    assert [language(tag) for tag in ("de", "es-419", "es-ES", "en-GB", "pt-BR", None)] == \
        ["de", "es", "es", "en", None, None]
    assert [language(tag) for tag in ("en-US", "es-ES", "de-AT")] == ["en", "es", "de"]


def test_each_game_has_a_glossary_in_every_language():
    for game in games.all_games():
        page = resource("locales", "glossary", f"{game.name}.md").read_text(encoding="utf-8")
        rows = [line for line in page.splitlines() if line.startswith("|")]
        header = [cell.strip() for cell in rows[0].strip("|").split("|")]
        assert header[0] == "term" and {"en", "de", "es"} <= set(header[1:]) <= set(LANGUAGES)
        terms = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]
        assert len(terms) >= 5, game.name
        assert all(len(row) == len(header) and all(row) for row in terms), game.name


# -- through the fake Discord -------------------------------------------------------------------
def english_only_words(lang: str) -> set[str]:
    """Words of four letters or more in the bot's English messages that the other language's
    messages never use: one of them in a German or Spanish answer is English left over."""
    def words(of: str) -> set[str]:
        found = set()
        for id in ids(of):
            for form in forms(of, id):
                found |= set(re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", form)))
        return found
    return words(DEFAULT) - words(lang) - {"Gatekeeper"}


def game_words() -> list[str]:
    """Names the games keep in every language (titles, the ids typed after /play and the
    moves' subcommands)."""
    found = []
    for game in games.all_games():
        found += [game.title, game.name, *(game.verbs or {})]
    return sorted(found, key=len, reverse=True)


def leftover_english(shown: str, lang: str) -> set[str]:
    for words in game_words():  # whole words only: the verb "keep" is no part of "Gatekeeper"
        shown = re.sub(rf"(?<![A-Za-z]){re.escape(words)}(?![A-Za-z])", " ", shown)
    return set(re.findall(r"[A-Za-z]{4,}", shown)) & english_only_words(lang)


async def test_german_and_spanish_servers_read_the_lobby_help_and_refusals_in_their_language(
        fake_discord, harness):
    for locale, lang, join in (("de", "de", "Beitreten"), ("es-ES", "es", "Unirse")):
        players = Players(fake_discord, harness, ["Ana", "Bo"], locale=locale)
        shown = []
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "help")
        shown.append((await ix.response()).message.readable())
        assert len(shown[0]) <= 4096  # an embed's description
        assert f"/{text(lang, 'cmd.play.name')} castle" in shown[0]  # as Discord shows it
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "hand")
        shown.append((await ix.response()).message.readable())  # no game here
        ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "replay")
        assert (await ix.response()).message.content == text(lang, "replay.none_here")
        lobby = await players.open("Ana", "castle")
        assert join in [label for _, label, _ in lobby.buttons()]
        ix = await players.lobby_click("Bo", "ai")  # only the host may add AI players
        shown.append((await ix.wait_followups())[0].readable())
        shown.append(players.lobby().readable())
        assert shown[1] == text(lang, "refusal.no_game_here")
        assert shown[2] == text(lang, "refusal.host_only.ai")
        for words in shown:
            assert leftover_english(words, lang) == set(), (lang, words)
        await fake_discord.slash(players.users["Ana"], players.channel.id, "end")


async def test_what_one_person_reads_is_in_their_language_the_channel_in_the_servers(
        fake_discord, harness):
    players = Players(fake_discord, harness, ["Ana", "Bo", "Cy"], locale="es-419")
    fake_discord.set_locale(players.users["Bo"], "de")
    fake_discord.set_locale(players.users["Cy"], "ja")  # a language we don't speak
    lobby = await players.open("Ana", "castle")
    assert lobby.embeds[0]["title"] == "Keys to the Castle: sala"
    refusals = []
    for who in ("Bo", "Cy"):
        ix = await players.lobby_click(who, "cancel")
        refusals.append((await ix.wait_followups())[0].content)
    assert refusals == [text("de", "refusal.host_only.cancel"),
                        text("es", "refusal.host_only.cancel")]


async def test_a_manager_sets_the_servers_language_and_it_outlives_a_restart(
        fake_discord, harness):
    players = Players(fake_discord, harness, ["Ana", "Max"])
    fake_discord.add_member(players.guild.id, players.users["Max"], manage_guild=True)
    ix = await fake_discord.slash(players.users["Max"], players.channel.id, "language",
                                  {"language": "de"})
    assert (await ix.response()).message.content == \
        "Die Spiele dieses Servers sprechen jetzt Deutsch."
    await harness.restart()
    lobby = await players.open("Ana", "castle")
    assert lobby.embeds[0]["title"] == "Keys to the Castle: Lobby"
    assert "Beitreten" in [label for _, label, _ in lobby.buttons()]
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "status")
    assert (await ix.response()).message.content == text("en", "refusal.lobby_above")
    ix = await fake_discord.slash(players.users["Max"], players.channel.id, "language",
                                  {"language": "auto"})
    assert (await ix.response()).message.content == \
        "This server's games now speak English."


async def test_only_a_manager_may_set_the_language(fake_discord, harness):
    players = Players(fake_discord, harness, ["Ana"], locale="es-ES")
    command = fake_discord.find_command("language", players.channel.id)
    assert int(command["default_member_permissions"]) == 1 << 5  # Manage Server
    with pytest.raises(FakeDiscordError, match="lacks permissions"):
        await fake_discord.slash(players.users["Ana"], players.channel.id, "language",
                                 {"language": "de"})
    lobby = await players.open("Ana", "castle")  # the server's Discord language, unchanged
    assert lobby.embeds[0]["title"] == "Keys to the Castle: sala"


async def test_slash_commands_are_registered_with_translated_names_and_descriptions(
        fake_discord, harness):
    commands = {c["name"]: c for c in fake_discord.commands()}
    play = commands["play"]
    assert play["name_localizations"] == {"de": "spielen", "es-ES": "jugar", "es-419": "jugar"}
    assert play["description_localizations"]["de"] == text("de", "cmd.play.description")
    assert play["options"][0]["name_localizations"]["es-ES"] == "juego"
    since = commands["log"]["options"][0]
    assert [c["name_localizations"]["de"] for c in since["choices"]] == \
        ["dem Anfang", "meinem letzten Zug"]
    castle = commands["castle"]  # a game's group: its description names the game
    assert castle["description_localizations"]["es-419"] == "Escribir tu jugada en Keys to the Castle"
    firetop = commands["firetop"]
    assert firetop["description_localizations"]["de"] == \
        "Deinen Zug in Der Hexenmeister vom flammenden Berg eintippen"
    for game in games.all_games():  # every move subcommand in every language, its option too
        for sub in commands[game.name]["options"]:
            assert set(sub["name_localizations"]) >= {"de", "es-ES", "es-419"}, sub["name"]
            assert set(sub["description_localizations"]) >= {"de", "es-ES"}, sub["name"]
            for option in sub.get("options", []):
                assert option["name_localizations"]["de"] == "auswahl", sub["name"]
                assert option["description_localizations"]["es-ES"] == text(
                    "es", f"game.{game.name}.verb.{sub['name']}.choice")
    move = next(sub for sub in commands["castle"]["options"] if sub["name"] == "move")
    assert (move["name_localizations"]["de"], move["name_localizations"]["es-ES"]) == \
        ("ziehen", "mover")
    for command in commands.values():
        if command["type"] == 1 and command["name"] in {n.split(".")[1] for n in ids(DEFAULT)
                                                        if n.startswith("cmd.")}:
            assert set(command.get("name_localizations") or {}) >= {"de", "es-ES"}, \
                command["name"]


async def test_a_dm_reads_in_its_readers_language_as_last_seen_also_after_a_restart(
        fake_discord, harness):
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    fake_discord.set_locale(players.users["Bo"], "es-419")
    table = await players.start_game("Ana", ["Bo"])

    def dm_of(name: str) -> str:
        dm = fake_discord.dm_channel(players.users[name])
        return fake_discord.channel_messages(dm.id)[0].content
    await until(lambda: dm_of("Ana") and dm_of("Bo"), what="the first DMs")
    assert dm_of("Ana").startswith(f"**Keys to the Castle** (game #{table.id}")
    assert dm_of("Bo").startswith(f"**Keys to the Castle** (partida #{table.id}")
    await harness.restart()
    assert harness.bot.languages.person(players.users["Bo"], players.guild.id) == "es"
    assert harness.bot.languages.person(players.users["Ana"], players.guild.id) == "en"


def test_a_list_parameter_reads_as_each_language_lists():
    """Engines pass several things as a tuple (cards, keys, players): each item is rendered
    in the reader's language and the whole written as that language lists it."""
    from data.locales import Msg, render
    keys = ("{p0}", Msg("level.easy"), "7")
    said = {lang: render(lang, Msg("notice.back", name=keys)) for lang in ("en", "de", "es")}
    assert said["en"].startswith("👋 {p0}, " + render("en", Msg("level.easy")) + ", and 7 ")
    assert said["de"].startswith("👋 {p0}, " + render("de", Msg("level.easy")) + " und 7 ")
    assert said["es"].startswith("👋 {p0}, " + render("es", Msg("level.easy")) + " y 7 ")
    stored = Msg("notice.back", name=keys).stored()
    assert all(render(lang, stored) == said[lang] for lang in said)


def test_a_game_is_found_and_listed_by_its_title_in_every_language():
    """A published edition's title (Firetop's, in German and Spanish) names the game in the
    reader's language everywhere the bot writes it, and finds it when typed."""
    from bot.app import game_named
    from bot.rendering import titled
    firetop = games.get("firetop")
    assert [titled(firetop, lang) for lang in ("en", "de", "es")] == [
        "The Warlock of Firetop Mountain", "Der Hexenmeister vom flammenden Berg",
        "El Brujo de la Montaña de Fuego"]
    assert titled(games.get("castle"), "de") == "Keys to the Castle"  # no edition: kept
    assert game_named("el brujo de la montaña de fuego") is firetop
    with pytest.raises(Refusal) as refused:
        game_named("chess")
    assert "Der Hexenmeister vom flammenden Berg (`firetop`)" in said("de", refused.value)

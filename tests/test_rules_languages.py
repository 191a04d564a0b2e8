"""/rules in the reader's language: every game's page in every language we speak, the same page
as the English one (its headings in order, its figures), no English left in it, each section one
Discord message, and a topic found by its heading in the reader's language or in English."""
from __future__ import annotations

import re
from collections import Counter

import pytest

import games
from bot.app import rules_sections, topics_named
from bot.rulebook import sections
from data.locales import DEFAULT, LANGUAGES, text
from tests.harness import Players
from tests.page_numbers import numbers
from tests.test_rules_pages import broken_lines

NAMES = [g.name for g in games.all_games()]
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]
PAGES = [pytest.param(name, lang, id=f"{name}-{lang}") for name in NAMES for lang in TRANSLATED]

# Words only English uses, and often: a line where they make up a large share is English prose.
ENGLISH_WORDS = {"the", "and", "or", "you", "of", "to", "your", "is", "are", "be", "with", "that",
                 "it", "for", "when", "if", "then", "each", "can", "from", "this", "on", "at",
                 "by", "its", "only", "not", "has", "have", "one", "up", "out"}


def page(name: str, lang: str) -> str:
    return games.get(name).rules_text(lang)


def headings(markdown: str) -> list[str]:
    """The heading marks of a page in order ("#", "##", ...)."""
    return [line.split(" ")[0] for line in markdown.splitlines() if re.match(r"#+ ", line)]


def english_lines(markdown: str) -> list[str]:
    """The lines of `markdown` that read as English prose: code, the games' titles and the
    names of their characters left out, the words above make up a fifth or more of the rest."""
    found = []
    for line in markdown.splitlines():
        plain = re.sub(r"`[^`]*`", " ", line)
        for game in games.all_games():
            plain = plain.replace(game.title, " ")
        words = re.findall(r"[^\W\d_]+", plain.lower())
        english = sum(word in ENGLISH_WORDS for word in words)
        if english >= 2 and english >= len(words) / 5:
            found.append(line)
    return found


def test_the_scan_finds_english_prose_and_leaves_other_languages_alone():
    assert english_lines("Each turn you play one card and then step one tile.\n"
                         "Jeden Zug spielst du eine Karte und gehst ein Feld.\n"
                         "- `play key-red C3`: open or close C3 with a Red Key.") == \
        ["Each turn you play one card and then step one tile.",
         "- `play key-red C3`: open or close C3 with a Red Key."]
    assert len(english_lines(page("castle", DEFAULT))) > 40


@pytest.mark.parametrize("name, lang", PAGES)
def test_each_game_has_its_page_in_the_language_with_the_english_headings(name, lang):
    english, translated = page(name, DEFAULT), page(name, lang)
    assert translated != english, "no page in this language"
    assert headings(translated) == headings(english)
    ours, theirs = list(sections(translated).values()), list(sections(english).values())
    tables = [sum(line.startswith("|") for line in s.splitlines()) for s in (*ours, *theirs)]
    assert tables[:len(ours)] == tables[len(ours):]  # every table whole, in its section


@pytest.mark.parametrize("name, lang", PAGES)
def test_every_number_of_the_english_section_is_in_the_translated_one(name, lang):
    english = sections(page(name, DEFAULT))
    for (heading, theirs), ours in zip(english.items(), sections(page(name, lang)).values()):
        missing = Counter(numbers(theirs, DEFAULT)) - Counter(numbers(ours, lang))
        assert not missing, (heading, sorted(missing))


@pytest.mark.parametrize("name, lang", PAGES)
def test_no_english_sentence_is_left_in_the_translation(name, lang):
    assert english_lines(page(name, lang)) == []


@pytest.mark.parametrize("name, lang", PAGES)
def test_rules_fit_discord_as_rules_shows_them(name, lang):
    shown = rules_sections(name, lang)
    assert len(shown) == len(rules_sections(name, DEFAULT))
    for heading, section in shown.items():
        assert broken_lines(section) == [], heading
        assert len(section) <= 2000, heading  # one Discord message
    first = text(lang, "rules.first", first=next(iter(shown.values())), topics=", ".join(shown),
                 example=f"/{text(lang, 'cmd.rules.name')} {name}")
    assert len(first) <= 2000


@pytest.mark.parametrize("name, lang", PAGES)
def test_a_topic_is_found_by_its_heading_in_the_language_or_in_english(name, lang):
    english, translated = sections(page(name, DEFAULT)), sections(page(name, lang))
    for theirs, ours in zip(english, translated):
        assert topics_named(name, lang, ours)[0] == ours
        assert ours in topics_named(name, lang, theirs.upper())


async def test_a_german_reader_gets_the_german_page_on_an_english_server(fake_discord, harness):
    players = Players(fake_discord, harness, ["Ana", "Bo"])
    fake_discord.set_locale(players.users["Bo"], "de")
    german, english = sections(page("castle", "de")), sections(page("castle", DEFAULT))
    ix = await fake_discord.slash(players.users["Bo"], players.channel.id, "rules",
                                  {"game": "castle"})
    shown = (await ix.response()).message.content
    assert shown == text("de", "rules.first", first=german["überblick"],
                         topics=", ".join(rules_sections("castle", "de")),
                         example=f"/{text('de', 'cmd.rules.name')} castle")
    assert "zug, karten" in shown
    for typed in ("Zug", "turn"):
        ix = await fake_discord.slash(players.users["Bo"], players.channel.id, "rules",
                                      {"game": "castle", "topic": typed})
        assert (await ix.response()).message.content == german["zug"]
    offered = await fake_discord.autocomplete(players.users["Bo"], players.channel.id, "rules",
                                              {"game": "castle", "topic": "win"}, focused="topic")
    assert [o["value"] for o in offered] == ["sieg"]
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "rules",
                                  {"game": "castle", "topic": "turn"})
    assert (await ix.response()).message.content == english["turn"]

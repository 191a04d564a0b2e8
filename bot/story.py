"""/log: the whole story of a game, every public line, privately to whoever asks.

The story is the game's public events as lines (`present.public_lines`), rebuilt from its action
log whenever it is asked for (`TableService.public_events`), from the start or since the
asker's last turn. How it is shown depends on its length:

| story | shown as |
| --- | --- |
| fits one message (2,000 characters) | the lines as text |
| up to MAX_PAGES pages | page 1 of M, with Previous / Next and "Download as text" (story.txt) |
| longer | story.txt alone (paging through dozens of pages is no way to read it) |

A page is whole lines. The buttons hold no state: their custom id (`ui.button_id`, op `STORY_OP`)
names the game and, in its argument, where the story starts ("s": the start, "m": the clicker's
last turn) and the page ("f": the file), so a click rebuilds its page from the action log and
works after a restart. A story from the start only grows at its end, so its pages stay put.
"""
from __future__ import annotations

import io

import discord

from data.locales import text
from games.core import IllegalAction

from . import markup, present, ui
from .refusal import Refusal
from .rendering import title_of
from .table import Table, TableService

STORY_OP = "log"
MESSAGE_CHARS = 2000  # Discord's limit for a message's content
PAGE_CHARS = 1800  # a page's lines, under its heading
MAX_PAGES = 10
FILE_NAME = "story.txt"
FROM_START, SINCE_MINE, AS_FILE = "s", "m", "f"


async def lines_of(service: TableService, table: Table, since: str, user_id: int,
                   lang: str) -> list[str]:
    """The story's lines in `lang`: from the start, or since the user's seat last acted."""
    seat = None
    if since == SINCE_MINE:
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("refusal.no_last_turn")
    return present.public_lines(table, await service.public_events(table, since_seat=seat), lang)


def pages(lines: list[str]) -> list[list[str]]:
    """The lines in pages of at most PAGE_CHARS characters, whole lines each (a line longer
    than a page, which no game writes, is shortened on its page; the file keeps it whole)."""
    found: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = line if len(line) <= PAGE_CHARS else markup.clip(line, PAGE_CHARS)
        if found[-1] and size + 1 + len(line) > PAGE_CHARS:
            found.append([])
            size = -1
        found[-1].append(line)
        size += 1 + len(line)
    return found


async def show_story(service: TableService, interaction: discord.Interaction, table: Table,
                     since_mine: bool, lang: str) -> None:
    """Answer /log in the reader's language `lang`: the story as text, its first page, or its
    file."""
    since = SINCE_MINE if since_mine else FROM_START
    lines = await lines_of(service, table, since, interaction.user.id, lang)
    told = "\n".join(lines) or text(lang, f"story.nothing.{since}")
    if len(told) <= MESSAGE_CHARS:
        await interaction.response.send_message(told, ephemeral=True)
        return
    book = pages(lines)
    if len(book) > MAX_PAGES:
        await interaction.response.send_message(
            text(lang, "story.as_file", heading=heading(table, since, lang), count=len(lines)),
            file=story_file(table, since, lines, lang), ephemeral=True)
        return
    await interaction.response.send_message(
        page_text(table, since, book, 1, lang), view=page_view(table, since, 1, len(book), lang),
        ephemeral=True)


async def turn_page(service: TableService, interaction: discord.Interaction, game_id: int,
                    arg: str, lang: str) -> None:
    """A page button: show the page asked for in place, or send the story as a file."""
    since, _, page = arg.partition(".")
    if since not in (FROM_START, SINCE_MINE) or not (page == AS_FILE or page.isdigit()):
        raise Refusal("refusal.unknown_button")
    table = await told_game(service, interaction, game_id)
    lines = await lines_of(service, table, since, interaction.user.id, lang)
    if page == AS_FILE:
        await interaction.response.send_message(file=story_file(table, since, lines, lang),
                                                ephemeral=True)
        return
    book = pages(lines)
    number = min(max(1, int(page)), len(book))  # a story since a turn may have shrunk since
    await interaction.response.edit_message(content=page_text(table, since, book, number, lang),
                                            view=page_view(table, since, number, len(book), lang))


async def told_game(service: TableService, interaction: discord.Interaction,
                    game_id: int) -> Table:
    """The game a page button names: running, or the channel's last finished one (the games
    /log answers about; an older game's story is asked for again with /log)."""
    try:
        return await service.get(game_id)
    except IllegalAction:  # not running
        table = await service.last_finished(interaction.guild_id or 0, interaction.channel_id or 0)
    if table is None or table.id != game_id:
        raise Refusal("refusal.story_gone")
    return table


def heading(table: Table, since: str, lang: str) -> str:
    return text(lang, f"story.heading.{since}", id=table.id, game=title_of(table.game))


def page_text(table: Table, since: str, book: list[list[str]], number: int, lang: str) -> str:
    return text(lang, "story.page", heading=heading(table, since, lang), number=number,
                pages=len(book)) + "\n" + "\n".join(book[number - 1])


def page_view(table: Table, since: str, number: int, count: int, lang: str) -> discord.ui.View:
    """Previous / Next (each naming the page it shows) and "Download as text"."""
    view = discord.ui.View(timeout=None)
    for label, target, disabled in (("story.previous", number - 1, number <= 1),
                                    ("story.next", number + 1, number >= count)):
        view.add_item(discord.ui.Button(
            label=text(lang, label), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=ui.button_id(table, STORY_OP, f"{since}.{target}")))
    view.add_item(discord.ui.Button(label=text(lang, "story.download"),
                                    style=discord.ButtonStyle.primary,
                                    custom_id=ui.button_id(table, STORY_OP, f"{since}.{AS_FILE}")))
    return ui.frozen(view)


def story_file(table: Table, since: str, lines: list[str], lang: str) -> discord.File:
    """The story as story.txt: a heading, then every line as the channel wrote it."""
    told = "\n".join([heading(table, since, lang), "", *lines]) + "\n"
    return discord.File(io.BytesIO(told.encode("utf-8")), filename=FILE_NAME)

"""The live table: one Components V2 message per game state, and the trail it leaves.

A table message reads top to bottom: the summaries of the turns carried from retired messages
(see `Trail`), then a container in the colour of whoever acts now with a header (game, turn, who
acts and until when), the board picture (with its alt text), the players' panel in words (what
a phone could not read in a shrunk picture: `panel_text`), the lines of the current turn, the
controls, and a one-line footer. Who acts comes from one place, `acting` (the seats' prompts and
the game's interlude), which the header, the picture's header (`Acting.plain` goes into the
board view) and the buttons (`ui.turn_rows`, from the same prompts) all follow.

While a speaking character holds the floor (the Gatekeeper), the container shows him instead of
the board: his line beside his picture (the whole picture on his first appearance, a thumbnail
after), a countdown to the answer's deadline, and the answer button.
"""
from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import discord
from babel.lists import format_list

from data.locales import LANGUAGES, messages, text

from . import levels, markup, pace, present, ui
from .rendering import board_view, speaker_name, title_of
from .table import Table

BOARD_FILE = "board.png"
SPEAKER_FILE = "speaker.png"
MAX_TEXT = 4000  # Discord's limit across a message's text displays
CARRIED_ID = 90  # component ids of the carried summaries and of the turn's lines, read back
LINES_ID = 91  # from the live message after a restart
OPENING_ID = 92  # the first table's opening words: not the turn's lines, never read back
BEGAN_ID = 1_000_000  # the container's id: this plus the turn the live table began at
SUMMARY_CHARS = 280  # one retired turn's summary line
CHAPTER_TURNS = 8  # summaries a chapter message keeps
CHAPTER_CHARS = 1800
SPEAKER_COLOUR = discord.Colour.dark_red()
PANEL_CHARS = 1200  # the player panel's share of the message's text


@dataclass
class Acting:
    """Who acts now, in the words every part of the table uses."""

    header: str  # Markdown, mentions of the people who must act
    plain: str  # the same for the picture's header: no Markdown, no mentions
    seat: int | None  # whose colour the table wears
    interlude: dict[str, Any] | None = None
    clock: str = ""  # the game clock's line under the header, if the game has one


def acting(table: Table, public: dict[str, Any], now: float, lang: str) -> Acting:
    """Who acts now, in the server's language `lang`: from the seats' prompts (the buttons'
    source) and the game's interlude in the `public` view, with every deadline as it stands at
    `now`, when the table is shown."""
    assert table.state is not None
    game, state = table.game, table.state
    if table.status != "running":
        over = text(lang, "table.game_over")
        return Acting(f"🏁 **{over}.** {present.result_text(table, lang)}", over, None)
    interlude = game.interlude(public)
    clock = _clock_line(table, public, interlude, now, lang)
    if interlude is not None:
        name = speaker_name(game, interlude["speaker"], lang).upper()
        called = interlude.get("calls")
        if called is not None:
            when = countdown(interlude["until"]) if interlude.get("until") \
                else text(lang, "table.now")
            calls = text(lang, "table.calls", name=f"**{name}**",
                         who=present.mention(table, called), when=when)
            return Acting(f"🗝️ {calls}", text(lang, "table.calls.plain", name=name,
                                               who=table.seats[called].name),
                          called, interlude, clock)
        return Acting(f"🗝️ {text(lang, 'table.speaks', name=f'**{name}**')}",
                      text(lang, "table.speaks", name=name), None, interlude, clock)
    deadline = _turn_deadline(table, public)
    deadline = f" · {countdown(deadline)}" if deadline else ""
    waiting = [s for s, p in enumerate(table.prompts) if p is not None]
    mover = game.to_move(state)
    if len(waiting) > 1:
        people = format_list([_who(table, s, lang) for s in waiting], locale=lang)
        names = format_list([table.seats[s].name for s in waiting], locale=lang)
        return Acting(f"➡️ {text(lang, 'table.waiting', people=people)}{deadline}",
                      text(lang, "table.waiting", people=names),
                      mover if mover in waiting else None, clock=clock)
    seat = waiting[0] if waiting else mover
    if seat is None:
        return Acting(f"⏳ {text(lang, 'table.by_itself')}", "", None, clock=clock)
    return Acting(f"➡️ {text(lang, 'table.to_move', who=_who(table, seat, lang))}{deadline}",
                  text(lang, "table.to_move", who=table.seats[seat].name), seat, clock=clock)


def countdown(when: float) -> str:
    """A Discord countdown to `when`, rounded up: it never reads "ago" before the time is up."""
    return f"<t:{math.ceil(when)}:R>"


def _turn_deadline(table: Table, public: dict[str, Any]) -> float | None:
    """The turn's deadline, unless the game clock runs out first (its own line says when)."""
    end = (public.get("clock") or {}).get("end")
    if table.deadline is None or (end is not None and end <= table.deadline):
        return None
    return table.deadline


def _who(table: Table, seat: int, lang: str) -> str:
    """A seat as the header names it: colour mark, mention (or bold name for an AI), colour."""
    return present.seat_label(table, seat, lang, present.mention(table, seat))


@dataclass
class Picture:
    """An image the message shows: its file name and alt text."""

    filename: str
    alt: str


@dataclass
class Trail:
    """What the channel keeps of finished turns. A retired table message is deleted and its
    turn's summary carried into the next table message; every CHAPTER_TURNS turns (or before
    the next summary could take the chapter past CHAPTER_CHARS) the retired message is kept
    instead, shrunk to the summaries it carried plus its own: a chapter. The channel then reads
    as one short message per chapter, with the live table under the last. A turn gets one
    summary: a table that retires before its turn ends (a hand-over within the turn) passes
    its lines on to the next table instead (`publisher.DiscordPublisher._show_board`)."""

    carried: list[str] = field(default_factory=list)

    def next_turn(self) -> int | None:
        """The turn after the last one its summaries tell: where the live table carrying them
        began (read back after a restart, when that is not in memory)."""
        label = self.carried[-1].removeprefix("**").partition("**")[0] if self.carried else ""
        for pattern in _turn_labels():  # "Turn 7", "Turns 3–7", "Zug 7", "Turnos 3–7"…
            told = pattern.fullmatch(label)
            if told:
                return int(told["last"]) + 1
        return None

    def closes_chapter(self, summary: str) -> bool:
        """Is the message retiring with `summary` the last of its chapter?"""
        chapter = self.carried + [summary]
        return len(chapter) >= CHAPTER_TURNS \
            or len(_carried_text(chapter)) + len("\n-# ") + SUMMARY_CHARS > CHAPTER_CHARS


@cache
def _turn_labels() -> list[re.Pattern[str]]:
    """A summary's turn label ("Turn 7", "Turns 3–7") as every language writes it, the last
    turn it tells as `last`: read back from a message after a restart, whatever language the
    server spoke when it was written."""
    found = []
    for lang in LANGUAGES:
        for id, last in (("table.summary.turn", "turn"), ("table.summary.turns", "last")):
            template = messages(lang)[id].string
            found.append(re.compile("".join(
                re.escape(literal) + ("" if field is None else
                                      r"(?P<last>\d+)" if field == last else r"\d+")
                for literal, field, _, _ in string.Formatter().parse(template))))
    return found


def turn_summary(first_turn: int, last_turn: int, lines: list[str], lang: str) -> str:
    """One line of at most SUMMARY_CHARS for a retired turn message, in the server's language
    `lang`: its turns and what happened in them. Whole events only (those that do not fit are
    counted: "… and 3 more"), and never a marker left open (`markup`): a cut inside `**…**`
    would make the rest of the chapter bold."""
    turns = text(lang, "table.summary.turn", turn=first_turn) if first_turn >= last_turn \
        else text(lang, "table.summary.turns", first=first_turn, last=last_turn)
    head = f"**{turns}**: "
    events = [markup.balanced(line.replace("\n", " ")) for line in lines if line]
    return head + (_fitting_events(events, SUMMARY_CHARS - len(head), lang) if events
                   else text(lang, "table.summary.none"))


def _fitting_events(events: list[str], room: int, lang: str) -> str:
    """The first events that fit in `room` characters, joined, and how many more there were;
    the first event shortened (`markup.clip`) when even it alone does not fit."""
    def more(left: int) -> str:
        return f" {text(lang, 'table.summary.more', count=left)}" if left else ""
    for shown in range(len(events), 0, -1):
        body = " · ".join(events[:shown])
        if len(body) + len(more(len(events) - shown)) <= room:
            return body + more(len(events) - shown)
    rest = more(len(events) - 1)
    return markup.clip(events[0], room - len(rest)) + rest


def table_layout(table: Table, who: Acting, lines: list[str], carried: list[str],
                 board: Picture | None, speaker: Picture | None, lang: str,
                 began: int | None = None) -> discord.ui.LayoutView:
    """The live table message for `table` as committed, in the server's language `lang`.
    `began`, the turn it began at, is kept in the container's id, so after a restart its
    turn's summary keeps its number."""
    assert table.state is not None
    game = table.game
    view = discord.ui.LayoutView(timeout=None)
    trail = _carried_text(carried)
    if trail:
        view.add_item(discord.ui.TextDisplay(trail, id=CARRIED_ID))
    title = "### " + (text(lang, "table.title.turn", game=title_of(game), turn=table.state.turn)
                      if table.status == "running" else text(lang, "table.title.over",
                                                              game=title_of(game)))
    header = "\n".join(part for part in (title, who.header, who.clock) if part)
    colour = SPEAKER_COLOUR if who.interlude and who.seat is None else (
        discord.Colour.gold() if table.status != "running" else present.colour_of(table, who.seat))
    box = discord.ui.Container(accent_colour=colour,
                               id=None if began is None else BEGAN_ID + began)
    box.add_item(discord.ui.TextDisplay(header))
    said = None
    if who.interlude is not None and speaker is not None:
        name = speaker_name(game, who.interlude["speaker"], lang).upper()
        said = table.fill(who.interlude["line"], lang)
        words = f"**{name}:** “{said}”"
        if who.interlude.get("first"):
            box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
                f"attachment://{speaker.filename}", description=speaker.alt[:1024])))
            box.add_item(discord.ui.TextDisplay(words))
        else:
            box.add_item(discord.ui.Section(words, accessory=discord.ui.Thumbnail(
                f"attachment://{speaker.filename}", description=speaker.alt[:1024])))
    elif board is not None:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{board.filename}", description=board.alt[:1024])))
    panel = panel_text(table, lang) if said is None else ""
    if panel:
        box.add_item(discord.ui.TextDisplay(panel))
    footer = _footer(table, lang)
    if board is None and speaker is None:
        footer += f" · {text(lang, 'table.picture_failed')}"
    extra = [] if table.status == "running" else _results(table, lang)
    room = MAX_TEXT - len(trail) - len(header) - len(panel) - len(footer) - sum(map(len, extra)) - 200
    shown = [line for line in lines if said is None or said not in line]
    if table.status == "running" and not shown and not carried and table.state.version == 0:
        box.add_item(discord.ui.TextDisplay(opening_text(table, max(200, room), lang),
                                            id=OPENING_ID))
    told = "\n".join(present.fitting(shown, lang, max(200, room)))
    if told:
        box.add_item(discord.ui.TextDisplay(told, id=LINES_ID))
    for part in extra:
        box.add_item(discord.ui.TextDisplay(part))
    for row in ui.turn_rows(table, lang):
        box.add_item(row)
    box.add_item(discord.ui.TextDisplay(footer))
    view.add_item(box)
    view.stop()  # not stored by discord.py: on_interaction routes its clicks
    return view


def opening_text(table: Table, room: int, lang: str) -> str:
    """What the game's first table says before anyone moves: that it begins, and the house rules
    that change play at this table (`Game.opening`), so players hear them before they act."""
    assert table.state is not None
    rules = [f"- {table.fill(line, lang)}" for line in table.game.opening(table.state)]
    if not rules:
        return text(lang, "table.opening")
    return markup.clip("\n".join([text(lang, "table.opening.house_rules"), *rules]), room)


def panel_text(table: Table, lang: str) -> str:
    """The game's player panel (`Game.panel_text`) of the public view as the table's text: a
    line per player and the table's facts, then the picture's legend in small print. Empty for
    a game without one. (The game writes its lines; an AI's level reads in `lang`.)"""
    assert table.state is not None
    lines = table.game.hook("panel_text")
    if lines is None:
        return ""
    names = levels.named(table.seats, lang)  # as the panel lists them: an AI with its level
    said = [discord.utils.escape_markdown(line)
            for line in lines(board_view(table.game, table.state, names, lang=lang))]
    if len(said) > 1:
        said[-1] = f"-# {said[-1]}"
    return markup.clip("\n".join(said), PANEL_CHARS)


def chapter_layout(summaries: list[str], lang: str) -> discord.ui.LayoutView:
    """A retired table message: the summaries of its chapter's turns, nothing live."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(_carried_text(summaries)
                                         or f"-# ({text(lang, 'table.summary.none')})"))
    view.stop()
    return view


def _carried_text(summaries: list[str]) -> str:
    """The summaries as small text, within half the message's text: whole lines, the newest
    kept if they ever were longer (a chapter closes before that: `Trail.closes_chapter`)."""
    lines = [f"-# {s}" for s in summaries]
    while len("\n".join(lines)) > MAX_TEXT // 2:
        lines.pop(0)
    return "\n".join(lines)


def carried_from(components: list[Any]) -> list[str]:
    """The summaries a table message carries, read back from its components (after a restart
    the trail is not in memory: the live message itself holds it)."""
    return [line.removeprefix("-# ") for line in _text_of(components, CARRIED_ID).split("\n") if line]


def lines_from(components: list[Any]) -> list[str]:
    """The current turn's lines a table message shows, read back likewise: not the pointer
    to /log over lines left out, nor, on a first table of an older release, "The game
    begins!" (in whatever language the message was written: no move)."""
    return [line for line in _text_of(components, LINES_ID).split("\n")
            if line and line not in _not_moves()]


@cache
def _not_moves() -> frozenset[str]:
    """The lines of a table's turn text that tell no move, in every language."""
    return frozenset(said for lang in LANGUAGES
                     for said in (text(lang, "table.opening"), present.earlier_lines(lang)))


def began_from(components: list[Any]) -> int | None:
    """The turn a table message began at (its container's id), if it says."""
    stack = list(components)
    while stack:
        item = stack.pop()
        if (getattr(item, "id", None) or 0) >= BEGAN_ID:
            return item.id - BEGAN_ID
        stack += list(getattr(item, "children", None) or [])
    return None


def _text_of(components: list[Any], wanted: int) -> str:
    stack = list(components)
    while stack:
        item = stack.pop()
        if getattr(item, "id", None) == wanted:
            return getattr(item, "content", "") or ""
        stack += list(getattr(item, "children", None) or [])
    return ""


def _clock_line(table: Table, public: dict[str, Any], interlude: dict[str, Any] | None,
                now: float, lang: str) -> str:
    """The game clock under the header. While a speaking character holds the floor, what falls
    due waits until he leaves (the game's own timers are then his alone): a clock that runs out
    before that says so rather than count down past zero."""
    clock = public.get("clock") or {}
    if clock.get("paused_at"):
        return f"⏸️ {text(lang, 'table.clock.paused')}"
    end = clock.get("end")
    if not end:
        return ""
    if interlude is not None:
        assert table.state is not None
        leaves = min((t["due"] for t in table.game.timers(table.state)), default=None)
        if leaves is not None and end <= leaves:
            name = speaker_name(table.game, interlude["speaker"], lang).upper()
            return f"⏳ {text(lang, 'table.clock.during_visit', name=name)}"
    if end <= now:
        return f"⏳ {text(lang, 'table.clock.out')}"
    return f"⏳ {text(lang, 'table.clock.runs_out', when=countdown(end))}"


def _results(table: Table, lang: str) -> list[str]:
    players = "\n".join(present.seat_label(table, i, lang) for i in range(len(table.seats)))
    scores = present.score_table(table, lang)
    return [f"**{text(lang, 'table.players')}**\n{players}"] + (
        [f"**{text(lang, 'table.final_scores')}**\n{scores}"] if scores else [])


def _footer(table: Table, lang: str) -> str:
    """The table's last line: the game's number and the commands that help at this point,
    named as Discord shows them to the server's language."""
    game = text(lang, "table.footer.game", id=table.id)
    if table.status == "running":
        speed = pace.describe(table.options, lang)
        parts = [game, speed, text(lang, "table.footer.hand", command=_command(lang, "hand")),
                 f"{_command(lang, 'rules')} {table.game.name}"]
        return "-# " + " · ".join(part for part in parts if part)
    return f"-# {game} · " + text(lang, "table.footer.over", log=_command(lang, "log"),
                                  replay=_command(lang, "replay"))


def _command(lang: str, name: str) -> str:
    """A slash command as Discord lists it in `lang`: "/log", "/verlauf"."""
    return f"/{text(lang, f'cmd.{name}.name')}"

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
from dataclasses import dataclass, field
from typing import Any

import discord

from data.locales import DEFAULT

from . import levels, markup, pace, present, ui
from .rendering import board_view
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


def acting(table: Table, public: dict[str, Any], now: float) -> Acting:
    """Who acts now: from the seats' prompts (the buttons' source) and the game's interlude in
    the `public` view, with every deadline as it stands at `now`, when the table is shown."""
    assert table.state is not None
    game, state = table.game, table.state
    if table.status != "running":
        return Acting(f"🏁 **Game over.** {present.result_text(table, DEFAULT)}", "Game over",
                      None)
    interlude = game.interlude(public)
    clock = _clock_line(table, public, interlude, now)
    if interlude is not None:
        name = game.speakers.get(interlude["speaker"], interlude["speaker"]).upper()
        called = interlude.get("calls")
        if called is not None:
            until = f" {countdown(interlude['until'])}" if interlude.get("until") else " now"
            return Acting(f"🗝️ **{name}** calls {present.mention(table, called)}: answer him{until}!",
                          f"{name} calls {table.seats[called].name}: answer him now", called,
                          interlude, clock)
        return Acting(f"🗝️ **{name}** speaks: nobody moves.", f"{name} speaks: nobody moves",
                      None, interlude, clock)
    deadline = _turn_deadline(table, public)
    deadline = f" · {countdown(deadline)}" if deadline else ""
    waiting = [s for s, p in enumerate(table.prompts) if p is not None]
    mover = game.to_move(state)
    if len(waiting) > 1:
        people = " and ".join(_who(table, s) for s in waiting)
        names = " and ".join(table.seats[s].name for s in waiting)
        return Acting(f"➡️ Waiting for {people}{deadline}", f"Waiting for {names}",
                      mover if mover in waiting else None, clock=clock)
    seat = waiting[0] if waiting else mover
    if seat is None:
        return Acting("⏳ The game goes on by itself…", "", None, clock=clock)
    return Acting(f"➡️ {_who(table, seat)} to move{deadline}", f"{table.seats[seat].name} to move",
                  seat, clock=clock)


def countdown(when: float) -> str:
    """A Discord countdown to `when`, rounded up: it never reads "ago" before the time is up."""
    return f"<t:{math.ceil(when)}:R>"


def _turn_deadline(table: Table, public: dict[str, Any]) -> float | None:
    """The turn's deadline, unless the game clock runs out first (its own line says when)."""
    end = (public.get("clock") or {}).get("end")
    if table.deadline is None or (end is not None and end <= table.deadline):
        return None
    return table.deadline


def _who(table: Table, seat: int) -> str:
    """A seat as the header names it: colour mark, mention (or bold name for an AI), colour."""
    colours = table.game.colours
    colour = colours[seat] if seat < len(colours) else ""
    mark = f"{present.SQUARES.get(colour, '')}{present.SEAT_SHAPES[seat % len(present.SEAT_SHAPES)]}"
    tag = levels.tag(table.seats[seat].ai, table.seats[seat].level)
    return f"{mark} {present.mention(table, seat)} ({colour}{tag})".replace(" ()", "")


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
        last = label.rpartition(" ")[2].rpartition("–")[2]  # "Turn 7", "Turns 3–7"
        return int(last) + 1 if label.startswith("Turn") and last.isdigit() else None

    def closes_chapter(self, summary: str) -> bool:
        """Is the message retiring with `summary` the last of its chapter?"""
        chapter = self.carried + [summary]
        return len(chapter) >= CHAPTER_TURNS \
            or len(_carried_text(chapter)) + len("\n-# ") + SUMMARY_CHARS > CHAPTER_CHARS


def turn_summary(first_turn: int, last_turn: int, lines: list[str]) -> str:
    """One line of at most SUMMARY_CHARS for a retired turn message: its turns and what
    happened in them. Whole events only (those that do not fit are counted: "… and 3 more"),
    and never a marker left open (`markup`): a cut inside `**…**` would make the rest of the
    chapter bold."""
    turns = f"Turn {first_turn}" if first_turn >= last_turn else f"Turns {first_turn}–{last_turn}"
    head = f"**{turns}**: "
    events = [markup.balanced(line.replace("\n", " ")) for line in lines if line]
    return head + (_fitting_events(events, SUMMARY_CHARS - len(head)) if events else "no moves")


def _fitting_events(events: list[str], room: int) -> str:
    """The first events that fit in `room` characters, joined, and how many more there were;
    the first event shortened (`markup.clip`) when even it alone does not fit."""
    for shown in range(len(events), 0, -1):
        more = f" … and {len(events) - shown} more" if shown < len(events) else ""
        body = " · ".join(events[:shown])
        if len(body) + len(more) <= room:
            return body + more
    more = f" … and {len(events) - 1} more" if len(events) > 1 else ""
    return markup.clip(events[0], room - len(more)) + more


def table_layout(table: Table, who: Acting, lines: list[str], carried: list[str],
                 board: Picture | None, speaker: Picture | None,
                 began: int | None = None) -> discord.ui.LayoutView:
    """The live table message for `table` as committed. `began`, the turn it began at, is
    kept in the container's id, so after a restart its turn's summary keeps its number."""
    assert table.state is not None
    game = table.game
    view = discord.ui.LayoutView(timeout=None)
    trail = _carried_text(carried)
    if trail:
        view.add_item(discord.ui.TextDisplay(trail, id=CARRIED_ID))
    title = f"### {game.title} · turn {table.state.turn}" if table.status == "running" \
        else f"### {game.title} · game over"
    header = "\n".join(part for part in (title, who.header, who.clock) if part)
    colour = SPEAKER_COLOUR if who.interlude and who.seat is None else (
        discord.Colour.gold() if table.status != "running" else present.colour_of(table, who.seat))
    box = discord.ui.Container(accent_colour=colour,
                               id=None if began is None else BEGAN_ID + began)
    box.add_item(discord.ui.TextDisplay(header))
    said = None
    if who.interlude is not None and speaker is not None:
        name = game.speakers.get(who.interlude["speaker"], who.interlude["speaker"]).upper()
        said = table.fill(who.interlude["line"])
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
    panel = panel_text(table) if said is None else ""
    if panel:
        box.add_item(discord.ui.TextDisplay(panel))
    footer = _footer(table)
    if board is None and speaker is None:
        footer += " · (the board picture could not be drawn)"
    extra = [] if table.status == "running" else _results(table)
    room = MAX_TEXT - len(trail) - len(header) - len(panel) - len(footer) - sum(map(len, extra)) - 200
    shown = [line for line in lines if said is None or said not in line]
    if table.status == "running" and not shown and not carried and table.state.version == 0:
        box.add_item(discord.ui.TextDisplay(opening_text(table, max(200, room)), id=OPENING_ID))
    text = "\n".join(present.fitting(shown, max(200, room)))
    if text:
        box.add_item(discord.ui.TextDisplay(text, id=LINES_ID))
    for part in extra:
        box.add_item(discord.ui.TextDisplay(part))
    for row in ui.turn_rows(table):
        box.add_item(row)
    box.add_item(discord.ui.TextDisplay(footer))
    view.add_item(box)
    view.stop()  # not stored by discord.py: on_interaction routes its clicks
    return view


def opening_text(table: Table, room: int) -> str:
    """What the game's first table says before anyone moves: that it begins, and the house rules
    that change play at this table (`Game.opening`), so players hear them before they act."""
    assert table.state is not None
    rules = [f"- {table.fill(line)}" for line in table.game.opening(table.state)]
    if not rules:
        return "The game begins!"
    return markup.clip("\n".join(["The game begins! House rules at this table:", *rules]), room)


def panel_text(table: Table) -> str:
    """The game's player panel (`Game.panel_text`) of the public view as the table's text: a
    line per player and the table's facts, then the picture's legend in small print. Empty for
    a game without one."""
    assert table.state is not None
    lines = table.game.hook("panel_text")
    if lines is None:
        return ""
    names = levels.named(table.seats)  # the players as the panel lists them: an AI with its level
    said = [discord.utils.escape_markdown(line) for line in lines(board_view(table.game, table.state, names))]
    if len(said) > 1:
        said[-1] = f"-# {said[-1]}"
    return markup.clip("\n".join(said), PANEL_CHARS)


def chapter_layout(summaries: list[str]) -> discord.ui.LayoutView:
    """A retired table message: the summaries of its chapter's turns, nothing live."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(_carried_text(summaries) or "-# (no moves)"))
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
    """The current turn's lines a table message shows, read back likewise (a first table of
    an older release still shows "The game begins!" among them: not a move)."""
    return [line for line in _text_of(components, LINES_ID).split("\n")
            if line and line != "The game begins!"]


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
                now: float) -> str:
    """The game clock under the header. While a speaking character holds the floor, what falls
    due waits until he leaves (the game's own timers are then his alone): a clock that runs out
    before that says so rather than count down past zero."""
    clock = public.get("clock") or {}
    if clock.get("paused_at"):
        return "⏸️ The game is paused."
    end = clock.get("end")
    if not end:
        return ""
    if interlude is not None:
        assert table.state is not None
        leaves = min((t["due"] for t in table.game.timers(table.state)), default=None)
        if leaves is not None and end <= leaves:
            name = table.game.speakers.get(interlude["speaker"], interlude["speaker"]).upper()
            return f"⏳ The game clock runs out during this visit: time is up as {name} leaves."
    if end <= now:
        return "⏳ The game clock has run out."
    return f"⏳ The game clock runs out {countdown(end)}."


def _results(table: Table) -> list[str]:
    players = "\n".join(present.seat_label(table, i) for i in range(len(table.seats)))
    scores = present.score_table(table)
    return [f"**Players**\n{players}"] + ([f"**Final scores**\n{scores}"] if scores else [])


def _footer(table: Table) -> str:
    if table.status == "running":
        speed = pace.describe(table.options, DEFAULT)  # the table's words are still English
        return (f"-# Game #{table.id}{f' · {speed}' if speed else ''} · /hand for your cards · "
                f"/rules {table.game.name}")
    return f"-# Game #{table.id} · /log for the whole story · /replay to watch it again"

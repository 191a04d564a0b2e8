"""Buttons and selects. They hold no state: the custom_id says which game, seat, token and choice.

Custom ids: ``gk:<game>:<seat>:<token>:<op>:<arg>``: the seat the button was issued to ("a":
anyone) and that seat's prompt token when it was drawn, so a click is stale only if *that
seat's* prompt changed: simultaneous answers from several seats all land. Views are stopped
before sending so discord.py keeps nothing in memory per message; `GatekeeperBot.on_interaction`
routes every click (also after a restart) to the table by its custom_id alone.
"""
from __future__ import annotations

import re

import discord

from data.locales import text
from games.core import LEVELS, Choice, Prompt, option_text

from . import levels, order, pace
from .choices import Position, format_path
from .table import Table, fill_names

MAX_BUTTONS = 20  # four rows of five; the fifth row holds navigation
MAX_SELECT = 25
ANYONE = "a"
ROUTE = re.compile(r"gk:(?P<game>\d+):(?P<seat>\d+|a):(?P<token>\d+):(?P<op>[a-z]+)"
                   r":(?P<arg>[0-9a-z.~]*)")
# Release 0.1.0 ids (gk:<game>:<version>:<op>:<arg>): still routed, so a click on an old board
# after an upgrade is answered (its lobby buttons work; its move buttons are stale).
LEGACY_ROUTE = re.compile(r"gk:(?P<game>\d+):(?P<token>\d+):(?P<op>[a-z]+):(?P<arg>[0-9a-z.~]*)")


def button_id(table: Table, op: str, arg: str = "", seat: int | None = None) -> str:
    """An id for a button issued to `seat` (its current token), or to anyone."""
    if seat is None:
        return f"gk:{table.id}:{ANYONE}:0:{op}:{arg}"
    return f"gk:{table.id}:{seat}:{table.tokens[seat]}:{op}:{arg}"


def frozen(view: discord.ui.View) -> discord.ui.View:
    """Stop the view so discord.py does not store it; on_interaction handles its clicks."""
    view.stop()
    return view


def text_modal(table: Table, seat: int, index: int, choice: Choice,
               text: str | None = None) -> discord.ui.Modal:
    """A private text box for a choice that needs words (a fear, a name)."""
    modal = discord.ui.Modal(title=choice.path[-1].label[:45],
                             custom_id=button_id(table, "m", str(index), seat), timeout=None)
    modal.add_item(discord.ui.TextInput(label=choice.path[-1].label[:45], custom_id="text",
                                        style=discord.TextStyle.paragraph, max_length=100,
                                        default=text))
    modal.stop()  # not stored by discord.py: on_interaction routes the submission
    return modal


def modal_text(data: dict) -> str:
    """The first text value in a modal submission (rows or labels, however nested)."""
    stack = list(data.get("components", []))
    while stack:
        item = stack.pop(0)
        if "value" in item:
            return str(item["value"])
        stack[:0] = list(item.get("components", [])) + ([item["component"]] if "component" in item else [])
    return ""


def lobby_view(table: Table, lang: str) -> discord.ui.View | None:
    """The lobby's buttons and option selects, in the server's language `lang`."""
    if table.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    full = len(table.seats) >= table.game.max_seats
    # "Watch": the host gives their seat up and keeps hosting, to start a game of AIs only.
    host_seated = table.seat_of(table.host_id) is not None
    for row, buttons in enumerate((
        tuple((op, text(lang, f"lobby.button.{op}"), style, disabled) for op, style, disabled in (
            ("join", discord.ButtonStyle.success, full),
            ("leave", discord.ButtonStyle.secondary, False),
            ("watch", discord.ButtonStyle.secondary, not host_seated),
            ("start", discord.ButtonStyle.primary, len(table.seats) < table.game.min_seats),
            ("cancel", discord.ButtonStyle.danger, False))),
        # one button per AI level, weakest first: the host picks the level as the seat is added
        tuple((levels.ai_op(level), levels.button_label(level, lang),
               discord.ButtonStyle.secondary, full) for level in LEVELS),
    )):
        for op, label, style, disabled in buttons:
            view.add_item(discord.ui.Button(label=label, style=style, disabled=disabled, row=row,
                                            custom_id=button_id(table, "lobby", op)))
    for row, (name, values) in enumerate(table.game.option_choices.items(), start=2):
        current = table.options.get(name, values[0])
        words = option_text(pace.texts(table.game, lang), name)
        # No value is pre-selected, so the placeholder (what the option is, its current value
        # and what it does) always shows; a selected "off" alone would not say what is off.
        view.add_item(discord.ui.Select(
            custom_id=button_id(table, "opt", name), row=min(row, 4),
            placeholder=text(lang, "lobby.option_placeholder", label=words.label,
                             value=words.value(current), help=words.help).strip()[:150],
            options=[discord.SelectOption(label=words.value(v)[:100], value=str(v))
                     for v in values]))
    choices = pace.select_choices(table.game, lang)
    if choices:  # the bot's own options (pace, deadline action) share one select
        now = "; ".join(text(lang, "lobby.option_line", label=text(lang, f"{name}.label"),
                             value=pace.value_words(name, table.options.get(name), lang))
                        for name in pace.OPTIONS)
        view.add_item(discord.ui.Select(
            custom_id=button_id(table, "opt", pace.SELECT),
            row=min(2 + len(table.game.option_choices), 4),
            placeholder=text(lang, "lobby.pace_placeholder", now=now)[:150],
            options=[discord.SelectOption(label=label[:100], value=value)
                     for label, value in choices]))
    return frozen(view)


def seat_prefixed(name: str, label: str, limit: int = 80) -> str:
    """A choice offered to one of several seats, "Name · label", within Discord's `limit`: a
    long name gives way before the choice does (the choice is what the click does)."""
    room = limit - len(label) - 3
    if len(name) > room:
        name = name[:max(8, room - 1)].rstrip() + "…"
    return f"{name} · {label}"[:limit]


def choice_labels(choices: list[Choice], names: list[str]) -> list[str]:
    """The buttons' labels for one seat's `choices`, players called by their `names` ({p0}, as
    in events). Choices of one kind follow each other (a Key Challenge's nine keys): the first
    says the kind ("Key Challenge → Key 1"), the rest only what differs ("Key 2"), so a phone's
    row stays short."""
    labels = [""] * len(choices)
    for run in runs_of_a_kind(choices):
        for index in run:
            steps = choices[index].path[1:] if index != run[0] else choices[index].path
            labels[index] = fill_names(" → ".join(step.label for step in steps), names)
    return labels


SELECT_FROM = 6  # choices of one kind on the live table from which they share one select


def runs_of_a_kind(choices: list[Choice]) -> list[list[int]]:
    """`choices`' indexes in order, those of one kind in a row (a Key Challenge's nine keys: the
    same first step) together, each other choice alone."""
    runs: list[list[int]] = []
    for index, choice in enumerate(choices):
        before = choices[index - 1].path if index else ()
        if runs and len(choice.path) > 1 and len(before) > 1 and before[0].key == choice.path[0].key:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def kind_select(table: Table, seat: int, run: list[int], lang: str) -> discord.ui.Select:
    """One select for choices of one kind: its placeholder names the kind (in the server's
    `lang`), each option what differs; the value is the choice's index (op "c", as a
    button's)."""
    prompt = table.prompt(seat, lang)
    assert prompt is not None
    names = table.names()
    kind = prompt.choices[run[0]].path[0].label
    return discord.ui.Select(
        custom_id=button_id(table, "c", f"kind{run[0]}", seat),
        placeholder=fill_names(text(lang, "table.pick_one", kind=kind), names)[:150],
        options=[discord.SelectOption(
            label=fill_names(" → ".join(step.label for step in prompt.choices[i].path[1:]),
                             names)[:100], value=str(i)) for i in run[:MAX_SELECT]])


Button = tuple[str, str, int]  # label, "op:arg", the seat it is issued to
Row = list[Button] | tuple[int, list[int]]  # buttons, or a seat's select of one kind (its run)


def choice_rows(table: Table, waiting: list[tuple[int, Prompt]], several: bool) -> list[Row]:
    """The rows the `waiting` seats' choices take on the live table, each seat's likeliest kind
    first (`bot.order`): buttons share rows of five; one person's choices of one kind, when
    there are `SELECT_FROM` or more, share a select, in a row of its own. Several people's
    buttons name their seat, and take no selects. A button's id holds the engine's index."""
    rows: list[Row] = []
    for seat, prompt in waiting:
        labels = choice_labels(prompt.choices, table.names())
        for run in order.runs_in_order(table.game, prompt.choices, runs_of_a_kind(prompt.choices)):
            if not several and len(run) >= SELECT_FROM:
                rows.append((seat, run))
                continue
            for index in run:
                last = rows[-1] if rows else None
                if not isinstance(last, list) or len(last) == 5:
                    last = []
                    rows.append(last)
                last.append((seat_prefixed(table.seats[seat].name, labels[index]) if several
                             else labels[index], f"c:{index}", seat))
    return rows


def turn_rows(table: Table, lang: str) -> list[discord.ui.ActionRow]:
    """The rows of controls on the live table, in the server's language `lang`, for every
    person with something to do, each button issued to their seat.

    One person to move: their choices as buttons (and selects), the likeliest kind first
    (`choice_rows`). Several at once (fears, votes, answers to a
    challenge): each button names its seat. Private or too many choices go behind a per-seat
    "Take my turn" panel. The last row holds "My hand" and a select to vote out absent players.
    A finished game offers Play again; a game ended early offers nothing.
    """
    if table.status != "running":
        if table.status == "over":
            return [discord.ui.ActionRow(discord.ui.Button(
                label=text(lang, "table.button.again"), style=discord.ButtonStyle.success,
                custom_id=button_id(table, "again")))]
        return []
    votes_after = pace.votes_after(table.options)
    voters = [i for i, s in enumerate(table.seats) if not s.ai and s.timeouts >= votes_after]
    room = MAX_BUTTONS - (5 if voters else 0)
    waiting = [(seat, prompt) for seat, prompt in enumerate(
        table.prompt(seat, lang) for seat in range(len(table.prompts)))
               if prompt is not None and not table.seats[seat].ai]
    several = len(waiting) > 1
    laid = None if any(p.private for _, p in waiting) else choice_rows(table, waiting, several)
    if laid is None or len(laid) > room // 5:
        # private or too many choices: a "Take my turn" button per person, rows of five
        takes = [(text(lang, "table.button.take_turn_of", name=table.seats[seat].name)
                  if several else text(lang, "table.button.take_turn"), "panel:", seat)
                 for seat, _ in waiting[:room]]
        laid = [takes[start:start + 5] for start in range(0, len(takes), 5)]
    rows: list[discord.ui.ActionRow] = []
    for row in laid:
        if isinstance(row, tuple):
            rows.append(discord.ui.ActionRow(kind_select(table, *row, lang)))
            continue
        rows.append(discord.ui.ActionRow(*(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary,
                              custom_id=button_id(table, *op_arg.split(":"), seat=seat))
            for label, op_arg, seat in row)))
    if voters:
        rows.append(discord.ui.ActionRow(discord.ui.Select(
            custom_id=button_id(table, "vote"),
            placeholder=text(lang, "table.vote.placeholder")[:150],
            options=[discord.SelectOption(
                label=text(lang, "table.vote.option", name=table.seats[i].name)[:100],
                value=str(i)) for i in voters])))
    rows.append(discord.ui.ActionRow(discord.ui.Button(
        label=text(lang, "table.button.hand"), style=discord.ButtonStyle.secondary,
        custom_id=button_id(table, "hand"))))
    return rows


def panel_view(table: Table, seat: int, position: Position, lang: str) -> discord.ui.View:
    """One step of a private multi-step choice, with Back and Cancel (in its reader's `lang`)."""
    view = discord.ui.View(timeout=None)
    path = position.path
    # shown the likeliest kind first; each id and value keeps the engine's index (`bot.choices`)
    shown = [(index, position.options[index])
             for index in order.options_in_order(table.game, position)]
    if len(shown) <= MAX_BUTTONS:
        for place, (index, step) in enumerate(shown):
            view.add_item(discord.ui.Button(
                label=step.label[:80], style=discord.ButtonStyle.primary,
                custom_id=button_id(table, "p", format_path(path + [index]), seat), row=place // 5))
    else:
        for chunk, start in enumerate(range(0, min(len(shown), 4 * MAX_SELECT), MAX_SELECT)):
            part = shown[start:start + MAX_SELECT]
            select = discord.ui.Select(
                custom_id=button_id(table, "p", f"{format_path(path)}~{chunk}", seat),
                placeholder=f"{part[0][1].label} … {part[-1][1].label}"[:150], row=chunk,
                options=[discord.SelectOption(label=step.label[:100], value=str(index))
                         for index, step in part])
            view.add_item(select)
    if path:
        view.add_item(discord.ui.Button(label=text(lang, "panel.back"),
                                        style=discord.ButtonStyle.secondary,
                                        custom_id=button_id(table, "p", format_path(path[:-1]), seat),
                                        row=4))
    view.add_item(discord.ui.Button(label=text(lang, "panel.cancel"),
                                    style=discord.ButtonStyle.danger,
                                    custom_id=button_id(table, "x", "", seat), row=4))
    return frozen(view)


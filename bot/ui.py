"""Buttons and selects. They hold no state: the custom_id says which game, version and choice.

Custom ids: ``gk:<game>:<version>:<op>:<arg>``. Views are stopped before sending so discord.py
keeps nothing in memory per message; `GatekeeperBot.on_interaction` routes every click (also after
a restart) to the table by its custom_id alone.
"""
from __future__ import annotations

import re

import discord

from games.core import Choice, Prompt, Step

from .choices import Position, format_path
from .table import VOTE_AFTER_TIMEOUTS, Table

MAX_BUTTONS = 20  # four rows of five; the fifth row holds navigation
MAX_SELECT = 25
ROUTE = re.compile(r"gk:(?P<game>\d+):(?P<version>\d+):(?P<op>[a-z]+):(?P<arg>[0-9a-z.~]*)")


def button_id(table: Table, op: str, arg: str = "", version: int | None = None) -> str:
    return f"gk:{table.id}:{table.version if version is None else version}:{op}:{arg}"


def frozen(view: discord.ui.View) -> discord.ui.View:
    """Stop the view so discord.py does not store it; on_interaction handles its clicks."""
    view.stop()
    return view


def text_modal(table: Table, index: int, choice: Choice) -> discord.ui.Modal:
    """A private text box for a choice that needs words (a fear, a name)."""
    modal = discord.ui.Modal(title=choice.path[-1].label[:45],
                             custom_id=button_id(table, "m", str(index)), timeout=None)
    modal.add_item(discord.ui.TextInput(label=choice.path[-1].label[:45], custom_id="text",
                                        style=discord.TextStyle.paragraph, max_length=100))
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


def lobby_view(table: Table) -> discord.ui.View | None:
    if table.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    full = len(table.seats) >= table.game.max_seats
    for op, label, style, disabled in (
        ("join", "Join", discord.ButtonStyle.success, full),
        ("leave", "Leave", discord.ButtonStyle.secondary, False),
        ("ai", "Add AI", discord.ButtonStyle.secondary, full),
        ("start", "Start", discord.ButtonStyle.primary, len(table.seats) < table.game.min_seats),
        ("cancel", "Cancel", discord.ButtonStyle.danger, False),
    ):
        view.add_item(discord.ui.Button(label=label, style=style, disabled=disabled,
                                        custom_id=button_id(table, "lobby", op, version=0)))
    for row, (name, values) in enumerate(table.game.option_choices.items(), start=1):
        current = table.options.get(name, values[0])
        view.add_item(discord.ui.Select(
            custom_id=button_id(table, "opt", name, version=0), row=min(row, 4),
            placeholder=f"{name}: {current}",
            options=[discord.SelectOption(label=f"{name}: {v}", value=str(v), default=v == current)
                     for v in values]))
    return frozen(view)


def turn_view(table: Table, prompt: Prompt | None) -> discord.ui.View | None:
    """Buttons under a board: public choices directly, private ones behind "Take my turn"."""
    view = discord.ui.View(timeout=None)
    if table.status != "running":
        if table.status == "over":
            view.add_item(discord.ui.Button(label="Play again", style=discord.ButtonStyle.success,
                                            custom_id=button_id(table, "again")))
            return frozen(view)
        return None
    if prompt is not None:
        if prompt.private or len(prompt.choices) > MAX_BUTTONS:
            view.add_item(discord.ui.Button(label="Take my turn", style=discord.ButtonStyle.primary,
                                            custom_id=button_id(table, "panel"), row=0))
        else:
            for index, choice in enumerate(prompt.choices):
                view.add_item(discord.ui.Button(
                    label=choice.label[:80], style=discord.ButtonStyle.primary,
                    custom_id=button_id(table, "c", str(index)), row=index // 5))
    row = 4
    view.add_item(discord.ui.Button(label="My hand", style=discord.ButtonStyle.secondary,
                                    custom_id=button_id(table, "hand"), row=row))
    for index, seat in enumerate(table.seats):
        if not seat.ai and seat.timeouts >= VOTE_AFTER_TIMEOUTS and len(view.children) < 25:
            view.add_item(discord.ui.Button(
                label=f"Vote out {seat.name}"[:80], style=discord.ButtonStyle.danger,
                custom_id=button_id(table, "vote", str(index)), row=row))
    return frozen(view)


def panel_view(table: Table, position: Position) -> discord.ui.View:
    """One step of a private multi-step choice, with Back and Cancel."""
    view = discord.ui.View(timeout=None)
    options = position.options
    path = position.path
    if len(options) <= MAX_BUTTONS:
        for index, step in enumerate(options):
            view.add_item(discord.ui.Button(
                label=step.label[:80], style=discord.ButtonStyle.primary,
                custom_id=button_id(table, "p", format_path(path + [index])), row=index // 5))
    else:
        for chunk, start in enumerate(range(0, min(len(options), 4 * MAX_SELECT), MAX_SELECT)):
            part: list[Step] = options[start:start + MAX_SELECT]
            select = discord.ui.Select(
                custom_id=button_id(table, "p", f"{format_path(path)}~{chunk}"),
                placeholder=f"{part[0].label} … {part[-1].label}"[:150], row=chunk,
                options=[discord.SelectOption(label=step.label[:100], value=str(start + i))
                         for i, step in enumerate(part)])
            view.add_item(select)
    if path:
        view.add_item(discord.ui.Button(label="Back", style=discord.ButtonStyle.secondary,
                                        custom_id=button_id(table, "p", format_path(path[:-1])),
                                        row=4))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger,
                                    custom_id=button_id(table, "x"), row=4))
    return frozen(view)


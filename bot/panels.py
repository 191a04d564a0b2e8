"""Each player's private panel: one ephemeral message per turn, changed in place, closed when
the turn or the game is over.

A panel is an ephemeral message, and only the interaction that made or last touched it can edit
it (for 15 minutes: Discord's token life). So the book keeps, per seat, the newest interaction
behind the seat's panel and the prompt token the panel shows. After every commit `sync` brings
each open panel up to date: the seat's next choices when its prompt changed (a move made on the
board, by a typed command or a timer), "your turn is over" without buttons when it has none,
and the result when the game ends. A new panel for a seat (another "Take my turn", a stale
click answered with fresh choices) deletes the seat's older one of the same turn, so a turn
leaves at most one private message per player.
"""
from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any, Callable

import aiohttp
import discord

from data.locales import text

from . import present
from .table import Table

log = logging.getLogger("gatekeeper.discord")
EDITABLE_FOR = datetime.timedelta(minutes=14)  # an interaction token lives 15 minutes
# (table, seat, language) -> what the seat's panel shows now: its text and its buttons
Contents = Callable[[Table, int, str], tuple[str, discord.ui.View]]


@dataclass
class Panel:
    interaction: discord.Interaction  # the newest interaction whose token can edit the panel
    message_id: int  # the panel's message
    original: bool  # is it the interaction's own response (else one of its follow-ups)?
    token: int  # the seat's prompt token the panel's buttons carry
    turn: int  # the game turn it was opened in
    version: int  # the game version it shows
    live: bool = True  # has buttons to keep current (not a typed move's one-line answer)

    def editable(self) -> bool:
        return discord.utils.utcnow() - self.interaction.created_at < EDITABLE_FOR

    async def edit(self, **fields: Any) -> None:
        if self.original:
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.followup.edit_message(self.message_id, **fields)

    async def delete(self) -> None:
        if self.original:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(self.message_id)


class Panels:
    def __init__(self, contents: Contents, spawn: Callable[[Any], None],
                 language_of: Callable[[discord.Interaction], str]) -> None:
        self.contents = contents
        self.spawn = spawn
        self.language_of = language_of  # a panel reads in the language of whoever opened it
        self.open: dict[int, dict[int, Panel]] = {}  # game -> seat -> its panel

    def shown(self, table: Table, seat: int, interaction: discord.Interaction,
              message_id: int | None, *, original: bool = True, live: bool = True,
              turn: int | None = None) -> None:
        """The seat's panel, message `message_id`, now shows the table's current version and
        `interaction` is the newest that can edit it (as its own response, or as a follow-up
        when not `original`). An older panel of the seat from the same turn is deleted. A
        typed move's answer (not `live`) takes the panel's place without being kept current;
        `turn` is the one it was made in, when the move ended it."""
        assert table.state is not None
        if message_id is None:  # Discord did not say which message: it cannot be kept up to date
            return
        panels = self.open.setdefault(table.id, {})
        old = panels.get(seat)
        turn = table.state.turn if turn is None else turn
        panels[seat] = Panel(interaction, message_id, original, table.tokens[seat], turn,
                             table.version, live)
        if old is not None and old.message_id != message_id and old.turn == turn \
                and old.editable():
            self.spawn(_quietly("delete", old.delete()))

    def sync(self, table: Table) -> None:
        """Bring the game's open panels up to date with a commit (in the background)."""
        panels = self.open.get(table.id, {})
        for seat, panel in list(panels.items()):
            running = table.status == "running"
            if running and (table.version <= panel.version or not panel.live):
                continue  # up to date, or a typed move's answer (only ever replaced)
            if not panel.editable() or not panel.live:
                del panels[seat]
                continue
            prompt = table.prompts[seat] if running else None
            panel.version = table.version
            lang = self.language_of(panel.interaction)
            if prompt is not None and table.tokens[seat] == panel.token:
                continue  # the seat's choices are what the panel shows
            if prompt is None:
                del panels[seat]
                closed = text(lang, "panel.turn_over") if running \
                    else text(lang, "panel.game_over", result=present.result_text(table, lang))
                self.spawn(_quietly("close", panel.edit(content=closed, view=None)))
                continue
            panel.token = table.tokens[seat]
            content, view = self.contents(table, seat, lang)
            self.spawn(_quietly("refresh", panel.edit(content=content, view=view)))
        if not panels:
            self.open.pop(table.id, None)

    def take(self, game_id: int, seat: int) -> None:
        """The seat's panel is being answered by its own click: `sync` leaves it alone until
        the click shows it again (`shown`)."""
        self.open.get(game_id, {}).pop(seat, None)


async def _quietly(what: str, edit: Any) -> None:
    """A panel edit that fails (dismissed, expired) only costs that panel its update."""
    try:
        await edit
    except discord.HTTPException as exc:
        log.info("panel %s failed status=%s code=%s", what, exc.status, exc.code)
    except (aiohttp.ClientError, OSError) as exc:
        log.info("panel %s failed error=%s", what, type(exc).__name__)

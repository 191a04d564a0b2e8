"""Screenshots of the sandbox's page for the docs: `python -m tests.screenshots docs/`, and
each language's (`python -m tests.screenshots --languages docs/languages/`).

Plays in headless Chromium (Debian's /usr/bin/chromium, through Playwright: the test extra) on
a throwaway sandbox with fixed seeds and a fake clock, so the pictures come out the same:
  sandbox-castle.png      a Keys to the Castle turn against an AI, with the private move panel
  sandbox-dm.png          the player's DMs from the bot (their private cards)
  sandbox-atmosfear.png   THE GATEKEEPER calling on the player, answered in time
With --languages, for each language we speak, on a server set to it and a player whose
Discord speaks it (the same castle game):
  table-<lang>.png        the live table in the channel
  panel-<lang>.png        the player's private panel
  board-<lang>.png        the board as drawn
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
from pathlib import Path
from typing import AsyncIterator

from playwright.async_api import async_playwright, expect

from bot.clock import FakeClock
from bot.config import SandboxSettings, Settings
from bot.table import Table
from data.locales import LANGUAGES, text
from fakediscord.models import Message
from sandbox.harness import settle, until
from sandbox.serve import FIRST_USER, Sandbox
from tests.browser import (
    Tab,
    board_message,
    human_to_move,
    launch,
    open_game,
    play_turn,
)

CASTLE_TURNS = 4
GAMES_FOR_A_CALL = 5
VIEWPORT = {"width": 1280, "height": 1080}  # the whole board and the panel under it
TALL = {"width": 1280, "height": 2000}
LOCALES = {"en": "en-US", "de": "de", "es": "es-ES"}  # a Discord locale of each language


@contextlib.asynccontextmanager
async def sandbox_tab(viewport: dict[str, int]) -> AsyncIterator[tuple[Sandbox, Tab, FakeClock]]:
    """A throwaway sandbox (seeded, on a fake clock) and the first player's tab on it."""
    home = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the page names the database as the command shows it: var/sandbox.db
        clock = FakeClock()
        box = Sandbox(Settings(token=""), SandboxSettings(),
                      clock=clock, seed=7, ai_delay=0.0, turn_timeout=600.0, render_workers=0)
        await box.start()
        try:
            async with async_playwright() as playwright:
                browser = await launch(playwright)
                try:
                    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
                    await me.page.set_viewport_size(viewport)
                    yield box, me, clock
                finally:
                    await browser.close()
        finally:
            await box.stop()
            os.chdir(home)


async def shoot(out: Path) -> list[Path]:
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    async with sandbox_tab(VIEWPORT) as (box, me, clock):
        return [*await castle(box, me, clock, out), await atmosfear(box, me, clock, out)]


async def castle_panel(box: Sandbox, me: Tab, clock: FakeClock,
                       lang: str = "en") -> tuple[Table, Message, Message]:
    """A castle game against an AI, a few turns in, the player's panel open: (the table, its
    board message, the panel)."""
    table = await open_game(box.bot, me, "castle", "castle", ais=1)
    for turn in range(CASTLE_TURNS + 1):
        while human_to_move(table) is None:  # the AI moves when its (fake) time comes
            clock.advance(1)
            await settle(box.bot, table)
        if turn < CASTLE_TURNS:
            await play_turn(me, box.bot, table, human_to_move(table), lang=lang)
    board = board_message(box.fake, box.bot, table)
    take_turn = text(lang, "table.button.take_turn").lower()
    take = next(cid for cid, label, _ in board.buttons() if label and label.lower().endswith(take_turn))
    before = {m.id for m in box.fake.ephemerals(me.user_id)}  # a new panel deletes the older
    await me.click(board.id, take)
    panel = (await until(lambda: [m for m in box.fake.ephemerals(me.user_id)
                                  if m.id not in before], what="the panel"))[-1]
    await expect(me.message(panel.id)).to_be_visible()
    await me.message(panel.id).scroll_into_view_if_needed()
    await images_loaded(me)
    return table, board, panel


async def castle(box: Sandbox, me: Tab, clock: FakeClock, out: Path) -> list[Path]:
    await castle_panel(box, me, clock)
    castle_png = out / "sandbox-castle.png"
    await me.page.screenshot(path=castle_png)
    await me.dms()
    await expect(me.page.locator("#messages .message").last).to_be_visible()
    await images_loaded(me)
    dm_png = out / "sandbox-dm.png"
    await me.page.screenshot(path=dm_png)
    return [castle_png, dm_png]


async def atmosfear(box: Sandbox, me: Tab, clock: FakeClock, out: Path) -> Path:
    for _ in range(GAMES_FOR_A_CALL):  # he calls on whom he likes: a new game until it's us
        table = await called_on_me(box, me, clock)
        if table is not None:
            break
    else:
        raise RuntimeError("the Gatekeeper never called on the player")
    call = next(m for m in reversed(box.fake.channel_messages(box.channels["atmosfear"]))
                if "🗝️ **THE GATEKEEPER**" in m.text())
    await me.channel("atmosfear")
    await expect(me.message(call.id)).to_be_visible()
    await images_loaded(me)
    await me.message(call.id).evaluate("m => m.scrollIntoView({block: 'end'})")
    await me.page.locator("#message-input").fill("YES! MY GATEKEEPER!")  # about to answer him
    path = out / "sandbox-atmosfear.png"
    await me.page.screenshot(path=path)
    await me.page.locator("#message-input").press("Enter")
    async def answered() -> bool:
        return (await box.bot.store.actions(table.id))[-1]["action"] == "yes"
    await until(answered, what="the answer")
    await settle(box.bot, table)
    return path


async def languages(out: Path) -> list[Path]:
    """Each language's table, panel and board (see the module's docstring)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for lang in LANGUAGES:
        async with sandbox_tab(TALL) as (box, me, clock):  # the whole table in view
            box.fake.set_locale(me.user_id, LOCALES[lang])  # the player's Discord's
            guild = next(iter(box.fake.guilds))
            await box.bot.languages.choose(guild, lang)  # as /language sets it
            _, board, panel = await castle_panel(box, me, clock, lang)
            table_png, panel_png, board_png = (
                out / f"{part}-{lang}.png" for part in ("table", "panel", "board"))
            await me.message(board.id).screenshot(path=table_png)
            await me.message(panel.id).screenshot(path=panel_png)
            board_png.write_bytes(box.fake.messages[board.id].attachments[0][1])
            shots += [table_png, panel_png, board_png]
    return shots


async def called_on_me(box: Sandbox, me: Tab, clock: FakeClock) -> Table | None:
    """An Atmosfear game against two AIs, played until the Gatekeeper calls on the player
    (the table), or to its end (None)."""
    table = await open_game(box.bot, me, "atmosfear", "atmosfear", ais=2)
    mine = table.seat_of(me.user_id)
    while table.status == "running":
        clock.advance(0)
        await settle(box.bot, table)
        if table.game.view(table.state, None)["gatekeeper"]["calling"] == mine:
            return table
        if table.game.prompt(table.state, mine) is not None:
            await play_turn(me, box.bot, table, mine)
        clock.advance(4)
    return None


async def images_loaded(tab: Tab) -> None:
    await tab.page.wait_for_function("[...document.images].every(img => img.complete)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the PNGs (e.g. docs/)")
    parser.add_argument("--languages", action="store_true",
                        help="each language's table, panel and board instead")
    args = parser.parse_args()
    for path in asyncio.run((languages if args.languages else shoot)(args.out)):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

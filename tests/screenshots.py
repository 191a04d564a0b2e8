"""Screenshots of the sandbox's page for the docs: `python -m tests.screenshots docs/`.

Plays in headless Chromium (Debian's /usr/bin/chromium, through Playwright: the test extra) on
a throwaway sandbox with fixed seeds and a fake clock, so the pictures come out the same:
  sandbox-castle.png      a Keys to the Castle turn against an AI, with the private move panel
  sandbox-dm.png          the player's DMs from the bot (their private cards)
  sandbox-atmosfear.png   THE GATEKEEPER calling on the player, answered in time
"""
from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright, expect

from bot.clock import FakeClock
from bot.config import SandboxSettings, Settings
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
VIEWPORT = {"width": 1280, "height": 1080}  # the whole board and the panel under it


async def shoot(out: Path) -> list[Path]:
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
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
                    await me.page.set_viewport_size(VIEWPORT)
                    return [*await castle(box, me, clock, out), await atmosfear(box, me, clock, out)]
                finally:
                    await browser.close()
        finally:
            await box.stop()
            os.chdir(home)


async def castle(box: Sandbox, me: Tab, clock: FakeClock, out: Path) -> list[Path]:
    table = await open_game(box.bot, me, "castle", "castle", ais=1)
    for turn in range(CASTLE_TURNS + 1):
        while human_to_move(table) is None:  # the AI moves when its (fake) time comes
            clock.advance(1)
            await settle(box.bot, table)
        if turn < CASTLE_TURNS:
            await play_turn(me, box.bot, table, human_to_move(table))
    board = board_message(box.fake, box.bot, table)
    take = next(cid for cid, label, _ in board.buttons() if label and label.lower().endswith("take my turn"))
    panels = len(box.fake.ephemerals(me.user_id))
    await me.click(board.id, take)
    panel = (await until(lambda: box.fake.ephemerals(me.user_id)[panels:], what="the panel"))[-1]
    await expect(me.message(panel.id)).to_be_visible()
    await me.message(panel.id).scroll_into_view_if_needed()
    await images_loaded(me)
    castle_png = out / "sandbox-castle.png"
    await me.page.screenshot(path=castle_png)
    await me.dms()
    await expect(me.page.locator("#messages .message").last).to_be_visible()
    await images_loaded(me)
    dm_png = out / "sandbox-dm.png"
    await me.page.screenshot(path=dm_png)
    return [castle_png, dm_png]


async def atmosfear(box: Sandbox, me: Tab, clock: FakeClock, out: Path) -> Path:
    table = await open_game(box.bot, me, "atmosfear", "atmosfear", ais=2)
    mine = table.seat_of(me.user_id)
    for _ in range(500):
        clock.advance(0)
        await settle(box.bot, table)
        if table.game.view(table.state, None)["gatekeeper"]["calling"] == mine:
            break
        if table.game.prompt(table.state, mine) is not None:
            await play_turn(me, box.bot, table, mine)
        clock.advance(4)
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


async def images_loaded(tab: Tab) -> None:
    await tab.page.wait_for_function("[...document.images].every(img => img.complete)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the PNGs (e.g. docs/)")
    for path in asyncio.run(shoot(parser.parse_args().out)):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

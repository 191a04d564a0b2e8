"""Every game's live table on a phone (390 × 844, Discord's mobile width), in a real headless
Chromium on the sandbox: a few moves played by clicks against AIs, then the table as the phone
shows it. The board picture takes the width of the message and no more than the screen, and
half the screen's height at most (`tests/test_phone_boards.py` checks that every string on the
boards reads at that width); the players' panel is text under it that wraps: nothing on the
page scrolls sideways.

Screenshots for the docs: with ``GATEKEEPER_PHONE_SHOTS=docs/phone`` set, each test also saves
its table as ``<game>.png`` in that folder (see CONTRIBUTING.md); without it nothing is written.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import expect

from bot.clock import FakeClock
from bot.config import SandboxSettings, Settings
from sandbox.harness import settle
from sandbox.serve import FIRST_USER, Sandbox
from tests.browser import Tab, board_message, browser, open_game, play_turn  # noqa: F401 (a fixture)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PHONE = {"width": 390, "height": 844}
MOVES = 3  # the player's own moves before the table is looked at
SHOTS = "GATEKEEPER_PHONE_SHOTS"  # a folder: save each table there as <game>.png
GAMES = ("atmosfear", "castle", "dontgo", "firetop", "kingdom")


async def play_a_few_moves(box: Sandbox, me: Tab, clock: FakeClock, table) -> None:
    """The player makes `MOVES` moves by clicks while the AIs take theirs, then play goes on
    until the table shows the board (not a speaking character) and it is the player's turn or
    the AIs'."""
    mine = table.seat_of(me.user_id)
    made = 0
    for _ in range(400):
        await settle(box.bot, table)
        if table.status != "running":
            return
        shows_board = table.game.interlude(table.game.view(table.state, None)) is None
        if made >= MOVES and shows_board:
            return
        if table.game.prompt(table.state, mine) is not None:
            await play_turn(me, box.bot, table, mine)
            made += 1
        else:
            clock.advance(2)
    raise AssertionError(f"{table.game.name}: no board after {made} moves")


PAGE_FACTS = """(id) => {
  const message = document.querySelector(`[data-message-id="${id}"]`);
  const img = message.querySelector(".v2-gallery .v2-media img");
  const texts = [...message.querySelectorAll(".v2-text")];
  return {
    shown: img.getBoundingClientRect().width, high: img.getBoundingClientRect().height,
    natural: img.naturalWidth,
    room: img.closest(".v2-container").clientWidth,
    page: document.documentElement.clientWidth,
    sideways: texts.filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => t.textContent.slice(0, 40)),
    text: texts.map((t) => t.innerText).join("\\n"),
  };
}"""


@pytest.mark.parametrize("game", GAMES)
async def test_a_table_reads_on_a_phone(game, browser, tmp_path):
    clock = FakeClock()
    box = Sandbox(Settings(token=""), SandboxSettings(db_path=tmp_path / "sandbox.db"), clock=clock, seed=5,
                  ai_delay=0.0, turn_timeout=10_000.0, render_workers=0)
    await box.start()
    try:
        me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
        # the lobby's clicks pick the channel for each seat (the phone's channel list slides
        # away after each pick); the game is then played and read on the phone
        table = await open_game(box.bot, me, game, game, ais=1 if game in ("castle", "kingdom") else 2)
        await me.page.set_viewport_size(PHONE)
        await play_a_few_moves(box, me, clock, table)
        board = board_message(box.fake, box.bot, table)
        shown = me.message(board.id)
        await expect(shown.locator(".v2-gallery .v2-media img")).to_be_visible()
        await me.page.wait_for_function("[...document.images].every(img => img.complete)")
        await shown.evaluate("m => m.scrollIntoView({block: 'start'})")
        facts = await me.page.evaluate(PAGE_FACTS, str(board.id))  # a snowflake: past a JS number
        # the picture takes the message's width, within the screen, and leaves most of the screen's
        # height to the text and the buttons under it
        assert facts["room"] - 30 <= facts["shown"] <= facts["page"], facts
        assert facts["high"] <= 0.5 * PHONE["height"], facts
        # the players' panel is the table's text: every player named, and nothing scrolls sideways
        assert all(name in facts["text"] for name in table.names()), facts["text"]
        assert facts["sideways"] == []
        folder = os.environ.get(SHOTS)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            await me.page.set_viewport_size({"width": PHONE["width"], "height": 2400})  # the whole table
            await shown.evaluate("m => m.scrollIntoView({block: 'start'})")
            await shown.screenshot(path=Path(folder) / f"{game}.png")
    finally:
        for context in browser.contexts:
            await context.close()
        await box.stop()

"""The sandbox in a real headless Chromium: the page as people use it, on the same Sandbox the
`gatekeeper sandbox` command runs (in-process here, on a fake clock where time matters)."""
from __future__ import annotations

from typing import AsyncIterator

import pytest
from playwright.async_api import Browser, async_playwright, expect

from bot.clock import FakeClock
from bot.config import SandboxSettings, Settings
from bot.fakediscord.harness import settle, until
from bot.sandbox import FIRST_USER, Sandbox
from bot.table import Table
from tests.browser import (
    Tab,
    board_message,
    launch,
    lobby_button,
    open_game,
    play_to_the_end,
    play_turn,
)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


@pytest.fixture
async def start_sandbox(tmp_path):
    boxes: list[Sandbox] = []

    async def start(clock=None) -> Sandbox:
        box = Sandbox(Settings(token=""), SandboxSettings(db_path=tmp_path / "sandbox.db"),
                      clock=clock, seed=5, ai_delay=0.0, turn_timeout=10_000.0)
        boxes.append(box)
        await box.start()
        return box
    yield start
    for box in boxes:
        await box.stop()


async def test_a_solo_castle_game_against_an_ai_played_by_clicks(browser, start_sandbox):
    box = await start_sandbox()
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    await expect(me.page.locator("#banner")).to_contain_text(
        f"Local sandbox: not connected to Discord; games are kept in {box.sandbox.db_path}")
    table = await open_game(box.bot, me, "castle", "castle", ais=1)
    moves = await play_to_the_end(me, box.bot, table)
    assert table.status == "over" and moves >= 5
    # the final board, as the page shows it: the picture loaded, the result written
    final = board_message(box.fake, box.bot, table)
    shown = me.message(final.id)
    await expect(shown).to_contain_text("Game over")
    picture = shown.locator(".embed-image img")
    await expect(picture).to_be_visible()
    assert await picture.evaluate("img => img.complete && img.naturalWidth") >= 1000
    # a private DM reached the player, in their own DM channel
    dms = box.fake.dms(me.user_id)
    assert dms
    await me.dms()
    await expect(me.page.locator("#messages .message")).to_have_count(len(dms))
    await expect(me.message(dms[-1].id)).to_be_visible()


def gatekeeper_messages(box: Sandbox) -> list:
    return [m for m in box.fake.channel_messages(box.channels["atmosfear"])
            if any(e.get("title") == "THE GATEKEEPER" for e in m.embeds)]


async def test_atmosfear_the_gatekeeper_calls_and_is_answered_in_time(browser, start_sandbox):
    clock = FakeClock()
    box = await start_sandbox(clock)
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)

    async def twenty_minutes(table: Table) -> None:
        message_id, _ = lobby_button(box.fake, box.channels["atmosfear"], "start")
        select_id = next(cid for cid, _ in box.fake.messages[message_id].selects()
                         if cid.endswith(":opt:minutes"))
        await me.select(message_id, select_id, "20")
        await until(lambda: table.options["minutes"] == 20, what="the 20-minute clock")
        await settle(box.bot, table)

    table = await open_game(box.bot, me, "atmosfear", "atmosfear", ais=2,
                            before_start=twenty_minutes)
    mine = table.seat_of(me.user_id)
    for _ in range(500):
        clock.advance(0)
        await settle(box.bot, table)
        assert table.status == "running", "the game ended before the Gatekeeper called on me"
        if table.game.view(table.state, None)["gatekeeper"]["calling"] == mine:
            break
        if table.game.prompt(table.state, mine) is not None:
            await play_turn(me, box.bot, table, mine)
        clock.advance(4)  # a person takes a few seconds per move; the game clock runs on
    else:
        raise AssertionError("the Gatekeeper never called on me")
    # his interjection is on the page, naming me
    call = gatekeeper_messages(box)[-1]
    await me.channel("atmosfear")
    await expect(me.message(call.id)).to_contain_text("THE GATEKEEPER")
    await expect(me.message(call.id).locator(".mention", has_text=f"@{FIRST_USER}")).to_be_visible()
    assert "mentions-me" in await me.message(call.id).get_attribute("class")
    # answered by typing, before his deadline (the clock has not moved since he called)
    await me.say("YES! MY GATEKEEPER!")
    await until(lambda: box.bot.store.actions(table.id)[-1]["action"] == "yes", what="the answer")
    clock.advance(15)  # well past the deadline he set: nothing is punished
    await settle(box.bot, table)
    actions = [a["action"] for a in box.bot.store.actions(table.id)]
    assert "gk late" not in actions[actions.index("yes"):]
    assert "fear my worst fear" in actions  # the fear went in through the page's modal
    await expect(me.page.locator('[data-message-id] .content:text-is("YES! MY GATEKEEPER!")')).to_be_visible()


async def test_two_tabs_see_each_others_moves_live_but_not_their_private_messages(
        browser, start_sandbox):
    box = await start_sandbox()
    ana = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    bo = await Tab.open(browser, box.url, box.fake, "Bo", new_user=True)
    assert bo.user_id != ana.user_id
    table = await open_game(box.bot, ana, "castle", "castle", joiners=[bo])
    tabs = {ana.user_id: ana, bo.user_id: bo}
    # Ana asks for her hand: only her tab shows the answer
    await ana.slash("hand")
    hand = (await until(lambda: box.fake.ephemerals(ana.user_id), what="/hand"))[-1]
    await expect(ana.message(hand.id)).to_contain_text("Only you can see this")
    # the first move is typed: /move, its action picked from the autocomplete, which offers
    # the mover exactly their legal moves
    seat = table.game.to_move(table.state)
    mover = tabs[table.seats[seat].user_id]
    legal = [f"{c.label} ({c.action})"[:100] for c in table.prompts[seat].choices][:25]
    await mover.page.locator("#message-input").fill("/mo")
    await mover.page.locator("#command-popup .suggestion", has_text="/move").click()
    action = mover.page.locator('#command-options [data-option="action"]')
    await action.focus()
    offered = mover.page.locator("#autocomplete-popup .suggestion .name")
    await expect(offered).to_have_text(legal)
    version = table.version
    await offered.first.click()
    await expect(action).to_have_value(table.prompts[seat].choices[0].action)
    await action.press("Enter")
    await until(lambda: table.version > version, what="the typed move")
    await settle(box.bot, table)
    for _ in range(2):  # each plays a move; the other's tab shows the new board as it comes
        seat = table.game.to_move(table.state)
        mover = tabs[table.seats[seat].user_id]
        other = bo if mover is ana else ana
        await play_turn(mover, box.bot, table, seat)
        board = board_message(box.fake, box.bot, table)
        await expect(other.message(board.id)).to_be_visible()
        await expect(other.message(board.id).locator(".embed-image img")).to_be_visible()
    # by now every earlier event reached both tabs (one ordered feed per tab): nothing private leaked
    for tab, them in ((ana, bo), (bo, ana)):
        for private in box.fake.ephemerals(them.user_id):
            await expect(tab.page.locator(f'[data-message-id="{private.id}"]')).to_have_count(0)
    assert box.fake.ephemerals(ana.user_id) and box.fake.ephemerals(bo.user_id)
    # DMs: each tab lists one DM channel, its own, with its own messages
    for tab, them in ((ana, bo), (bo, ana)):
        await tab.dms()
        await expect(tab.page.locator("#channel-list .channel.dm")).to_have_count(1)
        await expect(tab.page.locator("#messages .message")).to_have_count(len(box.fake.dms(tab.user_id)))
        for private in box.fake.dms(them.user_id):
            await expect(tab.page.locator(f'[data-message-id="{private.id}"]')).to_have_count(0)
    assert box.fake.dms(ana.user_id) and box.fake.dms(bo.user_id)
    # a second game in the busy channel opens in a thread, listed under it in both tabs
    await bo.channel("castle")
    await bo.slash("play", game="castle")
    (thread,) = await until(lambda: box.fake.threads(box.channels["castle"]), what="the thread")
    await until(lambda: any(m.buttons() for m in box.fake.channel_messages(thread.id)),
                what="its lobby")
    lobby_id, _ = lobby_button(box.fake, thread.id, "join")
    for tab in (ana, bo):
        await tab.channel(thread.name)
        await expect(tab.message(lobby_id)).to_contain_text("lobby")

"""Play the sandbox's web page in a real Chromium, as a person would: pick a user, type slash
commands, click buttons, pick from selects, fill modals. Used by the browser tests
(tests/test_sandbox_browser.py) and the screenshot command (tests/screenshots.py). Beside the
tests rather than in the package: Playwright is a test dependency.

Playwright drives Debian's own Chromium (/usr/bin/chromium); nothing is downloaded.
"""
from __future__ import annotations

from typing import AsyncIterator, Awaitable, Callable, Sequence

import pytest_asyncio
from playwright.async_api import Browser, Locator, Page, Playwright, async_playwright, expect

from bot.app import GatekeeperBot
from sandbox.harness import settle, until
from fakediscord.models import Message
from fakediscord.server import FakeDiscord
from bot.table import Table, named_prompt
from data.locales import DEFAULT, text
from bot.ui import choice_labels
from games.core import Rng, decide

CHROMIUM = "/usr/bin/chromium"
# headless, and nothing that would reach for the network (this machine's is closed)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-dev-shm-usage",  # a container's small /dev/shm must not crash a tab
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 860}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium for a test file (each test opens its own pages); import it to use it."""
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


async def launch(playwright: Playwright) -> Browser:
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)


class Tab:
    """One browser tab playing as one sandbox user (each tab keeps its own identity)."""

    def __init__(self, page: Page, fake: FakeDiscord, user_id: int) -> None:
        self.page = page
        self.fake = fake
        self.user_id = user_id

    @classmethod
    async def open(cls, browser: Browser, url: str, fake: FakeDiscord, name: str,
                   new_user: bool = False) -> "Tab":
        """A new tab on the page, as `name` (picked from the list, or added as a new player)."""
        page = await browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(15_000)
        await page.goto(url)
        if new_user:
            await page.get_by_label("New player's name").fill(name)
            await page.get_by_role("button", name="Add player").click()
        else:
            await page.locator("#player-list").get_by_role("button", name=name).click()
        await expect(page.locator("#me-name")).to_have_text(name)
        user_id = next(u.id for u in fake.users.values() if u.name == name)
        return cls(page, fake, user_id)

    async def channel(self, name: str) -> None:
        await self.page.locator("#channel-list").get_by_role("button", name=name, exact=True).click()
        await expect(self.page.locator("#channel-title")).to_contain_text(name)

    async def dms(self) -> None:
        await self.page.locator('#channel-list .channel.dm').click()

    async def slash(self, command: str, **options: str) -> None:
        """Type /command, pick it from the list, fill its options, press Enter."""
        box = self.page.locator("#message-input")
        await box.fill(f"/{command}")
        await self.page.locator("#command-popup .suggestion", has_text=f"/{command}").first.click()
        last = box
        for name, value in options.items():
            last = self.page.locator(f'#command-options [data-option="{name}"]')
            if await last.evaluate("e => e.tagName") == "SELECT":
                await last.select_option(value)
            else:
                await last.fill(value)
        await last.press("Enter")
        await expect(self.page.locator("#command-form")).to_be_hidden()

    async def say(self, text: str) -> None:
        await self.page.locator("#message-input").fill(text)
        await self.page.locator("#message-input").press("Enter")

    def message(self, message_id: int) -> Locator:
        """The message as the fake has it now: waiting on it waits for the page to catch up
        with the latest edit, so a click never lands on a button from an older version."""
        edited = self.fake.messages[message_id].edited_at
        version = f'[data-edited="{edited}"]' if edited else ":not([data-edited])"
        return self.page.locator(f'[data-message-id="{message_id}"]{version}')

    async def click(self, message_id: int, custom_id: str) -> None:
        await self.message(message_id).locator(f'button[data-custom-id="{custom_id}"]').click()

    async def select(self, message_id: int, custom_id: str, value: str) -> None:
        await self.message(message_id).locator(f'select[data-custom-id="{custom_id}"]').select_option(value)

    async def fill_modal(self, text: str) -> None:
        modal = self.page.locator("#modal")
        await expect(modal).to_be_visible()
        await modal.locator("textarea, input").first.fill(text)
        await modal.get_by_role("button", name="Submit").click()
        await expect(modal).to_be_hidden()


def board_message(fake: FakeDiscord, bot: GatekeeperBot, table: Table) -> Message:
    """The live turn message (the one whose buttons the mover clicks)."""
    _, message_id = bot.store.messages(table.id)["board"]
    return fake.messages[message_id]


async def play_turn(tab: Tab, bot: GatekeeperBot, table: Table, seat: int,
                    level: str = "smart", lang: str = DEFAULT) -> str:
    """The person at `seat` plays the move the AI would pick for them, by clicks in the page:
    a button under the board, or "Take my turn" and then each step in their private panel
    (the table's words and theirs in `lang`)."""
    fake = tab.fake
    await settle(bot, table)
    action = decide(table.game, table.state, seat, Rng(table.state.version + 11), level)
    prompt = named_prompt(table.game.prompt(table.state, seat), table.names(), lang)
    take_turn = text(lang, "table.button.take_turn").lower()
    choice = next(c for c in prompt.choices if c.action == action
                  or (c.input and action.startswith(c.action + " ")))
    board = board_message(fake, bot, table)
    version = table.version
    mine = [(cid, label) for cid, label, _ in board.buttons() if cid and cid.split(":")[2] == str(seat)]
    shown = choice_labels(prompt.choices, table.names())[prompt.choices.index(choice)][:80]  # as the button says it
    direct = [cid for cid, label in mine if label == shown or label.endswith(f" · {shown}")]
    if not prompt.private and direct:
        await tab.click(board.id, direct[0])
        if choice.input:
            await tab.fill_modal("my worst fear")
    else:
        panels = len(fake.ephemerals(tab.user_id))
        await tab.click(board.id, next(cid for cid, label in mine if label.lower().endswith(take_turn)))
        if len(prompt.choices) == 1 and prompt.choices[0].input == "text":
            await tab.fill_modal("my worst fear")
        else:
            panel = (await until(lambda: fake.ephemerals(tab.user_id)[panels:], what="the panel"))[-1]
            for step in choice.path:
                await until(lambda: not fake.messages[panel.id].loading, what="the panel")
                current = fake.messages[panel.id]
                step_label = step.label
                button = next((cid for cid, label, _ in current.buttons() if label == step_label[:80]), None)
                edits = len(current.edits)
                if button is not None:
                    await tab.click(panel.id, button)
                else:
                    custom_id, value = next((cid, value) for cid, options in current.selects()
                                            for value, label in options if label == step_label[:100])
                    await tab.select(panel.id, custom_id, value)
                if step is choice.path[-1]:
                    if choice.input:
                        await tab.fill_modal("my worst fear")
                else:
                    await until(lambda: len(fake.messages[panel.id].edits) > edits, what="the next step")
    await until(lambda: table.version > version, what=f"{action!r} to apply")
    await settle(bot, table)
    return action


def lobby_button(fake: FakeDiscord, channel_id: int, op: str) -> tuple[int, str]:
    """(message id, custom id) of the newest lobby's `op` button (join, ai, start...)."""
    for message in reversed(fake.channel_messages(channel_id)):
        for custom_id, _, _ in message.buttons():
            if (custom_id or "").endswith(f":lobby:{op}"):
                return message.id, custom_id
    raise LookupError(f"no lobby with a {op!r} button in channel {channel_id}")


async def open_game(bot: GatekeeperBot, host: Tab, channel: str, game: str, ais: int = 0,
                    joiners: Sequence[Tab] = (),
                    before_start: Callable[[Table], Awaitable[None]] | None = None) -> Table:
    """/play in a channel, seats filled by clicks in each player's tab, Start clicked."""
    fake = host.fake
    await host.channel(channel)
    channel_id = next(c.id for c in fake.channels.values() if c.name == channel and not c.is_thread)
    await host.slash("play", game=game)
    table = await until(lambda: bot.service.in_channel(channel_id), what="the lobby")
    await settle(bot, table)
    for tab, op in [(tab, "join") for tab in joiners] + [(host, "ai")] * ais:
        seats = len(table.seats)
        await tab.channel(channel)
        await tab.click(*lobby_button(fake, channel_id, op))
        await until(lambda: len(table.seats) > seats, what=f"the seat from {op!r}")
        await settle(bot, table)
    if before_start is not None:
        await before_start(table)
    await host.click(*lobby_button(fake, channel_id, "start"))
    await until(lambda: table.status == "running", what="the game to start")
    await settle(bot, table)
    return table


def human_to_move(table: Table) -> int | None:
    """The seat to move if a person holds it (None: an AI's turn, or nobody's)."""
    seat = table.game.to_move(table.state)
    return None if seat is None or table.seats[seat].ai else seat


async def play_to_the_end(tab: Tab, bot: GatekeeperBot, table: Table, max_turns: int = 500) -> int:
    """Play every turn of `tab`'s user by clicks, letting the AIs take theirs; returns how many
    moves the person made."""
    moves = 0
    for _ in range(max_turns):
        if table.status != "running":
            await settle(bot, table)
            return moves
        seat = human_to_move(table)
        if seat is None:
            await until(lambda: table.status != "running" or human_to_move(table) is not None,
                        timeout=30, what="the AI's turn")
            continue
        await play_turn(tab, bot, table, seat)
        moves += 1
    raise AssertionError(f"the game did not end in {max_turns} turns")

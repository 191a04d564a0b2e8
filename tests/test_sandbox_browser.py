"""The sandbox in a real headless Chromium: the page as people use it, on the same Sandbox the
`gatekeeper sandbox` command runs (in-process here, on a fake clock where time matters)."""
from __future__ import annotations

import io
import json
import re

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import expect

from bot.clock import FakeClock
from bot.config import SandboxSettings, Settings
from sandbox.harness import settle, until
from sandbox.serve import FIRST_USER, Sandbox
from bot.table import Table
from tests.browser import (
    browser,  # a fixture
    Tab,
    board_message,
    lobby_button,
    open_game,
    play_to_the_end,
    play_turn,
)


# One Chromium for the file (each test opens its own pages), so the tests share one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def start_sandbox(tmp_path, browser):
    """Sandboxes started by the test; stopped after it, with the pages it opened."""
    boxes: list[Sandbox] = []

    async def start(clock=None, **overrides) -> Sandbox:
        box = Sandbox(Settings(token=""), SandboxSettings(db_path=tmp_path / "sandbox.db"),
                      clock=clock, seed=5, ai_delay=0.0, turn_timeout=10_000.0, **overrides)
        boxes.append(box)
        await box.start()
        return box
    yield start
    for context in browser.contexts:
        await context.close()
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
    picture = shown.locator(".v2-gallery .v2-media img")
    await expect(picture).to_be_visible()
    assert await picture.evaluate("img => img.complete && img.naturalWidth") >= 760
    # a private DM reached the player, in their own DM channel
    dms = box.fake.dms(me.user_id)
    assert dms
    await me.dms()
    await expect(me.page.locator("#messages .message")).to_have_count(len(dms))
    await expect(me.message(dms[-1].id)).to_be_visible()


def gatekeeper_messages(box: Sandbox) -> list:
    """Tables on which the Gatekeeper holds the floor."""
    return [m for m in box.fake.channel_messages(box.channels["atmosfear"])
            if "🗝️ **THE GATEKEEPER**" in m.text()]


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
    # his call is on the page, naming me, his picture described and the answer button in it
    call = gatekeeper_messages(box)[-1]
    await me.channel("atmosfear")
    await expect(me.message(call.id)).to_contain_text("THE GATEKEEPER")
    picture = me.message(call.id).locator("img[alt*='Gatekeeper']")
    await expect(picture.first).to_be_visible()
    await expect(me.message(call.id).locator("button", has_text="YES! MY GATEKEEPER!")).to_be_visible()
    await expect(me.message(call.id).locator(".mention", has_text=f"@{FIRST_USER}")).to_be_visible()
    assert "mentions-me" in await me.message(call.id).get_attribute("class")
    # answered by typing, before his deadline (the clock has not moved since he called)
    await me.say("YES! MY GATEKEEPER!")
    async def answered() -> bool:
        return (await box.bot.store.actions(table.id))[-1]["action"] == "yes"
    await until(answered, what="the answer")
    clock.advance(15)  # well past the deadline he set: nothing is punished
    await settle(box.bot, table)
    actions = [a["action"] for a in await box.bot.store.actions(table.id)]
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
    legal = [c.label[:100] for c in table.prompt(seat).choices][:25]  # as the bot words them
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
        await expect(other.message(board.id).locator(".v2-gallery .v2-media img")).to_be_visible()
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


# ---------------------------------------------------------------- what the page draws
# Messages posted straight into the fake through its REST API, as the bot would post them, so
# these tests do not depend on what the bot sends today.
COMPONENTS_V2 = 1 << 15
PHONE = {"width": 390, "height": 844}
# every emoji the bot writes in a message, a button or a select (bot/present.py and the games)
BOT_EMOJI = ["🟥", "🟦", "🟩", "🟨", "🟪", "🟧", "⬜", "⬛", "🟫", "➡️", "⏳", "⏸️", "🏆", "⚠️", "🔑",
             "⏰", "✅", "✨", "⚔️", "🎲", "💀", "👻", "💥", "💰", "📜", "🔒", "🔮", "🕯️", "🗝️",
             "🗡️", "😱", "🌀", "🌋", "🎒", "🎬", "🐍", "👹", "🕳️"]


def png(width: int, height: int, colour: str) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


async def post(box: Sandbox, channel_id: int, payload: dict, files: dict[str, bytes] | None = None,
               method: str = "POST", message_id: int | None = None) -> int:
    """Post (or edit) a message as the bot, through the fake's REST API; its id."""
    url = f"{box.fake.api_base}/channels/{channel_id}/messages"
    if message_id is not None:
        url += f"/{message_id}"
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for i, (name, data) in enumerate((files or {}).items()):
        form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
    async with aiohttp.ClientSession() as session:
        async with session.request(method, url, data=form,
                                   headers={"Authorization": f"Bot {box.fake.token}"}) as response:
            assert response.status == 200, await response.text()
            return int((await response.json())["id"])


def table_message(me_id: int, now: float, turn: int) -> dict:
    """A live table in Discord's current layout: a container with an accent colour, a header
    naming who acts and until when, the board with alt text, the Gatekeeper's line beside his
    thumbnail, and buttons and a select inside the container."""
    return {"flags": COMPONENTS_V2, "components": [
        {"type": 17, "accent_color": 0xE74C3C, "components": [
            {"type": 10, "content": f"## Keys to the Castle · turn {turn}\n"
                                    f"**<@{me_id}>** acts now, until <t:{int(now) - 5}:R>"},
            {"type": 14, "divider": True, "spacing": 2},
            {"type": 12, "items": [
                {"media": {"url": "attachment://board.png"},
                 "description": "Board: red on C3, blue on the gate; red to move"},
                {"media": {"url": "attachment://secret.png"}, "description": "A card",
                 "spoiler": True},
            ]},
            {"type": 9, "components": [{"type": 10, "content": "*The Gatekeeper* speaks"}],
             "accessory": {"type": 11, "media": {"url": "attachment://keeper.png"},
                           "description": "The Gatekeeper, hooded"}},
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Move to C4", "custom_id": "v2test:move"},
                {"type": 2, "style": 2, "label": "Stay", "custom_id": "v2test:stay"}]},
            {"type": 1, "components": [
                {"type": 3, "custom_id": "v2test:card", "placeholder": "Play a card",
                 "options": [{"label": "Key of red", "value": "red"},
                             {"label": "Key of blue", "value": "blue"}]}]},
        ]},
        {"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Rules", "custom_id": "v2test:rules"}]},
    ]}


TABLE_FILES = {"board.png": png(600, 400, "#3366aa"), "secret.png": png(200, 200, "#aa3333"),
               "keeper.png": png(128, 128, "#555555")}


async def interaction_on(box: Sandbox, message_id: int, custom_id: str):
    """The click the page sent for a component, answered (as a bot would) so the page is not
    left waiting: these components are not the bot's, so it lets them be."""
    ix = await until(lambda: next((ix for ix in box.fake.interactions.values()
                                   if ix.message_id == message_id
                                   and ix.data.get("custom_id") == custom_id), None),
                     what=f"a click on {custom_id}")
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{box.fake.api_base}/interactions/{ix.id}/{ix.token}/callback",
                                json={"type": 6}) as response:
            assert response.status == 204, await response.text()
    return ix


async def test_a_components_v2_table_is_drawn_like_discord_and_its_controls_work(
        browser, start_sandbox):
    box = await start_sandbox(render_workers=0)  # it draws no board
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    await me.channel("castle")
    channel_id = box.channels["castle"]
    message_id = await post(box, channel_id, table_message(me.user_id, box.clock.now(), 3),
                            TABLE_FILES)
    shown = me.message(message_id)
    container = shown.locator(".v2-container")
    await expect(container).to_have_count(1)
    # the accent colour is the container's left bar
    bar = await container.evaluate(
        "e => [getComputedStyle(e).borderLeftColor, getComputedStyle(e).borderLeftWidth]")
    assert bar == ["rgb(231, 76, 60)", "4px"]
    # text displays: Markdown, a mention of me, a relative time that moves on
    await expect(container.locator("h2")).to_have_text("Keys to the Castle · turn 3")
    await expect(container.locator("strong .mention")).to_have_text(f"@{FIRST_USER}")
    assert "mentions-me" in await shown.get_attribute("class")
    await expect(container.locator("em")).to_have_text("The Gatekeeper")
    ago = container.locator('.timestamp[data-style="R"]')
    first = await ago.inner_text()
    assert re.fullmatch(r"\d+ seconds ago", first) and int(first.split()[0]) >= 5
    await expect(ago).not_to_have_text(first)  # redrawn every second
    # the board: the attachment it names, its alt text as the img's alt and on hover
    board = container.locator(".v2-gallery .v2-media img").first
    alt = "Board: red on C3, blue on the gate; red to move"
    assert (await board.get_attribute("alt"), await board.get_attribute("title")) == (alt, alt)
    await expect(board).to_have_js_property("naturalWidth", 600)
    keeper = container.locator(".v2-section .v2-accessory .v2-thumbnail img")
    assert await keeper.get_attribute("alt") == "The Gatekeeper, hooded"
    assert await keeper.get_attribute("title") == "The Gatekeeper, hooded"
    await expect(container.locator(".v2-section-text")).to_contain_text("The Gatekeeper speaks")
    await expect(container.locator(".v2-separator hr")).to_have_count(1)
    # a spoiler stays blurred until clicked
    spoiler = container.locator(".v2-spoiler")
    assert "blur" in await spoiler.locator(".v2-media").evaluate("e => getComputedStyle(e).filter")
    await spoiler.click()
    await expect(spoiler).to_have_class("v2-spoiler shown")
    assert await spoiler.locator(".v2-media").evaluate("e => getComputedStyle(e).filter") == "none"
    # a button and a select inside the container, and a button outside it, deliver interactions
    await shown.locator('.v2-container button[data-custom-id="v2test:move"]').click()
    click = await interaction_on(box, message_id, "v2test:move")
    assert click.user_id == me.user_id and click.data["component_type"] == 2
    await shown.locator('.v2-container select[data-custom-id="v2test:card"]').select_option("blue")
    pick = await interaction_on(box, message_id, "v2test:card")
    assert pick.data["values"] == ["blue"]
    await shown.locator('button[data-custom-id="v2test:rules"]').click()
    await interaction_on(box, message_id, "v2test:rules")
    # an edit redraws the message
    await post(box, channel_id, table_message(me.user_id, box.clock.now(), 4), method="PATCH",
               message_id=message_id)
    await expect(me.message(message_id).locator("h2")).to_have_text("Keys to the Castle · turn 4")
    await expect(me.page.locator(f'[data-message-id="{message_id}"]')).to_have_count(1)


NO_GLYPH = "\U0010FFFD"  # a private-use code point: no font draws it, so it shows the "tofu" box
MISSING_GLYPHS = """async ([emoji, noGlyph]) => {
  // Draw each emoji in the font the page uses for message text, and compare it with a code
  // point no font has: the same picture (or none at all) is a box, not an emoji.
  const font = `32px ${getComputedStyle(document.querySelector("#messages .content")).fontFamily}`;
  await Promise.all(emoji.map((e) => document.fonts.load(font, e)));
  const draw = (text) => {
    const canvas = Object.assign(document.createElement("canvas"), {width: 48, height: 48});
    const context = canvas.getContext("2d");
    Object.assign(context, {font, textBaseline: "top", fillStyle: "#fff"});
    context.fillText(text, 4, 4);
    return context.getImageData(0, 0, 48, 48).data;
  };
  const box = draw(noGlyph);
  const colourful = (pixels) => pixels.some((v, i) => i % 4 === 0 && pixels[i + 3] > 200
    && Math.max(v, pixels[i + 1], pixels[i + 2]) - Math.min(v, pixels[i + 1], pixels[i + 2]) > 80);
  return emoji.filter((e) => {
    const pixels = draw(e);
    const blank = pixels.every((v, i) => i % 4 !== 3 || v === 0);
    const square = /[\\u{1F7E5}-\\u{1F7EB}]/u.test(e);  // the coloured squares: in colour
    return blank || pixels.every((v, i) => v === box[i]) || (square && !colourful(pixels));
  });
}"""


OVERFLOWING = """() => {
  // elements reaching past the right edge of the page (the channel list, slid away, aside)
  const width = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll("#app *")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !e.closest("#sidebar") && r.right > width + 0.5;
  }).map((e) => `${e.tagName}.${e.className}`);
  const page = document.documentElement.scrollWidth;
  if (page > width) out.push(`page ${page}px`);
  return out;
}"""
AT_THE_BOTTOM = """() => {
  const box = document.querySelector("#messages");
  return [...box.querySelectorAll("img")].every((i) => i.complete)
    && box.scrollHeight - box.scrollTop - box.clientHeight < 2;
}"""


async def test_at_both_widths_the_newest_board_is_in_view_after_start_and_no_emoji_is_a_box(
        browser, start_sandbox):
    box = await start_sandbox()
    wide = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    phone = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    await phone.page.set_viewport_size(PHONE)
    sidebar = phone.page.locator("#sidebar")
    await expect(sidebar).to_be_hidden()
    await phone.page.locator("#show-channels").click()  # the channel list slides in...
    await expect(sidebar).to_be_visible()
    await phone.page.mouse.click(360, 400)  # ...away with a tap beside it...
    await expect(sidebar).to_be_hidden()
    await phone.page.locator("#show-channels").click()
    await phone.channel("castle")  # ...or once a channel is picked
    await expect(sidebar).to_be_hidden()
    # the bot's emoji, as message text and in a container; a long table of buttons, to wrap
    await post(box, box.channels["castle"], {"content": "Seats: " + " ".join(BOT_EMOJI)})
    await post(box, box.channels["castle"], {"flags": COMPONENTS_V2, "components": [
        {"type": 17, "accent_color": 0x3498DB, "components": [
            {"type": 10, "content": "".join(BOT_EMOJI)},
            {"type": 10, "content": "Choose where to go: " + "the Sleeping Giant, near side; " * 4},
            {"type": 12, "items": [
                {"media": {"url": "attachment://wide.png"}, "description": "wide"}]},
            {"type": 1, "components": [
                {"type": 2, "style": 2, "label": f"Go to the Sleeping Giant, near side ({i})",
                 "custom_id": f"v2test:go{i}"} for i in range(5)]}]}]},
        {"wide.png": png(1400, 500, "#227744")})
    table = await open_game(box.bot, wide, "castle", "castle", ais=1)
    await settle(box.bot, table)
    board = board_message(box.fake, box.bot, table)
    for tab in (wide, phone):
        await expect(tab.message(board.id)).to_be_visible()
        await tab.page.wait_for_function(AT_THE_BOTTOM, timeout=5000)
        last = await tab.page.locator("#messages > .message").last.get_attribute("data-message-id")
        assert int(last) == max(m.id for m in box.fake.channel_messages(box.channels["castle"]))
        assert await tab.page.evaluate(MISSING_GLYPHS, [BOT_EMOJI, NO_GLYPH]) == []
        # the page's own text asked for the shipped font, and got it
        assert await tab.page.evaluate(
            """() => [...document.fonts].some((f) => f.family.replace(/"/g, "") === "Sandbox Emoji"
                                                  && f.status === "loaded")""")
    # on the phone nothing reaches past the edge, and text has room (not a letter per line)
    assert await phone.page.evaluate(OVERFLOWING) == []
    narrowest = await phone.page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('#messages .content')]"
        ".map((e) => e.clientWidth))")
    assert narrowest >= 250
    # a reader who scrolled up stays there; a new message shows the pill, which leads down
    messages = phone.page.locator("#messages")
    await messages.evaluate("box => { box.scrollTop = 0; }")
    await phone.page.wait_for_function("() => document.querySelector('#messages').scrollTop === 0")
    await phone.page.mouse.move(195, 300)
    await phone.page.mouse.wheel(0, -50)
    newest = await post(box, box.channels["castle"], {"content": "a note from the bot"})
    await expect(phone.page.locator(f'[data-message-id="{newest}"]')).to_have_count(1)
    pill = phone.page.locator("#new-messages")
    await expect(pill).to_be_visible()
    assert await messages.evaluate("box => box.scrollTop") == 0
    await pill.click()
    await phone.page.wait_for_function(AT_THE_BOTTOM, timeout=5000)
    await expect(pill).to_be_hidden()


async def test_typing_a_slash_lists_the_general_commands_first_then_the_game_here(
        browser, start_sandbox):
    box = await start_sandbox(render_workers=0)  # it draws no board
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    names = me.page.locator("#command-popup .suggestion .name")
    composer = me.page.locator("#message-input")
    await me.channel("general")
    await composer.fill("/")
    listed = await names.all_inner_texts()
    assert listed[:9] == ["/play", "/rules", "/hand", "/status", "/move", "/log", "/stats",
                          "/games", "/leave"]
    assert "/end" in listed
    assert not [n for n in listed if n.startswith("/atmosfear ") and not n.endswith("…")]
    assert "/atmosfear …" in listed
    await composer.fill("/atm")  # a game's commands, by its name
    assert (await names.all_inner_texts())[0] == "/atmosfear fear" and await names.count() == 15
    await composer.fill("/")
    await me.page.locator("#command-popup .suggestion", has_text="/castle …").click()
    await expect(composer).to_have_value("/castle ")
    await expect(names.first).to_have_text("/castle play")
    # where Atmosfear is being played, its commands follow the general ones and match by verb
    atmosfear = box.channels["atmosfear"]
    box.web.game_in = lambda channel_id: "atmosfear" if channel_id == atmosfear else None
    await composer.fill("")
    # the world is sent again with the next change (before the message that made it)
    note = await post(box, box.channels["general"], {"content": "Atmosfear began"})
    await expect(me.message(note)).to_be_visible()
    await me.channel("atmosfear")
    await composer.fill("/")
    listed = await names.all_inner_texts()
    assert listed[:2] == ["/play", "/rules"] and "/atmosfear fly" in listed
    assert listed.index("/end") < listed.index("/atmosfear fear")
    await composer.fill("/fl")
    assert await names.all_inner_texts() == ["/atmosfear fly"]
    await composer.fill("/le")
    assert await names.all_inner_texts() == ["/leave", "/atmosfear leave"]


async def test_the_sandbox_lobby_offers_each_ai_level_and_shows_it_beside_the_name(
        browser, start_sandbox):
    box = await start_sandbox()
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    await me.channel("castle")
    channel_id = next(c.id for c in box.fake.channels.values() if c.name == "castle" and not c.is_thread)
    await me.slash("play", game="castle")
    table = await until(lambda: box.bot.service.in_channel(channel_id), what="the lobby")
    await settle(box.bot, table)
    for label, level in (("Add hard AI", "hard"), ("Add easy AI", "easy")):
        lobby_id, _ = lobby_button(box.fake, channel_id, "ai")
        await me.message(lobby_id).get_by_role("button", name=label, exact=True).click()
        await until(lambda: table.seats[-1].level == level and table.seats[-1].ai, what=f"the {level} AI")
        await settle(box.bot, table)
    lobby_id, _ = lobby_button(box.fake, channel_id, "ai")
    lobby = me.message(lobby_id)
    await expect(lobby.get_by_role("button", name="Add smart AI", exact=True)).to_be_enabled()
    await expect(lobby).to_contain_text("AI 1 · hard AI")
    await expect(lobby).to_contain_text("AI 2 · easy AI")


async def test_a_tab_in_german_lists_the_commands_in_german_and_is_answered_in_german(
        browser, start_sandbox):
    box = await start_sandbox(render_workers=0)  # it draws no board
    me = await Tab.open(browser, box.url, box.fake, FIRST_USER)
    await me.page.locator("#language").select_option("de")
    await until(lambda: box.fake.users[me.user_id].locale == "de", what="the tab's language")
    await me.channel("general")
    composer = me.page.locator("#message-input")
    names = me.page.locator("#command-popup .suggestion .name")
    await composer.fill("/")
    assert (await names.all_inner_texts())[:3] == ["/spielen", "/regeln", "/hand"]
    await composer.fill("/spiele")
    assert await names.all_inner_texts() == ["/spielen", "/spiele"]
    await composer.fill("")
    await me.slash("hand")
    await expect(me.page.locator("#messages")).to_contain_text(
        "In diesem Kanal läuft kein Spiel. Starte eins mit /spielen.")

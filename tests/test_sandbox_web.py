"""The sandbox page's API without a browser: what a tab is sent, and bad requests answered with
a reason and no change."""
from __future__ import annotations

import re

import aiohttp
import pytest

from bot.config import SandboxSettings, Settings
from sandbox.harness import until
from sandbox.serve import FIRST_USER, Sandbox

WAIT = 30.0  # seconds a tab waits for its next event before the test fails (never hangs)


@pytest.fixture
async def box(tmp_path):
    # boards drawn in a thread: no render process to start and wait for at each stop
    sandbox = Sandbox(Settings(token=""), SandboxSettings(db_path=tmp_path / "sandbox.db"),
                      seed=5, ai_delay=0.0, render_workers=0)
    await sandbox.start()
    yield sandbox
    await sandbox.stop()


async def post(session: aiohttp.ClientSession, box: Sandbox, path: str, body) -> tuple[int, dict]:
    async with session.post(f"{box.url}sandbox/{path}", json=body) as response:
        return response.status, await response.json()


async def test_a_tab_is_greeted_with_its_world(box):
    me = str(box.first_user.id)
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{box.url}sandbox/live?user={me}") as ws:
            hello = await ws.receive_json(timeout=WAIT)
        async with session.ws_connect(f"{box.url}sandbox/live?user=12345") as ws:
            stranger = await ws.receive_json(timeout=WAIT)
    assert hello["type"] == "hello" and hello["me"] == me
    assert hello["sandbox"]["guild"] == "Gatekeeper sandbox"
    assert hello["sandbox"]["database"] == str(box.sandbox.db_path)
    assert hello["players"] == [me] and hello["users"][me] == FIRST_USER
    kinds = [(c["kind"], c["name"]) for c in hello["channels"]]
    assert kinds[0] == ("text", "general") and kinds[-1] == ("dm", None)
    assert {name for kind, name in kinds if kind == "text"} == set(box.channels)
    assert "play" in {c["name"] for c in hello["commands"]}
    # an unknown user is asked to pick one, and is shown nothing
    assert stranger["me"] is None and stranger["messages"] == [] and stranger["commands"] == []


async def test_bad_requests_get_a_reason_and_change_nothing(box):
    me = box.first_user.id
    general = box.channels["general"]
    before = dict(box.fake.messages)
    async with aiohttp.ClientSession() as session:
        assert await post(session, box, "say", {"user": me, "channel": general, "content": "  "}) \
            == (400, {"error": "a message needs 1 to 2000 characters"})
        status, answer = await post(session, box, "click", {"user": me, "message": 1, "custom_id": "x"})
        assert status == 400 and "unknown message" in answer["error"]
        status, answer = await post(session, box, "say", {"user": 999, "channel": general, "content": "hi"})
        assert (status, answer["error"]) == (400, "unknown user: pick one again")
        status, answer = await post(session, box, "users", {"name": "x" * 33})
        assert (status, answer["error"]) == (400, "a name needs 1 to 32 characters")
        status, answer = await post(session, box, "slash", {"user": me, "channel": general,
                                                            "name": "nosuchcommand"})
        assert status == 400 and "not registered" in answer["error"]
        status, answer = await post(session, box, "say", [1, 2])
        assert (status, answer["error"]) == (400, "expected a JSON object")
        async with session.post(f"{box.url}sandbox/say", data="content=hi") as response:
            assert response.status == 415  # a form post from another site's page
    assert box.fake.messages == before
    assert [u.name for u in box.fake.users.values() if not u.bot] == ["app-owner", FIRST_USER]


def test_the_sandbox_keeps_the_operators_settings_but_not_the_wait_for_late_guilds(tmp_path):
    """The operator's turn timeout reaches the sandbox's bot; discord.py's wait for guilds sent
    late does not (its fake Discord sends every guild at once), so the sandbox is ready in well
    under a second instead of after that wait."""
    from sandbox.harness import GUILD_READY_TIMEOUT
    sandbox = Sandbox(Settings(token="", turn_timeout=77.0, guild_ready_timeout=2.0),
                      SandboxSettings(db_path=tmp_path / "sandbox.db"))
    assert sandbox.overrides["turn_timeout"] == 77.0
    assert "guild_ready_timeout" not in sandbox.overrides
    assert GUILD_READY_TIMEOUT < 2.0


async def test_the_page_and_its_emoji_font_are_served_and_nothing_else(box):
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{box.url}static/emoji.css") as response:
            css = await response.text()
        fonts = sorted(set(re.findall(r"url\(/static/(emoji-\d+\.woff2)\)", css)))
        assert len(fonts) == 11 and 'font-family: "Sandbox Emoji"' in css
        for name in fonts:
            async with session.get(f"{box.url}static/{name}") as response:
                assert response.status == 200 and response.content_type == "font/woff2"
                assert (await response.read())[:4] == b"wOF2"
        async with session.get(f"{box.url}static/emoji-OFL.txt") as response:
            assert "SIL Open Font License" in await response.text()
        for missing in ("nothing.css", "emoji-99.woff2", "%2e%2e%2fweb.py", "web.py"):
            async with session.get(f"{box.url}static/{missing}") as response:
                assert response.status == 404, missing


async def test_a_tab_is_told_which_game_each_channel_is_playing(box):
    """The page lists a channel's game commands first there; it learns the game from here."""
    me, castle = box.first_user.id, box.channels["castle"]

    def lobby(op: str) -> tuple[int, str] | None:
        """The newest lobby's `op` button, if it can be clicked."""
        return next(((m.id, cid) for m in reversed(box.fake.channel_messages(castle))
                     for cid, _, disabled in m.buttons()
                     if (cid or "").endswith(f":lobby:{op}") and not disabled), None)

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{box.url}sandbox/live?user={me}") as ws:
            hello = await ws.receive_json(timeout=WAIT)
            assert {c["name"]: c["game"] for c in hello["channels"]}["castle"] is None
            await box.fake.slash(me, castle, "play", {"game": "castle"})
            await until(lambda: any(m.buttons() for m in box.fake.channel_messages(castle)),
                        what="the lobby")
            for op in ("ai", "start"):
                await box.fake.click(me, *await until(lambda: lobby(op), what=f"{op} to click"))
            await until(lambda: box.running_game(castle) == "castle", what="the game")
            while True:  # the page is told as soon as it starts
                event = await ws.receive_json(timeout=WAIT)
                if event["type"] == "world":
                    games = {c["name"]: c["game"] for c in event["channels"]}
                    if games["castle"] == "castle":
                        break
    assert games == {**{name: None for name in games}, "castle": "castle"}


async def test_a_tab_picks_its_language_and_the_bot_answers_it_in_that_language(box):
    me = box.first_user.id
    general = box.channels["general"]
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{box.url}sandbox/live?user={me}") as ws:
            hello = await ws.receive_json()
        assert hello["locale"] == "en-US" and {"de", "es-ES", "es-419"} <= set(hello["locales"])
        assert await post(session, box, "locale", {"user": me, "locale": "de"}) == \
            (200, {"locale": "de"})
        status, answer = await post(session, box, "locale", {"user": me, "locale": "xx"})
        assert status == 400 and "not a Discord locale" in answer["error"]
        assert await post(session, box, "slash", {"user": me, "channel": general,
                                                  "name": "hand"}) == (200, {"ok": True})
    answer = await until(lambda: [m for m in box.fake.messages.values() if m.ephemeral])
    assert answer[-1].content == "In diesem Kanal läuft kein Spiel. Starte eins mit /spielen."
    assert box.fake.users[me].locale == "de"

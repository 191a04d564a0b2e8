"""The sandbox's web client: one page (static/) and a small JSON + websocket API for it, served by
the fake Discord's own aiohttp app.

The browser acts through the same control methods the tests use (FakeDiscord.slash, click,
select, submit_modal, autocomplete, say), so tests, page and bot meet one implementation of
Discord. Each tab says which user it is and is shown only what Discord would show that user
(FakeDiscord.visible_to): its own ephemerals and DMs, the guild's channels and threads.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Awaitable, Callable

from aiohttp import WSCloseCode, web

from .models import Channel, Interaction, Message
from .server import LOCALES, FakeDiscord, FakeDiscordError

# What static/ holds, by kind: the page, and the emoji font it ships (emoji.css) so emoji are
# never empty boxes on a machine without a colour emoji font of its own.
CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                 ".woff2": "font/woff2", ".txt": "text/plain"}
HISTORY = 100  # messages per channel a tab gets when it connects (Discord also loads lazily)
MAX_NAME = 32
MAX_MESSAGE = 2000


@dataclass(eq=False)
class _Tab:
    """One open page: the user it plays as (None while it picks one) and its outgoing events."""
    user_id: int | None
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class BadRequest(Exception):
    """The page sent something the sandbox cannot do; the message is shown to the user."""


class WebClient:
    """Routes for the page, and a watcher that pushes every message create, edit and delete
    to the tabs allowed to see it."""

    def __init__(self, fake: FakeDiscord, guild_id: int, database: str,
                 now: Callable[[], float],
                 game_in: Callable[[int], str | None] = lambda channel_id: None) -> None:
        self.fake = fake
        #: the name of the game running in a channel, if any: its commands are offered first there
        self.game_in = game_in
        self.guild_id = guild_id
        self.database = database
        self.now = now
        self._tabs: set[_Tab] = set()
        self._sockets: set[web.WebSocketResponse] = set()
        self._seen: dict[int, tuple[int, bool, int]] = {}
        self._world: Any = None
        self._watcher: asyncio.Task[None] | None = None

    def install(self, app: web.Application) -> None:
        """Add the page and its API to the fake's app (FakeDiscord.start(extend=...))."""
        app.router.add_get("/", self.page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/sandbox/live", self.live)
        for name, handler in (("users", self.add_user), ("say", self.say),
                              ("slash", self.slash), ("autocomplete", self.autocomplete),
                              ("click", self.click), ("select", self.select),
                              ("modal", self.modal), ("locale", self.locale)):
            app.router.add_post(f"/sandbox/{name}", self._api(handler))
        app.on_startup.append(self._start_watching)
        app.on_shutdown.append(self._close_sockets)

    # ------------------------------------------------------------------ the page
    async def page(self, request: web.Request) -> web.Response:
        return self._static_file("index.html")

    async def static(self, request: web.Request) -> web.Response:
        return self._static_file(request.match_info["name"])

    @staticmethod
    def _static_file(name: str) -> web.Response:
        """A file of static/ by its bare name, of a kind the page uses; anything else is a 404.
        Never cached without asking: a new version of the page shows at the next load."""
        folder = resources.files(__package__) / "static"
        kind = CONTENT_TYPES.get(name[name.rfind("."):]) if "." in name else None
        if kind is None or "/" in name or not (folder / name).is_file():
            raise web.HTTPNotFound()
        return web.Response(body=(folder / name).read_bytes(), content_type=kind,
                            charset=None if kind.startswith("font/") else "utf-8",
                            headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ live updates
    async def live(self, request: web.Request) -> web.WebSocketResponse:
        """A tab's feed: first a snapshot of its world, then every change it may see."""
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        user_id = self._user_param(request.query.get("user"))
        tab = _Tab(user_id)
        tab.outbox.put_nowait({"type": "hello", **self._world_for(user_id),
                               "messages": self._history(user_id)})
        self._tabs.add(tab)
        self._sockets.add(ws)
        pump = asyncio.create_task(self._pump(ws, tab))
        try:
            async for _ in ws:  # the page only listens; actions come by POST
                pass
        finally:
            self._tabs.discard(tab)
            self._sockets.discard(ws)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
        return ws

    def _user_param(self, raw: str | None) -> int | None:
        if raw and raw.isdigit() and int(raw) in self._players():
            return int(raw)
        return None

    @staticmethod
    async def _pump(ws: web.WebSocketResponse, tab: _Tab) -> None:
        while True:
            event = await tab.outbox.get()
            await ws.send_str(json.dumps(event))

    async def _start_watching(self, app: web.Application) -> None:
        self._watcher = asyncio.create_task(self._watch(), name="sandbox-web-watch")

    async def _close_sockets(self, app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"sandbox stopping")

    async def _watch(self) -> None:
        while True:
            self._publish()
            await self.fake.changed()

    def _publish(self) -> None:
        """Queue what changed since the last look (compared, so a burst of changes is one pass)."""
        world = (tuple(self._players()),
                 tuple((c.id, c.name, c.archived, self.game_in(c.id))
                       for c in self.fake.channels.values()),
                 tuple(c["id"] for c in self._commands()))
        if world != self._world:
            self._world = world
            for tab in self._tabs:
                tab.outbox.put_nowait({"type": "world", **self._world_for(tab.user_id)})
        for m in list(self.fake.messages.values()):
            signature = (len(m.edits), m.deleted, m.flags)
            if self._seen.get(m.id) == signature:
                continue
            self._seen[m.id] = signature
            for tab in self._tabs:
                if tab.user_id is None or not self.fake.visible_to(m, tab.user_id):
                    continue
                if m.deleted:
                    tab.outbox.put_nowait({"type": "delete", "id": str(m.id),
                                           "channel_id": str(m.channel_id)})
                else:
                    tab.outbox.put_nowait({"type": "message", "message": self._message(m),
                                           "now": self.now()})

    # ------------------------------------------------------------------ what a tab sees
    def _players(self) -> list[int]:
        """People in the sandbox guild (not the bot, not the application's owner)."""
        members = self.fake.guilds[self.guild_id].members
        return [uid for uid in members
                if not self.fake.users[uid].bot and uid != self.fake.owner_user.id]

    def _commands(self) -> list[dict[str, Any]]:
        return self.fake.commands() + self.fake.commands(self.guild_id)

    def _world_for(self, user_id: int | None) -> dict[str, Any]:
        users = self.fake.users
        return {
            "sandbox": {"guild": self.fake.guilds[self.guild_id].name, "database": self.database,
                        "bot": self.fake.bot_user.name, "bot_id": str(self.fake.bot_user.id)},
            "now": self.now(),
            "me": str(user_id) if user_id is not None else None,
            "players": [str(uid) for uid in self._players()],
            "users": {str(uid): users[uid].name for uid in users},
            # the language of this tab's Discord client, and those Discord offers
            "locale": users[user_id].locale if user_id is not None else None,
            "locales": sorted(LOCALES),
            "channels": [self._channel(c) for c in self._channels_for(user_id)],
            "commands": self._commands() if user_id is not None else [],
        }

    def _channels_for(self, user_id: int | None) -> list[Channel]:
        guild = self.fake.guilds[self.guild_id]
        out = [self.fake.channels[cid] for cid in guild.channel_ids
               if not self.fake.channels[cid].is_thread]
        out += sorted((c for c in self.fake.channels.values()
                       if c.is_thread and c.guild_id == self.guild_id), key=lambda c: c.id)
        if user_id is not None:
            out.append(self.fake.dm_channel(user_id))
        return out

    def _channel(self, c: Channel) -> dict[str, Any]:
        kind = "dm" if c.is_dm else "thread" if c.is_thread else "text"
        return {"id": str(c.id), "kind": kind, "name": c.name,
                "parent_id": str(c.parent_id) if c.parent_id else None,
                "game": None if c.is_dm else self.game_in(c.id)}

    def _history(self, user_id: int | None) -> list[dict[str, Any]]:
        if user_id is None:
            return []
        by_channel: dict[int, list[Message]] = {}
        for m in self.fake.all_visible_to(user_id):
            by_channel.setdefault(m.channel_id, []).append(m)
        return [self._message(m) for ms in by_channel.values() for m in ms[-HISTORY:]]

    def _message(self, m: Message) -> dict[str, Any]:
        """Discord's own message payload (the page renders what a Discord client would), plus
        whom an ephemeral is for."""
        payload = self.fake.message_payload(m)
        payload["ephemeral"] = m.ephemeral
        return payload

    # ------------------------------------------------------------------ actions
    def _api(self, handler: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]):
        async def endpoint(request: web.Request) -> web.Response:
            if request.content_type != "application/json":
                # other sites' pages cannot send JSON here without a CORS preflight we never answer
                return web.json_response({"error": "send JSON"}, status=415)
            try:
                body = await request.json()
                if not isinstance(body, dict):
                    raise BadRequest("expected a JSON object")
                return web.json_response(await handler(body))
            except (BadRequest, FakeDiscordError) as exc:
                return web.json_response({"error": str(exc)}, status=400)
            except (ValueError, KeyError, TypeError) as exc:
                return web.json_response({"error": f"bad request: {exc}"}, status=400)
        return endpoint

    def _user(self, body: dict[str, Any]) -> int:
        user_id = int(body["user"])
        if user_id not in self._players():
            raise BadRequest("unknown user: pick one again")
        return user_id

    async def _answer(self, ix: Interaction) -> dict[str, Any]:
        """What the user sees right after acting: a modal to fill in, or (like Discord after
        three seconds of silence) that the interaction failed."""
        try:
            callback = await ix.response(timeout=(self.fake.interaction_timeout or 3.0) + 0.5)
        except TimeoutError:
            return {"failed": "The application did not respond"}
        if callback.type == 9:
            return {"modal": callback.data, "interaction": str(ix.id)}
        return {"ok": True}

    async def add_user(self, body: dict[str, Any]) -> dict[str, Any]:
        name = str(body.get("name", "")).strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise BadRequest(f"a name needs 1 to {MAX_NAME} characters")
        user = self.fake.add_user(name)
        self.fake.add_member(self.guild_id, user.id)
        return {"id": str(user.id), "name": user.name}

    async def locale(self, body: dict[str, Any]) -> dict[str, Any]:
        """The tab's person switches their Discord client's language: their next interactions
        carry it, as Discord's would."""
        user_id = self._user(body)
        self.fake.set_locale(user_id, str(body["locale"]))
        return {"locale": self.fake.users[user_id].locale}

    async def say(self, body: dict[str, Any]) -> dict[str, Any]:
        content = str(body.get("content", "")).strip()
        if not 1 <= len(content) <= MAX_MESSAGE:
            raise BadRequest(f"a message needs 1 to {MAX_MESSAGE} characters")
        await self.fake.say(self._user(body), int(body["channel"]), content)
        return {"ok": True}

    async def slash(self, body: dict[str, Any]) -> dict[str, Any]:
        ix = await self.fake.slash(self._user(body), int(body["channel"]), str(body["name"]),
                                   dict(body.get("options") or {}), body.get("subcommand"),
                                   body.get("group"))
        return await self._answer(ix)

    async def autocomplete(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            choices = await self.fake.autocomplete(
                self._user(body), int(body["channel"]), str(body["name"]),
                dict(body.get("options") or {}), str(body["focused"]), body.get("subcommand"),
                body.get("group"), timeout=(self.fake.interaction_timeout or 3.0) + 0.5)
        except TimeoutError:
            choices = []
        return {"choices": choices}

    async def click(self, body: dict[str, Any]) -> dict[str, Any]:
        ix = await self.fake.click(self._user(body), int(body["message"]), str(body["custom_id"]))
        return await self._answer(ix)

    async def select(self, body: dict[str, Any]) -> dict[str, Any]:
        ix = await self.fake.select(self._user(body), int(body["message"]), str(body["custom_id"]),
                                    list(body["values"]))
        return await self._answer(ix)

    async def modal(self, body: dict[str, Any]) -> dict[str, Any]:
        user_id = self._user(body)
        opened = self.fake.interactions.get(int(body["interaction"]))
        if opened is None or opened.user_id != user_id:
            raise BadRequest("that form is no longer open")
        ix = await self.fake.submit_modal(user_id, opened, values=dict(body.get("values") or {}))
        return await self._answer(ix)

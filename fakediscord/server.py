"""An in-process fake of the Discord REST API + gateway, good enough for an unmodified discord.py client."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import mimetypes
import re
import secrets
import time
import zlib
from typing import Any, Awaitable, Callable, Dict, Iterable, List, Optional, Tuple

from aiohttp import WSMsgType, web

from .faults import Faults
from .ratelimits import RateLimits
from .models import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    MANAGE_GUILD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    WAIT_TIMEOUT,
    Callback,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    SnowflakeFactory,
    User,
    iso,
    walk_components,
)

log = logging.getLogger('fakediscord')

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# option type ids
OPT_SUB, OPT_GROUP, OPT_STR, OPT_INT, OPT_BOOL, OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUM = range(1, 11)
OPT_ATTACHMENT = 11

# How long a heartbeat's ACK takes (fakediscord.server.FakeDiscord._acknowledge): far more
# than the client's keep-alive thread needs to run again, far less than discord.py's 10 s
# "Can't keep up" threshold; Discord's own round trip is of this order.
HEARTBEAT_ACK_DELAY = 0.1


# Discord's locales (https://discord.com/developers/docs/reference#locales).
LOCALES = frozenset('id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el '
                    'bg ru uk hi th zh-CN ja zh-TW ko'.split())
# A slash command's or option's name, and each of its localizations: letters of any script,
# digits, - and _, 1-32 characters, lower case where the script has case.
COMMAND_NAME = re.compile(r'^[-_\w]{1,32}$')


def _check_locale(locale: str) -> None:
    if locale not in LOCALES:
        raise FakeDiscordError(f'{locale!r} is not a Discord locale: {sorted(LOCALES)}')


def _check_localizations(item: Dict[str, Any], where: str, is_choice: bool = False) -> None:
    """A command's (or option's, or choice's) name and description localizations follow the
    rules of the names and descriptions they translate, under Discord's locales only."""
    for field, name_like in (('name_localizations', not is_choice), ('description_localizations', False)):
        for locale, value in (item.get(field) or {}).items():
            if locale not in LOCALES:
                raise _form_error(field, 'LOCALE_INVALID', f'{where}: {locale!r} is not a Discord locale')
            if name_like and (not COMMAND_NAME.match(value) or value != value.lower()):
                raise _form_error(field, 'APPLICATION_COMMAND_INVALID_NAME', f'{where}: invalid {locale} name {value!r}')
            if not 1 <= len(value) <= 100:
                raise _form_error(field, 'BASE_TYPE_BAD_LENGTH', f'{where}: {locale} text must be 1-100 chars')
    for option in item.get('options') or []:
        _check_localizations(option, f"{where} {option.get('name')}")
    for choice in item.get('choices') or []:
        _check_localizations(choice, f"{where} choice {choice.get('name')}", is_choice=True)


class FakeDiscordError(Exception):
    """Raised by the control API when a test asks for something a real user could not do."""


class HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Optional[Dict[str, Any]] = None):
        super().__init__(f'{status} {code} {message}')
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {'message': self.message, 'code': self.code}
        if self.errors:
            d['errors'] = self.errors
        return d


# Components V2 limits (Discord's API reference, "Component Reference"): checked as Discord does,
# so a layout the bot builds that real Discord would refuse fails in the tests too.
V2_MAX_COMPONENTS = 40  # in a whole message, nested ones counted
V2_MAX_TEXT = 4000  # characters across every text display
V2_TOP_LEVEL = {1, 9, 10, 11, 12, 13, 14, 17}
V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}


def _validate_layout(components: List[Dict[str, Any]]) -> None:
    """Refuse a Components V2 tree that real Discord would refuse (400, code 50035)."""
    every = list(walk_components(components))
    if len(every) > V2_MAX_COMPONENTS:
        raise _form_error('components', 'BASE_TYPE_MAX_LENGTH',
                          f'Must be {V2_MAX_COMPONENTS} or fewer components in total.')
    text = sum(len(c.get('content') or '') for c in every if c.get('type') == 10)
    if text > V2_MAX_TEXT:
        raise _form_error('components', 'BASE_TYPE_MAX_LENGTH',
                          f'Text displays must hold {V2_MAX_TEXT} or fewer characters in total.')
    for i, c in enumerate(components):
        if c.get('type') not in V2_TOP_LEVEL:
            raise _form_error(f'components.{i}', 'UNION_TYPE_CHOICES', 'Not a top-level component')
    for c in every:
        kind = c.get('type')
        if kind == 17:
            for j, inner in enumerate(c.get('components') or []):
                if inner.get('type') not in V2_IN_CONTAINER:
                    raise _form_error(f'components.{j}', 'UNION_TYPE_CHOICES',
                                      'Not allowed in a container')
            if not c.get('components'):
                raise _form_error('components', 'BASE_TYPE_REQUIRED', 'A container needs components')
        elif kind == 9:
            inner = c.get('components') or []
            if not 1 <= len(inner) <= 3 or any(x.get('type') != 10 for x in inner):
                raise _form_error('components', 'BASE_TYPE_BAD_LENGTH',
                                  'A section holds 1 to 3 text displays')
            if (c.get('accessory') or {}).get('type') not in (2, 11):
                raise _form_error('components', 'BASE_TYPE_REQUIRED',
                                  'A section needs a thumbnail or button accessory')
        elif kind == 12:
            items = c.get('items') or []
            if not 1 <= len(items) <= 10:
                raise _form_error('components', 'BASE_TYPE_BAD_LENGTH',
                                  'A media gallery holds 1 to 10 items')
            for item in items:
                _validate_media(item)
        elif kind == 11:
            _validate_media(c)
        elif kind == 10 and not c.get('content'):
            raise _form_error('components', 'BASE_TYPE_REQUIRED', 'A text display needs content')


def _validate_media(item: Dict[str, Any]) -> None:
    if not (item.get('media') or {}).get('url'):
        raise _form_error('components', 'BASE_TYPE_REQUIRED', 'Media needs a url')
    if len(item.get('description') or '') > 1024:
        raise _form_error('components', 'BASE_TYPE_MAX_LENGTH',
                          'A media description must be 1024 or fewer in length.')


def _form_error(field: str, code: str, message: str) -> HTTPError:
    errors: Dict[str, Any] = {}
    cur = errors
    parts = field.split('.')
    for p in parts[:-1]:
        cur = cur.setdefault(p, {})
    cur[parts[-1]] = {'_errors': [{'code': code, 'message': message}]}
    return HTTPError(400, 50035, 'Invalid Form Body', errors)


class _Conn:
    """One gateway websocket; optionally zlib-stream compressed."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.z = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()
        self.session: Optional[_Session] = None

    async def send(self, payload: Dict[str, Any]) -> None:
        data = json.dumps(payload, separators=(',', ':'))
        async with self.lock:
            if self.z is not None:
                await self.ws.send_bytes(self.z.compress(data.encode()) + self.z.flush(zlib.Z_SYNC_FLUSH))
            else:
                await self.ws.send_str(data)


class _Session:
    def __init__(self, session_id: str, shard: Tuple[int, int], intents: int) -> None:
        self.id = session_id
        self.shard_id, self.shard_count = shard
        self.intents = intents
        self.seq = 0
        self.buffer: List[Dict[str, Any]] = []
        self.conn: Optional[_Conn] = None
        self.lock = asyncio.Lock()
        self.dead = False

    def wants_guild(self, guild_id: Optional[int]) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id


Handler = Callable[..., Awaitable[Any]]


class FakeDiscord:
    """Fake Discord. ``fake = FakeDiscord(); await fake.start(); ...; await fake.stop()``."""

    def __init__(self, *, compress_gateway: bool = True, interaction_timeout: Optional[float] = 3.0,
                 keep_attachment_bytes: bool = True, latency: float = 0.0,
                 rate_limits: Optional[RateLimits] = None, real_rate_limits: bool = True) -> None:
        self._snow = SnowflakeFactory()
        self.token = 'fake-bot-token.' + secrets.token_hex(8)
        self.compress_gateway = compress_gateway
        #: seconds after creation an interaction can still get its initial callback (None: forever)
        self.interaction_timeout = interaction_timeout
        #: ms between the client's heartbeats, sent in HELLO (Discord's own value)
        self.heartbeat_interval = 41250
        #: seconds before a heartbeat is acknowledged: a network round trip (see _acknowledge)
        self.heartbeat_ack_delay = HEARTBEAT_ACK_DELAY

        self.bot_user = User(id=self._snow(), name='Gatekeeper', bot=True)
        self.bot_user_id = self.bot_user.id
        self.application_id = self.bot_user.id  # like real bots: application id == bot user id
        self.owner_user = User(id=self._snow(), name='app-owner')

        self.users: Dict[int, User] = {self.bot_user.id: self.bot_user, self.owner_user.id: self.owner_user}
        self.guilds: Dict[int, Guild] = {}
        self.channels: Dict[int, Channel] = {}
        self.messages: Dict[int, Message] = {}
        self.interactions: Dict[int, Interaction] = {}
        self._interactions_by_token: Dict[str, Interaction] = {}
        self.global_commands: List[Dict[str, Any]] = []
        self.guild_commands: Dict[int, List[Dict[str, Any]]] = {}
        self._command_ids: Dict[Tuple[Optional[int], int, str], int] = {}

        # diagnostics / fault injection
        self.unknown_routes: List[Tuple[str, str]] = []
        self.http_errors: List[Tuple[str, str, int, Dict[str, Any]]] = []  # 4xx we generated (not injected)
        self.requests: List[Tuple[str, str]] = []
        self.keep_attachment_bytes = keep_attachment_bytes
        #: seconds each REST request takes before it is handled (an injected network round trip)
        self.latency = latency
        self.rate_limited = 0
        #: Discord's per-route buckets (fakediscord.ratelimits); real_rate_limits=False: none
        self.rate_limits = rate_limits or (RateLimits() if real_rate_limits else None)
        self.resume_count = 0
        self.identify_count = 0
        self._fail_rules: List[Dict[str, Any]] = []
        self.faults = Faults()  # injected outages (fakediscord.faults), run before each request
        # called with each public message as it is created or edited (the benchmark's players
        # time a move to its board by it: bench.players)
        self.on_public_message: Optional[Callable[[Message], None]] = None
        self._nonces: Dict[Tuple[int, str], int] = {}  # (channel, nonce) -> message, for enforce_nonce

        self._sessions: Dict[str, _Session] = {}
        self._conns: List[_Conn] = []
        self._changed = asyncio.Event()
        self._runner: Optional[web.AppRunner] = None
        self.port: Optional[int] = None
        self._routes: List[Tuple[str, re.Pattern[str], Handler, bool]] = []
        self._register_routes()

    # ------------------------------------------------------------------ lifecycle
    async def start(self, port: int = 0,
                    extend: Optional[Callable[[web.Application], None]] = None) -> 'FakeDiscord':
        """Listen on 127.0.0.1 (``port`` 0: a free one). ``extend`` adds routes of its own before
        the catch-all REST dispatch (the sandbox's web client, fakediscord.web)."""
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self.faults.middleware])
        app.router.add_get('/gateway', self._gateway)
        if extend is not None:
            extend(app)
        app.router.add_route('*', '/{tail:.*}', self._http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, '127.0.0.1', port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        log.info('FakeDiscord listening on %s', self.base_url)
        return self

    async def stop(self) -> None:
        for task in list(getattr(self, '_bg', ())):
            task.cancel()
        for conn in list(self._conns):
            try:
                await asyncio.wait_for(conn.ws.close(code=1001), 1)
            except Exception:
                pass
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> 'FakeDiscord':
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f'http://127.0.0.1:{self.port}'

    @property
    def api_base(self) -> str:
        return f'{self.base_url}/api/v10'

    @property
    def gateway_url(self) -> str:
        return f'ws://127.0.0.1:{self.port}/gateway'

    # ------------------------------------------------------------------ change notification
    def _notify(self) -> None:
        ev = self._changed
        self._changed = asyncio.Event()
        ev.set()

    async def changed(self) -> None:
        """Return at the next state change (a watcher that re-reads state between calls, without
        awaiting anything else, misses none)."""
        await self._changed.wait()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = WAIT_TIMEOUT, what: Optional[str] = None) -> Any:
        """Wait until predicate() is truthy (re-checked on every state change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            ev = self._changed
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                desc = what or getattr(predicate, '__name__', repr(predicate))
                raise TimeoutError(f'FakeDiscord: timed out after {timeout}s waiting for {desc}.\n{self.describe_state()}')
            try:
                await asyncio.wait_for(ev.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    def describe_state(self) -> str:
        lines = [
            f'  sessions={[(s.id[:6], s.seq, s.conn is not None) for s in self._sessions.values()]} '
            f'identifies={self.identify_count} resumes={self.resume_count}',
            f'  commands: global={[c["name"] for c in self.global_commands]} '
            f'guild={ {g: [c["name"] for c in cs] for g, cs in self.guild_commands.items()} }',
        ]
        for m in sorted(self.messages.values(), key=lambda m: m.id)[-8:]:
            lines.append(f'  {m!r}')
        for ix in list(self.interactions.values())[-5:]:
            lines.append(f'  {ix.describe()} callback={ix.callback and ix.callback.type} errors={ix.errors}')
        if self.unknown_routes:
            lines.append(f'  unknown routes: {self.unknown_routes}')
        if self.http_errors:
            lines.append(f'  http errors: {self.http_errors[-5:]}')
        return '\n'.join(lines)

    @property
    def ready(self) -> bool:
        return any(s.conn is not None and not s.dead for s in self._sessions.values())

    async def wait_ready(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: self.ready, timeout, 'the bot to IDENTIFY and get READY')

    async def wait_commands(self, guild_id: Optional[int] = None, timeout: float = 10.0) -> List[Dict[str, Any]]:
        return await self.wait_for(lambda: self.commands(guild_id), timeout, f'commands to be synced (guild={guild_id})')

    def commands(self, guild_id: Optional[int] = None) -> List[Dict[str, Any]]:
        return list(self.global_commands if guild_id is None else self.guild_commands.get(guild_id, []))

    # ------------------------------------------------------------------ world building
    def add_user(self, name: str, dms_open: bool = True, locale: str = 'en-US') -> User:
        """A user whose Discord client speaks `locale` (sent as each interaction's `locale`)."""
        _check_locale(locale)
        u = User(id=self._snow(), name=name, dms_open=dms_open, locale=locale)
        self.users[u.id] = u
        return u

    def add_guild(self, name: str, id: Optional[int] = None, locale: str = 'en-US') -> Guild:
        """A guild with @everyone, a 'Game Master' role (MANAGE_GUILD) and the bot (+ its managed role).

        Pass ``id`` to control shard placement ((id >> 22) % shard_count); ``locale`` is its
        preferred locale (GUILD_CREATE's preferred_locale, interactions' guild_locale)."""
        _check_locale(locale)
        gid = id if id is not None else self._snow()
        g = Guild(id=gid, name=name, owner_id=self.owner_user.id, locale=locale)
        g.roles[gid] = Role(id=gid, guild_id=gid, name='@everyone', permissions=EVERYONE_PERMISSIONS)
        mgr = Role(id=self._snow(), guild_id=gid, name='Game Master', permissions=MANAGE_GUILD, position=1)
        bot_role = Role(
            id=self._snow(), guild_id=gid, name=self.bot_user.name, permissions=BOT_PERMISSIONS, position=2, managed=True
        )
        g.roles[mgr.id] = mgr
        g.roles[bot_role.id] = bot_role
        self.guilds[gid] = g
        g.members[self.bot_user.id] = Member(gid, self.bot_user.id, [bot_role.id], iso(gid))
        g.members[self.owner_user.id] = Member(gid, self.owner_user.id, [], iso(gid))
        # guilds added after the bot connected arrive as GUILD_CREATE (a join)
        if self._sessions:
            self._spawn(self._dispatch('GUILD_CREATE', self._guild_payload(g), gid))
        return g

    def set_locale(self, user_id: int, locale: str) -> None:
        """The user switches their Discord client's language (the sandbox's language picker)."""
        _check_locale(locale)
        self.users[user_id].locale = locale

    def manager_role_id(self, guild_id: int) -> int:
        return next(r.id for r in self.guilds[guild_id].roles.values() if r.name == 'Game Master')

    def add_channel(self, guild_id: int, name: str) -> Channel:
        g = self.guilds[guild_id]
        c = Channel(id=self._snow(), type=0, name=name, guild_id=guild_id, position=len(g.channel_ids))
        self.channels[c.id] = c
        g.channel_ids.append(c.id)
        if self._sessions:
            self._spawn(self._dispatch('CHANNEL_CREATE', self._channel_payload(c), guild_id))
        return c

    def add_member(self, guild_id: int, user_id: int, manage_guild: bool = False) -> Member:
        g = self.guilds[guild_id]
        roles = [self.manager_role_id(guild_id)] if manage_guild else []
        m = Member(guild_id, user_id, roles, iso(self._snow()))
        g.members[user_id] = m
        if self._sessions:
            d = self._member_payload(m)
            d['guild_id'] = str(guild_id)
            self._spawn(self._dispatch('GUILD_MEMBER_ADD', d, guild_id))
        return m

    def dm_channel(self, user_id: int) -> Channel:
        """The (bot <-> user) DM channel, created on demand."""
        u = self.users[user_id]
        if u.dm_channel_id is None:
            c = Channel(id=self._snow(), type=1, recipient_id=user_id)
            self.channels[c.id] = c
            u.dm_channel_id = c.id
        return self.channels[u.dm_channel_id]

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._bg = getattr(self, '_bg', set())
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    # ------------------------------------------------------------------ permissions / payloads
    def permissions(self, guild_id: int, user_id: int) -> int:
        g = self.guilds[guild_id]
        if user_id == g.owner_id:
            return ALL_PERMISSIONS
        m = g.members.get(user_id)
        perms = g.roles[guild_id].permissions
        if m is not None:
            for rid in m.roles:
                perms |= g.roles[rid].permissions
        if perms & (1 << 3):
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, channel: Channel, user_id: int) -> int:
        """A member's permissions in a channel, as Discord works them out: the guild's (roles),
        then the channel's overwrites for @everyone, for the member's roles, and for the member
        (deny, then allow, at each step). A thread takes its parent's overwrites."""
        base = self.permissions(channel.guild_id, user_id)  # type: ignore[arg-type]
        if base == ALL_PERMISSIONS:
            return base
        source = self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        g = self.guilds[channel.guild_id]  # type: ignore[index]
        member = g.members.get(user_id)

        def apply(perms: int, allow: int, deny: int) -> int:
            return (perms & ~deny) | allow

        perms = apply(base, *source.overwrites.get(g.id, (0, 0)))
        roles = member.roles if member is not None else []
        allow = deny = 0
        for rid in roles:
            a, d = source.overwrites.get(rid, (0, 0))
            allow, deny = allow | a, deny | d
        perms = apply(perms, allow, deny)
        return apply(perms, *source.overwrites.get(user_id, (0, 0)))

    async def set_overwrite(self, channel_id: int, target_id: int, allow: int = 0, deny: int = 0) -> None:
        """Change a channel's permission overwrite for a role or member (0, 0 removes it), as an
        admin would in the channel's settings; the bot hears CHANNEL_UPDATE."""
        c = self._channel(channel_id)
        if allow or deny:
            c.overwrites[target_id] = (allow, deny)
        else:
            c.overwrites.pop(target_id, None)
        await self._dispatch('CHANNEL_UPDATE', self._channel_payload(c), c.guild_id)

    def bot_role_id(self, guild_id: int) -> int:
        return next(r.id for r in self.guilds[guild_id].roles.values() if r.managed)

    def _overwrites_payload(self, c: Channel) -> List[Dict[str, Any]]:
        g = self.guilds[c.guild_id]  # type: ignore[index]
        return [{'id': str(tid), 'type': 0 if tid in g.roles else 1, 'allow': str(a), 'deny': str(d)}
                for tid, (a, d) in c.overwrites.items()]

    def _member_payload(self, m: Member, with_user: bool = True) -> Dict[str, Any]:
        d: Dict[str, Any] = {
            'roles': [str(r) for r in m.roles],
            'nick': None,
            'avatar': None,
            'joined_at': m.joined_at,
            'premium_since': None,
            'deaf': False,
            'mute': False,
            'pending': False,
            'flags': 0,
            'communication_disabled_until': None,
        }
        if with_user:
            d['user'] = self.users[m.user_id].payload()
        return d

    def _channel_payload(self, c: Channel) -> Dict[str, Any]:
        if c.is_dm:
            return {
                'id': str(c.id),
                'type': 1,
                'last_message_id': str(c.last_message_id) if c.last_message_id else None,
                'recipients': [self.users[c.recipient_id].payload()],  # type: ignore[index]
                'flags': 0,
            }
        d: Dict[str, Any] = {
            'id': str(c.id),
            'type': c.type,
            'guild_id': str(c.guild_id),
            'name': c.name,
            'last_message_id': str(c.last_message_id) if c.last_message_id else None,
            'rate_limit_per_user': 0,
            'flags': 0,
        }
        if c.is_thread:
            d.update(
                parent_id=str(c.parent_id),
                owner_id=str(c.owner_id),
                message_count=c.message_count,
                total_message_sent=c.message_count,
                member_count=len(c.thread_members),
                thread_metadata={
                    'archived': c.archived,
                    'auto_archive_duration': c.auto_archive_duration,
                    'archive_timestamp': iso(c.id),
                    'locked': c.locked,
                    'create_timestamp': iso(c.id),
                    **({'invitable': True} if c.type == 12 else {}),
                },
            )
        else:
            d.update(
                position=c.position,
                permission_overwrites=self._overwrites_payload(c),
                parent_id=None,
                topic=None,
                nsfw=False,
                default_auto_archive_duration=1440,
            )
        return d

    def _guild_payload(self, g: Guild) -> Dict[str, Any]:
        chans = [self.channels[cid] for cid in g.channel_ids]
        return {
            'id': str(g.id),
            'name': g.name,
            'icon': None,
            'splash': None,
            'discovery_splash': None,
            'banner': None,
            'description': None,
            'owner_id': str(g.owner_id),
            'region': 'us-west',
            'afk_channel_id': None,
            'afk_timeout': 300,
            'verification_level': 0,
            'default_message_notifications': 0,
            'explicit_content_filter': 0,
            'roles': [r.payload() for r in g.roles.values()],
            'emojis': [],
            'stickers': [],
            'features': [],
            'mfa_level': 0,
            'application_id': None,
            'system_channel_id': None,
            'system_channel_flags': 0,
            'rules_channel_id': None,
            'public_updates_channel_id': None,
            'safety_alerts_channel_id': None,
            'vanity_url_code': None,
            'premium_tier': 0,
            'premium_subscription_count': 0,
            'preferred_locale': g.locale,
            'nsfw_level': 0,
            'premium_progress_bar_enabled': False,
            'max_members': 500000,
            'max_video_channel_users': 25,
            'joined_at': iso(g.id),
            'large': False,
            'unavailable': False,
            'lazy': True,
            'member_count': len(g.members),
            'members': [self._member_payload(m) for m in g.members.values()],
            'channels': [self._channel_payload(c) for c in chans if not c.is_thread],
            'threads': [self._channel_payload(c) for c in chans if c.is_thread and not c.archived],
            'presences': [],
            'voice_states': [],
            'stage_instances': [],
            'guild_scheduled_events': [],
            'soundboard_sounds': [],
        }

    def _attachment_url(self, channel_id: int, att_id: int, filename: str) -> str:
        return f'{self.base_url}/attachments/{channel_id}/{att_id}/{filename}'

    def message_payload(self, m: Message) -> Dict[str, Any]:
        author = self.users[m.author_id]
        d: Dict[str, Any] = {
            'id': str(m.id),
            'channel_id': str(m.channel_id),
            'author': author.payload(),
            'content': m.content,
            'timestamp': iso(m.id),
            'edited_timestamp': m.edited_at,
            'tts': False,
            'mention_everyone': False,
            'mentions': [],
            'mention_roles': [],
            'attachments': [dict(a) for a in m.attachment_meta],
            'embeds': m.embeds,
            'components': m.components,
            'pinned': False,
            'type': m.type,
            'flags': m.flags,
        }
        if m.guild_id is not None:
            d['guild_id'] = str(m.guild_id)
            mem = self.guilds[m.guild_id].members.get(m.author_id)
            if mem is not None:
                d['member'] = self._member_payload(mem, with_user=False)
        if m.webhook_id is not None:
            d['webhook_id'] = str(m.webhook_id)
            d['application_id'] = str(self.application_id)
        if m.interaction_id is not None and m.interaction_id in self.interactions:
            ix = self.interactions[m.interaction_id]
            meta: Dict[str, Any] = {
                'id': str(ix.id),
                'type': ix.type,
                'user': self.users[ix.user_id].payload(),
                'authorizing_integration_owners': {'0': str(ix.guild_id)} if ix.guild_id else {'1': str(ix.user_id)},
            }
            if ix.type == 2:
                meta['name'] = ix.data.get('name')
            if ix.message_id is not None:
                meta['interacted_message_id'] = str(ix.message_id)
            d['interaction_metadata'] = meta
        if m.reference is not None:
            d['message_reference'] = m.reference
        if m.thread_id is not None and m.thread_id in self.channels:
            d['thread'] = self._channel_payload(self.channels[m.thread_id])
        if m.poll is not None:
            d['poll'] = m.poll
        return d

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = self.compress_gateway and request.query.get('compress') == 'zlib-stream'
        conn = _Conn(ws, compress)
        self._conns.append(conn)
        try:
            await conn.send({'op': OP_HELLO, 'd': {'heartbeat_interval': self.heartbeat_interval}, 's': None, 't': None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    data = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    data = json.loads(msg.data.decode())
                else:
                    break
                try:
                    await self._gateway_op(conn, data)
                except ConnectionResetError:
                    break
                if ws.closed:
                    break
        finally:
            self._conns.remove(conn)
            s = conn.session
            if s is not None and s.conn is conn:
                s.conn = None
                # a client-initiated clean close (discord.py's Client.close) ends the session
                if ws.close_code in (1000, 1001) and not getattr(conn, 'dropped', False):
                    s.dead = True
            self._notify()
        return ws

    async def _gateway_op(self, conn: _Conn, data: Dict[str, Any]) -> None:
        op, d = data.get('op'), data.get('d')
        if op == OP_HEARTBEAT:
            self._spawn(self._acknowledge(conn))
        elif op == OP_IDENTIFY:
            if d.get('token') != self.token:
                log.error('fakediscord: IDENTIFY with a bad token')
                await conn.ws.close(code=4004, message=b'Authentication failed.')
                return
            shard = tuple(d.get('shard') or (0, 1))
            s = _Session(secrets.token_hex(16), shard, int(d.get('intents', 0)))  # type: ignore[arg-type]
            self._sessions[s.id] = s
            self.identify_count += 1
            guilds = [g for g in self.guilds.values() if s.wants_guild(g.id)]
            ready = {
                'v': 10,
                'user': {**self.bot_user.payload(), 'verified': True, 'mfa_enabled': False, 'email': None},
                'guilds': [{'id': str(g.id), 'unavailable': True} for g in guilds],
                'session_id': s.id,
                'session_type': 'normal',
                'resume_gateway_url': self.gateway_url,
                'shard': list(shard),
                'application': {'id': str(self.application_id), 'flags': 0},
                'private_channels': [],
                'relationships': [],
                'presences': [],
                'user_settings': {},
                'guild_join_requests': [],
                'geo_ordered_rtc_regions': [],
                '_trace': ['fakediscord'],
            }
            async with s.lock:
                s.conn = conn
                conn.session = s
                await self._emit(s, 'READY', ready)
                for g in guilds:
                    await self._emit(s, 'GUILD_CREATE', self._guild_payload(g))
            self._notify()
        elif op == OP_RESUME:
            s = self._sessions.get(d.get('session_id'))
            if s is None or s.dead or d.get('token') != self.token:
                await conn.send({'op': OP_INVALID_SESSION, 'd': False, 's': None, 't': None})
                return
            last = d.get('seq') or 0
            async with s.lock:
                s.conn = conn
                conn.session = s
                for ev in s.buffer:
                    if ev['s'] > last:
                        await conn.send(ev)
                await self._emit(s, 'RESUMED', {'_trace': ['fakediscord']})
            self.resume_count += 1
            self._notify()
        elif op == OP_REQUEST_MEMBERS:
            gid = int(d['guild_id'])
            s = conn.session
            if s is None or gid not in self.guilds:
                return
            g = self.guilds[gid]
            wanted = d.get('user_ids')
            members = [
                m for m in g.members.values() if wanted is None or str(m.user_id) in [str(x) for x in wanted]
            ]
            q = d.get('query') or ''
            members = [m for m in members if self.users[m.user_id].name.lower().startswith(q.lower())]
            chunk = {
                'guild_id': str(gid),
                'members': [self._member_payload(m) for m in members],
                'chunk_index': 0,
                'chunk_count': 1,
                'not_found': [],
            }
            if d.get('nonce'):
                chunk['nonce'] = d['nonce']
            async with s.lock:
                await self._emit(s, 'GUILD_MEMBERS_CHUNK', chunk)
        elif op in (OP_PRESENCE, OP_VOICE):
            pass
        else:
            log.warning('fakediscord: unhandled gateway op %s: %s', op, data)

    async def _acknowledge(self, conn: _Conn) -> None:
        """Answer a heartbeat with HEARTBEAT_ACK after a round trip's delay, not at once.

        discord.py's keep-alive thread sends a heartbeat through the event loop, then records
        when it was sent; it measures latency as (ACK received) - (that record). In the same
        process, an immediate ACK can be handled on the loop before the thread has run again,
        so the latency was measured from the heartbeat before: a whole interval, logged as
        "Can't keep up, shard ID 0 websocket is 41.3s behind". Real Discord is never that quick.
        """
        await asyncio.sleep(self.heartbeat_ack_delay)
        if not conn.ws.closed:
            with contextlib.suppress(ConnectionResetError):
                await conn.send({'op': OP_HEARTBEAT_ACK, 'd': None, 's': None, 't': None})

    async def _emit(self, s: _Session, t: str, d: Dict[str, Any]) -> None:
        """Sequence and (if connected) send one dispatch. Caller holds s.lock."""
        s.seq += 1
        ev = {'op': OP_DISPATCH, 't': t, 's': s.seq, 'd': d}
        s.buffer.append(ev)
        if s.conn is not None:
            try:
                await s.conn.send(ev)
            except Exception as e:  # connection died mid-send: keep it buffered for RESUME
                log.info('fakediscord: send failed (%r); event %s buffered', e, s.seq)
                s.conn = None

    async def _dispatch(self, t: str, d: Dict[str, Any], guild_id: Optional[int] = None) -> None:
        for s in list(self._sessions.values()):
            if s.dead or not s.wants_guild(guild_id):
                continue
            async with s.lock:
                await self._emit(s, t, d)
        self._notify()

    async def drop_gateway(self, code: int = 4000, abort: bool = False) -> None:
        """Kill the bot's gateway connection(s) so discord.py reconnects and RESUMEs.

        Events dispatched until the RESUME are buffered and replayed."""
        for s in self._sessions.values():
            conn = s.conn
            if conn is None:
                continue
            async with s.lock:
                s.conn = None
            conn.dropped = True  # type: ignore[attr-defined]
            if abort:
                transport = conn.ws._req.transport if conn.ws._req is not None else None  # type: ignore[union-attr]
                if transport is not None:
                    transport.abort()
            else:
                try:
                    await asyncio.wait_for(conn.ws.close(code=code, message=b'fakediscord drop'), 1.0)
                except Exception:
                    pass
        self._notify()

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT (discord.py should reconnect and RESUME)."""
        for s in self._sessions.values():
            if s.conn is not None:
                await s.conn.send({'op': OP_RECONNECT, 'd': None, 's': None, 't': None})

    # ------------------------------------------------------------------ HTTP plumbing
    def fail_next(
        self, method: str, path_regex: str, status: int = 429, retry_after: float = 0.05, count: int = 1, code: int = 0
    ) -> None:
        """Make the next ``count`` requests matching method + path regex (searched in the path after /api/v10) fail."""
        self._fail_rules.append(
            {
                'method': method.upper(),
                're': re.compile(path_regex),
                'status': status,
                'retry_after': retry_after,
                'count': count,
                'code': code,
            }
        )

    def _register_routes(self) -> None:
        S = r'(\d+)'
        T = r'([^/]+)'
        r = self._route
        r('GET', r'/gateway', self.h_gateway, auth=False)
        r('GET', r'/gateway/bot', self.h_gateway)
        r('GET', r'/users/@me', self.h_me)
        r('GET', rf'/users/{S}', self.h_user)
        r('POST', r'/users/@me/channels', self.h_create_dm)
        r('GET', r'/oauth2/applications/@me', self.h_app)
        r('GET', r'/applications/@me', self.h_app)
        r('GET', rf'/applications/{S}/commands', self.h_get_commands)
        r('PUT', rf'/applications/{S}/commands', self.h_put_commands)
        r('POST', rf'/applications/{S}/commands', self.h_post_command)
        r('GET', rf'/applications/{S}/guilds/{S}/commands', self.h_get_commands)
        r('PUT', rf'/applications/{S}/guilds/{S}/commands', self.h_put_commands)
        r('POST', rf'/applications/{S}/guilds/{S}/commands', self.h_post_command)
        r('GET', rf'/guilds/{S}', self.h_guild)
        r('GET', rf'/guilds/{S}/channels', self.h_guild_channels)
        r('GET', rf'/guilds/{S}/members/{S}', self.h_guild_member)
        r('GET', rf'/guilds/{S}/roles', self.h_guild_roles)
        r('GET', rf'/channels/{S}', self.h_get_channel)
        r('PATCH', rf'/channels/{S}', self.h_patch_channel)
        r('POST', rf'/channels/{S}/typing', self.h_no_content)
        r('GET', rf'/channels/{S}/messages', self.h_history)
        r('POST', rf'/channels/{S}/messages', self.h_post_message)
        r('GET', rf'/channels/{S}/messages/{S}', self.h_get_message)
        r('PATCH', rf'/channels/{S}/messages/{S}', self.h_patch_message)
        r('DELETE', rf'/channels/{S}/messages/{S}', self.h_delete_message)
        r('PUT', rf'/channels/{S}/messages/{S}/reactions/{T}/@me', self.h_add_reaction)
        r('DELETE', rf'/channels/{S}/messages/{S}/reactions/{T}/@me', self.h_no_content)
        r('POST', rf'/channels/{S}/threads', self.h_create_thread)
        r('POST', rf'/channels/{S}/messages/{S}/threads', self.h_create_thread_from_message)
        r('PUT', rf'/channels/{S}/thread-members/@me', self.h_join_thread)
        r('PUT', rf'/channels/{S}/thread-members/{S}', self.h_add_thread_member)
        r('DELETE', rf'/channels/{S}/thread-members/@me', self.h_no_content)
        r('DELETE', rf'/channels/{S}/thread-members/{S}', self.h_no_content)
        r('POST', rf'/interactions/{S}/{T}/callback', self.h_callback, auth=False)
        r('POST', rf'/webhooks/{S}/{T}', self.h_webhook_post, auth=False)
        r('GET', rf'/webhooks/{S}/{T}/messages/{T}', self.h_webhook_get, auth=False)
        r('PATCH', rf'/webhooks/{S}/{T}/messages/{T}', self.h_webhook_patch, auth=False)
        r('DELETE', rf'/webhooks/{S}/{T}/messages/{T}', self.h_webhook_delete, auth=False)

    def _route(self, method: str, pattern: str, handler: Handler, auth: bool = True) -> None:
        self._routes.append((method, re.compile('^' + pattern + '$'), handler, auth))

    @staticmethod
    def _json(data: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> web.Response:
        # NB: discord.py's json_or_text compares Content-Type for *equality* with 'application/json',
        # so we can't use web.json_response (it appends '; charset=utf-8').
        h = {'Content-Type': 'application/json'}
        h.update(headers or {})
        return web.Response(body=json.dumps(data).encode(), status=status, headers=h)

    @staticmethod
    def _ratelimit_headers(method: str, path: str, remaining: int, reset_after: float) -> Dict[str, str]:
        template = re.sub(r'\d{5,}', ':id', path)
        bucket = hashlib.md5(f'{method} {template}'.encode()).hexdigest()[:16]
        return {
            'X-RateLimit-Limit': '50',
            'X-RateLimit-Remaining': str(remaining),
            'X-RateLimit-Reset': f'{time.time() + reset_after:.3f}',
            'X-RateLimit-Reset-After': f'{reset_after:.3f}',
            'X-RateLimit-Bucket': bucket,
        }

    async def _http(self, request: web.Request) -> web.StreamResponse:
        raw_path = request.path
        if raw_path.startswith('/attachments/'):
            return self._serve_attachment(raw_path)
        m = re.match(r'^/api(?:/v\d+)?(/.*)$', raw_path)
        method = request.method
        if not m:
            return self._unknown(method, raw_path)
        path = m.group(1)
        self.requests.append((method, path))
        if self.latency:
            await asyncio.sleep(self.latency)

        for rule in self._fail_rules:
            if rule['count'] > 0 and rule['method'] == method and rule['re'].search(path):
                rule['count'] -= 1
                await request.read()
                return self._injected_failure(rule, method, path)

        for rmethod, rx, handler, auth in self._routes:
            if rmethod != method:
                continue
            mm = rx.match(path)
            if not mm:
                continue
            if self.rate_limits is None:
                headers = self._ratelimit_headers(method, path, 49, 0.01)
            else:
                verdict = self.rate_limits.take(method, path)
                if verdict.retry_after is not None:
                    await request.read()
                    return self._too_many(method, path, verdict.headers, verdict.retry_after)
                headers = verdict.headers
            if auth and request.headers.get('Authorization') != f'Bot {self.token}':
                err = HTTPError(401, 0, '401: Unauthorized')
                self.http_errors.append((method, path, 401, err.body()))
                return self._json(err.body(), 401)
            try:
                result = await handler(request, *mm.groups())
            except HTTPError as e:
                log.warning('fakediscord: %s %s -> %s %s', method, path, e.status, e.body())
                self.http_errors.append((method, path, e.status, e.body()))
                self._notify()
                return self._json(e.body(), e.status)
            except Exception:
                log.exception('fakediscord: handler crashed for %s %s', method, path)
                raise
            finally:
                self._notify()
            if isinstance(result, web.StreamResponse):
                return result
            if result is None:
                return web.Response(status=204, headers=headers)
            return self._json(result, 200, headers)
        return self._unknown(method, path)

    def _too_many(self, method: str, path: str, headers: Dict[str, str], retry_after: float) -> web.Response:
        """A 429 as Discord sends it (the bucket's headers, Retry-After, the body's retry_after)."""
        self.rate_limited += 1
        headers = {
            **headers,
            'Retry-After': f'{retry_after:.3f}',
            'X-RateLimit-Scope': 'user',
            # discord.py treats a 429 without a Via header as a Cloudflare ban (no retry)
            'Via': '1.1 google',
        }
        body = {'message': 'You are being rate limited.', 'retry_after': retry_after, 'global': False, 'code': 0}
        log.info('fakediscord: 429 on %s %s (retry after %.2f s)', method, path, retry_after)
        return self._json(body, 429, headers)

    def _injected_failure(self, rule: Dict[str, Any], method: str, path: str) -> web.Response:
        status = rule['status']
        if status == 429:
            ra = rule['retry_after']
            return self._too_many(method, path, self._ratelimit_headers(method, path, 0, ra), ra)
        log.info('fakediscord: injected %s on %s %s', status, method, path)
        return self._json({'message': f'injected failure {status}', 'code': rule['code']}, status)

    def _unknown(self, method: str, path: str) -> web.Response:
        log.error('fakediscord: UNKNOWN ROUTE %s %s', method, path)
        self.unknown_routes.append((method, path))
        self._notify()
        return self._json({'message': f'404: Not Found (fakediscord has no route {method} {path})', 'code': 0}, 404)

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split('/')
        try:
            cid, aid = int(parts[2]), int(parts[3])
        except (IndexError, ValueError):
            return self._unknown('GET', path)
        for m in self.messages.values():
            if m.channel_id != cid:
                continue
            for (fn, data), meta in zip(m.attachments, m.attachment_meta):
                if int(meta['id']) == aid:
                    ctype = meta.get('content_type') or 'application/octet-stream'
                    return web.Response(body=data, headers={'Content-Type': ctype})
        return self._json({'message': 'Unknown attachment', 'code': 0}, 404)

    async def _read_body(self, request: web.Request) -> Tuple[Dict[str, Any], Dict[int, Tuple[str, bytes]]]:
        """(json payload, {file index: (filename, bytes)}) for JSON or multipart bodies."""
        files: Dict[int, Tuple[str, bytes]] = {}
        ctype = request.headers.get('Content-Type', '')
        if ctype.startswith('multipart/'):
            payload: Dict[str, Any] = {}
            reader = await request.multipart()
            auto = 0
            async for part in reader:
                name = part.name or ''
                if name == 'payload_json':
                    payload = json.loads(await part.text())
                    continue
                data = await part.read(decode=False)
                fm = re.match(r'^files\[(\d+)\]$', name) or re.match(r'^file(\d*)$', name)
                if fm:
                    idx = int(fm.group(1)) if fm.group(1) else auto
                    auto += 1
                    files[idx] = (part.filename or f'file{idx}', bytes(data))
                else:
                    log.warning('fakediscord: unexpected multipart field %r', name)
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        return json.loads(raw), files

    # ------------------------------------------------------------------ message construction
    def _channel(self, channel_id: int) -> Channel:
        c = self.channels.get(channel_id)
        if c is None:
            raise HTTPError(404, 10003, 'Unknown Channel')
        return c

    def _message(self, channel_id: int, message_id: int) -> Message:
        m = self.messages.get(message_id)
        if m is None or m.channel_id != channel_id or m.deleted or m.ephemeral:
            raise HTTPError(404, 10008, 'Unknown Message')
        return m

    def _guild_of(self, c: Channel) -> Optional[int]:
        return c.guild_id

    def _validate_message(self, payload: Dict[str, Any], n_files: int, creating: bool,
                          flags_before: int = 0) -> None:
        content = payload.get('content')
        flags = (payload.get('flags') or 0) | (flags_before & FLAG_COMPONENTS_V2)
        if flags & FLAG_COMPONENTS_V2 and (content or payload.get('embeds')):
            field_name = 'content' if content else 'embeds'
            raise _form_error(field_name, 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
                              f'Cannot use {field_name} with components v2')
        if content is not None and len(str(content)) > 2000:
            raise _form_error('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.')
        embeds = payload.get('embeds')
        if embeds is not None:
            if len(embeds) > 10:
                raise _form_error('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.')
            total = 0
            for i, e in enumerate(embeds):
                if len(e.get('title') or '') > 256:
                    raise _form_error(f'embeds.{i}.title', 'BASE_TYPE_MAX_LENGTH', 'Must be 256 or fewer in length.')
                if len(e.get('description') or '') > 4096:
                    raise _form_error(
                        f'embeds.{i}.description', 'BASE_TYPE_MAX_LENGTH', 'Must be 4096 or fewer in length.'
                    )
                if len(e.get('fields') or []) > 25:
                    raise _form_error(f'embeds.{i}.fields', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.')
                for j, f in enumerate(e.get('fields') or []):
                    if not f.get('name') or not f.get('value'):
                        raise _form_error(f'embeds.{i}.fields.{j}', 'BASE_TYPE_REQUIRED', 'This field is required')
                    if len(f['name']) > 256 or len(f['value']) > 1024:
                        raise _form_error(f'embeds.{i}.fields.{j}', 'BASE_TYPE_MAX_LENGTH', 'Field too long.')
                    total += len(f['name']) + len(f['value'])
                total += len(e.get('title') or '') + len(e.get('description') or '')
            if total > 6000:
                raise _form_error('embeds', 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000')
        components = payload.get('components')
        if components is not None:
            v2 = bool(flags & FLAG_COMPONENTS_V2)
            if not v2 and len(components) > 5:
                raise _form_error('components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.')
            if v2:
                _validate_layout(components)
            seen = set()
            for i, row in enumerate(components):
                if not v2 and row.get('type') != 1:
                    raise _form_error(f'components.{i}', 'UNION_TYPE_CHOICES', 'Top-level components must be action rows')
                if row.get('type') == 1 and len(row.get('components', [])) > 5:
                    raise _form_error(f'components.{i}.components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.')
            for c in walk_components(components):
                cid = c.get('custom_id')
                if cid is not None:
                    if len(cid) > 100:
                        raise _form_error('components', 'BASE_TYPE_MAX_LENGTH', f'custom_id {cid!r} too long')
                    if cid in seen:
                        raise _form_error('components', 'COMPONENT_CUSTOM_ID_DUPLICATED', f'duplicate custom_id {cid!r}')
                    seen.add(cid)
                if c.get('type') == 2:
                    if len(c.get('label') or '') > 80:
                        raise _form_error('components', 'BASE_TYPE_MAX_LENGTH', 'Button label must be 80 or fewer')
                    if c.get('style') != 5 and c.get('style') != 6 and cid is None:
                        raise _form_error('components', 'BASE_TYPE_REQUIRED', 'Button needs a custom_id')
                if c.get('type') == 3:
                    opts = c.get('options') or []
                    if not 1 <= len(opts) <= 25:
                        raise _form_error('components', 'BASE_TYPE_BAD_LENGTH', 'Select needs 1..25 options')
                    if len({o.get('value') for o in opts}) != len(opts):
                        raise _form_error('components', 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', 'Duplicate option values')
        if creating:
            has = (
                bool(content)
                or bool(embeds)
                or n_files > 0
                or bool(components)
                or bool(payload.get('sticker_ids'))
                or bool(payload.get('poll'))
            )
            if not has:
                raise HTTPError(400, 50006, 'Cannot send an empty message')

    def _apply_attachments(self, m: Message, payload: Dict[str, Any], files: Dict[int, Tuple[str, bytes]]) -> None:
        """Handle payload['attachments'] (kept existing ids + new {id: file index}) and uploaded files."""
        spec = payload.get('attachments')
        old = {int(meta['id']): (pair, meta) for pair, meta in zip(m.attachments, m.attachment_meta)}
        new_pairs: List[Tuple[str, bytes]] = []
        new_meta: List[Dict[str, Any]] = []
        used = set()

        def add_file(idx: int, a: Optional[Dict[str, Any]]) -> None:
            fn, data = files[idx]
            fn = (a or {}).get('filename') or fn
            aid = self._snow()
            ctype = mimetypes.guess_type(fn)[0] or 'application/octet-stream'
            meta = {
                'id': str(aid),
                'filename': fn,
                'size': len(data),
                'url': self._attachment_url(m.channel_id, aid, fn),
                'proxy_url': self._attachment_url(m.channel_id, aid, fn),
                'content_type': ctype,
            }
            if a and a.get('description'):
                meta['description'] = a['description']
            if ctype == 'image/png' and data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) >= 24:
                meta['width'] = int.from_bytes(data[16:20], 'big')
                meta['height'] = int.from_bytes(data[20:24], 'big')
            if m.ephemeral:
                meta['ephemeral'] = True
            # benchmarks drop the bytes so the fake's storage doesn't count as the bot's memory
            new_pairs.append((fn, data if self.keep_attachment_bytes else b''))
            new_meta.append(meta)
            used.add(idx)

        if spec is None:
            if not files:
                return  # leave attachments untouched
            for pair, meta in zip(m.attachments, m.attachment_meta):
                new_pairs.append(pair)
                new_meta.append(meta)
        else:
            for a in spec:
                aid = int(a['id'])
                if aid in files and aid not in used and aid not in old:
                    add_file(aid, a)
                elif aid in old:
                    pair, meta = old[aid]
                    new_pairs.append(pair)
                    new_meta.append(meta)
                else:
                    raise _form_error('attachments', 'ATTACHMENT_NOT_FOUND', f'Unknown attachment id {aid}')
        for idx in sorted(files):
            if idx not in used:
                add_file(idx, None)
        if len(new_pairs) > 10:
            raise _form_error('files', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.')
        m.attachments = new_pairs
        m.attachment_meta = new_meta

    def _new_message(
        self,
        channel: Channel,
        author_id: int,
        payload: Dict[str, Any],
        files: Dict[int, Tuple[str, bytes]],
        *,
        ephemeral_to: Optional[int] = None,
        interaction: Optional[Interaction] = None,
        mtype: int = 0,
        validate: bool = True,
    ) -> Message:
        if validate:
            self._validate_message(payload, len(files), creating=True)
        flags = int(payload.get('flags') or 0)
        ephemeral = ephemeral_to is not None
        if ephemeral:
            flags |= FLAG_EPHEMERAL
        else:
            flags &= ~FLAG_EPHEMERAL
        m = Message(
            id=self._snow(),
            channel_id=channel.id,
            author_id=author_id,
            content=str(payload.get('content') or ''),
            embeds=list(payload.get('embeds') or []),
            components=list(payload.get('components') or []),
            flags=flags,
            ephemeral=ephemeral,
            to_user=ephemeral_to,
            guild_id=channel.guild_id,
            type=mtype,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
            poll=payload.get('poll'),
        )
        ref = payload.get('message_reference')
        if ref:
            m.reference = {'message_id': str(ref.get('message_id')), 'channel_id': str(channel.id), 'type': 0}
            if channel.guild_id:
                m.reference['guild_id'] = str(channel.guild_id)
            if mtype == 0:
                m.type = 19
        self._apply_attachments(m, {k: v for k, v in payload.items() if k == 'attachments'}, files)
        self.messages[m.id] = m
        if not ephemeral:
            channel.last_message_id = m.id
            if channel.is_thread:
                channel.message_count += 1
        return m

    async def _announce_create(self, m: Message) -> None:
        if m.ephemeral:
            return
        if self.on_public_message is not None:
            self.on_public_message(m)
        d = self.message_payload(m)
        if m.guild_id is not None:
            mem = self.guilds[m.guild_id].members.get(m.author_id)
            if mem is not None:
                d['member'] = self._member_payload(mem, with_user=False)
        await self._dispatch('MESSAGE_CREATE', d, m.guild_id)

    def _edit(self, m: Message, payload: Dict[str, Any], files: Dict[int, Tuple[str, bytes]]) -> None:
        self._validate_message(payload, len(files), creating=False, flags_before=m.flags)
        m.edits.append(m.snapshot())
        if 'content' in payload:
            m.content = str(payload['content'] or '')
        if 'embeds' in payload:
            m.embeds = list(payload['embeds'] or [])
        if 'components' in payload:
            m.components = list(payload['components'] or [])
        if 'flags' in payload and payload['flags'] is not None:
            keep = m.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            m.flags = keep | (int(payload['flags']) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        m.flags &= ~FLAG_LOADING
        self._apply_attachments(m, payload, files)
        m.edited_at = iso(self._snow())

    async def _announce_update(self, m: Message) -> None:
        if m.ephemeral:
            return
        if self.on_public_message is not None:
            self.on_public_message(m)
        await self._dispatch('MESSAGE_UPDATE', self.message_payload(m), m.guild_id)

    async def _announce_delete(self, m: Message) -> None:
        if not m.ephemeral:
            d = {'id': str(m.id), 'channel_id': str(m.channel_id)}
            if m.guild_id:
                d['guild_id'] = str(m.guild_id)
            await self._dispatch('MESSAGE_DELETE', d, m.guild_id)

    # ------------------------------------------------------------------ REST handlers
    async def h_no_content(self, request: web.Request, *args: str) -> None:
        await request.read()
        return None

    async def h_gateway(self, request: web.Request) -> Dict[str, Any]:
        d: Dict[str, Any] = {'url': self.gateway_url}
        if request.path.endswith('/bot'):
            d.update(
                shards=1,
                session_start_limit={'total': 1000, 'remaining': 999, 'reset_after': 0, 'max_concurrency': 1},
            )
        return d

    async def h_me(self, request: web.Request) -> Dict[str, Any]:
        return {**self.bot_user.payload(), 'verified': True, 'mfa_enabled': False, 'email': None, 'locale': 'en-US'}

    async def h_user(self, request: web.Request, uid: str) -> Dict[str, Any]:
        u = self.users.get(int(uid))
        if u is None:
            raise HTTPError(404, 10013, 'Unknown User')
        return u.payload()

    async def h_app(self, request: web.Request) -> Dict[str, Any]:
        return {
            'id': str(self.application_id),
            'name': self.bot_user.name,
            'icon': None,
            'description': 'fake application',
            'summary': '',
            'type': None,
            'hook': True,
            'bot_public': True,
            'bot_require_code_grant': False,
            'verify_key': 'a' * 64,
            'owner': self.owner_user.payload(),
            'team': None,
            'flags': 0,
            'rpc_origins': [],
            'tags': [],
            'interactions_endpoint_url': None,
            'redirect_uris': [],
            'bot': self.bot_user.payload(),
            'approximate_guild_count': len(self.guilds),
            'integration_types_config': {'0': {}},
        }

    def _check_app(self, app: str) -> None:
        if int(app) != self.application_id:
            raise HTTPError(403, 50001, 'Missing Access')

    def _store_commands(self, guild_id: Optional[int], cmds: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        out = []
        names = set()
        for c in cmds:
            ctype = int(c.get('type', 1))
            name = c.get('name')
            if not name:
                raise _form_error('name', 'BASE_TYPE_REQUIRED', 'This field is required')
            if (ctype, name) in names:
                raise HTTPError(400, 50035, f'Application command names must be unique ({name})')
            names.add((ctype, name))
            if ctype == 1 and (not re.match(r'^[-_\w]{1,32}$', name) or name != name.lower()):
                raise _form_error('name', 'APPLICATION_COMMAND_INVALID_NAME', f'Command name is invalid: {name!r}')
            if ctype == 1 and not (1 <= len(c.get('description') or '') <= 100):
                raise _form_error('description', 'BASE_TYPE_BAD_LENGTH', f'Description of {name!r} must be 1-100 chars')
            if ctype == 1:
                _check_localizations(c, name)
            if len(c.get('options') or []) > 25:
                raise _form_error('options', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.')
            key = (guild_id, ctype, name)
            if key not in self._command_ids:
                self._command_ids[key] = self._snow()
            d = dict(c)
            d.update(
                id=str(self._command_ids[key]),
                application_id=str(self.application_id),
                version=str(self._snow()),
                type=ctype,
                default_member_permissions=c.get('default_member_permissions'),
                description=c.get('description', ''),
                options=c.get('options', []),
                nsfw=c.get('nsfw', False),
            )
            if guild_id is not None:
                d['guild_id'] = str(guild_id)
            out.append(d)
        if len([x for x in out if x['type'] == 1]) > 100:
            raise HTTPError(400, 30032, 'Maximum number of application commands reached (100)')
        return out

    async def h_get_commands(self, request: web.Request, app: str, gid: Optional[str] = None) -> List[Dict[str, Any]]:
        self._check_app(app)
        return self.commands(int(gid) if gid else None)

    async def h_put_commands(self, request: web.Request, app: str, gid: Optional[str] = None) -> List[Dict[str, Any]]:
        self._check_app(app)
        cmds, _ = await self._read_body(request)
        guild_id = int(gid) if gid else None
        if guild_id is not None and guild_id not in self.guilds:
            raise HTTPError(403, 50001, 'Missing Access')
        stored = self._store_commands(guild_id, cmds)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored

    async def h_post_command(self, request: web.Request, app: str, gid: Optional[str] = None) -> Dict[str, Any]:
        self._check_app(app)
        cmd, _ = await self._read_body(request)
        guild_id = int(gid) if gid else None
        current = [c for c in self.commands(guild_id) if not (c['name'] == cmd['name'] and c['type'] == cmd.get('type', 1))]
        stored = self._store_commands(guild_id, current + [cmd])
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored[-1]

    async def h_guild(self, request: web.Request, gid: str) -> Dict[str, Any]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, 'Unknown Guild')
        d = self._guild_payload(g)
        for k in ('members', 'channels', 'threads', 'presences', 'voice_states', 'joined_at', 'large', 'member_count'):
            d.pop(k, None)
        return d

    async def h_guild_channels(self, request: web.Request, gid: str) -> List[Dict[str, Any]]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, 'Unknown Guild')
        return [self._channel_payload(self.channels[c]) for c in g.channel_ids if not self.channels[c].is_thread]

    async def h_guild_roles(self, request: web.Request, gid: str) -> List[Dict[str, Any]]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, 'Unknown Guild')
        return [r.payload() for r in g.roles.values()]

    async def h_guild_member(self, request: web.Request, gid: str, uid: str) -> Dict[str, Any]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, 'Unknown Guild')
        m = g.members.get(int(uid))
        if m is None:
            raise HTTPError(404, 10007, 'Unknown Member')
        return self._member_payload(m)

    async def h_get_channel(self, request: web.Request, cid: str) -> Dict[str, Any]:
        return self._channel_payload(self._channel(int(cid)))

    async def h_patch_channel(self, request: web.Request, cid: str) -> Dict[str, Any]:
        c = self._channel(int(cid))
        body, _ = await self._read_body(request)
        if 'name' in body:
            c.name = body['name']
        if c.is_thread:
            if 'archived' in body:
                c.archived = bool(body['archived'])
            if 'locked' in body:
                c.locked = bool(body['locked'])
            if 'auto_archive_duration' in body:
                c.auto_archive_duration = int(body['auto_archive_duration'])
        d = self._channel_payload(c)
        await self._dispatch('THREAD_UPDATE' if c.is_thread else 'CHANNEL_UPDATE', d, c.guild_id)
        return d

    async def h_history(self, request: web.Request, cid: str) -> List[Dict[str, Any]]:
        c = self._channel(int(cid))
        limit = int(request.query.get('limit', 50))
        msgs = [m for m in self.channel_messages(c.id)]
        if 'before' in request.query:
            msgs = [m for m in msgs if m.id < int(request.query['before'])]
        if 'after' in request.query:
            msgs = [m for m in msgs if m.id > int(request.query['after'])]
            msgs = msgs[:limit]
        else:
            msgs = msgs[-limit:]
        return [self.message_payload(m) for m in reversed(msgs)]

    def _check_can_send(self, c: Channel, author_id: int, files: int = 0) -> None:
        if not c.is_dm:  # Discord refuses a write the bot may not make: 403, code 50013
            perms = self.channel_permissions(c, author_id)
            needed = [VIEW_CHANNEL, SEND_MESSAGES_IN_THREADS if c.is_thread else SEND_MESSAGES]
            if files:
                needed.append(ATTACH_FILES)
            if any(not perms & bit for bit in needed):
                raise HTTPError(403, 50013, 'Missing Permissions')
        if c.is_dm:
            u = self.users[c.recipient_id]  # type: ignore[index]
            if not u.dms_open:
                raise HTTPError(403, 50007, 'Cannot send messages to this user')
        elif c.is_thread and (c.archived or c.locked):
            if c.locked:
                raise HTTPError(403, 50083, 'Thread is locked')
            c.archived = False  # sending unarchives, like Discord

    async def h_post_message(self, request: web.Request, cid: str) -> Dict[str, Any]:
        c = self._channel(int(cid))
        payload, files = await self._read_body(request)
        self._check_can_send(c, self.bot_user.id, len(files))
        ref = payload.get('message_reference')
        if ref and ref.get('fail_if_not_exists', True):
            rm = self.messages.get(int(ref['message_id']))
            if rm is None or rm.deleted:
                raise _form_error('message_reference', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message')
        nonce = (c.id, str(payload.get('nonce')))
        if payload.get('enforce_nonce') and nonce in self._nonces:  # a retried send: the first one
            return self.message_payload(self.messages[self._nonces[nonce]])
        m = self._new_message(c, self.bot_user.id, payload, files)
        if payload.get('nonce') is not None:
            self._nonces[nonce] = m.id
        await self._announce_create(m)
        return self.message_payload(m)

    async def h_get_message(self, request: web.Request, cid: str, mid: str) -> Dict[str, Any]:
        return self.message_payload(self._message(int(cid), int(mid)))

    async def h_patch_message(self, request: web.Request, cid: str, mid: str) -> Dict[str, Any]:
        m = self._message(int(cid), int(mid))
        payload, files = await self._read_body(request)
        if m.author_id != self.bot_user.id:
            if set(payload) - {'flags'}:
                raise HTTPError(403, 50005, 'Cannot edit a message authored by another user')
        self._edit(m, payload, files)
        await self._announce_update(m)
        return self.message_payload(m)

    async def h_delete_message(self, request: web.Request, cid: str, mid: str) -> None:
        m = self._message(int(cid), int(mid))
        m.deleted = True
        await self._announce_delete(m)
        return None

    async def h_add_reaction(self, request: web.Request, cid: str, mid: str, emoji: str) -> None:
        m = self._message(int(cid), int(mid))
        from urllib.parse import unquote

        m.reactions.append(unquote(emoji))
        return None

    def _new_thread(self, parent: Channel, name: str, ttype: int, tid: Optional[int] = None, archive: int = 1440) -> Channel:
        if parent.is_dm or parent.is_thread:
            raise HTTPError(400, 50024, 'Cannot execute action on this channel type')
        if not name or len(name) > 100:
            raise _form_error('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.')
        t = Channel(
            id=tid or self._snow(),
            type=ttype,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=archive,
            thread_members=[self.bot_user.id],
        )
        self.channels[t.id] = t
        self.guilds[parent.guild_id].channel_ids.append(t.id)  # type: ignore[index]
        return t

    async def h_create_thread(self, request: web.Request, cid: str) -> Dict[str, Any]:
        parent = self._channel(int(cid))
        body, _ = await self._read_body(request)
        if not self.channel_permissions(parent, self.bot_user.id) & CREATE_PUBLIC_THREADS:
            raise HTTPError(403, 50013, 'Missing Permissions')
        t = self._new_thread(parent, body.get('name', ''), int(body.get('type') or 12), None, int(body.get('auto_archive_duration') or 1440))
        d = self._channel_payload(t)
        await self._dispatch('THREAD_CREATE', {**d, 'newly_created': True}, t.guild_id)
        return d

    async def h_create_thread_from_message(self, request: web.Request, cid: str, mid: str) -> Dict[str, Any]:
        parent = self._channel(int(cid))
        m = self._message(parent.id, int(mid))
        if m.thread_id is not None:
            raise HTTPError(400, 160004, 'A thread has already been created for this message')
        body, _ = await self._read_body(request)
        t = self._new_thread(parent, body.get('name', ''), 11, m.id, int(body.get('auto_archive_duration') or 1440))
        m.thread_id = t.id
        d = self._channel_payload(t)
        await self._dispatch('THREAD_CREATE', {**d, 'newly_created': True}, t.guild_id)
        return d

    async def h_join_thread(self, request: web.Request, cid: str) -> None:
        t = self._channel(int(cid))
        if self.bot_user.id not in t.thread_members:
            t.thread_members.append(self.bot_user.id)
        return None

    async def h_add_thread_member(self, request: web.Request, cid: str, uid: str) -> None:
        t = self._channel(int(cid))
        if int(uid) not in t.thread_members:
            t.thread_members.append(int(uid))
        return None

    async def h_create_dm(self, request: web.Request) -> Dict[str, Any]:
        body, _ = await self._read_body(request)
        uid = int(body['recipient_id'])
        if uid not in self.users:
            raise HTTPError(400, 50033, 'Invalid Recipients')
        return self._channel_payload(self.dm_channel(uid))

    # ------------------------------------------------------------------ interactions: REST side
    def _ix_by_token(self, token: str) -> Interaction:
        ix = self._interactions_by_token.get(token)
        if ix is None:
            raise HTTPError(404, 10015, 'Unknown Webhook')
        return ix

    async def h_callback(self, request: web.Request, iid: str, token: str) -> Any:
        payload, files = await self._read_body(request)
        ix = self.interactions.get(int(iid))
        if ix is None or ix.token != token:
            raise HTTPError(404, 10062, 'Unknown interaction')
        now = asyncio.get_running_loop().time()
        try:
            result = await self._callback(ix, payload, files, now)
        except HTTPError as e:
            ix.errors.append((e.status, e.body()))
            raise
        if request.query.get('with_response') in ('1', 'true', 'True'):
            return result
        return None

    async def _callback(
        self, ix: Interaction, payload: Dict[str, Any], files: Dict[int, Tuple[str, bytes]], now: float
    ) -> Dict[str, Any]:
        if ix.callback is not None:
            raise HTTPError(400, 40060, 'Interaction has already been acknowledged.')
        if self.interaction_timeout is not None and now - ix.created > self.interaction_timeout:
            raise HTTPError(404, 10062, 'Unknown interaction')
        ctype = int(payload.get('type', 0))
        data = payload.get('data') or {}
        allowed = {
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7},
        }[ix.type]
        if ctype not in allowed:
            raise HTTPError(400, 40043, f'Interaction callback type {ctype} is not valid for interaction type {ix.type}')
        if ix.type == 5 and ctype == 7 and ix.message_id is None:
            raise HTTPError(400, 40043, 'Modal was not opened from a message component: cannot update a message')
        channel = self.channels[ix.channel_id]
        msg: Optional[Message] = None
        ephemeral = bool(int(data.get('flags') or 0) & FLAG_EPHEMERAL)
        loading = False
        if ctype == 4:
            mtype = 20 if ix.type == 2 else 0
            msg = self._new_message(
                channel, self.bot_user.id, data, files,
                ephemeral_to=ix.user_id if ephemeral else None, interaction=ix, mtype=mtype,
            )
            ix.original = msg
            await self._announce_create(msg)
        elif ctype == 5:
            msg = self._new_message(
                channel, self.bot_user.id, {'flags': FLAG_LOADING}, {},
                ephemeral_to=ix.user_id if ephemeral else None, interaction=ix,
                mtype=20 if ix.type == 2 else 0, validate=False,
            )
            ix.original = msg
            loading = True
            await self._announce_create(msg)
        elif ctype == 6 and ix.type == 5:
            # Discord takes a silent acknowledgement of any modal submit, whether the message
            # its modal came from is still there or not (nothing is updated by it)
            target = self.messages.get(ix.message_id) if ix.message_id else None  # type: ignore[arg-type]
            ix.original = target if target is not None and not target.deleted else None
            msg = ix.original
            ephemeral = bool(msg and msg.ephemeral)
        elif ctype in (6, 7):
            target = self.messages.get(ix.message_id)  # type: ignore[arg-type]
            if target is None or target.deleted:
                raise HTTPError(404, 10008, 'Unknown Message')
            ix.original = target
            ephemeral = target.ephemeral
            if ctype == 7:
                self._edit(target, data, files)
                await self._announce_update(target)
            msg = target
        elif ctype == 9:
            self._validate_modal(data)
        elif ctype == 8:
            choices = data.get('choices') or []
            if len(choices) > 25:
                raise _form_error('data.choices', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.')
        ix.callback = Callback(type=ctype, data=data, ephemeral=ephemeral, message=msg if ctype != 6 else None)
        ix.callback_at = now
        self._notify()
        inter: Dict[str, Any] = {
            'id': str(ix.id),
            'type': ix.type,
            'response_message_loading': loading,
            'response_message_ephemeral': ephemeral,
        }
        result: Dict[str, Any] = {'interaction': inter}
        if msg is not None and ctype in (4, 5, 7):
            inter['response_message_id'] = str(msg.id)
            result['resource'] = {'type': ctype, 'message': self.message_payload(msg)}
        else:
            result['resource'] = {'type': ctype}
        return result

    def _validate_modal(self, data: Dict[str, Any]) -> None:
        if not data.get('custom_id'):
            raise _form_error('data.custom_id', 'BASE_TYPE_REQUIRED', 'This field is required')
        if not data.get('title') or len(data['title']) > 45:
            raise _form_error('data.title', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.')
        comps = data.get('components') or []
        if not 1 <= len(comps) <= 5:
            raise _form_error('data.components', 'BASE_TYPE_BAD_LENGTH', 'Modal needs 1..5 components')

    async def h_webhook_post(self, request: web.Request, app: str, token: str) -> Any:
        payload, files = await self._read_body(request)
        ix = self._ix_by_token(token)
        if int(app) != self.application_id:
            raise HTTPError(404, 10015, 'Unknown Webhook')
        if ix.callback is None:
            raise HTTPError(404, 10015, 'Unknown Webhook')  # follow-ups need an acknowledged interaction
        channel = self.channels[ix.channel_id]
        orig = ix.original
        if orig is not None and orig.loading and ix.callback.type == 5:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message
            self._edit(orig, {**payload, 'flags': payload.get('flags')}, files)
            m = orig
            ix.followups.append(m)
            await self._announce_update(m)
        else:
            ephemeral = bool(int(payload.get('flags') or 0) & FLAG_EPHEMERAL)
            m = self._new_message(
                channel, self.bot_user.id, payload, files,
                ephemeral_to=ix.user_id if ephemeral else None, interaction=ix,
            )
            ix.followups.append(m)
            await self._announce_create(m)
        if request.query.get('wait') in ('true', '1', 'True'):
            return self.message_payload(m)
        return None

    def _ix_message(self, ix: Interaction, mid: str) -> Message:
        if mid == '@original':
            m = ix.original
        else:
            m = self.messages.get(int(mid))
            if m is not None and m is not ix.original and m not in ix.followups:
                m = None
        if m is None or m.deleted:
            raise HTTPError(404, 10008, 'Unknown Message')
        return m

    async def h_webhook_get(self, request: web.Request, app: str, token: str, mid: str) -> Dict[str, Any]:
        return self.message_payload(self._ix_message(self._ix_by_token(token), mid))

    async def h_webhook_patch(self, request: web.Request, app: str, token: str, mid: str) -> Dict[str, Any]:
        payload, files = await self._read_body(request)
        ix = self._ix_by_token(token)
        m = self._ix_message(ix, mid)
        self._edit(m, payload, files)
        await self._announce_update(m)
        return self.message_payload(m)

    async def h_webhook_delete(self, request: web.Request, app: str, token: str, mid: str) -> None:
        ix = self._ix_by_token(token)
        m = self._ix_message(ix, mid)
        m.deleted = True
        await self._announce_delete(m)
        return None

    # ------------------------------------------------------------------ inspection
    def channel_messages(self, channel_id: int, include_deleted: bool = False) -> List[Message]:
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.channel_id == channel_id and not m.ephemeral and (include_deleted or not m.deleted)
            ),
            key=lambda m: m.id,
        )

    def dms(self, user_id: int) -> List[Message]:
        cid = self.users[user_id].dm_channel_id
        return [] if cid is None else self.channel_messages(cid)

    def ephemerals(self, user_id: int, include_deleted: bool = False) -> List[Message]:
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.ephemeral and m.to_user == user_id and (include_deleted or not m.deleted)
            ),
            key=lambda m: m.id,
        )

    def all_visible_to(self, user_id: int) -> List[Message]:
        return sorted((m for m in self.messages.values() if not m.deleted and self.visible_to(m, user_id)),
                      key=lambda m: m.id)

    def seen_by(self, user_id: int) -> List[Message]:
        """Every version of every message the user could ever see, deleted ones and earlier
        edits included: what a leak check must search (a retired table was read while live)."""
        return [version for m in sorted(self.messages.values(), key=lambda m: m.id)
                if self.visible_to(m, user_id) for version in (*m.edits, m)]

    def visible_to(self, m: Message, user_id: int) -> bool:
        """Whether Discord would show ``m`` to the user: an ephemeral to its user only, a DM to its
        recipient, a guild message to the guild's members."""
        if m.ephemeral:
            return m.to_user == user_id
        c = self.channels[m.channel_id]
        if c.is_dm:
            return c.recipient_id == user_id
        return c.guild_id is not None and user_id in self.guilds[c.guild_id].members

    def message(self, message_id: int) -> Message:
        return self.messages[message_id]

    def threads(self, parent_id: int) -> List[Channel]:
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == parent_id]

    # ------------------------------------------------------------------ control API: users act
    def _user_context(self, user_id: int, channel_id: int) -> Tuple[Channel, Dict[str, Any]]:
        if user_id not in self.users:
            raise FakeDiscordError(f'unknown user {user_id}')
        c = self.channels.get(channel_id)
        if c is None:
            raise FakeDiscordError(f'unknown channel {channel_id}')
        ctx: Dict[str, Any] = {'channel_id': str(c.id), 'channel': self._channel_payload(c)}
        if c.is_dm:
            if c.recipient_id != user_id:
                raise FakeDiscordError(f'user {user_id} is not in DM channel {channel_id}')
            ctx['user'] = self.users[user_id].payload()
            ctx['context'] = 1
            ctx['authorizing_integration_owners'] = {'0': str(user_id)} if False else {'1': str(user_id)}
            ctx['app_permissions'] = str(BOT_PERMISSIONS)
        else:
            g = self.guilds[c.guild_id]  # type: ignore[index]
            m = g.members.get(user_id)
            if m is None:
                raise FakeDiscordError(f'user {user_id} is not a member of guild {g.name!r} (use add_member)')
            ctx['guild_id'] = str(g.id)
            ctx['guild'] = {'id': str(g.id), 'locale': g.locale, 'features': []}
            ctx['guild_locale'] = g.locale
            ctx['member'] = {**self._member_payload(m), 'permissions': str(self.permissions(g.id, user_id))}
            ctx['context'] = 0
            ctx['authorizing_integration_owners'] = {'0': str(g.id)}
            ctx['app_permissions'] = str(self.channel_permissions(c, self.bot_user.id))
        return c, ctx

    async def _send_interaction(
        self, itype: int, user_id: int, channel_id: int, data: Dict[str, Any], message: Optional[Message] = None,
        extra_resolved: Optional[Dict[str, Any]] = None,
    ) -> Interaction:
        c, ctx = self._user_context(user_id, channel_id)
        iid = self._snow()
        token = 'ix.' + secrets.token_urlsafe(24)
        payload: Dict[str, Any] = {
            'id': str(iid),
            'application_id': str(self.application_id),
            'type': itype,
            'data': data,
            'token': token,
            'version': 1,
            'locale': self.users[user_id].locale,
            'entitlements': [],
            'entitlement_sku_ids': [],
            'attachment_size_limit': 10 * 1024 * 1024,
            **ctx,
        }
        if message is not None:
            payload['message'] = self.message_payload(message)
        ix = Interaction(
            id=iid, token=token, type=itype, user_id=user_id, channel_id=c.id, guild_id=c.guild_id,
            payload=payload, message_id=message.id if message else None,
            created=asyncio.get_running_loop().time(), _fake=self,
        )
        self.interactions[iid] = ix
        self._interactions_by_token[token] = ix
        await self._dispatch('INTERACTION_CREATE', payload, c.guild_id)
        return ix

    def find_command(self, name: str, channel_id: int, ctype: int = 1) -> Dict[str, Any]:
        c = self.channels.get(channel_id)
        pools: List[Iterable[Dict[str, Any]]] = []
        if c is not None and c.guild_id is not None:
            pools.append(self.guild_commands.get(c.guild_id, []))
        pools.append(self.global_commands)
        for pool in pools:
            for cmd in pool:
                if cmd['name'] == name and cmd.get('type', 1) == ctype:
                    return cmd
        known = [cmd['name'] for pool in pools for cmd in pool]
        raise FakeDiscordError(f'command /{name} is not registered for channel {channel_id}; registered: {known}')

    def _resolve_value(self, opt: Dict[str, Any], value: Any, resolved: Dict[str, Dict[str, Any]], guild_id: Optional[int]) -> Any:
        t = opt['type']
        name = opt['name']
        if t == OPT_STR:
            value = str(value)
        elif t == OPT_INT:
            if isinstance(value, bool) or int(value) != value:
                raise FakeDiscordError(f'option {name!r} needs an integer, got {value!r}')
            value = int(value)
        elif t == OPT_NUM:
            value = float(value)
        elif t == OPT_BOOL:
            value = bool(value)
        elif t in (OPT_USER, OPT_MENTIONABLE) and int(value) in self.users:
            uid = int(value)
            resolved.setdefault('users', {})[str(uid)] = self.users[uid].payload()
            if guild_id is not None and uid in self.guilds[guild_id].members:
                mem = self._member_payload(self.guilds[guild_id].members[uid], with_user=False)
                mem['permissions'] = str(self.permissions(guild_id, uid))
                resolved.setdefault('members', {})[str(uid)] = mem
            value = str(uid)
        elif t == OPT_CHANNEL:
            ch = self.channels.get(int(value))
            if ch is None:
                raise FakeDiscordError(f'option {name!r}: unknown channel {value!r}')
            cd = self._channel_payload(ch)
            cd['permissions'] = str(ALL_PERMISSIONS)
            resolved.setdefault('channels', {})[str(ch.id)] = cd
            value = str(ch.id)
        elif t in (OPT_ROLE, OPT_MENTIONABLE):
            rid = int(value)
            role = self.guilds[guild_id].roles.get(rid) if guild_id else None
            if role is None:
                raise FakeDiscordError(f'option {name!r}: unknown role {value!r}')
            resolved.setdefault('roles', {})[str(rid)] = role.payload()
            value = str(rid)
        elif t == OPT_USER:
            raise FakeDiscordError(f'option {name!r}: unknown user {value!r}')
        else:
            raise FakeDiscordError(f'option {name!r}: type {t} not supported by fakediscord')
        choices = opt.get('choices')
        if choices and value not in [ch['value'] for ch in choices]:
            raise FakeDiscordError(f'option {name!r}: {value!r} is not one of the choices {[ch["value"] for ch in choices]}')
        if t in (OPT_INT, OPT_NUM):
            if 'min_value' in opt and value < opt['min_value'] or 'max_value' in opt and value > opt['max_value']:
                raise FakeDiscordError(f'option {name!r}: {value!r} out of range')
        if t == OPT_STR:
            if len(value) < opt.get('min_length', 0) or len(value) > opt.get('max_length', 6000):
                raise FakeDiscordError(f'option {name!r}: length of {value!r} out of range')
        return value

    def _build_options(
        self, cmd: Dict[str, Any], options: Dict[str, Any], subcommand: Optional[str], group: Optional[str],
        guild_id: Optional[int], focused: Optional[str] = None,
    ) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
        resolved: Dict[str, Dict[str, Any]] = {}
        defs = cmd.get('options') or []
        path: List[Tuple[str, int]] = []
        if group is not None:
            g = next((o for o in defs if o['type'] == OPT_GROUP and o['name'] == group), None)
            if g is None:
                raise FakeDiscordError(f'/{cmd["name"]} has no subcommand group {group!r}')
            path.append((group, OPT_GROUP))
            defs = g.get('options') or []
        if subcommand is not None:
            s = next((o for o in defs if o['type'] == OPT_SUB and o['name'] == subcommand), None)
            if s is None:
                raise FakeDiscordError(f'/{cmd["name"]} {group or ""} has no subcommand {subcommand!r}')
            path.append((subcommand, OPT_SUB))
            defs = s.get('options') or []
        if any(o['type'] in (OPT_SUB, OPT_GROUP) for o in defs):
            raise FakeDiscordError(
                f'/{cmd["name"]} needs a subcommand/group: {[o["name"] for o in defs]}'
            )
        by_name = {o['name']: o for o in defs}
        leaf: List[Dict[str, Any]] = []
        for k, v in options.items():
            if k not in by_name:
                raise FakeDiscordError(f'/{cmd["name"]}: unknown option {k!r}; known: {list(by_name)}')
            o = by_name[k]
            if k == focused:
                leaf.append({'name': k, 'type': o['type'], 'value': str(v), 'focused': True})
            else:
                leaf.append({'name': k, 'type': o['type'], 'value': self._resolve_value(o, v, resolved, guild_id)})
        if focused is None:
            missing = [o['name'] for o in defs if o.get('required') and o['name'] not in options]
            if missing:
                raise FakeDiscordError(f'/{cmd["name"]}: missing required option(s) {missing}')
        elif focused not in by_name:
            raise FakeDiscordError(f'/{cmd["name"]}: unknown focused option {focused!r}')
        elif not by_name[focused].get('autocomplete'):
            raise FakeDiscordError(f'/{cmd["name"]}: option {focused!r} has no autocomplete')
        elif focused not in options:
            leaf.append({'name': focused, 'type': by_name[focused]['type'], 'value': '', 'focused': True})
        result = leaf
        for name, t in reversed(path):
            result = [{'name': name, 'type': t, 'options': result}]
        return result, resolved

    async def slash(
        self, user_id: int, channel_id: int, name: str, options: Optional[Dict[str, Any]] = None,
        subcommand: Optional[str] = None, group: Optional[str] = None,
    ) -> Interaction:
        """A user runs /name [group] [subcommand] with options in channel_id."""
        cmd = self.find_command(name, channel_id)
        c = self.channels[channel_id]
        if c.guild_id is not None and cmd.get('default_member_permissions') not in (None, ''):
            need = int(cmd['default_member_permissions'])
            if self.permissions(c.guild_id, user_id) & need != need:
                raise FakeDiscordError(f'user {user_id} lacks permissions {need} required by /{name}')
        if c.is_dm and cmd.get('contexts') is not None and 1 not in cmd['contexts']:
            raise FakeDiscordError(f'/{name} is not available in DMs')
        if c.is_dm and cmd.get('dm_permission') is False:
            raise FakeDiscordError(f'/{name} is not available in DMs')
        opts, resolved = self._build_options(cmd, options or {}, subcommand, group, c.guild_id)
        data: Dict[str, Any] = {'id': cmd['id'], 'name': name, 'type': 1, 'options': opts}
        if resolved:
            data['resolved'] = resolved
        if cmd.get('guild_id'):
            data['guild_id'] = cmd['guild_id']
        return await self._send_interaction(2, user_id, channel_id, data)

    async def autocomplete(
        self, user_id: int, channel_id: int, name: str, options: Optional[Dict[str, Any]] = None,
        focused: str = '', subcommand: Optional[str] = None, group: Optional[str] = None, timeout: float = WAIT_TIMEOUT,
    ) -> List[Dict[str, Any]]:
        """A user types into an autocomplete option; returns the bot's choices."""
        cmd = self.find_command(name, channel_id)
        c = self.channels[channel_id]
        opts, resolved = self._build_options(cmd, options or {}, subcommand, group, c.guild_id, focused=focused)
        data: Dict[str, Any] = {'id': cmd['id'], 'name': name, 'type': 1, 'options': opts}
        if cmd.get('guild_id'):
            data['guild_id'] = cmd['guild_id']
        ix = await self._send_interaction(4, user_id, channel_id, data)
        cb = await ix.response(timeout)
        return list(cb.data.get('choices') or [])

    def _clickable_message(self, user_id: int, message_id: int, force: bool) -> Message:
        m = self.messages.get(message_id)
        if m is None:
            raise FakeDiscordError(f'unknown message {message_id}')
        if not force:
            if m.deleted:
                raise FakeDiscordError(f'message {message_id} was deleted')
            if m.ephemeral and m.to_user != user_id:
                raise FakeDiscordError(f'message {message_id} is ephemeral for user {m.to_user}, not {user_id}')
        return m

    async def click(self, user_id: int, message_id: int, custom_id: str, force: bool = False) -> Interaction:
        """User clicks a button. force=True sends it even if the button is missing/disabled (stale client)."""
        m = self._clickable_message(user_id, message_id, force)
        b = m.button(custom_id)
        if not force:
            if b is None:
                raise FakeDiscordError(f'message {message_id} has no button {custom_id!r}; buttons: {m.buttons()}')
            if b.get('disabled'):
                raise FakeDiscordError(f'button {custom_id!r} on message {message_id} is disabled')
        data = {'custom_id': custom_id, 'component_type': 2}
        if b is not None and b.get('id') is not None:
            data['id'] = b['id']
        return await self._send_interaction(3, user_id, m.channel_id, data, message=m)

    async def select(
        self, user_id: int, message_id: int, custom_id: str, values: List[Any], force: bool = False
    ) -> Interaction:
        """User picks values in a select menu (string selects are validated against their options)."""
        m = self._clickable_message(user_id, message_id, force)
        s = m.select(custom_id)
        ctype = s['type'] if s is not None else 3
        values = [str(v) for v in values]
        if not force:
            if s is None:
                raise FakeDiscordError(f'message {message_id} has no select {custom_id!r}; selects: {m.selects()}')
            if s.get('disabled'):
                raise FakeDiscordError(f'select {custom_id!r} is disabled')
            lo, hi = s.get('min_values', 1), s.get('max_values', 1)
            if not lo <= len(values) <= hi:
                raise FakeDiscordError(f'select {custom_id!r} takes {lo}..{hi} values, got {values}')
            if ctype == 3:
                valid = [o['value'] for o in s.get('options', [])]
                bad = [v for v in values if v not in valid]
                if bad:
                    raise FakeDiscordError(f'select {custom_id!r}: {bad} not in options {valid}')
        data: Dict[str, Any] = {'custom_id': custom_id, 'component_type': ctype, 'values': values}
        guild_id = m.guild_id
        if ctype in (5, 7, 6, 8):
            resolved: Dict[str, Dict[str, Any]] = {}
            for v in values:
                kind = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_CHANNEL, 8: OPT_MENTIONABLE}[ctype]
                self._resolve_value({'type': kind, 'name': custom_id}, v, resolved, guild_id)
            data['resolved'] = resolved
        return await self._send_interaction(3, user_id, m.channel_id, data, message=m)

    async def submit_modal(
        self, user_id: int, interaction: Interaction, custom_id: Optional[str] = None,
        values: Optional[Dict[str, Any]] = None, timeout: float = WAIT_TIMEOUT,
    ) -> Interaction:
        """User submits the modal the bot showed in response to ``interaction``.

        values: {field custom_id: text (or list of values for selects in labels)}."""
        cb = await interaction.response(timeout)
        if cb.type != 9:
            raise FakeDiscordError(f'{interaction.describe()} was answered with callback type {cb.type}, not a modal')
        modal = cb.data
        if custom_id is not None and custom_id != modal['custom_id']:
            raise FakeDiscordError(f'modal custom_id is {modal["custom_id"]!r}, not {custom_id!r}')
        values = dict(values or {})
        known = set()

        def fill(comp: Dict[str, Any]) -> Optional[Dict[str, Any]]:
            t = comp.get('type')
            if t == 1:
                return {'type': 1, 'components': [x for x in (fill(c) for c in comp.get('components', [])) if x]}
            if t == 18:
                inner = fill(comp['component'])
                return {'type': 18, 'component': inner} if inner else None
            cid = comp.get('custom_id')
            if cid is None:
                return None
            known.add(cid)
            if t == 4:
                v = values.get(cid, comp.get('value') or '')
                if comp.get('required', True) and not v:
                    raise FakeDiscordError(f'modal field {cid!r} is required')
                if len(v) > comp.get('max_length', 4000) or (v and len(v) < comp.get('min_length', 0)):
                    raise FakeDiscordError(f'modal field {cid!r}: length of {v!r} out of range')
                return {'type': 4, 'custom_id': cid, 'value': v}
            v = values.get(cid, [])
            return {'type': t, 'custom_id': cid, 'values': [str(x) for x in (v if isinstance(v, list) else [v])]}

        comps = [x for x in (fill(c) for c in modal.get('components', [])) if x]
        unknown = set(values) - known
        if unknown:
            raise FakeDiscordError(f'modal {modal["custom_id"]!r} has no field(s) {unknown}; fields: {known}')
        data = {'custom_id': modal['custom_id'], 'components': comps}
        message = self.messages.get(interaction.message_id) if interaction.message_id else None
        return await self._send_interaction(5, user_id, interaction.channel_id, data, message=message)

    async def say(self, user_id: int, channel_id: int, content: str) -> Message:
        """A user types a plain message (dispatches MESSAGE_CREATE)."""
        c, _ = self._user_context(user_id, channel_id)
        m = self._new_message(c, user_id, {'content': content}, {})
        await self._announce_create(m)
        return m

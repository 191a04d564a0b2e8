"""Plain records that make up the fake Discord's world and its history."""

from __future__ import annotations

import copy
import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

DISCORD_EPOCH = 1420070400000
# How long a wait for the bot (an answer, a follow-up, a message) lasts before it fails: a guard
# against a hang, not a measurement, so generous enough for a busy machine (tests run in two
# workers on two cores, beside other work). Waits that expect no answer pass their own timeout.
WAIT_TIMEOUT = 15.0
CALLBACK_IN_FLIGHT = 0.5  # seconds a callback the fake accepted just in time may take to land

# --- permission bits --------------------------------------------------------
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS
ALL_PERMISSIONS = (1 << 51) - 1

# --- message flags -----------------------------------------------------------
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15


def snowflake_time(sid: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(((sid >> 22) + DISCORD_EPOCH) / 1000, tz=datetime.timezone.utc)


def iso(sid_or_dt: Any) -> str:
    if isinstance(sid_or_dt, int):
        sid_or_dt = snowflake_time(sid_or_dt)
    return sid_or_dt.isoformat()


class SnowflakeFactory:
    """Monotonic snowflakes; each id gets its own millisecond so shard math spreads guilds."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._inc = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        ms = max(ms, self._last_ms + 1)
        self._last_ms = ms
        return (ms << 22) | (1 << 17) | (next(self._inc) & 0xFFF)


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    dm_channel_id: Optional[int] = None
    locale: str = 'en-US'  # the language of the user's Discord client, sent with each interaction

    def payload(self) -> Dict[str, Any]:
        d = {
            'id': str(self.id),
            'username': self.name,
            'discriminator': '0',
            'global_name': None if self.bot else self.name,
            'avatar': None,
            'public_flags': 0,
            'flags': 0,
        }
        if self.bot:
            d['bot'] = True
        return d


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> Dict[str, Any]:
        return {
            'id': str(self.id),
            'name': self.name,
            'color': 0,
            'colors': {'primary_color': 0, 'secondary_color': None, 'tertiary_color': None},
            'hoist': False,
            'icon': None,
            'unicode_emoji': None,
            'position': self.position,
            'permissions': str(self.permissions),
            'managed': self.managed,
            'mentionable': False,
            'flags': 0,
        }


@dataclass
class Member:
    guild_id: int
    user_id: int
    roles: List[int] = field(default_factory=list)
    joined_at: str = ''


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: Dict[int, Role] = field(default_factory=dict)
    members: Dict[int, Member] = field(default_factory=dict)
    channel_ids: List[int] = field(default_factory=list)
    locale: str = 'en-US'  # the server's preferred locale (a Community server's language)


@dataclass
class Channel:
    id: int
    type: int  # 0 text, 1 DM, 11 public thread, 12 private thread
    name: Optional[str] = None
    guild_id: Optional[int] = None
    parent_id: Optional[int] = None  # for threads
    position: int = 0
    recipient_id: Optional[int] = None  # for DMs
    owner_id: Optional[int] = None  # for threads
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    last_message_id: Optional[int] = None
    message_count: int = 0
    thread_members: List[int] = field(default_factory=list)
    #: permission overwrites: role or member id -> (allow, deny) bits, as channel settings hold them
    overwrites: Dict[int, Tuple[int, int]] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def is_dm(self) -> bool:
        return self.type == 1


def walk_components(components: Any) -> Iterator[Dict[str, Any]]:
    """Every component dict in a (possibly nested, components-v2) component tree."""
    if isinstance(components, list):
        for c in components:
            yield from walk_components(c)
    elif isinstance(components, dict):
        yield components
        for key in ('components', 'accessory', 'component'):
            if key in components:
                yield from walk_components(components[key])


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ''
    embeds: List[Dict[str, Any]] = field(default_factory=list)
    components: List[Dict[str, Any]] = field(default_factory=list)
    attachments: List[Tuple[str, bytes]] = field(default_factory=list)
    flags: int = 0
    ephemeral: bool = False
    to_user: Optional[int] = None
    edits: List['Message'] = field(default_factory=list)
    deleted: bool = False
    guild_id: Optional[int] = None
    type: int = 0
    interaction_id: Optional[int] = None
    webhook_id: Optional[int] = None
    reference: Optional[Dict[str, Any]] = None
    thread_id: Optional[int] = None
    edited_at: Optional[str] = None
    attachment_meta: List[Dict[str, Any]] = field(default_factory=list)  # parallel to attachments
    reactions: List[str] = field(default_factory=list)
    poll: Optional[Dict[str, Any]] = None

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def buttons(self) -> List[Tuple[Optional[str], Optional[str], bool]]:
        """(custom_id, label, disabled) for every button (link buttons have custom_id None)."""
        return [
            (c.get('custom_id'), c.get('label'), bool(c.get('disabled', False)))
            for c in walk_components(self.components)
            if c.get('type') == 2
        ]

    def button(self, custom_id: str) -> Optional[Dict[str, Any]]:
        for c in walk_components(self.components):
            if c.get('type') == 2 and c.get('custom_id') == custom_id:
                return c
        return None

    def selects(self) -> List[Tuple[str, List[Tuple[str, str]]]]:
        """(custom_id, [(value, label), ...]) for every select menu (non-string selects have no options)."""
        return [
            (c.get('custom_id'), [(o.get('value'), o.get('label')) for o in c.get('options', [])])
            for c in walk_components(self.components)
            if c.get('type') in (3, 5, 6, 7, 8)
        ]

    def select(self, custom_id: str) -> Optional[Dict[str, Any]]:
        for c in walk_components(self.components):
            if c.get('type') in (3, 5, 6, 7, 8) and c.get('custom_id') == custom_id:
                return c
        return None

    def text(self) -> str:
        """Content plus all embed/text-display text, for loose assertions."""
        parts = [self.content or '']
        for e in self.embeds:
            for k in ('title', 'description'):
                if e.get(k):
                    parts.append(str(e[k]))
            for f in e.get('fields', []) or []:
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get('footer') or {}).get('text'):
                parts.append(e['footer']['text'])
            if (e.get('author') or {}).get('name'):
                parts.append(e['author']['name'])
        for c in walk_components(self.components):
            if c.get('type') == 10 and c.get('content'):
                parts.append(c['content'])
        return '\n'.join(p for p in parts if p)

    def alt_texts(self) -> List[str]:
        """The alt text of every image the message shows (media items, thumbnails, files)."""
        found = [str(item.get('description') or '') for c in walk_components(self.components)
                 for item in (c.get('items') or [c] if c.get('type') in (11, 12) else [])]
        found += [str(meta.get('description') or '') for meta in self.attachment_meta]
        return [text for text in found if text]

    def readable(self) -> str:
        """Everything a reader of the message sees or hears: its text, labels, placeholders,
        option descriptions and alt texts (what a leak check must search)."""
        parts = [self.text()]
        for c in walk_components(self.components):
            parts += [str(c.get(k) or '') for k in ('label', 'placeholder')]
            for option in c.get('options') or []:
                parts += [str(option.get('label') or ''), str(option.get('description') or '')]
        parts += self.alt_texts()
        return '\n'.join(p for p in parts if p)

    def snapshot(self) -> 'Message':
        m = copy.copy(self)
        m.embeds = copy.deepcopy(self.embeds)
        m.components = copy.deepcopy(self.components)
        m.attachments = list(self.attachments)
        m.attachment_meta = copy.deepcopy(self.attachment_meta)
        m.edits = []
        return m

    def __repr__(self) -> str:
        tag = ' ephemeral->%s' % self.to_user if self.ephemeral else ''
        return (
            f'<Message id={self.id} ch={self.channel_id} author={self.author_id}{tag} '
            f'content={self.content!r} embeds={len(self.embeds)} files={[a[0] for a in self.attachments]} '
            f'buttons={self.buttons()}{" deleted" if self.deleted else ""}>'
        )


@dataclass
class Callback:
    """The bot's initial response to an interaction. Supports both attribute and ['key'] access."""

    type: int
    data: Dict[str, Any]
    ephemeral: bool
    message: Optional[Message]

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


@dataclass
class Interaction:
    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: Optional[int]
    payload: Dict[str, Any]
    message_id: Optional[int] = None  # message the component lives on
    created: float = 0.0
    callback: Optional[Callback] = None
    callback_at: Optional[float] = None
    followups: List[Message] = field(default_factory=list)
    original: Optional[Message] = None
    errors: List[Tuple[int, Dict[str, Any]]] = field(default_factory=list)
    _fake: Any = field(default=None, repr=False)

    @property
    def data(self) -> Dict[str, Any]:
        return self.payload.get('data', {})

    @property
    def latency(self) -> Optional[float]:
        if self.callback_at is None:
            return None
        return self.callback_at - self.created

    @property
    def responded(self) -> bool:
        return self.callback is not None

    @property
    def modal(self) -> Optional[Dict[str, Any]]:
        if self.callback is not None and self.callback.type == 9:
            return self.callback.data
        return None

    @property
    def choices(self) -> Optional[List[Dict[str, Any]]]:
        if self.callback is not None and self.callback.type == 8:
            return self.callback.data.get('choices', [])
        return None

    async def response(self, timeout: float = WAIT_TIMEOUT) -> Callback:
        """Wait for the bot's initial interaction callback: no longer than the fake takes one
        (Discord's 3 s, and a moment for a callback it is handling then), after which none can
        come, and a person's client says the interaction failed."""
        deadline = self._fake.interaction_timeout
        if deadline is not None:
            timeout = min(timeout, deadline + CALLBACK_IN_FLIGHT)
        return await self._fake.wait_for(
            lambda: self.callback, timeout=timeout, what=f'a callback for interaction {self.describe()}'
        )

    async def wait_followups(self, n: int = 1, timeout: float = WAIT_TIMEOUT) -> List[Message]:
        await self._fake.wait_for(
            lambda: len(self.followups) >= n, timeout=timeout, what=f'{n} followup(s) for {self.describe()}'
        )
        return self.followups

    async def wait_answer(self, timeout: float = WAIT_TIMEOUT) -> Message:
        """The bot's first words to the user: the response message itself, or, after a
        deferral, the first follow-up."""

        def check() -> Optional[Message]:
            if self.followups:
                return self.followups[0]
            m = self.original
            if m is not None and not m.loading and self.callback is not None \
                    and self.callback.type == 4:
                return m
            return None

        return await self._fake.wait_for(check, timeout=timeout, what=f'an answer to {self.describe()}')

    async def wait_original(self, predicate: Any = None, timeout: float = WAIT_TIMEOUT) -> Message:
        """Wait until the original response message exists, is not loading, and matches predicate(msg)."""

        def check() -> Optional[Message]:
            m = self.original
            if m is None or m.loading:
                return None
            if predicate is not None and not predicate(m):
                return None
            return m

        return await self._fake.wait_for(check, timeout=timeout, what=f'the original response of {self.describe()}')

    def describe(self) -> str:
        d = self.data
        name = d.get('name') or d.get('custom_id')
        return f'<Interaction id={self.id} type={self.type} {name!r} user={self.user_id}>'

"""End-to-end tests of the fake Discord server with a tiny, unmodified discord.py bot."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from typing import List

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from fakediscord import FakeDiscord, FakeDiscordError


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack('>IIBBBBB', 2, 3, 8, 2, 0, 0, 0)
    raw = b''.join(b'\x00' + b'\xff\x00\x00' * 2 for _ in range(3))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


PNG = tiny_png()


class BoardView(discord.ui.View):
    """Persistent view (timeout=None, fixed custom_id) registered with bot.add_view."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label='Move', custom_id='b:1', style=discord.ButtonStyle.primary)
    async def move(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f'you moved, {interaction.user.name}', ephemeral=True)
        assert interaction.message is not None
        await interaction.message.edit(content=f'last move by {interaction.user.name}')

    @discord.ui.button(label='Refresh', custom_id='b:2')
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6: deferred update of the message
        await interaction.edit_original_response(content='refreshed')


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r'count:(?P<n>\d+)'):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f'count {n}', custom_id=f'count:{n}'))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[override]
        return cls(int(match['n']))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f'count={self.n + 1}', view=view)


class Feedback(discord.ui.Modal, title='Feedback'):
    text = discord.ui.TextInput(label='Your thoughts', custom_id='fb:text')

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f'thanks: {self.text.value}', ephemeral=True)


class MenuView(discord.ui.View):
    @discord.ui.select(
        custom_id='menu:pick',
        options=[discord.SelectOption(label='Red', value='red'), discord.SelectOption(label='Blue', value='blue')],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f'picked {select.values[0]}', view=self)

    @discord.ui.button(label='Feedback', custom_id='menu:modal')
    async def modal(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(Feedback())


class TinyBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild_obj = discord.Object(guild_id)
        self.dm_errors: List[Exception] = []
        self.events: List[str] = []
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(BoardView())
        self.add_dynamic_items(Counter)
        self.tree.copy_global_to(guild=self.guild_obj)
        await self.tree.sync(guild=self.guild_obj)
        await self.tree.sync()

    async def on_resumed(self) -> None:
        self.events.append('resumed')

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description='Ping')
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message('pong', ephemeral=True)

        @tree.command(description='Post a board')
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message('posting', ephemeral=True)
            await interaction.channel.send(  # type: ignore[union-attr]
                'the board', file=discord.File(io.BytesIO(PNG), 'board.png'), view=BoardView()
            )

        @tree.command(description='A counter')
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            await interaction.response.send_message('count=0', view=view)

        @tree.command(description='Menu')
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message('menu', view=MenuView(), ephemeral=True)

        @tree.command(description='Feedback')
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Feedback())

        @tree.command(description='DM me')
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send('hello in private')
            except discord.HTTPException as e:
                self.dm_errors.append(e)
                await interaction.response.send_message('cannot DM you', ephemeral=True)
            else:
                await interaction.response.send_message('check your DMs', ephemeral=True)

        @tree.command(description='Slow')
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send('done thinking', file=discord.File(io.BytesIO(b'log'), 'log.txt'))
            await interaction.followup.send('secret extra', ephemeral=True)

        @tree.command(description='Private slow')
        async def pslow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content='only you see this')

        @tree.command(description='Card')
        async def card(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                'your card', file=discord.File(io.BytesIO(PNG), 'card.png'), ephemeral=True
            )

        @tree.command(description='Late')
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message('too late')
            except discord.NotFound as e:
                self.dm_errors.append(e)

        @tree.command(description='Start a game')
        @app_commands.describe(game='Game name', seats='Seats')
        async def start(interaction: discord.Interaction, game: str, seats: int = 2) -> None:
            await interaction.response.send_message(f'starting {game} with {seats}')
            msg = await interaction.original_response()
            thread = await msg.create_thread(name=f'{game} table')
            await thread.send('welcome to the table')

        @start.autocomplete('game')
        async def game_ac(interaction: discord.Interaction, current: str) -> List[app_commands.Choice[str]]:
            names = ['gatekeeper', 'keysmith', 'lockpick']
            return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

        config = app_commands.Group(name='config', description='Settings')

        @config.command(name='set', description='Set a value')
        async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
            await interaction.response.send_message(f'{key}={value}', ephemeral=True)

        tree.add_command(config)


@pytest_asyncio.fixture
async def env(fake_discord: FakeDiscord):
    fake = fake_discord
    guild = fake.add_guild('Test Guild')
    chan = fake.add_channel(guild.id, 'games')
    alice = fake.add_user('alice')
    bob = fake.add_user('bob', dms_open=False)
    fake.add_member(guild.id, alice.id)
    fake.add_member(guild.id, bob.id, manage_guild=True)
    bot = TinyBot(guild.id)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_ready(10)
        await fake.wait_commands(guild.id)
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        yield fake, bot, guild, chan, alice, bob
    finally:
        await bot.close()
        try:
            await asyncio.wait_for(task, 5)
        except Exception:
            task.cancel()
    assert fake.unknown_routes == [], fake.unknown_routes


async def test_ping_is_ephemeral(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'ping')
    cb = await ix.response()
    assert cb.type == 4 and cb.ephemeral and cb['data']['content'] == 'pong'
    assert [m.content for m in fake.ephemerals(alice.id)] == ['pong']
    assert fake.ephemerals(bob.id) == [] and fake.channel_messages(chan.id) == []
    # commands were synced to the guild (copy_global_to) and globally
    assert {c['name'] for c in fake.commands(guild.id)} >= {'ping', 'board', 'config'}
    assert {c['name'] for c in fake.commands()} >= {'ping'}
    with pytest.raises(FakeDiscordError):
        await fake.slash(alice.id, chan.id, 'nope')
    assert ix.latency is not None and ix.latency < 3


async def test_board_attachment_button_and_persistent_view(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'board')
    await ix.response()
    board = (await fake.wait_for(lambda: fake.channel_messages(chan.id)))[0]
    assert board.content == 'the board'
    assert board.attachments == [('board.png', PNG)]
    assert board.attachment_meta[0]['width'] == 2 and board.attachment_meta[0]['height'] == 3
    assert board.buttons() == [('b:1', 'Move', False), ('b:2', 'Refresh', False)]
    # the attachment URL is served by the fake
    async with discord.http.aiohttp.ClientSession() as s:
        async with s.get(board.attachment_meta[0]['url']) as r:
            assert await r.read() == PNG

    click = await fake.click(bob.id, board.id, 'b:1')
    cb = await click.response()
    assert cb.type == 4 and cb.ephemeral and 'bob' in cb.data['content']
    await fake.wait_for(lambda: board.content == 'last move by bob')
    assert board.edits[0].content == 'the board'
    assert board.attachments == [('board.png', PNG)]  # kept across the edit
    with pytest.raises(FakeDiscordError):
        await fake.click(bob.id, board.id, 'b:404')
    ref = await fake.click(alice.id, board.id, 'b:2')
    assert (await ref.response()).type == 6
    await fake.wait_for(lambda: board.content == 'refreshed')
    assert ref.original is board


async def test_ephemeral_defer_edit_and_ephemeral_file(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'pslow')
    cb = await ix.response()
    assert cb.type == 5 and cb.ephemeral
    m = await ix.wait_original()
    assert m.ephemeral and m.content == 'only you see this' and m.to_user == alice.id
    ix = await fake.slash(alice.id, chan.id, 'card')
    cb = await ix.response()
    assert cb.message.attachments == [('card.png', PNG)] and cb.message.ephemeral
    assert [x.content for x in fake.ephemerals(alice.id)] == ['only you see this', 'your card']
    assert fake.channel_messages(chan.id) == []


async def test_late_interaction_response_is_unknown(env):
    fake, bot, guild, chan, alice, bob = env
    fake.interaction_timeout = 0.1
    ix = await fake.slash(alice.id, chan.id, 'late')
    await fake.wait_for(lambda: ix.errors)
    assert ix.errors[0][1]['code'] == 10062 and ix.callback is None
    await fake.wait_for(lambda: bot.dm_errors)
    assert isinstance(bot.dm_errors[0], discord.NotFound)


async def test_dynamic_item_update_message_and_stale_click(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'counter')
    cb = await ix.response()
    msg = cb.message
    assert msg is not None and not msg.ephemeral and msg.buttons() == [('count:0', 'count 0', False)]
    c1 = await fake.click(alice.id, msg.id, 'count:0')
    assert (await c1.response()).type == 7
    assert msg.content == 'count=1' and msg.buttons() == [('count:1', 'count 1', False)]
    # A stale client still shows count:0. The interaction carries the *current* message, and
    # discord.py only runs a DynamicItem whose custom_id is present in that message: the click
    # is silently dropped (the user would see "This interaction failed").
    stale = await fake.click(bob.id, msg.id, 'count:0', force=True)
    with pytest.raises(TimeoutError):
        await stale.response(timeout=0.3)
    assert msg.content == 'count=1'
    with pytest.raises(FakeDiscordError):
        await fake.click(bob.id, msg.id, 'count:0')  # without force: no such button any more


async def test_ephemeral_menu_select_and_modal(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'menu')
    menu = (await ix.response()).message
    assert menu.ephemeral and menu.to_user == alice.id
    assert menu.selects() == [('menu:pick', [('red', 'Red'), ('blue', 'Blue')])]
    with pytest.raises(FakeDiscordError):
        await fake.select(alice.id, menu.id, 'menu:pick', ['green'])
    with pytest.raises(FakeDiscordError):  # bob can't see alice's ephemeral
        await fake.click(bob.id, menu.id, 'menu:modal')
    sel = await fake.select(alice.id, menu.id, 'menu:pick', ['blue'])
    assert (await sel.response()).type == 7
    assert menu.content == 'picked blue'

    opener = await fake.click(alice.id, menu.id, 'menu:modal')
    assert (await opener.response()).type == 9
    assert opener.modal['title'] == 'Feedback'
    sub = await fake.submit_modal(alice.id, opener, values={'fb:text': 'great game'})
    cb = await sub.response()
    assert cb.ephemeral and cb.data['content'] == 'thanks: great game'

    # modal straight from a slash command
    ix2 = await fake.slash(alice.id, chan.id, 'feedback')
    sub2 = await fake.submit_modal(alice.id, ix2, 'Feedback' and None, {'fb:text': 'meh'})
    assert (await sub2.response()).data['content'] == 'thanks: meh'
    assert [m.content for m in fake.ephemerals(alice.id)][-2:] == ['thanks: great game', 'thanks: meh']


async def test_dms_open_and_closed(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'dm')
    assert (await ix.response()).data['content'] == 'check your DMs'
    assert [m.content for m in fake.dms(alice.id)] == ['hello in private']
    ix = await fake.slash(bob.id, chan.id, 'dm')
    assert (await ix.response()).data['content'] == 'cannot DM you'
    (err,) = bot.dm_errors
    assert isinstance(err, discord.Forbidden) and err.code == 50007
    assert fake.dms(bob.id) == []
    visible = fake.all_visible_to(alice.id)
    assert [m.content for m in visible] == ['hello in private', 'check your DMs']


async def test_defer_followups_autocomplete_subcommands_threads(env):
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'slow')
    cb = await ix.response()
    assert cb.type == 5 and not cb.ephemeral
    fups = await ix.wait_followups(2)
    # the first follow-up after a thinking defer replaces the loading message
    assert fups[0] is ix.original and fups[0].content == 'done thinking' and not fups[0].loading
    assert fups[0].attachments == [('log.txt', b'log')]
    assert fups[1].ephemeral and fups[1].content == 'secret extra'
    assert [m.content for m in fake.channel_messages(chan.id)] == ['done thinking']

    choices = await fake.autocomplete(alice.id, chan.id, 'start', {'game': 'ke'}, focused='game')
    assert choices == [{'name': 'keysmith', 'value': 'keysmith'}]

    ix = await fake.slash(alice.id, chan.id, 'start', {'game': 'keysmith', 'seats': 3})
    cb = await ix.response()
    assert cb.data['content'] == 'starting keysmith with 3'
    (thread,) = await fake.wait_for(lambda: fake.threads(chan.id))
    assert thread.type == 11 and thread.id == cb.message.id
    msgs = await fake.wait_for(lambda: fake.channel_messages(thread.id))
    assert msgs[0].content == 'welcome to the table'

    ix = await fake.slash(bob.id, chan.id, 'config', {'key': 'k', 'value': 'v'}, subcommand='set')
    assert (await ix.response()).data['content'] == 'k=v'
    with pytest.raises(FakeDiscordError):
        await fake.slash(bob.id, chan.id, 'start', {'seats': 2})  # missing required 'game'


async def test_rate_limit_retry_and_double_ack(env):
    fake, bot, guild, chan, alice, bob = env
    fake.fail_next('POST', r'^/channels/\d+/messages$', status=429, retry_after=0.05)
    fake.fail_next('POST', r'^/interactions/', status=429, retry_after=0.01)
    ix = await fake.slash(alice.id, chan.id, 'board')
    await ix.response()
    msgs = await fake.wait_for(lambda: fake.channel_messages(chan.id))
    await asyncio.sleep(0.1)
    assert len(fake.channel_messages(chan.id)) == 1 and msgs[0].content == 'the board'
    assert fake.rate_limited == 2

    # acknowledging twice is rejected like Discord does
    ch = bot.get_channel(chan.id)
    assert ch is not None
    ix2 = await fake.slash(alice.id, chan.id, 'ping')
    await ix2.response()
    with pytest.raises(discord.HTTPException) as ei:
        await bot.http.request(
            discord.http.Route('POST', '/interactions/{i}/{t}/callback', i=ix2.id, t=ix2.token),
            json={'type': 4, 'data': {'content': 'again'}},
        )
    assert ei.value.code == 40060


async def test_drop_gateway_resume_delivers_missed_interaction(env):
    fake, bot, guild, chan, alice, bob = env
    await fake.drop_gateway()
    # dispatched while the bot is disconnected -> buffered and replayed after RESUME
    ix = await fake.slash(alice.id, chan.id, 'ping')
    cb = await ix.response(timeout=5)
    assert cb.data['content'] == 'pong'
    assert fake.resume_count == 1 and fake.identify_count == 1
    await fake.wait_for(lambda: 'resumed' in bot.events)
    # a user typing is delivered too
    got = asyncio.get_running_loop().create_future()

    async def on_message(m: discord.Message) -> None:
        if not got.done():
            got.set_result(m.content)

    bot.on_message = on_message  # type: ignore[attr-defined]
    # second drop: abrupt transport abort, and a user message typed during the gap
    await fake.drop_gateway(abort=True)
    await fake.say(alice.id, chan.id, 'hello bot')
    assert await asyncio.wait_for(got, 5) == 'hello bot'
    await fake.wait_for(lambda: fake.resume_count == 2)
    assert fake.identify_count == 1


async def test_shards_get_only_their_guilds(fake_discord: FakeDiscord):
    fake = fake_discord
    g1, g2 = fake.add_guild('one'), fake.add_guild('two')
    fake.add_channel(g1.id, 'a')
    fake.add_channel(g2.id, 'b')
    assert (g1.id >> 22) % 2 != (g2.id >> 22) % 2
    clients = [
        discord.Client(intents=discord.Intents.default(), shard_id=i, shard_count=2, guild_ready_timeout=0.05)
        for i in range(2)
    ]
    tasks = [asyncio.create_task(c.start(fake.token)) for c in clients]
    try:
        await asyncio.gather(*(asyncio.wait_for(c.wait_until_ready(), 5) for c in clients))
        for i, c in enumerate(clients):
            expected = [g.id for g in (g1, g2) if (g.id >> 22) % 2 == i]
            assert [g.id for g in c.guilds] == expected
    finally:
        for c in clients:
            await c.close()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_bad_token_rejected(fake_discord: FakeDiscord):
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login('wrong')
    await client.close()


async def test_modal_submit_takes_a_silent_answer_even_when_its_message_is_gone(env):
    """Discord takes a deferred update (type 6) of any modal submit, its message there or not;
    an update (type 7) of a message that is gone gets 10008, as does a click's type 6."""
    fake, bot, guild, chan, alice, bob = env
    ix = await fake.slash(alice.id, chan.id, 'counter')
    message = (await ix.response()).message
    fake.messages[message.id].deleted = True

    async def answer(interaction, ctype: int) -> None:
        await bot.http.request(
            discord.http.Route('POST', '/interactions/{i}/{t}/callback', i=interaction.id,
                               t=interaction.token), json={'type': ctype})

    orphan = {'custom_id': 'orphan', 'components': []}  # no handler answers it: the test does
    submit = await fake._send_interaction(5, alice.id, chan.id, orphan, message=message)
    await answer(submit, 6)
    assert submit.callback is not None and submit.callback.type == 6
    submit = await fake._send_interaction(5, alice.id, chan.id, orphan)  # no message at all
    await answer(submit, 6)
    assert submit.callback.type == 6
    for ctype, itype, data in ((7, 5, orphan), (6, 3, {'custom_id': 'orphan', 'component_type': 2})):
        refused = await fake._send_interaction(itype, alice.id, chan.id, data, message=message)
        with pytest.raises(discord.NotFound) as caught:
            await answer(refused, ctype)
        assert caught.value.code == 10008 and refused.callback is None


async def test_injected_discord_refusals_carry_their_codes(env):
    """A test can make any answer fail as Discord refuses it, by its error code; the answer
    then does not land."""
    fake, bot, guild, chan, alice, bob = env
    orphan = {'custom_id': 'orphan', 'component_type': 2}
    message = (await (await fake.slash(alice.id, chan.id, 'counter')).response()).message
    for code, status in ((10062, 404), (10008, 404), (40060, 400), (503, 503)):
        fake.faults.add('POST', r'^/interactions/\d+/[^/]+/callback$', outcomes=(code,))
        ix = await fake._send_interaction(3, alice.id, chan.id, orphan, message=message)
        with pytest.raises(discord.HTTPException) as caught:
            await bot.http.request(
                discord.http.Route('POST', '/interactions/{i}/{t}/callback', i=ix.id, t=ix.token),
                json={'type': 6})
        assert caught.value.status == status and ix.callback is None
        if status < 500:
            assert caught.value.code == code


async def test_command_localizations_follow_discords_rules_for_names_and_locales(
        fake_discord: FakeDiscord):
    """Like Discord: a localized name obeys the name's rules (lower case, no spaces, 1-32
    characters), a localized description 1-100 characters, and only Discord's locales count."""
    fake = fake_discord
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    headers = {"Authorization": f"Bot {fake.token}"}

    def command(**localized):
        return [{"name": "play", "description": "Open a lobby", "type": 1,
                 "options": [{"name": "game", "description": "Which game", "type": 3,
                              "choices": [{"name": "The Castle", "value": "castle",
                                           "name_localizations": {"de": "Die Burg"}}]}],
                 **localized}]
    async with discord.http.aiohttp.ClientSession() as s:
        for localized, accepted in (
                ({"name_localizations": {"de": "spielen", "es-ES": "jugar"}}, True),
                ({"name_localizations": {"de": "Spielen"}}, False),  # upper case
                ({"name_localizations": {"de": "spiel starten"}}, False),  # a space
                ({"name_localizations": {"xx": "spielen"}}, False),  # not a Discord locale
                ({"description_localizations": {"de": "x" * 101}}, False)):
            async with s.put(url, json=command(**localized), headers=headers) as response:
                assert (response.status == 200) == accepted, (localized, await response.text())
    assert fake.commands()[0]["name_localizations"] == {"de": "spielen", "es-ES": "jugar"}

"""People in a channel of the fake Discord who play through its buttons, selects and modals
like real users: the tests' players, and the benchmarks' (bench.table_volume)."""
from __future__ import annotations

from typing import Any

from bot import ui
from bot.app import GatekeeperBot
from bot.table import Table, named_prompt
from data.locales import DEFAULT, language
from games.core import Rng, decide

from fakediscord import FakeDiscord, Message
from .harness import BotHarness, is_board, settle, until


def kind_select(board: Message, seat: int, index: str) -> str | None:
    """The table's select that offers the seat's choice `index` among others of its kind."""
    return next((cid for cid, options in board.selects() if cid.split(":")[2] == str(seat)
                 and ":c:kind" in cid and index in [value for value, _ in options]), None)


class Players:
    """People in one guild channel, acting through the fake client like real users."""

    default_game = ""  # what /play opens when no game is named (the tests set one)

    def __init__(self, fake: FakeDiscord, harness: BotHarness, names: list[str],
                 dms_open: dict[str, bool] | None = None, locale: str = "en-US") -> None:
        """`locale`: the Discord language of the server and of everyone's client."""
        self.fake = fake
        self.harness = harness
        self.guild = fake.add_guild("Board Games", locale=locale)
        self.channel = fake.add_channel(self.guild.id, "games")
        self.users = {}
        for name in names:
            user = fake.add_user(name, dms_open=(dms_open or {}).get(name, True), locale=locale)
            fake.add_member(self.guild.id, user.id)
            self.users[name] = user.id

    @property
    def bot(self) -> GatekeeperBot:
        assert self.harness.bot is not None
        return self.harness.bot

    def table(self, channel_id: int | None = None) -> Table | None:
        return self.bot.service.in_channel(channel_id or self.channel.id)

    def channel_messages(self, channel_id: int | None = None) -> list[Message]:
        return self.fake.channel_messages(channel_id or self.channel.id)

    def boards(self, channel_id: int | None = None) -> list[Message]:
        return [m for m in self.channel_messages(channel_id) if is_board(m)]

    def every_table(self, channel_id: int | None = None) -> list[Message]:
        """Every table message the channel has shown, retired (deleted) ones included, as each
        last looked: what a spectator watching live saw."""
        return [m for m in self.fake.channel_messages(channel_id or self.channel.id,
                                                      include_deleted=True) if is_board(m)]

    def every_version(self, channel_id: int | None = None) -> list[Message]:
        """Every version of every message the channel has shown (deleted ones and earlier
        edits included): what a spectator may have read."""
        return [version for m in self.fake.channel_messages(channel_id or self.channel.id,
                                                            include_deleted=True)
                for version in (*m.edits, m)]

    def current_board(self, table: Table) -> Message:
        """The live turn message (a /status copy may be newer, but has no buttons)."""
        _, message_id = self.bot.store.messages(table.id)["board"]
        return self.fake.messages[message_id]

    def lobby(self, channel_id: int | None = None) -> Message:
        return next(m for m in reversed(self.channel_messages(channel_id))
                    if any(":lobby:join" in (cid or "") for cid, _, _ in m.buttons()))

    async def settle(self, table: Table | None = None) -> None:
        """Wait until the bot has finished with everything it started."""
        await settle(self.bot, table)

    async def open(self, host: str, game: str | None = None) -> Message:
        game = game or self.default_game
        ix = await self.fake.slash(self.users[host], self.channel.id, "play", {"game": game})
        await ix.wait_original(lambda m: bool(m.buttons()))
        return self.lobby()

    async def lobby_click(self, who: str, op: str, channel_id: int | None = None):
        lobby = self.lobby(channel_id)
        custom_id = next(cid for cid, _, _ in lobby.buttons() if cid.endswith(f":lobby:{op}"))
        ix = await self.fake.click(self.users[who], lobby.id, custom_id)
        await ix.response()
        table = self.table(channel_id)
        if table is not None:
            await self.settle(table)
        return ix

    async def choose_option(self, who: str, name: str, value: Any) -> None:
        """The host picks `value` for lobby option `name` in its select."""
        lobby = self.lobby()
        custom_id = next(cid for cid, _ in lobby.selects() if cid.endswith(f":opt:{name}"))
        ix = await self.fake.select(self.users[who], lobby.id, custom_id, [str(value)])
        await ix.response()
        table = self.table()
        if table is not None:
            await self.settle(table)

    async def start_game(self, host: str, joiners: list[str], ais: int = 0,
                         game: str | None = None, options: dict[str, Any] | None = None
                         ) -> Table:
        await self.open(host, game)
        for name, value in (options or {}).items():
            await self.choose_option(host, name, value)
        for name in joiners:
            await self.lobby_click(name, "join")
        for _ in range(ais):
            await self.lobby_click(host, "ai")
        await self.lobby_click(host, "start")
        table = await until(lambda: (t := self.table()) and t.status == "running" and t, what="start")
        await until(lambda: self.boards(), what="the first board")
        await self.settle(table)
        return table

    def name_of(self, user_id: int) -> str:
        return next(n for n, u in self.users.items() if u == user_id)

    def mover(self, table: Table) -> str | None:
        seat = table.game.to_move(table.state)
        if seat is None or table.seats[seat].ai:
            return None
        return self.name_of(table.seats[seat].user_id)

    async def play_by_buttons(self, table: Table, level: str = "smart",
                              seat: int | None = None) -> str:
        """A person (the mover by default) picks the AI's choice for them, clicking through the
        real buttons, and typing into a modal when the choice asks for words."""
        await self.settle(table)
        seat = table.game.to_move(table.state) if seat is None else seat
        who = self.name_of(table.seats[seat].user_id)
        action = decide(table.game, table.state, seat, Rng(table.state.version + 11), level)
        version = table.version
        await self.click_choice(table, seat, action, self.current_board(table))
        await until(lambda: table.version > version, what=f"{who}'s {action!r} to apply")
        await self.settle(table)
        return action

    async def click_choice(self, table: Table, seat: int, action: str, board: Message,
                           stale_client: bool = False) -> None:
        """Click `action` of the seat's prompt on `board`: its button, or through the "Take my
        turn" panel; a modal gets some words. Does not wait for the bot to apply it. A
        `stale_client` still shows `board` after it was deleted, and clicks it."""
        who = self.name_of(table.seats[seat].user_id)
        user = self.users[who]
        prompt = named_prompt(table.game.prompt(table.state, seat), table.names(),
                              language(self.guild.locale) or DEFAULT)  # as the board words it
        choice = next(c for c in prompt.choices if c.action == action
                      or (c.input and action.startswith(c.action + " ")))
        mine = [(cid, label) for cid, label, _ in board.buttons()
                if cid and cid.split(":")[2] == str(seat)]
        shown = ui.choice_labels(prompt.choices, table.names())[prompt.choices.index(choice)]
        direct = [cid for cid, label in mine if label == shown or label.endswith(f" · {shown}")]
        index = str(prompt.choices.index(choice))
        kind = kind_select(board, seat, index)
        if not prompt.private and kind:  # one of a kind: picked in the table's select
            ix = await self.fake.select(user, board.id, kind, [index], force=stale_client)
            await ix.response()
            return
        if not prompt.private and direct:
            ix = await self.fake.click(user, board.id, direct[0], force=stale_client)
            if (await ix.response()).type == 9:
                await self.fake.submit_modal(user, ix, values={"text": f"{who}'s worst fear"})
            return
        ix = await self.open_panel(user, board, seat, stale_client)
        if (await ix.response()).type == 9:  # a lone text choice opens its text box at once
            await self.fake.submit_modal(user, ix, values={"text": f"{who}'s worst fear"})
            return
        await self.click_through(table, user, await self.panel_of(ix), choice, who)

    async def open_panel(self, user: int, board: Message, seat: int,
                         stale_client: bool = False):
        """Click the seat's "Take my turn" on `board`; the interaction (its answer is the
        panel, or a text box for a lone text choice)."""
        panel_id = next(cid for cid, _, _ in board.buttons()  # op "panel", in any language
                        if cid and cid.split(":")[2] == str(seat) and cid.split(":")[4] == "panel")
        return await self.fake.click(user, board.id, panel_id, force=stale_client)

    async def panel_of(self, ix) -> Message:
        """The private panel that answers a "Take my turn" click."""
        answer = await ix.response()
        return answer.message if answer.type == 4 else (await ix.wait_followups())[0]

    async def click_through(self, table: Table, user: int, panel: Message, choice, who: str,
                            last_answered: bool = True) -> None:
        """Pick `choice` in a panel, step by step, by its labels as `table` shows them (players
        named); a text box gets some words. Without
        `last_answered` the last click's answer is not waited for (Discord refused it)."""
        for depth in range(len(choice.path)):
            shown = table.fill(choice.path[depth].label)
            panel = self.fake.messages[panel.id]
            button = next((cid for cid, label, _ in panel.buttons() if label == shown[:80]), None)
            if button is not None:
                ix = await self.fake.click(user, panel.id, button)
            else:
                custom_id, value = next(
                    ((cid, value) for cid, options in panel.selects()
                     for value, label in options if label == shown[:100]), (None, None))
                assert custom_id, f"no {shown!r} in {panel!r} {panel.selects()}"
                ix = await self.fake.select(user, panel.id, custom_id, [value])
            if depth == len(choice.path) - 1 and not last_answered:
                return
            if (await ix.response()).type == 9:  # a modal: write something
                await self.fake.submit_modal(user, ix, values={"text": f"{who}'s worst fear"})

    async def run_to_end(self, table: Table, max_steps: int = 3000) -> None:
        for _ in range(max_steps):
            if table.status != "running":
                await self.settle(table)
                return
            if self.mover(table) is None:
                await self.settle(table)
                await until(lambda: table.status != "running" or self.mover(table) is not None,
                            what="the AI to finish its turn")
                continue
            await self.play_by_buttons(table)
        raise AssertionError("the game did not end")

"""Each person's DM channel, remembered: a DM then costs one request to Discord, not two.

discord.py keeps only its 128 most recent DM channels, so a bot whose games seat more people
than that asks Discord for the channel (POST /users/@me/channels, rate limited) before nearly
every DM. A channel id is all a send needs, and a person's DM channel with the bot never
changes, so the ids of the last DM_CHANNELS_KEPT people are kept (a few hundred kilobytes).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

import discord

DM_CHANNELS_KEPT = 10_000


class Client(Protocol):
    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def get_partial_messageable(self, id: int, *,
                                type: discord.ChannelType | None = None
                                ) -> discord.PartialMessageable: ...


class DmChannels:
    def __init__(self, client: Client, kept: int = DM_CHANNELS_KEPT) -> None:
        self.client = client
        self.kept = kept
        self._ids: OrderedDict[int, int] = OrderedDict()  # user -> DM channel, oldest use first

    async def of(self, user_id: int) -> discord.abc.Messageable:
        """Where to DM `user_id`: a channel to `send` to."""
        channel_id = self._ids.get(user_id)
        if channel_id is not None:
            self._ids.move_to_end(user_id)
            return self.client.get_partial_messageable(channel_id,
                                                       type=discord.ChannelType.private)
        channel = await self.client.create_dm(discord.Object(user_id))
        self._ids[user_id] = channel.id
        if len(self._ids) > self.kept:
            self._ids.popitem(last=False)
        return channel

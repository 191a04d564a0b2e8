"""Who reads which language, and the slash commands' translated names.

What the channel shows (the lobby, the table, notices) is in the server's language: the one a
server manager chose with /language (stored, so it survives a restart), else Discord's server
locale when we speak it, else English. What one person reads alone (an ephemeral reply, a
panel, a DM) is in their own Discord language when we speak it, else the server's.

The words themselves live in the catalogs (`data.locales`); here they meet Discord.
"""
from __future__ import annotations

from typing import Any, Callable

import discord
from discord import app_commands

from data.locales import DEFAULT, language, text


class Languages:
    """The servers' languages: those chosen with /language (read at start-up and kept in
    memory, since every channel message asks), and Discord's server locales as the fallback;
    and each person's Discord language as last seen in an interaction, for what they are sent
    without one (a DM, a panel refreshed after someone else's move)."""

    def __init__(self, store: Any, discord_locale: Callable[[int], Any],
                 spawn: Callable[[Any], None]) -> None:
        self.store = store
        self.discord_locale = discord_locale  # guild id -> Discord's preferred_locale, or None
        self.spawn = spawn  # runs a store write in the background
        self.chosen: dict[int, str] = {}
        self.people: dict[int, str] = {}

    async def load(self) -> None:
        self.chosen = await self.store.languages()
        self.people = await self.store.people_languages()

    def heard(self, interaction: discord.Interaction) -> None:
        """Remember the language of the person behind `interaction` (stored when it changed)."""
        lang = language(str(interaction.locale))
        user_id = interaction.user.id
        if lang is not None and self.people.get(user_id) != lang:
            self.people[user_id] = lang
            self.spawn(self.store.set_person_language(user_id, lang))

    def person(self, user_id: int | None, guild_id: int | None) -> str:
        """The language of what `user_id` reads alone when no interaction of theirs is at
        hand: theirs as last seen, else the server's."""
        return self.people.get(user_id or 0) or self.server(guild_id)

    def server(self, guild_id: int | None, hint: Any = None) -> str:
        """The language of a server's channels; `hint` is a locale Discord sent with an
        interaction (its guild_locale), used when the gateway has not told us the server's."""
        if guild_id is None:
            return language(hint) or DEFAULT
        return (self.chosen.get(guild_id) or language(self.discord_locale(guild_id))
                or language(hint) or DEFAULT)

    def personal(self, interaction: discord.Interaction) -> str:
        """The language for what `interaction`'s user reads alone."""
        return language(str(interaction.locale)) or self.server(
            interaction.guild_id, getattr(interaction, "guild_locale", None))

    async def choose(self, guild_id: int, lang: str | None) -> None:
        """A server manager's choice (None: follow Discord's server locale again)."""
        await self.store.set_language(guild_id, lang)
        if lang is None:
            self.chosen.pop(guild_id, None)
        else:
            self.chosen[guild_id] = lang


def command_text(id: str, /, **params: Any) -> app_commands.locale_str:
    """A slash command's name or description: English by default, and its message id (and
    parameters), which `CommandWords` looks up for every other language Discord asks about."""
    return app_commands.locale_str(text(DEFAULT, id, **params), id=id, params=params)


class CommandWords(app_commands.Translator):
    """Slash commands' names, descriptions, options and choices in each language we speak,
    registered with Discord, which shows each user those of their client's language."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        id = string.extras.get("id")
        lang = language(locale.value)
        if id is None or lang is None or lang == DEFAULT:
            return None
        return text(lang, id, **string.extras.get("params", {}))


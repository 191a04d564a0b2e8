"""Every word a player reads, in each language: message ids with parameters, and their catalogs.

Code never writes a player-facing sentence itself: it names a message (`Msg("lobby.title",
game="Castle")`) and the edge that knows the reader renders it in their language (`render`).
So an engine, a renderer or the bot can produce words without knowing who reads them, and one
message reads in English in one channel and in German in another.

- Catalogs: one gettext catalog per language, `data/locales/<language>.po`, read with Babel
  and compiled in memory on first use (nothing compiled is committed). The English catalog is
  one of them: ids are names, not English sentences, so no language is privileged.
- Placeholders are Python's `{name}`. A message with a plural form is rendered with a `count`
  parameter, which picks the form by the language's plural rule (Babel's, from CLDR) and is
  written with the language's number format (1,000 / 1.000).
- A parameter that is itself a `Msg` is rendered in the same language, so a sentence can hold
  a translated part ("{game} needs at least {players}").
- A parameter that is a tuple or list is rendered item by item and written as the language
  lists ("a, b and c" / "a, b und c"; Babel's `format_list`).
- A message kept in a game's JSON state (a speaking character's line) is stored as a dict,
  `msg.stored()` -> {"msg": id, **params}; `render` reads that form too.
- Adding a language: its catalog file and its entry in `LANGUAGES` (CONTRIBUTING.md).
- A game brings its own catalogs (ids `game.<game>.…`), merged into its language's: a built-in
  game's are `data/<game>/locales/<language>.po`; a plugin's, in its own package, are named by
  its `Game.catalogs` and added at discovery (`add_catalogs`).
- Game terms are translated one way throughout: each game's glossary is
  `data/locales/glossary/<game>.md`.
"""
from __future__ import annotations

import gettext
import io
import string
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from data import resource

# The languages we speak. A Discord locale reads the one its language part names ("es-419" and
# "es-ES": es; "en-GB" and "en-US": en). Adding a language is one entry here.
LANGUAGES = ("en", "de", "es")
DEFAULT = "en"
FOLDER = "locales"


@dataclass(frozen=True)
class Msg:
    """A message to render later, in the reader's language: its id and its parameters."""

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    def __init__(self, id: str, /, **params: Any) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "params", tuple(params.items()))

    def stored(self) -> dict[str, Any]:
        """The message as JSON can hold it (in a game's state): {"msg": id, **params}."""
        return {"msg": self.id, **{name: _stored(value) for name, value in self.params}}


def _stored(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.stored()
    if isinstance(value, (tuple, list)):
        return [_stored(item) for item in value]
    return value


def language(tag: str | None) -> str | None:
    """The language we speak for a Discord locale or language tag ("de", "es-419", "en-GB"),
    or None when we speak none that fits."""
    if not tag:
        return None
    base = str(tag).replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


_PLUGINS: list[Traversable] = []  # plugin games' catalog folders (`add_catalogs`)


def add_catalogs(folder: Traversable) -> None:
    """A plugin game's catalogs, `<language>.po` files in `folder`, merged from now on."""
    if folder not in _PLUGINS:
        _PLUGINS.append(folder)
        for cached in (messages, catalog, ids):
            cached.cache_clear()


@cache
def messages(lang: str) -> Catalog:
    """The language's catalog as Babel reads it: the bot's (data/locales/<lang>.po) and each
    game's own (data/<game>/locales/<lang>.po, or a plugin's `add_catalogs` folder; its ids
    under `game.<game>.`), as one."""
    with resource(FOLDER, f"{lang}.po").open("rb") as source:
        merged = read_po(source, locale=lang)
    built_in = [folder.joinpath(FOLDER) for folder in sorted(resource().iterdir(),
                                                             key=lambda f: f.name)
                if folder.name != FOLDER]
    for folder in built_in + _PLUGINS:
        part = folder.joinpath(f"{lang}.po")
        if not part.is_file():
            continue
        with part.open("rb") as source:
            for message in read_po(source, locale=lang):
                if message.id in merged:
                    raise ValueError(f"{part}'s catalog repeats the message {message.id!r}")
                if message.id:
                    merged[message.id] = message
    return merged


@cache
def catalog(lang: str) -> gettext.GNUTranslations:
    """The language's messages as gettext translations, compiled in memory by Babel; ids
    missing from it fall back to English."""
    compiled = io.BytesIO()
    write_mo(compiled, messages(lang))
    compiled.seek(0)
    translations = gettext.GNUTranslations(compiled)
    if lang != DEFAULT:
        translations.add_fallback(catalog(DEFAULT))
    return translations


@cache
def ids(lang: str) -> dict[str, bool]:
    """Every message id of `lang`'s catalog -> whether it has plural forms."""
    return {m.id[0] if m.pluralizable else m.id: m.pluralizable for m in messages(lang) if m.id}


def has(id: str) -> bool:
    """Is `id` a message of ours (the English catalog holds every one)?"""
    return id in ids(DEFAULT)


def text(lang: str, id: str, /, **params: Any) -> str:
    """Message `id` in language `lang`, its placeholders filled (see the module's docstring)."""
    lang = lang if lang in LANGUAGES else DEFAULT
    words = catalog(lang)
    if ids(lang).get(id):
        count = params["count"]
        template = words.ngettext(id, id, count)
        params = {**params, "count": format_decimal(count, locale=lang)}
    else:
        template = words.gettext(id)
    filled = {name: render(lang, value) for name, value in params.items()}
    return template.format(**filled)


def render(lang: str, value: Any) -> Any:
    """A `Msg` (or a stored one, `Msg.stored`) rendered in `lang`; anything else (a name, a
    number, a ready string) as it is."""
    if isinstance(value, Msg):
        return text(lang, value.id, **dict(value.params))
    if isinstance(value, dict) and "msg" in value:
        return text(lang, value["msg"], **{k: v for k, v in value.items() if k != "msg"})
    if isinstance(value, (tuple, list)):
        return format_list([str(render(lang, item)) for item in value], locale=lang)
    return value


def placeholders(template: str) -> set[str]:
    """The `{name}`s a template fills (tests compare them across catalogs)."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}

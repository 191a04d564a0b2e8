"""Words and embeds for the channel: pure functions of a table, so they are easy to test."""
from __future__ import annotations

from collections import Counter

import discord
from babel.lists import format_list

from data.locales import DEFAULT, Msg, has, text
from games.core import Event, Game, option_text

from . import levels, pace
from .rendering import speaker_name
from .table import Table

SQUARES = {"red": "🟥", "blue": "🟦", "green": "🟩", "yellow": "🟨", "purple": "🟪",
           "orange": "🟧", "white": "⬜", "black": "⬛", "brown": "🟫"}
# Seats differ by more than colour: each also has a shape (colour-blind players, dark themes).
SEAT_SHAPES = ("●", "■", "▲", "◆", "★", "✚", "⬟", "⬢")
MAX_LOG_LINES = 12


def seat_label(table: Table, seat: int, lang: str, who: str | None = None) -> str:
    """A seat as the table names it, in the server's language `lang`: its colour's mark and
    shape, `who` (its bold name unless told: the header mentions), its colour and AI level."""
    colours = table.game.colours
    colour = colours[seat] if seat < len(colours) else ""
    tag = levels.tag(table.seats[seat].ai, table.seats[seat].level, lang)
    mark = f"{SQUARES.get(colour, '')}{SEAT_SHAPES[seat % len(SEAT_SHAPES)]}"
    who = who or f"**{table.seats[seat].name}**"
    return f"{mark} {who} ({colour_name(table.game, colour, lang)}{tag})".replace(" ()", "")


def colour_name(game: Game, colour: str, lang: str) -> str:
    """A seat colour's name in `lang`, from the game's catalog (as the game names it when
    its catalog does not)."""
    id = f"game.{game.name}.colour.{colour}"
    return text(lang, id) if colour and has(id) else colour


def colour_of(table: Table, seat: int | None) -> discord.Colour:
    if seat is None or seat >= len(table.game.colour_rgb):
        return discord.Colour.dark_grey()
    return discord.Colour.from_rgb(*table.game.colour_rgb[seat])


def mention(table: Table, seat: int) -> str:
    user = table.seats[seat].user_id
    return f"<@{user}>" if user is not None and not table.seats[seat].ai else f"**{table.seats[seat].name}**"


def lobby_embed(table: Table, lang: str) -> discord.Embed:
    """The lobby message, in the server's language `lang`. Its buttons are the same for
    everybody, so its words say who each is for: Join for those without a seat (the host is
    seated from the start, marked in the players' list), Leave for the seated, the rest for the
    host. Once the game starts (or the lobby closes) it invites nobody."""
    game = table.game
    embed = discord.Embed(title=text(lang, "lobby.title", game=game.title),
                          description=pitch(game, lang), colour=discord.Colour.dark_gold())
    host = f" · {text(lang, 'lobby.host_mark')}"
    seats = "\n".join(f"{i + 1}. {s.name}{levels.tag(s.ai, s.level, lang)}"
                      f"{host if s.user_id == table.host_id and not s.ai else ''}"
                      for i, s in enumerate(table.seats))
    embed.add_field(name=text(lang, "lobby.players", seated=len(table.seats),
                              fewest=game.min_seats, most=game.max_seats),
                    value=seats or text(lang, "lobby.nobody"))
    watching = f" {text(lang, 'lobby.watching')}" if table.seat_of(table.host_id) is None else ""
    embed.add_field(name=text(lang, "lobby.host"), value=f"<@{table.host_id}>{watching}")
    if table.options:
        embed.add_field(name=text(lang, "lobby.options"), value=option_lines(table, lang),
                        inline=False)
    if table.status in ("cancelled", "running", "over", "ended"):
        # no longer open: nobody is invited to join any more
        embed.description = text(lang, f"lobby.closed.{table.status}")
    else:
        embed.set_footer(text=text(lang, "lobby.footer"))
    return embed


def pitch(game: Game, lang: str) -> str:
    """A game's pitch in `lang`, from its catalog (as the game words it when it brings none)."""
    id = f"game.{game.name}.pitch"
    return text(lang, id) if has(id) else game.pitch


def option_lines(table: Table, lang: str) -> str:
    """The lobby's options in words, one a line: "Double six: off", "Game clock: 40 minutes"."""
    lines = []
    texts = pace.texts(table.game, lang)
    for name, value in table.options.items():
        words = option_text(texts, name)
        shown = pace.value_words(name, value, lang) if name in pace.OPTIONS else words.value(value)
        lines.append(text(lang, "lobby.option_line", label=words.label, value=shown))
    return "\n".join(lines)


def public_lines(table: Table, events: list[Event], lang: str = DEFAULT) -> list[str]:
    """The public events as lines in `lang`; a speaking character's words are marked as
    theirs."""
    speakers = table.game.speakers
    return [f"**{speaker_name(table.game, e.kind, lang).upper()}:** “{table.fill(e.text, lang)}”"
            if e.kind in speakers else table.fill(e.text, lang) for e in events if e.public]


def fitting(lines: list[str], lang: str, limit: int = 3500) -> list[str]:
    """The newest lines that fit in `limit` characters, with a pointer to /log (in `lang`) if
    some don't."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > limit or len(kept) == MAX_LOG_LINES * 3:
            return [earlier_lines(lang), *reversed(kept)]
        kept.append(line)
    return list(reversed(kept))


def earlier_lines(lang: str) -> str:
    """The pointer to /log over lines left out, with the command as `lang` names it."""
    return text(lang, "table.earlier", command=f"/{text(lang, 'cmd.log.name')}")


def score_table(table: Table) -> str:
    """A game's final scores ({"header": [...], "rows": [[seat, ...], ...]}) to read on a phone:
    no columns to wrap, but a line per player, the name first and the last figure (the total)
    after it, then the figures that made it, small and short (zeros left out)."""
    scores = (table.result or {}).get("scores")
    if not isinstance(scores, dict) or not scores.get("rows"):
        return ""
    *parts, total = scores["header"]
    lines = []
    for seat, *figures in scores["rows"]:
        lines.append(f"**{table.seats[seat].name}** · {total} {figures[-1]}")
        made_of = ", ".join(f"{name.lower()} {value}" for name, value in zip(parts, figures)
                            if value)
        if made_of:
            lines.append(f"-# {made_of}")
    return "\n".join(lines)[:1024]


def result_text(table: Table, lang: str) -> str:
    """How the game ended, in `lang`: who won (the engine's reason after it), or why nobody."""
    result = table.result or {}
    winners = result.get("winners") or []
    if table.status == "ended":
        return text(lang, "result.ended")
    reason = table.fill(result["reason"], lang) if result.get("reason") else None
    if not winners:
        return text(lang, "result.nobody", reason=reason or Msg("result.draw"))
    names = format_list([table.seats[w].name for w in winners], locale=lang)
    won = text(lang, "result.won", count=len(winners), names=names)
    return f"{won} ({reason})" if reason else won


def hand_message(table: Table, seat: int, events: list[Event], jump_url: str | None,
                 lang: str, *, whole: bool = True) -> str:
    """A seat's private message (a DM, or /hand) in its reader's language `lang`: the news
    addressed to it in `events`, then, with `whole`, its private state. The heading names the
    turn, so news that recurs in words (a second ghost discarded, a turn later) never reads as
    the same message again."""
    assert table.state is not None
    heading = text(lang, "hand.heading_turn", game=table.game.title, id=table.id,
                   turn=table.state.turn) if table.state.turn \
        else text(lang, "hand.heading", game=table.game.title, id=table.id)
    body = table.fill(table.game.private_text(table.state, seat), lang) if whole else ""
    parts = [heading, *news_lines(table, seat, events, lang), body]
    if jump_url:
        parts.append(text(lang, "hand.back", url=jump_url))
    return "\n".join(p for p in parts if p)[:2000]


def news_lines(table: Table, seat: int, events: list[Event], lang: str) -> list[str]:
    """The events addressed to `seat`, each line once: a line that came several times says so
    ("You discard a ghost. (twice)", in its reader's `lang`)."""
    seen = Counter(table.fill(e.text, lang) for e in events if e.to is not None and seat in e.to)
    return [line if n == 1 else text(lang, "hand.twice", line=line) if n == 2
            else text(lang, "hand.times", line=line, count=n) for line, n in seen.items()]

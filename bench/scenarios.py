"""Which games a scenario plays, found by discovery (the `games` registry) rather than named.

Engine, render and replay figures cover every discovered game. The scenarios that measure the
bot rather than a game (moves through the fake Discord, the soaks) need games that people can
play turn by turn, and the timer benchmark a game with timers of its own; each takes the first
discovered game (by name) that fits, so its figures stay comparable from run to run.
"""
from __future__ import annotations

import games
from games.core import Game


def has_timers(game: Game) -> bool:
    """The game keeps time itself (a clock, a character who acts on his own)."""
    return type(game).timers is not Game.timers


def turn_based(seats: int = 2) -> list[Game]:
    """Discovered games `seats` people can play turn by turn, with no timers of their own."""
    return [game for game in games.all_games()
            if game.min_seats <= seats <= game.max_seats and not has_timers(game)]


def timed() -> Game:
    """The first discovered game with timers of its own."""
    return next(game for game in games.all_games() if has_timers(game))

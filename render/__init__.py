"""Board images for Gatekeeper games.

``render(view) -> bytes`` turns a game's public *view dict* into PNG bytes,
dispatching on ``view["game"]``. Renderers are pure: no discord, no clock,
no network, nothing but the view they are given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from .atmosfear import render_atmosfear, render_gatekeeper
from .atmosfear import warm_up as _warm_atmosfear
from .castle import render_castle
from .castle import warm_up as _warm_castle
from .dontgo import render_dontgo
from .dontgo import warm_up as _warm_dontgo

Renderer = Callable[[dict[str, Any]], bytes]


class UnknownGameError(KeyError, ValueError):
    """No renderer is registered for ``view["game"]`` (a KeyError and a ValueError)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown game"


RENDERERS: dict[str, Renderer] = {"atmosfear": render_atmosfear, "castle": render_castle, "dontgo": render_dontgo}


def register(game: str, renderer: Renderer) -> None:
    """Add (or replace) the renderer for ``game``."""
    RENDERERS[game] = renderer


def render(view: dict[str, Any]) -> bytes:
    """PNG bytes for ``view``; raises UnknownGameError for an unknown game."""
    game = view.get("game")
    try:
        renderer = RENDERERS[game]
    except (KeyError, TypeError):
        raise UnknownGameError(f"no renderer for game {game!r}") from None
    return renderer(view)


Speaker = Callable[[str], bytes]
# Characters who speak in a game (the Gatekeeper): a picture of them with their line.
SPEAKERS: dict[str, Speaker] = {"atmosfear": render_gatekeeper}


@lru_cache(maxsize=512)
def speak(game: str, line: str) -> bytes:
    """PNG of `game`'s speaking character saying `line` (lines repeat: cached)."""
    return SPEAKERS[game](line)


def warm_up() -> None:
    """Pay one-off costs (palettes, static layers) before the first board is needed."""
    _warm_castle()
    _warm_atmosfear()
    _warm_dontgo()


__all__ = ["SPEAKERS", "speak", "warm_up", "RENDERERS", "Renderer", "UnknownGameError", "register", "render", "render_castle"]

"""Keys to the Castle: race across a grid of hidden doors. Exposes `GAME` for the registry."""
from .engine import CastleGame

GAME = CastleGame()

__all__ = ["GAME", "CastleGame"]

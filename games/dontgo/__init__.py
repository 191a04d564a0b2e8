"""Don't Go In There: collect the fewest curses in a haunted house. Exposes `GAME` for the registry."""
from .engine import DontGoGame

GAME = DontGoGame()

__all__ = ["GAME", "DontGoGame"]

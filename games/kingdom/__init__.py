"""Key to the Kingdom: cross the hazards of a folding Kingdom, win Treasures from monsters, dodge the
Demon King and escape with the Key. Exposes `GAME` for the registry."""
from .engine import KingdomGame

GAME = KingdomGame()

__all__ = ["GAME", "KingdomGame"]

"""The Warlock of Firetop Mountain: explore, fight, deduce the chest's keys. Exposes `GAME`."""
from .engine import FiretopGame

GAME = FiretopGame()

__all__ = ["GAME", "FiretopGame"]

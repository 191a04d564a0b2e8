"""Atmosfear: The Harbingers, with a live Gatekeeper. Exposes `GAME` for the registry."""
from .engine import AtmosfearGame

GAME = AtmosfearGame()

__all__ = ["GAME", "AtmosfearGame"]

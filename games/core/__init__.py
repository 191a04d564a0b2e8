"""Game-agnostic engine contract: states, prompts, events, the checked `apply`, seeded RNG."""
from .contract import (DEFAULT_LEVEL, LEVELS, SYSTEM, Choice, Event, Game, IllegalAction, Outcome, Prompt, State, Step,
                       advance, ai_rng, ai_rngs, apply, decide, replay, seating, setup)
from .rng import Rng
from .words import OptionText, count, name_seats, option_text, plural

__all__ = ["DEFAULT_LEVEL", "LEVELS", "SYSTEM", "Choice", "Event", "Game", "IllegalAction", "OptionText", "Outcome", "Prompt",
           "Rng", "State", "Step", "advance", "ai_rng", "ai_rngs", "apply", "count", "decide",
           "name_seats", "option_text", "plural", "replay", "seating", "setup"]

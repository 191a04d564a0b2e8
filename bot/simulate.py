"""AI self-play for `gatekeeper simulate` and `gatekeeper render`: engines only, no Discord."""
from __future__ import annotations

from collections.abc import Sequence
from statistics import mean
from typing import Any

import games
from bot.rendering import draw
from games.core import LEVELS, Game, IllegalAction, Rng, State, advance, ai_rngs, decide, seating, setup

MAX_ACTIONS = 20_000


THINK_SECONDS = 4.0  # simulated time an AI takes per action, for real-time games


def lobby_options(game_name: str, pairs: list[str]) -> dict[str, Any]:
    """`name=value` pairs checked against the game's lobby options, as the lobby would check them."""
    allowed = games.get(game_name).option_choices
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or name not in allowed:
            known = ", ".join(f"{n}=" + "|".join(map(str, v)) for n, v in allowed.items())
            raise ValueError(f"unknown option {pair!r}; {game_name} takes: {known or 'none'}")
        match = next((v for v in allowed[name] if str(v) == value), None)
        if match is None:
            raise ValueError(f"{name} must be one of {', '.join(map(str, allowed[name]))}")
        options[name] = match
    return options


def play(game_name: str, seats: int, seed: int, level: str | Sequence[str] = "smart",
         max_actions: int = MAX_ACTIONS, start: float = 1_700_000_000.0,
         log: list[tuple[int, str, float]] | None = None,
         options: dict[str, Any] | None = None) -> State:
    """One game of AI against AI on a simulated clock, returning the final (or the
    max_actions-th) state; `level` is every seat's, or a sequence of one per seat. Actions are applied in place (`advance`): the conformance suite
    checks that replaying the log through the checked `apply` gives the same state. Game timers (a clock, the Gatekeeper) fire when they fall due, as
    the bot's scheduler would fire them. `log` receives every (seat, action, now) applied."""
    game = games.get(game_name)
    state = setup(game, seats, options, seed)
    # Bound methods looked up once: this loop runs every action of every simulated game.
    next_due = game.next_due if type(game).timers is not Game.timers else None  # untimed: never asked
    prompt_for = game.prompt
    to_move = game.to_move if game.to_move_acts_first else None
    ai_rng = ai_rngs(seed)
    game_rng = Rng(0)  # the game's dice and decks: reseeded from the state at every action (`advance`)
    everyone = range(seats)
    level_of = [level] * seats if isinstance(level, str) else list(level)
    if len(level_of) != seats:
        raise ValueError(f"{len(level_of)} levels for {seats} seats")
    now = start
    for _ in range(max_actions):
        if state.over:
            break
        due = next_due(state) if next_due is not None else None
        if due is not None and due <= now:  # the earliest timer is due: only now is it named
            timer = game.next_timer(state)
            seat, action = timer["seat"], timer["action"]
            advance(game, state, seat, action, now, game_rng)
            if log is not None:
                log.append((seat, action, now))
            continue
        if to_move is not None:
            seat = to_move(state)
            prompt = None if seat is None else prompt_for(state, seat)
        else:
            seat, prompt = next(((s, p) for s in everyone if (p := prompt_for(state, s)) is not None),
                                (None, None))
        if prompt is None:  # nobody may act: jump to the next timer
            if due is None:
                raise ValueError(f"{game_name} is stuck: no move and no timer")
            now = max(now, due)
            continue
        action = decide(game, state, seat, ai_rng(state.version), level_of[seat], prompt)
        advance(game, state, seat, action, now, game_rng)  # the AI chose from the prompt: no copy needed
        if log is not None:
            log.append((seat, action, now))
        now += THINK_SECONDS
    return state


def simulate(game_name: str, count: int, seed: int, players: int | None = None,
             level: str = "smart", options: dict[str, Any] | None = None,
             levels: Sequence[str] | None = None) -> dict[str, Any]:
    """`count` self-play games from `seed` on. With `level`, every seat plays it, player counts
    cycle (unless `players`) and who sits where is drawn as the table draws it. With `levels`
    (one per player), the players rotate through the seats from game to game (player p sits in
    seat (p + game) mod n), so no level keeps a seat's advantage."""
    game = games.get(game_name)
    span = range(game.min_seats, game.max_seats + 1)
    if levels is not None:
        check_levels(game, levels, players)
    wins: dict[int, int] = {}
    wins_by_player: dict[int, int] = {}  # by joining order
    turns: list[int] = []
    errors: list[str] = []
    finished = no_winner = 0
    for index in range(count):
        seats = len(levels) if levels is not None else players or span[index % len(span)]
        sat = rotated(seats, index) if levels is not None else seating(seed + index, seats)
        seat_levels = level if levels is None else [levels[who] for who in sat]  # sat[seat]: who sits there
        try:
            state = play(game_name, seats, seed + index, seat_levels, options=options)
        except (IllegalAction, StopIteration, ValueError) as exc:
            errors.append(f"game {index} (seed {seed + index}): {exc}")
            continue
        turns.append(state.turn)
        if state.over:
            finished += 1
            winners = (state.result or {}).get("winners") or []
            no_winner += not winners
            for winner in winners:
                wins[winner] = wins.get(winner, 0) + 1
                wins_by_player[sat[winner]] = wins_by_player.get(sat[winner], 0) + 1
    summary = {"game": game_name, "options": dict(options or {}), "games": count, "finished": finished,
               "no_winner": no_winner, "turns_mean": mean(turns) if turns else 0.0,
               "turns_max": max(turns, default=0), "wins_by_seat": dict(sorted(wins.items())),
               "wins_by_player": dict(sorted(wins_by_player.items())), "errors": errors}
    if levels is not None:
        summary["levels"] = list(levels)
    return summary


def rotated(seats: int, index: int) -> list[int]:
    """Who sits where in game `index` of a `--levels` run: item k is the player in seat k, so
    player p sits in seat (p + index) mod `seats`."""
    return [(seat - index) % seats for seat in range(seats)]


def check_levels(game: Game, levels: Sequence[str], players: int | None) -> None:
    """Refuse a `--levels` list the game cannot seat, or a level nobody can play."""
    unknown = [level for level in levels if level not in (*LEVELS, *game.ai_levels)]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r}; choose from "
                         f"{', '.join(dict.fromkeys((*LEVELS, *game.ai_levels)))}")
    if not game.min_seats <= len(levels) <= game.max_seats:
        raise ValueError(f"{game.title} seats {game.min_seats}-{game.max_seats} players, "
                         f"not {len(levels)} (one level per player)")
    if players is not None and players != len(levels):
        raise ValueError(f"--players {players} but {len(levels)} levels (one per player)")


def render_after(game_name: str, seed: int, moves: int, players: int | None = None) -> bytes:
    game = games.get(game_name)
    seats = players or game.min_seats
    state = play(game_name, seats, seed, max_actions=moves)
    view = game.view(state, None)
    view["names"] = [f"AI {i + 1}" for i in range(seats)]
    return draw(view)

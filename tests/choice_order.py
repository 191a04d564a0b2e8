"""The order of a turn's choices (`bot.order`), made from smart self-play:

    .venv/bin/python -m tests.choice_order [GAME ...] [--games 300] [--seed 1] [--write]

Each game is played by `bot.simulate.play` at every seat count in turn, seeds `--seed` on (the
games `gatekeeper simulate` plays), and its log replayed through `advance`. At every decision
whose prompt offers two kinds of action or more (an action's first word: the order only matters
there), each kind offered counts as offered once, and the kind the AI took as chosen. `rank`
lists the kinds by the share of their offers they were chosen at, highest first (ties: by name);
the kinds the file lists as `last` (doing nothing: pass, stay, keep) are kept by hand, left out
of `rank`, and shown last (`bot.order` says why).

It prints each game's file; `--write` writes it beside the game's rules page
(data/<game>/order.toml). A file also holds `check`, the same tally for its first `CHECK` games,
which tests/test_choice_order.py plays again: a change to a game or its AI that may move the
order fails there until this command is run again.
"""
from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

import games
from bot.order import kind, order_file
from bot.simulate import play
from games.core import Game, Rng, advance, setup

GAMES = 300
SEED = 1
CHECK = 4  # games in a file's small run, played again by the test
Tally = dict[str, list[int]]  # kind -> [offered, chosen]
HEADER = """\
# The order of {game}'s choices on the table and in panels (bot/order.py). rank: kinds
# of action (an action's first word), the most often chosen when offered first, from tally:
# kind = [offered, chosen] at smart self-play's decisions between two kinds or more. last:
# kept by hand, the kinds that do nothing, always shown last. Made by
# .venv/bin/python -m tests.choice_order {game} --write"""


def tally(game_name: str, seed: int, count: int, check: int = 0) -> tuple[Tally, Tally]:
    """Kinds offered and chosen over `count` games from `seed`, and the same over the first
    `check` of them."""
    game = games.get(game_name)
    span = range(game.min_seats, game.max_seats + 1)
    offered: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    small: Tally = {}
    for index in range(count):
        if index == check:
            small = counts(offered, chosen)
        seats = span[index % len(span)]
        log: list[tuple[int, str, float]] = []
        play(game_name, seats, seed + index, log=log)
        count_decisions(game, seats, seed + index, log, offered, chosen)
    whole = counts(offered, chosen)
    return whole, small if check < count else whole


def count_decisions(game: Game, seats: int, seed: int, log: list[tuple[int, str, float]],
                    offered: Counter[str], chosen: Counter[str]) -> None:
    """Replay one game's `log`, counting the kinds at each seat's decision between kinds."""
    state = setup(game, seats, None, seed)
    rng = Rng(0)
    for seat, action, now in log:
        prompt = game.prompt(state, seat) if seat >= 0 else None
        kinds = set(map(kind, prompt.choices)) if prompt is not None else set()
        if len(kinds) > 1:
            offered.update(kinds)
            chosen[action.split(" ", 1)[0]] += 1
        advance(game, state, seat, action, now, rng)


def counts(offered: Counter[str], chosen: Counter[str]) -> Tally:
    return {name: [offered[name], chosen[name]] for name in sorted(offered)}


def rank(counted: Tally, last: list[str]) -> list[str]:
    """The kinds not kept `last`, the most often chosen when offered first."""
    return sorted((name for name in counted if name not in last),
                  key=lambda name: (-counted[name][1] / counted[name][0], name))


def stored(game: Game) -> dict:
    path = order_file(game)
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def file_text(game: Game, last: list[str], seed: int, count: int, counted: Tally,
              small: Tally) -> str:
    """A game's order file: the rank, how it was made, and the tallies it comes from."""
    def listed(names: list[str]) -> str:
        return "[" + ", ".join(json.dumps(name) for name in names) + "]"

    def table(counted: Tally) -> list[str]:
        return [f"{json.dumps(name)} = [{offered}, {chosen}]"
                for name, (offered, chosen) in counted.items()]

    return "\n".join([
        *HEADER.format(game=game.name).splitlines(),
        f"last = {listed(last)}",
        f"rank = {listed(rank(counted, last))}",
        f"seed = {seed}",
        f"games = {count}",
        "",
        "[tally]",
        *table(counted),
        "",
        f"[check]  # the same over the first {CHECK} games, played again by the tests",
        *table(small),
        "",
    ])


def made(game_name: str, seed: int, count: int) -> str:
    """The file the command makes for one game, keeping its hand-kept `last`."""
    game = games.get(game_name)
    counted, small = tally(game_name, seed, count, CHECK)
    return file_text(game, list(stored(game).get("last", [])), seed, count, counted, small)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.choice_order",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games (default: every game)")
    parser.add_argument("--games", dest="count", type=int, default=GAMES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--write", action="store_true", help="write data/<game>/order.toml")
    args = parser.parse_args(argv)
    for name in args.games or sorted(games.registry()):
        text = made(name, args.seed, args.count)
        print(text)
        if args.write:
            Path(str(order_file(games.get(name)))).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Play-feel figures from smart self-play, beside `gatekeeper simulate` (same games, same seeds):

    .venv/bin/python -m tests.figures seats castle --players 3 --seed 5001 --games 2000
    .venv/bin/python -m tests.figures firetop --players 5 --seed 1 --games 400 [--option rounds=30]
    .venv/bin/python -m tests.figures kingdom --players 4 --seed 1 --games 200
    .venv/bin/python -m tests.figures atmosfear --players 4 --seed 1 --games 200 --option minutes=40

Each game is played by `bot.simulate.play` and its action log replayed through `advance`, so every
event and every state along the way can be counted without a hook in the engines. `seats` prints
each seat's share of the games next to a fair share (the wins spread evenly over the seats);
the others print the figures issue 38 asks about. `--write FILE` also stores the output, for the
docs tests that check a page against it (tests/data/figures/).
"""
from __future__ import annotations

import argparse
import copy
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

import games
from bot.simulate import lobby_options, play, simulate
from data.locales import DEFAULT, render
from games.core import Event, Rng, State, advance, setup

Watcher = Callable[[State, int, str, list[Event], State], None]


def replayed(game_name: str, seats: int, seed: int, options: dict[str, Any]) -> Iterator[tuple[State, int, str, list[Event], State]]:
    """Every step of the game `simulate` plays for (seats, seed): (before, seat, action, events, after).
    `before` is a copy, so a watcher may compare the two."""
    game = games.get(game_name)
    log: list[tuple[int, str, float]] = []
    play(game_name, seats, seed, options=options, log=log)
    state = setup(game, seats, options, seed)
    rng = Rng(0)
    for seat, action, now in log:
        before = copy.deepcopy(state)
        events = advance(game, state, seat, action, now, rng)
        yield before, seat, action, events, state


def seats_figures(game_name: str, players: int, seed: int, count: int, options: dict[str, Any]) -> list[str]:
    result = simulate(game_name, count, seed, players=players, options=options)
    wins = [result["wins_by_seat"].get(s, 0) for s in range(players)]
    shares = [100 * w / count for w in wins]
    fair = 100 * sum(wins) / count / players
    worst = max(abs(s - fair) for s in shares)
    won = 100 * (result["finished"] - result["no_winner"]) / count
    return [f"{game_name} {players}p seed {seed}, {count} games {options or ''}: seats "
            + " / ".join(f"{s:.1f}" for s in shares) + f"%, fair {fair:.1f}%, furthest {worst:.1f} points; "
            f"won by a player {won:.0f}%"]


def firetop_figures(players: int, seed: int, count: int, options: dict[str, Any]) -> list[str]:
    from games.firetop.ai import Smart
    game = games.get("firetop")
    no_winner = knew = 0
    duels = Counter()  # started, defender_escaped, attacker_escaped, defender_tries, attacker_tries
    skill_wins: Counter[int] = Counter()
    skill_fair: Counter[float] = Counter()
    for index in range(count):
        last = None
        for before, seat, action, _, after in replayed("firetop", players, seed + index, options):
            b = before.data["battle"]
            if action.startswith("fight "):
                duels["started"] += 1
            elif action == "escape" and b and b["kind"] == "duel":
                role = "defender" if seat == b["foe"] else "attacker"
                duels[f"{role}_tries"] += 1
                if after.data["battle"] is None and any(q["kind"] == "flee" and q["seat"] == seat
                                                        for q in after.data["queue"]):
                    duels[f"{role}_escaped"] += 1
            last = after
        d = last.data
        skills = [pl["skill0"] for pl in d["players"]]
        if d["winner"] is None:
            no_winner += 1
            if any(len(Smart(game.view(last, s), ["pass"], Rng(0)).candidates) == 1 for s in range(players)):
                knew += 1
            continue
        for skill in skills:
            skill_fair[skill] += 1 / len(skills)
        skill_wins[skills[d["winner"]]] += 1
    started = duels["started"] or 1
    return [f"firetop {players}p seed {seed}, {count} games {options or ''}: no winner {100 * no_winner / count:.1f}% "
            f"(someone knew the chest in {knew} of {no_winner}); duels {duels['started']}: defender escaped "
            f"{100 * duels['defender_escaped'] / started:.0f}%, attacker escaped "
            f"{100 * duels['attacker_escaped'] / started:.0f}%; wins against fair share by Skill: "
            + ", ".join(f"{s}: {skill_wins[s] / skill_fair[s]:.2f}" for s in sorted(skill_fair))]


def kingdom_figures(players: int, seed: int, count: int, options: dict[str, Any]) -> list[str]:
    from games.kingdom.board import BOARD
    first: Counter[str] = Counter()
    steals = key_steals = throws = stuck = visits = deep = 0
    for index in range(count):
        found = False
        for before, seat, action, events, after in replayed("kingdom", players, seed + index, options):
            verb = action.split()[0]
            if verb == "steal":
                steals += 1
                key_steals += "key" in after.data["players"][seat]["hand"] and "key" not in before.data["players"][seat]["hand"]
            visits += verb == "visit"
            deep += verb == "deep"
            for said in (render(DEFAULT, e.text) for e in events):  # the log in English
                throws += "throws **" in said and not before.data["turn_info"].get("no_demon")
                stuck += said.startswith("The Demon King cannot move")
            if not found:
                taken = [loc for loc, tid in before.data["locations"].items()
                         if tid is not None and after.data["locations"][loc] is None]
                if taken:
                    first[BOARD.locations[taken[0]]] += 1
                    found = True
    top, top_n = first.most_common(1)[0] if first else ("none", 0)
    return [f"kingdom {players}p seed {seed}, {count} games: first Treasure most often from {top} "
            f"({100 * top_n / count:.0f}% of games; {len(first)} places in all); steals {steals / count:.2f} "
            f"per game, the Key {key_steals / count:.2f}; the Demon King stuck on {100 * stuck / max(1, throws):.1f}% "
            f"of throws; Wizard visits {visits / count:.2f} and Deep Magic {deep / count:.2f} per game"]


def atmosfear_figures(players: int, seed: int, count: int, options: dict[str, Any]) -> list[str]:
    from games.atmosfear.engine import EVERY_COLOUR, TIME, WELL
    tally: Counter[str] = Counter()
    for index in range(count):
        held: dict[str, int] = {}
        for before, seat, action, events, after in replayed("atmosfear", players, seed + index, options):
            said = " ".join(render(DEFAULT, e.text) for e in events if e.kind == "time" and not e.to)
            if "keeps it hidden" in said:
                tally["kept"] += 1
            elif "no Time card left" in said or "deck is empty" in said:
                tally["none_left"] += 1
            elif "already passed" in said:
                tally["expired"] += 1
            if action.startswith("time "):
                cid = action.split()[1].upper()
                tally["struck"] += 1
                if changed(before.data, after.data):
                    tally["changed"] += 1
                if TIME[cid]["effect"] == "swap":
                    for s, pl in enumerate(after.data["players"]):
                        if pl["pos"] == WELL and before.data["players"][s]["pos"] != WELL \
                                and not EVERY_COLOUR <= set(pl["rack"]):
                            tally["swap_to_well_without_keys"] += 1
        tally["pending"] += sum(len(pl["time_cards"]) for pl in after.data["players"])
    landings = tally["none_left"] + tally["expired"] + tally["kept"]
    decided = landings - tally["pending"]
    return [f"atmosfear {players}p seed {seed}, {count} games {options or ''}: {landings} Time-stone landings: "
            f"no card {100 * tally['none_left'] / max(1, landings):.0f}%, expired {100 * tally['expired'] / max(1, landings):.0f}%, "
            f"kept {100 * tally['kept'] / max(1, landings):.0f}% ({tally['pending']} still held at the end); "
            f"{tally['struck']} struck, {100 * (tally['struck'] - tally['changed']) / max(1, tally['struck']):.0f}% with no effect; "
            f"landings whose card changed something {100 * tally['changed'] / max(1, decided):.0f}% "
            f"(of those not still held at the end); swaps onto the Well without every key: "
            f"{tally['swap_to_well_without_keys']}"]


def changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Did a Time card change the game: anyone's place, keys, Black Hole, dice, or the Chosen One."""
    keys = ("black_key", "chosen", "realm_keys", "removed")
    if any(before.get(k) != after.get(k) for k in keys):
        return True
    ignore = {"time_cards"}
    return any({k: v for k, v in a.items() if k not in ignore} != {k: v for k, v in b.items() if k not in ignore}
               for a, b in zip(before["players"], after["players"]))


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m tests.figures")
    ap.add_argument("topic", choices=("seats", "firetop", "kingdom", "atmosfear"))
    ap.add_argument("game", nargs="?", help="for seats: the game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--write", type=Path, help="also append the lines to this file")
    ap.add_argument("--check", type=Path, help="also append 'arguments => lines' to this file")
    return ap


def run(argv: list[str]) -> list[str]:
    args = parser().parse_args(argv)
    game_name = args.game if args.topic == "seats" else args.topic
    options = lobby_options(game_name, args.option)
    if args.topic == "seats":
        return seats_figures(game_name, args.players, args.seed, args.games, options)
    return globals()[f"{args.topic}_figures"](args.players, args.seed, args.games, options)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    lines = run(argv)
    print("\n".join(lines))
    if args.write:
        with args.write.open("a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
    if args.check:
        kept = [a for i, a in enumerate(argv) if a != "--check" and (i == 0 or argv[i - 1] != "--check")]
        with args.check.open("a", encoding="utf-8") as out:
            out.write(" ".join(kept) + " => " + " | ".join(lines) + "\n")


# ---------------------------------------------------------------- the pages' table rows
def rows(lines: list[str]) -> list[str]:
    """The Markdown table row each stored line gives on its rules page (tests/test_figures_docs.py
    checks the page shows every one)."""
    return [row(line) for line in lines if line.strip()]


LINE = re.compile(r"(\S+) (\d+)p seed (\d+), (\d+) games ?(?:\{'\w+': (\w+)\})?\s*: (.*)")


def row(line: str) -> str:
    game, players, seed, _, option, body = LINE.fullmatch(line.strip()).groups()
    nums = re.findall(r"-?\d+(?:\.\d+)?", body)
    if body.startswith("seats "):
        n = int(players)
        shares, fair, won = nums[:n], nums[n], nums[n + 2]
        lead = f"| {option} min " if option else ""
        return lead + f"| {n} | {seed} | {' / '.join(shares)}% | {fair}% | {won}% |"
    if game == "firetop":
        skills = re.findall(r"(\d+): (\d\.\d\d)", body)
        return (f"| {players} | {option or 60} | {nums[0]}% | {nums[-8]}% / {nums[-7]}% | "
                + " / ".join(share for _, share in skills) + " |")
    if game == "kingdom":
        top = re.search(r"from (.*?) \((\d+)% of games; (\d+) places", body)
        return (f"| {players} | {top.group(1)}, {top.group(2)}% ({top.group(3)} places) | {nums[-5]} "
                f"({nums[-4]}) | {nums[-3]}% | {nums[-2]} / {nums[-1]} |")
    return f"| {option} min | {nums[1]}% / {nums[2]}% | {nums[-3]}% | {nums[-2]}% | {nums[-1]} |"


if __name__ == "__main__":
    main()

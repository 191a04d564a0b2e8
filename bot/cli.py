"""`gatekeeper run | sandbox | health | simulate | render | replay | bench [soak]` (also
`python -m bot ...`)."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path

from games.core import IllegalAction

from .config import ConfigError, SandboxSettings, Settings
from .store import StoreError

# What --help prints first: plain text for a terminal (the module docstring is Markdown).
DESCRIPTION = ("Gatekeeper runs board games in Discord channels. Run it on Discord, play in a local "
               "sandbox, check its health, or simulate, render, replay and benchmark games. Also "
               "runs as: python -m bot COMMAND.")


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    parser = argparse.ArgumentParser(prog="gatekeeper", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the bot on Discord (DISCORD_TOKEN), or without a token the "
                              "local sandbox; SIGTERM or SIGINT stops it")
    sub.add_parser("sandbox", help="play in a browser: the bot on a local, Discord-compatible "
                                   "server at 127.0.0.1 (no token needed)")
    hl = sub.add_parser("health", help="exit 0 if the bot using GATEKEEPER_DB is up and connected")
    hl.add_argument("--max-age", type=float, default=None, metavar="SECONDS",
                    help="the newest heartbeat may be this old (default: 60)")
    sim = sub.add_parser("simulate", help="AI self-play summary")
    sim.add_argument("game")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--players", type=int, default=None, help="seats per game (default: cycle)")
    sim.add_argument("--level", choices=("easy", "smart", "hard", "random"), default="smart",
                     help="every seat's AI level (default: smart)")
    sim.add_argument("--levels", type=level_list, default=None, metavar="LEVEL,...",
                     help="one AI level per player, e.g. smart,easy; the players rotate through "
                          "the seats from game to game")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a lobby option, e.g. --option minutes=20 (repeatable)")
    sim.add_argument("--json", action="store_true")
    ren = sub.add_parser("render", help="draw the board after N AI moves")
    ren.add_argument("game")
    ren.add_argument("--seed", type=int, default=1)
    ren.add_argument("--moves", type=int, default=20)
    ren.add_argument("--players", type=int, default=None)
    ren.add_argument("--out", type=Path, required=True)
    rep = sub.add_parser("replay", help="write a finished game's animated replay (.webp or .gif)")
    rep.add_argument("game_id", type=int, metavar="GAME-ID")
    rep.add_argument("-o", "--out", type=Path, required=True, help="file.webp or file.gif")
    rep.add_argument("--db", default=None,
                     help="the database, a file or a postgresql:// URL (default: GATEKEEPER_DB)")
    bench = sub.add_parser("bench", help="measure speed and memory; writes docs/performance.md")
    size = bench.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="size", action="store_const", const="quick", default="full",
                      help="smaller runs (about a minute)")
    size.add_argument("--smoke", dest="size", action="store_const", const="smoke",
                      help="toy sizes (seconds): checks the benchmark runs; the figures mean nothing")
    bench.add_argument("--only", type=bench_parts, default=None, metavar="PART,...",
                       help="only these parts, each rewriting its own section: "
                            "moves, timers, restart, engine, render, replays")
    bench.add_argument("--out", type=Path, default=Path("docs/performance.md"),
                       help="where to write the report (default: docs/performance.md here)")
    bench.add_argument("part", nargs="?", choices=("soak",),
                       help="soak: concurrent games against real bot processes under Discord "
                            "failures, gateway cuts and SIGKILL restarts; writes its section")
    soak = bench.add_argument_group("soak")
    soak.add_argument("--games", type=int, default=1000)
    soak.add_argument("--minutes", type=float, default=4.0, help="how long the play lasts")
    soak.add_argument("--store", choices=("sqlite", "postgres", "both"), default="both")
    soak.add_argument("--seed", type=int, default=1)
    soak.add_argument("--postgres", default=None, metavar="URL",
                      help="a PostgreSQL server where the soak may CREATE DATABASE (default: a "
                           "throw-away server from Debian's postgresql binaries)")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(started)
    if args.command == "sandbox":
        return sandbox(started)
    if args.command == "health":
        return health(args.max_age)
    if args.command == "simulate":
        from .simulate import check_levels, lobby_options, simulate
        from games import get
        try:
            options = lobby_options(args.game, args.option)
            if args.levels is not None:
                check_levels(get(args.game), args.levels, args.players)
        except (KeyError, ValueError) as exc:
            print(f"gatekeeper simulate: {exc}", file=sys.stderr)
            return 2
        summary = simulate(args.game, args.games, args.seed, args.players, args.level, options,
                           levels=args.levels)
        print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
        return 1 if summary["errors"] else 0
    if args.command == "render":
        from .simulate import render_after
        args.out.write_bytes(render_after(args.game, args.seed, args.moves, args.players))
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
        return 0
    if args.command == "replay":
        return replay(args.game_id, args.out, args.db)
    if args.part == "soak":
        from bench.soak import main as soak_main
        return soak_main(args.games, args.minutes, args.store, args.seed, args.postgres, args.out)
    from bench.run import PARTS, main as bench_main
    return bench_main(args.size, out=args.out, parts=args.only or PARTS)


def level_list(text: str) -> list[str]:
    """`--levels`' value: AI levels, comma-separated, one per player (checked against the game
    once it is known)."""
    levels = [level.strip() for level in text.split(",") if level.strip()]
    if not levels:
        raise argparse.ArgumentTypeError(f"no level in {text!r}: e.g. smart,easy")
    return levels


def bench_parts(text: str) -> tuple[str, ...]:
    """`--only`'s value: benchmark parts, comma-separated."""
    from bench.run import PARTS
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in PARTS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(
            f"unknown part {', '.join(unknown) if unknown else repr(text)}: "
            f"choose from {', '.join(PARTS)}")
    return parts


def format_summary(summary: dict) -> str:
    wins = ", ".join(f"seat {seat}: {n}" for seat, n in summary["wins_by_seat"].items())
    levels = summary.get("levels")
    joined = ", ".join(f"player {who}" + (f" ({levels[who]})" if levels else "") + f": {n}"
                       for who, n in summary["wins_by_player"].items())
    order = "by player (rotating through the seats)" if levels else \
        "by joining order (seats drawn by lot)"
    return (f"{summary['game']}: {summary['finished']}/{summary['games']} games finished, "
            f"{summary['turns_mean']:.1f} turns on average (max {summary['turns_max']}), "
            f"wins by seat: {wins}; {order}: {joined}; "
            f"no winner: {summary['no_winner']}; errors: {summary['errors']}")


def run(started: float) -> int:
    """The bot on Discord; without a token the local sandbox, unless GATEKEEPER_SANDBOX=off
    (a container, whose 127.0.0.1 nobody can reach, needs the token's instructions instead)."""
    sandbox_off = os.environ.get("GATEKEEPER_SANDBOX", "").strip().lower() in ("0", "off", "no")
    if not os.environ.get("DISCORD_TOKEN", "").strip() and not sandbox_off:
        print("DISCORD_TOKEN is not set: starting the local sandbox instead.", flush=True)
        return sandbox(started)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    from .app import GatekeeperBot, point_at
    from .logs import setup_logging
    from .store import Store

    setup_logging(settings.log_level, [settings.token])
    try:
        if settings.db_url:  # no database file whose folder the heartbeat could share
            settings.db_path.parent.mkdir(parents=True, exist_ok=True)
        store = Store(settings.database, **settings.store_options)
    except (StoreError, OSError) as exc:
        print(exc, file=sys.stderr)
        return 2
    point_at(settings)
    try:
        asyncio.run(_run(GatekeeperBot, settings, store))
    except KeyboardInterrupt:  # only before the signal handlers are in place
        pass
    except Exception as exc:  # discord.LoginFailure and friends: say it plainly, without the token
        logging.getLogger("gatekeeper").error("stopped: %s", type(exc).__name__)
        print(f"Gatekeeper stopped: {type(exc).__name__}: {exc}".replace(settings.token, "[redacted]"),
              file=sys.stderr)
        return 1
    return 0


async def _run(bot_class, settings: Settings, store) -> None:
    """Run until Discord ends the session or SIGTERM / SIGINT arrives; either way, close cleanly
    (GatekeeperBot.close: refuse new clicks, finish those in flight, then disconnect and stop the
    render workers)."""
    log = logging.getLogger("gatekeeper")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def on_signal(signum: int) -> None:
        if stop.is_set():
            log.info("signal=%s: already stopping", signal.Signals(signum).name)
        else:
            log.info("signal=%s: stopping", signal.Signals(signum).name)
            stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, on_signal, signum)
    try:
        await _serve(bot_class(settings, store), settings, stop)  # made in the loop it runs on
    finally:
        await store.close()  # message rows written, connections closed, the SQLite lock let go


async def _serve(bot, settings: Settings, stop: asyncio.Event) -> None:
    async with bot:
        session = asyncio.create_task(bot.start(settings.token), name="gatekeeper-session")
        stopped = asyncio.create_task(stop.wait(), name="gatekeeper-signal")
        await asyncio.wait({session, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await bot.close()
        stopped.cancel()
        await session  # returns once closed; raises what ended the session otherwise


def sandbox(started: float) -> int:
    """The bot on the fake Discord, with a web page to play on (sandbox.serve)."""
    from .logs import setup_logging
    from sandbox.serve import serve
    try:
        settings = Settings.from_env(need_token=False)
        where = SandboxSettings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    # the terminal shows the address to open; the bot's chatter only when asked for
    setup_logging(settings.log_level if os.environ.get("GATEKEEPER_LOG_LEVEL") else "WARNING",
                  [settings.token])
    try:
        asyncio.run(serve(settings, where, started, sys.stdout))
    except KeyboardInterrupt:  # only before the signal handlers are in place
        pass
    except (OSError, StoreError) as exc:  # the port or the database is taken...
        print(f"Gatekeeper sandbox stopped: {exc}", file=sys.stderr)
        return 1
    return 0


def health(max_age: float | None) -> int:
    """Exit 0 if the bot using GATEKEEPER_DB wrote a heartbeat lately, else 1 with the reason."""
    from . import health as heartbeat
    try:
        settings = Settings.from_env(need_token=False)
    except ConfigError as exc:
        print(f"unhealthy: {exc}")
        return 1
    ok, why = heartbeat.check(heartbeat.heartbeat_path(settings.db_path),
                              heartbeat.DEFAULT_MAX_AGE if max_age is None else max_age)
    if ok and settings.db_url:
        ok, store = heartbeat.check_database(settings.db_url)
        why = f"{why}; {store}" if ok else store
    print(why if ok else f"unhealthy: {why}")
    return 0 if ok else 1


def replay(game_id: int, out: Path, db: str | None) -> int:
    """Write game `game_id`'s replay to `out`, read-only from the database (a bot may be using it)."""
    from .replay import build, format_of
    from .store import read_game
    try:
        fmt = format_of(out.name)
        target = db or Settings.from_env(need_token=False).database
        row, actions = read_game(target, game_id)
        out.write_bytes(build(row, actions, fmt))
    except (ValueError, LookupError, StoreError, ConfigError, OSError) as exc:
        print(f"gatekeeper replay: {exc}", file=sys.stderr)
        return 2
    except IllegalAction as exc:  # the replay's own refusal (bot.replay.ReplayError)
        print(f"gatekeeper replay: {exc.reason}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
    return 0

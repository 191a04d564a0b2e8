"""Settings, logging, storage errors, the CLI, and the discord.py hook we rely on."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import discord
import pytest

from bot.cli import main
from bot.config import ConfigError, Settings
from bot.logs import RedactFilter
from bot.store import Store, StoreError

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_explains_what_to_do():
    with pytest.raises(ConfigError) as info:
        Settings.from_env({})
    assert "DISCORD_TOKEN" in str(info.value) and "discord.com/developers" in str(info.value)


def test_settings_read_every_variable():
    settings = Settings.from_env({
        "DISCORD_TOKEN": "abc", "GATEKEEPER_DB": "/tmp/x.db", "GATEKEEPER_LOG_LEVEL": "debug",
        "GATEKEEPER_TURN_TIMEOUT": "90", "GATEKEEPER_DEV_GUILD_ID": "42",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
        "GATEKEEPER_SHARD_COUNT": "4", "GATEKEEPER_SHARD_IDS": "2,3",
        "GATEKEEPER_GUILD_READY_TIMEOUT": "0.5"})
    assert settings.db_path == Path("/tmp/x.db") and settings.log_level == "DEBUG"
    assert settings.turn_timeout == 90 and settings.dev_guild_id == 42
    assert settings.api_base == "http://127.0.0.1:9/api/v10"
    assert settings.shard_ids == (2, 3) and settings.shard_count == 4
    assert settings.guild_ready_timeout == 0.5
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).guild_ready_timeout == 2.0  # discord.py's
    assert "abc" not in repr(settings)
    with pytest.raises(ConfigError, match="not a number"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "GATEKEEPER_TURN_TIMEOUT": "soon"})
    for bad in ("-1", "nan", "inf"):  # inf would keep the bot waiting for late guilds for good
        with pytest.raises(ConfigError, match="GUILD_READY_TIMEOUT must be 0 seconds or more"):
            Settings.from_env({"DISCORD_TOKEN": "abc", "GATEKEEPER_GUILD_READY_TIMEOUT": bad})


def test_token_is_scrubbed_from_logs():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "login with %s failed",
                               ("sekrit.token",), None)
    RedactFilter(["sekrit.token"]).filter(record)
    assert "sekrit.token" not in record.getMessage() and "[redacted]" in record.getMessage()


def test_unwritable_database_path_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError) as info:
        Store(blocker / "db" / "gatekeeper.db")
    assert "GATEKEEPER_DB" in str(info.value) and str(blocker) in str(info.value)


def test_store_creates_schema_in_wal_mode(tmp_path):
    store = Store(tmp_path / "new" / "gk.db")
    assert {"games", "actions", "timers", "messages", "stats"} <= set(store.db.table_names())
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_simulate_and_render_commands(tmp_path, capsys):
    assert main(["simulate", "castle", "--games", "6", "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] == 6 and summary["errors"] == []
    assert sum(summary["wins_by_seat"].values()) + summary["no_winner"] == 6
    out = tmp_path / "board.png"
    assert main(["simulate", "dontgo", "--games", "12", "--seed", "3", "--players", "3"]) == 0
    assert "by joining order (seats drawn by lot): player 0:" in capsys.readouterr().out
    assert main(["render", "castle", "--seed", "3", "--moves", "12", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_discord_py_still_has_the_bucket_sweep_we_throttle():
    from bot.app import throttle_bucket_sweep
    http = discord.http.HTTPClient(None)  # type: ignore[arg-type]
    calls = []
    http._try_clear_expired_ratelimits = lambda: calls.append(1)
    now = [0.5]  # a machine booted half a second ago: monotonic time is tiny
    throttle_bucket_sweep(http, every=3600, clock=lambda: now[0])
    http._try_clear_expired_ratelimits()
    http._try_clear_expired_ratelimits()
    assert calls == [1]
    now[0] += 3600
    http._try_clear_expired_ratelimits()
    assert calls == [1, 1]
    assert hasattr(discord.http.HTTPClient, "_try_clear_expired_ratelimits")


def test_simulate_takes_lobby_options(capsys):
    assert main(["simulate", "atmosfear", "--games", "2", "--players", "3", "--seed", "5",
                 "--option", "minutes=20", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["options"] == {"minutes": 20} and summary["finished"] == 2
    assert main(["simulate", "atmosfear", "--games", "1", "--option", "minutes=21"]) == 2
    assert "minutes must be one of 40, 20, 60" in capsys.readouterr().err
    assert main(["simulate", "castle", "--games", "1", "--option", "speed=fast"]) == 2
    assert "castle takes: none" in capsys.readouterr().err


def test_simulate_counts_wins_by_joining_order_through_the_tables_lot():
    """`wins_by_player` is what players see of seat order: each game's winning seats turned into
    who joined there, by the same lot the table draws (`seating`), game by game."""
    from bot.simulate import play, simulate
    from games.core import seating
    summary = simulate("dontgo", 30, 5, players=3)
    expected: dict[int, int] = {}
    for index in range(30):
        for seat in play("dontgo", 3, 5 + index).result["winners"]:
            who = seating(5 + index, 3)[seat]
            expected[who] = expected.get(who, 0) + 1
    assert summary["wins_by_player"] == dict(sorted(expected.items()))
    assert sum(summary["wins_by_player"].values()) == sum(summary["wins_by_seat"].values())
    assert summary["wins_by_player"] != summary["wins_by_seat"]  # the lot did move winners



def test_a_long_name_gives_way_to_the_choice_on_a_shared_button():
    from bot.ui import seat_prefixed
    label = "A · Sleeping Giant, near side (the Giant wakes on a 6: 3 throws)"
    assert seat_prefixed("Ana", label) == f"Ana · {label}"
    long = seat_prefixed("Bartholomew the Magnificent III", label)
    assert len(long) <= 80 and long.endswith(f" · {label}") and long.startswith("Bartholo")


def test_buttons_and_panels_name_players_as_events_do():
    """An engine knows seats, not names: its prompt says "{p1}" as its events do, and the
    table's cached prompts, which buttons, panels, typed moves and autocomplete all read, say
    the player's name."""
    import games
    from bot.choices import walk
    from bot.table import Seat, Table, named_prompt
    from bot.ui import panel_view, turn_rows
    from games.core import Choice, Prompt, Step
    choices = [Choice("confer blue", (Step("confer-blue", "Confer with {p1}"),)),
               Choice("fight blue", (Step("fight-blue", "Attack {p1}"),))]
    named = named_prompt(Prompt(0, "{p1} is here", choices), ["Ana", "Bo"])
    assert named.text == "Bo is here"
    assert [c.label for c in named.choices] == ["Confer with Bo", "Attack Bo"]
    assert [c.action for c in named.choices] == ["confer blue", "fight blue"]
    plain = Prompt(0, "Your turn", [Choice("roll", (Step("roll", "Roll"),))])
    assert named_prompt(plain, ["Ana", "Bo"]) is plain  # nobody named: the prompt itself
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("firetop"), host_id=1, seed=1,
                  options={}, seats=[Seat("Ana", 1), Seat("Bo", 2)], status="running",
                  prompts=[named, None], tokens=[0, 0])
    labels = [item.label for row in turn_rows(table, "en") for item in row.children]
    assert labels[:2] == ["Confer with Bo", "Attack Bo"]
    panel = panel_view(table, 0, walk(named.choices, []), "en")
    assert [item.label for item in panel.children][:2] == ["Confer with Bo", "Attack Bo"]


def test_engine_words_given_as_message_ids_read_in_each_readers_language():
    """An engine may word its prompts and events as message ids (`Msg`), players as {p1}:
    each reader gets them in their language with names filled, the table keeps the engine's
    own prompt (what the AI and the buttons' tokens read), and a message kept in a game's JSON
    state (`Msg.stored`) reads the same."""
    import json

    import games
    from bot.table import Seat, Table, fill_names
    from data.locales import Msg
    from games.core import Choice, Prompt, Step
    back = Msg("notice.back", name="{p1}")
    raw = Prompt(0, back, [Choice("wait", (Step("wait", back),))])
    table = Table(id=1, guild_id=1, channel_id=1, game=games.get("firetop"), host_id=1, seed=1,
                  options={}, seats=[Seat("Ana", 1), Seat("Bo", 2)], status="running",
                  prompts=[raw, None], tokens=[0, 0])
    english, german = table.prompt(0, "en"), table.prompt(0, "de")
    assert english.text == "👋 Bo is back: their turns wait for them again."
    assert german.text == "👋 Bo ist zurück und spielt wieder selbst."
    assert german.choices[0].label == german.text and german.choices[0].action == "wait"
    assert table.prompt(0, "de") is german and table.prompts[0] is raw  # cached; raw kept
    table.prompts = [Prompt(0, "Your turn", []), None]
    assert table.prompt(0, "de").text == "Your turn"  # a new prompt is worded anew
    assert table.prompt(1, "de") is None
    stored = json.loads(json.dumps(Msg("notice.away", name="{p0}", when=Msg(
        "notice.away_until_back"), turns=Msg("notice.away_ai")).stored()))
    assert fill_names(stored, ["Ana", "Bo"], "de") == fill_names(Msg(
        "notice.away", name="{p0}", when=Msg("notice.away_until_back"),
        turns=Msg("notice.away_ai")), ["Ana", "Bo"], "de")
    assert "Ana" in fill_names(stored, ["Ana", "Bo"], "de")

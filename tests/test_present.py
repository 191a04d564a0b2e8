"""Words shown in the channel: result tables and name placeholders."""
from bot.present import public_lines, result_text, score_table
from bot.table import Seat, Table
from games.core import Event
import games


def table_with(result):
    return Table(id=1, guild_id=1, channel_id=1, game=games.get("castle"), host_id=1, seed=1,
                 options={}, seats=[Seat("Ana", 1), Seat("Bo", 2)], status="over", result=result)


def test_score_table_lines_up_names_and_values():
    table = table_with({"winners": [1], "reason": "fewest curses",
                        "scores": {"header": ["Curses", "Total"], "rows": [[1, 9, 9], [0, 12, 14]]}})
    text = score_table(table)
    lines = text.strip("`\n").splitlines()
    assert lines[0].split() == ["Player", "Curses", "Total"]
    assert lines[1].split() == ["Bo", "9", "9"] and lines[2].split() == ["Ana", "12", "14"]
    assert "Bo wins" in result_text(table)


def test_score_table_shows_names_of_32_characters_whole():
    table = table_with({"winners": [0], "reason": "most keys",
                        "scores": {"header": ["Keys"], "rows": [[0, 3], [1, 1]]}})
    table.seats = [Seat("Bartholomew the Magnificent, III", 1), Seat("Bob the Spectator", 2)]
    lines = score_table(table).strip("`\n").splitlines()
    column = lines[0].index("Keys")
    assert lines[1].rstrip() == "Bartholomew the Magnificent, III".ljust(column) + "3"
    assert lines[2].rstrip() == "Bob the Spectator".ljust(column) + "1"


def test_no_scores_no_table_and_shared_victory():
    table = table_with({"winners": [0, 1], "reason": "tie", "scores": None})
    assert score_table(table) == ""
    assert "Ana and Bo win!" in result_text(table)


def test_private_events_never_reach_the_channel():
    table = table_with(None)
    lines = public_lines(table, [Event("{p0} moved to C4."), Event("You drew a Net.", to=(0,))])
    assert lines == ["Ana moved to C4."]

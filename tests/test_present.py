"""Words shown in the channel: result tables and name placeholders."""
from bot.present import public_lines, result_text, score_table
from bot.table import Seat, Table
from games.core import Event
import games


def table_with(result):
    return Table(id=1, guild_id=1, channel_id=1, game=games.get("castle"), host_id=1, seed=1,
                 options={}, seats=[Seat("Ana", 1), Seat("Bo", 2)], status="over", result=result)


def visible(line: str) -> str:
    """A line as a phone shows it: without its Markdown marks."""
    return line.removeprefix("-# ").replace("**", "")


def test_final_scores_read_one_player_a_line_on_a_phone():
    """Don't Go In There's five columns wrapped into an unreadable grid at 390 px: each player
    now gets a line, name first and total after, and the figures behind it on a short line."""
    table = table_with({"winners": [1], "reason": "fewest curses",
                        "scores": {"header": ["Curses", "Ghosts", "Penalty", "Bonus", "Total"],
                                   "rows": [[1, 9, 2, 0, 1, 8], [0, 12, 5, 2, 0, 14]]}})
    text = score_table(table)
    assert text.splitlines() == ["**Bo** · Total 8", "-# curses 9, ghosts 2, bonus 1",
                                 "**Ana** · Total 14", "-# curses 12, ghosts 5, penalty 2"]
    assert "```" not in text and "|" not in text
    assert all(len(visible(line)) <= 40 for line in text.splitlines())
    assert "Bo wins" in result_text(table, "en")


def test_score_table_shows_names_of_32_characters_whole():
    table = table_with({"winners": [0], "reason": "most keys",
                        "scores": {"header": ["Keys"], "rows": [[0, 3], [1, 1]]}})
    table.seats = [Seat("Bartholomew the Magnificent, III", 1), Seat("Bob the Spectator", 2)]
    assert score_table(table).splitlines() == ["**Bartholomew the Magnificent, III** · Keys 3",
                                               "**Bob the Spectator** · Keys 1"]


def test_no_scores_no_table_and_shared_victory():
    table = table_with({"winners": [0, 1], "reason": "tie", "scores": None})
    assert score_table(table) == ""
    assert "Ana and Bo win!" in result_text(table, "en")
    assert result_text(table, "de") == "🏆 Ana und Bo gewinnen! (tie)"
    assert result_text(table, "es") == "🏆 ¡Ganan Ana y Bo! (tie)"


def test_private_events_never_reach_the_channel():
    table = table_with(None)
    lines = public_lines(table, [Event("{p0} moved to C4."), Event("You drew a Net.", to=(0,))])
    assert lines == ["Ana moved to C4."]


def test_final_table_results_have_no_grid_and_short_lines():
    """The final table's results (players, then scores) hold no code block to wrap on a phone."""
    from bot.livetable import _results
    table = table_with({"winners": [1], "reason": "fewest curses",
                        "scores": {"header": ["Curses", "Ghosts", "Penalty", "Bonus", "Total"],
                                   "rows": [[1, 9, 2, 0, 1, 8], [0, 12, 5, 2, 0, 14]]}})
    text = "\n".join(_results(table, "en"))
    assert "```" not in text and "Total 14" in text
    assert all(len(visible(line)) <= 40 for line in text.splitlines())


def test_final_scores_and_reason_read_in_the_readers_language():
    """Don't Go In There keeps its columns and reason as messages: a German table reads them in
    German, a half curse as 1,5."""
    game = games.get("dontgo")
    from data.locales import Msg
    header = [Msg(f"game.dontgo.score.{c}").stored()
              for c in ("curses", "ghosts", "penalty", "bonus", "total")]
    table = Table(id=1, guild_id=1, channel_id=1, game=game, host_id=1, seed=1, options={},
                  seats=[Seat("Ana", 1), Seat("Bo", 2)], status="over",
                  result={"winners": [1], "reason": Msg("game.dontgo.result.fewest_curses").stored(),
                          "scores": {"header": header, "rows": [[1, 9, 2, 0, 1.5, 7.5],
                                                               [0, 12, 5, 2, 0, 14]]}})
    assert score_table(table, "de").splitlines() == [
        "**Bo** · Summe 7,5", "-# flüche 9, geister 2, bonus 1,5",
        "**Ana** · Summe 14", "-# flüche 12, geister 5, strafe 2"]
    assert result_text(table, "es") == "🏆 ¡Gana Bo! (menos maldiciones)"
    assert score_table(table).splitlines()[0] == "**Bo** · Total 7.5"

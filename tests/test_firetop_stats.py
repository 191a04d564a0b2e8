"""The public tally behind Firetop's balance figures (games/firetop/stats.py) counts what it says."""
from __future__ import annotations

from games.firetop.stats import describe, summary
from tests.test_firetop_rules import act, fresh, in_battle, player, put, rig, turn_of


def test_the_tally_counts_monster_fights_escapes_deaths_and_maze_entries():
    st = in_battle(fresh(), 0, "orc")
    assert st.data["tally"]["fights"] == 1
    st, _ = act(rig(st, 4, 4, 4, 4), 0, "attack")
    fled, _ = act(rig(st, 6), 0, "escape")
    assert fled.data["tally"] == {"fights": 1, "fled": 1, "slain": 0, "killed": 0, "maze": 0}
    player(st, 0)["stamina"] = 2
    slain, _ = act(rig(st, 1, 1, 6, 6), 0, "attack")
    assert slain.data["tally"]["slain"] == 1 and slain.data["tally"]["fled"] == 0
    maze = fresh()
    turn_of(maze, 0)
    put(maze, 0, "B9")
    maze, _ = act(maze, 0, "move B8")
    assert maze.data["tally"]["maze"] == 1


def test_the_summary_reads_tallies_and_wins_by_skill():
    a, b = fresh(2, seed=1), fresh(2, seed=2)
    for st, fights, slain in ((a, 4, 1), (b, 6, 0)):
        st.data["tally"].update(fights=fights, slain=slain, fled=1)
        for seat, skill in enumerate((9, 11)):
            player(st, seat)["skill0"] = skill
    a.data["winner"] = 0
    b.data["tally"]["maze"] = 2
    figures = summary([a, b])
    assert figures["lost_or_fled"] == (1 + 2) / 10 and figures["slain_per_game"] == 0.5
    assert figures["maze_games"] == 0.5 and figures["skill_share"] == {9: 2.0, 11: 0.0}
    assert "Maze entered in 50%" in describe(figures)


def test_in_self_play_monsters_are_a_danger_and_the_maze_a_short_cut():
    """A modest run of the balance figures (rules.md's table has 400 games a size): monsters drive
    off or kill a real share of the adventurers who fight them, and the Maze gets used."""
    from bot.simulate import play
    figures = summary(play("firetop", 2 + i % 5, 1 + i) for i in range(40))
    assert 0.15 <= figures["lost_or_fled"] <= 0.45
    assert figures["slain_per_game"] >= 0.15 and figures["maze_games"] >= 0.5
    assert figures["won"] >= 30

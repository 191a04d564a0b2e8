"""Key to the Kingdom, typed moves: equipment and hazards by the names the buttons show (phones'
curly apostrophes too), a hazard's way by the item it uses, and refusals that list what to type."""
from __future__ import annotations

import pytest

from games.kingdom import GAME
from tests.kingdom_helpers import act as scripted, actions, me, position, task_at
from tests.rules_helpers import act, refused
from tests.test_kingdom_rules import et


def snake_pit(equip):
    """Seat 0 has fallen into the Snake Pit carrying `equip`."""
    st, _ = scripted(et("snake_a", equip), 0, "cross snake_pit", "roll", "roll", "roll", dice=[1, 2, 3])
    assert task_at(st) == "snake_pit.way"
    return st


@pytest.mark.parametrize("typed", ["use grappling hook", "use the Grappling Hook", "use Grappling-Hook",
                                   "use hook"])
def test_equipment_is_typed_by_its_name(typed):
    st = snake_pit(["hook", "rope"])
    st, _ = act(GAME, st, 0, typed)
    assert task_at(st) == "snake_pit.hook"


def fallen_in_the_well(equip):
    st, _ = scripted(position("well_a", equip), 0, "cross well_of_doom", "roll", "roll", dice=[2, 2])
    assert sorted(actions(st)) == ["use cord", "use shield"]
    return st


def test_a_way_is_typed_by_the_item_it_uses():
    st = fallen_in_the_well(["rope", "shield"])     # "Rope or Hook: a 2 in 4 rolls" is the way "cord"
    roped, _ = act(GAME, st, 0, "use rope")
    corded, _ = act(GAME, st, 0, "use cord")
    assert task_at(roped) == task_at(corded) and roped.data == corded.data
    refused(GAME, st, 0, "use hook", "You can type:", "`use cord/shield`")   # he has no hook


@pytest.mark.parametrize("typed", ["cross Spider’s Web", "cross the Spider's Web", "cross spiders web",
                                   "cross spiders_web"])
def test_a_hazard_is_typed_by_its_name_with_any_apostrophe(typed):
    st, _ = act(GAME, position("web_a"), 0, typed)
    assert me(st)["task"]["hz"] == "spiders_web"


def test_a_refused_move_lists_the_words_to_type():
    reason = refused(GAME, position("bone_a"), 0, "jump", "You can type:", "`roll`", "`cross bone pit`")
    assert "bone_pit" not in reason
    well = fallen_in_the_well(["shield", "hook"])
    refused(GAME, well, 0, "use jump", "`use cord/shield`")
    fight = position("btk_n", ["fire"])
    fight.data["monster_deck"].append("troll")
    fight, _ = scripted(fight, 0, "fight")
    refused(GAME, fight, 0, "use sword", "`use fire/bare`")

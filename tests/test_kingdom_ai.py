"""Key to the Kingdom AIs: smart beats random, decides from its seat's view only, and makes the
obvious good choices (escape, the best way through a hazard, the Demon King onto a rival, run from
a fold, Deep Magic when the fold would catch it)."""
from __future__ import annotations

import pytest

from bot.simulate import simulate
from games.core import Rng, decide, setup
from games.kingdom import GAME
from games.kingdom.stock import TREASURES
from tests.kingdom_helpers import act, actions, fresh, me, position, put, safe_demon

from tests import rules_helpers


def self_play(seats: int, seed: int, levels: list[str]):
    return rules_helpers.self_play(GAME, seats, seed, levels)


def test_smart_beats_random_in_two_player_games():
    wins = 0
    for seed in range(24):
        smart = seed % 2
        levels = ["random", "random"]
        levels[smart] = "smart"
        state = self_play(2, seed, levels)
        wins += state.result["winners"] == [smart]
    assert wins >= 18, f"smart AI won only {wins}/24"


def test_smart_games_end_with_a_winner_through_simulate():
    for players in (2, 3, 4):
        report = simulate("kingdom", 6, 1000, players=players, level="smart")
        assert report["errors"] == [] and report["finished"] == 6
        assert report["no_winner"] <= 1 and sum(report["wins_by_seat"].values()) >= 5


def hidden_shuffle(state, seat: int):
    """Swap which Treasure is where among everything `seat` cannot see."""
    other = state.copy()
    d = other.data
    slots = [("loc", k) for k, v in d["locations"].items() if v is not None]
    slots += [("lost", i) for i in range(len(d["lost_treasure"]))]
    for s, pl in enumerate(d["players"]):
        if s != seat:
            slots += [("hand", (s, i)) for i in range(len(pl["hand"]))]

    def get(slot):
        kind, where = slot
        if kind == "loc":
            return d["locations"][where]
        if kind == "lost":
            return d["lost_treasure"][where]
        return d["players"][where[0]]["hand"][where[1]]

    def put_(slot, value):
        kind, where = slot
        if kind == "loc":
            d["locations"][where] = value
        elif kind == "lost":
            d["lost_treasure"][where] = value
        else:
            d["players"][where[0]]["hand"][where[1]] = value

    values = [get(s) for s in slots]
    values = values[1:] + values[:1]
    for slot, value in zip(slots, values):
        put_(slot, value)
    # the Cobra never sits in a hand or at a Key Location: swap it back if it moved there
    for slot in slots:
        if get(slot) == "cobra" and slot[0] != "lost":
            lost_slot = next(s for s in slots if s[0] == "lost")
            a, b = get(slot), get(lost_slot)
            put_(slot, b)
            put_(lost_slot, a)
    return other


def test_ai_choice_is_unchanged_when_hidden_treasures_are_reshuffled():
    checked = 0
    for seed in range(6):
        state = setup(GAME, 3, {}, seed)
        rng = Rng(seed)
        for _ in range(250):
            if state.over:
                break
            waiting = [s for s in range(3) if GAME.prompt(state, s) is not None]
            seat = waiting[0]
            other = hidden_shuffle(state, seat)
            assert GAME.view(other, seat) == GAME.view(state, seat)
            assert decide(GAME, other, seat, Rng(7), "smart") == decide(GAME, state, seat, Rng(7), "smart")
            checked += 1
            from games.core import apply
            state = apply(GAME, state, seat, decide(GAME, state, seat, rng, "smart")).state
    assert checked > 500


def test_random_level_picks_from_the_prompt():
    state = setup(GAME, 3, {}, 8)
    legal = {c.action for c in GAME.prompt(state, 0).choices}
    for i in range(20):
        assert decide(GAME, state, 0, Rng(i), "random") in legal


def smart(st, seat=0):
    return decide(GAME, st, seat, Rng(3), "smart")


def test_smart_escapes_through_the_gate_when_it_can():
    st = position("h1", hand=["key", "orb"])
    st.data["demon"] = "h7"
    st, _ = act(st, 0, "roll", dice=[2])
    st = safe_demon(st)
    assert smart(st) == "move gate"


def test_smart_fights_with_what_the_monster_fears_most():
    st = position("btk_n", ["sword", "fire", "net"])
    st.data["monster_deck"].append("bats")          # fears Fire +3, Net +2
    st, _ = act(st, 0, "fight")
    assert smart(st) == "use fire"


def test_smart_picks_the_hazard_way_with_the_best_odds():
    # Living Forest branch: Fire needs a 6 (1 in 8); the Axe an odd number in 3 (7 in 8)
    st = position("forest_a", ["fire", "axe"])
    st, _ = act(st, 0, "cross living_forest", "roll", "roll", dice=[2, 1])
    assert sorted(actions(st)) == ["use axe", "use fire"]
    assert smart(st) == "use axe"


def test_smart_moves_the_demon_king_onto_a_rival_not_itself():
    st = position("gate", seats=2)
    put(st, 1, "h4", hand=["crown"])
    st.data["demon"] = "h6"
    st, _ = act(st, 0, "roll", dice=[3])
    assert smart(st) == "demon h3"


def test_smart_uses_deep_magic_when_the_fold_would_catch_it():
    st = position("bp", seats=2)
    put(st, 1, "b5")
    me(st, 1)["deep"] = 1
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move wpool")
    assert smart(st, 1) == "deep"


def test_smart_runs_off_the_folding_panel():
    st = position("bp", seats=2)
    put(st, 1, "b5")
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[1])
    st = safe_demon(st)
    st, _ = act(st, 0, "move wpool")
    st, _ = act(st, 1, "roll", dice=[2])
    assert smart(st, 1) == "move h2"


def test_smart_heads_for_hidden_worlds_through_a_whirlpool():
    st = position("bp", seats=2)
    st.data["demon"] = "h9"
    for loc in st.data["locations"]:
        if loc not in ("etk",):
            st.data["locations"][loc] = None
    st.data["locations"]["etk"] = "key"
    st, _ = act(st, 0, "roll", dice=[2])
    st = safe_demon(st)
    assert smart(st) == "move wpool"


@pytest.mark.parametrize("treasure", sorted(TREASURES))
def test_treasure_names_never_reach_the_ai_through_another_seats_view(treasure):
    st = position("h3", seats=2)
    put(st, 1, "h5", hand=[treasure])
    assert treasure not in str(GAME.view(st, 0)["hand"])


def figures(count: int = 100, seed: int = 1000) -> None:
    """Self-play figures for the report (not a test): python -m tests.test_kingdom_ai [games]."""
    for players in (2, 3, 4):
        r = simulate("kingdom", count, seed, players=players, level="smart")
        share = {s: f"{100 * w / count:.0f}%" for s, w in r["wins_by_seat"].items()}
        print(f"{players} players: {r['finished']}/{count} finished, {r['no_winner']} without a winner, "
              f"{r['turns_mean']:.1f} turns on average ({r['turns_mean'] / players:.1f} rounds), "
              f"longest {r['turns_max']}; wins by seat {share}; errors {len(r['errors'])}")


if __name__ == "__main__":
    import sys
    figures(int(sys.argv[1]) if len(sys.argv) > 1 else 100)


def test_smart_goes_round_the_whirlpool_section_when_barred_from_the_rainbow():
    from games.core import Prompt
    from games.kingdom.ai import choose
    from tests.kingdom_helpers import act, position, safe_demon
    st = position("rain_a", hand=["crown"])
    st.data["fold"]["west"] = "out"
    st.data["players"][0]["barred"] = "magic_rainbow"
    st.data["lost_equip"] = [{"item": "rope", "owner": 0}, {"item": "axe", "owner": 0}]
    st.data["demon"] = "h9"
    st, _ = act(st, 0, "roll", dice=[5])
    st = safe_demon(st)
    prompt = GAME.prompt(st, 0)
    assert "move e7" in [c.action for c in prompt.choices]          # stopping short of the 5
    assert choose(GAME.view(st, 0), Prompt(0, prompt.text, prompt.choices), Rng(1)) == "move e7"


def test_smart_lets_a_rival_without_treasure_fold_but_stops_one_who_carries_some():
    for hand, wanted in (([], "let"), (["crown"], "deep")):
        st = position("bp", seats=3, hand=hand)
        put(st, 1, "gate")
        put(st, 2, "h10")  # off the West panel: the fold would not catch seat 2
        me(st, 2)["deep"] = 1
        st.data["demon"] = "h6"
        st, _ = act(st, 0, "roll", dice=[1])
        st = safe_demon(st)
        st, _ = act(st, 0, "move wpool")
        assert smart(st, 2) == wanted, hand


def test_a_key_location_a_rival_is_nearer_to_counts_as_further_away():
    from games.kingdom import ai
    st = fresh(3)
    for s in range(3):
        put(st, s, "gate", equip=[])
    put(st, 1, "moat_a")
    view = GAME.view(st, 0)
    spread = dict(ai.goals(view, 0))
    assert spread["castle"] == ai.FIGHT + ai.PREFS["crowded"]
    assert dict(ai.goals(GAME.view(st, 1), 1))["castle"] == ai.FIGHT  # the nearer one keeps its aim


def test_a_space_a_rival_can_reach_with_one_throw_is_exposed():
    from games.kingdom import ai
    st = fresh(2)
    put(st, 0, "gate")
    put(st, 1, "h4")
    view = GAME.view(st, 0)
    assert ai.exposed("h6", view, 0) and not ai.exposed("castle", view, 0)


def test_one_lost_piece_of_its_own_equipment_puts_the_wizard_among_its_goals():
    """The Wizard returns everything one has lost: a single lost piece already makes the trip pay
    (it took two before), a lost Treasure holder makes it pay sooner, the Cobra alone does not."""
    from games.kingdom import ai
    from games.kingdom.board import BOARD
    st = fresh(2)
    put(st, 0, "e6")
    st.data["fold"]["west"] = "out"
    assert st.data["lost_treasure"] == ["cobra"]
    assert BOARD.wizard not in dict(ai.goals(GAME.view(st, 0), 0))
    st.data["lost_equip"] = [{"item": "rope", "owner": 0}]
    assert BOARD.wizard in dict(ai.goals(GAME.view(st, 0), 0))
    me(st)["wizard_used"] = True
    assert BOARD.wizard not in dict(ai.goals(GAME.view(st, 0), 0))
    assert ai.wizard_cost(0, 1) < ai.wizard_cost(1, 0) < ai.wizard_cost(0, 0)



def hard_policy(st, seat=0):
    from games.kingdom import hard
    prompt = GAME.prompt(st, seat)
    return hard.choose(GAME.ai_view(st, seat, "smart", prompt), prompt, Rng(3))


def test_hard_s_policy_suspects_the_likeliest_holder_of_the_key():
    from games.kingdom.hard import key_odds, with_suspect
    st = position("gate", seats=2)
    for loc in sorted(st.data["locations"])[:4]:
        st.data["locations"][loc] = None
    put(st, 0, hand=["orb"])
    put(st, 1, "h4", hand=["crown", "sceptre"])
    view = GAME.view(st, 0)
    assert key_odds(view, 0) == {1: 0.5}  # two of the four holders seat 0 cannot see
    assert with_suspect(view, 0)["knows"] == {"key": 1} and view["knows"] == {"key": None}
    put(st, 0, hand=["key"])
    assert with_suspect(GAME.view(st, 0), 0)["knows"] == {"key": None}


def test_hard_s_policy_goes_to_rob_a_rival_within_reach_before_it_holds_the_key():
    from games.core import Prompt
    from games.kingdom.ai import Smart, cost
    from games.kingdom.hard import REACH, ROB, Hard
    st = position("h1", seats=2)
    put(st, 1, "h4", hand=["crown"])
    view = GAME.view(st, 0)
    prompt = Prompt(0, "", [])
    assert ("h4", ROB) in Hard(view, prompt, Rng(1)).targets
    assert all(target != "h4" for target, _ in Smart(view, prompt, Rng(1)).targets)
    put(st, 1, "b3")  # farther than REACH turns: left alone
    assert cost("h1", st.data["fold"], "b3") > REACH
    assert all(target != "b3" for target, _ in Hard(GAME.view(st, 0), prompt, Rng(1)).targets)

"""Every place a choice names can be found on the board: the choice's label repeats the marker
the public view hands the renderer (Kingdom and Firetop: letters on the reachable places;
Atmosfear: the number beside each Flight stone), and the renderer draws it. Labels fit
Discord's limits."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

import games
from bot.simulate import play
from bot.table import named_prompt
from games.core import Game, State, apply, setup
from games.core.marks import mark_label, marked, marker
from render.atmosfear import draw_atmosfear
from render.firetop import draw_firetop
from render.kingdom import draw_kingdom
from tests.drawn_text import record_drawn_text

BUTTON_LABEL = 80  # Discord's limit on a button's label (a select option's is 100)


def positions(name: str, seats: int, seed: int, actions: int = 600) -> Iterator[State]:
    """Every state of one seeded self-play game, replayed through the checked door."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    play(name, seats, seed, log=log, max_actions=actions)
    state = setup(game, seats, None, seed)
    yield state
    for seat, action, now in log:
        state = apply(game, state, seat, action, now).state
        yield state


def prompts(game: Game, state: State) -> Iterator[Any]:
    """Each seat's prompt in English, its players still {p0}.. (an engine may word it as
    message ids)."""
    for seat in range(state.seats):
        prompt = named_prompt(game.prompt(state, seat), [])
        if prompt is not None:
            yield prompt


def test_markers_run_a_to_z_then_on_without_repeating():
    assert [marker(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]
    assert marked(["x", "y", "x", "z"]) == {"x": "A", "y": "B", "z": "C"}
    assert mark_label("C", "the Gate") == "C · Gate"
    assert mark_label("D", "an equipment cache in the Heartland") == "D · Equipment cache in the Heartland"
    assert mark_label("E", "Out to the Sleeping Giant, near side") == "E · Out to the Sleeping Giant, near side"


@pytest.mark.parametrize("seed", [1, 2])
def test_kingdom_buttons_repeat_the_letters_the_board_view_carries(seed):
    game = games.get("kingdom")
    seen = 0
    for state in positions("kingdom", 3, seed):
        view = game.view(state, None)
        marks = {m["space"]: m["mark"] for m in view["marks"]}
        assert list(marks.values()) == [marker(i) for i in range(len(marks))]
        named = []
        for prompt in prompts(game, state):
            for choice in prompt.choices:
                verb, _, place = choice.action.partition(" ")
                if verb in ("move", "demon", "go"):
                    assert place in marks, (choice, marks)
                    assert choice.label.startswith(f"{marks[place]} · "), choice.label
                    named.append(place)
        if named:
            seen += 1
            # the buttons list the places in letter order, and name every marked place
            assert list(dict.fromkeys(named)) == list(marks)
    assert seen > 20


def test_kingdom_a_typed_letter_is_the_place_it_marks():
    game = games.get("kingdom")
    state = next(s for s in positions("kingdom", 2, 3) if s.data["phase"] == "move" and len(game.marks(s.data)) > 1)
    space, letter = list(game.marks(state.data).items())[1]
    seat = state.data["current"]
    by_letter = apply(game, state, seat, f"move {letter.lower()}").state
    by_id = apply(game, state, seat, f"move {space}").state
    assert by_letter.to_json() == by_id.to_json()
    assert by_letter.data["players"][seat]["at"] == space


def test_kingdom_a_hazard_may_be_typed_by_its_name():
    game = games.get("kingdom")
    state = next(s for s in positions("kingdom", 2, 1)
                 if any(c.action.startswith("cross ") for p in prompts(game, s) for c in p.choices))
    seat = state.data["current"]
    action = next(c.action for c in game.prompt(state, seat).choices if c.action.startswith("cross "))
    words = " ".join(action.split()[1].split("_"))
    assert apply(game, state, seat, f"cross the {words}").state.to_json() == \
        apply(game, state, seat, action).state.to_json()


@pytest.mark.parametrize("seed", [1, 2])
def test_firetop_buttons_repeat_the_letters_the_board_view_carries(seed):
    game = games.get("firetop")
    seen = 0
    for state in positions("firetop", 3, seed):
        marks = {m["node"]: m["mark"] for m in game.view(state, None)["marks"]}
        assert list(marks.values()) == [marker(i) for i in range(len(marks))]
        for prompt in prompts(game, state):
            here = state.data["players"][prompt.seat]["pos"]
            places = [c for c in prompt.choices if c.action.startswith("move ") and c.action.split()[1] != here]
            if not places:
                continue
            assert prompt.seat == (state.data["queue"][0]["seat"] if state.data["queue"] else state.data["current"])
            assert [c.action.split()[1] for c in places] == list(marks)
            for choice in places:
                assert choice.path[-1].label.startswith(f"{marks[choice.action.split()[1]]} · ")
            seen += 1
    assert seen > 10


def test_firetop_a_typed_letter_is_the_place_it_marks():
    game = games.get("firetop")
    state = next(s for s in positions("firetop", 2, 2) if len(game.marks(s)) > 2)
    node, letter = list(game.marks(state).items())[2]
    seat = state.data["queue"][0]["seat"] if state.data["queue"] else state.data["current"]
    by_letter = apply(game, state, seat, f"move {letter.lower()}").state
    assert by_letter.to_json() == apply(game, state, seat, f"move {node}").state.to_json()


def test_atmosfear_flight_buttons_name_the_number_drawn_beside_the_stone():
    game = games.get("atmosfear")
    engine = type(game).__module__
    flights = 0
    for state in positions("atmosfear", 3, 1, actions=900):
        numbers = {s["id"]: s["mark"] for s in game.view(state, None)["board"]["outer"] if s["mark"]}
        assert set(numbers) == {s["id"] for s in game.view(state, None)["board"]["outer"] if s["kind"] == "flight"}
        for prompt in prompts(game, state):
            for choice in prompt.choices:
                if choice.action.startswith("fly "):
                    stone = choice.action.split()[1]
                    assert choice.label.endswith(f"Flight stone {numbers[stone]}"), choice.label
                    typed = apply(game, state, prompt.seat, f"fly {numbers[stone]}", 0.0)
                    assert typed.state.data["players"][prompt.seat]["pos"] == stone
                    flights += 1
    assert flights, f"no flight offered in {engine}'s seeded game"


@pytest.mark.parametrize("name", sorted(g.name for g in games.all_games()))
def test_every_label_fits_a_button(name):
    game = games.get(name)
    seats = max(game.min_seats, min(4, game.max_seats))
    for seed in (1, 2):
        for state in positions(name, seats, seed, actions=800):
            for prompt in prompts(game, state):
                for choice in prompt.choices:
                    assert len(choice.label) <= BUTTON_LABEL, choice.label
                    assert all(len(step.label) <= BUTTON_LABEL for step in choice.path), choice.label


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    return record_drawn_text(monkeypatch)


@pytest.mark.parametrize("name, draw", [("kingdom", draw_kingdom), ("firetop", draw_firetop)])
def test_the_board_draws_the_letters_of_its_view(drawn, name, draw):
    game = games.get(name)
    state = next(s for s in positions(name, 3, 1) if len(game.view(s, None)["marks"]) >= 3)
    view = game.view(state, None)
    draw(view)  # the renderers cache their static layers: draw them before counting
    drawn.clear()
    draw({**view, "marks": []})
    unmarked = list(drawn)
    drawn.clear()
    draw(view)
    for mark in view["marks"]:  # each letter once more than on the same board without marks
        assert drawn.count(mark["mark"]) == unmarked.count(mark["mark"]) + 1, mark


def test_the_atmosfear_board_numbers_its_flight_stones(drawn):
    game = games.get("atmosfear")
    view = game.view(setup(game, 3, None, 1), None)
    draw_atmosfear(view)
    numbers = [s["mark"] for s in view["board"]["outer"] if s["mark"]]
    assert len(numbers) == 3 and set(numbers) <= set(drawn)

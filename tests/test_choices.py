from bot.choices import format_path, parse_path, walk
from games.core import Choice, Step

CHOICES = [
    Choice("play key-red C3", (Step("key-red", "Red Key"), Step("C3", "Open C3"))),
    Choice("play key-red D1", (Step("key-red", "Red Key"), Step("D1", "Open D1"))),
    Choice("discard key-red", (Step("key-red", "Red Key"), Step("discard", "Discard it"))),
    Choice("discard net", (Step("net", "Net"), Step("discard", "Discard it"))),
    Choice("stay", (Step("stay", "Stay"),)),
]


def test_first_step_lists_distinct_cards():
    position = walk(CHOICES, [])
    assert [s.key for s in position.options] == ["key-red", "net", "stay"]
    assert position.complete is None


def test_second_step_and_completion():
    position = walk(CHOICES, [0])
    assert [s.label for s in position.options] == ["Open C3", "Open D1", "Discard it"]
    assert walk(CHOICES, [0, 1]).complete.action == "play key-red D1"
    assert walk(CHOICES, [2]).complete.action == "stay"


def test_stale_paths_raise():
    import pytest
    with pytest.raises(IndexError):
        walk(CHOICES, [7])


def test_path_text_round_trip():
    assert parse_path(format_path([2, 0, 11])) == [2, 0, 11]
    assert parse_path("") == []

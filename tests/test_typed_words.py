"""games.core.typed: typed moves' quotes made plain for every game, and the line of words a
refused typed move ends with."""
from __future__ import annotations

import pytest

from games.core.typed import squash, straighten, typed_forms


@pytest.mark.parametrize("quote", ["\u2019", "\u2018", "\u201b", "\u02bc", "\u2032", "\u00b4", "\uff07"])
def test_typographic_apostrophes_read_as_the_plain_one(quote):
    assert straighten(f"move Warlock{quote}s Study") == "move Warlock's Study"


def test_typographic_double_quotes_read_as_the_plain_one_and_nothing_else_changes():
    assert straighten("“drop” „x“ «y» ½ ³ ｈ３ é") == '"drop" "x" "y" ½ ³ ｈ３ é'


def test_names_compare_by_letters_and_digits_only():
    assert squash("Gaoler's Keys (1, 4, 7)") == squash("gaolers keys 1 4 7") == "gaolerskeys147"


def test_the_words_to_type_are_grouped_by_first_word_and_cut_short():
    line = typed_forms(["roll", "move A", "move B", "move B", "pass"] + [f"challenge {n}" for n in range(1, 10)])
    assert line == "`roll` · `move A/B` · `pass` · `challenge 1/2/3/4/5/6/…`"
    assert typed_forms(["use jump", "use", "use bare"]) == "`use` · `use jump/bare`"
    assert typed_forms([]) == ""

"""Turn summaries and chapters keep their Markdown whole: a line is shortened between events (or,
for one long event, between spans), never inside `**…**`, and a marker with no partner is
escaped. Property tests over arbitrary lines full of markup (checked by tests/markup_check.py,
written apart from bot.markup), and the cases seen in a played game."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import livetable, markup
from bot.livetable import SUMMARY_CHARS, Trail

from tests.markup_check import open_markers

PIECES = ["**", "*", "__", "_", "`", "``", "~~", "||", "\\", "<t:12:R>", "<", ">", " ", " ",
          "rolls", "5", "THE GATEKEEPER:", "“", "”", "·", "\n", "🗝️", "é"]
lines_with_markup = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
balanced_spans = st.lists(st.tuples(st.sampled_from(["**", "*", "__", "`", "~~", "||"]),
                                    st.text(alphabet="ab 12·", max_size=12),
                                    st.text(alphabet="cd 34", max_size=12)),
                          max_size=10).map(lambda parts: "".join(
                              f"{plain} {marker}{inner or 'x'}{marker}" for marker, inner, plain
                              in parts))


def without_escapes(text: str) -> str:
    return text.replace("\\", "")


@given(lines_with_markup)
@settings(max_examples=400, deadline=None)
def test_balanced_leaves_no_marker_open_and_only_adds_escapes(text):
    out = markup.balanced(text)
    assert open_markers(out) == [], (text, out)
    assert without_escapes(out) == without_escapes(text)


@given(balanced_spans)
@settings(max_examples=200, deadline=None)
def test_balanced_text_is_left_as_it_is(text):
    assert open_markers(text) == []
    assert markup.balanced(text) == text


@given(lines_with_markup, st.integers(min_value=1, max_value=80))
@settings(max_examples=400, deadline=None)
def test_clip_fits_stays_balanced_and_keeps_a_prefix(text, limit):
    out = markup.clip(text, limit)
    assert len(out) <= limit
    assert open_markers(out) == [], (text, limit, out)
    if len(markup.balanced(text)) <= limit:
        assert out == markup.balanced(text)
    else:
        assert out.endswith(markup.ELLIPSIS)
        assert without_escapes(text).startswith(without_escapes(out[:-1]))


@given(balanced_spans, st.integers(min_value=2, max_value=120))
@settings(max_examples=300, deadline=None)
def test_clip_never_cuts_inside_a_span(text, limit):
    out = markup.clip(text, limit)
    assert "\\" not in out  # nothing had to be escaped: every span was kept whole or dropped
    assert open_markers(out) == []


def test_the_cuts_seen_in_the_channel_fall_outside_bold():
    rolls = "Player 1 rolls **5 1 2**: three ghosts."
    speech = "**THE GATEKEEPER:** “You dare to knock at my gate, Player 2? Then answer me!”"
    for limit in range(2, 60):
        for text in (rolls, speech):
            out = markup.clip(text, limit)
            assert open_markers(out) == [] and "\\" not in out, out
    assert markup.clip(rolls, 20) == "Player 1 rolls…"
    assert markup.clip(speech, 30) == "**THE GATEKEEPER:** “You dare…"
    assert markup.clip(speech, 18) == "…"


def shown_events(summary: str, lines: list[str]) -> None:
    """The summary shows the first events whole, in order, and counts the rest; or, when even
    the first did not fit, that one shortened."""
    head, body = summary.split("**: ", 1)
    more = re.search(r" … and (\d+) more$", body)
    hidden = int(more[1]) if more else 0
    body = body[:more.start()] if more else body
    events = [markup.balanced(line.replace("\n", " ")) for line in lines if line]
    shown = events[:len(events) - hidden]
    assert hidden < len(events)
    if body != " · ".join(shown):
        assert len(shown) == 1 and body.endswith(markup.ELLIPSIS), (summary, lines)
        assert without_escapes(shown[0]).startswith(without_escapes(body[:-1]))


@given(st.lists(lines_with_markup, min_size=1, max_size=30), st.integers(1, 999),
       st.integers(0, 5))
@settings(max_examples=300, deadline=None)
def test_a_summary_fits_keeps_whole_events_and_leaves_nothing_open(lines, turn, more_turns):
    lines = [line for line in lines if line] or ["a"]
    summary = livetable.turn_summary(turn, turn + more_turns, lines, "en")
    assert len(summary) <= SUMMARY_CHARS
    assert open_markers(summary) == [], summary
    assert summary.startswith(f"**Turn {turn}**: " if not more_turns
                              else f"**Turns {turn}–{turn + more_turns}**: ")
    shown_events(summary, lines)


def test_a_long_turn_drops_whole_events_and_says_how_many():
    lines = [f"Player {n % 3 + 1} rolls **{n} 1 2**: {n} ghosts." for n in range(1, 20)]
    summary = livetable.turn_summary(22, 22, lines, "en")
    hidden = int(re.search(r"and (\d+) more$", summary)[1])
    last = 19 - hidden
    assert summary.endswith(f"rolls **{last} 1 2**: {last} ghosts. … and {hidden} more")
    assert summary.count("rolls **") == 19 - hidden
    assert open_markers(summary) == []


@given(st.lists(st.lists(lines_with_markup, min_size=1, max_size=12), min_size=1, max_size=40))
@settings(max_examples=100, deadline=None)
def test_chapters_hold_whole_summaries_within_their_size(turns):
    """Retire turn after turn as the publisher does: every chapter and every carried trail
    keeps whole summaries, under CHAPTER_CHARS, nothing open."""
    trail = Trail()
    for number, lines in enumerate(turns, start=1):
        summary = livetable.turn_summary(number, number, lines, "en")
        if trail.closes_chapter(summary):
            chapter = livetable._carried_text(trail.carried + [summary])
            assert len(chapter) <= livetable.CHAPTER_CHARS
            assert chapter.split("\n") == [f"-# {s}" for s in trail.carried + [summary]]
            assert open_markers(chapter) == []
            trail = Trail()
        else:
            trail = Trail(trail.carried + [summary])
        assert len(livetable._carried_text(trail.carried)) <= livetable.CHAPTER_CHARS


def test_a_trail_knows_the_turn_after_its_summaries():
    """After a restart the live table's first turn is read from what it carries."""
    assert Trail().next_turn() is None
    assert Trail([livetable.turn_summary(3, 3, ["**Turn 9**: a trap"], "en")]).next_turn() == 4
    assert Trail([livetable.turn_summary(1, 2, ["a"], "en"),
                  livetable.turn_summary(3, 7, ["b", "c"], "en")]).next_turn() == 8

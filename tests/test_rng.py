"""The RNG's written-out loops draw exactly the stream the one-draw-at-a-time `below` draws,
so a game's dice, decks and replays do not depend on which of them an engine calls."""
from games.core import Rng, ai_rng, ai_rngs


def test_shuffle_is_fisher_yates_over_below():
    for seed in range(50):
        fast, slow = Rng(seed), Rng(seed)
        items = list(range(seed % 40 + 1))
        expected = list(items)
        fast.shuffle(items)
        for i in range(len(expected) - 1, 0, -1):
            j = slow.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
        assert fast.state == slow.state


def test_choices_are_k_single_choices():
    for seed in range(50):
        fast, slow = Rng(seed), Rng(seed)
        pool = tuple(range(seed % 7 + 1))
        k = seed % 5
        assert fast.choices(pool, k) == [slow.choice(pool) for _ in range(k)]
        assert fast.state == slow.state


def test_choices_of_nothing_draw_nothing():
    rng = Rng(7)
    assert rng.choices((), 0) == []
    assert rng.state == Rng(7).state


def test_choices_of_die_faces_are_die_throws():
    """Atmosfear throws its dice as `choices` of the faces: the stream of `die()` calls."""
    for seed in range(50):
        fast, slow = Rng(seed), Rng(seed)
        assert fast.choices((1, 2, 3, 4, 5, 6), 2) == [slow.die(), slow.die()]
        assert fast.state == slow.state


def test_choice_is_an_item_at_below():
    for seed in range(50):
        fast, slow = Rng(seed), Rng(seed)
        pool = list(range(seed % 9 + 1))
        assert [fast.choice(pool) for _ in range(5)] == [pool[slow.below(len(pool))] for _ in range(5)]
        assert fast.state == slow.state


def test_the_ai_dice_of_a_game_are_one_fixed_stream_per_version():
    """`ai_rngs(seed)` (self-play's, the seed's part worked out once) and `ai_rng` give the same
    dice, the same as they always were: self-play logs and replays stay the same across releases."""
    for seed in (0, 1, 41, 2**70 + 3, -5):
        per_game = ai_rngs(seed)
        for version in (0, 1, 7, 919, 2**40):
            expected = (seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + 0xA1) & (2**64 - 1)
            assert per_game(version).state == ai_rng(seed, version).state == expected


def test_self_play_reseeds_one_ai_rng_for_each_version():
    """`ai_rngs` hands out one Rng per game, reseeded per version: what a decision drew leaves
    nothing behind for the next, which gets its own version's stream."""
    per_game = ai_rngs(7)
    first = per_game(3)
    drawn = [first.below(6) for _ in range(5)]
    assert per_game(4).state == ai_rng(7, 4).state
    again = per_game(3)
    assert [again.below(6) for _ in range(5)] == drawn


def test_a_weighted_draw_follows_its_weights_and_never_picks_a_weightless_index():
    rng = Rng(7)
    counts = [0, 0, 0]
    for _ in range(3000):
        counts[rng.weighted([1.0, 0.0, 3.0])] += 1
    assert counts[1] == 0 and 650 < counts[0] < 850 and 2150 < counts[2] < 2350
    again, state = Rng(7), Rng(7)
    state.random()
    again.weighted([1.0, 0.0, 3.0])
    assert again.state == state.state  # one draw of the stream, as the picks it replaced

"""Don't Go In There's smart AI: its shortcuts agree with the engine's rules."""
from __future__ import annotations

from games.core import Rng
from games.dontgo.ai import completes_dolls
from games.dontgo.engine import CARD_TYPES, CARDS, doll_set

DOLLS = [cid for cid, ctype in enumerate(CARD_TYPES) if ctype == "doll"]


def test_completes_dolls_agrees_with_the_engines_doll_set():
    """The AI asks only whether a new doll makes a set with the face-up ones (by their curses);
    the engine's doll_set finds that set among the player's cards, dispelled ones left out."""
    rng = Rng(11)
    seen = set()
    for _ in range(400):
        pool = list(DOLLS)
        rng.shuffle(pool)
        new, held = pool[0], pool[1:1 + rng.below(6)]
        dispelled = {cid for cid in held if rng.below(4) == 0}
        player = {"cards": [{"id": cid, "dispelled": cid in dispelled} for cid in held]
                  + [{"id": new, "dispelled": False}]}
        face_up = tuple(sorted(CARDS[cid]["curse"] for cid in held if cid not in dispelled))
        expected = doll_set(player, new) is not None
        assert completes_dolls(face_up, CARDS[new]["curse"]) == expected, (held, dispelled, new)
        seen.add(expected)
    assert seen == {True, False}


def test_the_card_value_shortcuts_agree_with_card_worth():
    """The smart AI values most cards from tables (a type the seat lacks: VALUES_ALONE and
    Seat.alone_value; types whose worth ignores ghosts: fixed_worth); each must give exactly what
    card_worth gives, for any ghosts, ghost cost and clocks, or the AI's choices would drift."""
    from games.dontgo.ai import FIXED_WORTH, VALUES_ALONE, Seat, card_worth, fixed_worth
    rng = Rng(5)
    checked = {"alone": 0, "fixed": 0}
    for _ in range(300):
        ghosts, clocks_open = rng.below(12), rng.below(2) == 1
        view = ("place", None if clocks_open else 0, None, rng.below(40), 56, {}, (), ghosts, (), None)
        me = Seat(view, 0)
        for cid, ctype in enumerate(CARD_TYPES):
            worth = card_worth(cid, (), me.gc, ghosts, clocks_open, False, int)
            alone = VALUES_ALONE[cid]
            assert (me.alone_value(cid, ctype) if alone is None else alone) == worth, (cid, ctype)
            assert me.card_value(cid) == worth
            checked["alone"] += 1
            if ctype in FIXED_WORTH:
                same_type = [x for x, t in enumerate(CARD_TYPES) if t == ctype and x != cid]
                ups = tuple(same_type[:1 + rng.below(3)])
                assert fixed_worth(cid, ups, clocks_open) == card_worth(
                    cid, ups, me.gc, ghosts, clocks_open, False, int), (cid, ups)
                checked["fixed"] += 1
    assert checked["alone"] and checked["fixed"]


def test_card_value_of_a_type_held_agrees_with_card_worth():
    """For a type the seat holds face up, `Seat.card_value` spells out the ghost-dependent types
    (mirror, mask, holy water, tome: fresh or not) in a line each; each must give exactly what
    card_worth gives, or the AI's choices would drift."""
    from games.dontgo.ai import Seat, card_worth
    from games.dontgo.engine import PAIRED
    rng = Rng(11)
    seen: set[tuple[str, bool]] = set()
    for _ in range(400):
        ctype = ("mirror", "mask", "holywater", "tome")[rng.below(4)]
        same_type = [x for x, t in enumerate(CARD_TYPES) if t == ctype]
        rng.shuffle(same_type)
        cid, ups = same_type[0], tuple(same_type[1:2 + rng.below(2)])
        other = [x for x, t in enumerate(CARD_TYPES) if t == "ring"][:1 + rng.below(2)]
        fresh = (ctype,) if ctype in PAIRED and rng.below(2) else ()
        ghosts, clocks_open = rng.below(12), rng.below(2) == 1
        view = ("place", None if clocks_open else 0, None, rng.below(40), 56,
                {ctype: ups, "ring": tuple(other)}, fresh, ghosts, (), None)
        me = Seat(view, 0)
        assert me.card_value(cid) == card_worth(cid, ups, me.gc, ghosts, clocks_open, bool(fresh),
                                                me.most_curses_of_a_type), (cid, ups, fresh)
        seen.add((ctype, bool(fresh)))
    assert seen == {("mirror", False), ("mask", False), ("holywater", False), ("holywater", True),
                    ("tome", False), ("tome", True)}


def test_placement_values_follow_the_prompts_order():
    """The smart AI scores placements by position, so `place_values` must list them as the
    prompt does: each value must be the one its offered room and space get when that room is
    weighed alone (the rooms' order), at the space's rank among the room's free ones (top first)."""
    import games
    from bot.simulate import play
    from games.dontgo.ai import HOUSE, REMOVED, SPACES, Seat
    from games.dontgo.engine import ROOM_SLOTS
    game = games.get("dontgo")
    checked = 0
    for seats in range(game.min_seats, game.max_seats + 1):
        for actions in range(0, 90, 3):
            state = play("dontgo", seats, 40 + seats, "smart", max_actions=actions)
            seat = state.data["current"]
            if state.over or state.data["phase"] != "place":
                continue
            prompt = game.prompt(state, seat)
            view = game.ai_view(state, seat, "smart", prompt)
            me, rooms = Seat(view, seat), view[HOUSE]
            expected = []
            for choice in prompt.choices:
                _, name, space = choice.action.split()
                slot = ROOM_SLOTS[name]
                alone = tuple(room if s == slot else room[:REMOVED] + (True,) + room[REMOVED + 1:]
                              for s, room in enumerate(rooms))
                free = [i for i, who in enumerate(rooms[slot][SPACES]) if who is None]
                expected.append(me.place_values(alone)[free.index(int(space) - 1)])
            assert me.place_values(rooms) == expected
            checked += 1
    assert checked > 40

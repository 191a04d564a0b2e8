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

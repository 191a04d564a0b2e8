"""A tiny seeded RNG whose whole state is one int, so game states stay small JSON.

`random.Random` state is 625 words; a splitmix64 stream is one, is fast enough for board games,
and replays exactly across Python versions.
"""
from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1
SPAN = 1 << 64
# The rejection limit SPAN - SPAN % n for every n below SMALL (dice, decks, AI picks): a look-up
# instead of two big-int operations per draw, with the same limits, so the same streams.
SMALL = 257
LIMITS: tuple[int, ...] = (0, *(SPAN - SPAN % n for n in range(1, SMALL)))


class Rng:
    """splitmix64: `state` is the only thing to persist."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform int in [0, n), rejection-sampled so there is no modulo bias.

        `next64` written out here: every die, card and shuffle comes through this loop."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = LIMITS[n] if n < SMALL else SPAN - SPAN % n
        state = self.state
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = z ^ (z >> 31)
            if x < limit:
                self.state = state
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        return lo + self.below(hi - lo + 1)

    def die(self, sides: int = 6) -> int:
        return 1 + self.below(sides)  # randint(1, sides), one call shorter

    def choice(self, items: Sequence[T]) -> T:
        """`items[below(len(items))]` with `below` written out: every AI pick comes through here."""
        n = len(items)
        if n <= 0:
            raise ValueError("n must be positive")
        limit = LIMITS[n] if n < SMALL else SPAN - SPAN % n
        state = self.state
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = z ^ (z >> 31)
            if x < limit:
                self.state = state
                return items[x % n]

    def choices(self, items: Sequence[T], k: int) -> list[T]:
        """`k` independent picks from `items`: the stream of `k` calls to `choice`, one call."""
        n = len(items)
        if not k:
            return []
        if n <= 0:
            raise ValueError("n must be positive")
        limit = LIMITS[n] if n < SMALL else SPAN - SPAN % n
        state = self.state
        out = []
        for _ in range(k):
            while True:
                state = (state + 0x9E3779B97F4A7C15) & MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                x = z ^ (z >> 31)
                if x < limit:
                    out.append(items[x % n])
                    break
        self.state = state
        return out

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates with `below` written out (decks of dozens of cards per game)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = LIMITS[n] if n < SMALL else SPAN - SPAN % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn in proportion to `weights` (one `random` call; the last index should
        rounding leave the draw unspent)."""
        x = self.random() * sum(weights)
        for i, w in enumerate(weights):
            x -= w
            if x < 0:
                return i
        return len(weights) - 1

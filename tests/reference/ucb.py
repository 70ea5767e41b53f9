"""Plain-Python UCB1 as UCT selects by it: the one reference of the formula and of the
tie-break (independent of csrc/search/ucb.h, which tests/test_ucb.py checks against it).

The formula, uct-star.txt eq. (1) (ucd.txt eq. 2 with N = p(e)):
``U_i = w_i/n_i + c sqrt(ln N / n_i)``, N = the visits of i and its siblings; an
unvisited move is worth +infinity.  :func:`value` is the paper's order of operations;
:func:`value_c_order` the order the C search computes in (the factor ``c sqrt(ln N)``
once per node, then ``w (1/n) + factor sqrt(1/n)``), equal in value and, with the same
libm, in bits.

Ties: the C search keeps, among equal values, each with probability 1/ties (reservoir
sampling, one draw of its xoshiro256** rng per tie after the first); :class:`Rng` and
:func:`argmax` mirror that draw for draw.  :func:`argmax_first` is the deterministic
rule (first maximum) the reference searches of mcts.py use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def bonus(c: float, parent: float, n: float) -> float:
    """Eq. (1)'s exploration term c sqrt(ln N / n) (n > 0); 0 when N <= 0."""
    return c * math.sqrt(math.log(parent) / n) if parent > 0 else 0.0


def value(mean: float, n: float, parent: float, c: float) -> float:
    """Eq. (1): mean + c sqrt(ln N / n); +infinity for n = 0."""
    return math.inf if n == 0 else mean + bonus(c, parent, n)


def factor(c: float, parent: float) -> float:
    """The exploration factor c sqrt(ln N) of eq. (1); 0 while N <= 1."""
    return c * math.sqrt(math.log(parent)) if parent > 1 else 0.0


def value_c_order(total: float, n: float, parent: float, c: float) -> float:
    """Eq. (1) in the C search's order: total (1/n) + factor(c, N) sqrt(1/n)."""
    if n == 0:
        return math.inf
    inv = 1.0 / n
    return total * inv + factor(c, parent) * math.sqrt(inv)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


class Rng:
    """xoshiro256** seeded through splitmix64, and Lemire's bounded draw: the
    stream of the C search's rng for the same seed."""

    def __init__(self, seed: int) -> None:
        x = seed & _MASK
        self.s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & _MASK
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            self.s.append(z ^ (z >> 31))

    def next(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
        t = (s[1] << 17) & _MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """Uniform in [0, n), n > 0."""
        return ((self.next() >> 32) * n) >> 32


def argmax(values: Sequence[float], rng: Rng) -> int:
    """Index of the largest value; among equal values each kept with probability
    1/ties (one rng.below(ties) draw per tie after the first)."""
    chosen, ties, best = 0, 0, -math.inf
    for i, v in enumerate(values):
        if v > best:
            chosen, ties, best = i, 1, v
        elif v == best:
            ties += 1
            if rng.below(ties) == 0:
                chosen = i
    return chosen


def argmax_first(items: Sequence[T], key: Callable[[T], float]) -> T:
    """The first item with the largest key (no random tie-break); items[0] if no key
    is above -infinity."""
    best, best_v = items[0], -math.inf
    for item in items:
        v = key(item)
        if v > best_v:
            best, best_v = item, v
    return best

"""UCT* intervals and the B*-style pruning rule (uct-star.txt)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tests.reference import ucb


def value_eq1(w: float, n: float, big_n: float, c: float) -> float:
    """Eq. (1), UCT's value: w/n + c sqrt(ln N / n); infinite for an unvisited move."""
    if n == 0:
        return math.inf
    return w / n + ucb.factor(c, big_n) * math.sqrt(1.0 / n)


def value_eq6(w: float, n: float, big_n: float, c: float) -> float:
    """Eq. (6), the selection value with the rate inside the root (the form of the
    thesis's tables): w/n + sqrt(c ln N / n); infinite for an unvisited move."""
    if n == 0:
        return math.inf
    return w / n + math.sqrt(c * (math.log(big_n) if big_n else 0.0) / n)


def interval_eq5(w: float, n: float, big_n: float, p: float) -> tuple[float, float]:
    """Eq. (5): mean -+ p sqrt(ln N / n)  (eq. (4) when p = c)."""
    half = p * math.sqrt(math.log(big_n) / n)
    return w / n - half, w / n + half


def interval_eq7(w: float, n: float, big_n: float, p: float) -> tuple[float, float]:
    """Eq. (7): mean -+ sqrt(p ln N / n), the form the thesis's tables use."""
    half = math.sqrt(p * math.log(big_n) / n)
    return w / n - half, w / n + half


def prunable(intervals: Sequence[tuple[float, float] | None]) -> list[int]:
    """Indices whose upper bound is below the best lower bound among the others
    (None: not yet visited, never pruned and no bound)."""
    lows = [iv[0] for iv in intervals if iv is not None]
    if not lows:
        return []
    best = max(lows)
    return [i for i, iv in enumerate(intervals) if iv is not None and iv[1] < best]

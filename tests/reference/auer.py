"""Huang et al.'s pruning conditions (pruning-in-uct.txt) and Auer's bound."""

from __future__ import annotations

import math
from collections.abc import Sequence


def absolute_prunable(visits: Sequence[int], budget_total: int) -> list[int]:
    """Condition 1: every arm but j is pruned once some v_j > V/2, V = visits so far
    plus visits still to play."""
    for j, vj in enumerate(visits):
        if 2 * vj > budget_total:
            return [i for i in range(len(visits)) if i != j]
    return []


def optimistic_rate(r: float, alpha: float) -> float:
    """Eq. (5): r -> 1 - alpha (1 - r)."""
    return 1.0 - alpha * (1.0 - r)


def upper_visits(mu_best: float, mu_i: float, n: float) -> float:
    """Eq. (8): Auer et al.'s bound 8 ln n / Delta^2 + 1 + pi^2/3; inf when Delta <= 0."""
    delta = mu_best - mu_i
    if delta <= 0:
        return math.inf
    return 8.0 * math.log(n) / (delta * delta) + 1.0 + math.pi**2 / 3.0


def relative_prunable(
    visits: Sequence[int], means: Sequence[float], alpha: float, n: float
) -> list[int]:
    """Condition 2: prune i if some v_j > v_i + u_i (j = the most visited arm, the
    largest v_j); u_i from eq. (8) with n simulations and every rate transformed by
    eq. (5), so Delta_i = g(mu*) - g(mu_i) = alpha (mu* - mu_i) (eq. (9), (10))."""
    best = max(range(len(visits)), key=lambda j: (visits[j], -j))
    out = []
    for i, vi in enumerate(visits):
        if i == best:
            continue
        u = upper_visits(optimistic_rate(means[best], alpha), optimistic_rate(means[i], alpha), n)
        if visits[best] > vi + u:
            out.append(i)
    return out

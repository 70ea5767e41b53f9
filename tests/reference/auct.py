"""Accelerated UCT and Discounted UCT formulas (Hashimoto et al., accelerated-uct.txt).

Plain Python, one function per equation; the stateful reference search that uses
them is in mcts.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tests.reference import ucb


def lam_from_k(k: float) -> float:
    """The paper's decay grid: lambda = 1 - 0.1^k."""
    return 1.0 - 0.1**k


def velocities_after(v: Sequence[float], selected: int, lam: float) -> list[float]:
    """Eq. (6): v_j <- v_j * lambda + [j selected], for every legal move j."""
    return [x * lam + (1.0 if j == selected else 0.0) for j, x in enumerate(v)]


def accelerated_ratio(ratios: Sequence[float], velocities: Sequence[float]) -> float:
    """Eq. (7): r_i = sum_j w_j r_j with w_j = v_j / sum_k v_k (virtual child included
    by the caller as one more (ratio, velocity) pair)."""
    total = sum(velocities)
    return sum(v * r for v, r in zip(velocities, ratios, strict=True)) / total


def auct_value(r_acc: float, s: float, n: float, c: float) -> float:
    """Eq. (5): accelerated ratio plus UCB's bias term; inf for an unvisited move."""
    return ucb.value(r_acc, n, s, c)


def duct_update(
    n: Sequence[float], r: Sequence[float], selected: int, reward: float, lam: float,
    store: Callable[[float], float] | None = None,
) -> tuple[list[float], list[float]]:
    """Eq. (3) and (4) for every move at a visited position.  ``store`` rounds each new
    count as it is kept (e.g. to float32, as the C policy keeps n^D); eq. (4) then
    divides by the stored count, so the ratio is the one of the stored statistics."""
    n2, r2 = [], []
    for j, (nj, rj) in enumerate(zip(n, r, strict=True)):
        hit = 1.0 if j == selected else 0.0
        den = lam * nj + hit  # eq. (3)
        if store is not None:
            den = store(den)
        r2.append((lam * nj * rj + (reward if hit else 0.0)) / den if den > 0 else 0.0)  # (4)
        n2.append(den)
    return n2, r2


def duct_value(r: float, n: float, s: float, c: float) -> float:
    """Eq. (2): discounted ratio plus the bias term on discounted counts."""
    return ucb.value(r, n, s, c)

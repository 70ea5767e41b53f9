"""Plain-Python reference of UCT's selection value (independent of csrc/search/uct.c).

UCB1 as in Kocsis & Szepesvári, written per the UCD paper's eq. 2:
u(e) = mean(e) + c * sqrt(ln p(e) / n(e)), p(e) = visits of e and its siblings;
an unvisited edge is worth +infinity; pruned edges are not candidates unless every
edge is pruned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tests.reference import ucb


def ucb_value(total: float, visits: int, parent: int, c: float) -> float:
    return math.inf if visits == 0 else ucb.value(total / visits, visits, parent, c)


def best_indices(
    totals: Sequence[float], visits: Sequence[int], pruned: Sequence[bool], c: float,
    rel_tol: float = 1e-12,
) -> set[int]:
    """Indices whose UCB value is maximal (within rel_tol): the C choice must be one."""
    parent = sum(visits)
    candidates = [i for i in range(len(visits)) if not pruned[i]] or list(range(len(visits)))
    values = {i: ucb_value(totals[i], visits[i], parent, c) for i in candidates}
    top = max(values.values())
    if math.isinf(top):
        return {i for i, v in values.items() if math.isinf(v)}
    return {i for i, v in values.items() if v >= top - rel_tol * max(1.0, abs(top))}

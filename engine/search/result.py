"""What a search reports: per root move statistics and the search's totals."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def confidence_interval(mean: float, visits: int) -> tuple[float, float]:
    """The 95% normal-approximation (Wald) interval of a mean reward in [0, 1]:
    ``mean ± 1.96·sqrt(μ(1−μ)/n)``, the Bernoulli variance bound, clipped to [0, 1].
    With no visits the interval is the whole range [0, 1]."""
    if visits <= 0:
        return 0.0, 1.0
    var = max(mean * (1.0 - mean), 0.0)
    half = Z95 * math.sqrt(var / visits)
    return max(0.0, mean - half), min(1.0, mean + half)


@dataclass(frozen=True)
class MoveStats:
    """One root move of the reporting role: visits through its edge, the role's mean
    reward on it, the 95% confidence interval of that mean (see
    :func:`confidence_interval`), and whether it is pruned (excluded from selection)."""

    move: int
    text: str
    visits: int
    mean: float
    ci_low: float
    ci_high: float
    pruned: bool = False


@dataclass(frozen=True)
class SearchResult:
    """A search's answer.  ``iterations`` and ``seconds`` count the work done since
    the current root was set (across ``run`` calls); ``nodes`` is the graph's size.
    ``moves`` are the root moves of ``role``, most visited first; for simultaneous
    roots ``best_move`` is ``role``'s move.  ``best_move`` is -1 at a terminal root."""

    best_move: int
    best_text: str
    moves: list[MoveStats]
    pv: list[str]
    iterations: int
    nodes: int
    seconds: float
    root_value: float
    role: int
    extra: dict[str, object] = field(default_factory=dict)

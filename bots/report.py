"""Search reports of bots, and the one confidence interval the bot layer uses.

Every bot that reports reports an ``engine.search.SearchResult`` (a flat
Monte-Carlo bot fills it without a tree), so the CLI prints all of them with
:func:`format_report`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.search.result import MoveStats

Z95 = 1.959963984540054  # two-sided 95% normal quantile


class MoveLine(Protocol):
    move: int
    text: str
    visits: int
    mean: float
    ci_low: float
    ci_high: float
    pruned: bool


class Report(Protocol):
    best_move: int
    best_text: str
    iterations: int
    nodes: int
    seconds: float
    root_value: float
    role: int
    extra: Mapping[str, object]  # an algorithm's own root figures (UCT*: intervals)

    @property
    def moves(self) -> Sequence[MoveLine]: ...

    @property
    def pv(self) -> Sequence[str]: ...


# One root move of a report: the search's own record type (pure Python, no C needed).
MoveReport = MoveStats


def score_interval(mean: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a mean of ``n`` outcomes in [0, 1].

    Wilson (1927), "Probable inference, the law of succession, and statistical
    inference", JASA 22:209, the interval solving |p - p_hat| = z sqrt(p(1-p)/n):
        (p_hat + z^2/2n -+ z sqrt(p_hat(1-p_hat)/n + z^2/4n^2)) / (1 + z^2/n).
    With draws (outcomes strictly inside [0, 1]) the true variance is at most
    p(1-p), so the interval is conservative.  ``n == 0`` gives (0, 1).
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, mean))
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def format_report(report: Report, limit: int = 20) -> str:
    """The search report as text: per root move visits, mean, 95% CI; PV; totals."""
    lines = [f"{'move':>8s} {'visits':>10s} {'mean':>7s}  {'95% CI':>15s}"]
    moves = list(report.moves)
    for line in moves[:limit]:
        mark = "  pruned" if line.pruned else ""
        lines.append(
            f"{line.text:>8s} {line.visits:10d} {line.mean:7.3f}  "
            f"[{line.ci_low:5.3f}, {line.ci_high:5.3f}]{mark}"
        )
    if len(moves) > limit:
        lines.append(f"   ... {len(moves) - limit} more moves")
    rate = report.iterations / report.seconds if report.seconds > 0 else 0.0
    lines.append(f"best: {report.best_text} (role {report.role}, "
                 f"root value {report.root_value:.3f})")
    lines.append("pv: " + (" ".join(report.pv) if report.pv else "-"))
    lines.append(
        f"iterations: {report.iterations}  nodes: {report.nodes}  "
        f"time: {report.seconds:.3f} s  ({rate:,.0f} iterations/s)"
    )
    return "\n".join(lines)

"""UCD's adapted statistics by direct recursion (Saffidine, Cazenave, Mehat).

Equations of ucd.txt: adapted mean (9)/(10), adapted move exploration (11)/(12),
adapted origin exploration (13), adapted value u_{d1,d2,d3} (section 3.4).  A depth
is an int >= 0 or math.inf.  Means are those of the role choosing ``e`` (``role``).

``prime`` says whose n', mu' eq. (10) and (12) read: ``"edge"`` the edge's own (as the
equations are written), ``"node"`` those of the edge's destination node (section 2
defines them for nodes too; an edge without a destination keeps its own).
"""

from __future__ import annotations

import math

from tests.reference import ucb
from tests.reference.dag import Edge


def _sub(d: float) -> float:
    return d - 1 if d != math.inf else d


def prime(e: Edge, r: int, kind: str = "edge") -> tuple[float, float]:
    """(n', n' mu' for role r) of e as eq. (10) and (12) read them."""
    if kind == "node" and e.child is not None:
        y = e.child
        return float(y.n1), (y.total1[r] if y.total1 else 0.0)
    if kind not in ("edge", "node"):
        raise ValueError(kind)
    return float(e.n1), e.total1[r]


def mu(e: Edge, d: float, role: int | None = None, kind: str = "edge") -> float:
    """mu_d(e), eq. (9) for d = 0 and eq. (10) above; 0 when nothing is aggregated."""
    r = e.role if role is None else role
    if d == 0:
        return e.mean(r)
    den, num = prime(e, r, kind)
    for f in e.children():
        num += mu(f, _sub(d), r, kind) * f.n
        den += f.n
    return num / den if den > 0 else 0.0


def n_adapted(e: Edge, d: float, kind: str = "edge") -> float:
    """n_d(e), eq. (11) for d = 0 and eq. (12) above."""
    if d == 0:
        return float(e.n)
    return prime(e, e.role, kind)[0] + sum(n_adapted(f, _sub(d), kind) for f in e.children())


def p_adapted(e: Edge, d: float, kind: str = "edge") -> float:
    """p_d(e), eq. (13): n_d summed over e's siblings (e included)."""
    return sum(n_adapted(f, d, kind) for f in e.siblings())


def value(e: Edge, d1: float, d2: float, d3: float, c: float, kind: str = "edge") -> float:
    """u_{d1,d2,d3}(e) = mu_d1(e) + c sqrt(log p_d2(e) / n_d3(e)); inf if n_d3 = 0."""
    nd = n_adapted(e, d3, kind)
    if nd <= 0:
        return math.inf
    p = p_adapted(e, d2, kind)
    return mu(e, d1, kind=kind) + ucb.bonus(c, p, nd)

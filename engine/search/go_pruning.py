"""Huang et al.'s pruning at the root of a Go search (pruning-in-uct.txt): the
territorial condition (condition 3, eq. 11-16) fed by the search's own playouts, and
the relative condition (condition 2) of ``engine.search.pruning``.

The territory statistics come from the RAVE policy's per-root-edge ownership counts
(``RAVE(territory=True)``, C: ``miai_rave_root_territory``): for root move i, the
board B_i after it has T_p^{B_i} = (b_p - w_p) / n_i over the n_i playouts through
it (eq. 16); the root board P(B) uses all playouts.  Then per child, with
delta_p = T_p^{P(B)} - T_p^{B} (eq. 12) over the A points:
E = sum delta_p / A (eq. 13), D = sum delta_p^2 / A - E^2 (eq. 14),
Phi(B_i) = D_i / sum_C D_C over the siblings (eq. 15).
Condition 3: B_i is pruned if some sibling B_j has Phi(B_j) outside [M, N] and
Phi(B_i) is inside it.  Only children with ``min_visits`` playouts take part (the
estimate needs samples); the pass move is never pruned by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import check, ffi, lib


@dataclass(frozen=True)
class RootTerritory:
    visits: list[int]                 # playouts through each root edge
    black: list[list[int]]            # [edge][point] playouts ending with black owning it
    white: list[list[int]]


def root_territory(search: Any, n_points: int) -> RootTerritory:
    """The ownership counts per root edge of a RAVE search with territory=True."""
    cap = max(1, search.node(search.info()["root"])["n_edges"])
    visits = ffi.new("uint32_t[]", cap)
    black = ffi.new("uint32_t[]", cap * n_points)
    white = ffi.new("uint32_t[]", cap * n_points)
    n = ffi.new("uint32_t *")
    check(lib.miai_rave_root_territory(search._ptr, visits, black, white, cap, n_points, n),
          "root territory")
    k = int(n[0])
    return RootTerritory(
        visits=[int(visits[i]) for i in range(k)],
        black=[[int(black[i * n_points + q]) for q in range(n_points)] for i in range(k)],
        white=[[int(white[i * n_points + q]) for q in range(n_points)] for i in range(k)],
    )


def territory_value(b: Sequence[int], w: Sequence[int], n: int) -> list[float]:
    """Eq. 16: T_p = b_p(n)/n - w_p(n)/n."""
    return [(bp - wp) / n for bp, wp in zip(b, w, strict=True)]


def variance_of_change(parent: Sequence[float], child: Sequence[float]) -> float:
    """Eq. 12-14: D(Delta_B) = E(Delta^2) - E(Delta)^2 over the points."""
    a = len(parent)
    delta = [tp - tc for tp, tc in zip(parent, child, strict=True)]  # eq. 12, per point
    mean = sum(delta) / a                                             # eq. 13
    return sum(d * d for d in delta) / a - mean * mean                # eq. 14


def phis(parent: Sequence[float], children: Sequence[Sequence[float]]) -> list[float]:
    """Eq. 15: Phi(B) = D(Delta_B) / sum over siblings C of D(Delta_C)."""
    ds = [variance_of_change(parent, c) for c in children]
    total = sum(ds)
    return [d / total if total > 0 else 0.0 for d in ds]


def territorial_prunable(phi: Sequence[float], low: float, high: float) -> list[int]:
    """Condition 3: every i with Phi_i in [M, N], if some j has Phi_j outside."""
    inside = [low <= x <= high for x in phi]
    if all(inside):
        return []
    return [i for i, ok in enumerate(inside) if ok]


def territorial_candidates(t: RootTerritory, min_visits: int) -> tuple[list[int], list[float]]:
    """Root edge indices taking part, and their Phi values."""
    total = sum(t.visits)
    if total == 0:
        return [], []
    n_points = len(t.black[0]) if t.black else 0
    root_b = [sum(row[q] for row in t.black) for q in range(n_points)]
    root_w = [sum(row[q] for row in t.white) for q in range(n_points)]
    parent = territory_value(root_b, root_w, total)
    idx = [k for k, v in enumerate(t.visits) if v >= min_visits]
    children = [territory_value(t.black[k], t.white[k], t.visits[k]) for k in idx]
    return idx, phis(parent, children)


def relative_candidates(edges: Sequence[Any], alpha: float, n: float) -> list[int]:
    """Condition 2 (eq. 5 and 8) over the given root edges: positions in ``edges``."""
    from engine.search.pruning import relative_prunable

    return relative_prunable([e.visits for e in edges], [e.mean for e in edges], alpha, n)


def prune_root(search: Any, alg: Any, log: list[dict[str, object]]) -> bool:
    """Apply ``alg.prune`` at the root of ``search``; append what was pruned to
    ``log``; True when a single root move is left."""
    state = search.state
    game = state.game
    mover = max(0, state.to_move)
    edges = [e for e in search.root_edges() if e.role == mover and not e.pruned]
    if len(edges) <= 1:
        return len(edges) == 1 and bool(log)
    done = search.info()["root_iterations"]
    hit: dict[int, str] = {}  # root edge index -> condition
    if alg.prune in ("relative", "both"):
        for i in relative_candidates(edges, float(alg.alpha), float(done)):
            hit.setdefault(edges[i].index, "relative")
    if alg.prune in ("territory", "both") and game.name == "go":
        n_points = game.num_moves - 1
        terr = root_territory(search, n_points)
        idx, phi = territorial_candidates(terr, int(alg.t_min_visits))
        alive = {e.index for e in edges}
        for i in territorial_prunable(phi, float(alg.t_low), float(alg.t_high)):
            k = idx[i]
            if k in alive and search.root_edges()[k].move != n_points:
                hit.setdefault(k, f"territory (phi={phi[i]:.4f})")
    left = len(edges) - len(hit)
    if left < 1:  # never prune every move: keep the most visited
        best = max(edges, key=lambda e: e.visits).index
        hit.pop(best, None)
        left = 1
    for k, why in sorted(hit.items()):
        search.set_pruned(k, True)
        e = search.root_edges()[k]
        log.append({"iteration": done, "move": game.move_to_text(e.move, e.role),
                    "condition": why})
    return left == 1

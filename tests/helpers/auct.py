"""Accelerated UCT test helpers: eq. 6 and 7 replayed in plain Python over the C
search's path (Replay), and the bound of a velocity kept as a float."""

from __future__ import annotations

import numpy as np
import pytest

from engine.search import Search
from engine.search.auct_rave import accelerated_edges
from tests.helpers.variant_dump import EdgeRecord, edge_records
from tests.reference import auct as rauct

ACC_FLAG = 0x1000  # MIAI_EDGE_ACC (algos.h): the policy's own bit, RAVE never sets it


def stored_velocity_ok(stored: float, exact: float, visits: int) -> bool:
    """A velocity (or DUCT count) kept as a float in units of its node's scale
    lambda^-e (auct.c's lazy decay) against eq. 6 (or 3) in doubles: one rounding of
    2^-24 relative per choice of the edge and per renormalisation, at most one per visit
    of the node; values below FLT_MIN (lambda = 0.5 after 126 visits) lose their
    relative precision, hence the absolute 1e-40 (their weight is nil)."""
    return stored == pytest.approx(exact, rel=(visits + 1) * 2.0**-24, abs=1e-40)


def f32(x: float) -> float:
    """Velocities are kept as floats in C."""
    return float(np.float32(x))


class Replay:
    """Eq. 6 and 7 in plain Python over the C search's path and plain statistics."""

    def __init__(self, lam: float, one_role: bool, lazy: bool = False) -> None:
        """``lazy``: the C policy keeps velocities in units of a per-node scale (plain
        AUCT, auct.c): the replay keeps eq. 6 in doubles, checks the stored velocities
        to float storage's bound (stored_velocity_ok) and takes eq. 7's weights from
        them.  Otherwise (auct_rave) eq. 6 is replayed as floats, exactly."""
        self.lam, self.one_role, self.lazy = lam, one_role, lazy
        self.v: dict[tuple[int, int], float] = {}
        self.g: dict[tuple[int, int], float] = {}  # edges where eq. 7 applied

    def total(self, key: tuple[int, int], rec: EdgeRecord) -> float:
        return self.g.get(key, rec.sum)

    def iteration(self, search: Search, path: list[tuple[int, int]]) -> None:
        recs = {node: edge_records(search, node) for node, _ in path}
        for depth in range(len(path) - 1, -1, -1):
            node, chosen = path[depth]
            edges = recs[node]
            keys = [(node, i) for i in range(len(edges))]
            vel = rauct.velocities_after([self.v.get(k, 0.0) for k in keys], chosen, self.lam)
            for k, v in zip(keys, vel, strict=True):
                self.v[k] = v if self.lazy else f32(v)
            if depth == 0:
                continue
            into_key = path[depth - 1]
            into = recs[into_key[0]][into_key[1]]
            ratios, weights = [], []
            for k, e in zip(keys, edges, strict=True):
                if e.n == 0:
                    continue
                r = self.total(k, e) / e.n  # the ratio of the edge's own role
                ratios.append(r if self.one_role or e.role == into.role else 1.0 - r)
                weights.append(e.alg_b if self.lazy else self.v[k])
            if into.n_prime:  # the virtual child: mu', velocity n' lambda^t
                ratios.append(into.sum_prime / into.n_prime)
                weights.append(into.n_prime * self.lam ** sum(e.n for e in edges))
            self.g[into_key] = rauct.accelerated_ratio(ratios, weights) * into.n

    def check(self, search: Search, nodes: list[int]) -> int:
        checked = 0
        for node in nodes:
            for pos, (rec, (g, v)) in enumerate(
                    zip(edge_records(search, node), accelerated_edges(search, node), strict=True)):
                key = (node, pos)
                assert v == self.v.get(key, 0.0), key
                assert bool(rec.flags & ACC_FLAG) == (key in self.g), key
                if rec.n:
                    assert g / rec.n == pytest.approx(self.total(key, rec) / rec.n, abs=1e-9), key
                    checked += key in self.g
        return checked

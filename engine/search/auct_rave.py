"""Accelerated UCT with RAVE (accelerated-uct.txt, section 5.4): RAVE as in Fuego,
eq. 8's mix of the move's value and its AMAF value, where only the winning ratio r_j
is replaced by Accelerated UCT's accelerated ratio r^A_j (velocities, eq. 6; the
velocity-weighted ratio, eq. 7, with the virtual child).  n_j and the AMAF part are
RAVE's.

The C policy is ``miai_auct_rave_policy`` in ``csrc/search/rave.c`` (eq. 6 and 7 are
in ``csrc/search/accel.h``, shared with plain AUCT).  Spec: ``auct_rave:k=4`` or
``auct_rave:lambda=0.9999`` (lambda = 1 - 0.1^k; default k = 4, the paper's best
setting with RAVE in Fuego, Table 2) plus every key of ``rave`` (``prior``,
``knowledge``, ``prune``, ...); in the Go bot ``gobot:alg=auct_rave,lambda=0.9999``.
With lambda = 1 it is RAVE exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import check, ffi, lib
from engine.search.auct import decay_of
from engine.search.rave import RAVE
from engine.search.variant_params import number, settle

DEFAULT_K = 4.0


@dataclass(frozen=True)
class AUCTRAVE(RAVE):
    """RAVE whose eq. 8 uses the accelerated ratio; ``k`` or ``lambda`` as for
    ``auct`` (default k = 4, lambda = 0.9999)."""

    k: Any = None
    lam: Any = None
    aliases: ClassVar[dict[str, str]] = {"lambda": "lam"}
    name: ClassVar[str] = "auct_rave"

    def __post_init__(self) -> None:
        super().__post_init__()
        k = None if self.k is None else number(self.k, "k", low=0.0)
        lam = None if self.lam is None else number(self.lam, "lambda", low=0.0, high=1.0)
        if k is None and lam is None:
            k = DEFAULT_K
        settle(self, "k", k)
        settle(self, "lam", decay_of(k, lam))

    @property
    def decay(self) -> float:
        return float(self.lam)

    def configure(self, cfg: Any) -> None:
        super().configure(cfg)
        cfg.algorithm = lib.MIAI_ALG_AUCT_RAVE
        cfg.params[lib.MIAI_P_AUCT_RAVE_LAMBDA] = self.decay

    def report(self, search: Any) -> dict[str, object]:
        return {**super().report(search), self.name: {"lambda": self.decay}}


def accelerated_edges(search: Any, node: int) -> list[tuple[float, float]]:
    """(G, velocity) of every edge of ``node`` in an AUCT+RAVE ``Search``: G = r^A * n,
    the accelerated payoff total of the edge's role (tests, tools)."""
    count = max(1, search.node(node)["n_edges"])
    total = ffi.new("double[]", count)
    velocity = ffi.new("double[]", count)
    n = ffi.new("uint32_t *")
    check(lib.miai_auct_rave_edges(search._ptr, node, total, velocity, count, n),
          "auct_rave edges")
    return [(float(total[i]), float(velocity[i])) for i in range(int(n[0]))]

"""Accelerated UCT and, as the paper's comparison, Discounted UCT (Hashimoto et al.;
accelerated-uct.txt).  The C policies are in csrc/search/auct.c.

Specs: ``auct:k=3`` or ``auct:lambda=0.999`` (lambda = 1 - 0.1^k, the paper's grid
k = 1..7; lambda = 1 is plain UCT), ``duct:k=..`` likewise; ``c``, ``final`` and
``solver=1`` as for UCT.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import lib
from engine.errors import InvalidArgumentError
from engine.search.solver import configure_solver, root_proof, solver_report
from engine.search.uct import FINAL_CHOICES, check_exploration, check_final
from engine.search.variant_params import flag, number, settle

DEFAULT_K = 3.0


def decay_of(k: float | None, lam: float | None) -> float:
    """lambda from k (lambda = 1 - 0.1^k) or given directly; one of them at most."""
    if k is not None and lam is not None:
        raise InvalidArgumentError("give k or lambda, not both")
    if lam is not None:
        value = number(lam, "lambda", low=0.0, high=1.0)
        if value == 0.0:
            raise InvalidArgumentError("lambda must be in (0, 1]")
        return value
    kk = DEFAULT_K if k is None else number(k, "k", low=0.0)
    value = 1.0 - 0.1**kk
    if value <= 0.0:
        raise InvalidArgumentError(f"k={k!r} gives lambda = {value:g}, outside (0, 1]")
    return value


@dataclass(frozen=True)
class _Decayed:
    c: float = 0.7
    k: Any = None
    lam: Any = None
    final: str = "visits"
    solver: Any = False
    aliases: ClassVar[dict[str, str]] = {"lambda": "lam"}
    algorithm_id: ClassVar[int] = -1
    name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        check_exploration(self.c)
        check_final(self.final)
        settle(self, "solver", flag(self.solver, f"{self.name} solver"))
        k = None if self.k is None else number(self.k, "k", low=0.0)
        lam = None if self.lam is None else number(self.lam, "lambda", low=0.0, high=1.0)
        settle(self, "k", k)
        settle(self, "lam", decay_of(k, lam))

    @property
    def decay(self) -> float:
        return float(self.lam)

    def configure(self, cfg: Any) -> None:
        cfg.algorithm = self.algorithm_id
        cfg.c = float(self.c)
        cfg.final_choice = FINAL_CHOICES[self.final]
        cfg.params[lib.MIAI_P_LAMBDA] = self.decay
        configure_solver(cfg, bool(self.solver))

    def between_batches(self, search: Any) -> bool:
        return bool(self.solver) and root_proof(search) != 0

    def report(self, search: Any) -> dict[str, object]:
        out: dict[str, object] = {self.name: {"lambda": self.decay}}
        if self.solver:
            out.update(solver_report(search))
        return out


@dataclass(frozen=True)
class AUCT(_Decayed):
    """Accelerated UCT: velocities (eq. 6), the accelerated winning ratio (eq. 7)
    with the virtual child, selection by eq. (5)."""

    name: ClassVar[str] = "auct"
    algorithm_id: ClassVar[int] = int(lib.MIAI_ALG_AUCT)


@dataclass(frozen=True)
class DUCT(_Decayed):
    """Discounted UCT: eq. (2)-(4) applied at every node of the descent path."""

    name: ClassVar[str] = "duct"
    algorithm_id: ClassVar[int] = int(lib.MIAI_ALG_DUCT)

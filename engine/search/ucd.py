"""UCD: UCT on rooted directed acyclic graphs (Saffidine, Cazenave, Mehat; ucd.txt).

The C policy is csrc/search/ucd.c.  Spec: ``ucd:d1=..,d2=..,d3=..,c=..`` with each
depth a whole number or ``inf``; ``backup=descent|all|incremental`` (default
incremental, the update of section 3.4 that makes large depths affordable);
``prime=edge|node`` (default edge): whose n', mu' the adapted statistics of depth >= 1
read -- the edge's own, as eq. (10) and (12) are written, or those of its destination
node (every pre-expansion payoff that reached it, whichever edge it came through),
which makes ``ucd:d1=1,d2=0,d3=1,prime=node`` exactly the simple transposition table;
``payoffs=auto|general``: ``general`` keeps every role's payoff totals (any rewards);
``auto`` (default) does so for games with more than two roles and otherwise assumes
the two roles' rewards sum to 1; ``final``; ``solver=1`` for the MCTS-Solver (one or
two roles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import lib
from engine.search.solver import configure_solver, root_proof, solver_report
from engine.search.uct import FINAL_CHOICES, check_exploration, check_final
from engine.search.variant_params import choice, depth, flag, settle

BACKUPS = {
    "descent": int(lib.MIAI_UCD_DESCENT),
    "all": int(lib.MIAI_UCD_ALL),
    "incremental": int(lib.MIAI_UCD_INCREMENTAL),
}
PRIMES = {"edge": int(lib.MIAI_UCD_PRIME_EDGE), "node": int(lib.MIAI_UCD_PRIME_NODE)}
PAYOFFS = {"auto": int(lib.MIAI_UCD_PAYOFFS_AUTO), "general": int(lib.MIAI_UCD_PAYOFFS_GENERAL)}


@dataclass(frozen=True)
class UCD:
    """Adapted value u_{d1,d2,d3}(e) = mu_d1(e) + c sqrt(log p_d2(e) / n_d3(e))
    (adapted mean eq. 9-10, move exploration eq. 11-12, origin exploration eq. 13).
    (1, 0, 1) with prime="node" is the usual (simple) transposition table, (0, 0, 0),
    (1, 0, 0), (inf, 0, 0) Childs et al.'s UCT1-3; without transpositions all equal
    plain UCT."""

    d1: Any = 1
    d2: Any = 0
    d3: Any = 1
    c: float = 0.7
    backup: str = "incremental"
    prime: str = "edge"
    payoffs: str = "auto"
    final: str = "visits"
    solver: Any = False
    name: ClassVar[str] = "ucd"

    def __post_init__(self) -> None:
        for k in ("d1", "d2", "d3"):
            settle(self, k, depth(getattr(self, k), f"ucd {k}"))
        check_exploration(self.c)
        settle(self, "backup", choice(self.backup, "ucd backup", tuple(BACKUPS)))
        settle(self, "prime", choice(self.prime, "ucd prime", tuple(PRIMES)))
        settle(self, "payoffs", choice(self.payoffs, "ucd payoffs", tuple(PAYOFFS)))
        check_final(self.final)
        settle(self, "solver", flag(self.solver, "ucd solver"))

    @property
    def depths(self) -> tuple[float, float, float]:
        return (self.d1, self.d2, self.d3)

    def configure(self, cfg: Any) -> None:
        cfg.algorithm = lib.MIAI_ALG_UCD
        cfg.c = float(self.c)
        cfg.final_choice = FINAL_CHOICES[self.final]
        for slot, d in zip(
            (lib.MIAI_P_UCD_D1, lib.MIAI_P_UCD_D2, lib.MIAI_P_UCD_D3), self.depths, strict=True
        ):
            cfg.params[slot] = -1.0 if d == math.inf else float(d)
        cfg.params[lib.MIAI_P_UCD_BACKUP] = float(BACKUPS[self.backup])
        cfg.params[lib.MIAI_P_UCD_PRIME] = float(PRIMES[self.prime])
        cfg.params[lib.MIAI_P_UCD_PAYOFFS] = float(PAYOFFS[self.payoffs])
        configure_solver(cfg, bool(self.solver))

    def between_batches(self, search: Any) -> bool:
        return bool(self.solver) and root_proof(search) != 0

    def report(self, search: Any) -> dict[str, object]:
        out: dict[str, object] = {
            "ucd": {"depths": [str(d) if d == math.inf else int(d) for d in self.depths],
                    "backup": self.backup, "prime": self.prime,
                    "payoffs": self.payoffs}
        }
        if self.solver:
            out.update(solver_report(search))
        return out

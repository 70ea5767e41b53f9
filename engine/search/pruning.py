"""Pruning conditions of Huang et al. (pruning-in-uct.txt) on top of UCT, and the
bookkeeping every root-pruning algorithm shares (what was pruned when, the saving).

Spec: ``uct:prune=absolute`` or ``uct:prune=relative,alpha=0.8``, checked every
``every`` iterations (the paper checks periodically, every second; iterations keep
runs reproducible); ``solver=1`` adds the MCTS-Solver.

- Absolute condition (Condition 1): with V = visits so far plus visits still to be
  played (the run's iteration budget), every arm but j is pruned once v_j > V/2:
  the most visited root move can no longer change, so the search stops.
- Relative condition (Condition 2): arm i is pruned when the most visited arm j has
  v_j > v_i + u_i, u_i = Auer et al.'s bound (eq. 8) on i's visits among n
  simulations (n = V when the budget is known, else the visits so far), with every
  winning rate replaced by the optimistic 1 - alpha (1 - r) (eq. 5).
When one root move is left the search ends; the report says how many iterations of
the budget were saved.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core import lib
from engine.search.solver import configure_solver, root_proof, solver_report
from engine.search.uct import UCT
from engine.search.variant_params import choice, flag, number, settle, whole

CONDITIONS = ("none", "absolute", "relative")


def run_budget(search: Any) -> int | None:
    """Total root iterations the current run may reach (None: a time budget only)."""
    return getattr(search, "run_budget", None)


@dataclass
class PruneLog:
    """Root moves pruned during a search, with the root iteration of each pruning."""

    pruned: list[tuple[int, str]] = field(default_factory=list)
    noted: set[int] = field(default_factory=set)  # root edge indices already listed
    stopped_early: bool = False
    stopped_at: int | None = None

    def note(self, iteration: int, move: str, index: int) -> None:
        if index not in self.noted:
            self.noted.add(index)
            self.pruned.append((iteration, move))

    def stop(self, iteration: int) -> None:
        self.stopped_early = True
        self.stopped_at = iteration

    def report(self, search: Any) -> dict[str, object]:
        budget = run_budget(search)
        done = search.info()["root_iterations"]
        saved = budget - done if (budget is not None and self.stopped_early) else 0
        return {
            "pruned": [{"iteration": i, "move": m} for i, m in self.pruned],
            "stopped_early": self.stopped_early,
            "stopped_at": self.stopped_at,
            "budget": budget,
            "iterations_saved": max(saved, 0),
        }


class PruneLogs:
    """One PruneLog per Search (an algorithm object may serve many searches)."""

    def __init__(self) -> None:
        self._logs: weakref.WeakKeyDictionary[Any, PruneLog] = weakref.WeakKeyDictionary()

    def of(self, search: Any) -> PruneLog:
        log = self._logs.get(search)
        if log is None:
            log = self._logs[search] = PruneLog()
        return log


def optimistic_rate(r: float, alpha: float) -> float:
    """Eq. (5): r -> 1 - alpha (1 - r)."""
    return 1.0 - alpha * (1.0 - r)


def auer_upper_visits(mu_best: float, mu_i: float, n: float) -> float:
    """Eq. (8): 8 ln n / Delta^2 + 1 + pi^2 / 3 with Delta = mu* - mu_i; infinite
    when Delta <= 0 (the arm may still be the best)."""
    delta = mu_best - mu_i
    if delta <= 0 or n <= 1:
        return math.inf
    return 8.0 * math.log(n) / (delta * delta) + 1.0 + math.pi**2 / 3.0


def absolute_prunable(visits: list[int], total: int) -> list[int]:
    """Condition 1: all arms but j once v_j > V/2."""
    for j, vj in enumerate(visits):
        if 2 * vj > total:
            return [i for i in range(len(visits)) if i != j]
    return []


def relative_prunable(visits: list[int], means: list[float], alpha: float, n: float) -> list[int]:
    """Condition 2 with eq. (5) and (8); j is the most visited arm."""
    if not visits:
        return []
    best = max(range(len(visits)), key=lambda j: (visits[j], -j))
    mu_best = optimistic_rate(means[best], alpha)
    out = []
    for i, vi in enumerate(visits):
        if i == best:
            continue
        u = auer_upper_visits(mu_best, optimistic_rate(means[i], alpha), n)
        if visits[best] > vi + u:
            out.append(i)
    return out


def mover_of(search: Any) -> int:
    """The role to move at the root (these algorithms are alternating-move only)."""
    return max(0, search.state.to_move)


def unpruned_root_edges(search: Any, role: int) -> list[Any]:
    return [e for e in search.root_edges() if e.role == role and not e.pruned]


@dataclass(frozen=True)
class PrunedUCT(UCT):
    """Plain UCT plus Huang et al.'s pruning conditions and the MCTS-Solver; registered
    as ``uct`` so that ``uct:prune=relative,alpha=0.8,solver=1`` works.  Without them
    it is exactly :class:`UCT` (the same C policy)."""

    prune: str = "none"
    alpha: Any = 0.8
    every: Any = 1000
    solver: Any = False
    logs: PruneLogs = field(default_factory=PruneLogs, init=False, compare=False, repr=False)
    name: ClassVar[str] = "uct"

    def __post_init__(self) -> None:
        super().__post_init__()
        settle(self, "prune", choice(self.prune, "uct prune", CONDITIONS))
        settle(self, "alpha", number(self.alpha, "uct alpha", low=0.0, high=1.0))
        settle(self, "every", whole(self.every, "uct every", low=1))
        settle(self, "solver", flag(self.solver, "uct solver"))

    def _plain(self) -> bool:
        return self.prune == "none" and not self.solver

    def _key(self) -> tuple[object, ...]:
        if self._plain():
            return (self.c, self.final)
        return (self.c, self.final, self.prune, self.alpha, self.every, self.solver)

    def __eq__(self, other: object) -> bool:
        """Without pruning and the solver this is plain UCT, and equal to it."""
        if isinstance(other, PrunedUCT):
            return self._key() == other._key()
        if type(other) is UCT:
            return self._plain() and (self.c, self.final) == (other.c, other.final)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def batch_iterations(self) -> int | None:
        return int(self.every) if self.prune != "none" else None

    def configure(self, cfg: Any) -> None:
        super().configure(cfg)
        if self.solver:  # UCT* with pruning off: UCT's values, plus the solver
            cfg.algorithm = lib.MIAI_ALG_UCTSTAR
            cfg.params[lib.MIAI_P_STAR_STEP] = 1.0
            configure_solver(cfg, True)

    def between_batches(self, search: Any) -> bool:
        if self.solver and root_proof(search) != 0:
            return True
        if self.prune == "none":
            return False
        return self._prune(search)

    def _prune(self, search: Any) -> bool:
        log = self.logs.of(search)
        edges = unpruned_root_edges(search, mover_of(search))
        if len(edges) <= 1:
            return len(edges) == 1 and log.stopped_early
        done = search.info()["root_iterations"]
        budget = run_budget(search)
        visits = [e.visits for e in edges]
        if self.prune == "absolute":
            if budget is None:
                return False
            hit = absolute_prunable(visits, budget)
        else:
            n = float(budget if budget is not None else done)
            hit = relative_prunable(visits, [e.mean for e in edges], float(self.alpha), n)
        game = search.state.game
        for i in hit:
            search.set_pruned(edges[i].index, True)
            log.note(done, game.move_to_text(edges[i].move, edges[i].role), edges[i].index)
        if len(edges) - len(hit) == 1:
            log.stop(done)
            return True
        return False

    def report(self, search: Any) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.prune != "none":
            out["pruning"] = {
                "condition": self.prune,
                "alpha": self.alpha,
                "every": self.every,
                **self.logs.of(search).report(search),
            }
        if self.solver:
            out.update(solver_report(search))
        return out

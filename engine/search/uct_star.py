"""UCT* and MCTS*: B*-style pruning with UCT's confidence intervals, a dynamic
termination criterion (uct-star.txt).  The C policy is csrc/search/uctstar.c.

Spec ``uctstar:c=..,p=..,s=..,form=eq5|eq7,variant=basic|rate|step|root`` — the
thesis's four variants as presets:

- ``basic`` (Alg. 4): pruning rate p = c, every iteration (s = 1), every level;
- ``rate`` (Alg. 5): pruning rate p, every iteration, every level;
- ``step`` (Alg. 6): pruning rate p every s iterations, every level;
- ``root`` (Alg. 7, the final UCT*; default): pruning rate p, root only, every s
  iterations.  ``driver=python`` does this root pruning here, between batches of s
  iterations of the C loop (the Python layer wrapping the loop); the default
  ``driver=c`` lets the C policy prune at the root when the root's visit count is
  s - 1 modulo s (Alg. 7 exactly) and reads the result between ordinary batches,
  which keeps UCT's speed (a Python batch of s = 100 iterations costs more than the
  iterations themselves).

``mctsstar:p=..,s=..,form=..`` (Alg. 8): random selection, pruning at every level
every s iterations.  ``form=eq5`` uses mean -+ p sqrt(ln N / n) (eq. 5, and UCT's
eq. 1 for selection); ``form=eq7`` the thesis's tables' form mean -+ sqrt(p ln N / n)
(eq. 7, selection eq. 6).  When one root move is left the search stops early; the
report lists what was pruned when and the iterations saved from the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core import check, ffi, lib
from engine.search.pruning import PruneLogs, mover_of
from engine.search.solver import configure_solver, root_proof, solver_report
from engine.search.uct import FINAL_CHOICES, check_exploration, check_final
from engine.search.variant_params import choice, flag, number, settle, whole

FORMS = {"eq5": 0, "eq7": 1}
VARIANTS = ("basic", "rate", "step", "root")
DRIVERS = ("c", "python")
LEVELS_NONE, LEVELS_ALL, LEVELS_ROOT = 0.0, 1.0, 2.0


def prune_root_now(search: Any) -> int:
    """Apply the B* rule at the root in C (uctstar.c's intervals); returns how many
    root moves are left."""
    left = ffi.new("uint32_t *")
    check(lib.miai_variant_prune_root(search._ptr, left), "prune root")
    return int(left[0])


@dataclass(frozen=True)
class _Star:
    c: float = 0.7
    p: Any = None
    s: Any = 100
    form: str = "eq5"
    final: str = "visits"
    solver: Any = False
    logs: PruneLogs = field(default_factory=PruneLogs, init=False, compare=False, repr=False)
    name: ClassVar[str] = ""
    random_selection: ClassVar[bool] = False

    def __post_init__(self) -> None:
        check_exploration(self.c)
        check_final(self.final)
        settle(self, "p", float(self.c) if self.p is None else number(self.p, "p", low=0.0))
        settle(self, "s", whole(self.s, "s", low=1))
        settle(self, "form", choice(self.form, "form", tuple(FORMS)))
        settle(self, "solver", flag(self.solver, f"{self.name} solver"))

    @property
    def python_root(self) -> bool:
        """Root pruning done here between batches of s iterations."""
        return False

    @property
    def levels(self) -> float:
        return LEVELS_ALL

    @property
    def batch_iterations(self) -> int | None:
        return int(self.s) if self.python_root else None

    def configure(self, cfg: Any) -> None:
        cfg.algorithm = lib.MIAI_ALG_UCTSTAR
        cfg.c = float(self.c)
        cfg.final_choice = FINAL_CHOICES[self.final]
        cfg.params[lib.MIAI_P_STAR_P] = float(self.p)
        cfg.params[lib.MIAI_P_STAR_STEP] = float(self.s)
        cfg.params[lib.MIAI_P_STAR_FORM] = float(FORMS[self.form])
        cfg.params[lib.MIAI_P_STAR_LEVELS] = self.levels
        cfg.params[lib.MIAI_P_STAR_RANDOM] = 1.0 if self.random_selection else 0.0
        configure_solver(cfg, bool(self.solver))

    def between_batches(self, search: Any) -> bool:
        if self.solver and root_proof(search) != 0:
            return True
        log = self.logs.of(search)
        done = search.info()["root_iterations"]
        role = mover_of(search)
        if self.python_root:
            prune_root_now(search)
        game = search.state.game
        left = 0
        for e in search.root_edges():
            if e.role != role:
                continue
            if e.pruned:  # C-level variants keep the root visit count of the pruning
                when = done if self.python_root else int(e.alg_a)
                log.note(when, game.move_to_text(e.move, e.role), e.index)
            left += not e.pruned
        if left == 1:
            log.stop(done)
            return True
        return False

    def report(self, search: Any) -> dict[str, object]:
        out: dict[str, object] = {
            "intervals": root_intervals(search),
            self.name: {
                "variant": getattr(self, "variant", "mctsstar"),
                "p": self.p,
                "s": self.s,
                "form": self.form,
                **self.logs.of(search).report(search),
            }
        }
        if self.solver:
            out.update(solver_report(search))
        return out


def root_intervals(search: Any) -> dict[int, tuple[float, float]]:
    """The UCT* pruning interval of each root move, by move id (computed in C with the
    search's rate and form; an unvisited move gets [0, 1]); {} at a simultaneous root."""
    edges = search.root_edges()
    low, high = ffi.new("double[]", max(1, len(edges))), ffi.new("double[]", max(1, len(edges)))
    n = ffi.new("uint32_t *")
    code = lib.miai_uctstar_root_intervals(search._ptr, low, high, max(1, len(edges)), n)
    if code != lib.MIAI_OK:
        return {}
    return {e.move: (float(low[i]), float(high[i])) for i, e in enumerate(edges[: n[0]])}


@dataclass(frozen=True)
class UCTStar(_Star):
    """UCT* (Alg. 4-7); see the module docstring for the variants."""

    variant: str = "root"
    driver: str = "c"
    name: ClassVar[str] = "uctstar"

    def __post_init__(self) -> None:
        settle(self, "variant", choice(self.variant, "uctstar variant", VARIANTS))
        settle(self, "driver", choice(self.driver, "uctstar driver", DRIVERS))
        if self.variant == "basic":
            settle(self, "p", None)
        super().__post_init__()
        if self.variant in ("basic", "rate"):
            settle(self, "s", 1)

    @property
    def root_only(self) -> bool:
        return self.variant == "root"

    @property
    def python_root(self) -> bool:
        return self.root_only and self.driver == "python"

    @property
    def levels(self) -> float:
        if not self.root_only:
            return LEVELS_ALL
        return LEVELS_NONE if self.driver == "python" else LEVELS_ROOT


@dataclass(frozen=True)
class MCTSStar(_Star):
    """MCTS* (Alg. 8): random selection, pruning at every level every s iterations."""

    name: ClassVar[str] = "mctsstar"
    random_selection: ClassVar[bool] = True

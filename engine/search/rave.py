"""RAVE / AMAF (Gelly & Silver) with Fuego's value mix and prior knowledge.

The C policy is ``csrc/search/rave.c`` (its header comment has the formulas); this
module holds its parameters and reads the last iteration's AMAF sequence for tests.
An edge's ``alg_a`` / ``alg_b`` are its AMAF payoff total and count (priors included).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.search.uct import FINAL_CHOICES, check_exploration, check_final

PRUNE_CONDITIONS = ("none", "relative", "territory", "both")


def _positive(name: str, value: object, allow_zero: bool = False) -> None:
    ok = (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and (value >= 0 if allow_zero else value > 0)
    )
    if not ok:
        bound = ">= 0" if allow_zero else "> 0"
        raise InvalidArgumentError(f"rave {name} must be finite and {bound}, not {value!r}")


@dataclass(frozen=True)
class RAVE:
    """RAVE selection: ``(n r + W r_amaf) / (n + W)`` with ``W = m / (1/w_init +
    m/w_final)`` (m = AMAF count), plus ``c * sqrt(ln N / n)`` when ``c > 0``.
    ``prior``: virtual AMAF visits given to every new edge (0 = none); ``knowledge``:
    the prior's value comes from game knowledge (Go: captures, atari, patterns; other
    games: even) instead of 0.5 for all.  ``fpu``: the value of an edge with no visit
    and no AMAF data.

    Root pruning (Huang et al., checked every ``every`` iterations): ``prune`` is
    ``none``, ``relative`` (condition 2, optimism ``alpha``), ``territory`` (Go only,
    condition 3 with Phi bounds ``t_low``..``t_high`` over children with at least
    ``t_min_visits`` playouts; see engine.search.go_pruning) or ``both``.  The search
    result's ``extra["pruning"]`` lists what was pruned, when and why."""

    c: float = 0.0
    final: str = "visits"
    w_init: float = 0.9
    w_final: float = 20000.0
    prior: float = 0.0
    knowledge: bool = True
    fpu: float = 1.0
    prune: str = "none"
    alpha: float = 0.8
    every: int = 1000
    t_low: float = 0.0
    t_high: float = 0.05
    t_min_visits: int = 50
    logs: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary,
                                            init=False, compare=False, repr=False)
    name: ClassVar[str] = "rave"

    def __post_init__(self) -> None:
        check_exploration(self.c)
        check_final(self.final)
        _positive("w_init", self.w_init)
        _positive("w_final", self.w_final)
        _positive("prior", self.prior, allow_zero=True)
        _positive("fpu", self.fpu, allow_zero=True)
        if self.prune not in PRUNE_CONDITIONS:
            raise InvalidArgumentError(
                f"rave prune must be one of {', '.join(PRUNE_CONDITIONS)}, not {self.prune!r}")
        if not 0.0 <= self.alpha <= 1.0:
            raise InvalidArgumentError(f"rave alpha must be in [0, 1], not {self.alpha!r}")
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 1:
            raise InvalidArgumentError(f"rave every must be an int >= 1, not {self.every!r}")
        if not 0.0 <= self.t_low <= self.t_high <= 1.0:
            raise InvalidArgumentError("rave needs 0 <= t_low <= t_high <= 1")
        if isinstance(self.t_min_visits, bool) or not isinstance(self.t_min_visits, int):
            raise InvalidArgumentError("rave t_min_visits must be an int")

    @property
    def territory(self) -> bool:
        return self.prune in ("territory", "both")

    @property
    def batch_iterations(self) -> int | None:
        return self.every if self.prune != "none" else None

    def configure(self, cfg: Any) -> None:
        """Fill the C ``miai_search_config`` (params layout: see rave.c)."""
        cfg.algorithm = lib.MIAI_ALG_RAVE
        cfg.c = float(self.c)
        cfg.final_choice = FINAL_CHOICES[self.final]
        cfg.params[0] = float(self.w_init)
        cfg.params[1] = float(self.w_final)
        cfg.params[2] = float(self.prior)
        cfg.params[3] = 1.0 if self.knowledge else 0.0
        cfg.params[4] = float(self.fpu)
        cfg.params[5] = 1.0 if self.territory else 0.0

    def between_batches(self, search: Any) -> bool:
        """Prune root moves by the configured conditions; True when one is left."""
        if self.prune == "none":
            return False
        from engine.search.go_pruning import prune_root

        log = self.logs.setdefault(search, [])
        return prune_root(search, self, log)

    def report(self, search: Any) -> dict[str, object]:
        if self.prune == "none":
            return {}
        return {"pruning": {"condition": self.prune, "pruned": list(self.logs.get(search, []))}}


@dataclass(frozen=True)
class AmafSequence:
    """What the last iteration's AMAF update used."""

    moves: list[int]
    roles: list[int]
    tree_len: int
    rewards: list[float]


def last_sequence(search: Any, max_plies: int) -> AmafSequence:
    """The last iteration's sequence of a RAVE ``Search`` (tree moves, then the
    playout's), for tests against a reference."""
    cap = 2 * (max_plies + 2) + max_plies + 1
    moves = ffi.new("miai_move[]", cap)
    roles = ffi.new("uint32_t[]", cap)
    n = ffi.new("uint32_t *")
    tree = ffi.new("uint32_t *")
    rewards = ffi.new("double[]", 8)
    check(
        lib.miai_rave_last_sequence(search._ptr, moves, roles, cap, n, tree, rewards, 8),
        "rave sequence",
    )
    k = int(n[0])
    return AmafSequence(
        moves=[int(moves[i]) for i in range(k)],
        roles=[int(roles[i]) for i in range(k)],
        tree_len=int(tree[0]),
        rewards=[float(rewards[i]) for i in range(2)],
    )

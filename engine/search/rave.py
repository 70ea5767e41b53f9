"""RAVE / AMAF (Gelly & Silver) with Fuego's value mix and prior knowledge.

The C policy is ``csrc/search/rave.c`` (its header comment has the formulas); this
module holds its parameters and reads the last iteration's AMAF sequence for tests.
An edge's ``alg_a`` / ``alg_b`` are its AMAF payoff total and count (priors included).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.search.uct import FINAL_CHOICES, check_exploration, check_final


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
    and no AMAF data."""

    c: float = 0.0
    final: str = "visits"
    w_init: float = 0.9
    w_final: float = 20000.0
    prior: float = 0.0
    knowledge: bool = True
    fpu: float = 1.0
    name: ClassVar[str] = "rave"

    def __post_init__(self) -> None:
        check_exploration(self.c)
        check_final(self.final)
        _positive("w_init", self.w_init)
        _positive("w_final", self.w_final)
        _positive("prior", self.prior, allow_zero=True)
        _positive("fpu", self.fpu, allow_zero=True)

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

"""Plain UCT (Kocsis & Szepesvári): UCB1 selection on edges, update-descent backup.

The C policy is ``csrc/search/uct.c``; this module only holds its parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import lib
from engine.errors import InvalidArgumentError

FINAL_CHOICES = {"visits": int(lib.MIAI_FINAL_VISITS), "mean": int(lib.MIAI_FINAL_MEAN)}


def check_exploration(c: object) -> None:
    """``c`` must be a finite real >= 0 (shared by every UCB-style algorithm)."""
    if isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c) or c < 0:
        raise InvalidArgumentError(f"exploration constant c must be finite and >= 0, not {c!r}")


def check_final(final: object) -> None:
    if final not in FINAL_CHOICES:
        raise InvalidArgumentError(
            f"final move choice must be one of {', '.join(FINAL_CHOICES)}, not {final!r}"
        )


@dataclass(frozen=True)
class UCT:
    """UCT with exploration constant ``c``: an edge's value is
    ``mean + c * sqrt(ln N / n)`` (N = visits of the edge and its siblings), unvisited
    edges first, ties at random.  ``final``: ``"visits"`` (most visited root move) or
    ``"mean"`` (highest mean)."""

    c: float = 0.7
    final: str = "visits"
    name: ClassVar[str] = "uct"

    def __post_init__(self) -> None:
        check_exploration(self.c)
        check_final(self.final)

    def configure(self, cfg: Any) -> None:
        """Fill the C ``miai_search_config`` for this algorithm."""
        cfg.algorithm = lib.MIAI_ALG_UCT
        cfg.c = float(self.c)
        cfg.final_choice = FINAL_CHOICES[self.final]

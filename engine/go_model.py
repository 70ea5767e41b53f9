"""The learned Go move model (csrc/games/go_model_api.h): the features of a move and
the built-in model's probability of each move.

A move's features are one level per feature group (:data:`GROUPS`; 0 = absent), the
last group being the 3x3 pattern (1 + its 24-bit key).  The model is Coulom's
generalised Bradley-Terry model (ICGA Journal 30(4), 2007): a move's strength is the
product of its features' gammas, its probability the strength over the sum of all
moves' strengths.  ``scripts/learn_go_patterns.py`` fits the gammas.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.games import Move, State

GROUPS = ("pass", "capture", "escape", "self_atari", "atari", "eye", "line", "dist",
          "pattern")
N_GROUPS = int(lib.GO_FEATURES)
PATTERN = int(lib.GO_F_PATTERN)
LEVELS = int(lib.GO_MODEL_LEVELS)
assert len(GROUPS) == N_GROUPS


def _moves_of(state: State, moves: Sequence[Move] | None) -> list[Move]:
    if not isinstance(state, State) or state.game.name != "go":
        raise InvalidArgumentError(f"a Go state is needed, not {state!r}")
    given = list(state.legal_moves() if moves is None else moves)
    limit = state.game.num_moves
    out = []
    for m in given:
        try:
            if isinstance(m, bool):
                raise TypeError
            k = operator.index(m)  # int and numpy integers; not floats, text, bools
        except TypeError:
            k = -1
        if not 0 <= k < limit:
            raise InvalidArgumentError(f"a move id is an integer in [0, {limit}), not {m!r}")
        out.append(k)
    return out


def features(state: State, moves: Sequence[Move] | None = None) -> np.ndarray:
    """An array (len(moves), N_GROUPS) of feature levels of ``moves`` (default: the
    legal moves) for the side to move."""
    ms = _moves_of(state, moves)
    n = len(ms)
    out = np.zeros((n, N_GROUPS), dtype=np.uint32)
    if n:
        cm = ffi.new("miai_move[]", ms)
        buf = ffi.cast("uint32_t *", ffi.from_buffer(out))
        check(lib.go_move_features(state.game.ptr, state.ptr, cm, n, buf, out.size),
              "go move features")
    return out


def probabilities(state: State, moves: Sequence[Move] | None = None) -> np.ndarray:
    """The built-in model's probability of each of ``moves`` (default: the legal
    moves); they sum to 1."""
    ms = _moves_of(state, moves)
    out = np.zeros(len(ms), dtype=np.float64)
    if ms:
        cm = ffi.new("miai_move[]", ms)
        buf = ffi.cast("double *", ffi.from_buffer(out))
        check(lib.go_model_probs(state.game.ptr, state.ptr, cm, len(ms), buf),
              "go model probabilities")
    return out


def model_patterns() -> int:
    """How many pattern gammas the built-in model holds."""
    n, levels = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    check(lib.go_model_info(n, levels), "go model info")
    return int(n[0])

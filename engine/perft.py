"""Perft: leaves at a given depth, counted in C."""

from __future__ import annotations

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.games import State


def perft(state: State, depth: int) -> int:
    if not isinstance(depth, int) or not 0 <= depth <= 64:
        raise InvalidArgumentError(f"perft depth must be an int in [0, 64], not {depth!r}")
    out = ffi.new("uint64_t *")
    check(lib.miai_perft(state.game.ptr, state.ptr, depth, out), "perft")
    return int(out[0])

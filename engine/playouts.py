"""Random playouts run entirely in C."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.games import State


@dataclass(frozen=True)
class PlayoutRun:
    mean_rewards: tuple[float, ...]
    playouts: int
    plies: int  # plies played in all playouts


def playout_run(state: State, n: int, seed: int = 0, *, batch: bool = True) -> PlayoutRun:
    """``n`` playouts from ``state`` with the game's playout policy (uniformly random
    unless the game has its own); same seed, same result.  A GDL game runs a batch up
    to 64 games at a time (the lanes, csrc/gdl/pn_lanes.c) where that is cheaper
    (GdlGame.lanes_min_batch); ``batch=False`` plays them one by one, as a search's
    playouts are."""
    if not isinstance(n, int) or n < 0:
        raise InvalidArgumentError(f"number of playouts must be an int >= 0, not {n!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
    game = state.game
    means = ffi.new("double[]", game.n_roles)
    plies = ffi.new("uint64_t *")
    run = lib.miai_playouts if batch else lib.miai_playouts_each
    check(run(game.ptr, state.ptr, n, seed, means, game.n_roles, plies), "playouts")
    return PlayoutRun(tuple(float(means[i]) for i in range(game.n_roles)), n, int(plies[0]))


def playouts(state: State, n: int, seed: int = 0) -> tuple[float, ...]:
    """Mean reward per role over ``n`` random playouts from ``state``."""
    return playout_run(state, n, seed).mean_rewards

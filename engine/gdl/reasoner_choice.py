"""Which reasoner plays a game: its propnet or the reference prover, by measuring both.

A net is usually far faster than the prover, but not always: a net too big for the
differential engine runs on the generic loop over ``play()`` (pancakes88: a 403,267-node
net at 936 plies/s against 13,169 on the prover, issue 25).  :func:`choose` runs random
playouts on each for a short slice of time, counts plies per second, and picks the
prover only when it is faster than the net by ``MARGIN`` (the C search over a net does
more per ply than the Python search over the prover, and searches without the GIL).

The measurement is bounded: the net's plies run in Python steps until one ply is
known to be cheap (then whole C playouts, which cannot be interrupted, are short), the
prover's on a worker thread that is left behind at the end of its slice (it stops at
its next ply; one slow ply is the most it overruns by, on a thread nobody waits for).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.gdl.game import GdlGame
from engine.gdl.prover_game import ProverGame
from engine.playouts import playout_run

MARGIN = 2.0  # the prover plays only when this many times faster than the net
CHEAP_PLY = 50e-6  # seconds: below this, a net's whole playouts run in C


@dataclass(frozen=True)
class Choice:
    reasoner: str          # "propnet" or "prover"
    net_rate: float        # random-playout plies per second on the net
    prover_rate: float     # ... on the reference prover
    seconds: float         # wall-clock time the measurement took
    prover: ProverGame | None = None  # the prover game measured (None: not built)

    def describe(self) -> str:
        return (f"{self.reasoner}: {self.net_rate:,.0f} plies/s on the net, "
                f"{self.prover_rate:,.0f} on the prover (margin {MARGIN:g}, "
                f"measured for {self.seconds:.2f} s)")

    def as_dict(self) -> dict[str, object]:
        return {"reasoner": self.reasoner, "net_plies_per_s": round(self.net_rate, 1),
                "prover_plies_per_s": round(self.prover_rate, 1),
                "seconds": round(self.seconds, 3)}


def net_rate(game: GdlGame, seconds: float, seed: int = 0) -> float:
    """Plies per second of random playouts on the net, measured for about
    ``seconds`` (a ply's cost over, at most, when that ply is slow)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    state = game.initial_state()
    plies = 0
    while True:  # Python steps: every ply checks the clock
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return plies / elapsed
        if plies >= 64 and elapsed / plies < CHEAP_PLY:
            break
        if state.is_terminal():
            state = game.initial_state()
            continue
        joint = [rng.choice(game.rule_moves(state, r)) for r in range(game.n_roles)]
        state.play_joint(joint)
        plies += 1
    # cheap plies: whole playouts in C, as the search runs them
    begin, done = time.perf_counter(), 0
    initial = game.initial_state()
    while time.perf_counter() - start < seconds:
        done += playout_run(initial, 1, seed, batch=False).plies
        seed = (seed + 1) % 2**64
    return done / max(time.perf_counter() - begin, 1e-9)


def prover_rate(game: ProverGame, seconds: float, stop: threading.Event,
                seed: int = 0, count: list[float] | None = None) -> float:
    """Plies per second of random playouts on the prover, until ``seconds`` have
    passed or ``stop`` is set (checked before every ply).  ``count``, when given, is
    kept at [plies, when the first ply began, when the last ended] as it goes."""
    rng = random.Random(seed)
    start = time.perf_counter()
    count = count if count is not None else [0, start, start]
    count[:] = [0, start, start]
    state = game.initial_state()
    while not stop.is_set() and time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = game.initial_state()
            continue
        state.play_joint([rng.choice(state.rule_moves(r)) for r in range(game.n_roles)])
        count[0] += 1
        count[2] = time.perf_counter()
    return _rate(count)


def _rate(count: list[float]) -> float:
    plies, first, last = count
    return plies / (last - first) if plies and last > first else 0.0


def choose(net: GdlGame, make_prover: Callable[[], ProverGame], seconds: float,
           seed: int = 0) -> Choice:
    """Measure the net and the prover (built by ``make_prover``, whose time counts
    in the prover's slice) for ``seconds`` in all, half each, and pick the faster by
    ``MARGIN``.  Returns within ``seconds`` plus at most one of the net's plies; the
    prover's worker may go on for one ply (or the prover's construction) after."""
    begin = time.perf_counter()
    rate_net = net_rate(net, seconds / 2, seed)
    half = max(0.0, seconds - (time.perf_counter() - begin))
    box: dict[str, ProverGame] = {}
    count: list[float] = [0, 0.0, 0.0]
    stop = threading.Event()

    def work() -> None:
        t = time.perf_counter()
        game = box["game"] = make_prover()
        prover_rate(game, half - (time.perf_counter() - t), stop, seed, count)

    worker = threading.Thread(target=work, name="reasoner-choice", daemon=True)
    worker.start()
    worker.join(half)
    stop.set()
    rate_prover = _rate(list(count))
    reasoner = "prover" if rate_prover > MARGIN * rate_net else "propnet"
    return Choice(reasoner, rate_net, rate_prover, time.perf_counter() - begin,
                  box.get("game"))

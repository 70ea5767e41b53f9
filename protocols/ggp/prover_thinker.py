"""The search behind a GGP match played on the reference prover (grounding over its
bound): ``engine.gdl.prover_search.ProverSearch`` on a worker thread.

``ProverThinker`` has the interface of ``protocols.ggp.thinker.SearchThinker`` (pause,
resume, advance, best, iterations, close, failed), so the player drives both alike:
the search runs on our clock and, when pondering, on the opponents' clock; ``best``
answers at once from the root statistics, whatever the worker is doing.

``budget`` (iterations per position, optional) makes the thinker stop at that many
iterations from the current root until the next ``advance``: with it a move depends
on the seed, not on the machine's speed (``budget_reached`` tells the player it may
answer before the deadline).  The prover search is Python and holds the GIL while
it iterates; the event loop still gets its turns (the interpreter switches threads
every few milliseconds), and a pause takes effect within one prover step.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from engine.errors import MiaiError
from engine.gdl.prover_game import ProverGame, ProverState
from engine.gdl.prover_search import DEFAULT_C, ProverSearch

log = logging.getLogger(__name__)

REASONER = "prover"


class ProverThinker:
    """A ProverSearch over ``state`` for ``role``, iterating on a daemon thread."""

    def __init__(self, game: ProverGame, state: ProverState, role: int, *,
                 c: float = DEFAULT_C, seed: int = 0, budget: int | None = None) -> None:
        if budget is not None and budget < 1:
            raise ValueError(f"budget must be None or a positive number, not {budget}")
        self.game = game
        self.role = role
        self.budget = budget
        self.reasoner = REASONER
        self._search = ProverSearch(game, state, c=c, seed=seed)
        self._cv = threading.Condition()
        self._go = True
        self._idle = False
        self._closed = False
        self._settled = threading.Event()  # the budget of the current root is spent
        self.failed: str | None = None
        self._thread = threading.Thread(target=self._work, name="ggp-prover-search",
                                        daemon=True)
        self._thread.start()

    def _stopping(self) -> bool:
        return not self._go or self._closed

    def _work(self) -> None:
        while True:
            with self._cv:
                while (not self._go or self._spent()) and not self._closed:
                    self._idle = True
                    self._cv.notify_all()
                    self._cv.wait()
                if self._closed:
                    self._idle = True
                    self._cv.notify_all()
                    return
                self._idle = False
            try:
                if self._search.is_terminal():
                    with self._cv:
                        self._go = False
                    continue
                self._search.iterate(self._stopping)
            except MiaiError as exc:  # a rule error ends thinking, never the match
                log.warning("prover search stopped: %s", exc)
                with self._cv:
                    self.failed = str(exc)
                    self._go = False

    def _spent(self) -> bool:
        if self.budget is not None and self._search.iterations >= self.budget:
            self._settled.set()
            return True
        return False

    # -- control (any thread) --------------------------------------------------------

    def pause(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self._cv:
            self._go = False
            while not self._idle:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def resume(self) -> None:
        with self._cv:
            if not self._closed and self.failed is None:
                self._go = True
                self._cv.notify_all()

    def advance(self, joint: Sequence[str], timeout: float) -> bool:
        """Play the joint move at the root (no pause needed: the search drops the
        iteration in flight); False when the move is refused (the thinker is then
        dead)."""
        try:
            self._search.advance(joint)
        except MiaiError as exc:
            self.failed = f"advance: {exc}"
            return False
        with self._cv:
            self._settled.clear()
            self._cv.notify_all()
        return True

    def budget_reached(self) -> bool:
        return self._settled.is_set()

    def best(self, legal: Sequence[str]) -> str | None:
        if self.failed is not None:
            return None
        move = self._search.best_move(self.role)
        return move if move in legal else None

    def iterations(self) -> int:
        """Iterations from the current root."""
        return self._search.iterations

    def close(self, timeout: float = 1.0) -> None:
        with self._cv:
            self._closed = True
            self._go = False
            self._cv.notify_all()
        self._thread.join(timeout)

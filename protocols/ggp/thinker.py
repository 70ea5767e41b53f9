"""The search behind a GGP match: MCTS on a worker thread that never stops thinking.

``SearchThinker`` runs ``engine.search.Search`` (the C search over the propnet, which
releases the GIL) in its own thread from the start of a match to its end: on our
time, on the opponents' time, between requests.  The protocol side only asks for the
best move so far (``best``), plays joint moves (``advance``: pause, advance the
graph, resume) and ends it (``close``).  Pausing waits for the current batch (at most
``engine.search.search.BATCH_SECONDS`` of C work) and is bounded by a timeout: a
search that does not pause in time is abandoned (the match goes on with legal fallback
moves), never waited for.

One-player games (puzzles): after every batch the thinker replays the principal
variation and completes it with random moves; the best complete line found (highest
goal) is kept and replayed move by move while it is still the best known (a
deterministic puzzle's line stays valid whatever the search later prefers).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from engine.errors import MiaiError
from engine.games import NOBODY, SIMULTANEOUS, State
from engine.gdl.prover_search import BestLine
from engine.search import Search, SearchResult
from protocols.ggp.rules import apply_joint, legal_texts

log = logging.getLogger(__name__)

RUN_SECONDS = 1.0        # one run() of the worker; it loops until paused
PAUSE_POLL = 0.02        # seconds between stop() calls while pausing
MAX_LINE_PLIES = 5_000   # bound of a random completion of a puzzle line


class SearchThinker:
    """A Search over ``state`` for ``role``, pondering on a daemon thread."""

    reasoner = "propnet"
    budget: int | None = None  # no per-move iteration budget: the clock decides

    def __init__(self, game: Any, state: State, role: int, algorithm: object, *,
                 seed: int = 0, max_nodes: int = 1_000_000, leaf_playouts: int = 1) -> None:
        self.game = game
        self.role = role
        self._state = state.copy()
        self._rng = random.Random(seed)
        self._search = Search(state, algorithm, seed=seed, max_nodes=max_nodes, role=role,
                              leaf_playouts=leaf_playouts)
        self.algorithm = algorithm  # what the search runs (the player may fall back to UCT)
        self.puzzle = game.n_roles == 1
        self.line = BestLine()
        self._cv = threading.Condition()
        self._go = True
        self._idle = False
        self._closed = False
        self.failed: str | None = None
        self._thread = threading.Thread(target=self._work, name="ggp-search", daemon=True)
        self._thread.start()

    # -- worker ----------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._cv:
                while not self._go and not self._closed:
                    self._idle = True
                    self._cv.notify_all()
                    self._cv.wait()
                if self._closed:
                    self._idle = True
                    self._cv.notify_all()
                    return
                self._idle = False
            try:
                if self._search.state.is_terminal():
                    with self._cv:
                        self._go = False
                    continue
                self._search.run(seconds=RUN_SECONDS,
                                 on_batch=self._on_batch if self.puzzle else None)
            except MiaiError as exc:  # a search error ends thinking, never the match
                log.warning("search stopped: %s", exc)
                with self._cv:
                    self.failed = str(exc)
                    self._go = False

    def _on_batch(self, result: SearchResult) -> None:
        """Puzzles: the principal variation completed at random, kept if best."""
        state = self._search.state
        moves: list[str] = []
        for text in result.pv:
            if state.is_terminal():
                break
            try:
                apply_joint(self.game, state, [text])
            except MiaiError:
                break
            moves.append(text)
        while not state.is_terminal() and len(moves) < MAX_LINE_PLIES:
            text = self._rng.choice(legal_texts(self.game, state, 0))
            apply_joint(self.game, state, [text])
            moves.append(text)
        if state.is_terminal():
            with self._cv:
                self.line.offer(state.rewards()[0], moves)

    # -- control (any thread) --------------------------------------------------------

    def pause(self, timeout: float) -> bool:
        """Stop searching; True once the worker is idle, False after ``timeout``."""
        end = time.monotonic() + timeout
        with self._cv:
            self._go = False
            self._search.stop()
            while not self._idle:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._search.stop()
                self._cv.wait(min(PAUSE_POLL, left))
        return True

    def resume(self) -> None:
        with self._cv:
            if not self._closed and self.failed is None:
                self._go = True
                self._cv.notify_all()

    def advance(self, joint: Sequence[str], timeout: float) -> bool:
        """Play the joint move (texts, one per role) at the root; False when the
        search could not be paused in time or refused the move (it is then dead)."""
        if not self.pause(timeout):
            self.failed = "the search did not pause in time"
            return False
        try:
            ids = [self.game.move_from_text(t, r) for r, t in enumerate(joint)]
            tm = self._search.state.to_move
            self._search.advance(ids if tm == SIMULTANEOUS else ids[tm])
            if self.puzzle:
                self.line.advance(joint[0])
        except MiaiError as exc:
            self.failed = f"advance: {exc}"
            return False
        if self._search.state.to_move != NOBODY:
            self.resume()
        return True

    def best(self, legal: Sequence[str]) -> str | None:
        """The move to play now among ``legal`` (texts), or None if the search has
        nothing yet."""
        if self.failed is not None:
            return None
        if self.puzzle:
            goal, line = self.kept_line()
        try:
            result = self._search.result()
        except MiaiError:
            return None
        if self.puzzle and line and line[0] in legal:
            mean = max((m.mean for m in result.moves), default=0.0)
            if goal >= mean:
                return line[0]
        if result.best_move < 0 or result.best_text not in legal:
            return None
        if result.role != self.role:
            return None
        return result.best_text

    def position(self) -> State:
        """A copy of the position searched (the root)."""
        return self._search.state

    def kept_line(self) -> tuple[float, list[str]]:
        """Puzzles: the best complete line's goal (0..1; -1 when none) and its moves
        from the current root."""
        with self._cv:
            return self.line.goal, list(self.line.moves)

    def budget_reached(self) -> bool:
        return False

    def iterations(self) -> int:
        try:
            return self._search.result().iterations
        except MiaiError:
            return 0

    def close(self, timeout: float = 1.0) -> None:
        with self._cv:
            self._closed = True
            self._go = False
            self._cv.notify_all()
        self._search.stop()
        self._thread.join(timeout)

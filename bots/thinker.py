"""The one thinking loop: a bot thinking on a clock, on a worker thread.

Every front-end that thinks on a clock (GTP genmove and pondering, the GGP player on a
propnet or on the reference prover) drives a bot through a :class:`Thinker`:

    thinker = Thinker(bot, ponder=True)
    thinker.start(state, role)          # the position to think about
    thought = thinker.think(seconds)    # the best move by the deadline, always legal
    thinker.advance(move)               # a move (or joint move) was played
    thinker.close()

What the bot can do is asked through the Bot protocol (bots/base.py), never probed:

- a bot with a searcher (``bot.searcher(state, role)``: search bots, the prover
  search bot) has its search run in chunks on the worker, on our clock and, when
  pondering, between requests; ``advance`` pauses it, plays the move at its root
  (through ``bot.observe``, so the bot keeps its tree) and resumes it if it was
  running.  ``think`` answers from the root statistics at the deadline, or as soon as
  the iteration budget of the position is spent.
- any other bot (``random``, ``mc``, ``gtp:`` engines) is asked to
  ``choose_within(state, role, seconds)`` on the worker; past the time plus
  ``STOP_GRACE`` it is asked to ``stop``, and past ``FALLBACK_GRACE`` more the
  Thinker answers a fallback move itself.

Positions are ``engine.games.State``s or, on GDL rules played on the reference
prover, ``engine.gdl.prover_game.ProverState``s (the same interface; moves are texts).

Either way a move is produced by the deadline: when the bot has nothing, fails or
overruns, a legal fallback (by default a random legal move; the caller may give its
own ``fallback``), marked ``Thought.fallback``.

Budget: ``iterations`` per position (default: the bot's own ``move_budget()``; the
GGP player gives its own, e.g. ``prover_iterations``) counts the iterations run from
the position given to ``start`` or reached by ``advance``, pondering included; the
worker stops at it (``budget_reached``).  The C search's statistics depend only on
the seed and the total iterations, so a think with a budget gives the move of the
bot's ``choose`` with that budget, however the runs were chunked.

One-player games (``puzzle_lines=True``, for C searches): after every batch the
principal variation is replayed and completed with random moves; the best complete
line found (highest goal) is kept and its next move played while its goal is at least
the best mean at the root (a deterministic puzzle's line stays valid whatever the
search later prefers).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.base import Bot, Searcher
from bots.report import Report
from engine.errors import (
    InvalidArgumentError,
    LimitError,
    MiaiError,
    OutOfMemoryError,
)
from engine.games import SIMULTANEOUS, Game, Move, State
from engine.gdl.prover_search import BestLine

log = logging.getLogger(__name__)

RUN_SECONDS = 0.2        # one run of the worker's search; it loops until paused
PAUSE_POLL = 0.02        # seconds between stop() calls while pausing
STOP_GRACE = 0.15        # seconds after its time before a choosing bot is told to stop
FALLBACK_GRACE = 0.25    # further seconds before the fallback move is answered
MAX_LINE_PLIES = 5_000   # bound of a random completion of a puzzle line

Progress = Callable[[Report], None]
Fallback = Callable[[State, int, Sequence[Move]], Move]
OWN = object()           # the bot's own budget (the default of ``iterations``)


@dataclass(frozen=True)
class Thought:
    """The answer of one ``think``: the move, whether it is the fallback, the report."""

    move: Move
    fallback: bool = False
    report: Report | None = None
    seconds: float = 0.0


@dataclass
class _Choice:
    """A choose job for the worker (bots without a searcher)."""

    state: State
    role: int | None
    seconds: float | None
    move: Move | None = None
    error: BaseException | None = None
    done: threading.Event | None = None


class Thinker:
    """A bot thinking about one position at a time on a daemon worker thread."""

    def __init__(self, bot: Bot, *, ponder: bool = False, iterations: object = OWN,
                 fallback: Fallback | None = None, puzzle_lines: bool = False,
                 seed: int = 0) -> None:
        budget = bot.move_budget()
        self.bot = bot
        self.ponder = ponder
        self.budget: int | None = budget.iterations if iterations is OWN else \
            iterations  # type: ignore[assignment]
        if self.budget is not None and (isinstance(self.budget, bool)
                                        or not isinstance(self.budget, int)
                                        or self.budget < 1):
            raise InvalidArgumentError(f"iterations must be None or an int >= 1, "
                                       f"not {self.budget!r}")
        self.own_seconds = budget.seconds
        self.puzzle_lines = puzzle_lines
        self.line = BestLine()
        self.failed: str | None = None
        self.last_report: Report | None = None
        self._fallback = fallback
        self._rng = random.Random(seed)
        self._state: State | None = None
        self._role = 0
        self._searcher: Searcher | None = None
        self._by_search = False  # the bot thinks through a searcher (seen at start)
        self._cv = threading.Condition()
        self._go = False
        self._idle = True
        self._closed = False
        self._spent = False      # the budget of the position is spent (or the graph full)
        self._done = 0           # iterations run since the position was set
        self._progress: Progress | None = None
        self._choice: _Choice | None = None
        self._choosing = False
        self._thread = threading.Thread(target=self._work, name="miai-thinker", daemon=True)
        self._thread.start()

    # -- what the thinker is doing ------------------------------------------------------

    @property
    def searching(self) -> bool:
        """True when the bot thinks through a searcher (else it is asked to choose)."""
        return self._by_search

    @property
    def pondering(self) -> bool:
        """True while the search is let run outside a ``think``."""
        with self._cv:
            return self._go and self._progress is None

    def position(self) -> State | None:
        """A copy of the position thought about (None before ``start``)."""
        state = self._state
        return None if state is None else state.copy()

    def iterations(self) -> int:
        """Iterations at the current root (0 for bots without a searcher)."""
        searcher = self._searcher
        if searcher is None:
            return 0
        try:
            return searcher.iterations()
        except MiaiError:
            return 0

    def iterations_run(self) -> int:
        """Iterations this thinker ran from the current position (the budget's count;
        updated after each run of the worker)."""
        with self._cv:
            return self._done

    def budget_reached(self) -> bool:
        """True once the iteration budget of the position is spent (or the search can
        do no more there: graph full, game over)."""
        with self._cv:
            return self._spent

    def report(self) -> Report | None:
        """The searcher's report now (None without a searcher)."""
        searcher = self._searcher
        return None if searcher is None else searcher.report()

    def kept_line(self) -> tuple[float, list[Move]]:
        """Puzzles: the best complete line's goal (0..1; -1 when none) and its moves
        from the current root."""
        with self._cv:
            return self.line.goal, list(self.line.moves)

    # -- the position ---------------------------------------------------------------------

    def start(self, state: State, role: int) -> None:
        """Think about ``state`` for ``role`` from now on (the search paused; a new
        move's budget).  Raises what the bot's searcher raises (e.g. a C search that
        refuses the algorithm for the game)."""
        if not self.pause(_LONG):
            raise MiaiError("the thinker did not pause")
        with self._cv:
            self._state = state.copy()
            self._role = role
            self._done = 0
            self._spent = False
            self.failed = None
        self._searcher = None
        self._searcher = self._acquire()
        self._by_search = self._searcher is not None

    def reset(self, game: Game) -> None:
        """The game was set up anew: the bot resets, the position is forgotten."""
        self.pause(_LONG)
        with self._cv:
            self._state = None
            self._searcher = None
            self._done = 0
            self._spent = False
            self.failed = None
            self.last_report = None
            self.line = BestLine()
        self.bot.reset(game)

    def advance(self, move: Move | Sequence[Move], timeout: float = 1.0,
                before: State | None = None) -> bool:
        """Play ``move`` (a joint move: one per role) at the position: pause, let the
        bot observe it (a searcher keeps its tree below), resume if the search was
        running.  ``before`` is the position played from when the caller's differs
        from ours.  False when the search did not pause within ``timeout`` or the
        move is not legal (the thinker has then failed)."""
        was_going = self._go
        if not self.pause(timeout):
            self.failed = "the search did not pause in time"
            return False
        base = before if before is not None else self._state
        if base is None:
            raise MiaiError("advance before start: no position")
        after = base.copy()
        try:
            if isinstance(move, Sequence) and not isinstance(move, str):
                after.play_joint(list(move))
            else:
                after.play(move)
        except MiaiError as exc:
            self.failed = f"advance: {exc}"
            return False
        self.bot.observe(base, move)
        first = move[0] if isinstance(move, Sequence) and not isinstance(move, str) \
            else move
        with self._cv:
            self._state = after
            self._done = 0
            self._spent = False
            if self.puzzle_lines:
                self.line.advance(first)
        self._searcher = None
        if was_going:
            self.resume()
        return True

    def _acquire(self) -> Searcher | None:
        state = self._state
        if state is None or state.is_terminal():
            return None
        tm = state.to_move
        return self.bot.searcher(state, tm if tm >= 0 else self._role)

    def _acquire_quietly(self) -> Searcher | None:
        try:
            return self._acquire()
        except MiaiError as exc:
            self.failed = f"no search: {exc}"
            return None

    # -- running and pausing -------------------------------------------------------------

    def resume(self) -> None:
        """Let the search run (until paused, the budget spent or the game over)."""
        with self._cv:
            if self._searcher is None and self._state is not None and self.failed is None:
                self._searcher = self._acquire_quietly()
            if not self._closed and self.failed is None and self._searcher is not None:
                self._go = True
                self._cv.notify_all()

    def halt(self) -> None:
        """Ask the search to pause, without waiting for it."""
        with self._cv:
            self._go = False
        searcher = self._searcher
        if searcher is not None:
            searcher.stop()

    def pause(self, timeout: float) -> bool:
        """Stop searching; True once the worker is idle, False after ``timeout``."""
        end = time.monotonic() + timeout
        with self._cv:
            self._go = False
            while not self._idle and not self._choosing:
                searcher = self._searcher
                if searcher is not None:
                    searcher.stop()
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(min(PAUSE_POLL, left))
        return True

    # -- thinking -------------------------------------------------------------------------

    def think(self, seconds: float | None, *, legal: Sequence[Move] | None = None,
              answer_by: float | None = None, progress: Progress | None = None
              ) -> Thought:
        """The best move for the position within ``seconds`` (capped by the bot's own
        seconds; None: the bot's own budget), or as soon as the iteration budget is
        spent.  ``legal``: the moves allowed (default: the position's legal moves);
        ``answer_by``: the monotonic time by which a move is returned whatever the
        bot does (default: ``seconds`` plus the two graces).  ``progress`` is called
        with the running report after each batch of the search."""
        start = time.monotonic()
        state = self._state
        if state is None:
            raise MiaiError("think before start: no position")
        if legal is None:
            legal = state.legal_moves(self._role)
        limit = seconds
        if self.own_seconds is not None:
            limit = self.own_seconds if limit is None else min(limit, self.own_seconds)
        if answer_by is None and limit is not None:
            answer_by = start + limit + STOP_GRACE + FALLBACK_GRACE
        if self._by_search and self._searcher is None and self.failed is None:
            self._searcher = self._acquire_quietly()  # after an advance, at the new root
        if self._by_search:
            move = self._think_search(start, limit, legal, progress)
        else:
            move = self._think_choose(state, start, limit, answer_by)
            if move is not None and move not in legal:
                log.error("bot %s chose %r, not a legal move", self.bot, move)
                move = None
        report = self.last_report
        took = time.monotonic() - start
        if move is None:
            return Thought(self._fallback_move(state, legal), True, report, took)
        return Thought(move, False, report, took)

    def _think_search(self, start: float, limit: float | None, legal: Sequence[Move],
                      progress: Progress | None) -> Move | None:
        if self._searcher is None:
            return None  # nothing to search (the game is over, or the search failed)
        if limit is None and self.budget is None:
            raise InvalidArgumentError("a think needs seconds or an iteration budget")
        end = None if limit is None else start + limit
        with self._cv:
            self._progress = progress
            if self.failed is None:
                self._go = True
                self._cv.notify_all()
            while not self._spent and self.failed is None and self._go:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._cv.wait(left)
            self._progress = None
        if not self.ponder:
            self.halt()
        searcher = self._searcher
        if searcher is None or self.failed is not None:
            return None
        self.last_report = searcher.report()
        self.bot.searched(self.last_report)
        return self._best(searcher, legal)

    def _best(self, searcher: Searcher, legal: Sequence[Move]) -> Move | None:
        report = self.last_report
        if self.puzzle_lines:
            goal, line = self.kept_line()
            if line and line[0] in legal and report is not None:
                mean = max((m.mean for m in report.moves), default=0.0)
                if goal >= mean:
                    return line[0]
        try:
            move = searcher.best(self._role)
        except MiaiError:
            return None
        return move if move is not None and move in legal else None

    def _think_choose(self, state: State, start: float, limit: float | None,
                      answer_by: float | None) -> Move | None:
        tm = state.to_move
        role = self._role if tm == SIMULTANEOUS else None
        choice = _Choice(state.copy(), role, limit,
                         done=threading.Event())
        with self._cv:
            if self._choosing or self._choice is not None:
                log.error("the bot is still choosing its last move: a fallback move")
                return None
            self._choice = choice
            self._cv.notify_all()
        assert choice.done is not None
        if answer_by is None:
            choice.done.wait()
        else:
            stop_at = answer_by if limit is None else min(start + limit + STOP_GRACE,
                                                          answer_by)
            if not choice.done.wait(max(0.0, stop_at - time.monotonic())):
                log.warning("bot over its time: asking it to stop")
                self.bot.stop()
                choice.done.wait(max(0.0, answer_by - time.monotonic()))
        if choice.move is not None and choice.done.is_set():
            self.last_report = self.bot.last_report
            return choice.move
        if choice.error is not None:
            log.error("bot failed: %s", choice.error)
        else:
            log.error("bot did not answer in time: a fallback move")
        return None

    def _fallback_move(self, state: State, legal: Sequence[Move]) -> Move:
        if self._fallback is not None:
            return self._fallback(state, self._role, legal)
        if not legal:
            raise MiaiError("no legal move to fall back on")
        return self._rng.choice(list(legal))

    # -- the worker -----------------------------------------------------------------------

    def _runnable(self) -> bool:
        return (self._go and self._searcher is not None and not self._spent
                and self.failed is None)

    def _work(self) -> None:
        while True:
            with self._cv:
                while not self._closed and self._choice is None and not self._runnable():
                    self._idle = True
                    self._cv.notify_all()
                    self._cv.wait()
                if self._closed:
                    self._idle = True
                    self._cv.notify_all()
                    return
                choice, self._choice = self._choice, None
                self._choosing = choice is not None
                self._idle = False
                searcher = self._searcher
                left = None if self.budget is None else self.budget - self._done
            if choice is not None:
                self._run_choice(choice)
                continue
            assert searcher is not None
            self._run_search(searcher, left)

    def _run_choice(self, choice: _Choice) -> None:
        try:
            choice.move = self.bot.choose_within(choice.state,
                                                 choice.role, choice.seconds)
        except Exception as exc:  # reported by think; the fallback covers it
            choice.error = exc
        finally:
            with self._cv:
                self._choosing = False
                self._cv.notify_all()
            assert choice.done is not None
            choice.done.set()

    def _run_search(self, searcher: Searcher, left: int | None) -> None:
        spent = False
        n = 0
        try:
            n = searcher.run(left, RUN_SECONDS, self._on_batch)
        except (LimitError, OutOfMemoryError):
            spent = True  # the graph is full: play on the statistics gathered
        except MiaiError as exc:  # a search error ends thinking, never the game
            log.warning("search stopped: %s", exc)
            with self._cv:
                self.failed = str(exc)
                self._go = False
                self._cv.notify_all()
            return
        with self._cv:
            if searcher is not self._searcher:
                return
            self._done += n
            if n == 0 and self._go:
                spent = True  # the search has nothing left to do here (e.g. solved)
            if spent or (self.budget is not None and self._done >= self.budget):
                self._spent = True
            self._cv.notify_all()

    def _on_batch(self, report: Report) -> None:
        if self.puzzle_lines:
            self._offer_line(report)
        progress = self._progress
        if progress is not None:
            progress(report)

    def _offer_line(self, report: Report) -> None:
        """Puzzles: the principal variation completed at random, kept if best."""
        searcher = self._searcher
        if searcher is None:
            return
        state = searcher.state
        if state.game.n_roles != 1:
            return
        moves: list[Move] = []
        for text in report.pv:
            if state.is_terminal():
                break
            try:
                move = state.parse_move(text, 0)
                state.play(move)
            except MiaiError:
                break
            moves.append(move)
        while not state.is_terminal() and len(moves) < MAX_LINE_PLIES:
            move = self._rng.choice(state.legal_moves(0))
            state.play(move)
            moves.append(move)
        if state.is_terminal():
            with self._cv:
                self.line.offer(state.rewards()[0], moves)

    # -- the end ---------------------------------------------------------------------------

    def close(self, timeout: float = 1.0, close_bot: bool = True) -> None:
        """Stop the worker (waiting at most ``timeout``) and close the bot (unless
        ``close_bot`` is False: a bot abandoned while it may still be choosing)."""
        with self._cv:
            self._closed = True
            self._go = False
            self._cv.notify_all()
        searcher = self._searcher
        if searcher is not None:
            searcher.stop()
        self.bot.stop()
        self._thread.join(timeout)
        if close_bot:
            self.bot.close()


_LONG = 60.0  # a pause the caller waits for (the worker ends a run within a batch)

"""A search spec on a game played on the reference prover: decoupled UCT in Python.

GDL rules too big to ground are played on ``engine.gdl.prover_game.ProverGame``; the
C search needs a C game, so ``make_bot("uct:c=0.4", prover_game)`` gives this bot,
which searches with ``engine.gdl.prover_search.ProverSearch`` (decoupled UCT) with the
spec's ``c``.  Any other algorithm is searched the same way, with a warning.

Keys: those of :class:`bots.search_bot.SearchBot` are accepted (``iterations``, the
budget of ``choose``, default 1000; ``seconds``; ``seed``); ``nodes``, ``mode``,
``reuse`` and ``leaf`` are read but have no prover meaning; ``threads`` > 1 is refused
(the prover search has one thread).  Every search of the bot
starts from the bot's game seed, as the prover search of the GGP player always did.
Moves are KIF texts.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence

from bots.base import SEED_MAX, BaseBot, MoveBudget, Searcher, acting_role
from bots.report import Report
from bots.search_bot import BUDGET_KEYS, DEFAULT_ITERATIONS
from bots.spec import BotSpec
from engine.errors import InvalidArgumentError, MiaiError
from engine.games import Move
from engine.gdl.prover_game import ProverGame, ProverState
from engine.gdl.prover_search import DEFAULT_C, ProverSearch

log = logging.getLogger(__name__)


class ProverSearcher:
    """A ProverSearch as a bot's :class:`bots.base.Searcher` (moves are texts)."""

    def __init__(self, search: ProverSearch) -> None:
        self.search = search
        self._halt = False

    @property
    def state(self) -> ProverState:
        return self.search.state

    def run(self, iterations: int | None, seconds: float,
            on_batch: Callable[[Report], None] | None = None) -> int:
        """Iterate until ``iterations`` more (None: no count), ``seconds`` or
        ``stop``; a playout checks the stop before every prover step."""
        self._halt = False
        end = time.monotonic() + seconds
        done = 0
        while (iterations is None or done < iterations) and not self._halt \
                and time.monotonic() < end and not self.search.is_terminal():
            if self.search.iterate(lambda: self._halt):
                done += 1
        return done

    def stop(self) -> None:
        self._halt = True

    def report(self) -> Report | None:
        return None

    def best(self, role: int) -> Move | None:
        return self.search.best_move(role)

    def iterations(self) -> int:
        """Iterations since the root was set."""
        return self.search.iterations

    def advance(self, move: Move | Sequence[Move]) -> None:
        if isinstance(move, str):
            raise MiaiError("a prover search advances by a joint move (one text a role)")
        self.search.advance([str(m) for m in move])


class ProverSearchBot(BaseBot):
    """A search bot for a ProverGame (module doc)."""

    def __init__(self, spec: BotSpec, game: ProverGame) -> None:
        from engine.search import UCT, algorithm_from_spec

        budget, params = spec.split(BUDGET_KEYS)
        plain = BotSpec(spec.name, budget)
        super().__init__(spec.name, spec.text, game,
                         seed=plain.get_int("seed", 0, maximum=SEED_MAX) or 0)
        if (plain.get_int("threads", 1, minimum=1) or 1) > 1:
            raise InvalidArgumentError(
                f"{spec.text}: threads > 1 is not available for the prover search")
        algorithm = algorithm_from_spec(spec.name, dict(params))
        self.c = float(getattr(algorithm, "c", DEFAULT_C))
        if not isinstance(algorithm, UCT):
            log.warning("%s on the prover: searching with decoupled UCT, c=%g",
                        spec.text, self.c)
        seconds = plain.get_float("seconds", None, minimum=0.0, allow_inf=True)
        self.seconds = None if seconds is None or math.isinf(seconds) else seconds
        default_iterations = DEFAULT_ITERATIONS if self.seconds is None else None
        self.iterations = plain.get_int("iterations", default_iterations, minimum=1)
        self._searcher: ProverSearcher | None = None

    def reset(self, game: ProverGame) -> None:  # type: ignore[override]
        self._searcher = None
        super().reset(game)

    def searcher(self, state: ProverState, role: int) -> Searcher:  # type: ignore[override]
        kept = self._searcher
        if kept is not None and kept.search.state.true_facts() == state.true_facts():
            return kept
        self._searcher = ProverSearcher(ProverSearch(self.game, state, c=self.c,
                                                     seed=self.game_seed()))
        return self._searcher

    def move_budget(self) -> MoveBudget:
        return MoveBudget(self.iterations, self.seconds)

    def choose(self, state: ProverState, role: int | None = None) -> Move:  # type: ignore[override]
        return self.choose_within(state, role, None)

    def choose_within(self, state: ProverState, role: int | None,  # type: ignore[override]
                      seconds: float | None) -> Move:
        me = acting_role(state, role)  # type: ignore[arg-type]
        searcher = self.searcher(state, me)
        if seconds is None or (self.seconds is not None and self.seconds < seconds):
            seconds = self.seconds
        searcher.run(self.iterations, math.inf if seconds is None else seconds)
        move = searcher.best(me)
        if move is None:
            raise MiaiError("the prover search found no move")
        return move

    def observe(self, state_before: ProverState,  # type: ignore[override]
                move: Move | Sequence[Move]) -> None:
        kept = self._searcher
        if kept is None:
            return
        if kept.search.state.true_facts() != state_before.true_facts():
            self._searcher = None
            return
        joint = list(move) if isinstance(move, Sequence) and not isinstance(move, str) \
            else None
        if joint is None:  # an alternating move: the others play their one move
            joint = [move if r == state_before.to_move else state_before.rule_moves(r)[0]
                     for r in range(self.game.n_roles)]
        try:
            kept.advance(joint)
        except MiaiError:
            self._searcher = None

    def stop(self) -> None:
        if self._searcher is not None:
            self._searcher.stop()

    def close(self) -> None:
        self._searcher = None

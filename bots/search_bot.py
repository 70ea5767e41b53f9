"""A bot for any search algorithm of ``engine.search`` (``uct``, and every later one).

Spec keys read here, the budget of every search bot:
    iterations  iterations per move (default 1000 unless ``seconds`` is given)
    seconds     time per move (``inf`` or absent: no time limit)
    nodes       node budget of the search graph (default 1,000,000)
    seed        base seed (each search of the bot gets its own seed derived from it)
    mode        ``dag`` (transpositions shared) or ``tree``
    reuse       ``1`` (default): keep the subgraph below the move played between
                moves (``Search.advance``); ``0``: a fresh search every move
    leaf        playouts from each leaf, their mean backed up (default 1; GDL nets run
                them 64 at a time: docs/gdl.md "Lanes"; not with RAVE)
    threads     threads searching the one graph (default 1; > 1 for plain ``uct`` and
                ``rave`` only, others refuse it: docs/search.md "Threads"; not with
                ``mast``)
    vloss       virtual loss per in-flight path with threads > 1 (default 1)
    mast        ``1``: MAST playouts (``engine.search.Search``'s ``mast``; a table of
                each (role, move)'s mean reward kept by the search, across moves with
                ``reuse=1``); ``mast_eps`` (default 0.4) its epsilon-greedy epsilon,
                ``mast_temp`` > 0 a Gibbs choice at that temperature instead
Every other key goes to ``engine.search.algorithm_from_spec(name, params)``, so a new
algorithm of the search layer is a bot the day it exists, with no change here.

``choose`` runs the budget at once; a Thinker (bots/thinker.py) instead runs the
bot's live search (``searcher``: a :class:`LiveSearch`) in chunks on its worker, on
a clock and while pondering.  On a game played on the reference prover
(``engine.gdl.prover_game.ProverGame``) ``bots.make_bot`` gives a
:class:`bots.prover_bot.ProverSearchBot` for the same spec.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bots.base import SEED_MAX, BaseBot, MoveBudget, Searcher, acting_role
from bots.report import Report
from bots.spec import BotSpec
from engine import games
from engine.errors import LimitError, MiaiError, OutOfMemoryError
from engine.games import Game, Move, State

BUDGET_KEYS = ("iterations", "seconds", "nodes", "seed", "mode", "reuse", "leaf", "threads",
               "vloss", "mast", "mast_eps", "mast_temp")
DEFAULT_ITERATIONS = 1000
DEFAULT_NODES = 1_000_000
MAST_EPS = 0.4  # engine.search.search.MAST_EPS (this module imports engine.search lazily)


class SearchLike(Protocol):
    """What the bot uses of ``engine.search.Search``."""

    @property
    def state(self) -> State: ...

    def run(self, iterations: int | None = None, seconds: float | None = None,
            on_batch: Any = None) -> Any: ...

    def result(self) -> Any: ...

    def advance(self, move: Move | Sequence[Move]) -> None: ...


SearchFactory = Callable[..., SearchLike]
AlgorithmFactory = Callable[[str, dict[str, str]], object]


def _engine_search() -> tuple[SearchFactory, AlgorithmFactory]:
    from engine.search import Search, algorithm_from_spec

    return Search, algorithm_from_spec


class SearchBot(BaseBot):
    def __init__(
        self,
        spec: BotSpec,
        game: Game,
        *,
        search_factory: SearchFactory | None = None,
        algorithm_factory: AlgorithmFactory | None = None,
    ) -> None:
        budget, self.algorithm_params = spec.split(BUDGET_KEYS)
        plain = BotSpec(spec.name, budget)
        super().__init__(spec.name, spec.text, game,
                         seed=plain.get_int("seed", 0, maximum=SEED_MAX) or 0)
        seconds = plain.get_float("seconds", None, minimum=0.0, allow_inf=True)
        self.seconds = None if seconds is None or math.isinf(seconds) else seconds
        default_iterations = DEFAULT_ITERATIONS if self.seconds is None else None
        self.iterations = plain.get_int("iterations", default_iterations, minimum=1)
        self.max_nodes = plain.get_int("nodes", DEFAULT_NODES, minimum=1,
                                       maximum=2**32 - 1)
        self.mode = plain.get_choice("mode", ("dag", "tree"), "dag")
        self.reuse = plain.get_choice("reuse", ("1", "0"), "1") == "1"
        self.mast = plain.get_choice("mast", ("1", "0"), "0") == "1"
        self.mast_eps = plain.get_float("mast_eps", MAST_EPS, minimum=0.0, maximum=1.0)
        self.mast_temp = plain.get_float("mast_temp", 0.0, minimum=0.0)
        if search_factory is None or algorithm_factory is None:
            search_factory, algorithm_factory = _engine_search()
        self._new_search = search_factory
        self._new_algorithm = algorithm_factory
        # Build once now, so a bad algorithm parameter fails when the bot is made.
        algorithm = self._new_algorithm(self.name, dict(self.algorithm_params))
        self.algorithm = algorithm  # what each search of the bot runs (a fresh copy)
        self.leaf_playouts = 1
        if "leaf" in plain.params:  # engine.search's bound and check, only when asked
            from engine.search.search import LEAF_PLAYOUTS_MAX, check_leaf_playouts

            self.leaf_playouts = plain.get_int("leaf", 1, minimum=1,
                                               maximum=LEAF_PLAYOUTS_MAX) or 1
            check_leaf_playouts(algorithm, self.leaf_playouts)
        self.threads = 1
        self.virtual_loss = 1
        if "threads" in plain.params or "vloss" in plain.params:
            from engine.search.search import THREADS_MAX, VIRTUAL_LOSS_MAX, check_threads

            self.threads = plain.get_int("threads", 1, minimum=1, maximum=THREADS_MAX) or 1
            self.virtual_loss = plain.get_int("vloss", 1, minimum=0,
                                              maximum=VIRTUAL_LOSS_MAX) or 0
            check_threads(algorithm, self.threads, self.virtual_loss, self.leaf_playouts)
        self._search: SearchLike | None = None
        self._live: LiveSearch | None = None
        self._search_role: int | None = None
        self._searches = 0

    @property
    def search(self) -> SearchLike | None:
        """The live search (kept between moves when ``reuse=1``), or None."""
        return self._search

    def reset(self, game: Game) -> None:
        self._drop()
        self._searches = 0
        super().reset(game)

    def choose(self, state: State, role: int | None = None) -> Move:
        return self.choose_within(state, role, None)

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> Move:
        me = acting_role(state, role)
        search = self._search_for(state, me)
        if seconds is not None and self.seconds is not None:
            seconds = min(seconds, self.seconds)
        elif seconds is None:
            seconds = self.seconds
        try:
            result = search.run(iterations=self.iterations, seconds=seconds)
        except (LimitError, OutOfMemoryError):
            # The node budget is full: play on the statistics gathered so far.
            result = search.result()
            if not result.iterations:
                raise
        self._report = result
        if not self.reuse:
            self._drop()
        return int(result.best_move)

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None:
        search = self._search
        if search is None:
            return
        if not _same_position(search.state, state_before):
            self._drop()
            return
        try:
            search.advance(list(move) if isinstance(move, Sequence) else move)
        except MiaiError:
            self._drop()

    def close(self) -> None:
        self._drop()

    def searcher(self, state: State, role: int) -> Searcher:
        me = acting_role(state, role)
        search = self._search_for(state, me)
        if self._live is None or self._live.search is not search:
            self._live = LiveSearch(search)
        return self._live

    def move_budget(self) -> MoveBudget:
        return MoveBudget(self.iterations, self.seconds)

    def stop(self) -> None:
        search = self._search
        if search is not None:
            search.stop()

    def searched(self, report: Report | None) -> None:
        self._report = report
        if not self.reuse:
            self._drop()

    def _search_for(self, state: State, me: int) -> SearchLike:
        simultaneous = state.to_move == games.SIMULTANEOUS
        role = me if simultaneous else None
        if (self._search is not None and self._search_role == role
                and _same_position(self._search.state, state)):
            return self._search
        self._drop()
        self._searches += 1
        seed = (self.game_seed() + 0xBF58476D1CE4E5B9 * self._searches) % (SEED_MAX + 1)
        algorithm = self._new_algorithm(self.name, dict(self.algorithm_params))
        extra: dict[str, Any] = {}
        if self.leaf_playouts > 1:
            extra["leaf_playouts"] = self.leaf_playouts
        if self.mast:
            extra.update(mast=True, mast_eps=self.mast_eps, mast_temp=self.mast_temp)
        if self.threads > 1:  # only then: a search factory without threads still works
            extra["threads"] = self.threads
            extra["virtual_loss"] = self.virtual_loss
        self._search = self._new_search(
            state.copy(), algorithm, seed=seed, max_nodes=self.max_nodes,
            mode=self.mode, role=role, **extra,
        )
        self._search_role = role
        return self._search

    def _drop(self) -> None:
        self._search = None
        self._live = None
        self._search_role = None


class LiveSearch:
    """An ``engine.search.Search`` as a bot's :class:`bots.base.Searcher`."""

    def __init__(self, search: SearchLike) -> None:
        self.search = search

    @property
    def state(self) -> State:
        return self.search.state

    def run(self, iterations: int | None, seconds: float,
            on_batch: Callable[[Report], None] | None = None) -> int:
        """Run up to ``iterations`` (None: no count) for at most ``seconds``; the
        iterations done.  A full node budget raises (LimitError, OutOfMemoryError)."""
        before = self.search.result().iterations
        after = self.search.run(iterations=iterations, seconds=seconds,
                                on_batch=on_batch).iterations
        return int(after - before)

    def stop(self) -> None:
        self.search.stop()

    def report(self) -> Report | None:
        try:
            return self.search.result()
        except MiaiError:
            return None

    def best(self, role: int) -> Move | None:
        """The search's move for ``role``; None at a terminal root or when the root
        is another role's."""
        result = self.report()
        if result is None or result.best_move < 0:
            return None
        if result.role != role:
            return None
        return int(result.best_move)

    def iterations(self) -> int:
        """The root's iteration count (those kept from before an advance included)."""
        result = self.report()
        return 0 if result is None else int(result.iterations)

    def advance(self, move: Move | Sequence[Move]) -> None:
        self.search.advance(list(move) if isinstance(move, Sequence) else move)


def _same_position(a: State, b: State) -> bool:
    return a.game.spec == b.game.spec and a.to_bytes() == b.to_bytes()


def make_search_bot(spec: BotSpec, game: Game) -> SearchBot:
    return SearchBot(spec, game)


def uct_fallback(spec: BotSpec) -> BotSpec | None:
    """The spec with its algorithm replaced by UCT of the same ``c`` and the same
    budget keys, for games whose C search refuses the algorithm (None: the spec is
    UCT already)."""
    from engine.search import UCT

    budget, params = spec.split(BUDGET_KEYS)
    _, algorithm_factory = _engine_search()
    algorithm = algorithm_factory(spec.name, dict(params))
    if isinstance(algorithm, UCT) and not getattr(algorithm, "solver", False):
        return None  # plain UCT already (UCT with the solver falls back to it)
    c = float(getattr(algorithm, "c", UCT.c))
    return BotSpec("uct", {**budget, "c": repr(c)})

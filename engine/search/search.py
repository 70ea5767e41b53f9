"""``Search``: MCTS over a state, run in C in batches with the GIL released.

The C loop (csrc/search/) runs iterations until a batch's iteration count or time is
used up; between batches Python checks the budget and the stop flag, calls the
algorithm's ``between_batches`` hook and the caller's ``on_batch``.  With an iteration
budget the statistics depend only on the seed and the total number of iterations.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import check, ffi, lib
from engine.errors import GameOverError, InvalidArgumentError
from engine.games import NOBODY, SIMULTANEOUS, State
from engine.search.result import MoveStats, SearchResult, confidence_interval
from engine.search.uct import UCT

MODES = {"tree": int(lib.MIAI_MODE_TREE), "dag": int(lib.MIAI_MODE_DAG)}
BATCH_SECONDS = 0.05
BATCH_ITERATIONS = 1 << 16
MAX_NODES_LIMIT = 1 << 30
MIN_BYTES = 64 * 1024
NIL = 0xFFFFFFFF


@dataclass(frozen=True)
class EdgeStats:
    """One edge of the graph as C reports it (root edges, tests, tools)."""

    index: int
    move: int
    role: int
    child: int | None
    visits: int
    visits_prime: int
    mean: float
    sum: float
    sum_prime: float
    alg_a: float
    alg_b: float
    pruned: bool


def _edge(index: int, e: Any) -> EdgeStats:
    return EdgeStats(
        index=index,
        move=int(e.move),
        role=int(e.role),
        child=None if e.child == NIL else int(e.child),
        visits=int(e.n),
        visits_prime=int(e.n_prime),
        mean=float(e.mean),
        sum=float(e.sum),
        sum_prime=float(e.sum_prime),
        alg_a=float(e.alg_a),
        alg_b=float(e.alg_b),
        pruned=bool(e.flags & lib.MIAI_EDGE_FLAG_PRUNED),
    )


def _check_iterations(value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise InvalidArgumentError(f"iterations must be an int >= 0, not {value!r}")


def _check_seconds(value: object) -> None:
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
    ):
        raise InvalidArgumentError(f"seconds must be a finite number >= 0, not {value!r}")


LEAF_PLAYOUTS_MAX = int(lib.MIAI_LEAF_PLAYOUTS_MAX)  # playouts a leaf, at most
THREADS_MAX = int(lib.MIAI_THREADS_MAX)  # threads of one search, at most
VIRTUAL_LOSS_MAX = int(lib.MIAI_VIRTUAL_LOSS_MAX)


def algorithm_label(algorithm: object) -> str:
    """The name a message gives an algorithm: its spec name, else its class."""
    return str(getattr(algorithm, "name", None) or type(algorithm).__name__)


def check_threads(algorithm: object, threads: int, virtual_loss: int,
                  leaf_playouts: int = 1) -> None:
    """Raise InvalidArgumentError unless ``algorithm`` can search with ``threads``
    threads (> 1: UCT, RAVE, UCT*, MCTS* and the MCTS-Solver, with or without root
    pruning; docs/search.md, "Threads")."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= THREADS_MAX:
        raise InvalidArgumentError(f"threads must be an int in [1, {THREADS_MAX}], not {threads!r}")
    if (
        isinstance(virtual_loss, bool)
        or not isinstance(virtual_loss, int)
        or not 0 <= virtual_loss <= VIRTUAL_LOSS_MAX
    ):
        raise InvalidArgumentError(
            f"vloss must be an int in [0, {VIRTUAL_LOSS_MAX}], not {virtual_loss!r}")
    if threads <= 1:
        return
    cfg = ffi.new("miai_search_config *")
    algorithm.configure(cfg)  # type: ignore[attr-defined]
    if not lib.miai_search_threads_ok(cfg.algorithm):
        raise InvalidArgumentError(
            f"threads > 1 is not available for {algorithm_label(algorithm)!r} "
            f"(uct, rave, uctstar and mctsstar search with several threads, the solver "
            f"too; see docs/search.md)")
    if leaf_playouts > 1:
        raise InvalidArgumentError("threads > 1 does not combine with leaf_playouts > 1")
# MAST's epsilon-greedy default: a uniform move 40 % of the time, else the best mean
# (the epsilon Sironi and Winands found best among MAST's variants in GGP).
MAST_EPS = 0.4


def check_leaf_playouts(algorithm: object, leaf_playouts: int) -> None:
    """Raise InvalidArgumentError where ``algorithm`` cannot take ``leaf_playouts`` > 1:
    RAVE's AMAF statistics read the one playout's moves."""
    if leaf_playouts <= 1:
        return
    cfg = ffi.new("miai_search_config *")
    algorithm.configure(cfg)  # type: ignore[attr-defined]
    if cfg.algorithm in (lib.MIAI_ALG_RAVE, lib.MIAI_ALG_AUCT_RAVE):
        raise InvalidArgumentError(
            "leaf_playouts > 1 is not for RAVE: its AMAF reads the one playout's moves")


class Search:
    """MCTS from ``state`` with ``algorithm`` (default :class:`UCT`).

    Budget: ``iterations``, ``seconds`` or both (whichever ends first), given here or
    to :meth:`run`.  ``mode`` is ``"dag"`` (one node per position) or ``"tree"`` (no
    transposition detection).  ``max_nodes`` bounds the graph, and ``max_bytes`` (an
    extension: optional, >= 64 KiB) its memory (nodes, edges, table, links): when
    either is full the search keeps sampling without expanding.  ``role`` chooses whose moves are
    reported at simultaneous roots (default: the role to move, or role 0).
    ``leaf_playouts`` (default 1) playouts run from each leaf and their mean rewards
    backed up (not with RAVE); a GDL net runs them 64 at a time where that is cheaper
    (csrc/gdl/pn_lanes.c), other games one by one.  ``threads`` (default 1) threads
    search the one graph in each run (UCT, RAVE, UCT*, MCTS*; with ``mast`` each
    thread learns in its own copy of the table, merged after the run),
    with a virtual loss of ``virtual_loss`` visits (default 1) on a path whose playout
    is running; with 1 thread the search is the single-threaded loop, bit for bit.
    ``mast`` (default off) draws the playouts' moves by MAST (csrc/core/mast.h): from a
    table of every (role, move)'s mean reward this search keeps, epsilon-greedily
    (``mast_eps``) or, with ``mast_temp`` > 0, by a Gibbs distribution at that
    temperature (rewards on the 0..1 scale).
    ``run`` may be stopped from another thread with :meth:`stop`; :meth:`result`
    called while a run is in progress returns the last batch's result.
    """

    def __init__(
        self,
        state: State,
        algorithm: object = UCT(),  # noqa: B008 - frozen dataclass, immutable
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
        max_nodes: int = 1_000_000,
        mode: str = "dag",
        role: int | None = None,
        max_bytes: int | None = None,
        leaf_playouts: int = 1,
        threads: int = 1,
        virtual_loss: int = 1,
        mast: bool = False,
        mast_eps: float = MAST_EPS,
        mast_temp: float = 0.0,
    ) -> None:
        if not isinstance(state, State):
            raise InvalidArgumentError(f"a Search needs a State, not {state!r}")
        if not callable(getattr(algorithm, "configure", None)):
            raise InvalidArgumentError(f"{algorithm!r} is not a search algorithm")
        _check_iterations(iterations)
        _check_seconds(seconds)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
        if (
            isinstance(max_nodes, bool)
            or not isinstance(max_nodes, int)
            or not 1 <= max_nodes <= MAX_NODES_LIMIT
        ):
            raise InvalidArgumentError(
                f"max_nodes must be an int in [1, {MAX_NODES_LIMIT}], not {max_nodes!r}"
            )
        if max_bytes is not None and (
            isinstance(max_bytes, bool)
            or not isinstance(max_bytes, int)
            or not MIN_BYTES <= max_bytes < 2**63
        ):
            raise InvalidArgumentError(
                f"max_bytes must be None or an int >= {MIN_BYTES}, not {max_bytes!r}"
            )
        if mode not in MODES:
            raise InvalidArgumentError(f"mode must be 'dag' or 'tree', not {mode!r}")
        if (
            isinstance(leaf_playouts, bool)
            or not isinstance(leaf_playouts, int)
            or not 1 <= leaf_playouts <= LEAF_PLAYOUTS_MAX
        ):
            raise InvalidArgumentError(f"leaf_playouts must be an int in [1, "
                                       f"{LEAF_PLAYOUTS_MAX}], not {leaf_playouts!r}")
        if not isinstance(mast, bool):
            raise InvalidArgumentError(f"mast must be a bool, not {mast!r}")
        for name, value, top in (("mast_eps", mast_eps, 1.0), ("mast_temp", mast_temp, None)):
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or value < 0
                    or (top is not None and value > top)):
                raise InvalidArgumentError(f"{name} must be a number in [0, {top or 'inf'}"
                                           f"{']' if top else ')'}, not {value!r}")
        game = state.game
        if role is not None and (
            isinstance(role, bool) or not isinstance(role, int) or not 0 <= role < game.n_roles
        ):
            raise InvalidArgumentError(f"role {role!r} outside [0, {game.n_roles})")
        if state.is_terminal():
            raise GameOverError("cannot search a terminal state")
        self.algorithm = algorithm
        self.mode = mode
        self.seed = seed
        self.max_nodes = max_nodes
        self._iterations = iterations
        self._seconds = seconds
        self._role = role
        self._state = state.copy()
        self._game = game
        cfg = ffi.new("miai_search_config *")
        cfg.mode = MODES[mode]
        cfg.max_nodes = max_nodes
        cfg.max_bytes = max_bytes or 0
        cfg.seed = seed
        cfg.final_choice = lib.MIAI_FINAL_VISITS
        cfg.leaf_playouts = leaf_playouts
        cfg.mast = 1 if mast else 0
        cfg.mast_eps = float(mast_eps)
        cfg.mast_temp = float(mast_temp)
        algorithm.configure(cfg)  # type: ignore[attr-defined]
        check_leaf_playouts(algorithm, leaf_playouts)
        check_threads(algorithm, threads, virtual_loss, leaf_playouts)
        cfg.threads = threads
        cfg.virtual_loss = virtual_loss if threads > 1 else 0
        self.threads = threads
        self.virtual_loss = virtual_loss
        out = ffi.new("miai_search **")
        check(lib.miai_search_create(game.ptr, self._state.ptr, cfg, out), "create search")
        self._ptr = ffi.gc(out[0], lib.miai_search_free)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._root_seconds = 0.0
        self._run_start: float | None = None
        self._last: SearchResult | None = None
        self.run_budget: int | None = None

    # -- running ---------------------------------------------------------------------

    def run(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        on_batch: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Run the budget given here (or the constructor's) on top of the existing
        statistics; return the result.  Ends early on :meth:`stop`."""
        _check_iterations(iterations)
        _check_seconds(seconds)
        if iterations is None and seconds is None:
            iterations, seconds = self._iterations, self._seconds
        if iterations is None and seconds is None:
            raise InvalidArgumentError("a search budget needs iterations, seconds or both")
        if self._state.is_terminal():
            raise GameOverError("the game is over: nothing to search")
        with self._lock:
            # The root iteration count this run may reach: algorithms that need the
            # budget in advance (Huang's absolute pruning, savings reports) read it.
            start = self.info()["root_iterations"]
            self.run_budget = None if iterations is None else start + iterations
            self._stop.clear()
            check(lib.miai_search_clear_stop(self._ptr), "clear stop")
            self._last = self._make_result()
        if self.solved():  # nothing to learn: the proof decides the move
            with self._lock:
                self._last = self._make_result()
                return self._last
        batch_iterations = getattr(self.algorithm, "batch_iterations", None)
        done = ffi.new("uint64_t *")
        start = time.monotonic()
        self._run_start = start
        total = 0
        while not self._stop.is_set():
            left_iterations = None if iterations is None else iterations - total
            left_seconds = None if seconds is None else seconds - (time.monotonic() - start)
            if left_iterations is not None and left_iterations <= 0:
                break
            if left_seconds is not None and left_seconds <= 0:
                break
            step = batch_iterations or BATCH_ITERATIONS
            n = step if left_iterations is None else min(step, left_iterations)
            if batch_iterations:
                t = left_seconds if left_seconds is not None else 0.0
            else:
                t = BATCH_SECONDS if left_seconds is None else min(BATCH_SECONDS, left_seconds)
            with self._lock:
                code = lib.miai_search_run(self._ptr, n, t, done)
                check(code, "search run")
                total += int(done[0])
                stop_now = False
                hook = getattr(self.algorithm, "between_batches", None)
                if hook is not None:
                    stop_now = bool(hook(self))
                self._last = self._make_result()
            if on_batch is not None:
                on_batch(self._last)
            if stop_now:
                break
        with self._lock:
            self._root_seconds += time.monotonic() - start
            self._run_start = None
            self._last = self._make_result()
            return self._last

    def solved(self) -> bool:
        """True when the algorithm runs the MCTS-Solver (``solver=1``) and has proven
        the root won or lost for its mover: :meth:`run` then runs no iteration, so a
        clock-driven caller (bots/thinker.py) answers at once."""
        if not getattr(self.algorithm, "solver", False):
            return False
        from engine.search.solver import root_proof

        with self._lock:
            return root_proof(self) != 0

    def stop(self) -> None:
        """Make a running :meth:`run` return soon; safe from any thread."""
        self._stop.set()
        lib.miai_search_stop(self._ptr)

    def result(self) -> SearchResult:
        """The current result (during a run: the last finished batch's)."""
        if self._lock.acquire(blocking=False):
            try:
                self._last = self._make_result()
                return self._last
            finally:
                self._lock.release()
        if self._last is not None:
            return self._last
        with self._lock:
            return self._make_result()

    def advance(self, move: int | str | Sequence[int | str]) -> None:
        """Play ``move`` (a joint move at simultaneous roots) at the root; keep the
        graph below the new root and reclaim the rest."""
        with self._lock:
            state = self._state
            tm = state.to_move
            if tm == NOBODY:
                raise GameOverError("the game is over")
            if tm == SIMULTANEOUS:
                if isinstance(move, int | str) or len(move) != self._game.n_roles:
                    raise InvalidArgumentError(
                        f"a simultaneous root needs a joint move of {self._game.n_roles} moves"
                    )
                ids = [state._as_move(m, r) for r, m in enumerate(move)]
            else:
                if not isinstance(move, int | str):
                    if len(move) == 1:
                        move = move[0]
                    elif len(move) == self._game.n_roles:
                        move = move[tm]
                    else:
                        raise InvalidArgumentError(f"bad move {move!r}")
                ids = [state._as_move(move, tm)]
            nxt = state.copy()
            if tm == SIMULTANEOUS:
                nxt.play_joint(ids)  # raises IllegalMoveError before C is touched
            else:
                nxt.play(ids[0])
            arr = ffi.new("miai_move[]", ids)
            check(lib.miai_search_advance(self._ptr, arr, len(ids)), "advance")
            self._state = nxt
            self._root_seconds = 0.0
            self._last = None

    @property
    def state(self) -> State:
        """A copy of the root position."""
        return self._state.copy()

    # -- root access for algorithms and tools -------------------------------------------

    def root_edges(self) -> list[EdgeStats]:
        """Every edge of the root (all roles' blocks at a simultaneous root)."""
        return self.node_edges(self.info()["root"])

    def set_pruned(self, index: int, pruned: bool = True) -> None:
        """Exclude root edge ``index`` from selection and the final choice (or undo)."""
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise InvalidArgumentError(f"bad root edge index {index!r}")
        check(lib.miai_search_set_pruned(self._ptr, index, int(bool(pruned))), "set pruned")

    def select_root(self, role: int | None = None) -> int:
        """The root edge index the selection policy would choose now (no side effect)."""
        out = ffi.new("uint32_t *")
        check(lib.miai_search_select_root(self._ptr, self._report_role(role), out), "select")
        return int(out[0])

    def info(self) -> dict[str, Any]:
        i = ffi.new("miai_search_info *")
        check(lib.miai_search_get_info(self._ptr, i), "search info")
        return {
            "iterations": int(i.iterations),
            "root_iterations": int(i.root_iterations),
            "nodes": int(i.nodes),
            "edges": int(i.edges),
            "root": int(i.root),
            "max_nodes": int(i.max_nodes),
            "refused": int(i.refused),
            "bytes_allocated": int(i.bytes_allocated),
            "graph_bytes": int(i.graph_bytes),
            "bytes_per_edge": int(i.bytes_per_edge),
            "bytes_per_node": int(i.bytes_per_node),
            "seconds": float(i.seconds),
            "playouts": int(i.playouts),
            "lock_held_seconds": float(i.lock_held_seconds),
            "lock_wait_seconds": float(i.lock_wait_seconds),
            "thread_seconds": float(i.thread_seconds),
            "mast_samples": int(i.mast_samples),
        }

    def node(self, index: int) -> dict[str, int]:
        out = ffi.new("miai_node_stats *")
        check(lib.miai_search_node(self._ptr, index, out), "node")
        return {
            "key": int(out.key),
            "key2": int(out.key2),
            "to_move": int(out.to_move),
            "visits": int(out.n),
            "n_edges": int(out.n_edges),
            "n_links": int(out.n_links),
        }

    def node_edges(self, index: int) -> list[EdgeStats]:
        count = self.node(index)["n_edges"]
        buf = ffi.new("miai_edge_stats[]", max(count, 1))
        n = ffi.new("uint32_t *")
        check(lib.miai_search_node_edges(self._ptr, index, buf, max(count, 1), n), "edges")
        return [_edge(k, buf[k]) for k in range(n[0])]

    def node_parents(self, index: int) -> list[tuple[int, int | None]]:
        """In-edges of a node as (parent node, edge offset at the parent; None for a
        joint link).  Only when the algorithm tracks parents (StateError otherwise)."""
        cap = max(1, self.info()["edges"] + self.info()["nodes"])
        parents = ffi.new("uint32_t[]", cap)
        edges = ffi.new("uint32_t[]", cap)
        n = ffi.new("uint32_t *")
        check(lib.miai_search_node_parents(self._ptr, index, parents, edges, cap, n), "parents")
        return [
            (int(parents[k]), None if edges[k] == NIL else int(edges[k])) for k in range(n[0])
        ]

    def node_links(self, index: int) -> list[tuple[int, tuple[int, ...]]]:
        """Joint children of a simultaneous node: (child, edge offset per role)."""
        count = self.node(index)["n_links"]
        nr = self._game.n_roles
        children = ffi.new("uint32_t[]", max(count, 1))
        offsets = ffi.new("uint32_t[]", max(count, 1) * nr)
        n = ffi.new("uint32_t *")
        check(
            lib.miai_search_node_links(self._ptr, index, children, offsets, max(count, 1), n),
            "links",
        )
        return [
            (int(children[k]), tuple(int(offsets[k * nr + r]) for r in range(nr)))
            for k in range(n[0])
        ]

    # -- reports ---------------------------------------------------------------------

    def _report_role(self, role: int | None = None) -> int:
        tm = self._state.to_move
        if tm >= 0:
            return tm
        chosen = self._role if role is None else role
        return 0 if chosen is None else chosen

    def _pv(self) -> list[str]:
        cap = self._game.max_plies * self._game.n_roles + 1
        moves = ffi.new("miai_move[]", cap)
        roles = ffi.new("uint32_t[]", cap)
        to_move = ffi.new("int32_t[]", cap)
        n = ffi.new("uint32_t *")
        check(lib.miai_search_pv(self._ptr, moves, roles, to_move, cap, n), "pv")
        out: list[str] = []
        k = 0
        nr = self._game.n_roles
        while k < n[0]:
            if to_move[k] == SIMULTANEOUS:
                texts = [self._game.move_to_text(int(moves[k + r]), r) for r in range(nr)]
                out.append("(" + " ".join(texts) + ")")
                k += nr
            else:
                out.append(self._game.move_to_text(int(moves[k]), int(roles[k])))
                k += 1
        return out

    def _role_means(
        self, edges: list[EdgeStats], texts: list[str]
    ) -> dict[str, tuple[tuple[float, ...], int]]:
        """Per root move (``texts[k]`` the text of ``edges[k]``): every role's mean
        reward and the iteration count, over the iterations since the root was set."""
        nr = self._game.n_roles
        out = ffi.new("double[]", nr)
        count = ffi.new("uint64_t *")
        means: dict[str, tuple[tuple[float, ...], int]] = {}
        for e, text in zip(edges, texts, strict=True):
            check(lib.miai_search_root_role_means(self._ptr, e.index, out, nr, count), "means")
            means[text] = (tuple(float(out[r]) for r in range(nr)), int(count[0]))
        return means

    def _make_result(self) -> SearchResult:
        info = self.info()
        role = self._report_role()
        values = ffi.new("double[]", self._game.n_roles)
        check(lib.miai_search_root_values(self._ptr, values, self._game.n_roles), "values")
        root_values = tuple(float(values[r]) for r in range(self._game.n_roles))
        extra: dict[str, object] = {
            "mode": self.mode,
            "total_iterations": info["iterations"],
            "refused_expansions": info["refused"],
            "bytes_per_edge": info["bytes_per_edge"],
            "bytes_per_node": info["bytes_per_node"],
            "root_values": root_values,
        }
        report = getattr(self.algorithm, "report", None)
        if report is not None:
            extra.update(report(self))
        seconds = self._root_seconds
        if self._run_start is not None:
            seconds += time.monotonic() - self._run_start
        if self._state.is_terminal():
            return SearchResult(-1, "", [], [], info["root_iterations"], info["nodes"],
                                seconds, root_values[role] if role >= 0 else 0.0, role, extra)
        root_edges = self.root_edges()  # read once: nothing runs while the lock is held
        edges = [e for e in root_edges if e.role == role]
        texts = [self._game.move_to_text(e.move, role) for e in edges]
        moves = []
        for e, text in zip(edges, texts, strict=True):
            low, high = confidence_interval(e.mean, e.visits)
            moves.append(MoveStats(e.move, text, e.visits, e.mean, low, high, e.pruned))
        moves.sort(key=lambda m: (-m.visits, -m.mean, m.move))
        extra["role_means"] = self._role_means(edges, texts)
        index = ffi.new("uint32_t *")
        check(lib.miai_search_best(self._ptr, role, index), "best move")
        best = root_edges[int(index[0])]
        visits = sum(e.visits for e in edges)
        value = sum(e.sum for e in edges) / visits if visits else root_values[role]
        return SearchResult(
            best_move=best.move,
            best_text=self._game.move_to_text(best.move, role),
            moves=moves,
            pv=self._pv(),
            iterations=info["root_iterations"],
            nodes=info["nodes"],
            seconds=seconds,
            root_value=value,
            role=role,
            extra=extra,
        )

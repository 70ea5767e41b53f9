"""Threads on one DAG (csrc/search/threads.c, docs/search.md "Threads").

threads=1 is the single-threaded loop bit for bit: root visit counts at fixed seeds
are pinned to what main (c43a389, before threads existed) gives.  threads=2 must give a
graph whose invariants hold when checked against the game itself (every child is the
position its move leads to, an expanded node has one edge per legal move, one node per
position, node visits = the sum of its in-edges' visits, iterations = the budget), and
a search that still finds tic-tac-toe's forced wins.
"""

from __future__ import annotations

import threading
import time

import pytest

from engine import games, go
from engine.errors import InvalidArgumentError
from engine.search import (
    AUCT,
    AUCTRAVE,
    DUCT,
    UCD,
    UCT,
    Search,
    UCTStar,
    algorithm_from_spec,
)
from engine.search.rave import RAVE
from tests.helpers.solver_truth import (
    child_values,
    endgames,
    minimax,
    proofs_checked_against_minimax,
)

# Root visit counts on main (c43a389) at these seeds, single-threaded.
PINNED = [
    ("connect4", "uct", "dag", 3000, 3, [41, 257, 290, 1248, 531, 498, 135], 3001),
    ("othello", "uct", "tree", 2000, 5, [47, 515, 763, 675], 2001),
    ("connect4", "rave", "dag", 2000, 7, [4, 3, 17, 1790, 7, 176, 3], 1966),
    ("breakthrough", "uct", "dag", 2000, 11,
     [83, 184, 92, 8, 97, 93, 30, 47, 86, 39, 181, 98, 100, 78, 194, 126, 80, 64, 121, 88,
      57, 54], 2001),
]


def algorithm(name: str) -> object:
    return UCT(c=0.7) if name == "uct" else RAVE()


@pytest.mark.parametrize(("game", "alg", "mode", "iterations", "seed", "visits", "nodes"),
                         PINNED)
def test_one_thread_is_the_loop_of_before(game: str, alg: str, mode: str, iterations: int,
                                          seed: int, visits: list[int], nodes: int) -> None:
    state = games.create(game).initial_state()
    s = Search(state, algorithm(alg), seed=seed, mode=mode, threads=1, virtual_loss=3)
    s.run(iterations=iterations)
    assert [e.visits for e in s.root_edges()] == visits
    assert s.info()["nodes"] == nodes


def check_graph(s: Search, root_state: games.State, iterations: int, dag: bool) -> None:
    """The invariants, with the game as the reference for every edge."""
    info = s.info()
    assert info["iterations"] == iterations
    root = info["root"]
    assert s.node(root)["visits"] == iterations
    assert sum(e.visits for e in s.root_edges()) == iterations
    into: dict[int, int] = {}
    seen_keys: dict[tuple[int, int], int] = {}
    stack = [(root, root_state.copy())]
    visited = {root}
    while stack:
        node, state = stack.pop()
        facts = s.node(node)
        assert (facts["key"], facts["key2"]) == state.keys()
        if dag:
            assert seen_keys.setdefault(state.keys(), node) == node, "a position twice"
        edges = s.node_edges(node)
        if edges:  # expanded: one edge per legal move, in the legal order
            assert [e.move for e in edges] == [int(m) for m in state.legal_moves()]
        for e in edges:
            assert e.visits >= e.visits_prime >= 0
            if e.child is None:
                continue
            into[e.child] = into.get(e.child, 0) + e.visits
            if e.child not in visited:
                visited.add(e.child)
                nxt = state.copy()
                nxt.play(e.move)
                stack.append((e.child, nxt))
    assert len(visited) == info["nodes"], "a node no edge leads to"
    for node in visited - {root}:
        assert s.node(node)["visits"] == into[node], f"node {node}"


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize(("game", "mode"), [("tictactoe", "dag"), ("connect4", "dag"),
                                            ("connect4", "tree"), ("leftright", "dag")])
def test_threads_keep_the_graph_whole(game: str, mode: str, threads: int) -> None:
    state = games.create(game).initial_state()
    s = Search(state, UCT(c=0.7), seed=4, mode=mode, threads=threads, virtual_loss=1)
    total = 0
    for n in (1, 7, 300, 5000):  # tiny budgets too
        s.run(iterations=n)
        total += n
    check_graph(s, state, total, mode == "dag")


def test_threads_keep_the_graph_whole_with_rave() -> None:
    state = games.create("connect4").initial_state()
    s = Search(state, RAVE(), seed=9, threads=2, virtual_loss=2)
    s.run(iterations=4000)
    check_graph(s, state, 4000, True)


@pytest.mark.parametrize("threads", [2, 4])
def test_threads_find_the_forced_wins(threads: int) -> None:
    for moves, answer in [("a3 a2 b3 b2", {"c3"}), ("a3 b2 b3", {"c3"}),
                          ("b2 a3 c1 a1", {"a2"})]:
        state = games.create("tictactoe").initial_state()
        for m in moves.split():
            state.play(m)
        result = Search(state, UCT(c=0.7), iterations=20_000, seed=5,
                        threads=threads).run()
        assert result.best_text in answer


def test_go_rave_with_two_threads_plays_a_legal_move() -> None:
    state = games.create("go", size=9).initial_state()
    s = Search(state, RAVE(), seed=3, threads=2)
    result = s.run(iterations=1500)
    assert s.info()["iterations"] == 1500
    assert result.best_move in [int(m) for m in state.legal_moves()]
    check_graph(s, state, 1500, True)


def test_go_lgr_playouts_with_threads_keep_the_graph_whole() -> None:
    """Last-good-reply playouts keep one reply table per thread (threads.c)."""
    policy = go.POLICY_FULL | go.POLICY_LGR | go.POLICY_LGR2
    state = games.create("go", size=9, policy=policy).initial_state()
    s = Search(state, RAVE(), seed=3, threads=2)
    for n in (1, 500, 1000):
        s.run(iterations=n)
    assert s.info()["iterations"] == 1501
    check_graph(s, state, 1501, True)


def test_advance_keeps_threads_working() -> None:
    state = games.create("connect4").initial_state()
    s = Search(state, UCT(c=0.7), seed=2, threads=2)
    s.run(iterations=2000)
    s.advance(s.result().best_move)
    start = s.info()["root_iterations"]
    assert start == 0
    s.run(iterations=1000)
    assert s.info()["root_iterations"] == 1000


def test_stop_ends_a_threaded_run() -> None:
    state = games.create("connect4").initial_state()
    s = Search(state, UCT(c=0.7), seed=1, threads=2)
    runner = threading.Thread(target=s.run, kwargs={"seconds": 3600.0})
    runner.start()
    while s.info()["iterations"] == 0 and runner.is_alive():
        time.sleep(0.01)
    s.stop()
    runner.join(timeout=120)  # a hang guard, not a timing requirement
    assert not runner.is_alive()
    assert s.info()["iterations"] > 0


def test_deadline_ends_a_threaded_run() -> None:
    state = games.create("othello").initial_state()
    s = Search(state, UCT(c=0.7), seed=1, threads=3)
    result = s.run(seconds=0.2)
    assert result.iterations == s.info()["iterations"] > 0


@pytest.mark.parametrize("alg", [UCD(), AUCT(), DUCT(), AUCTRAVE()])
def test_threads_are_refused_where_not_parallel(alg: object) -> None:
    state = games.create("connect4").initial_state()
    with pytest.raises(InvalidArgumentError, match="threads > 1 is not available for"):
        Search(state, alg, threads=2)
    Search(state, alg, threads=1).run(iterations=10)


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_mast_tables_of_the_threads_are_merged(game: str) -> None:
    """Each thread learns in its own copy of the MAST table during a run; after it the
    search's table has every thread's rewards: as many a iteration as one thread's
    search collects (none kept would leave it empty, a copy merged twice would double
    it), over runs of 1 to 5,000 iterations."""
    state = games.create(game).initial_state()
    per_iteration = []
    for threads in (1, 2, 3):
        s = Search(state, UCT(c=0.4), seed=3, mast=True, threads=threads)
        for n in (1, 7, 300, 5000):
            s.run(iterations=n)
        info = s.info()
        assert info["iterations"] == 5308
        per_iteration.append(info["mast_samples"] / info["iterations"])
    one = per_iteration[0]
    assert one > 1
    assert all(abs(x / one - 1) < 0.15 for x in per_iteration[1:]), per_iteration


@pytest.mark.parametrize("bad", [0, -1, 257, True, 1.5])
def test_threads_argument_checked(bad: object) -> None:
    state = games.create("connect4").initial_state()
    with pytest.raises(InvalidArgumentError):
        Search(state, UCT(), threads=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1001, True, 1.5])
def test_virtual_loss_argument_checked(bad: object) -> None:
    state = games.create("connect4").initial_state()
    with pytest.raises(InvalidArgumentError):
        Search(state, UCT(), threads=2, virtual_loss=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["tictactoe", "connectFour"])
def test_threads_on_a_gdl_propnet(name: str) -> None:
    """A propnet game keeps its evaluation in the state: threads share the game."""
    from engine.gdl.game import load
    from engine.gdl.sheets import PACKAGED

    state = load((PACKAGED / f"{name}.kif").read_text(), name=name).initial_state()
    s = Search(state, UCT(c=0.5), seed=1, threads=2)
    s.run(iterations=2000)
    check_graph(s, state, 2000, True)


# -- UCT*, MCTS* and the MCTS-Solver with threads ----------------------------------

# Root visits, pruned flags, nodes and iterations single-threaded on main (e29e8df,
# before these algorithms took threads) at these seeds: the pruning clock that
# threads need (uctstar.c, pruning_due) leaves one thread's choices as they were.
PINNED_STAR = [
    ("connect4", "uctstar", {"variant": "step", "p": "0.3", "s": "7"}, 3000, 4,
     [1, 535, 1, 3, 161, 55, 49], [True, False, True, True, True, True, True], 750, 805),
    ("othello", "mctsstar", {"p": "0.1", "s": "20"}, 2000, 5, [2, 5, 8, 5],
     [True, True, False, True], 21, 20),
    ("breakthrough", "uctstar", {"variant": "rate", "p": "0.2"}, 2000, 8,
     [2, 1, 1, 4, 1, 1, 2, 1, 2, 1, 1365, 1, 1, 2, 1, 2, 1, 606, 2, 1, 1, 1],
     [True] * 10 + [False] + [True] * 6 + [False] + [True] * 4, 2001, 2000),
    ("connect4", "uctstar", {"variant": "root", "p": "0.2", "s": "10", "solver": "1"}, 3000,
     9, [3, 8, 3, 1, 21, 1, 3], [True, True, True, True, False, True, True], 41, 40),
    ("connect4", "uct", {"solver": "1"}, 3000, 6, [225, 81, 202, 1709, 311, 426, 46],
     [False] * 7, 3001, 3000),
]


@pytest.mark.parametrize(("game", "name", "params", "budget", "seed", "visits", "pruned",
                          "nodes", "done"), PINNED_STAR)
def test_one_thread_prunes_and_proves_as_before(game: str, name: str, params: dict[str, str],
                                                budget: int, seed: int, visits: list[int],
                                                pruned: list[bool], nodes: int,
                                                done: int) -> None:
    state = games.create(game).initial_state()
    s = Search(state, algorithm_from_spec(name, params), seed=seed, threads=1)
    assert s.run(iterations=budget).iterations == done
    assert [e.visits for e in s.root_edges()] == visits
    assert [e.pruned for e in s.root_edges()] == pruned
    assert s.info()["nodes"] == nodes


SOLVER_SPECS = [("uct", {"solver": "1"}),
                ("uctstar", {"p": "0.3", "s": "50", "solver": "1"}),
                ("mctsstar", {"p": "0.5", "s": "20", "solver": "1"})]


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize(("name", "params"), SOLVER_SPECS, ids=[n for n, _ in SOLVER_SPECS])
def test_threaded_proofs_agree_with_minimax_everywhere(name: str, params: dict[str, str],
                                                       threads: int) -> None:
    """Every proof anywhere in the graph that threads made is a minimax truth: a proof
    is made under the graph's lock from terminal rewards and proven edges only, so
    paths in flight (with their virtual losses) cannot make a wrong one."""
    state = games.create("tictactoe").initial_state().play_all(["a1", "b2"])
    search = Search(state, algorithm_from_spec(name, params), seed=1, threads=threads,
                    virtual_loss=3)
    search.run(iterations=20000)
    assert proofs_checked_against_minimax(search, state) > 20


def test_threaded_solver_proves_connect4_endgames() -> None:
    """Proven roots agree with minimax, and a proven root stops every thread."""
    proven = 0
    for state in endgames(4, seed=11, name="connect4", plies=(32, 35)):
        truth = minimax(state)
        moves = child_values(state)
        result = Search(state, algorithm_from_spec("uct", {"solver": "1"}), seed=2,
                        iterations=20000, threads=2).run()
        root = result.extra["solver"]["root"]
        if root == "win":
            assert truth == 1.0 and moves[result.best_move] == 1.0
        elif root == "loss":
            assert truth == 0.0
        if root != "open":
            assert result.iterations < 20000
        proven += root != "open"
    assert proven >= 2


@pytest.mark.parametrize("game", ["connect4", "othello"])
def test_pruning_does_not_read_virtual_losses(game: str) -> None:
    """UCT* pruning at the root on every iteration (p = 0.5), two threads, a virtual
    loss of 1,000 visits.  Judged with a path in flight through it, the most visited
    move's mean would fall to nearly 0 and the move be pruned: a pruned move would
    then end with a better mean than every move kept (6 and 7 seeds of 10 when
    pruning read e->n).  UCT* judges the payoffs received (uctstar.c, real_visits)."""
    state = games.create(game).initial_state()
    for seed in range(8):
        s = Search(state, UCTStar(p=0.5, s=1), seed=seed, threads=2, virtual_loss=1000)
        s.run(iterations=20000)
        edges = s.root_edges()
        best_kept = max(e.mean for e in edges if not e.pruned)
        wrongly = [e.move for e in edges if e.pruned and e.visits > 50 and e.mean > best_kept]
        assert wrongly == [], f"seed {seed}"

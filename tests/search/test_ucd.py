"""UCD (ucd.txt): the C policy against the plain-Python recursion of
tests/reference/ucd.py, the paper's identities, and its Figure 3 example."""

from __future__ import annotations

import math
import random
import zlib

import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.search import UCD, UCT, Search, algorithm_from_spec
from tests.helpers.variant_dump import (
    compare_ucd_with_reference,
    dump,
    random_walk_state,
    root_stats,
    run_observing_node_primes,
    terms,
)
from tests.reference import dag as rdag
from tests.reference import mcts as rmcts
from tests.reference import ucd as rucd

INF = math.inf
DEPTHS = [(0, 0, 0), (1, 0, 1), (1, 0, 0), (INF, 0, 0), (0, 1, 2), (2, 1, 1), (INF, INF, INF),
          (INF, 0, 1)]
BACKUPS = ["descent", "all", "incremental"]


def tictactoe() -> games.Game:
    return games.create("tictactoe")


def leftright() -> games.Game:
    return games.create("leftright", steps=16)  # rewards k/16: sums are exact


# -- the paper's example and the reference's identities -----------------------------------


def test_figure3_node_data_is_the_aggregate_of_its_in_edges():
    """Fig. 3: the bottom-left node's data (6 payoffs, mean 0.67) is rebuilt from its two
    in-edges (4 payoffs at 0.75 and 2 at 0.5); mu_1 of the edges above it reads it."""
    root = rdag.Node("r", 0)
    a, b, x = rdag.Node("a", 0), rdag.Node("b", 0), rdag.Node("x", 0)
    ra, rb = rdag.link(root, 0, a, 1), rdag.link(root, 1, b, 1)
    ax, bx = rdag.link(a, 0, x, 1), rdag.link(b, 0, x, 1)
    for e, payoffs in ((ax, [1, 1, 1, 0]), (bx, [1, 0])):
        for y in payoffs:
            e.add([y], first=True)
    for e, child in ((ra, ax), (rb, bx)):
        e.n, e.total = child.n, list(child.total)
    n = sum(e.n for e in x.parents)
    mean = sum(e.total[0] for e in x.parents) / n
    assert (ax.n, ax.mean(), bx.n, bx.mean()) == (4, 0.75, 2, 0.5)
    assert n == 6 and round(mean, 2) == 0.67
    assert rucd.mu(ra, 1) == 0.75 and rucd.mu(rb, 1) == 0.5
    assert rucd.n_adapted(ra, 1) == 4 and rucd.p_adapted(ra, 1) == 6


@pytest.mark.parametrize("depths", DEPTHS)
def test_reference_without_transpositions_every_parametrisation_plays_uct(depths):
    game = rmcts.LeftRight(8)
    base = rmcts.RefSearch(game, game.initial(), rmcts.UCTPolicy(0.3), dag=False, seed=3)
    other = rmcts.RefSearch(game, game.initial(), rmcts.UCDPolicy(*depths, c=0.3), dag=False,
                            seed=3)
    assert other.run(game.initial(), 200) == base.run(game.initial(), 200)


def test_reference_with_transpositions_the_parametrisations_differ():
    """The identity above is not vacuous: with the DAG, (inf, 0, 1) leaves UCT's path."""
    game = rmcts.LeftRight(8)
    base = rmcts.RefSearch(game, game.initial(), rmcts.UCTPolicy(0.3), dag=True, seed=3)
    other = rmcts.RefSearch(game, game.initial(), rmcts.UCDPolicy(INF, 0, 1, c=0.3), dag=True,
                            seed=3)
    assert other.run(game.initial(), 200) != base.run(game.initial(), 200)


# -- C against UCT and against the reference ------------------------------------------------


@pytest.mark.parametrize("prime", ["edge", "node"])
@pytest.mark.parametrize("backup", BACKUPS)
@pytest.mark.parametrize("depths", DEPTHS)
@pytest.mark.parametrize("make", [tictactoe, leftright])
def test_c_without_transpositions_every_parametrisation_equals_uct(make, depths, backup, prime):
    """Tree mode has no transpositions: every (d1, d2, d3), every backup and both
    primes (a node has one in-edge) give UCT's statistics and move bit for bit under
    the same seed (ucd.txt sec. 3.3)."""
    state = make().initial_state()
    uct = Search(state, UCT(c=0.4), iterations=600, seed=11, mode="tree")
    ucd = Search(state, UCD(*depths, c=0.4, backup=backup, prime=prime), iterations=600,
                 seed=11, mode="tree")
    a, b = uct.run(), ucd.run()
    assert root_stats(uct) == root_stats(ucd)
    assert (a.best_move, a.pv) == (b.best_move, b.pv)


def compare_with_reference(search: Search, depths, c: float, kind: str = "edge",
                           node_primes: dict[int, tuple[int, list[float]]] | None = None) -> int:
    return compare_ucd_with_reference(search, depths, c, kind, node_primes)


RANDOM_DEPTHS = [(INF, INF, INF), (0, 1, 2), (2, 1, 0), (INF, 0, 1), (1, 2, INF)]


@pytest.mark.parametrize("backup", BACKUPS)
@pytest.mark.parametrize("depths", RANDOM_DEPTHS)
def test_c_terms_equal_the_recursion_on_random_small_dags(depths, backup):
    """After random iterations from random positions in DAG mode, every edge's
    mu_d1, p_d2, n_d3 and u -- from the incremental sums and from the C recursion --
    equal the plain-Python recursion to 1e-9."""
    rng = random.Random(zlib.crc32(repr((depths, backup)).encode()))
    checked = 0
    for make in (tictactoe, leftright):
        game = make()
        for _ in range(2):
            state = random_walk_state(game, rng.randrange(0, 3), rng)
            algo = UCD(*depths, c=0.5, backup=backup)
            search = Search(state, algo, seed=rng.randrange(1 << 30), mode="dag")
            search.run(iterations=rng.randrange(50, 300))
            checked += compare_with_reference(search, depths, 0.5)
    assert checked > 100


@pytest.mark.parametrize("backup", BACKUPS)
@pytest.mark.parametrize("depths", RANDOM_DEPTHS + [(1, 0, 1), (1, 1, 1)])
def test_c_terms_with_node_primes_equal_the_recursion(depths, backup):
    """prime=node: the C terms equal the reference recursion fed with each node's own
    n', mu' (the playouts counted at the node as they happened), every backup."""
    rng = random.Random(zlib.crc32(repr(("node", depths, backup)).encode()))
    checked = 0
    for make in (tictactoe, leftright):
        game = make()
        state = random_walk_state(game, rng.randrange(0, 2), rng)
        search = Search(state, UCD(*depths, c=0.5, backup=backup, prime="node"),
                        seed=rng.randrange(1 << 30), mode="dag")
        primes: dict[int, tuple[int, list[float]]] = {}
        run_observing_node_primes(search, rng.randrange(80, 160), primes)
        checked += compare_with_reference(search, depths, 0.5, "node", primes)
    assert checked > 100


def test_node_primes_survive_reroot():
    """After advance() (indices change) the node n', mu' are rebuilt from the graph's
    edges: the terms still equal the recursion fed with the playouts counted at each
    node since the start (carried across by the nodes' keys)."""
    game = tictactoe()
    for backup in BACKUPS:
        search = Search(game.initial_state(), UCD(INF, 1, 1, backup=backup, prime="node"),
                        seed=5, mode="dag")
        primes: dict[int, tuple[int, list[float]]] = {}
        run_observing_node_primes(search, 300, primes)
        old = {k: (search.node(k)["key"], search.node(k)["key2"]) for k in primes}
        search.advance(search.result().best_move)
        new = {(search.node(k)["key"], search.node(k)["key2"]): k
               for k in range(search.info()["nodes"])}
        primes = {new[old[k]]: v for k, v in primes.items() if old[k] in new}
        run_observing_node_primes(search, 60, primes)
        assert compare_with_reference(search, (INF, 1, 1), 0.7, "node", primes) > 10


@pytest.mark.parametrize("backup", BACKUPS)
def test_node_primes_in_tree_mode_after_advance_still_equal_uct(backup):
    """Tree mode rebuilds the node n', mu' from each node's one in-edge after advance():
    still UCT's statistics bit for bit."""
    state = tictactoe().initial_state()
    uct = Search(state, UCT(c=0.4), seed=4, mode="tree")
    ucd = Search(state, UCD(INF, 1, 1, c=0.4, backup=backup, prime="node"), seed=4,
                 mode="tree")
    for search in (uct, ucd):
        search.run(iterations=500)
    move = uct.result().best_move
    assert ucd.result().best_move == move
    for search in (uct, ucd):
        search.advance(move)
        search.run(iterations=300)
    assert root_stats(uct) == root_stats(ucd)


def test_incremental_sums_survive_reroot():
    """advance() compacts the graph (indices change): the kept sums are rebuilt and
    still equal the recursion."""
    game = tictactoe()
    search = Search(game.initial_state(), UCD(INF, INF, INF), seed=5, mode="dag")
    search.run(iterations=400)
    search.advance(search.result().best_move)
    search.run(iterations=200)
    assert compare_with_reference(search, (INF, INF, INF), 0.7) > 10


def test_update_all_adds_each_playout_to_every_ancestor_edge_once():
    game = tictactoe()
    search = Search(game.initial_state(), UCD(0, 0, 0, backup="all"), seed=2, mode="dag")
    before: dict[int, tuple[int, int]] = {}
    for _ in range(120):
        search.run(iterations=1)
        nodes, edges = dump(search, 2)
        now = {k: (e.n, e.n1) for k, e in edges.items()}
        grown = {k for k, v in now.items() if v[0] != before.get(k, (0, 0))[0]}
        assert all(now[k][0] == before.get(k, (0, 0))[0] + 1 for k in grown)
        primed = [edges[k] for k in grown if now[k][1] != before.get(k, (0, 0))[1]]
        leaf = primed[0].child
        assert leaf is not None and all(e.child is leaf for e in primed)
        assert {id(edges[k]) for k in grown} == {id(e) for e in rdag.ancestors(leaf)}
        before = now


def test_101_counts_are_the_simple_transposition_tables_node_visits():
    """(1, 0, 1) reads the simple way's node statistics: n_1(e) is the visits of e's
    destination (counted by the search loop) less the pre-expansion payoffs that
    entered it through its other in-edges."""
    game = tictactoe()
    search = Search(game.initial_state(), UCD(1, 0, 1), seed=9, mode="dag", iterations=500)
    search.run()
    nodes, _ = dump(search, 2)
    index = {id(n): k for k, n in enumerate(nodes)}
    checked = 0
    for k, node in enumerate(nodes):
        for e, t in zip(node.edges, terms(search, k), strict=True):
            if e.child is None or e.n == 0:
                continue
            others = sum(g.n1 for g in e.child.parents if g is not e)
            assert t[2] == search.node(index[id(e.child)])["visits"] - others
            checked += 1
    assert checked > 50


def test_specs_and_bad_parameters():
    a = algorithm_from_spec("ucd", {"d1": "inf", "d2": "0", "d3": "1", "c": "0.3"})
    assert isinstance(a, UCD) and a.depths == (INF, 0, 1) and a.c == 0.3
    assert algorithm_from_spec("ucd", {"backup": "all"}).backup == "all"
    assert algorithm_from_spec("ucd", {"prime": "node"}).prime == "node"
    assert UCD().prime == "edge"
    for bad in ({"d1": "-1"}, {"d2": "1.5"}, {"d3": "x"}, {"backup": "sideways"},
                {"prime": "vertex"},
                {"solver": "maybe"}, {"c": "-1"}):
        with pytest.raises(InvalidArgumentError):
            algorithm_from_spec("ucd", bad)

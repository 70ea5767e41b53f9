"""The search graph: UCD's identities in tree and DAG mode, one node per position,
the node budget, and re-rooting with reclaim.

Independent truth: the identities are those of the UCD paper (sec. 2, before eq. 1),
checked in Python over the graph the C core reports; the set of reachable positions
is enumerated here by playing every move sequence through the games API.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import pytest

from engine import games
from engine.core import lib
from engine.errors import StateError
from engine.search import UCT, Search

FULL = os.environ.get("MIAI_FULL") == "1"



def assert_visits_flow(search: Search) -> None:
    """In a tree each edge's visits are its own first visits plus its child's edges'."""
    _, edges = graph(search)
    for out in edges.values():
        for e in out:
            if e.child is not None:
                assert e.visits == e.visits_prime + sum(f.visits for f in edges[e.child])

def start(moves: str = "") -> games.State:
    state = games.create("tictactoe").initial_state()
    for m in moves.split():
        state.play(m)
    return state


def reachable_keys(state: games.State) -> set[tuple[int, int]]:
    seen: set[tuple[int, int]] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        k = s.keys()
        if k in seen:
            continue
        seen.add(k)
        for m in s.legal_moves():
            stack.append(s.copy().play(m))
    return seen


def graph(search: Search) -> tuple[dict[int, dict[str, int]], dict[int, list]]:
    """Every node reachable from the root, with its edges."""
    nodes: dict[int, dict[str, int]] = {}
    edges: dict[int, list] = {}
    stack = [search.info()["root"]]
    while stack:
        n = stack.pop()
        if n in nodes:
            continue
        nodes[n] = search.node(n)
        edges[n] = search.node_edges(n)
        stack.extend(e.child for e in edges[n] if e.child is not None)
    return nodes, edges


@pytest.mark.parametrize("iterations", [1, 2, 3, 10, 137, 2500])
def test_tree_mode_edge_visits_are_n_prime_plus_child_edge_visits(iterations: int) -> None:
    search = Search(start(), UCT(), seed=iterations, mode="tree")
    search.run(iterations=iterations)
    nodes, edges = graph(search)
    assert len(nodes) == search.info()["nodes"]
    parents = defaultdict(int)
    for out in edges.values():
        for e in out:
            if e.child is not None:
                parents[e.child] += 1
                below = sum(f.visits for f in edges[e.child])
                assert e.visits == e.visits_prime + below  # UCD, identity before eq. 1
                assert nodes[e.child]["visits"] == e.visits
            else:
                assert e.visits == 0
    assert all(count == 1 for count in parents.values())  # a tree
    root = search.info()["root"]
    assert sum(e.visits for e in edges[root]) == iterations
    assert nodes[root]["visits"] == iterations


@pytest.mark.parametrize("iterations", [1, 5, 300, 5000])
def test_dag_mode_one_node_per_position_and_in_edges_add_up(iterations: int) -> None:
    search = Search(start(), UCT(), seed=iterations, mode="dag")
    search.run(iterations=iterations)
    nodes, edges = graph(search)
    assert len(nodes) == search.info()["nodes"]
    keys = [(x["key"], x["key2"]) for x in nodes.values()]
    assert len(set(keys)) == len(keys)
    assert set(keys) <= reachable_keys(start())
    into: dict[int, int] = defaultdict(int)
    ended: dict[int, int] = defaultdict(int)
    for out in edges.values():
        for e in out:
            if e.child is not None:
                into[e.child] += e.visits
                ended[e.child] += e.visits_prime
    root = search.info()["root"]
    for n, x in nodes.items():
        out_visits = sum(e.visits for e in edges[n])
        if n == root:
            assert x["visits"] == iterations == out_visits
        else:
            assert x["visits"] == into[n]
            assert x["visits"] == ended[n] + out_visits


def test_dag_mode_shares_transpositions_tree_mode_does_not() -> None:
    dag = Search(start(), UCT(), seed=3, mode="dag")
    tree = Search(start(), UCT(), seed=3, mode="tree")
    dag.run(iterations=20_000)
    tree.run(iterations=20_000)
    n_positions = len(reachable_keys(start()))
    assert dag.info()["nodes"] <= n_positions
    assert tree.info()["nodes"] > n_positions  # the full game tree has 549,946 nodes
    assert tree.info()["nodes"] <= 20_000 + 1  # at most one node per iteration


def test_node_budget_holds_under_a_long_search() -> None:
    iterations = 200_000 if FULL else 30_000
    for mode in ("dag", "tree"):
        search = Search(start(), UCT(), seed=1, mode=mode, max_nodes=300)
        result = search.run(iterations=iterations)
        info = search.info()
        assert info["nodes"] <= 300
        assert info["refused"] > 0
        assert result.iterations == iterations
        assert sum(m.visits for m in result.moves) == iterations
        if mode == "tree":
            nodes, edges = graph(search)
            for out in edges.values():
                for e in out:
                    if e.child is not None:
                        below = sum(f.visits for f in edges[e.child])
                        assert e.visits == e.visits_prime + below


def snapshot(search: Search, node: int) -> dict:
    """Statistics of the subgraph below ``node``, index-free: by position in DAG mode,
    by move path in tree mode (where one position may have several nodes)."""
    tree = search.mode == "tree"
    out: dict = {}
    stack: list[tuple[int, tuple[int, ...]]] = [(node, ())]
    while stack:
        n, path = stack.pop()
        x = search.node(n)
        name = path if tree else (x["key"], x["key2"])
        if name in out:
            continue
        edges = search.node_edges(n)
        out[name] = (
            x["visits"],
            tuple((e.move, e.visits, e.visits_prime, e.sum, e.sum_prime) for e in edges),
        )
        stack.extend((e.child, (*path, e.move)) for e in edges if e.child is not None)
    return out


@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_advance_keeps_the_subgraph_and_reclaims_the_rest(mode: str) -> None:
    search = Search(start(), UCT(), seed=9, mode=mode)
    search.run(iterations=5000)
    root = search.info()["root"]
    edge = next(e for e in search.node_edges(root) if e.move == 4)
    below = snapshot(search, edge.child)
    nodes_before = search.info()["nodes"]
    search.advance(4)
    info = search.info()
    assert info["nodes"] == len(below) < nodes_before
    assert snapshot(search, info["root"]) == below
    # The kept graph still works: the identities hold after more iterations.
    search.run(iterations=3000)
    if mode == "tree":
        assert_visits_flow(search)
    # A move to a position the graph never reached starts a fresh graph.
    fresh = Search(start(), UCT(), seed=9, mode=mode)
    fresh.run(iterations=1)
    fresh.advance(8 if fresh.root_edges()[8].visits == 0 else 7)
    assert fresh.info()["nodes"] == 1
    assert fresh.result().iterations == 0


def test_dag_advance_finds_a_transposed_position() -> None:
    """After two plies the DAG may reach the new root through another path."""
    search = Search(start(), UCT(), seed=2, mode="dag")
    search.run(iterations=20_000)
    target = start("a3 b2")
    key = target.keys()
    nodes, _ = graph(search)
    index = next(n for n, x in nodes.items() if (x["key"], x["key2"]) == key)
    below = snapshot(search, index)
    search.advance("a3")
    search.advance("b2")
    assert snapshot(search, search.info()["root"]) == below


@dataclass(frozen=True)
class UCTWithParents(UCT):
    """UCT, with the DAG asked to keep in-edge lists (as UCD's policies do)."""

    def configure(self, cfg: Any) -> None:
        super().configure(cfg)
        cfg.flags |= lib.MIAI_SEARCH_TRACK_PARENTS


@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_in_edge_lists_match_the_out_edges(mode: str) -> None:
    search = Search(start(), UCTWithParents(), seed=6, mode=mode)
    search.run(iterations=3000)
    for step in range(3):
        nodes, edges = graph(search)
        expected: dict[int, set[tuple[int, int]]] = defaultdict(set)
        for n, out in edges.items():
            for k, e in enumerate(out):
                if e.child is not None:
                    expected[e.child].add((n, k))
        for n in nodes:
            got = search.node_parents(n)
            assert len(got) == len(set(got))
            assert set(got) == expected.get(n, set())
        if mode == "dag":
            assert any(len(v) > 1 for v in expected.values())  # transpositions seen
        search.advance(search.result().best_move)  # parents are rebuilt by reroot
        search.run(iterations=500 * step + 1)


def test_parents_are_not_kept_unless_asked() -> None:
    search = Search(start(), UCT(), seed=6)
    search.run(iterations=10)
    with pytest.raises(StateError):
        search.node_parents(0)


@pytest.mark.parametrize("steps", [6, 12])
def test_leftright_dag_one_node_per_position_and_in_edges_add_up(steps: int) -> None:
    state = games.create("leftright", steps=steps).initial_state()
    positions = reachable_keys(state)
    assert len(positions) == (steps + 1) * (steps + 2) // 2
    for iterations in (1, 7, 200, 3000):
        search = Search(state, UCT(c=0.3), seed=iterations, mode="dag")
        search.run(iterations=iterations)
        nodes, edges = graph(search)
        assert len(nodes) == search.info()["nodes"] <= len(positions)
        keys = {(x["key"], x["key2"]) for x in nodes.values()}
        assert len(keys) == len(nodes) and keys <= positions
        into: dict[int, int] = defaultdict(int)
        for out in edges.values():
            for e in out:
                if e.child is not None:
                    into[e.child] += e.visits
        root = search.info()["root"]
        for n, x in nodes.items():
            assert x["visits"] == (iterations if n == root else into[n])


def test_leftright_long_game_graph_stays_small() -> None:
    state = games.create("leftright", steps=300).initial_state()
    search = Search(state, UCT(c=0.3), seed=1, mode="dag")
    search.run(iterations=3000)
    nodes, _ = graph(search)
    keys = {(x["key"], x["key2"]) for x in nodes.values()}
    assert len(keys) == len(nodes) <= 3001


SMALL = {"hex": {"size": 4}, "havannah": {"size": 4}, "leftright": {"steps": 20}}


@pytest.mark.parametrize("name", sorted(games.available()))
@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_search_runs_on_every_registered_game(name: str, mode: str) -> None:
    state = games.create(name, **SMALL.get(name, {})).initial_state()
    search = Search(state, UCT(), seed=1, mode=mode, max_nodes=2000)
    result = search.run(iterations=1500)
    assert result.iterations == 1500
    assert search.info()["nodes"] <= 2000
    assert result.best_move in state.legal_moves()
    root = search.info()["root"]
    assert search.node(root)["visits"] == 1500
    if mode == "tree":
        assert_visits_flow(search)
    search.advance(result.best_move)
    if not search.state.is_terminal():
        assert search.run(iterations=200).iterations == 200


@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_byte_budget_holds_on_a_wide_game(mode: str) -> None:
    state = games.create("hex", size=11).initial_state()
    budget = 256 * 1024
    search = Search(state, UCT(), seed=1, mode=mode, max_bytes=budget)
    result = search.run(iterations=4000)
    info = search.info()
    assert info["graph_bytes"] <= budget
    assert info["refused"] > 0
    assert result.iterations == 4000
    assert sum(m.visits for m in result.moves) == 4000
    unbounded = Search(state, UCT(), seed=1, mode=mode)
    unbounded.run(iterations=4000)
    assert unbounded.info()["graph_bytes"] > budget  # the budget did bind

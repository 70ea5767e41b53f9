"""Test helpers: the C search graph as a plain-Python DAG (tests/reference/dag.py),
and the C policies' selection terms, for comparing C with the references."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engine.core import check, ffi, lib
from engine.search import Search
from tests.reference import dag as rdag


@dataclass(frozen=True)
class EdgeRecord:
    move: int
    role: int
    child: int
    n: int
    n_prime: int
    flags: int
    sum: float
    sum_prime: float
    alg_a: float
    alg_b: float


def edge_records(search: Search, node: int) -> list[EdgeRecord]:
    """Every field of the C edge records of ``node`` (copied out of the C buffer)."""
    count = search.node(node)["n_edges"]
    buf = ffi.new("miai_edge_stats[]", max(count, 1))
    n = ffi.new("uint32_t *")
    check(lib.miai_search_node_edges(search._ptr, node, buf, max(count, 1), n), "edges")
    return [
        EdgeRecord(int(b.move), int(b.role), int(b.child), int(b.n), int(b.n_prime),
                   int(b.flags), float(b.sum), float(b.sum_prime), float(b.alg_a),
                   float(b.alg_b))
        for b in (buf[k] for k in range(n[0]))
    ]


def dump(search: Search, n_roles: int) -> tuple[list[rdag.Node], dict[int, rdag.Edge]]:
    """Every node and edge of the search graph with its statistics.  Payoff totals are
    stored for every role: the other role's total of a two-role game is n - sum
    (rewards sum to 1).  Returns the nodes (by index) and the edges by C edge id
    (node index, position)."""
    info = search.info()
    nodes = [rdag.Node(k, search.node(k)["to_move"]) for k in range(info["nodes"])]
    edges: dict[int, rdag.Edge] = {}
    for k, node in enumerate(nodes):
        for pos, b in enumerate(edge_records(search, k)):
            child = None if b.child == 0xFFFFFFFF else nodes[b.child]
            e = rdag.link(node, int(b.move), child, n_roles)
            r = int(b.role)
            e.n, e.n1 = int(b.n), int(b.n_prime)
            e.total = [b.sum if q == r else b.n - b.sum for q in range(n_roles)]
            e.total1 = [b.sum_prime if q == r else b.n_prime - b.sum_prime for q in range(n_roles)]
            edges[k * 4096 + pos] = e
        node.expanded = True
    return nodes, edges


def terms(search: Search, node: int, recompute: bool = False) -> list[tuple[float, ...]]:
    """(mean term, parent term, count term, value) per edge, as the C policy has them."""
    count = search.node(node)["n_edges"]
    cap = 4 * max(count, 1)
    out = ffi.new("double[]", cap)
    n = ffi.new("uint32_t *")
    check(
        lib.miai_variant_edge_terms(search._ptr, node, int(recompute), out, cap, n), "terms"
    )
    return [tuple(float(out[4 * i + j]) for j in range(4)) for i in range(n[0])]


def random_walk_state(game: Any, plies: int, rng: random.Random) -> Any:
    """A state reached by up to ``plies`` random moves (never terminal)."""
    state = game.initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        nxt = state.copy().play(rng.choice(moves))
        if nxt.is_terminal():
            break
        state = nxt
    return state


def root_stats(search: Search) -> list[tuple[int, int, float, int]]:
    return [(e.move, e.visits, e.sum, e.visits_prime) for e in search.root_edges()]


def role_sums(search: Search, node: int, n_roles: int) -> list[tuple[list[float], list[float]]]:
    """UCD with every role's payoffs kept: per edge of ``node``, (payoff total per role
    over its n payoffs, over its n' payoffs)."""
    count = search.node(node)["n_edges"]
    cap = 2 * n_roles * max(count, 1)
    out = ffi.new("double[]", cap)
    n = ffi.new("uint32_t *")
    check(lib.miai_variant_edge_role_sums(search._ptr, node, out, cap, n), "role sums")
    w = 2 * n_roles
    return [([float(out[w * k + r]) for r in range(n_roles)],
             [float(out[w * k + n_roles + r]) for r in range(n_roles)]) for k in range(n[0])]


def graph(search: Search, general: bool = False
          ) -> tuple[list[rdag.Node], dict[int, rdag.Edge]]:
    """:func:`dump`, with every role's totals from UCD's side arrays when ``general``
    (more than two roles, or payoffs=general)."""
    n_roles = search.state.game.n_roles
    nodes, edges = dump(search, n_roles)
    if general:
        for k, node in enumerate(nodes):
            if node.edges:
                for e, (tot, tot1) in zip(node.edges, role_sums(search, k, n_roles),
                                          strict=True):
                    e.total, e.total1 = tot, tot1
    return nodes, edges


def compare_ucd_with_reference(search: Search, depths: tuple[float, float, float], c: float,
                               kind: str = "edge",
                               node_primes: dict[int, tuple[int, list[float]]] | None = None,
                               general: bool = False) -> int:
    """UCD's C terms, from its kept sums (every node's read before any is recomputed)
    and recomputed, against the plain-Python recursion (tests/reference/ucd.py) on the
    dumped graph, to 1e-9; with kind="node"
    the nodes' own n', mu' come from ``node_primes`` (node index -> (n', payoff sums
    per role)), observed while the search ran.  Returns the edges checked."""
    from tests.reference import ucd as rucd

    nodes, _ = graph(search, general)
    for k, (n1, total1) in (node_primes or {}).items():
        nodes[k].n1, nodes[k].total1 = n1, list(total1)
    checked = 0
    inner = [k for k, node in enumerate(nodes) if node.edges and node.to_move >= 0]
    # Every node's kept terms first: a recomputation (refresh_below) rewrites the kept
    # sums of every node below the one it is asked about.
    kept = {k: terms(search, k) for k in inner}
    recomputed = {k: terms(search, k, recompute=True) for k in inner}
    for k in inner:
        node = nodes[k]
        for e, t0, t1 in zip(node.edges, kept[k], recomputed[k], strict=True):
            ref = (rucd.mu(e, depths[0], kind=kind), rucd.p_adapted(e, depths[1], kind),
                   rucd.n_adapted(e, depths[2], kind), rucd.value(e, *depths, c, kind))
            for x, y, z in zip(t0, t1, ref, strict=True):
                if math.isinf(z):
                    assert math.isinf(x) and math.isinf(y), (x, y, z)
                else:
                    assert abs(x - z) <= 1e-9 and abs(y - z) <= 1e-9, (x, y, z)
            checked += 1
    return checked


def run_observing_node_primes(search: Search, iterations: int,
                              primes: dict[int, tuple[int, list[float]]],
                              general: bool = False) -> None:
    """Run one iteration at a time and count, per node, the playouts that started there
    and their payoffs per role: the playout node is the deepest node whose visit count
    (the loop's own) grew; its payoff is what an in-edge got in its n' totals.  (The
    root has no in-edge: its n' is never read.)"""
    n_roles = search.state.game.n_roles
    before, _ = graph(search, general)
    for _ in range(iterations):
        visits0 = [search.node(k)["visits"] for k in range(search.info()["nodes"])]
        search.run(iterations=1)
        nodes, _ = graph(search, general)
        grew = {k for k in range(len(nodes))
                if search.node(k)["visits"] > (visits0[k] if k < len(visits0) else 0)}
        leaf = [k for k in grew
                if not any(e.child is not None and e.child.key in grew for e in nodes[k].edges)]
        assert len(leaf) == 1
        payoff = None
        for y in nodes:
            old_edges = before[y.key].edges if y.key < len(before) else []
            for pos, e in enumerate(y.edges):
                old = old_edges[pos] if old_edges else None
                if e.child is nodes[leaf[0]] and e.n1 > (old.n1 if old else 0):
                    payoff = [a - (old.total1[r] if old else 0.0)
                              for r, a in enumerate(e.total1)]
                    break
            if payoff is not None:
                break
        if payoff is not None:
            n1, total1 = primes.get(leaf[0], (0, [0.0] * n_roles))
            primes[leaf[0]] = (n1 + 1, [a + b for a, b in zip(total1, payoff, strict=True)])
        before = nodes

"""Test helpers: the C search graph as a plain-Python DAG (tests/reference/dag.py),
and the C policies' selection terms, for comparing C with the references."""

from __future__ import annotations

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

"""A plain-Python rooted DAG with statistics on edges (UCD paper, section 3.1).

Obviously-correct data only: an edge keeps the payoff sums it received per role,
n(e), and the part n'(e), mu'(e) received before its destination got its first child.
A node keeps its own n'(x), mu'(x) (the paper defines them for "a node or an edge",
section 2): the payoffs of the playouts that started at it, whichever edge they came
through (UCD's ``prime=node``).
Formulas live in ucd.py / auct.py / uct_star.py / auer.py; the plain MCTS loop that
grows such DAGs for identity tests lives in mcts.py.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field


@dataclass(eq=False)
class Node:
    key: Hashable
    to_move: int  # acting role, or -2 when terminal
    edges: list[Edge] = field(default_factory=list)
    parents: list[Edge] = field(default_factory=list)
    expanded: bool = False
    n1: int = 0  # n'(x): playouts that started at this node
    total1: list[float] = field(default_factory=list)  # their payoff sum per role

    def add_prime(self, payoff: Sequence[float]) -> None:
        """One playout started at this node (its n', mu')."""
        if not self.total1:
            self.total1 = [0.0] * len(payoff)
        self.n1 += 1
        for r, x in enumerate(payoff):
            self.total1[r] += x


@dataclass(eq=False)
class Edge:
    move: int
    parent: Node
    n_roles: int
    child: Node | None = None
    n: int = 0
    total: list[float] = field(default_factory=list)  # payoff sum per role
    n1: int = 0  # n'(e)
    total1: list[float] = field(default_factory=list)  # payoff sum per role of the n' part

    def __post_init__(self) -> None:
        if not self.total:
            self.total = [0.0] * self.n_roles
        if not self.total1:
            self.total1 = [0.0] * self.n_roles

    @property
    def role(self) -> int:
        """The role that chooses this edge: its statistics are that role's."""
        return self.parent.to_move

    def mean(self, role: int | None = None) -> float:
        r = self.role if role is None else role
        return self.total[r] / self.n if self.n else 0.0

    def mean1(self, role: int | None = None) -> float:
        r = self.role if role is None else role
        return self.total1[r] / self.n1 if self.n1 else 0.0

    def children(self) -> list[Edge]:
        """c(e): the edges out of e's destination."""
        return self.child.edges if self.child is not None else []

    def siblings(self) -> list[Edge]:
        """b(e): the edges out of e's origin (e included)."""
        return self.parent.edges

    def add(self, payoff: Sequence[float], first: bool) -> None:
        """One payoff; ``first`` when the destination has no child yet (n' part)."""
        self.n += 1
        for r, x in enumerate(payoff):
            self.total[r] += x
        if first:
            self.n1 += 1
            for r, x in enumerate(payoff):
                self.total1[r] += x


def link(parent: Node, move: int, child: Node | None, n_roles: int) -> Edge:
    e = Edge(move, parent, n_roles, child)
    parent.edges.append(e)
    parent.expanded = True
    if child is not None:
        child.parents.append(e)
    return e


def ancestors(node: Node) -> list[Edge]:
    """Every edge from which ``node`` can be reached, each once."""
    seen: dict[int, Edge] = {}
    stack = list(node.parents)
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen[id(e)] = e
        stack.extend(e.parent.parents)
    return list(seen.values())

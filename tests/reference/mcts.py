"""A plain-Python MCTS over an explicit DAG (dag.py): the reference loop for the
papers' identities (UCD without transpositions = UCT, AUCT/DUCT with lambda = 1 = UCT,
incremental = recomputed).  Slow and simple on purpose.

Iteration: from the root, select an edge at each expanded node; an edge followed for
the first time gets its child (DAG mode: the existing node of that position if any);
a new or terminal node ends the descent and a playout is run from it.  The payoff
goes to every edge of the path (or, update-all, every ancestor edge once); the edges
entering the playout node also count it in n', mu', and so does that node (its own
n', mu': UCD's ``prime=node``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tests.reference import auct as auct_ref
from tests.reference import ucb
from tests.reference import ucd as ucd_ref
from tests.reference.dag import Edge, Node, ancestors


class RefGame(Protocol):
    n_roles: int

    def initial(self) -> Any: ...
    def to_move(self, s: Any) -> int: ...  # -2 when terminal
    def legal(self, s: Any) -> list[int]: ...
    def play(self, s: Any, m: int) -> Any: ...
    def key(self, s: Any) -> Hashable: ...
    def rewards(self, s: Any) -> tuple[float, ...]: ...


@dataclass(frozen=True)
class LeftRight:
    """The UCD paper's one-player LEFTRIGHT: score = steps to the left / steps."""

    steps: int = 8
    n_roles: int = 1

    def initial(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, s: tuple[int, int]) -> int:
        return -2 if s[0] == self.steps else 0

    def legal(self, s: tuple[int, int]) -> list[int]:
        return [] if s[0] == self.steps else [0, 1]  # 0 = left, 1 = right

    def play(self, s: tuple[int, int], m: int) -> tuple[int, int]:
        return (s[0] + 1, s[1] + (1 if m == 0 else 0))

    def key(self, s: tuple[int, int]) -> Hashable:
        return s

    def rewards(self, s: tuple[int, int]) -> tuple[float, ...]:
        return (s[1] / self.steps,)


class Policy(Protocol):
    def select(self, node: Node) -> Edge: ...
    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None: ...


def descent_backup(path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
    leaf.add_prime(payoff)
    for e in path:
        e.add(payoff, first=e.child is leaf)


def all_backup(path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
    """Update-all: every ancestor edge of the playout node, each exactly once."""
    leaf.add_prime(payoff)
    for e in ancestors(leaf):
        e.add(payoff, first=e.child is leaf)


@dataclass
class UCTPolicy:
    c: float

    def value(self, e: Edge) -> float:
        if e.n == 0:
            return math.inf
        return ucb.value(e.mean(), e.n, sum(f.n for f in e.siblings()), self.c)

    def select(self, node: Node) -> Edge:
        return ucb.argmax_first(node.edges, self.value)

    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
        descent_backup(path, leaf, payoff)


@dataclass
class UCDPolicy:
    d1: float
    d2: float
    d3: float
    c: float
    backup_mode: str = "descent"  # or "all"
    prime: str = "edge"  # or "node"

    def select(self, node: Node) -> Edge:
        return ucb.argmax_first(
            node.edges,
            lambda e: ucd_ref.value(e, self.d1, self.d2, self.d3, self.c, self.prime),
        )

    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
        (all_backup if self.backup_mode == "all" else descent_backup)(path, leaf, payoff)


@dataclass
class SimpleTTPolicy:
    """The 'simple way' (UCD paper, section 2): statistics in the nodes, keyed by
    position -- N(y) descents reached y, W(y) their payoff sum, L(y) of them started a
    playout at y.  The plain UCT value (eq. 2) of a move is that of the node it leads
    to, mean W/N and count N; a move not yet tried from this node is worth +inf (UCT's
    rule: the graph learns where a move leads when it is first followed).  The parent
    term is ``parent="through"``: eq. (2)'s p, the payoffs the children received
    through this node, N(a) - L(a); or ``parent="children"``: the children's own
    counts summed, sum of N(y) over the moves tried here."""

    c: float
    parent: str = "through"

    def __post_init__(self) -> None:
        self.n: dict[int, int] = {}
        self.total: dict[int, list[float]] = {}
        self.leaf: dict[int, int] = {}

    def select(self, node: Node) -> Edge:
        role = node.to_move
        if self.parent == "through":
            parent_n = self.n.get(id(node), 0) - self.leaf.get(id(node), 0)
        else:
            parent_n = sum(self.n.get(id(e.child), 0) for e in node.edges if e.child)

        def val(e: Edge) -> float:
            k = id(e.child) if e.child is not None else None
            n = self.n.get(k, 0) if k is not None else 0
            if n == 0:
                return math.inf
            return ucb.value(self.total[k][role] / n, n, parent_n, self.c)

        return ucb.argmax_first(node.edges, val)

    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
        descent_backup(path, leaf, payoff)
        self.leaf[id(leaf)] = self.leaf.get(id(leaf), 0) + 1
        nodes = [path[0].parent] if path else [leaf]
        nodes += [e.child for e in path if e.child is not None]
        for x in nodes:
            k = id(x)
            self.n[k] = self.n.get(k, 0) + 1
            tot = self.total.setdefault(k, [0.0] * len(payoff))
            for r, v in enumerate(payoff):
                tot[r] += v


@dataclass
class AUCTPolicy:
    """Accelerated UCT (eq. 5-7) with the virtual child; tree mode."""

    lam: float
    c: float

    def __post_init__(self) -> None:
        self.v: dict[int, float] = {}  # velocity per edge
        self.ratio: dict[int, list[float]] = {}  # accelerated ratio per edge, per role
        self.virtual: dict[int, tuple[float, list[float]]] = {}  # per node

    def r_acc(self, e: Edge) -> list[float]:
        return self.ratio.get(id(e), [e.mean(r) for r in range(e.n_roles)])

    def select(self, node: Node) -> Edge:
        s = sum(f.n for f in node.edges)
        return ucb.argmax_first(
            node.edges,
            lambda e: auct_ref.auct_value(self.r_acc(e)[e.role], s, e.n, self.c),
        )

    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
        descent_backup(path, leaf, payoff)
        for k in range(len(path) - 1, -1, -1):
            e = path[k]
            node = e.parent
            if id(node) not in self.virtual:  # first selection at node: the virtual child
                if k > 0:
                    ie = path[k - 1]
                    roles = range(ie.n_roles)
                    self.virtual[id(node)] = (float(ie.n1), [ie.mean1(r) for r in roles])
                else:
                    self.virtual[id(node)] = (0.0, [0.0] * e.n_roles)
            vel = auct_ref.velocities_after(
                [self.v.get(id(f), 0.0) for f in node.edges], node.edges.index(e), self.lam
            )
            for f, x in zip(node.edges, vel, strict=True):
                self.v[id(f)] = x
            vv, vr = self.virtual[id(node)]
            self.virtual[id(node)] = (vv * self.lam, vr)
            if k > 0:  # eq. (7) for the edge entering node
                vels = [self.v[id(f)] for f in node.edges if f.n > 0] + [vv * self.lam]
                ratios = [self.r_acc(f) for f in node.edges if f.n > 0] + [vr]
                self.ratio[id(path[k - 1])] = [
                    auct_ref.accelerated_ratio([r[role] for r in ratios], vels)
                    for role in range(e.n_roles)
                ]


@dataclass
class DUCTPolicy:
    """Discounted UCT (eq. 2-4), discounting the moves of every visited position."""

    lam: float
    c: float

    def __post_init__(self) -> None:
        self.nd: dict[int, float] = {}
        self.rd: dict[int, float] = {}

    def select(self, node: Node) -> Edge:
        s = sum(self.nd.get(id(f), 0.0) for f in node.edges)
        return ucb.argmax_first(
            node.edges,
            lambda e: auct_ref.duct_value(
                self.rd.get(id(e), 0.0), self.nd.get(id(e), 0.0), s, self.c
            ),
        )

    def backup(self, path: list[Edge], leaf: Node, payoff: Sequence[float]) -> None:
        descent_backup(path, leaf, payoff)
        for e in path:
            edges = e.parent.edges
            n2, r2 = auct_ref.duct_update(
                [self.nd.get(id(f), 0.0) for f in edges],
                [self.rd.get(id(f), 0.0) for f in edges],
                edges.index(e),
                payoff[e.role],
                self.lam,
            )
            for f, a, b in zip(edges, n2, r2, strict=True):
                self.nd[id(f)], self.rd[id(f)] = a, b


class RefSearch:
    """The reference loop; ``dag=False`` ignores transpositions (tree mode)."""

    def __init__(self, game: RefGame, state: Any, policy: Policy, *, dag: bool, seed: int):
        self.game, self.policy, self.dag = game, policy, dag
        self.rng = random.Random(seed)
        self.table: dict[Hashable, Node] = {}
        self.root = self._node(state, ())

    def _node(self, state: Any, history: tuple[int, ...]) -> Node:
        key = self.game.key(state) if self.dag else history
        node = Node(key, self.game.to_move(state))
        if self.dag:
            self.table[key] = node
        return node

    def _expand(self, node: Node, state: Any) -> None:
        from tests.reference.dag import link

        for m in self.game.legal(state):
            link(node, m, None, self.game.n_roles)

    def iterate(self, state0: Any) -> list[Edge]:
        node, state, history, path = self.root, state0, (), []
        while True:
            if node.to_move == -2:
                break
            if not node.expanded:
                self._expand(node, state)
            e = self.policy.select(node)
            path.append(e)
            state = self.game.play(state, e.move)
            history = history + (e.move,)
            if e.child is None:
                child = self.table.get(self.game.key(state)) if self.dag else None
                if child is None:
                    e.child = self._node(state, history)
                    e.child.parents.append(e)
                    node = e.child
                    break
                e.child = child
                child.parents.append(e)
            node = e.child
        while self.game.to_move(state) != -2:
            state = self.game.play(state, self.rng.choice(self.game.legal(state)))
        self.policy.backup(path, node, self.game.rewards(state))
        return path

    def run(self, state0: Any, iterations: int) -> list[list[int]]:
        """Iterations; returns each iteration's descent as move lists."""
        return [[e.move for e in self.iterate(state0)] for _ in range(iterations)]


@dataclass(frozen=True)
class EngineGame:
    """An engine game (engine.games) seen through RefGame; states are copied."""

    game: Any

    @property
    def n_roles(self) -> int:
        return int(self.game.n_roles)

    def initial(self) -> Any:
        return self.game.initial_state()

    def to_move(self, s: Any) -> int:
        return int(s.to_move)

    def legal(self, s: Any) -> list[int]:
        return s.legal_moves()

    def play(self, s: Any, m: int) -> Any:
        return s.copy().play(m)

    def key(self, s: Any) -> Hashable:
        return s.keys()

    def rewards(self, s: Any) -> tuple[float, ...]:
        return s.rewards()

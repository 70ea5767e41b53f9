"""UCD (1, 0, 1) with ``prime=node`` is the simple transposition table (ucd.txt sec. 2
and the special cases of sec. 3.3).

The truth is a plain-Python "simple way" written here: statistics in nodes keyed by the
position (computed from the move history by the test, not by the engine's Zobrist keys):
N(y) descents reached y, W(y) their payoffs, L(y) of them started a playout at y.  A
move's value is the UCT value (eq. 2) of the node it leads to; the parent term is eq.
(2)'s p, the payoffs the children received through the parent, N(a) - L(a), or, with
d2 = 1, the children's own counts summed.  The C search is run one iteration at a time;
each iteration's descent and payoff are read off the C graph (the edges whose n grew)
and fed to the table, and then every edge of every node must have the table's mean,
parent term, count and value to 1e-9, and each move the C search chose must have been
one the table would choose.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import pytest

from engine import games
from engine.search import UCD, Search
from tests.helpers.variant_dump import dump, terms
from tests.reference import dag as rdag
from tests.reference import mcts as rmcts

C = 0.5
Position = Callable[[tuple[int, ...]], Hashable]


def tictactoe_position(history: tuple[int, ...]) -> Hashable:
    """The board: the squares each side took (order forgotten)."""
    return frozenset(history[0::2]), frozenset(history[1::2])


def leftright_position(history: tuple[int, ...]) -> Hashable:
    """(steps, lefts); move 0 is Left (csrc/games/leftright.c)."""
    return len(history), history.count(0)


GAMES = {
    "tictactoe": (lambda: games.create("tictactoe"), tictactoe_position),
    "leftright": (lambda: games.create("leftright", steps=16), leftright_position),
}


@dataclass
class SimpleTable:
    """The simple way: node statistics in a table keyed by position."""

    n_roles: int
    n: dict[Hashable, int] = field(default_factory=dict)
    w: dict[Hashable, list[float]] = field(default_factory=dict)
    leaf: dict[Hashable, int] = field(default_factory=dict)
    tried: dict[Hashable, set[int]] = field(default_factory=dict)

    def descent(self, positions: list[Hashable], moves: list[int], payoff: list[float]) -> None:
        """One iteration: positions[0] is the root, positions[k + 1] = after moves[k]."""
        for pos, m in zip(positions, moves, strict=False):
            self.tried.setdefault(pos, set()).add(m)
        for pos in positions:
            self.n[pos] = self.n.get(pos, 0) + 1
            tot = self.w.setdefault(pos, [0.0] * self.n_roles)
            for r, x in enumerate(payoff):
                tot[r] += x
        self.leaf[positions[-1]] = self.leaf.get(positions[-1], 0) + 1

    def parent(self, a: Hashable, children: dict[int, Hashable], d2: int) -> float:
        if d2 == 0:  # eq. (2): the payoffs a's children received through a
            return float(self.n.get(a, 0) - self.leaf.get(a, 0))
        return float(sum(self.n[children[m]] for m in self.tried.get(a, ())))

    def terms(self, a: Hashable, role: int, m: int, child: Hashable, parent: float):
        """(mean, parent, count, value) of move m at a; +inf for a move not tried."""
        if m not in self.tried.get(a, ()):
            return None
        n = self.n[child]
        mean = self.w[child][role] / n
        value = mean + C * math.sqrt(math.log(parent) / n) if parent > 0 else mean
        return mean, parent, float(n), value


def graph_positions(nodes: list[rdag.Node], root: int, position: Position) -> list[Hashable]:
    """Each C node's position from a move history that reaches it; every edge must
    lead to the position its move makes (transpositions found right)."""
    hist: dict[int, tuple[int, ...]] = {root: ()}
    stack = [root]
    while stack:
        k = stack.pop()
        for e in nodes[k].edges:
            if e.child is None:
                continue
            h = hist[k] + (e.move,)
            if e.child.key not in hist:
                hist[e.child.key] = h
                stack.append(e.child.key)
            assert position(hist[e.child.key]) == position(h), "one node, two positions"
    return [position(hist[k]) if k in hist else None for k in range(len(nodes))]


def last_iteration(before: dict[int, rdag.Edge], after: dict[int, rdag.Edge],
                   nodes: list[rdag.Node], root: int, n_roles: int):
    """The descent of the iteration just run (update-descent: the edges whose n grew,
    root first) and its payoff per role, from the last edge's payoff sum."""
    grown = {id(e) for k, e in after.items() if e.n != (before[k].n if k in before else 0)}
    path: list[rdag.Edge] = []
    node = nodes[root]
    while True:
        step = [e for e in node.edges if id(e) in grown]
        if not step:
            break
        assert len(step) == 1
        path.append(step[0])
        if step[0].child is None:
            break
        node = step[0].child
    assert len(path) == len(grown)
    if not path:
        return path, None
    key = next(k for k, e in after.items() if e is path[-1])
    r = after[key].total[path[-1].role] - (before[key].total[path[-1].role] if key in before
                                           else 0.0)
    payoff = [r] if n_roles == 1 else [r, 1.0 - r] if path[-1].role == 0 else [1.0 - r, r]
    return path, payoff


def run_against_table(game_name: str, backup: str, d2: int, prime: str, iterations: int,
                      seed: int) -> tuple[int, int]:
    """Run C UCD (1, d2, 1) beside the table; returns (terms checked, terms different)."""
    make, position = GAMES[game_name]
    game = make()
    n_roles = game.n_roles
    search = Search(game.initial_state(), UCD(1, d2, 1, c=C, backup=backup, prime=prime),
                    seed=seed, mode="dag")
    table = SimpleTable(n_roles)
    checked = different = 0
    _, before = dump(search, n_roles)
    expected: dict[Hashable, tuple[set[int], bool]] = {}
    for _ in range(iterations):
        search.run(iterations=1)
        nodes, after = dump(search, n_roles)
        root = search.info()["root"]
        pos = graph_positions(nodes, root, position)
        path, payoff = last_iteration(before, after, nodes, root, n_roles)
        # the choices: each among those the table would have made before the iteration
        hist: tuple[int, ...] = ()
        for e in path:
            a = position(hist)
            if a in expected and prime == "node":
                best, untried = expected[a]
                assert e.move in best, (a, e.move, best)
            hist += (e.move,)
        if payoff is None:
            continue
        positions = [position(())]
        hist = ()
        for e in path:
            hist += (e.move,)
            positions.append(position(hist))
        table.descent(positions, [e.move for e in path], payoff)
        # every edge of every node against the table
        expected = {}
        for k, node in enumerate(nodes):
            if not node.edges:
                continue
            a = pos[k]
            children = {e.move: pos[e.child.key] for e in node.edges if e.child is not None}
            parent = table.parent(a, children, d2)
            values: dict[int, float] = {}
            for e, got in zip(node.edges, terms(search, k), strict=True):
                want = table.terms(a, node.to_move, e.move, children.get(e.move), parent)
                values[e.move] = math.inf if want is None else want[3]
                checked += 1
                if want is None:
                    different += not (math.isinf(got[3]) and e.n == 0)
                elif any(abs(x - y) > 1e-9 for x, y in zip(got, want, strict=True)):
                    different += 1
            top = max(values.values())
            best = {m for m, v in values.items() if v >= top - 1e-12}
            expected[a] = (best, math.isinf(top))
        before = after
    # the table's node counts are the C loop's node visits
    nodes, _ = dump(search, n_roles)
    pos = graph_positions(nodes, search.info()["root"], position)
    for k in range(len(nodes)):
        assert search.node(k)["visits"] == table.n.get(pos[k], 0)
    return checked, different


@pytest.mark.parametrize("d2", [0, 1])
@pytest.mark.parametrize("backup", ["descent", "incremental"])
@pytest.mark.parametrize("game_name", ["tictactoe", "leftright"])
def test_ucd_101_prime_node_is_the_simple_transposition_table(game_name, backup, d2):
    """(1, 0, 1) with prime=node: every edge's mu_1, p_0, n_1 and value are those of the
    simple way, after every iteration; (1, 1, 1) the same with the parent term summed
    over the children's counts."""
    checked, different = run_against_table(game_name, backup, d2, "node", 250, seed=17)
    assert checked > 2000
    assert different == 0


@pytest.mark.parametrize("game_name", ["tictactoe", "leftright"])
def test_ucd_101_prime_edge_is_not_the_simple_way(game_name):
    """The comparison can fail: with n' per edge (the default), an edge into a node
    reached through another in-edge first lacks that edge's pre-expansion payoffs."""
    checked, different = run_against_table(game_name, "incremental", 0, "edge", 250, seed=17)
    assert checked > 2000 and different > 0


# -- the plain-Python references: UCD's recursion with prime=node is the simple way -------


@pytest.mark.parametrize(
    "game", [rmcts.LeftRight(8), rmcts.EngineGame(games.create("tictactoe"))],
    ids=["leftright", "tictactoe"],
)
@pytest.mark.parametrize(("depths", "parent"), [((1, 0, 1), "through"), ((1, 1, 1), "children")])
def test_reference_ucd_prime_node_plays_the_simple_way_move_for_move(game, depths, parent):
    """The reference loop with the reference recursion (tests/reference/ucd.py,
    prime="node") and the reference simple-way policy make the same descents under one
    seed; with prime="edge" they part (the identity is not vacuous)."""
    def run(policy: rmcts.Policy) -> list[list[int]]:
        search = rmcts.RefSearch(game, game.initial(), policy, dag=True, seed=3)
        return search.run(game.initial(), 300)

    simple = run(rmcts.SimpleTTPolicy(0.3, parent=parent))
    assert run(rmcts.UCDPolicy(*depths, c=0.3, prime="node")) == simple
    assert run(rmcts.UCDPolicy(*depths, c=0.3, prime="edge")) != simple


def test_reference_node_prime_is_the_playouts_started_at_the_node():
    """n'(y) of the reference loop counts each playout from y once, whichever in-edge
    (update-descent) or however many in-edges (update-all) it was recorded on."""
    game = rmcts.LeftRight(6)
    for mode in ("descent", "all"):
        search = rmcts.RefSearch(game, game.initial(), rmcts.UCDPolicy(1, 0, 1, 0.3, mode, "node"),
                                 dag=True, seed=5)
        leaves: dict[int, int] = {}
        for _ in range(200):
            path = search.iterate(game.initial())
            leaf = path[-1].child if path else search.root
            assert leaf is not None
            leaves[id(leaf)] = leaves.get(id(leaf), 0) + 1
        nodes: dict[int, rdag.Node] = {}
        stack = [search.root]
        while stack:
            x = stack.pop()
            for e in x.edges:
                if e.child is not None and id(e.child) not in nodes:
                    nodes[id(e.child)] = e.child
                    stack.append(e.child)
        assert {k: y.n1 for k, y in nodes.items() if y.n1} == leaves
        # some playout node has several in-edges: n'(y) is not any one edge's n'
        assert any(y.n1 != sum(e.n1 for e in y.parents) for y in nodes.values()) == (
            mode == "all")
        assert any(y.n1 > max(e.n1 for e in y.parents) for y in nodes.values()) == (
            mode == "descent")

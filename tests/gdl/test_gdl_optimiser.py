"""The propnet optimiser's rewrites against truth tables: every gate of a random
acyclic net keeps its value, for every assignment of the leaves, after factoring
(``_factor``) and nesting (``_nest``); and the rewrites do what they are for on the
``greater`` idiom (links linear in the number of cells, not quadratic)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.gdl.checks import load_program
from engine.gdl.ground import ground
from engine.gdl.propnet import AND, BASE, FALSE, NOT, OR, TRUE, _factor, _nest, _Net, build

LEAVES = 6


def _evaluate(net: _Net, leaves: tuple[int, ...], rep: list[int] | None = None) -> list[int]:
    """Every node's value by plain recursion (the net is acyclic)."""
    value: dict[int, int] = {}

    def val(n: int) -> int:
        if rep is not None:
            while rep[n] != n:
                n = rep[n]
        if n in value:
            return value[n]
        k = net.kind[n]
        if k == FALSE:
            v = 0
        elif k == TRUE:
            v = 1
        elif k == BASE:
            v = leaves[net.arg[n]]
        elif k == NOT:
            v = 1 - val(net.ins[n][0])
        elif k == AND:
            v = int(all(val(i) for i in net.ins[n]))
        else:
            v = int(any(val(i) for i in net.ins[n]))
        value[n] = v
        return v

    return [val(n) for n in range(len(net.kind))]


def _random_net(rng: random.Random) -> tuple[_Net, list[int]]:
    """Leaves, a layer of random ANDs and ORs over them, and atoms: ORs of ANDs of
    leaves and layer gates (the shape grounding makes: an OR of rule bodies)."""
    net = _Net()
    net.add(FALSE)
    net.add(TRUE)
    nodes = [net.add(BASE, arg=i) for i in range(LEAVES)]
    nodes += [net.add(NOT, [nodes[i]]) for i in range(2)]
    for _ in range(rng.randint(2, 6)):
        nodes.append(net.add(rng.choice((AND, OR)), rng.sample(nodes, rng.randint(2, 4))))
    atoms = []
    for _ in range(rng.randint(2, 5)):
        # a rule whose body is all static literals is an AND of nothing (true); some
        # atoms have only such rules (issue 25: _factor once failed on them)
        only_static = rng.random() < 0.15
        sizes = [0 if only_static or rng.random() < 0.1 else rng.randint(1, 4)
                 for _ in range(rng.randint(2, 8))]
        rules = [net.add(AND, rng.sample(nodes, k)) for k in sizes]
        atoms.append(net.add(OR, rules))
    return net, atoms


def _tables(net: _Net, n_nodes: int, rep: list[int] | None = None) -> list[list[int]]:
    return [_evaluate(net, leaves, rep)[:n_nodes]
            for leaves in itertools.product((0, 1), repeat=LEAVES)]


@pytest.mark.parametrize("seed", range(200))
def test_factoring_keeps_every_value(seed: int) -> None:
    rng = random.Random(seed)
    net, atoms = _random_net(rng)
    n = len(net.kind)
    before = _tables(net, n)
    deep = rng.choice((2, 3, 16))
    for a in atoms:
        _factor(net, a, 1, deep)
    assert _tables(net, n) == before


@pytest.mark.parametrize("seed", range(200))
def test_nesting_keeps_every_value(seed: int) -> None:
    rng = random.Random(seed)
    net, _ = _random_net(rng)
    # and sets that nest: prefixes of one random order of the nodes
    order = rng.sample(range(2, len(net.kind)), min(10, len(net.kind) - 2))
    for size in rng.sample(range(2, len(order) + 1), rng.randint(1, len(order) - 1)):
        net.add(OR, order[:size])
    n = len(net.kind)
    before = _tables(net, n)
    rep = list(range(n))
    _nest(net, rep)
    assert _tables(net, n) == before


GREATER = """
(role chooser)
(<= (legal chooser (pick ?n)) (true (possible ?n)))
(<= (next (possible ?n)) (true (possible ?n)) (not (does chooser (pick ?n))))
(<= (next (picked ?n)) (does chooser (pick ?n)))
(<= some_below (true (picked ?x)) (true (possible ?n)) (greater ?x ?n))
(<= two_left (true (possible ?x)) (true (possible ?y)) (distinct ?x ?y))
(<= terminal (not two_left))
(<= (goal chooser 100) some_below)
(<= (goal chooser 0) (not some_below))
(<= (greater ?x ?y) (succ ?y ?x))
(<= (greater ?x ?y) (succ ?z ?x) (greater ?z ?y))
"""


def _sheet(cells: int) -> str:
    facts = [f"(init (possible {i}))" for i in range(cells)]
    facts += [f"(succ {i} {i + 1})" for i in range(cells - 1)]
    return GREATER + "\n".join(facts)


def test_the_greater_idiom_gets_links_linear_in_the_cells() -> None:
    """``(true (picked ?x)) (true (possible ?n)) (greater ?x ?n)`` grounds into cells^2/2
    rules and ``(distinct ?x ?y)`` over one relation into cells^2; factored (an AND per
    x of an OR of the cells below it) and nested (each such OR reads the next smaller
    one), the net's links grow linearly."""
    edges = {}
    for cells in (10, 20, 40):
        net = build(ground(load_program(_sheet(cells))))
        edges[cells] = len(net.inputs)
    assert edges[40] < 2.5 * edges[20] < 6.25 * edges[10]
    assert edges[40] < 40 * 40 / 2  # fewer than the ground rules of greater alone

"""RAVE (csrc/search/rave.c) against the plain-Python reference tests/reference/rave.py:
every edge's AMAF statistics after each iteration (the C search reports the sequence
its update used), the eq. 8 selection value, priors as virtual AMAF visits."""

from __future__ import annotations

import os

import pytest

from engine import games
from engine.core import ffi, lib
from engine.errors import InvalidArgumentError
from engine.search import RAVE, Search, algorithm_from_spec
from engine.search.rave import last_sequence
from tests.reference import rave as ref

FULL = os.environ.get("MIAI_FULL") == "1"
ITERATIONS = 1500 if FULL else 250


def walk(search: Search) -> dict[tuple[int, ...], list]:
    """Tree mode: the edges of every node by the move sequence that leads to it."""
    out: dict[tuple[int, ...], list] = {}
    todo = [((), search.info()["root"])]
    while todo:
        prefix, node = todo.pop()
        edges = search.node_edges(node)
        out[prefix] = edges
        for e in edges:
            if e.child is not None:
                todo.append(((*prefix, e.move), e.child))
    return out


@pytest.mark.parametrize(("spec", "prior"), [("go:size=5,komi=3", 0.0),
                                             ("go:size=5,komi=3,policy=7", 4.0),
                                             ("tictactoe", 2.0)])
def test_amaf_statistics_match_the_reference(spec: str, prior: float) -> None:
    game = games.create_from_spec(spec)
    st = game.initial_state()
    alg = RAVE(prior=prior, knowledge=False, c=0.3)
    search = Search(st, alg, mode="tree", seed=5)
    expect: dict[tuple[int, ...], dict[int, list[float]]] = {}
    done = ffi.new("uint64_t *")
    for _ in range(ITERATIONS):
        lib.miai_search_run(search._ptr, 1, 0.0, done)
        if done[0] == 0:
            break
        seq = last_sequence(search, game.max_plies)
        for k in range(seq.tree_len):
            node = expect.setdefault(tuple(seq.moves[:k]), {})
            reward = seq.rewards[seq.roles[k]]
            for m in ref.amaf_moves(seq.moves, seq.roles, k):
                stats = node.setdefault(m, [0.0, 0.0])
                stats[0] += 1
                stats[1] += reward
    tree = walk(search)
    assert len(tree) > 20
    for prefix, edges in tree.items():
        for e in edges:
            n, total = expect.get(prefix, {}).get(e.move, [0.0, 0.0])
            assert e.alg_b == pytest.approx(prior + n), (prefix, e.move)
            assert e.alg_a == pytest.approx(prior * 0.5 + total), (prefix, e.move)


def test_selection_is_eq8() -> None:
    game = games.create("go", size=5, komi=3)
    alg = RAVE(w_init=0.9, w_final=200.0, prior=1.0, knowledge=False, c=0.2, fpu=1.0)
    search = Search(game.initial_state(), alg, seed=3)
    for _ in range(6):
        search.run(iterations=97)
        edges = search.root_edges()
        parent = sum(e.visits for e in edges)
        values = [ref.rave_value(e.visits, e.sum, e.alg_b, e.alg_a, w_init=0.9,
                                 w_final=200.0, fpu=1.0, c=0.2, parent=parent) for e in edges]
        chosen = search.select_root()
        assert values[chosen] == pytest.approx(max(values), abs=1e-12)


def test_parameters_are_validated() -> None:
    for bad in ({"w_init": 0.0}, {"w_final": -1.0}, {"prior": -1.0}, {"fpu": float("nan")}):
        with pytest.raises(InvalidArgumentError):
            RAVE(**bad)
    assert algorithm_from_spec("rave", {"prior": "5", "knowledge": "0"}) == RAVE(
        prior=5.0, knowledge=False)
    cfg = ffi.new("miai_search_config *")
    RAVE().configure(cfg)
    cfg.params[0] = -1.0
    cfg.max_nodes = 10
    out = ffi.new("miai_search **")
    st = games.create("go", size=5).initial_state()
    assert lib.miai_search_create(st.game.ptr, st.ptr, cfg, out) == lib.MIAI_EINVAL


def test_last_sequence_refuses_other_policies() -> None:
    from engine.search import UCT

    st = games.create("tictactoe").initial_state()
    search = Search(st, UCT(), iterations=5)
    search.run()
    with pytest.raises(InvalidArgumentError):
        last_sequence(search, 9)

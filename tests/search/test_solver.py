"""MCTS-Solver (uct-star.txt 5.2.3) with every algorithm: the proofs it backs up the
graph agree with a plain minimax of the position, and a proven root ends the search."""

from __future__ import annotations

import zlib

import pytest

from engine import games
from engine.search import Search, algorithm_from_spec
from tests.helpers.solver_truth import (
    LOSS,
    WIN,
    child_values,
    endgames,
    minimax,
    proofs_checked_against_minimax,
)
from tests.helpers.variant_dump import edge_records

SPECS = [
    ("uct", {"solver": "1"}),
    ("ucd", {"d1": "inf", "d2": "inf", "d3": "inf", "solver": "1"}),
    ("ucd", {"d1": "1", "d2": "0", "d3": "1", "backup": "descent", "solver": "1"}),
    ("ucd", {"backup": "all", "solver": "1"}),
    ("auct", {"k": "2", "solver": "1"}),
    ("duct", {"k": "2", "solver": "1"}),
    ("uctstar", {"p": "0.3", "s": "50", "solver": "1"}),
    ("mctsstar", {"p": "0.5", "s": "20", "solver": "1"}),
]
@pytest.mark.parametrize("name,params", SPECS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SPECS)])
def test_proofs_agree_with_minimax(name, params):
    algo = algorithm_from_spec(name, params)
    proven_roots = 0
    for state in endgames(6, seed=zlib.crc32(name.encode()) & 0xFF):
        truth = minimax(state)
        moves = child_values(state)
        search = Search(state, algo, seed=3, iterations=30000)
        result = search.run()
        root = result.extra["solver"]["root"]
        if root == "win":
            assert truth == 1.0 and moves[result.best_move] == 1.0
        elif root == "loss":
            assert truth == 0.0
        else:  # unproven: a draw, the budget ran out, or UCT*/MCTS* pruning stopped it
            pruned_out = result.extra.get(name, {}).get("stopped_early", False)
            assert truth == 0.5 or result.iterations == 30000 or pruned_out
        proven_roots += root != "open"
        if root != "open":
            assert result.iterations < 30000  # a proven root ends the search
        for rec in edge_records(search, search.info()["root"]):
            if rec.flags & WIN:
                assert moves[rec.move] == 1.0
            if rec.flags & LOSS:
                assert moves[rec.move] == 0.0
    assert proven_roots >= 2


def test_deeper_proofs_agree_with_minimax_everywhere():
    """Every proof anywhere in the graph (not only at the root) is a minimax truth."""
    game = games.create("tictactoe")
    state = game.initial_state().play_all(["a1", "b2"])
    search = Search(state, algorithm_from_spec("uct", {"solver": "1"}), seed=1)
    search.run(iterations=20000)
    assert proofs_checked_against_minimax(search, state) > 20


def test_one_player_proof():
    state = games.create("leftright", steps=6).initial_state()
    result = Search(state, algorithm_from_spec("ucd", {"solver": "1"}), seed=1,
                    iterations=5000).run()
    assert result.extra["solver"]["root"] == "win"
    assert child_values(state)[result.best_move] == 1.0  # all the way left
    assert result.iterations < 5000


@pytest.mark.parametrize("spec", ["uct:solver=1", "ucd:d1=inf,d2=inf,d3=inf,solver=1",
                                  "auct:k=3,solver=1"])
def test_connect4_endgames_agree_with_minimax(spec):
    """Connect Four positions with 8-10 empty squares: every proof the solver reaches
    at the root agrees with a plain minimax, and it proves some of them."""
    name, _, rest = spec.partition(":")
    params = dict(kv.split("=") for kv in rest.split(","))
    proven = 0
    for state in endgames(4, seed=11, name="connect4", plies=(32, 35)):
        truth = minimax(state)
        moves = child_values(state)
        result = Search(state, algorithm_from_spec(name, params), seed=2,
                        iterations=20000).run()
        root = result.extra["solver"]["root"]
        if root == "win":
            assert truth == 1.0 and moves[result.best_move] == 1.0
        elif root == "loss":
            assert truth == 0.0
        proven += root != "open"
    assert proven >= 2

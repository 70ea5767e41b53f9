"""Huang et al.'s pruning conditions (pruning-in-uct.txt) on UCT: the product's
formulas against tests/reference/auer.py, the absolute condition's consistency with
plain UCT, and the relative condition's decisions against the reference."""

from __future__ import annotations

import random

import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.search import UCT, PrunedUCT, Search, algorithm_from_spec, pruning
from tests.reference import auer as rauer


def test_formulas_match_the_reference():
    rng = random.Random(1)
    for _ in range(500):
        k = rng.randrange(2, 9)
        visits = [rng.randrange(0, 500) for _ in range(k)]
        means = [rng.random() for _ in range(k)]
        alpha, n = rng.random(), float(rng.randrange(2, 100000))
        assert pruning.relative_prunable(visits, means, alpha, n) == rauer.relative_prunable(
            visits, means, alpha, n
        )
        total = sum(visits) + rng.randrange(0, 1000)
        assert pruning.absolute_prunable(visits, total) == rauer.absolute_prunable(visits, total)
        mu, mi = rng.random(), rng.random()
        assert pruning.auer_upper_visits(mu, mi, n) == pytest.approx(
            rauer.upper_visits(mu, mi, n)
        )
        assert pruning.optimistic_rate(mu, alpha) == pytest.approx(rauer.optimistic_rate(mu, alpha))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_absolute_condition_stops_early_with_uct_s_answer(seed):
    """Once v_j > V/2 the most visited move cannot change: the pruned search stops
    early and answers what plain UCT answers after the whole budget."""
    state = games.create("tictactoe").initial_state().play_all(["b2"])
    budget = 6000
    full = Search(state, UCT(c=0.7), seed=seed, iterations=budget).run()
    algo = PrunedUCT(c=0.7, prune="absolute", every=250)
    result = Search(state, algo, seed=seed, iterations=budget).run()
    report = result.extra["pruning"]
    assert report["stopped_early"] and result.iterations < budget
    assert report["iterations_saved"] == budget - result.iterations > 0
    assert result.best_move == full.best_move
    assert [m.move for m in result.moves if not m.pruned] == [full.best_move]


def test_relative_condition_prunes_what_the_reference_prunes():
    state = games.create("tictactoe").initial_state()
    budget, every, alpha = 12000, 500, 0.8
    algo = PrunedUCT(c=0.7, prune="relative", alpha=alpha, every=every)
    result = Search(state, algo, seed=5, iterations=budget).run()
    log = result.extra["pruning"]["pruned"]
    assert log, "the relative condition pruned nothing: the test would be vacuous"
    first = min(d["iteration"] for d in log)
    plain = Search(state, UCT(c=0.7), seed=5)
    plain.run(iterations=first)  # identical to the pruned search until its first pruning
    edges = plain.root_edges()
    want = rauer.relative_prunable([e.visits for e in edges], [e.mean for e in edges], alpha,
                                   float(budget))
    game = state.game
    assert {d["move"] for d in log if d["iteration"] == first} == {
        game.move_to_text(edges[i].move, 0) for i in want
    }
    assert result.best_move not in {m.move for m in result.moves if m.pruned}


def test_specs():
    a = algorithm_from_spec("uct", {"prune": "relative", "alpha": "0.8"})
    assert isinstance(a, PrunedUCT) and a.alpha == 0.8 and a.batch_iterations == 1000
    plain = algorithm_from_spec("uct", {"c": "0.5"})
    assert plain.prune == "none" and plain.batch_iterations is None
    for bad in ({"prune": "territorial"}, {"alpha": "2"}, {"every": "0"}):
        with pytest.raises(InvalidArgumentError):
            algorithm_from_spec("uct", bad)


def test_absolute_without_an_iteration_budget_never_prunes():
    state = games.create("tictactoe").initial_state()
    result = Search(state, PrunedUCT(prune="absolute", every=100), seed=1).run(seconds=0.2)
    assert not result.extra["pruning"]["pruned"]

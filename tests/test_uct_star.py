"""UCT* and MCTS* (uct-star.txt): pruning decisions against the intervals of
tests/reference/uct_star.py, the identity with UCT, early termination and reports."""

from __future__ import annotations

import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.search import UCT, MCTSStar, Search, UCTStar, algorithm_from_spec
from engine.search.uct_star import prune_root_now
from tests.reference import uct_star as rstar
from tests.variant_dump import edge_records, root_stats

INTERVALS = {"eq5": rstar.interval_eq5, "eq7": rstar.interval_eq7}


def ttt() -> games.Game:
    return games.create("tictactoe")


def reference_prunable(search: Search, p: float, form: str) -> set[int]:
    recs = edge_records(search, search.info()["root"])
    big_n = sum(r.n for r in recs)
    live = [i for i, r in enumerate(recs) if not r.flags & 1]
    ivs = [INTERVALS[form](r.sum, r.n, big_n, p) if r.n else None for r in (recs[i] for i in live)]
    return {live[k] for k in rstar.prunable(ivs)}


def pruned(search: Search) -> set[int]:
    return {e.index for e in search.root_edges() if e.pruned}


@pytest.mark.parametrize("form", ["eq5", "eq7"])
@pytest.mark.parametrize("p", [0.05, 0.2, 0.5])
def test_root_pruning_equals_the_reference_rule(p, form):
    """Between batches the C rule prunes exactly the root moves whose upper bound is
    below the best lower bound (eq. 5 or eq. 7), and nothing else."""
    search_star = Search(ttt().initial_state(), UCTStar(c=0.7, p=p, s=10 ** 9, form=form),
                         seed=3)
    seen_pruning = False
    for _ in range(8):
        search_star.run(iterations=60)
        want = reference_prunable(search_star, p, form) | pruned(search_star)
        prune_root_now(search_star)
        assert pruned(search_star) == want
        seen_pruning |= bool(want)
    assert seen_pruning or p >= 0.2  # the smallest rate does prune: the check is not vacuous


@pytest.mark.parametrize("form", ["eq5", "eq7"])
@pytest.mark.parametrize("variant", ["step", "root"])
def test_c_pruning_follows_the_rule(form, variant):
    """The step variant prunes in C at every level of the descent, the root variant
    at the root only; every pruning happened when the root visit count was s - 1
    (mod s) and hit a visited edge."""
    search = Search(ttt().initial_state(), UCTStar(c=0.7, p=0.1, s=25, variant=variant,
                                                    form=form), seed=4)
    search.run(iterations=1500)
    count = 0
    root = search.info()["root"]
    for k in range(search.info()["nodes"]):
        for rec in edge_records(search, k):
            if rec.flags & 1:
                count += 1
                assert rec.n > 0 and int(rec.alg_a) % 25 == 24
                assert variant == "step" or k == root
    assert count > 0


def test_p_equal_c_and_step_beyond_the_budget_is_uct():
    state = ttt().initial_state()
    for variant in ("step", "root"):
        uct = Search(state, UCT(c=0.6), seed=12, iterations=1500)
        star = Search(state, UCTStar(c=0.6, p=0.6, s=10 ** 6, variant=variant), seed=12,
                      iterations=1500)
        a, b = uct.run(), star.run()
        assert root_stats(uct) == root_stats(star) and (a.best_move, a.pv) == (b.best_move, b.pv)
        assert b.extra["uctstar"]["pruned"] == [] and not b.extra["uctstar"]["stopped_early"]


@pytest.mark.parametrize("variant,driver", [("root", "c"), ("root", "python"), ("step", "c"),
                                            ("rate", "c")])
def test_early_termination_reports_the_saving(variant, driver):
    state = ttt().initial_state().play_all(["a1", "b2", "c3"])
    algo = UCTStar(c=0.7, p=0.05, s=20, variant=variant, driver=driver)
    search = Search(state, algo, seed=1, iterations=20000)
    result = search.run()
    report = result.extra["uctstar"]
    assert report["stopped_early"] and result.iterations < 20000
    assert report["iterations_saved"] == 20000 - result.iterations
    live = [m for m in result.moves if not m.pruned]
    assert len(live) == 1 and live[0].move == result.best_move
    assert {d["move"] for d in report["pruned"]} == {m.text for m in result.moves if m.pruned}


def test_mcts_star_selects_at_random():
    """No pruning (huge p): MCTS*'s random selection spreads the root visits evenly."""
    search = Search(ttt().initial_state(), MCTSStar(p=50.0, s=10), seed=2, iterations=4500)
    result = search.run()
    visits = [m.visits for m in result.moves]
    assert max(visits) < 1.25 * min(visits)


def test_mcts_star_prunes_and_stops():
    state = ttt().initial_state().play_all(["a1", "b2", "c3"])
    result = Search(state, MCTSStar(p=0.05, s=10), seed=2, iterations=50000).run()
    assert result.extra["mctsstar"]["stopped_early"]


def test_presets_and_specs():
    basic = algorithm_from_spec("uctstar", {"variant": "basic", "c": "0.5"})
    assert (basic.p, basic.s) == (0.5, 1)
    rate = algorithm_from_spec("uctstar", {"variant": "rate", "p": "0.25", "s": "50"})
    assert (rate.p, rate.s) == (0.25, 1)
    root = algorithm_from_spec("uctstar", {"p": "0.5", "s": "100", "variant": "root"})
    assert root.root_only and root.batch_iterations is None and root.levels == 2.0
    python = algorithm_from_spec("uctstar", {"s": "100", "driver": "python"})
    assert python.batch_iterations == 100 and python.levels == 0.0
    star = algorithm_from_spec("mctsstar", {"p": "0.3", "s": "10", "form": "eq7"})
    assert star.form == "eq7" and star.batch_iterations is None
    for bad in ({"variant": "x"}, {"s": "0"}, {"p": "-1"}, {"form": "eq9"}, {"driver": "go"}):
        with pytest.raises(InvalidArgumentError):
            algorithm_from_spec("uctstar", bad)


@pytest.mark.parametrize("form", ["eq5", "eq7"])
def test_reported_root_intervals_match_the_reference(form: str) -> None:
    """The intervals the report (and GTP's miai-intervals) shows are eq. 5 / eq. 7 of
    the root edges' statistics, as the plain-Python reference computes them."""
    state = games.create("connect4").initial_state()
    search = Search(state, UCTStar(p=0.5, s=10_000, form=form), iterations=2000, seed=4)
    result = search.run()
    shown = result.extra["intervals"]
    edges = search.root_edges()
    big_n = sum(e.visits for e in edges)
    ref = rstar.interval_eq5 if form == "eq5" else rstar.interval_eq7
    assert set(shown) == {e.move for e in edges}
    for e in edges:
        assert e.visits > 0
        lo, hi = ref(e.sum, e.visits, big_n, 0.5)
        assert shown[e.move] == pytest.approx((lo, hi), abs=1e-9)

"""UCT* and MCTS* (uct-star.txt): pruning decisions against the intervals of
tests/reference/uct_star.py, the identity with UCT, early termination and reports."""

from __future__ import annotations

import math

import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.search import UCT, MCTSStar, Search, UCTStar, algorithm_from_spec
from engine.search.uct_star import prune_root_now
from tests.helpers.variant_dump import EdgeRecord, edge_records, root_stats, terms
from tests.reference import uct_star as rstar

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


# -- eq. (6) selection, the terms API, and pruning at every level, step by step --------


def snapshot(search: Search) -> dict[int, list[EdgeRecord]]:
    return {k: edge_records(search, k) for k in range(search.info()["nodes"])}


def visits(search: Search) -> dict[int, int]:
    return {k: search.node(k)["visits"] for k in range(search.info()["nodes"])}


def one_iteration(search: Search) -> tuple[dict[int, list[EdgeRecord]], dict[int, int], int,
                                           dict[int, list[EdgeRecord]], list[int]]:
    """(edges before, visits before, root visits before, edges after, the nodes where
    the iteration selected: their visits grew and they have edges now) of one iteration
    of a tree-mode search."""
    before, seen = snapshot(search), visits(search)
    root_n = search.node(search.info()["root"])["visits"]
    search.run(iterations=1)
    after = snapshot(search)
    grown = visits(search)
    selected = [k for k, recs in after.items() if recs and grown[k] > seen.get(k, 0)]
    return before, seen, root_n, after, selected


def chosen_edge(old: list[EdgeRecord], new: list[EdgeRecord]) -> int:
    grew = [i for i, r in enumerate(new) if r.n > (old[i].n if old else 0)]
    assert len(grew) == 1  # tree mode: one edge per node of the path
    return grew[0]


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_eq7_form_selects_by_eq6(game: str) -> None:
    """form=eq7 (pruning off): at every node of every descent the C selection takes an
    unvisited edge if there is one, else an arg-max of eq. (6) w/n + sqrt(c ln N / n)
    computed here; and that differs from eq. (1) (the test is not vacuous)."""
    c = 0.7
    search = Search(games.create(game).initial_state(),
                    UCTStar(c=c, p=c, s=10 ** 9, form="eq7"), seed=5, mode="tree")
    checked = differs = 0
    for _ in range(400):
        before, _, _, after, selected = one_iteration(search)
        for k in selected:
            old = before.get(k, [])
            i = chosen_edge(old, after[k])
            if not old or any(r.n == 0 for r in old):
                assert not old or old[i].n == 0
                continue
            big_n = sum(r.n for r in old)
            v6 = [rstar.value_eq6(r.sum, r.n, big_n, c) for r in old]
            v1 = [rstar.value_eq1(r.sum, r.n, big_n, c) for r in old]
            assert v6[i] >= max(v6) - 1e-12
            differs += v1[i] < max(v1) - 1e-12
            checked += 1
    assert checked > 300 and differs > 0


@pytest.mark.parametrize("form", ["eq5", "eq7"])
def test_terms_equal_the_reference_values(form: str) -> None:
    """miai_variant_edge_terms for UCT*: (mean, N, n, value) of every edge of every
    node, value by eq. (1) or eq. (6) as the plain-Python reference computes it."""
    c = 0.6
    search = Search(games.create("connect4").initial_state(),
                    UCTStar(c=c, p=0.2, s=50, variant="step", form=form), seed=2,
                    iterations=3000)
    search.run()
    value = rstar.value_eq6 if form == "eq7" else rstar.value_eq1
    checked = 0
    for k, recs in snapshot(search).items():
        if not recs or search.node(k)["to_move"] < 0:
            continue
        big_n = sum(r.n for r in recs)
        for r, (mean, parent, n, v) in zip(recs, terms(search, k), strict=True):
            assert (parent, n) == (big_n, r.n)
            assert mean == (r.sum / r.n if r.n else 0.0)
            want = value(r.sum, r.n, big_n, c)
            assert v == want if math.isinf(want) else v == pytest.approx(want, abs=1e-12)
            checked += r.n > 0
    assert checked > 500


def check_pruning_steps(search: Search, p: float, form: str, step: int,
                        iterations: int) -> int:
    """Iteration by iteration: when the root's visit count was step - 1 (mod step) the
    nodes the descent selected at pruned exactly the edges the reference rule names
    (upper bound below the best lower bound of the visited, unpruned edges, from the
    statistics before the iteration), recording that root count; otherwise, and at
    every other node, nothing was pruned.  Returns the prunings seen below the root."""
    deep = 0
    for _ in range(iterations):
        before, _, root_n, after, selected = one_iteration(search)
        root = search.info()["root"]
        for k, recs in after.items():
            old = before.get(k, [])
            was = {i for i, r in enumerate(old) if r.flags & 1}
            newly = {i for i, r in enumerate(recs) if r.flags & 1} - was
            if k not in selected or root_n % step != step - 1:
                assert not newly, (k, root_n)
                continue
            big_n = sum(r.n for r in old)
            live = [i for i in range(len(old)) if i not in was]
            ivs = [INTERVALS[form](old[i].sum, old[i].n, big_n, p) if old[i].n else None
                   for i in live]
            want = {live[j] for j in rstar.prunable(ivs)}
            assert newly == want, (k, root_n)
            assert all(recs[i].alg_a == root_n for i in newly)
            deep += len(newly) if k != root else 0
    return deep


@pytest.mark.parametrize("form", ["eq5", "eq7"])
def test_step_variant_prunes_by_the_rule_at_every_level(form: str) -> None:
    p = 0.15 if form == "eq5" else 0.03
    search = Search(games.create("tictactoe").initial_state(),
                    UCTStar(c=0.7, p=p, s=7, variant="step", form=form), seed=6, mode="tree")
    assert check_pruning_steps(search, p, form, 7, 700) > 0


@pytest.mark.parametrize("form", ["eq5", "eq7"])
def test_mcts_star_prunes_by_the_rule_at_every_level(form: str) -> None:
    p = 0.15 if form == "eq5" else 0.03
    search = Search(games.create("tictactoe").initial_state(),
                    MCTSStar(p=p, s=5, form=form), seed=8, mode="tree")
    assert check_pruning_steps(search, p, form, 5, 700) > 0


def test_basic_preset_prunes_every_iteration_at_every_level() -> None:
    """variant=basic (Alg. 4): p = c, s = 1 -- every iteration, every node of the
    descent applies the rule before selecting."""
    algo = UCTStar(c=0.5, variant="basic")
    assert (algo.p, algo.s, algo.levels) == (0.5, 1, 1.0)
    search = Search(games.create("tictactoe").initial_state(), algo, seed=3, mode="tree")
    assert check_pruning_steps(search, 0.5, "eq5", 1, 500) > 0

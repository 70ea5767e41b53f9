"""Accelerated and Discounted UCT (accelerated-uct.txt): the C policies replayed
iteration by iteration against tests/reference/auct.py, the paper's identities
(lambda = 1 is plain UCT) and its Figure 2 virtual-child example."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.search import AUCT, DUCT, UCT, Search, algorithm_from_spec
from tests.helpers.auct import ACC_FLAG, Replay, stored_velocity_ok
from tests.helpers.variant_dump import edge_records, random_walk_state, root_stats, terms
from tests.reference import auct as rauct
from tests.reference import mcts as rmcts


def f32(x: float) -> float:
    """The C policies keep velocities and discounted counts as floats."""
    return float(np.float32(x))


def test_figure2_virtual_child():
    """Fig. 2: three playouts at a (ratio 2/3) before expansion, then a win at d and a
    loss at e.  With lambda = 1 the virtual child a' makes r_{r->a} = 3/5 as in UCT."""
    v = rauct.velocities_after(rauct.velocities_after([0.0, 0.0], 0, 1.0), 1, 1.0)
    assert v == [1.0, 1.0]
    r = rauct.accelerated_ratio([2 / 3, 1.0, 0.0], [3.0 * 1.0**2, *v])
    assert r == pytest.approx(3 / 5, abs=1e-12)
    lam = 0.5  # the virtual child's velocity only decays: 3 * 0.5^2 after two choices
    v = rauct.velocities_after(rauct.velocities_after([0.0, 0.0], 0, lam), 1, lam)
    assert v == [0.5, 1.0]
    r = rauct.accelerated_ratio([2 / 3, 1.0, 0.0], [3 * lam**2, *v])
    assert r == pytest.approx((0.75 * 2 / 3 + 0.5) / 2.25, abs=1e-12)
    # without the virtual child the pre-expansion result would be lost
    assert rauct.accelerated_ratio([1.0, 0.0], [1.0, 1.0]) == 0.5


def test_lambda_from_k():
    assert rauct.lam_from_k(3) == pytest.approx(0.999)
    assert AUCT(k=3).decay == pytest.approx(0.999) and DUCT(k=1).decay == pytest.approx(0.9)
    assert algorithm_from_spec("auct", {"lambda": "0.95"}).decay == 0.95
    for bad in ({"k": "3", "lambda": "0.9"}, {"lambda": "0"}, {"lambda": "1.5"}, {"k": "x"}):
        with pytest.raises(InvalidArgumentError):
            algorithm_from_spec("auct", bad)


@pytest.mark.parametrize("policy", ["auct", "duct"])
def test_reference_lambda_one_is_uct(policy):
    game = rmcts.LeftRight(8)
    base = rmcts.RefSearch(game, game.initial(), rmcts.UCTPolicy(0.3), dag=False, seed=4)
    cls = rmcts.AUCTPolicy if policy == "auct" else rmcts.DUCTPolicy
    other = rmcts.RefSearch(game, game.initial(), cls(1.0, 0.3), dag=False, seed=4)
    assert other.run(game.initial(), 200) == base.run(game.initial(), 200)


@pytest.mark.parametrize("name", ["tictactoe", "leftright", "breakthrough"])
@pytest.mark.parametrize("cls", [AUCT, DUCT])
def test_c_lambda_one_equals_uct_move_for_move(cls, name):
    params = {"steps": 16} if name == "leftright" else {}
    state = games.create(name, **params).initial_state()
    modes = ["tree", "dag"] if cls is DUCT else ["tree"]
    for mode in modes:
        uct = Search(state, UCT(c=0.5), seed=21, mode=mode)
        other = Search(state, cls(c=0.5, lam=1.0), seed=21, mode=mode)
        for _ in range(3):
            a, b = uct.run(iterations=200), other.run(iterations=200)
            assert root_stats(uct) == root_stats(other)
            assert (a.best_move, a.pv) == (b.best_move, b.pv)
            uct.advance(a.best_move)
            other.advance(a.best_move)


def test_lambda_below_one_changes_the_search():
    state = games.create("tictactoe").initial_state()
    a = Search(state, UCT(c=0.5), seed=21, mode="tree", iterations=800)
    b = Search(state, AUCT(c=0.5, k=1), seed=21, mode="tree", iterations=800)
    a.run()
    b.run()
    assert root_stats(a) != root_stats(b)


def snapshot(search: Search) -> dict[tuple[int, int], object]:
    out = {}
    for k in range(search.info()["nodes"]):
        for pos, rec in enumerate(edge_records(search, k)):
            out[(k, pos)] = rec
    return out


def descent(before, after, root: int) -> list[tuple[int, int]]:
    """The edges of the last iteration's path, root first (tree mode)."""
    path, node = [], root
    while True:
        grown = [
            (k, pos)
            for (k, pos), rec in after.items()
            if k == node and rec.n != getattr(before.get((k, pos)), "n", 0)
        ]
        if not grown:
            return path
        assert len(grown) == 1
        path.append(grown[0])
        node = after[grown[0]].child
        if node == 0xFFFFFFFF:
            return path


@pytest.mark.parametrize("lam", [0.9, 0.5])
@pytest.mark.parametrize("name", ["tictactoe", "leftright"])
def test_c_auct_backup_replays_the_reference(name, lam):
    """Every iteration: velocities (eq. 6) of every edge at the nodes of the path equal
    the reference formula in doubles to float storage's bound (the C policy keeps them
    as floats in units of a per-node scale, stored_velocity_ok), and the accelerated
    ratio (eq. 7, virtual child included) of the edges into them equals the reference
    over the children's ratios and the stored velocities, to 1e-9."""
    params = {"steps": 10} if name == "leftright" else {}
    game = games.create(name, **params)
    search = Search(game.initial_state(), AUCT(c=0.5, lam=lam), seed=7, mode="tree")
    one = game.n_roles == 1
    velocity: dict[tuple[int, int], float] = {}
    ratio: dict[tuple[int, int], float] = {}  # accelerated ratio of the edge's role
    before = snapshot(search)
    for _ in range(150):
        search.run(iterations=1)
        after = snapshot(search)
        path = descent(before, after, search.info()["root"])
        for depth in range(len(path) - 1, -1, -1):
            node, chosen = path[depth][0], path[depth][1]
            keys = [key for key in after if key[0] == node]
            keys.sort()
            vel = rauct.velocities_after([velocity.get(k, 0.0) for k in keys], chosen, lam)
            visits = sum(after[k].n for k in keys)
            for k, v in zip(keys, vel, strict=True):
                velocity[k] = v
                assert stored_velocity_ok(after[k].alg_b, v, visits), (k, after[k].alg_b, v)
            if depth == 0:
                continue
            into = after[path[depth - 1]]
            used = [k for k in keys if after[k].n > 0]

            rs = []
            for k in used:  # ratios as seen by the role of the edge into the node
                r = ratio.get(k, after[k].sum / after[k].n)
                rs.append(r if one else 1.0 - r)
            vs = [after[k].alg_b for k in used]
            if into.n_prime:
                t = sum(after[k].n for k in keys)
                rs.append(into.sum_prime / into.n_prime)
                vs.append(into.n_prime * lam**t)
            ratio[path[depth - 1]] = rauct.accelerated_ratio(rs, vs)
            assert into.alg_a / into.n == pytest.approx(ratio[path[depth - 1]], abs=1e-9)
        before = after
    # selection: eq. (5) from the stored ratios
    root = search.info()["root"]
    recs = edge_records(search, root)
    s = sum(r.n for r in recs)
    for rec, t in zip(recs, terms(search, root), strict=True):
        want = rauct.auct_value(rec.alg_a / rec.n if rec.n else 0.0, s, rec.n, 0.5)
        assert t[3] == pytest.approx(want, abs=1e-9) or (math.isinf(t[3]) and math.isinf(want))


DUCT_CASES = [("tictactoe", "tree", 0.9, 0, 8), ("tictactoe", "tree", 0.999, 0, 8),
              ("tictactoe", "dag", 0.9, 2, 11), ("leftright:steps=10", "dag", 0.5, 0, 12),
              ("connect4", "dag", 0.99, 6, 13), ("hex:size=4", "tree", 0.95, 3, 14)]


@pytest.mark.parametrize(("spec", "mode", "lam", "plies", "seed"), DUCT_CASES)
def test_c_duct_backup_replays_the_reference(spec, mode, lam, plies, seed):
    """Eq. (3)/(4) on every edge of every node of the path, every iteration; selection
    eq. (2).  The C policy keeps n^D as a float and W = r^D n^D as a double, both in
    units of a per-node scale (lazy decay); the reference runs eq. 3/4 in doubles.  The
    counts agree to float storage's bound (stored_velocity_ok), the discounted payoff
    totals W (eq. 4's numerator, lambda n r + R) to 1e-9, so r^D = W / n^D is eq. 4's
    ratio of the stored count; tree and DAG mode, from the initial position and from
    random ones."""
    game = games.create_from_spec(spec)
    state = random_walk_state(game, plies, random.Random(seed))
    search = Search(state, DUCT(c=0.5, lam=lam), seed=seed, mode=mode)
    nd: dict[tuple[int, int], float] = {}
    rd: dict[tuple[int, int], float] = {}
    before = snapshot(search)
    checked = 0
    for _ in range(150):
        search.run(iterations=1)
        after = snapshot(search)
        for node, chosen in descent(before, after, search.info()["root"]):
            keys = sorted(k for k in after if k[0] == node)
            hit = keys[chosen]
            reward = after[hit].sum - getattr(before.get(hit), "sum", 0.0)
            n2, r2 = rauct.duct_update([nd.get(k, 0.0) for k in keys],
                                       [rd.get(k, 0.0) for k in keys], chosen, reward, lam)
            visits = sum(after[k].n for k in keys)
            for k, a, b in zip(keys, n2, r2, strict=True):
                nd[k], rd[k] = a, b
                assert stored_velocity_ok(after[k].alg_b, nd[k], visits), k
                assert after[k].alg_a == pytest.approx(rd[k] * nd[k], rel=1e-9, abs=1e-300), k
                checked += after[k].alg_b > 0
        before = after
    assert checked > 1000
    for node in {k[0] for k in nd}:  # eq. (2) at every node the search went through
        recs = edge_records(search, node)
        # s^D = sum_j n^D_j with the reference's own n^D (eq. 3 replayed in doubles);
        # the C policy takes it from the node's visit count (its closed form), not from
        # its float counts, whose rounding would be ~1e-7 relative
        s = sum(v for k, v in nd.items() if k[0] == node)
        for rec, t in zip(recs, terms(search, node), strict=True):
            if rec.alg_b == 0:
                assert math.isinf(t[3])
                continue
            assert t[1] == pytest.approx(s, rel=1e-12)
            # s^D >= 1 (1 after the first visit, then lambda s^D + 1); the reference's
            # doubles may round it just below 1, where C takes log s^D as 0
            want = rauct.duct_value(rec.alg_a / rec.alg_b, rec.alg_b, max(s, 1.0), 0.5)
            assert t[3] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(("spec", "mode", "lam", "seed"),
                         [("hex:size=4", "tree", 0.999, 1), ("connect4", "dag", 0.9999, 2),
                          ("hex:size=4", "dag", 0.9, 3), ("tictactoe", "tree", 0.5, 4)])
def test_c_duct_selection_after_long_searches_is_eq2_by_the_reference(spec, mode, lam, seed):
    """Deep into a search (the root's visits past the first 1024, where the C policy's
    table of eq. (2)'s factor has grown, or stopped at s^D's fixed point) and again after
    re-rooting (the edges move, their cached terms are recomputed): each single
    iteration's root choice is the arg-max of eq. (2) computed by the reference from the
    edges' stored W and n^D, s^D in closed form from the root's visits."""
    game = games.create_from_spec(spec)
    search = Search(game.initial_state(), DUCT(c=0.5, lam=lam), seed=seed, mode=mode)
    checked = 0
    for move in range(2):
        search.run(iterations=5000 if move == 0 else 1500)
        for _ in range(40):
            before = edge_records(search, search.info()["root"])
            if any(r.n == 0 for r in before):
                break
            t = sum(r.n for r in before)
            s = (1 - lam**t) / (1 - lam)
            want = [rauct.duct_value(r.alg_a / r.alg_b, r.alg_b, s, 0.5) for r in before]
            search.run(iterations=1)
            after = edge_records(search, search.info()["root"])
            chosen = [i for i, (a, b) in enumerate(zip(before, after, strict=True))
                      if b.n > a.n]
            assert len(chosen) == 1
            assert want[chosen[0]] >= max(want) - 1e-9, (t, chosen, want)
            checked += t > 1024
        search.advance(search.result().best_move)
    assert checked >= 40


AUCT_DAG_CASES = [("tictactoe", 0.9, 0, 1), ("tictactoe", 0.5, 2, 2),
                  ("leftright:steps=10", 0.9, 0, 3), ("connect4", 0.99, 5, 4),
                  ("hex:size=3", 0.95, 1, 5)]


@pytest.mark.parametrize(("spec", "lam", "plies", "seed"), AUCT_DAG_CASES)
def test_c_auct_backup_replays_the_reference_in_dag_mode(spec, lam, plies, seed):
    """DAG mode (transpositions: a node's edges carry the visits of all its parents, the
    virtual child is the n' part of the edge on the path): after every iteration the
    velocities of the path's nodes equal eq. 6 (as floats) and the ratio of every edge
    entering them eq. 7 over the children's ratios (their roles' view) and the virtual
    child, to 1e-9; at the end every edge of the graph; random small DAGs from random
    positions."""
    game = games.create_from_spec(spec)
    state = random_walk_state(game, plies, random.Random(seed))
    search = Search(state, AUCT(c=0.4, lam=lam), seed=seed, mode="dag")
    replay = Replay(lam, game.n_roles == 1, lazy=True)
    before = snapshot(search)
    checked = 0
    for _ in range(200):
        search.run(iterations=1)
        after = snapshot(search)
        root = search.info()["root"]
        path = descent(before, after, root)
        replay.iteration(search, path)
        checked += check_auct(search, replay, sorted({node for node, _ in path}))
        before = after
    check_auct(search, replay, list(range(search.info()["nodes"])))
    children = [e.child for node in range(search.info()["nodes"])
                for e in edge_records(search, node) if e.child != 0xFFFFFFFF]
    assert checked > 100  # eq. 7 really was exercised
    assert len(children) > len(set(children))  # a DAG: some node has two in-edges


def check_auct(search: Search, replay: Replay, nodes: list[int]) -> int:
    """Plain AUCT keeps G in alg_a and the velocity in alg_b (Replay's (G, v))."""
    checked = 0
    for node in nodes:
        recs = edge_records(search, node)
        visits = sum(r.n for r in recs)
        for pos, rec in enumerate(recs):
            key = (node, pos)
            assert stored_velocity_ok(rec.alg_b, replay.v.get(key, 0.0), visits), key
            assert bool(rec.flags & ACC_FLAG) == (key in replay.g), key
            if rec.n:
                want = replay.total(key, rec) / rec.n
                assert rec.alg_a / rec.n == pytest.approx(want, abs=1e-9), key
                checked += key in replay.g
    return checked


def test_c_lambda_one_equals_uct_with_pruned_root_moves():
    """The selection's other path (some root edges pruned): still UCT's choices, and
    the pruned edges get no visit."""
    state = games.create("hex", size=4).initial_state()
    uct = Search(state, UCT(c=0.5), seed=9, mode="tree")
    other = Search(state, AUCT(c=0.5, lam=1.0), seed=9, mode="tree")
    for search in (uct, other):
        search.run(iterations=100)
        for index in (0, 3, 5):
            search.set_pruned(index, True)
    frozen = [e.visits for e in other.root_edges()]
    a, b = uct.run(iterations=400), other.run(iterations=400)
    assert root_stats(uct) == root_stats(other)
    assert a.best_move == b.best_move
    after = [e.visits for e in other.root_edges()]
    assert [after[i] for i in (0, 3, 5)] == [frozen[i] for i in (0, 3, 5)]
    assert sum(after) == sum(frozen) + 400


@pytest.mark.parametrize(("spec", "mode", "lam", "solver"),
                         [("hex:size=4", "tree", 0.9, False), ("tictactoe", "tree", 0.5, True),
                          ("tictactoe", "dag", 0.99, False), ("connect4", "dag", 0.9, True),
                          ("tictactoe", "tree", 1e-4, False)])
def test_c_duct_s_is_a_function_of_the_visits(spec, mode, lam, solver):
    """The C policy takes eq. (2)'s s^D = sum_j n^D_j from the node's visit count t =
    sum_j n_j as (1 - lambda^t) / (1 - lambda) (each visit decays every n^D and adds 1 to
    one).  Check that claim on the stored counts after searching, after tree reuse
    (advance), with the solver, in DAG mode and in the eager code (lambda < 2^-10): the
    float counts' sum agrees to their rounding, and the reported s^D is the closed
    form."""
    game = games.create_from_spec(spec)
    search = Search(game.initial_state(), DUCT(c=0.5, lam=lam, solver=solver), seed=3,
                    mode=mode)
    checked = 0
    for _ in range(3):
        search.run(iterations=400)
        for node in range(search.info()["nodes"]):
            recs = edge_records(search, node)
            t = sum(r.n for r in recs)
            if t == 0 or any(r.role != recs[0].role for r in recs):
                continue
            want = (1 - lam**t) / (1 - lam)
            assert sum(r.alg_b for r in recs) == pytest.approx(want, rel=1e-4), node
            assert terms(search, node)[0][1] == pytest.approx(want, rel=1e-12), node
            checked += 1
        best = search.result().best_move
        if best < 0:
            break
        search.advance(best)
    assert checked > 100

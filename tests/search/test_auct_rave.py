"""Accelerated UCT with RAVE (accelerated-uct.txt section 5.4; csrc/search/rave.c with
csrc/search/accel.h): with lambda = 1 it is RAVE move for move and statistic for
statistic; its velocities (eq. 6) and accelerated ratios (eq. 7, virtual child
included) replayed iteration by iteration against tests/reference/auct.py on random
small DAGs and trees; the statistics kept beside the edges survive a re-root."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from bots.registry import make_bot
from engine import games
from engine.core import ffi, lib
from engine.errors import InvalidArgumentError
from engine.search import AUCTRAVE, RAVE, Search, algorithm_from_spec
from engine.search.auct_rave import accelerated_edges
from engine.search.rave import last_sequence
from tests.helpers.auct import ACC_FLAG, Replay
from tests.helpers.variant_dump import EdgeRecord, edge_records

FULL = os.environ.get("MIAI_FULL") == "1"
NIL = 0xFFFFFFFF


def records(search: Search) -> list[list[EdgeRecord]]:
    """Every edge of every node, without the AUCT bit of the flags."""
    return [[dataclasses.replace(e, flags=e.flags & ~ACC_FLAG) for e in edge_records(search, k)]
            for k in range(search.info()["nodes"])]


@pytest.mark.parametrize(("spec", "iterations", "prior"), [
    ("go:size=9,komi=7,policy=7", 400 if FULL else 150, 20.0),  # heavy playouts
    ("go:size=5,komi=3", 600 if FULL else 250, 0.0),
    ("tictactoe", 300, 5.0),
])
def test_lambda_one_is_rave(spec: str, iterations: int, prior: float) -> None:
    """Tree mode (the paper's setting: with lambda = 1 every velocity is a visit count
    and r^A the plain mean): the same moves, statistics, AMAF statistics and
    accelerated totals equal to the plain ones, over three moves with the tree kept."""
    state = games.create_from_spec(spec).initial_state()
    kw = {"prior": prior, "knowledge": True, "c": 0.1}
    rave = Search(state, RAVE(**kw), seed=11, mode="tree")
    both = Search(state, AUCTRAVE(**kw, lam=1.0), seed=11, mode="tree")
    for _ in range(3):
        a, b = rave.run(iterations=iterations), both.run(iterations=iterations)
        assert (a.best_move, a.pv) == (b.best_move, b.pv)
        assert records(rave) == records(both)
        for node in range(both.info()["nodes"]):
            g = [total for total, _ in accelerated_edges(both, node)]
            assert g == [e.sum for e in edge_records(both, node)]
        if a.best_move is None:
            break
        rave.advance(a.best_move)
        both.advance(a.best_move)


def test_lambda_below_one_changes_the_search() -> None:
    state = games.create("go", size=5, komi=3).initial_state()
    a = Search(state, RAVE(c=0.1), seed=4, mode="tree")
    b = Search(state, AUCTRAVE(c=0.1, k=1), seed=4, mode="tree")
    a.run(iterations=400)
    b.run(iterations=400)
    assert records(a) != records(b)


def path_of(search: Search, moves: list[int]) -> list[tuple[int, int]]:
    """The (node, edge position) steps of the last descent, from its tree moves."""
    node, path = search.info()["root"], []
    for m in moves:
        recs = edge_records(search, node)
        pos = next(i for i, e in enumerate(recs) if e.move == m)
        path.append((node, pos))
        node = recs[pos].child
    return path


CASES = [("tictactoe", "dag", 1), ("tictactoe", "dag", 2), ("tictactoe", "tree", 3),
         ("go:size=5,komi=3", "dag", 4), ("go:size=5,komi=3", "tree", 5),
         ("go:size=5,komi=3,policy=7", "dag", 6)]


@pytest.mark.parametrize(("spec", "mode", "seed"), CASES)
def test_accelerated_ratios_match_the_reference(spec: str, mode: str, seed: int) -> None:
    """After every iteration the velocities of the path's nodes equal eq. 6 (as
    floats) and the ratio of every edge entering them eq. 7 over the children's ratios
    (their roles' view) and the virtual child, to 1e-9; at the end every edge of the
    graph is checked.  Random lambda, priors and c per case."""
    rng = random.Random(seed)
    lam = rng.choice([0.5, 0.9, 0.99, 1.0 - 0.1 ** rng.randint(2, 5)])
    game = games.create_from_spec(spec)
    alg = AUCTRAVE(lam=lam, prior=rng.choice([0.0, 3.0]), knowledge=False,
                   c=rng.choice([0.0, 0.2]))
    search = Search(game.initial_state(), alg, seed=seed, mode=mode)
    replay = Replay(lam, game.n_roles == 1)
    done = ffi.new("uint64_t *")
    checked = 0
    for _ in range(600 if FULL else 200):
        lib.miai_search_run(search._ptr, 1, 0.0, done)
        seq = last_sequence(search, game.max_plies)
        path = path_of(search, seq.moves[:seq.tree_len])
        replay.iteration(search, path)
        checked += replay.check(search, sorted({node for node, _ in path}))
    replay.check(search, list(range(search.info()["nodes"])))
    assert checked > 100  # eq. 7 really was exercised


@pytest.mark.parametrize("mode", ["tree", "dag"])
def test_statistics_follow_the_reroot(mode: str) -> None:
    """advance() compacts the graph; the (G, v) beside each kept edge move with it."""
    game = games.create("go", size=5, komi=3)
    search = Search(game.initial_state(), AUCTRAVE(lam=0.9, prior=2.0), seed=3, mode=mode)

    def by_moves(prefix: tuple[int, ...], node: int, out: dict) -> None:
        for e, acc in zip(edge_records(search, node), accelerated_edges(search, node),
                          strict=True):
            out[(*prefix, e.move)] = (e.n, e.sum, e.alg_a, e.alg_b, acc)
            if e.child != NIL and len(prefix) < 6:
                by_moves((*prefix, e.move), e.child, out)

    for _ in range(3):
        result = search.run(iterations=300)
        before: dict = {}
        by_moves((), search.info()["root"], before)
        nodes = search.info()["nodes"]
        search.advance(result.best_move)
        assert search.info()["nodes"] < nodes  # the graph really was compacted
        after: dict = {}
        by_moves((), search.info()["root"], after)
        kept = {k[1:]: v for k, v in before.items() if k[0] == result.best_move and len(k) > 1}
        assert after == {k: v for k, v in kept.items() if k in after}
        assert len(after) > 20


def test_spec_parameters_and_go_bot() -> None:
    alg = algorithm_from_spec("auct_rave", {"lambda": "0.99", "prior": "5"})
    assert isinstance(alg, AUCTRAVE) and alg.decay == 0.99 and alg.prior == 5.0
    assert algorithm_from_spec("auct_rave", {"k": "2"}).decay == pytest.approx(0.99)
    assert AUCTRAVE().decay == pytest.approx(0.9999)  # k = 4, the paper's best with RAVE
    for bad in ({"k": "3", "lambda": "0.9"}, {"lambda": "0"}, {"lambda": "1.5"},
                {"w_init": "0"}):
        with pytest.raises(InvalidArgumentError):
            algorithm_from_spec("auct_rave", bad)
    cfg = ffi.new("miai_search_config *")
    AUCTRAVE().configure(cfg)
    cfg.max_nodes = 100
    out = ffi.new("miai_search **")
    st = games.create("go", size=5).initial_state()
    for lam in (0.0, 1.5, -1.0):
        cfg.params[lib.MIAI_P_AUCT_RAVE_LAMBDA] = lam
        assert lib.miai_search_create(st.game.ptr, st.ptr, cfg, out) == lib.MIAI_EINVAL
    game = games.create("go", size=9, komi=7)
    bot = make_bot("gobot:alg=auct_rave,lambda=0.999,prior=20,iterations=60,seed=1", game)
    state = game.initial_state()
    move = bot.choose(state)
    assert move in state.legal_moves()


def test_inspection_refuses_other_policies() -> None:
    st = games.create("tictactoe").initial_state()
    search = Search(st, RAVE(), iterations=5)
    search.run()
    with pytest.raises(InvalidArgumentError):
        accelerated_edges(search, 0)

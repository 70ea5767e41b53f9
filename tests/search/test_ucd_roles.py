"""UCD with more than two roles and any payoffs (``payoffs=general``, automatic with more
than two roles): every role's payoff totals kept per edge and per node.

Truths: plain UCT (no transpositions: every parametrisation is UCT), the search loop's
own per-root-move, per-role accounting, the rewards of a two-player win/draw/loss game
(the other role's total is n - sum), and the plain-Python recursion of
tests/reference/ucd.py fed with the C graph's per-role totals (1e-9)."""

from __future__ import annotations

import math
import random
import zlib
from functools import cache

import pytest

from bots import make_bot
from bots.thinker import Thinker
from engine import games
from engine.errors import InvalidArgumentError
from engine.gdl.game import load
from engine.gdl.sheets import PACKAGED
from engine.search import UCD, UCT, Search
from tests.helpers.variant_dump import (
    compare_ucd_with_reference,
    dump,
    graph,
    random_walk_state,
    role_sums,
    root_stats,
    run_observing_node_primes,
)

INF = math.inf
GAMES = PACKAGED
BACKUPS = ["descent", "all", "incremental"]


@cache
def gdl(name: str):
    return load((GAMES / f"{name}.kif").read_text(), name=name)


def three_player():
    return gdl("tictactoe_3player")  # alternating, rewards not summing to a constant


RACE_GOAL = 16


@cache
def race():
    """A three-player race written for this test: a shared token goes from 0 to
    RACE_GOAL, each role in turn adds 1 or 2; whoever reaches the goal gets 100 (75
    with a last step of 2), the next role 25, the third 0.  Positions are (token,
    role to move): transpositions everywhere; the rewards' sum varies (and rewards
    are multiples of 1/4, so sums are exact and tree mode equals UCT bit for bit)."""
    adds = " ".join(f"(adds {x} {k} {x + k})" for k in (1, 2) for x in range(RACE_GOAL + 1 - k))
    rules = f"""
    (role red) (role green) (role blue)
    (init (pos 0)) (init (control red))
    {adds}
    (<= (legal ?p (step ?k)) (true (control ?p)) (true (pos ?x)) (adds ?x ?k ?y))
    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
    (<= (next (pos ?y)) (does ?p (step ?k)) (true (pos ?x)) (adds ?x ?k ?y))
    (<= (next (control green)) (true (control red)))
    (<= (next (control blue)) (true (control green)))
    (<= (next (control red)) (true (control blue)))
    (<= (next (winner ?p)) (does ?p (step ?k)) (true (pos ?x)) (adds ?x ?k {RACE_GOAL}))
    (<= (next sprint) (does ?p (step 2)) (true (pos {RACE_GOAL - 2})))
    (<= terminal (true (pos {RACE_GOAL})))
    (<= (goal ?p 100) (true (winner ?p)) (not (true sprint)))
    (<= (goal ?p 75) (true (winner ?p)) (true sprint))
    (<= (goal ?p 25) (true (control ?p)))
    (<= (goal ?p 0) (role ?p) (not (true (winner ?p))) (not (true (control ?p))))
    """
    return load(rules, name="race3")


def transpositions(search: Search) -> int:
    nodes, _ = dump(search, search.state.game.n_roles)
    return sum(len(y.parents) > 1 for y in nodes)


def dump_general(search: Search):
    return graph(search, general=True)


def compare_with_reference(search: Search, depths, c: float, kind: str = "edge",
                           primes: dict[int, tuple[int, list[float]]] | None = None) -> int:
    return compare_ucd_with_reference(search, depths, c, kind, primes, general=True)


# -- identities --------------------------------------------------------------------------


@pytest.mark.parametrize("backup", BACKUPS)
@pytest.mark.parametrize("depths", [(0, 0, 0), (1, 0, 1), (INF, INF, INF), (2, 1, 0)])
def test_three_roles_without_transpositions_equal_uct(depths, backup):
    """Tree mode: every parametrisation and backup gives UCT's statistics and move bit
    for bit on a three-player game; so does payoffs=general on two-player tictactoe."""
    for state, extra in ((three_player().initial_state(), {}), (race().initial_state(), {}),
                         (games.create("tictactoe").initial_state(), {"payoffs": "general"})):
        uct = Search(state, UCT(c=0.4), iterations=300, seed=11, mode="tree")
        ucd = Search(state, UCD(*depths, c=0.4, backup=backup, **extra), iterations=300,
                     seed=11, mode="tree")
        a, b = uct.run(), ucd.run()
        assert root_stats(uct) == root_stats(ucd)
        assert (a.best_move, a.pv) == (b.best_move, b.pv)


@pytest.mark.parametrize("backup", BACKUPS)
def test_role_totals_are_the_loops_accounting(backup):
    """Update-descent statistics: a root edge's totals per role are the search loop's
    own per-role sums of the iterations through it; every edge's total for its own
    role is its core sum."""
    for state in (three_player().initial_state(), race().initial_state()):
        search = Search(state, UCD(INF, 1, 1, c=0.4, backup=backup), seed=2, mode="dag")
        result = search.run(iterations=400)
        nodes, _ = dump_general(search)
        core, _ = dump(search, state.game.n_roles)
        root = search.info()["root"]
        means = result.extra["role_means"]
        texts = {e.move: state.game.move_to_text(e.move, 0) for e in nodes[root].edges}
        for e in nodes[root].edges:
            (m, n) = means[texts[e.move]]
            if backup != "all":
                assert n == e.n
                assert e.total == pytest.approx([x * n for x in m], abs=1e-9)
        for x, y in zip(nodes, core, strict=True):
            for e, f in zip(x.edges, y.edges, strict=True):
                assert e.total[e.role] == f.total[f.role]


@pytest.mark.parametrize("backup", BACKUPS)
@pytest.mark.parametrize("depths", [(INF, INF, INF), (0, 1, 2), (1, 0, 1), (2, 1, 0)])
def test_three_roles_terms_equal_the_recursion(depths, backup):
    """DAG mode, random positions of the three-player game: the C terms (kept sums and
    recomputation) equal the plain-Python recursion on the per-role totals."""
    rng = random.Random(zlib.crc32(repr((depths, backup)).encode()))
    checked = seen = 0
    for game in (race(), three_player()):
        state = random_walk_state(game, rng.randrange(0, 3), rng)
        search = Search(state, UCD(*depths, c=0.5, backup=backup), seed=rng.randrange(1 << 20),
                        mode="dag")
        search.run(iterations=rng.randrange(150, 300))
        checked += compare_with_reference(search, depths, 0.5)
        seen += transpositions(search)
    assert checked > 50 and seen > 5


@pytest.mark.parametrize("backup", BACKUPS)
def test_three_roles_node_primes_equal_the_recursion(backup):
    """prime=node with three roles: the recursion fed with the playouts counted at each
    node (every role's payoffs) as they happened."""
    search = Search(race().initial_state(), UCD(1, 1, 1, c=0.5, backup=backup, prime="node"),
                    seed=8, mode="dag")
    primes: dict[int, tuple[int, list[float]]] = {}
    run_observing_node_primes(search, 150, primes, general=True)
    assert compare_with_reference(search, (1, 1, 1), 0.5, "node", primes) > 20
    assert transpositions(search) > 5


@pytest.mark.parametrize("backup", BACKUPS)
def test_role_totals_follow_advance(backup):
    """advance() compacts the graph: the per-edge totals move with their edges (a
    two-player win/draw/loss game: the other role's total stays n - sum; three
    players: each edge's own-role total stays its core sum) and the terms still equal
    the recursion."""
    for state, extra in ((games.create("tictactoe").initial_state(), {"payoffs": "general"}),
                         (race().initial_state(), {}), (three_player().initial_state(), {})):
        search = Search(state, UCD(INF, 1, 1, c=0.5, backup=backup, **extra), seed=4,
                        mode="dag")
        search.run(iterations=300)
        search.advance(search.result().best_move)
        search.run(iterations=100)
        n_roles = state.game.n_roles
        nodes, _ = dump(search, n_roles)  # the core's n and own-role sums
        for k, node in enumerate(nodes):
            if not node.edges or node.to_move < 0:
                continue
            for e, (tot, _) in zip(node.edges, role_sums(search, k, n_roles), strict=True):
                assert tot[e.role] == e.total[e.role]
                if n_roles == 2:
                    assert tot == pytest.approx(e.total, abs=1e-9)
        assert compare_with_reference(search, (INF, 1, 1), 0.5) > 10


def test_solver_is_refused_with_three_roles_and_the_ggp_thinker_searches_ucd():
    game = three_player()
    with pytest.raises(InvalidArgumentError):
        Search(game.initial_state(), UCD(solver=True), seed=1)
    thinker = Thinker(make_bot("ucd:d1=2,d2=1,d3=2,c=0.4", game, seed=3))
    try:
        thinker.start(game.initial_state(), 1)
        assert thinker.bot.search.algorithm.name == "ucd"  # type: ignore[attr-defined]
    finally:
        thinker.close()

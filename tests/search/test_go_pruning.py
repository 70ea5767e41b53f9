"""Huang et al.'s territorial pruning (engine/search/go_pruning.py): eq. 12-15 against
numpy, condition 3 on hand-made values, the C territory counts of a RAVE search on a
settled 5x5 position against the reference area count, and pruning in a search."""

from __future__ import annotations

import numpy as np
import pytest

from engine import games, go
from engine.search import RAVE, Search
from engine.search import go_pruning as gp
from tests.reference.go_rules import BLACK, WHITE, area


def test_eq12_to_15_match_numpy() -> None:
    rng = np.random.default_rng(1)
    parent = rng.uniform(-1, 1, 81)
    children = [rng.uniform(-1, 1, 81) for _ in range(7)]
    ds = [float(np.var(parent - c)) for c in children]
    for c, d in zip(children, ds, strict=True):
        assert gp.variance_of_change(list(parent), list(c)) == pytest.approx(d)
    phi = gp.phis(list(parent), [list(c) for c in children])
    assert phi == pytest.approx([d / sum(ds) for d in ds])
    assert sum(phi) == pytest.approx(1.0)
    assert gp.territory_value([3, 0, 1], [1, 4, 1], 4) == [0.5, -1.0, 0.0]


def test_condition_3() -> None:
    assert gp.territorial_prunable([0.1, 0.2, 0.3], 0.05, 0.5) == []
    assert gp.territorial_prunable([0.1, 0.2, 0.7], 0.05, 0.5) == [0, 1]
    assert gp.territorial_prunable([0.01, 0.2, 0.79], 0.05, 0.5) == [1]


def settled() -> games.State:
    """Black owns columns A-C (eyes A2, A4), white D-E (eyes E2, E4); black to move."""
    st = games.create("go", size=5, komi=0.5, policy=7).initial_state()
    black = ["A1", "A3", "A5"] + [f"{c}{r}" for c in "BC" for r in range(1, 6)]
    white = ["E1", "E3", "E5"] + [f"D{r}" for r in range(1, 6)]
    go.setup(st, black=black, white=white)
    return st


def test_root_territory_counts_match_the_reference_area() -> None:
    st = settled()
    # One node: every iteration is a root move, then a playout (no tree below).
    search = Search(st, RAVE(prune="territory", every=10**9), seed=2, max_nodes=1)
    search.run(iterations=300)
    terr = gp.root_territory(search, 25)
    edges = search.root_edges()
    assert sum(terr.visits) == search.info()["root_iterations"] == 300
    b_area, w_area, owner = area(5, go.colors(st))
    assert (b_area, w_area) == (15, 10)
    for e, v, b, w in zip(edges, terr.visits, terr.black, terr.white, strict=True):
        assert v == e.visits
        assert all(bp + wp <= v for bp, wp in zip(b, w, strict=True))
        if e.move == 25:  # pass: the opponent can only pass too, the board stays
            assert b == [v if o == BLACK else 0 for o in owner]
            assert w == [v if o == WHITE else 0 for o in owner]


def test_territorial_pruning_in_a_search_is_reported() -> None:
    st = games.create("go", size=7, komi=7, policy=7).initial_state()
    for m in ["D4", "C3", "E3", "C5"]:
        st.play(st.parse_move(m))
    alg = RAVE(prior=5, prune="territory", every=400, t_low=0.0, t_high=0.02, t_min_visits=5)
    search = Search(st, alg, seed=1)
    result = search.run(iterations=2000)
    pruned = result.extra["pruning"]["pruned"]
    assert pruned, "some move should meet condition 3 with these bounds"
    texts = {m.text for m in result.moves if m.pruned}
    assert {p["move"] for p in pruned} == texts
    assert all(p["condition"].startswith("territory") for p in pruned)
    assert result.best_text not in texts


def test_relative_pruning_matches_the_reference_condition() -> None:
    """One batch of `every` iterations, then condition 2 decides: the moves pruned are
    exactly those tests/reference/auer.py names on the root statistics."""
    from tests.reference.auer import relative_prunable

    st = games.create("go", size=5, komi=3, policy=7).initial_state()
    alg = RAVE(prior=5, prune="relative", every=3000, alpha=1.0)
    search = Search(st, alg, seed=4)
    result = search.run(iterations=3000)
    edges = search.root_edges()
    want = relative_prunable([e.visits for e in edges], [e.mean for e in edges], 1.0, 3000.0)
    assert want, "this position should let condition 2 prune something"
    assert sorted(e.index for e in edges if e.pruned) == sorted(want)
    logged = result.extra["pruning"]["pruned"]
    assert {p["move"] for p in logged} == {m.text for m in result.moves if m.pruned}
    assert all(p["condition"] == "relative" for p in logged)

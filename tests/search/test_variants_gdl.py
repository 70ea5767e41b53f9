"""The papers' algorithms on GDL games: alternating GDL games (whose facts allow
simultaneous moves) run the algorithms themselves -- UCD without transpositions still
equals UCT bit for bit -- and a game with simultaneous moves falls back to decoupled
UCT at its simultaneous nodes without failing."""

from __future__ import annotations

from functools import cache

import pytest

from engine.gdl.game import load
from engine.gdl.sheets import PACKAGED
from engine.search import UCT, Search, algorithm_from_spec
from tests.helpers.variant_dump import root_stats

GAMES = PACKAGED
SPECS = [
    ("ucd", {"d1": "inf", "d2": "inf", "d3": "inf"}),
    ("ucd", {"backup": "all", "solver": "1"}),
    ("auct", {"k": "2", "solver": "1"}),
    ("duct", {"k": "2"}),
    ("uctstar", {"p": "0.3", "s": "20", "variant": "step", "solver": "1"}),
    ("mctsstar", {"p": "0.5", "s": "20"}),
    ("uct", {"solver": "1"}),
]


@cache
def gdl(name: str):
    return load((GAMES / f"{name}.kif").read_text(), name=name)


def test_alternating_gdl_game_runs_ucd_itself():
    state = gdl("tictactoe").initial_state()
    uct = Search(state, UCT(c=0.5), seed=3, mode="tree", iterations=400)
    ucd = Search(state, algorithm_from_spec("ucd", {"d1": "inf", "d2": "1", "d3": "2",
                                                   "c": "0.5"}), seed=3, mode="tree",
                 iterations=400)
    a, b = uct.run(), ucd.run()
    assert root_stats(uct) == root_stats(ucd) and a.best_move == b.best_move


@pytest.mark.parametrize("name", ["tictactoe", "gt_prisoner"])
@pytest.mark.parametrize("spec", SPECS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SPECS)])
def test_every_algorithm_runs_on_gdl_games(name, spec):
    state = gdl(name).initial_state()
    result = Search(state, algorithm_from_spec(*spec), seed=1, iterations=300).run()
    assert result.iterations > 0 and result.moves

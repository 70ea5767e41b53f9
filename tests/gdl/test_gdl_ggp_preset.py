"""The GGP preset (bots/registry.py ``ggp``) and the MCTS-Solver on GDL games.

- A forced win is proven and played at once: a proven root runs no more iterations
  (engine.search.Search.solved), so a Thinker on a 30 s clock answers after the few
  iterations the proof took, with the winning move (tic-tac-toe's rules, where the
  winning line is known).
- A two-player game whose goals do not sum to 100 gets no unsound proof: a loss for
  one role is not a win for the other (nonzero.kif; main at c43a389 proved ``go`` a
  win for first, which gives first 0 instead of 50).
- The preset's keys, and its fallback to UCT (keeping MAST) where the solver refuses a
  game with three roles.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bots.registry import make_bot, resolve
from bots.search_bot import uct_fallback
from bots.thinker import Thinker
from engine.gdl.game import GdlGame, load
from engine.search import Search, algorithm_from_spec

OWN = Path(__file__).resolve().parent


@cache
def game(name: str) -> GdlGame:
    return load((OWN / name).read_text(), Path(name).stem)


def test_preset_spec() -> None:
    spec = resolve("ggp")
    assert spec.name == "uct"
    assert spec.params["solver"] == "1" and spec.params["mast"] == "1"
    assert resolve("ggp:mast=0").params["mast"] == "0"  # each part switchable


def test_preset_falls_back_to_uct_with_mast_for_three_roles() -> None:
    fallback = uct_fallback(resolve("ggp"))
    assert fallback is not None
    assert fallback.name == "uct" and "solver" not in fallback.params
    assert fallback.params["mast"] == "1"


def test_forced_win_is_played_at_once() -> None:
    g = game("tictactoe.kif")
    # x holds (1 1) and (1 2), o (2 1) and (2 2): x wins at (1 3), and only there
    s = g.initial_state().play_all(["(place 1 1)", "(place 2 1)", "(place 1 2)",
                                    "(place 2 2)"])
    thinker = Thinker(make_bot("ggp:seed=1", g), iterations=None)
    try:
        thinker.start(s, 0)
        thought = thinker.think(30.0)
    finally:
        thinker.close()
    assert g.move_to_text(thought.move, 0) == "(place 1 3)"
    assert not thought.fallback
    report = thought.report
    assert report is not None and report.extra["solver"]["root"] == "win"
    # the proof ended the search: nowhere near 30 s of iterations
    assert report.iterations < 10_000


def test_solved_search_runs_no_more_iterations() -> None:
    g = game("tictactoe.kif")
    s = g.initial_state().play_all(["(place 1 1)", "(place 2 1)", "(place 1 2)",
                                    "(place 2 2)"])
    search = Search(s, algorithm_from_spec("uct", {"c": "0.4", "solver": "1"}), seed=2)
    first = search.run(iterations=1000)
    assert search.solved()
    again = search.run(iterations=1000)
    assert again.iterations == first.iterations
    assert g.move_to_text(again.best_move, 0) == "(place 1 3)"
    unsolved = Search(g.initial_state(), algorithm_from_spec("uct", {"c": "0.4"}), seed=2)
    unsolved.run(iterations=10)
    assert not unsolved.solved()  # no solver, no proof


def test_no_proof_from_an_outcome_that_is_not_zero_sum() -> None:
    g = game("nonzero.kif")
    for seed in range(3):
        search = Search(g.initial_state(),
                        algorithm_from_spec("uct", {"c": "0.4", "solver": "1"}), seed=seed)
        r = search.run(iterations=300)
        assert not search.solved()
        assert r.extra["solver"]["proven_root_moves"] == {"win": [], "loss": []}
        assert r.best_text == "stop"  # 50 each, against 0 each after go

"""Several playouts a leaf (``Search(leaf_playouts=k)``, bot key ``leaf``): the mean of
k random playouts is what an iteration backs up.  Checked against the exact expected
reward of uniformly random play, computed by enumerating every game from the leaf, on
miai's C Tic-tac-toe (playouts one by one) and on Tic-tac-toe in GDL (the lanes, 64
games at a time)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bots.registry import make_bot
from engine import games
from engine.errors import InvalidArgumentError
from engine.games import State
from engine.gdl.game import load
from engine.search import Search
from engine.search.algorithms import algorithm_from_spec

OWN = Path(__file__).resolve().parents[1] / "gdl"
K = 1024


def exact_value(state: State, role: int) -> float:
    """``role``'s expected reward when every mover plays uniformly at random."""
    seen: dict[bytes, float] = {}

    def value(s: State) -> float:
        key = s.to_bytes()
        if key not in seen:
            if s.is_terminal():
                seen[key] = s.rewards()[role]
            else:
                moves = s.legal_moves()
                seen[key] = sum(value(s.copy().play(m)) for m in moves) / len(moves)
        return seen[key]

    return value(state)


def four_empty_cells(state: State, moves: list[str]) -> State:
    """x 1 1, o 2 2, x 3 3, o 1 3, x 3 1: o to move, no move of o ends the game."""
    for text in moves:
        state.play(state.game.move_from_text(text, state.to_move))
    assert not state.is_terminal() and len(state.legal_moves()) == 4
    return state


def c_tictactoe() -> State:
    state = games.new_state("tictactoe")
    texts = [state.game.move_to_text(m, 0) for m in range(9)]
    return four_empty_cells(state, [texts[i] for i in (0, 4, 8, 2, 6)])


def gdl_tictactoe() -> State:
    game = load((OWN / "tictactoe.kif").read_text(), name="tictactoe-gdl")
    assert 0 < game.lanes_min_batch <= K
    cells = ["(place 1 1)", "(place 2 2)", "(place 3 3)", "(place 1 3)", "(place 3 1)"]
    return four_empty_cells(game.initial_state(), cells)


@pytest.mark.parametrize("make", [c_tictactoe, gdl_tictactoe], ids=["c", "gdl-lanes"])
def test_each_leaf_backs_up_the_mean_of_its_playouts(make) -> None:  # type: ignore[no-untyped-def]
    """Four iterations, one per root move (each a leaf): each root edge's mean is the
    mean of 1,024 playouts, within 5 standard errors (0.5 / 32 at most) of the exact
    expected reward; one playout a leaf would give 0, 0.5 or 1."""
    root = make()
    me = root.to_move
    search = Search(root, algorithm_from_spec("uct", {}), mode="tree", seed=7,
                    leaf_playouts=K)
    result = search.run(iterations=4)
    assert search.info()["playouts"] == 4 * K
    assert sorted(m.visits for m in result.moves) == [1, 1, 1, 1]
    for stats in result.moves:
        exact = exact_value(root.copy().play(stats.move), me)
        assert abs(stats.mean - exact) < 5 * 0.5 / 32, (stats.text, stats.mean, exact)
    assert any(m.mean not in (0.0, 0.5, 1.0) for m in result.moves)


def test_one_playout_a_leaf_by_default() -> None:
    search = Search(c_tictactoe(), algorithm_from_spec("uct", {}), mode="tree", seed=1)
    search.run(iterations=4)
    assert search.info()["playouts"] == 4


def test_leaf_playouts_are_deterministic_by_seed() -> None:
    root = gdl_tictactoe()
    runs = [Search(root, algorithm_from_spec("uct", {}), seed=3, leaf_playouts=64)
            .run(iterations=60) for _ in range(2)]
    assert [(m.move, m.visits, m.mean) for m in runs[0].moves] == \
           [(m.move, m.visits, m.mean) for m in runs[1].moves]


def test_bad_leaf_playouts_are_refused() -> None:
    root = c_tictactoe()
    for bad in (0, -1, 1025, 2.0, True):
        with pytest.raises(InvalidArgumentError):
            Search(root, algorithm_from_spec("uct", {}), leaf_playouts=bad)
    with pytest.raises(InvalidArgumentError, match="RAVE"):
        Search(root, algorithm_from_spec("rave", {}), leaf_playouts=4)


def test_search_bots_take_the_leaf_key() -> None:
    root = gdl_tictactoe()
    bot = make_bot("uct:leaf=32,iterations=50", root.game)
    move = bot.choose(root)
    assert move in root.legal_moves()
    for bad in ("uct:leaf=0", "uct:leaf=2000", "rave:leaf=4"):
        with pytest.raises(InvalidArgumentError):
            make_bot(bad, root.game)


def test_the_ggp_player_takes_the_leaf_key() -> None:
    """A GGP player's search gets the bot spec's leaf playouts; a bad value or RAVE
    fails when the player is made, not in a match."""
    from protocols.ggp.player import GgpPlayer, PlayerConfig

    player = GgpPlayer(PlayerConfig(bot="uct:c=0.4,leaf=16"))
    root = gdl_tictactoe()
    thinker = player._thinker(root.game, root, root.to_move)  # searches at once
    deadline = time.monotonic() + 10
    while thinker.iterations() < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert thinker.pause(5.0)
    info = thinker.bot.search.info()  # type: ignore[attr-defined]
    thinker.close()
    assert info["iterations"] >= 20
    assert info["playouts"] % 16 == 0 and 0 < info["playouts"] <= 16 * info["iterations"]
    for bad in ("uct:leaf=0", "rave:leaf=2"):
        with pytest.raises(InvalidArgumentError):
            GgpPlayer(PlayerConfig(bot=bad))

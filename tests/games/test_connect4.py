"""Connect Four (csrc/games/connect4.c) against independent truth.

Perft: the published counts of the Regular Games project's perft suite
(github.com/radekmie/rg, interpreter_node/src/bench.test.ts: 1, 7, 49, 343, 2401,
16807, 117649, 823536, 5673234); depth 7 is 7**7 minus the 7 sequences that overfill a
column.  Rules: OpenSpiel's connect_four, move by move.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.errors import IllegalMoveError
from engine.perft import perft
from tests.games.spiel_oracle import (
    FULL,
    check_keys_on_random_games,
    compare_with_openspiel,
    replay,
    size,
)

PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234]
CI_DEPTH = 7


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.create("connect4")


def board_of(render: str) -> list[str]:
    """Rows top first, from our render ("6 .......")."""
    return [line.split()[1] for line in render.splitlines() if line[:1].isdigit()]


def spiel_board_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line]


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft_matches_published_counts(game: engine.Game, depth: int) -> None:
    if depth > CI_DEPTH and not FULL:
        pytest.skip("MIAI_FULL=1 for the deeper perft")
    assert perft(game.initial_state(), depth) == PERFT[depth]


def test_random_games_agree_with_openspiel(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    stats = compare_with_openspiel(
        game,
        pyspiel.load_game("connect_four"),
        n_games=size(1000, 20_000),
        seed=11,
        board_of=board_of,
        spiel_board_of=spiel_board_of,
    )
    assert stats.outcomes[(1.0, 0.0)] > 0 and stats.outcomes[(0.0, 1.0)] > 0
    assert set(stats.moves_seen) == set(range(7))


def find_draw(game: engine.Game) -> list[int]:
    """A drawn game found by random play (draws are rare in random games)."""
    rng = random.Random(5)
    while True:
        state = game.initial_state()
        moves = []
        while not state.is_terminal():
            moves.append(rng.choice(state.legal_moves()))
            state.play(moves[-1])
        if state.rewards() == (0.5, 0.5):
            return moves


def test_a_full_board_without_a_line_is_a_draw_in_both(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    moves = find_draw(game)
    assert len(moves) == 42
    theirs = pyspiel.load_game("connect_four").new_initial_state()
    for m in moves:
        theirs.apply_action(m)
    assert theirs.is_terminal() and theirs.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("a b a b a b a", 0),  # vertical
        ("a a b b c c d", 0),  # horizontal
        ("a b b c c d c d d g d", 0),  # rising diagonal a1-d4
        ("g f f e e d e d d a d", 0),  # falling diagonal d4-g1
        ("a b a b a b c b", 1),  # the second player's column
    ],
)
def test_each_line_direction_wins(game: engine.Game, moves: str, winner: int) -> None:
    state = replay(game, moves.split()[:-1])
    assert not state.is_terminal()
    state.play(moves.split()[-1])
    assert state.is_terminal()
    assert state.rewards()[winner] == 1.0 and state.rewards()[1 - winner] == 0.0


def test_no_line_wraps_between_columns(game: engine.Game) -> None:
    # x on a4 a5 a6 and b1: consecutive cells of the bit layout but for a's sentinel
    # bit, and no line on the board.
    state = replay(game, "b a c a c a a d a d a")
    assert not state.is_terminal()
    state.check()


def test_a_full_column_is_illegal(game: engine.Game) -> None:
    state = replay(game, "a a a a a a")
    assert 0 not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play("a")


def test_move_text(game: engine.Game) -> None:
    for col, letter in enumerate("abcdefg"):
        assert game.move_to_text(col) == letter
        assert game.move_from_text(letter.upper()) == col
        assert game.move_from_text(str(col + 1)) == col
    for bad in ("h", "0", "8", "a1", "aa"):
        with pytest.raises(engine.MiaiError):
            game.move_from_text(bad)


def test_render_shows_the_top_row_first(game: engine.Game) -> None:
    rows = board_of(replay(game, ["d", "d"]).render())
    assert rows[-1] == "...x..." and rows[-2] == "...o..." and rows[0] == "......."


def test_keys_along_random_games(game: engine.Game) -> None:
    stats = check_keys_on_random_games(game, size(50_000, 500_000), seed=3)
    assert stats.transpositions > 100  # the sample really tests move-order independence


def test_transposed_move_orders_give_equal_keys(game: engine.Game) -> None:
    a = replay(game, "a b c d e")
    b = replay(game, "e d c b a")
    c = replay(game, "c d a b e")
    assert a.to_bytes()[24:] == b.to_bytes()[24:] == c.to_bytes()[24:]
    assert a.keys() == b.keys() == c.keys()
    assert replay(game, ["a", "b"]).keys() != replay(game, ["b", "a"]).keys()

"""Connect Four (csrc/games/connect4.c) against independent truth.

Perft: the published counts of the Regular Games project's perft suite
(github.com/radekmie/rg, interpreter_node/src/bench.test.ts: 1, 7, 49, 343, 2401,
16807, 117649, 823536, 5673234); depth 7 is 7**7 minus the 7 sequences that overfill a
column.  Rules: OpenSpiel's connect_four and the plain-Python tests/reference/connect4.py,
move by move.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.errors import CorruptStateError, IllegalMoveError
from engine.perft import perft
from tests.games.spiel_oracle import (
    FULL,
    check_keys_on_random_games,
    compare_with_openspiel,
    compare_with_reference,
    replay,
    size,
    with_bytes,
)
from tests.reference.connect4 import Connect4

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


def test_random_games_agree_with_the_python_reference(game: engine.Game) -> None:
    stats = compare_with_reference(game, Connect4, size(60, 2000), seed=12, board_of=board_of)
    assert stats.outcomes[(1.0, 0.0)] > 0 and stats.outcomes[(0.0, 1.0)] > 0


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


def test_check_recomputes_what_the_keys_do_not_cover(game: engine.Game) -> None:
    """Winner, mover and padding are derived, outside the Zobrist keys: the debug
    check must still notice when they are wrong."""
    state = replay(game, "d d c")  # o to move, no winner
    state.check()
    offsets = {"to_move": 16, "winner": 40, "pad": 41}
    for offset, data in [
        (offsets["to_move"], (0).to_bytes(4, "little")),  # x to move after 3 plies
        (offsets["to_move"], (-2).to_bytes(4, "little", signed=True)),  # "terminal"
        (offsets["winner"], b"\x01"),
        (offsets["pad"], b"\x01"),
        (24, b"\x01\x01"),  # x on a1 and a floating b2, c1 gone: keys differ
    ]:
        with pytest.raises(CorruptStateError):
            with_bytes(state, offset, data).check()



def stones(x: int, o: int) -> bytes:
    return x.to_bytes(8, "little") + o.to_bytes(8, "little")


def cells(*names: str) -> int:
    """Bitboard of cells like "b2" (bit = column * 7 + row)."""
    return sum(1 << ((ord(n[0]) - ord("a")) * 7 + int(n[1]) - 1) for n in names)


def test_check_catches_impossible_boards_with_agreeing_keys(game: engine.Game) -> None:
    state = replay(game, "d d c")
    x, o = cells("c1", "d1"), cells("d2")
    assert state.to_bytes()[24:40] == stones(x, o)
    with_bytes(state, 24, stones(x, o), rekey=True).check()  # the rewrite itself is fine
    for bad_x, bad_o in [
        (x | cells("b2"), o),  # b2 floats over an empty b1
        (x, o | cells("d1")),  # o on x's d1 as well
        (x | 1 << 6, o),  # a stone in column a's sentinel row
        (x | cells("a1", "b1"), o),  # x two stones ahead
    ]:
        with pytest.raises(CorruptStateError):
            with_bytes(state, 24, stones(bad_x, bad_o), rekey=True).check()


def test_check_catches_a_line_without_a_winner(game: engine.Game) -> None:
    won = replay(game, "a a b b c c d")  # x: a1 b1 c1 d1
    assert won.is_terminal() and won.rewards() == (1.0, 0.0)
    with_bytes(won, 40, b"\x00").check()  # winner 0 is right
    with pytest.raises(CorruptStateError):
        with_bytes(won, 40, b"\x02").check()  # "no winner" (not part of the keys)

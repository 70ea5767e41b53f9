"""Othello (csrc/games/othello.c) against independent truth.

Perft: OEIS A124004, "number of possible Othello games after n plies" with a forced
pass counted as a ply (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288,
24571056, ...); depth 10 is the first to lose the games that end at ply 9.  Rules,
move ids and move text: OpenSpiel's othello and the plain-Python
tests/reference/othello.py, move by move.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engine
from engine.errors import CorruptStateError, IllegalMoveError
from engine.perft import perft
from tests.games.spiel_oracle import (
    FULL,
    check_keys_on_random_games,
    compare_with_openspiel,
    compare_with_reference,
    size,
    with_bytes,
)
from tests.reference.othello import Othello

PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056]
CI_DEPTH = 7
PASS = 64


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.create("othello")


def board_of(text: str) -> list[str]:
    """Ranks 1..8 (top first) from our render or OpenSpiel's ("4 - - - o x - - - 4")."""
    return ["".join(line.split()[1:9]) for line in text.splitlines() if line[:1].isdigit()]


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft_matches_oeis_a124004(game: engine.Game, depth: int) -> None:
    if depth > CI_DEPTH and not FULL:
        pytest.skip("MIAI_FULL=1 for the deeper perft")
    assert perft(game.initial_state(), depth) == PERFT[depth]


def test_random_games_agree_with_openspiel(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    stats = compare_with_openspiel(
        game,
        pyspiel.load_game("othello"),
        n_games=size(600, 10_000),
        seed=17,
        board_of=board_of,
        spiel_board_of=board_of,
    )
    assert stats.moves_seen[PASS] > 0, "no pass was exercised"
    assert len(stats.outcomes) == 3, stats.outcomes  # wins, losses and draws


def test_random_games_agree_with_the_python_reference(game: engine.Game) -> None:
    compare_with_reference(game, Othello, size(20, 1000), seed=18, board_of=board_of)


def test_move_ids_and_text_are_openspiels(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("othello").new_initial_state()
    assert game.num_moves == 65
    for action in range(65):
        assert game.move_to_text(action) == state.action_to_string(0, action)
        assert game.move_from_text(game.move_to_text(action).upper()) == action
    opening = sorted(game.move_to_text(m) for m in game.initial_state().legal_moves())
    assert " ".join(opening) == "c4 d3 e6 f5"
    for bad in ("i1", "a0", "a9", "pas", "passs", "d33"):
        with pytest.raises(engine.MiaiError):
            game.move_from_text(bad)


def random_game_where(
    game: engine.Game, seed: int, wanted: Callable[[engine.State, list[int]], bool]
) -> list[int]:
    """Moves of the first random game whose final state and moves satisfy ``wanted``."""
    rng = random.Random(seed)
    while True:
        state, moves = game.initial_state(), list[int]()
        while not state.is_terminal():
            moves.append(rng.choice(state.legal_moves()))
            state.play(moves[-1])
        if wanted(state, moves):
            return moves


def discs(state: engine.State) -> int:
    return sum(row.count("x") + row.count("o") for row in board_of(state.render()))


def test_a_player_without_a_move_passes_and_the_pass_is_a_move(game: engine.Game) -> None:
    moves = random_game_where(game, 1, lambda s, ms: PASS in ms)
    state = game.initial_state().play_all(moves[: moves.index(PASS)])
    assert state.legal_moves() == [PASS]
    before = state.copy()
    state.play("pass")
    assert board_of(state.render()) == board_of(before.render())
    assert state.to_move == 1 - before.to_move
    assert state.keys() != before.keys()  # the side to move is part of the key
    assert state.legal_moves() and PASS not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        game.initial_state().play(PASS)


def test_the_game_ends_when_neither_side_can_move(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    moves = random_game_where(game, 2, lambda s, ms: discs(s) < 64)
    ours = game.initial_state().play_all(moves)
    theirs = pyspiel.load_game("othello").new_initial_state()
    for m in moves:
        assert not theirs.is_terminal()
        theirs.apply_action(m)
    assert ours.is_terminal() and theirs.is_terminal()
    assert ours.rewards() == tuple((r + 1) / 2 for r in theirs.returns())


def test_keys_along_random_games(game: engine.Game) -> None:
    stats = check_keys_on_random_games(game, size(60_000, 600_000), seed=4)
    assert stats.transpositions > 20  # the sample really tests move-order independence


def test_transposed_move_orders_give_equal_keys(game: engine.Game) -> None:
    """Among random five-ply openings, two different lines reach one position: the
    keys must agree (and agree with the keys from scratch)."""
    seen: dict[bytes, tuple[tuple[int, int], list[int]]] = {}
    rng = random.Random(9)
    found = 0
    for _ in range(3000):
        state, line = game.initial_state(), []
        for _ in range(5):
            line.append(rng.choice(state.legal_moves()))
            state.play(line[-1])
        body = state.to_bytes()[24:]
        keys, first = seen.setdefault(body, (state.keys(), line))
        if first != line:
            assert keys == state.keys() == state.keys_from_scratch(), (first, line)
            found += 1
    assert found > 0, "no transposition among 3000 five-ply openings"


def test_check_recomputes_what_the_keys_do_not_cover(game: engine.Game) -> None:
    """Mover, ply and padding are derived or bounded, outside the Zobrist keys: the
    debug check must still notice when they are wrong."""
    state = game.initial_state().play("d3")
    state.check()
    for offset, data in [
        (16, (0).to_bytes(4, "little")),  # black to move again
        (16, (-2).to_bytes(4, "little", signed=True)),  # "terminal" with moves left
        (20, (5).to_bytes(4, "little")),  # five plies cannot have placed one disc
        (41, b"\x01"),  # padding
        (40, b"\x00"),  # the side to move changed: keys differ
    ]:
        with pytest.raises(CorruptStateError):
            with_bytes(state, offset, data).check()


def squares(*names: str) -> int:
    """Bitboard of squares like "d3" (bit = move id)."""
    return sum(1 << ((int(n[1]) - 1) * 8 + ord(n[0]) - ord("a")) for n in names)


def test_check_catches_impossible_boards_with_agreeing_keys(game: engine.Game) -> None:
    state = game.initial_state().play("d3")  # black d3 d4 d5 e4, white e5
    black, white = squares("d3", "d4", "d5", "e4"), squares("e5")
    layout = black.to_bytes(8, "little") + white.to_bytes(8, "little")
    assert state.to_bytes()[24:40] == layout
    with_bytes(state, 24, layout, rekey=True).check()  # the rewrite itself is fine
    for bad_black, bad_white in [
        (black, white | squares("d4")),  # d4 both black and white
        (black & ~squares("d4"), white),  # an empty centre square
        (black | squares("a1", "h8", "a8"), white),  # four discs in one ply
    ]:
        data = bad_black.to_bytes(8, "little") + bad_white.to_bytes(8, "little")
        with pytest.raises(CorruptStateError):
            with_bytes(state, 24, data, rekey=True).check()

"""Tic-tac-toe (csrc/games/tictactoe.c) against independent truth.

Perft: the counts of move sequences of n plies, wins ending a sequence (9, 72, 504,
3024, 15120, 54720, 148176, 200448, 127872; their sum past the last ply, 255168, is
the well-known number of tic-tac-toe games), as in the Regular Games project's perft
suite (github.com/radekmie/rg, interpreter_node/src/bench.test.ts).  Rules: OpenSpiel's
tic_tac_toe, move by move; the whole game tree is small enough to compare outright.
"""

from __future__ import annotations

import pytest

import engine
from engine.perft import perft
from tests.games.spiel_oracle import (
    check_keys_on_random_games,
    compare_with_openspiel,
    position_of,
    size,
    spiel_reward,
)

PERFT = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.create("tictactoe")


def board_of(render: str) -> list[str]:
    """Rows top first, lower case, from our render ("3 X.O")."""
    return [line.split()[1].lower() for line in render.splitlines() if line[:1].isdigit()]


def spiel_board_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line]


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft_matches_published_counts(game: engine.Game, depth: int) -> None:
    assert perft(game.initial_state(), depth) == PERFT[depth]


def test_random_games_agree_with_openspiel(game: engine.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    stats = compare_with_openspiel(
        game,
        pyspiel.load_game("tic_tac_toe"),
        n_games=size(1000, 20_000),
        seed=23,
        board_of=board_of,
        spiel_board_of=spiel_board_of,
    )
    assert len(stats.outcomes) == 3  # x wins, o wins, draws


def test_whole_game_tree_agrees_with_openspiel(game: engine.Game) -> None:
    """Every one of the 255168 games, walked in both engines at once."""
    pyspiel = pytest.importorskip("pyspiel")
    ends: dict[tuple[float, ...], int] = {}

    def walk(ours: engine.State, theirs: object) -> None:
        assert ours.is_terminal() == theirs.is_terminal()  # type: ignore[attr-defined]
        if ours.is_terminal():
            rewards = ours.rewards()
            assert rewards == tuple(spiel_reward(r) for r in theirs.returns())  # type: ignore[attr-defined]
            ends[rewards] = ends.get(rewards, 0) + 1
            return
        legal = ours.legal_moves()
        assert legal == sorted(theirs.legal_actions())  # type: ignore[attr-defined]
        for m in legal:
            walk(ours.copy().play(m), theirs.child(m))  # type: ignore[attr-defined]

    if not size(0, 1):
        pytest.skip("MIAI_FULL=1 walks the whole tree (255168 games)")
    walk(game.initial_state(), pyspiel.load_game("tic_tac_toe").new_initial_state())
    assert ends == {(1.0, 0.0): 131184, (0.0, 1.0): 77904, (0.5, 0.5): 46080}


def test_move_text_is_a_coordinate(game: engine.Game) -> None:
    texts = " ".join(game.move_to_text(m) for m in range(9))
    assert texts == "a3 b3 c3 a2 b2 c2 a1 b1 c1"  # ids are OpenSpiel's: row 0 on top


def test_keys_along_random_games(game: engine.Game) -> None:
    stats = check_keys_on_random_games(game, size(20_000, 200_000), seed=5)
    assert stats.transpositions > 1000


def test_every_reachable_position_has_its_own_key(game: engine.Game) -> None:
    """All 5478 reachable positions (published count), each reached from every parent:
    one key per position, from every move order, equal to the key from scratch; no two
    positions share a key."""
    key_of: dict[bytes, tuple[int, int]] = {}

    def visit(state: engine.State) -> None:
        pos = position_of(state)
        keys = state.keys()
        assert keys == state.keys_from_scratch()
        if pos in key_of:
            assert key_of[pos] == keys
            return
        key_of[pos] = keys
        for m in state.legal_moves():
            visit(state.copy().play(m))

    visit(game.initial_state())
    assert len(key_of) == 5478
    assert len({k for k, _ in key_of.values()}) == len({k for _, k in key_of.values()}) == 5478

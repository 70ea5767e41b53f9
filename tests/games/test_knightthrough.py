"""Knightthrough against the plain-Python reference (tests/reference/knightthrough.py)
and against hand-made positions read off the GGP rulesheet.

CI plays a few hundred random games; ``MIAI_FULL=1`` plays thousands and a deeper perft.
"""

from __future__ import annotations

import os
import random

import pytest

import engine
from engine import games
from engine.errors import IllegalMoveError
from engine.perft import perft
from tests.reference import knightthrough as ref

FULL = os.environ.get("MIAI_FULL") == "1"
N_GAMES = 3000 if FULL else 200
PERFT_DEPTH = 4 if FULL else 3


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return games.create("knightthrough")


def board_rows(state: engine.State) -> list[str]:
    return [line[2:] for line in state.render().splitlines()[:8]]


def assert_same(state: engine.State, truth: ref.Knightthrough) -> dict[str, ref.Move]:
    """Same board, mover, terminal status, outcome and legal moves; returns the legal
    moves of the reference by text."""
    assert board_rows(state) == truth.board_rows()
    assert state.ply == truth.ply
    assert state.is_terminal() == truth.is_terminal()
    if truth.is_terminal():
        assert state.legal_moves() == []
        assert state.rewards() == truth.rewards()
        return {}
    assert state.to_move == truth.control
    by_text = {ref.move_text(m): m for m in truth.legal_moves()}
    ours = [state.format_move(m) for m in state.legal_moves()]
    assert len(ours) == len(set(ours))
    assert sorted(ours) == sorted(by_text)
    return by_text


def test_random_games_agree_with_the_reference(game: engine.Game) -> None:
    rng = random.Random(77)
    seen: dict[tuple[tuple[str, ...], int], tuple[int, int]] = {}
    winners = [0, 0]
    for _ in range(N_GAMES):
        state, truth = game.initial_state(), ref.Knightthrough.initial()
        while True:
            by_text = assert_same(state, truth)
            assert state.keys() == state.keys_from_scratch()
            state.check()
            position = (tuple(truth.board_rows()), truth.control)
            assert seen.setdefault(position, state.keys()) == state.keys()
            if truth.is_terminal():
                break
            text = rng.choice(sorted(by_text))
            truth.play(by_text[text])
            state.play(text)
        winners[truth.winner()] += 1
    keys = list(seen.values())
    assert len({k[0] for k in keys}) == len(keys), "two different positions share a key"
    assert min(winners) > 0  # both sides win some random games


def test_perft_from_the_start(game: engine.Game) -> None:
    state, truth = game.initial_state(), ref.Knightthrough.initial()
    for depth in range(PERFT_DEPTH + 1):
        assert perft(state, depth) == ref.perft(truth, depth), depth


def test_perft_from_random_middle_games(game: engine.Game) -> None:
    rng = random.Random(11)
    checked = 0
    while checked < (30 if FULL else 6):
        state, truth = game.initial_state(), ref.Knightthrough.initial()
        target = rng.randrange(6, 30)
        while not truth.is_terminal() and truth.ply < target:
            move = rng.choice(truth.legal_moves())
            truth.play(move)
            state.play(ref.move_text(move))
        if truth.is_terminal():
            continue
        assert perft(state, 3) == ref.perft(truth, 3)
        checked += 1


# Hand-made positions: expectations read off the rulesheet's rules, not computed.


def moves_from(state: engine.State, square: str) -> set[str]:
    return {t[2:] for t in map(state.format_move, state.legal_moves()) if t[:2] == square}


def test_initial_moves_follow_whiteknightmove(game: engine.Game) -> None:
    state = game.initial_state()
    assert state.to_move == 0  # (init (control white))
    # Edge knights: h2 has (x-2, y+1) = f3 and (x-1, y+2) = g4 only.
    assert moves_from(state, "h2") == {"f3", "g4"}
    assert moves_from(state, "a2") == {"c3", "b4"}
    # Back-rank knights: the (x±2, y+1) targets hold own pieces, which is illegal.
    assert moves_from(state, "a1") == {"b3"}
    assert moves_from(state, "d1") == {"c3", "e3"}
    assert moves_from(state, "d2") == {"b3", "f3", "c4", "e4"}
    assert len(state.legal_moves()) == 2 * 1 + 6 * 2 + 2 * 2 + 2 * 3 + 4 * 4
    with pytest.raises(IllegalMoveError):
        state.play("a1c2")  # onto an own piece
    with pytest.raises(IllegalMoveError):
        state.play("a7b5")  # black's move, white's turn


def test_black_moves_down(game: engine.Game) -> None:
    state = game.initial_state().play("d2e4")
    assert state.to_move == 1
    assert moves_from(state, "g8") == {"f6", "h6"}
    assert moves_from(state, "b7") == {"d6", "a5", "c5"}


def test_capture_and_win_by_reaching_the_last_rank(game: engine.Game) -> None:
    state = game.initial_state().play_all(["d2e4", "g8f6"])
    assert moves_from(state, "e4") == {"c5", "g5", "d6", "f6"}  # f6 holds black: capture
    state.play("e4f6")
    rows = board_rows(state)
    assert rows[2] == ".....W.."  # rank 6: the white knight replaced the black one
    assert rows[0] == "BBBBBB.B"
    assert sum(row.count("B") for row in rows) == 15
    assert not state.is_terminal()
    # From f6: d7 and h7 hold black pieces (captures), e8 too; g8 is empty.
    state.play("a7b5")
    assert moves_from(state, "f6") == {"d7", "h7", "e8", "g8"}
    state.play("f6g8")
    assert state.is_terminal()  # whitewin: (cell ?x 8 white)
    assert state.rewards() == (1.0, 0.0)
    assert state.legal_moves() == []


def test_black_wins_on_rank_one(game: engine.Game) -> None:
    state = game.initial_state().play_all(["a2b4", "e7d5", "b4a6", "d5c3"])
    # d5c3 lands on an empty square of rank 3; from c3 black reaches rank 1 next.
    assert moves_from(state.play("h2g4"), "c3") == {"a2", "e2", "b1", "d1"}
    state.play("c3b1")
    assert state.is_terminal()  # blackwin: (cell ?x 1 black)
    assert state.rewards() == (0.0, 1.0)


def test_transposed_move_orders_give_equal_keys(game: engine.Game) -> None:
    a = game.initial_state().play_all(["b1c3", "b8c6", "g1f3", "g8f6"])
    b = game.initial_state().play_all(["g1f3", "g8f6", "b1c3", "b8c6"])
    assert a.to_bytes() == b.to_bytes() and a.keys() == b.keys()
    c = game.initial_state().play_all(["b1c3", "b8c6", "g1f3"])
    assert c.keys() != a.keys()


def test_fast_playouts_match_the_reference_statistics(game: engine.Game) -> None:
    """The C playout op is uniform random play: the mean game length agrees with the
    reference's random games (z-score < 5)."""
    n_ours, n_ref = 20000, 150 if not FULL else 1500
    run = engine.playout_run(game.initial_state(), n_ours, seed=4)
    rng = random.Random(8)
    lengths = []
    for _ in range(n_ref):
        truth = ref.Knightthrough.initial()
        while not truth.is_terminal():
            truth.play(rng.choice(truth.legal_moves()))
        lengths.append(truth.ply)
    mean = sum(lengths) / n_ref
    var = sum((x - mean) ** 2 for x in lengths) / (n_ref - 1)
    se = (var / n_ref + var / n_ours) ** 0.5
    assert abs(run.plies / n_ours - mean) < 5 * se

"""Hex (csrc/games/hex.c) against OpenSpiel's ``hex`` (num_rows = num_cols = size, swap off:
OpenSpiel's default), which has our action ids, our move text and our roles: role 0 (x)
first, joining the top and bottom rows.

Hand-made positions are replayed in OpenSpiel too.  The playout op is checked against the
exact outcome of uniformly random play on small boards, computed from the Hex theorem:
random play ends with the winner of a uniformly random full board.

MIAI_FULL=1 plays ten times as many random games.
"""

from __future__ import annotations

import itertools
import math
import os
import random

import pyspiel
import pytest

import engine
from engine import games
from engine.errors import IllegalMoveError, InvalidArgumentError
from engine.perft import perft

FULL = os.environ.get("MIAI_FULL") == "1"
SCALE = 10 if FULL else 1
GAMES = {2: 100, 3: 100, 5: 100, 7: 80, 11: 60, 19: 30}  # CI size, x10 with MIAI_FULL=1


def openspiel_game(size: int) -> pyspiel.Game:
    return pyspiel.load_game("hex", {"num_rows": size, "num_cols": size})


def as_rewards(returns: list[float]) -> tuple[float, float]:
    return ((returns[0] + 1) / 2, (returns[1] + 1) / 2)


@pytest.mark.parametrize("size", sorted(GAMES))
def test_matches_openspiel_along_random_games(size: int) -> None:
    game = games.create("hex", size=size)
    oracle = openspiel_game(size)
    rng = random.Random(size)
    winners = set()
    for _ in range(GAMES[size] * SCALE):
        state, theirs = game.initial_state(), oracle.new_initial_state()
        while True:
            assert state.is_terminal() == theirs.is_terminal(), state.render()
            if state.is_terminal():
                break
            assert state.to_move == theirs.current_player()
            moves = state.legal_moves()
            assert moves == theirs.legal_actions()
            move = rng.choice(moves)
            assert state.format_move(move) == theirs.action_to_string(move)
            state.play(move)
            theirs.apply_action(move)
        assert state.rewards() == as_rewards(theirs.returns())
        winners.add(state.rewards())
    assert winners == {(1.0, 0.0), (0.0, 1.0)}  # no draws, and both sides win some


def openspiel_perft(state: pyspiel.State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(openspiel_perft(state.child(a), depth - 1) for a in state.legal_actions())


def test_perft_matches_openspiel_where_games_end() -> None:
    """3x3: x can win from ply 5 on, so depths 5-7 count ended games out."""
    start = games.create("hex", size=3).initial_state()
    theirs = openspiel_game(3).new_initial_state()
    for depth in range(1, 8 if FULL else 7):
        assert perft(start, depth) == openspiel_perft(theirs, depth)


def replay(size: int, moves: list[str]) -> games.State:
    """Play `moves` here and in OpenSpiel; the game may end only after the last one."""
    state = games.create("hex", size=size).initial_state()
    theirs = openspiel_game(size).new_initial_state()
    for i, text in enumerate(moves):
        assert not state.is_terminal(), f"ended before move {i} {text}:\n{state.render()}"
        move = state.parse_move(text)
        state.play(move)
        theirs.apply_action(move)
        assert state.is_terminal() == theirs.is_terminal()
    if state.is_terminal():
        assert state.rewards() == as_rewards(theirs.returns())
    return state


def interleave(xs: list[str], os_: list[str]) -> list[str]:
    """x plays xs, o answers with os_ (one fewer when x moves last)."""
    out = []
    for i, x in enumerate(xs):
        out.append(x)
        if i < len(os_):
            out.append(os_[i])
    return out


X_WINS, O_WINS = (1.0, 0.0), (0.0, 1.0)


def test_winning_chain_along_an_edge() -> None:
    state = replay(5, interleave(["a1", "a2", "a3", "a4", "a5"], ["e1", "e2", "e3", "e4"]))
    assert state.rewards() == X_WINS and state.legal_moves() == []


def test_o_joins_left_and_right_along_the_bottom_edge() -> None:
    moves = interleave(["a1", "b1", "c1", "d1", "e1"], ["a5", "b5", "c5", "d5", "e5"])
    state = replay(5, moves)
    assert state.rewards() == O_WINS


def test_chain_that_nearly_connects_then_goes_round_a_block() -> None:
    moves = interleave(["a1", "a2", "a3", "a4"], ["e1", "e2", "e3", "a5"])
    state = replay(5, moves)
    assert not state.is_terminal()  # a4 is one row short and a5 is o's
    state = replay(5, [*moves, "b4", "e4", "b5"])
    assert state.rewards() == X_WINS


def test_neighbours_run_along_the_anti_diagonal_only() -> None:
    """(r, c) touches (r+1, c-1), not (r+1, c+1): the main diagonal is no chain."""
    diagonal = replay(5, interleave(["a1", "b2", "c3", "d4", "e5"], ["b1", "c1", "d1", "e1"]))
    assert not diagonal.is_terminal()
    anti = replay(5, interleave(["e1", "d2", "c3", "b4", "a5"], ["a1", "a2", "a3", "a4"]))
    assert anti.rewards() == X_WINS


@pytest.mark.parametrize(
    ("moves", "rewards"),
    [
        (["b1", "a1", "b2"], X_WINS),  # b1-b2 joins top and bottom
        (["b1", "b2", "a2"], X_WINS),  # b1-a2 are neighbours
        (["a1", "a2", "b1", "b2"], O_WINS),  # o's bottom row joins left and right
        (["a1", "b1", "b2", "a2"], O_WINS),  # b1-a2 joins o's columns; a1-b2 does not touch
    ],
)
def test_size_two(moves: list[str], rewards: tuple[float, float]) -> None:
    state = replay(2, moves)
    assert state.rewards() == rewards


def test_size_nineteen_corners_and_edges() -> None:
    game = games.create("hex", size=19)
    assert [game.move_from_text(t) for t in ("a1", "s1", "a19", "s19", "S19")] == [
        0, 18, 342, 360, 360,
    ]
    for bad in ("t1", "a20", "a0", "a01", "s", "1a", "a1x", "aa1"):
        with pytest.raises(InvalidArgumentError):
            game.move_from_text(bad)
    right_column = [f"s{r}" for r in range(1, 20)]
    left_column = [f"a{r}" for r in range(1, 19)]
    state = replay(19, interleave(right_column, left_column))
    assert state.rewards() == X_WINS and state.ply == 37
    bottom_row = [f"{chr(ord('a') + c)}19" for c in range(19)]
    top_rows = [f"{chr(ord('a') + c)}{1 + c % 2}" for c in range(19)]
    state = replay(19, interleave(top_rows, bottom_row))
    assert state.rewards() == O_WINS and state.ply == 38


def test_illegal_moves() -> None:
    state = games.create("hex", size=3).initial_state()
    state.play("b2")
    with pytest.raises(IllegalMoveError):
        state.play("b2")
    with pytest.raises(InvalidArgumentError):
        state.play(9)


def test_render_is_a_rhombus() -> None:
    state = games.create("hex", size=3).initial_state()
    state.play_all(["a1", "c3"])
    rows = state.render().splitlines()
    assert rows[0].split() == ["a", "b", "c"]
    assert rows[1:4] == [" 1  x . .", "  2  . . .", "   3  . . o"]
    assert rows[4].startswith("x to move")


def x_win_probability_of_random_play(size: int) -> float:
    """Exact: the fraction of full boards (x holding ceil(n^2 / 2) cells, uniformly) where x
    joins top and bottom.  Neighbours written out here from the board picture."""
    cells = [(r, c) for r in range(size) for c in range(size)]
    n_x = (size * size + 1) // 2
    wins = total = 0
    for xs in itertools.combinations(cells, n_x):
        stones = set(xs)
        todo = [cell for cell in stones if cell[0] == 0]
        seen = set(todo)
        while todo:
            r, c = todo.pop()
            for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)):
                nxt = (r + dr, c + dc)
                if nxt in stones and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        wins += any(r == size - 1 for r, _ in seen)
        total += 1
    return wins / total


@pytest.mark.parametrize("size", [2, 3, 4])
def test_playouts_follow_uniformly_random_play(size: int) -> None:
    exact = x_win_probability_of_random_play(size)
    n = 20000
    run = engine.playout_run(games.create("hex", size=size).initial_state(), n, seed=11)
    sigma = math.sqrt(exact * (1 - exact) / n)
    assert abs(run.mean_rewards[0] - exact) < 5 * sigma
    assert run.mean_rewards[0] + run.mean_rewards[1] == pytest.approx(1.0)

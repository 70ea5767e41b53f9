"""Havannah (csrc/games/havannah.c) against two independent truths.

- OpenSpiel's ``havannah`` (board_size = base; swap off and ansi_color_output off, its
  defaults).  Its rules match ours: role 0 first, rings around any cells, bridges between
  two corners, forks of three sides with corners excluded, a full board a draw.  Action
  ids differ (OpenSpiel numbers the (2b-1)^2 square, we number only the cells), so moves
  are compared through their text, which is the same ("a1" = x 0, y 0).
- The plain-Python reference in tests/reference/havannah.py, which recomputes every win
  from the whole board (rings by flooding the complement from the outside).

MIAI_FULL=1 plays ten times as many random games.
"""

from __future__ import annotations

import os
import random

import pyspiel
import pytest

from engine import games
from engine.errors import IllegalMoveError, InvalidArgumentError
from tests.reference import havannah as ref

FULL = os.environ.get("MIAI_FULL") == "1"
SCALE = 10 if FULL else 1
# Random games per base against each oracle (CI size; x10 with MIAI_FULL=1).
GAMES_OPENSPIEL = {4: 80, 5: 50, 8: 14, 10: 8}
GAMES_REFERENCE = {4: 60, 5: 40, 8: 10, 10: 5}


def kinds_of(state: games.State) -> set[str]:
    """The win kinds the C game reports (the last line of its render)."""
    last = state.render().splitlines()[-1]
    if " wins by " not in last:
        return set()
    return set(last.split(" wins by ")[1].split())


@pytest.mark.parametrize("base", sorted(GAMES_OPENSPIEL))
def test_matches_openspiel_along_random_games(base: int) -> None:
    game = games.create("havannah", size=base)
    oracle = pyspiel.load_game("havannah", {"board_size": base})
    rng = random.Random(base)
    outcomes = set()
    for _ in range(GAMES_OPENSPIEL[base] * SCALE):
        state, theirs = game.initial_state(), oracle.new_initial_state()
        while True:
            assert state.is_terminal() == theirs.is_terminal(), state.render()
            if state.is_terminal():
                break
            assert state.to_move == theirs.current_player()
            ours = state.legal_moves()
            actions = theirs.legal_actions()
            assert [state.format_move(m) for m in ours] == [
                theirs.action_to_string(a) for a in actions
            ]
            i = rng.randrange(len(ours))
            state.play(ours[i])
            theirs.apply_action(actions[i])
        returns = theirs.returns()
        assert state.rewards() == ((returns[0] + 1) / 2, (returns[1] + 1) / 2)
        outcomes.add(state.rewards())
    if base <= 5:
        assert len(outcomes) >= 2  # both players won some games


@pytest.mark.parametrize("base", sorted(GAMES_REFERENCE))
def test_matches_reference_along_random_games(base: int) -> None:
    game = games.create("havannah", size=base)
    rng = random.Random(100 + base)
    seen_kinds: set[str] = set()
    for _ in range(GAMES_REFERENCE[base] * SCALE):
        state, theirs = game.initial_state(), ref.Game(base)
        while True:
            assert state.is_terminal() == theirs.over, state.render()
            if theirs.over:
                break
            legal = [theirs.board.text(c) for c in theirs.legal()]
            assert [state.format_move(m) for m in state.legal_moves()] == legal
            move = rng.choice(legal)
            state.play(move)
            theirs.play(theirs.board.parse(move))
        assert state.rewards() == theirs.rewards()
        assert kinds_of(state) == theirs.win_kinds
        seen_kinds |= theirs.win_kinds
    if base == 5:  # where random games end in each kind of win often enough
        assert seen_kinds == {"ring", "bridge", "fork"}


# A random base-4 game that fills the board without a win (found by random search).
DRAWN_TEXT = """a4 g4 f3 e7 d7 g6 c1 d6 b2 d5 g7 a2 b3 b1 e2 e5 a3 c4 e4 a1 f4 d1 c3 b4 e3
    d3 e6 f7 f6 b5 c2 c5 c6 d4 g5 d2 f5"""
DRAWN = DRAWN_TEXT.split()


def test_draw_on_a_full_board() -> None:
    state = replay(4, DRAWN)
    assert state.ply == state.game.num_moves == 37
    assert state.is_terminal() and state.rewards() == (0.5, 0.5)
    assert kinds_of(state) == set()
    assert "draw" in state.render()


# Hand-made positions.  X (role 0) plays `xs` in order while O answers with `os`; the
# game must go on until X's last stone and then have exactly the expected outcome.


def play_out(base: int, xs: list[str], os_: list[str]) -> games.State:
    assert len(os_) >= len(xs) - 1, "O needs an answer to each X move but the last"
    moves = [m for pair in zip(xs, os_[: len(xs) - 1], strict=False) for m in pair]
    return replay(base, moves + xs[len(xs) - 1 :])


def replay(base: int, moves: list[str]) -> games.State:
    """Play `moves`; ours, OpenSpiel and the reference must agree on the end after each;
    the game may end only after the last move."""
    state = games.create("havannah", size=base).initial_state()
    oracle = pyspiel.load_game("havannah", {"board_size": base}).new_initial_state()
    reference = ref.Game(base)
    for i, text in enumerate(moves):
        assert not state.is_terminal(), f"ended early, before {text}: {state.render()}"
        state.play(text)
        oracle.apply_action(next(a for a in oracle.legal_actions()
                                 if oracle.action_to_string(a) == text))
        reference.play(reference.board.parse(text))
        assert state.is_terminal() == oracle.is_terminal() == reference.over, i
    if state.is_terminal():
        returns = oracle.returns()
        assert state.rewards() == reference.rewards() == ((returns[0] + 1) / 2,
                                                          (returns[1] + 1) / 2)
        assert kinds_of(state) == reference.win_kinds
    return state


def assert_x_wins_by(state: games.State, kinds: set[str]) -> None:
    assert state.is_terminal()
    assert state.rewards() == (1.0, 0.0)
    assert kinds_of(state) == kinds


# Base 5: the centre is e5 = (4, 4); its neighbours, in circular order.
CENTRE = "e5"
AROUND_CENTRE = ["d4", "e4", "f5", "f6", "e6", "d5"]
# O's quiet answers: scattered cells far from the centre that never join up.
FAR = ["a1", "c1", "e1", "a3", "i9", "g9", "e9", "i7", "a5"]


def test_ring_around_an_empty_cell() -> None:
    state = play_out(5, AROUND_CENTRE, FAR)
    assert_x_wins_by(state, {"ring"})
    assert state.legal_moves() == []


def test_ring_around_an_enemy_stone() -> None:
    state = play_out(5, AROUND_CENTRE, [CENTRE, *FAR])
    assert_x_wins_by(state, {"ring"})


def test_ring_around_an_own_stone() -> None:
    """Seven X stones in a flower: the outer six still enclose the centre."""
    state = play_out(5, [CENTRE, *AROUND_CENTRE], FAR)
    assert_x_wins_by(state, {"ring"})


def test_ring_completed_in_its_middle_around_two_cells() -> None:
    """An eight-stone ring around e5 and f5 = (5, 4); the last stone is not a corner of it."""
    ring = ["d4", "e4", "f4", "g5", "g6", "f6", "e6", "d5"]
    state = play_out(5, ring, FAR)
    assert_x_wins_by(state, {"ring"})


@pytest.mark.parametrize(
    "blob",
    [
        ["e5", "f5", "f6"],  # a triangle: a cycle of three stones around no cell
        ["e5", "f5", "e6", "f6"],  # a rhombus: a cycle of four around no cell
        ["e5", "f5", "g5", "f6", "g6", "h6"],  # a two-row parallelogram of six
        ["d4", "e4", "f5", "f6", "e6"],  # five of the six around e5: open ring
        ["d4", "e4", "f5", "f6", "e6", "c4", "c5"],  # open: d5 and e5 escape by d6
    ],
)
def test_blobs_and_open_rings_are_not_rings(blob: list[str]) -> None:
    state = play_out(5, blob, FAR)
    assert not state.is_terminal()
    assert kinds_of(state) == set()


def test_ring_along_the_board_edge_needs_a_closed_loop() -> None:
    """Stones against the rim enclose nothing: the outside of the board is open."""
    # Around a1 = (0, 0) a chain b1, b2, a2 cuts a1 off only together with the rim.
    state = play_out(5, ["b1", "b2", "a2"], FAR[3:])
    assert not state.is_terminal()


def test_bridge_between_two_corners() -> None:
    """Base 4: a1 and d1 are corners, b1 and c1 the side between them."""
    state = play_out(4, ["a1", "b1", "c1", "d1"], ["a4", "c6", "g7"])
    assert_x_wins_by(state, {"bridge"})


def test_fork_of_three_sides() -> None:
    """Base 5: b1 on the top side, b6 on the lower-left side, then a3 on the left side."""
    chain = ["b1", "b2", "b3", "b4", "b5", "b6", "a3"]
    state = play_out(5, chain, ["i9", "g9", "e9", "i7", "g5", "h6"])
    assert_x_wins_by(state, {"fork"})


def test_a_corner_is_not_a_side() -> None:
    """Base 4: a group on the top side (b1), the left side (a2, a3) and the corner a4
    (between the left and the lower-left sides) has two sides and one corner: no win.
    One stone on the lower-left side (b5) makes the fork."""
    group = ["a2", "a3", "a4", "b2", "b1"]
    state = play_out(4, group, ["g7", "e7", "g5", "d7"])
    assert not state.is_terminal()
    state.play("g4")  # O's quiet move
    state.play("b5")
    assert_x_wins_by(state, {"fork"})


def test_geometry_and_text() -> None:
    for base in range(4, 11):
        game = games.create("havannah", size=base)
        board = ref.Board(base)
        assert game.num_moves == 3 * base * (base - 1) + 1 == len(board.cells)
        texts = [game.move_to_text(m) for m in range(game.num_moves)]
        assert texts == [board.text(c) for c in board.cells]
        assert len(board.corners) == 6 and len(set(board.side_of.values())) == 6
    game = games.create("havannah", size=8)
    assert game.move_from_text("a1") == 0
    assert game.move_from_text("H1") == 7
    for bad in ("i1", "a9", "o15x", "a0", "a16", "p1", "a01", "1a", "h"):
        with pytest.raises(InvalidArgumentError):
            game.move_from_text(bad)
    state = game.initial_state()
    state.play("a1")
    with pytest.raises(IllegalMoveError):
        state.play("a1")


def test_render_is_a_hexagon() -> None:
    state = games.create("havannah", size=4).initial_state()
    state.play_all(["a1", "d4"])
    rows = state.render().splitlines()
    assert rows[0].split() == ["a", "b", "c", "d"]
    cells = [r.split()[1:] for r in rows[1:8]]
    counts = [sum(tok in ".XO" for tok in row) for row in cells]
    assert counts == [4, 5, 6, 7, 6, 5, 4]
    assert rows[1].split()[:2] == ["1", "X"]
    assert rows[4].split()[4] == "O"  # d4 = (3, 3) is the fourth cell of row 4
    assert rows[-1] == "X to move"

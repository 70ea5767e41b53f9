"""The reference prover against independent truths: miai's C Tic-tac-toe, OpenSpiel's
Connect Four and Breakthrough, and hand-checked facts of the packaged rulesheets."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine import games
from engine.errors import GameOverError, IllegalMoveError, StateError
from engine.gdl.parser import parse_term
from engine.gdl.prover_game import ProverGame
from engine.gdl.sheets import PACKAGED

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "gdl"
FULL = os.environ.get("MIAI_FULL") == "1"


def cell_of(text: str) -> int:
    """(place r c) / (play r c m) -> C tictactoe cell id (row-major from the top)."""
    term = parse_term(text)
    return (int(term[1]) - 1) * 3 + int(term[2]) - 1


@pytest.mark.parametrize("sheet", [OWN / "tictactoe.kif", PACKAGED / "tictactoe.kif"],
                         ids=["own", "packaged"])
def test_tictactoe_matches_the_c_game(sheet: Path) -> None:
    gdl = ProverGame(sheet.read_text())
    c_game = games.create("tictactoe")
    rng = random.Random(5)
    for _ in range(60 if FULL else 12):
        g, c = gdl.initial_state(), c_game.initial_state()
        while not c.is_terminal():
            assert g.to_move == c.to_move
            moves = {cell_of(m): m for m in g.legal_moves()}
            assert sorted(moves) == sorted(c.legal_moves())
            cell = rng.choice(sorted(moves))
            g.play(moves[cell])
            c.play(cell)
        assert g.is_terminal()
        assert g.rewards() == c.rewards()


def test_connect4_matches_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("connect_four")
    gdl = ProverGame((OWN / "connect4.kif").read_text())
    rng = random.Random(11)
    for _ in range(10 if FULL else 2):
        g, s = gdl.initial_state(), spiel.new_initial_state()
        while not s.is_terminal():
            assert g.to_move == s.current_player()
            moves = {int(parse_term(m)[1]) - 1: m for m in g.legal_moves()}
            assert sorted(moves) == s.legal_actions()
            a = rng.choice(s.legal_actions())
            g.play(moves[a])
            s.apply_action(a)
        assert g.is_terminal()
        assert g.rewards() == tuple((r + 1) / 2 for r in s.returns())


def test_breakthrough_opening_matches_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("breakthrough").new_initial_state()
    gdl = ProverGame((PACKAGED / "breakthrough.kif").read_text()).initial_state()
    assert len(gdl.legal_moves()) == len(spiel.legal_actions()) == 22


def test_simultaneous_and_single_player_sheets() -> None:
    roshambo = ProverGame((PACKAGED / "roshambo2.kif").read_text()).initial_state()
    assert roshambo.to_move == games.SIMULTANEOUS
    with pytest.raises(StateError):
        roshambo.play(roshambo.legal_moves(0)[0])
    hanoi = ProverGame((PACKAGED / "hanoi.kif").read_text()).initial_state()
    assert hanoi.to_move == 0 and hanoi.legal_moves()


def test_moves_are_checked_and_case_insensitive() -> None:
    state = ProverGame((OWN / "tictactoe.kif").read_text()).initial_state()
    with pytest.raises(IllegalMoveError):
        state.play("(place 4 4)")
    state.play("( PLACE 2\n2 )")
    assert "(cell 2 2 x)" in state.true_facts()
    for m in ["(place 1 1)", "(place 1 2)", "(place 1 3)", "(place 3 2)"]:
        state.play(m)
    assert state.is_terminal() and state.rewards() == (1.0, 0.0)  # x holds column 2
    with pytest.raises(GameOverError):
        state.play("(place 1 1)")


ZERO_ARITY = """
(role r) (init (pos 1))
(<= (legal r (go ?n)) (true (pos ?m)) (succ ?m ?n))
(<= (legal r stay) (true (pos ?m)))
(succ 1 2) (succ 2 3) (wall 2)
(<= (collision) (does r (go ?n)) (wall ?n))
(<= (next (pos ?n)) (does r (go ?n)) (not (collision)))
(<= (next (pos ?m)) (true (pos ?m)) (collision))
(<= (next (pos ?m)) (true (pos ?m)) (does r stay))
(<= (next bumped) (collision))
(<= terminal (true (pos 3)))
(<= (goal r 100) (true (pos 3)))
(<= (goal r 0) (not (true (pos 3))))
"""


def test_relation_written_with_parentheses_and_no_argument() -> None:
    """``(collision)`` (wallmaze.kif writes it so) is a relation like any other: going
    into the wall at 2 is a collision, which keeps the position and sets bumped."""
    s = ProverGame(ZERO_ARITY).initial_state()
    assert sorted(s.legal_moves()) == ["(go 2)", "stay"]
    s.play("(go 2)")
    assert s.true_facts() == ["(pos 1)", "bumped"]
    s.play("stay")
    assert s.true_facts() == ["(pos 1)"]


# Sheets with recursive relations that do not depend on the state (arithmetic tables,
# orders): the prover evaluates those once, semi-naively.  CI: the ones whose naive
# iteration takes under a second; MIAI_FULL=1 adds checkers (6 s naive) and
# ad_game_2x2 (8 s).  colonelBlotto and kalaha_2009 took over a minute naive (hours
# for colonelBlotto's 5,151 sums): their tables are checked through the propnet, which
# grounds them independently (tests/gdl/test_gdl_propnet.py, MIAI_FULL=1).
STATIC_RECURSIVE = ["bidding-tictactoe.kif", "chomp.kif", "guess.kif", "hanoi.kif"]
STATIC_RECURSIVE_FULL = ["checkers.kif", "ad_game_2x2.kif"]


@pytest.mark.parametrize("name", STATIC_RECURSIVE + (STATIC_RECURSIVE_FULL if FULL else []))
def test_semi_naive_static_facts_equal_naive_iteration(name: str) -> None:
    """The static facts of the prover (semi-naive over each recursive component)
    against plain naive iteration of every rule until nothing is new."""
    from engine.gdl.checks import load_program
    from engine.gdl.prover import Prover, _Facts

    program = load_program((PACKAGED / name).read_text())
    prover = Prover(program)
    static = [[n for n in comp if n not in program.dynamic] for comp in program.components]
    assert any(n in program.recursive for comp in static for n in comp)
    naive = _Facts()
    prover._run([comp for comp in static if comp], naive, naive)
    assert {k: set(v) for k, v in prover._static.atoms.items()} == \
           {k: set(v) for k, v in naive.atoms.items()}


def test_colonel_blotto_sums_are_built_in_seconds() -> None:
    """colonelBlotto's ``sum`` over 0..100 (5,151 facts) and ``gt`` (955), which naive
    iteration took hours to build: every sum x + y = z <= 100 and no other, every
    a > b of 0..100 with a - b in 1..10."""
    from engine.gdl.prover import prover_for

    prover = prover_for((PACKAGED / "colonelBlotto.kif").read_text())
    sums = {tuple(int(x) for x in a[1:]) for a in prover._static.atoms["sum"]}
    assert sums == {(x, y, x + y) for x in range(101) for y in range(101) if x + y <= 100}
    gts = {tuple(int(x) for x in a[1:]) for a in prover._static.atoms["gt"]}
    assert gts == {(a, b) for a in range(101) for b in range(101) if 1 <= a - b <= 10}

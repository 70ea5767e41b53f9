"""Rule decomposition (engine/gdl/decompose.py, chosen in engine/gdl/ground.py)
against the reference prover, which reads the original rules:

- every candidate decomposition of every dynamic rule, put in place of the rule, gives
  a program the prover answers the same for (legal moves, next states, terminal,
  goals) along random games: the rewrite itself is sound;
- grounded with every candidate taken (the cost test switched off), the propnet agrees
  with the prover on the original rules: the grounder's aux relations (static or
  dynamic, in a recursive component) are sound;
- quarto, the rule shape it is for, grounds into a small net (260 k nodes before).

tests/gdl/attributes.kif is written for this: constants and compound terms in the
head of an unfolded relation, negation and ``distinct`` in eliminated parts, recursion.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import engine.gdl.ground as grounder
from engine.gdl.checks import Program, analyse, load_program
from engine.gdl.decompose import Splitter
from engine.gdl.game import DEFAULT_MAX_PLIES, BuildInfo, GdlGame, compile_propnet, load
from engine.gdl.propnet import build
from engine.gdl.prover import Prover
from engine.gdl.prover_game import ProverGame
from engine.gdl.sheets import PACKAGED
from engine.gdl.terms import Rule, name_of
from tests.helpers.gdl import compare_random_game

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "gdl" / "attributes.kif"
FULL = os.environ.get("MIAI_FULL") == "1"

# Sheets whose dynamic rules have candidates, with a prover fast enough for CI.
CI_SHEETS = ["roshambo2.kif", "connectFour.kif", "bidding-tictactoe.kif",
             "gt_prisoner.kif", "nim1.kif", "hanoi.kif", "switches.kif", "blocker.kif",
             "3pConnectFour.kif", "tictactoe_3player.kif"]
FULL_SHEETS = ["quarto.kif", "eightPuzzle.kif", "sheep_and_wolf.kif", "pentago.kif",
               "peg.kif", "minichess.kif", "queens.kif", "conn4.kif", "smallest_4player.kif",
               "pacman3p.kif", "battle.kif"]


def _text(name: str) -> str:
    return OWN.read_text() if name == "attributes" else (PACKAGED / name).read_text()


def rewritten(program: Program, pick: int, moves: bool = False) -> tuple[Program, int]:
    """The program with each dynamic rule replaced by its candidate number ``pick``
    (its last when it has fewer), and how many rules were replaced.  ``moves``: parts
    holding a ``does`` may be split off too."""
    splitter = Splitter(program, moves)
    rules: list[Rule] = []
    aux: dict[str, Rule] = {}
    replaced = 0
    for rule in program.rules:
        found = splitter.candidates(rule) if name_of(rule.head) in program.dynamic else []
        if not found:
            rules.append(rule)
            continue
        top, names = found[min(pick, len(found) - 1)]
        rules.append(top)
        aux.update((n, splitter.rules[n]) for n in names)
        replaced += 1
    return analyse(rules + list(aux.values())), replaced


def same_answers(a: Prover, b: Prover, rng: random.Random, games: int,
                 max_plies: int) -> None:
    """Random games on ``a``; ``b`` answers every question the same."""
    for _ in range(games):
        state = a.initial_state()
        assert b.initial_state() == state
        for _ in range(max_plies):
            legal = a.all_legal(state)
            assert [sorted(m) for m in b.all_legal(state)] == [sorted(m) for m in legal]
            terminal = a.is_terminal(state)
            assert b.is_terminal(state) == terminal
            if terminal:
                assert b.goals(state) == a.goals(state)
                break
            joint = [rng.choice(m) for m in legal]
            after = a.next_state(state, joint)
            assert b.next_state(state, joint) == after
            state = after


@pytest.mark.parametrize("moves", [False, True])
@pytest.mark.parametrize("name", ["attributes", *CI_SHEETS, *FULL_SHEETS])
def test_every_candidate_keeps_the_game(name: str, moves: bool) -> None:
    if name in FULL_SHEETS and not FULL:
        pytest.skip("the prover is slow on this sheet: run with MIAI_FULL=1")
    program = load_program(_text(name))
    original = Prover(program)
    for pick in (0, 1):
        changed, replaced = rewritten(program, pick, moves)
        assert replaced > 0, "the sheet has no candidate to check"
        same_answers(original, Prover(changed), random.Random(f"{name}{pick}"),
                     50 if FULL else 5, 200 if FULL else 40)


@pytest.mark.parametrize("name", ["attributes", *CI_SHEETS[:4], *FULL_SHEETS])
def test_forced_decomposition_agrees_with_the_prover(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rule with a candidate grounded decomposed, whatever it costs."""
    if name in FULL_SHEETS and not FULL:
        pytest.skip("the prover is slow on this sheet: run with MIAI_FULL=1")
    monkeypatch.setattr(grounder, "SPLIT_GAIN", 1e-9)
    text = _text(name)
    game = load(text, name=name[:24])
    program = load_program(text)
    splitter = Splitter(program)
    whole = grounder.Grounder(program, split=False)
    whole.fixpoint()

    def fires(rule: Rule) -> bool:  # has ground instances (else nothing to split)
        return bool(whole.join(grounder._plan(rule.body, None, whole.dynamic), None, False))
    expected = sum(1 for r in program.rules if name_of(r.head) in program.dynamic
                   and splitter.candidates(r) and fires(r))
    assert game.info.stats["split_rules"] == expected
    oracle = ProverGame(text, name=name)
    rng = random.Random(name)
    for _ in range(50 if FULL else 5):
        compare_random_game(game, oracle, rng, 100_000 if FULL else 40)


# Sheets whose grounding with the joint move split off too has fewer ground literals.
MOVES_SPLIT_SHEETS = ["smallest_4player.kif", "chomp.kif", "tictactoe_3player.kif",
                      "bidding-tictactoe.kif", "roshambo2.kif", "nim1.kif"]


@pytest.mark.parametrize("name", [*MOVES_SPLIT_SHEETS, "connectFour.kif"])
def test_a_big_grounding_is_tried_with_the_joint_move_split(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every grounding counted as too big for the differential engine: the second
    try, with the parts holding a ``does`` split off too, is kept where it has fewer
    ground literals (not on connectFour: the same), and agrees with the prover."""
    monkeypatch.setattr(grounder, "MOVE_SPLIT_INSTANCES", 0)
    text = _text(name)
    game = load(text, name=name[:24])
    assert game.info.stats["moves_split"] == (name in MOVES_SPLIT_SHEETS)
    oracle = ProverGame(text, name=name)
    rng = random.Random(name)
    for _ in range(50 if FULL else 5):
        compare_random_game(game, oracle, rng, 100_000 if FULL else 40)


@pytest.mark.slow
def test_kalaha_grounds_small_enough_for_the_differential_engine() -> None:
    """kalaha_2009 grounds into 600 k instances: tried again with the joint move
    split off, its net goes from 448,604 nodes (the generic loop) to about 100 k.
    The net is compared with the one of whole rules (`split=False`) along random
    games (and with the prover in test_gdl_propnet.py, MIAI_FULL=1)."""
    if not FULL:
        pytest.skip("grounding takes 20 CPU s and the whole-rule net 30 s: MIAI_FULL=1")
    text = (PACKAGED / "kalaha_2009.kif").read_text()
    bounds = grounder.Bounds(time_limit=300.0, cpu_time=True)
    game = load(text, name="kalaha", bounds=bounds)
    assert game.info.stats["moves_split"] == 1
    assert game.playout_engine == "diff"
    program = load_program(text)
    whole_net = build(grounder.ground(program, bounds, split=False))
    whole = GdlGame(compile_propnet(whole_net, "kalaha whole", DEFAULT_MAX_PLIES), "kalaha",
                    whole_net, BuildInfo(0.0, whole_net.stats, 0.0))
    rng = random.Random(7)
    for _ in range(5):
        s, t = game.initial_state(), whole.initial_state()
        while True:
            assert game.true_facts(s) == whole.true_facts(t)
            moves = [[game.moves[r][m] for m in game.rule_moves(s, r)]
                     for r in range(game.n_roles)]
            assert moves == [[whole.moves[r][m] for m in whole.rule_moves(t, r)]
                             for r in range(whole.n_roles)]
            if s.is_terminal():
                assert t.is_terminal() and s.rewards() == t.rewards()
                break
            chosen = [rng.choice(m) for m in moves]
            mine = [game.moves[r].index(m) for r, m in enumerate(chosen)]
            theirs = [whole.moves[r].index(m) for r, m in enumerate(chosen)]
            if s.to_move >= 0:
                s.play(mine[s.to_move])
                t.play(theirs[t.to_move])
            else:
                s.play_joint(mine)
                t.play_joint(theirs)


def test_quarto_grounds_its_lines_decomposed() -> None:
    """quarto's row, column and diagonal rules join four cells through ``set``:
    grounded whole, 411 k ground rules and a 260 k-node net; decomposed, a few
    thousand nodes (docs/gdl.md)."""
    text = (PACKAGED / "quarto.kif").read_text()
    game = load(text, name="quarto")
    assert game.info.stats["split_rules"] == 4
    assert game.info.stats["nodes"] < 10_000
    oracle = ProverGame(text, name="quarto")
    compare_random_game(game, oracle, random.Random(5), 100)


def test_a_rule_gains_nothing_stays_whole() -> None:
    """Tic-tac-toe's rules have no variable to eliminate; connectFour's lines have
    candidates, but their ground literals do not halve (``++`` fixes the cells)."""
    for name in ("tictactoe.kif", "connectFour.kif"):
        game = load((PACKAGED / name).read_text(), name=name)
        assert game.info.stats["split_rules"] == 0

"""The tolerant reading of sheets the strict checks reject (engine/gdl/tolerant.py).

Truth: the legal moves ggp-base's prover's reading gives each shape, worked out by hand
(tests/helpers/tolerant_sheets.py), for the reference prover; the propnet of the
rewritten rules against the prover on random games (two evaluators of one reading)."""

from __future__ import annotations

import random

import pytest

from engine.gdl.checks import load_program
from engine.gdl.errors import GdlCheckError
from engine.gdl.game import GdlGame, load_for_play
from engine.gdl.prover_game import ProverGame
from engine.gdl.tolerant import tolerant_program
from tests.helpers.gdl import OWN, compare_random_game
from tests.helpers.tolerant_sheets import BASE, SHAPES, sheet


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_shape_the_checks_reject_is_read_as_the_prover_reads_it(name: str) -> None:
    text = sheet(name)
    with pytest.raises(GdlCheckError):
        load_program(text)
    game = ProverGame(text, name, tolerant=True)
    assert game.warnings and game.warnings[0].startswith("the strict checks reject")
    state = game.initial_state()
    for move, legal in SHAPES[name][1]:
        assert sorted(state.rule_moves(0)) == legal
        state.play_joint([move])


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_net_of_a_tolerant_reading_agrees_with_the_prover(name: str) -> None:
    net = load_for_play(sheet(name), name, tolerant=True)
    assert isinstance(net, GdlGame)
    oracle = ProverGame(sheet(name), name, tolerant=True)
    assert net.warnings == oracle.warnings
    rng = random.Random(name)
    for _ in range(12):
        compare_random_game(net, oracle, rng, 10)


def test_a_strict_sheet_is_read_as_it_is() -> None:
    text = (OWN / "tictactoe.kif").read_text()
    program, notes = tolerant_program(text)
    assert notes == []
    assert len(program.rules) == len(load_program(text).rules)


def test_a_sheet_no_reading_plays_says_both_faults() -> None:
    # unstratified negation: neither the checks nor the prover can evaluate it
    text = BASE + "(<= (legal r (take ?i)) (item ?i) (magic ?i))\n" \
        "(<= (p ?i) (item ?i) (not (q ?i)))\n(<= (q ?i) (item ?i) (not (p ?i)))\n"
    with pytest.raises(GdlCheckError) as info:
        tolerant_program(text)
    assert "undefined relation 'magic'" in str(info.value)
    assert "read tolerantly: unstratified negation" in str(info.value)


def test_not_distinct_of_two_different_constants_drops_the_rule() -> None:
    text = BASE + "(<= (legal r (take a)) (true (step 1)) (not (distinct 1 2)))\n" \
        "(<= (legal r (take c)) (true (step 1)) (not (distinct (f ?x) (f 1))) (succ ?x 2))\n"
    game = ProverGame(text, tolerant=True)
    assert sorted(game.initial_state().rule_moves(0)) == ["(take c)", "wait"]

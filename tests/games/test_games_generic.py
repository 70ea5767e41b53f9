"""The game contract (tests/helpers/contract.py) run on every registered hand-written
game and on grounded GDL nets: a few small sheets in CI (alternating and simultaneous,
one to four roles, roles with move sets of different sizes), every sheet that grounds
with MIAI_FULL=1.

Each game's own rules are checked against an independent truth in tests/games/ (and
the GDL nets against the prover in test_gdl_propnet.py); this file checks the contract
of the C game interface that every game shares.
"""

from __future__ import annotations

import os

import pytest

import engine
from engine import games
from engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    MiaiError,
    StateError,
    UnknownNameError,
)
from engine.gdl.game import load
from engine.gdl.ground import Bounds
from engine.gdl.sheets import PACKAGED, sheet_names
from tests.helpers.contract import GDL, HAND_WRITTEN, check_contract
from tests.helpers.gdl import NOT_GROUNDED

FULL = os.environ.get("MIAI_FULL") == "1"

# Small but non-default parameters, so parameter handling is exercised too.
PARAMS: dict[str, dict[str, float]] = {
    "hex": {"size": 5},
    "havannah": {"size": 4},
    "leftright": {"steps": 12},
    "go": {"size": 5, "komi": 0.5},
}
ALL = sorted(games.available())

# Alternating (tictactoe, connectFour), simultaneous (roshambo2, gt_prisoner), one role
# (hanoi), three (tictactoe_3player) and four (4pttc); roles with 64 and 3 moves (guess).
CI_SHEETS = ["tictactoe", "connectFour", "roshambo2", "gt_prisoner", "hanoi",
             "tictactoe_3player", "4pttc", "guess"]
GROUNDED = [n for n in sheet_names() if n + ".kif" not in NOT_GROUNDED]
SHEETS = GROUNDED if FULL else CI_SHEETS


def make(name: str) -> engine.Game:
    return games.create(name, **PARAMS.get(name, {}))


def load_sheet(name: str) -> engine.Game:
    """A packaged sheet grounded, the bound in CPU seconds (a loaded machine stretches
    the wall clock; kalaha_2009 comes near the bound)."""
    return load((PACKAGED / f"{name}.kif").read_text(), name=name[:24],
                bounds=Bounds(cpu_time=True))


@pytest.mark.parametrize("name", ALL)
def test_hand_written_game_keeps_the_contract(name: str) -> None:
    check_contract(lambda: make(name), HAND_WRITTEN)


@pytest.mark.parametrize("name", SHEETS)
def test_grounded_gdl_game_keeps_the_contract(name: str) -> None:
    check_contract(lambda: load_sheet(name), GDL)


def test_the_ci_sheets_ground_and_cover_the_game_shapes() -> None:
    assert set(CI_SHEETS) <= set(GROUNDED)
    starts = [g.initial_state() for g in map(load_sheet, CI_SHEETS)]
    shapes = {(s.game.n_roles, s.to_move == games.SIMULTANEOUS) for s in starts}
    assert {(1, False), (2, False), (2, True), (3, False), (4, False)} <= shapes


def test_unknown_game_and_bad_params() -> None:
    with pytest.raises(UnknownNameError):
        games.create("no-such-game")
    with pytest.raises(UnknownNameError):
        games.create("tictactoe", size=3)
    for name, info in games.available().items():
        for p in info.params:
            with pytest.raises(InvalidArgumentError):
                games.create(name, **{p.name: p.maximum + 1})
            with pytest.raises(InvalidArgumentError):
                games.create(name, **{p.name: "big"})
            if p.integer:
                with pytest.raises(InvalidArgumentError):
                    games.create(name, **{p.name: p.minimum + 0.5})
    with pytest.raises(InvalidArgumentError):
        games.create_from_spec("hex:size")


def test_errors_are_one_family() -> None:
    for exc in (GameOverError, IllegalMoveError, InvalidArgumentError, StateError,
                UnknownNameError):
        assert issubclass(exc, MiaiError)

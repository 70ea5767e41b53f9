"""The differential engine's batches (csrc/gdl/pn_diff.c, pn_diff_playouts): the
batches the lanes leave run on one work block, each playout after the first starting
from where the last one ended (its joint move taken off, a wave for the bases that
differ from the batch's start) instead of from a copy of the snapshot.  Every node
value is the state's whichever way the block got there, so the batch must give exactly
what the same playouts give one by one (the same seed draws the same moves): the same
plies and the same sums of rewards.  Checked from the initial state and from a state a
few plies on, with the restart forced after every playout and by the batch op's own
rule, and through ``playout_run`` for a batch under the lanes' least batch.  CI runs a
dozen sheets (goal wave, families, clear-joint and keep-joint plies, a cycle),
MIAI_FULL=1 every sheet with the differential engine that grounds quickly enough."""

from __future__ import annotations

import os
import random

import pytest

from engine.errors import InvalidArgumentError, LimitError
from engine.games import State
from engine.gdl.game import GdlGame
from engine.gdl.sheets import PACKAGED
from engine.playouts import playout_run
from tests.helpers.gdl import NOT_GROUNDED, sheet

FULL = os.environ.get("MIAI_FULL") == "1"
CI_SHEETS = ["connectFour.kif", "breakthrough.kif", "gt_prisoner.kif",
             "bidding-tictactoe.kif", "roshambo2.kif", "4pttc.kif", "blocks.kif",
             "3pConnectFour.kif", "chomp.kif", "pentago.kif", "own:connect4.kif",
             "own:reach.kif"]
SLOW = {"kalaha_2009.kif", "othello-comp2007.kif", "othelloSuicide.kif"}
FULL_SHEETS = sorted(p.name for p in PACKAGED.glob("*.kif") if p.name not in NOT_GROUNDED)
SHEETS = sorted(set(CI_SHEETS) | (set(FULL_SHEETS) if FULL else set()))


def starts(game: GdlGame) -> list[State]:
    """The initial state and one a few random plies on (not over)."""
    state, rng = game.initial_state(), random.Random(5)
    later = state.copy()
    for _ in range(4):
        if later.is_terminal():
            break
        nxt = later.play_joint([rng.choice(game.rule_moves(later, r))
                                for r in range(game.n_roles)])
        if nxt.is_terminal():
            break
        later = nxt
    return [state, later]


@pytest.mark.parametrize("name", SHEETS)
def test_a_batch_on_one_block_plays_the_playouts_one_by_one(name: str) -> None:
    game = sheet(name)
    n = 8 if name in SLOW else 40
    for start in starts(game):
        want = playout_run(start, n, seed=17, batch=False)
        try:
            forced = game.diff_playouts(start, n, 17, restart=True)
        except LimitError:  # word-parallel nets and nets too big have no such engine
            assert game.playout_engine in ("bits", "generic")
            return
        assert forced == want
        assert game.diff_playouts(start, n, 17) == want
        # through the batch op: under the lanes' least batch it runs on one block
        small = min(n, game.lanes_min_batch - 1) if game.lanes_min_batch else n
        if small >= 2:
            assert playout_run(start, small, seed=3) == playout_run(start, small, seed=3,
                                                                     batch=False)


def test_bad_batch_arguments_are_refused() -> None:
    game = sheet("connectFour.kif")
    state = game.initial_state()
    with pytest.raises(InvalidArgumentError):
        game.diff_playouts(state, -1, 0)
    with pytest.raises(InvalidArgumentError):
        game.diff_playouts(state, 2, -5)
    assert game.diff_playouts(state, 0, 1).plies == 0

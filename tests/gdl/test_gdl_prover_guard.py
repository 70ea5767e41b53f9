"""engine.gdl.prover.ProverGuard: the reference prover's bounds in a long-lived
process -- a stop request and the process's resident size -- and that a prover with
a guard that never fires answers as one without."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import LimitError
from engine.gdl.prover import ProverGuard, ProverStopped, resident_bytes
from engine.gdl.prover_game import ProverGame
from tests.helpers.gdl import cube_sheet

TICTACTOE = (Path(__file__).parent / "tictactoe.kif").read_text()


def playout(game: ProverGame, plies: int = 30) -> list[str]:
    state, seen = game.initial_state(), []
    while not state.is_terminal() and len(seen) < plies:
        joint = [sorted(state.rule_moves(r))[0] for r in range(game.n_roles)]
        seen.append(" ".join(joint))
        state.play_joint(joint)
    return seen


def test_a_quiet_guard_changes_nothing() -> None:
    free = ProverGame(TICTACTOE)
    guarded = ProverGame(TICTACTOE, guard=ProverGuard(max_rss=1 << 50,
                                                      stopped=lambda: False))
    assert playout(guarded) == playout(free)


def test_a_stop_request_ends_the_work_at_the_next_rule() -> None:
    stop = [False]
    game = ProverGame(TICTACTOE, guard=ProverGuard(stopped=lambda: stop[0]))
    state = game.initial_state()
    stop[0] = True
    with pytest.raises(ProverStopped, match="stopped"):
        state.rule_moves(0)


def test_a_stop_request_ends_static_facts_midway() -> None:
    """A single rule deriving millions of facts is stopped between derivations."""
    calls = [0]

    def stopped() -> bool:
        calls[0] += 1
        return calls[0] > 3  # the fourth check: a few thousand derivations in

    with pytest.raises(ProverStopped):
        ProverGame(cube_sheet(200), guard=ProverGuard(stopped=stopped))


def test_the_memory_budget_stops_the_static_facts() -> None:
    now = resident_bytes()
    assert now is not None  # Linux
    budget = 32 << 20
    with pytest.raises(LimitError, match="memory budget"):
        ProverGame(cube_sheet(150), guard=ProverGuard(max_rss=now + budget))
    after = resident_bytes()
    assert after is not None and after - now < budget + (96 << 20)

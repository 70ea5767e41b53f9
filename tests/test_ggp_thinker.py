"""The pondering search of the GGP player: puzzle lines, pause/advance/close."""

from __future__ import annotations

import time

from ggp_helpers import rules

from engine.gdl.game import load
from engine.gdl.prover_game import ProverGame
from engine.search import UCT
from protocols.ggp.thinker import BestLine, SearchThinker


def wait_for(predicate, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_puzzle_line_is_complete_and_replays_to_its_goal() -> None:
    text = rules("maze")
    game = load(text, "maze")
    thinker = SearchThinker(game, game.initial_state(), 0, UCT(c=0.4), seed=1)
    try:
        assert wait_for(lambda: thinker.line.goal >= 1.0)
        assert thinker.pause(5.0)
        line = list(thinker.line.moves)
    finally:
        thinker.close()
    state = ProverGame(text).initial_state()  # the line checked by the other engine
    for move in line:
        assert move in state.rule_moves(0)
        state.play_joint([move])
    assert state.is_terminal() and state.rewards() == (1.0,)


def test_best_line_keeps_the_best_and_follows_the_root() -> None:
    line = BestLine()
    line.offer(0.5, ["a", "b"])
    line.offer(0.4, ["c"])
    assert (line.goal, line.moves) == (0.5, ["a", "b"])
    line.advance("a")
    assert line.moves == ["b"]
    line.advance("z")  # the root left the line: forget it
    assert (line.goal, line.moves) == (-1.0, [])


def test_pause_advance_resume_and_refused_moves() -> None:
    game = load(rules("tictactoe"), "ttt")
    thinker = SearchThinker(game, game.initial_state(), 0, UCT(), seed=2)
    try:
        assert wait_for(lambda: thinker.iterations() > 0)
        assert thinker.pause(5.0)
        paused = thinker.iterations()
        time.sleep(0.1)
        assert thinker.iterations() == paused
        assert thinker.advance(["(play 2 2 x)", "noop"], 5.0)
        legal = ["noop"]
        assert thinker.best(legal) is None  # oplayer moves now: nothing for xplayer
        assert not thinker.advance(["(play 2 2 x)", "noop"], 5.0)  # not legal any more
        assert thinker.failed is not None
    finally:
        thinker.close()

"""The one thinking loop (bots/thinker.py): a move by the deadline whatever the bot
does, pause/resume/advance, the iteration budget, progress, close, puzzle lines.

Legality is judged by the reference prover (engine.gdl.prover_game) where the game is
GDL; the budget's moves are checked against the bot's own ``choose`` with the same
budget (the C search's statistics depend only on the seed and the iterations).
"""

from __future__ import annotations

import threading
import time

import pytest

from bots import make_bot
from bots.base import BaseBot
from bots.prover_bot import ProverSearchBot
from bots.thinker import Thinker
from engine import games
from engine.errors import MiaiError
from engine.games import Game, State
from engine.gdl.game import load
from engine.gdl.prover_game import ProverGame, ProverState
from engine.gdl.prover_search import BestLine, search_move
from tests.helpers.ggp import rules


def wait_for(predicate, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    """A liveness bound, not a timing assertion."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


class SilentBot(BaseBot):
    """Never answers on its own; ``stop`` releases it (after the Thinker gave up)."""

    def __init__(self, game: Game) -> None:
        super().__init__("silent", "silent", game)
        self.release = threading.Event()
        self.stopped = 0
        self.asked: list[float | None] = []

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> int:
        self.asked.append(seconds)
        self.release.wait(60)
        raise MiaiError("released")

    def stop(self) -> None:
        self.stopped += 1

    def close(self) -> None:
        self.release.set()


class FailingBot(BaseBot):
    def choose(self, state: State, role: int | None = None) -> int:
        raise MiaiError("this bot always fails")


def gdl_tictactoe() -> tuple[Game, ProverGame]:
    text = rules("tictactoe")
    return load(text, "ttt"), ProverGame(text)


# -- a move by the deadline -------------------------------------------------------------


def test_a_bot_that_never_answers_gets_a_legal_fallback() -> None:
    game, oracle = gdl_tictactoe()
    bot = SilentBot(game)
    thinker = Thinker(bot)
    try:
        thinker.start(game.initial_state(), 0)
        thought = thinker.think(0.05)
        assert thought.fallback
        text = game.move_to_text(thought.move, 0)
        assert text in oracle.initial_state().rule_moves(0)  # legal for the prover
        assert bot.asked == [0.05]  # the time was given to the bot
        assert bot.stopped >= 1  # and it was asked to stop when over it
        # the bot is still choosing: the next think does not queue behind it
        assert thinker.think(0.05).fallback and bot.asked == [0.05]
    finally:
        thinker.close(timeout=0)
        bot.release.set()


def test_a_failing_bot_and_the_callers_fallback() -> None:
    game = games.create("tictactoe")
    state = game.initial_state()
    chosen: list[tuple[int, list[int]]] = []

    def corner(s: object, role: int, legal: list[int]) -> int:
        chosen.append((role, list(legal)))
        return legal[-1]

    thinker = Thinker(FailingBot("f", "f", game), fallback=corner)  # type: ignore[arg-type]
    try:
        thinker.start(state, 0)
        thought = thinker.think(1.0)
        assert thought.fallback and thought.move == state.legal_moves()[-1]
        assert chosen == [(0, state.legal_moves())]
    finally:
        thinker.close()


def test_a_bot_without_a_searcher_chooses_with_the_time_left() -> None:
    game = games.create("tictactoe")
    state = game.initial_state()
    bot = make_bot("random", game, seed=4)
    bot.reset(game)
    thinker = Thinker(bot)
    try:
        thinker.start(state, 0)
        assert not thinker.searching
        thought = thinker.think(5.0)
        assert not thought.fallback
        twin = make_bot("random", game, seed=4)
        twin.reset(game)
        assert thought.move == twin.choose(state)  # the bot's own choice, not a fallback
    finally:
        thinker.close()


# -- the budget --------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["uct:iterations=300,seed=7", "ucd:iterations=250,seed=2"])
def test_a_budget_think_plays_the_bots_choose(spec: str) -> None:
    """A think with an iteration budget, run in chunks on the worker, gives the move and
    the root statistics of ``choose`` with that budget, move after move."""
    game = games.create("connect4")
    bot, twin = make_bot(spec, game), make_bot(spec, game)
    bot.reset(game)
    twin.reset(game)
    thinker = Thinker(bot)
    state = game.initial_state()
    try:
        for _ in range(3):
            thinker.start(state, state.to_move)
            thought = thinker.think(None)
            move = twin.choose(state)
            assert not thought.fallback and thought.move == move
            assert thinker.budget_reached()
            assert thought.report is not None and twin.last_report is not None
            assert [(m.move, m.visits) for m in thought.report.moves] == \
                [(m.move, m.visits) for m in twin.last_report.moves]
            before = state.copy()
            state.play(move)
            assert thinker.advance(move, before=before)
            twin.observe(before, move)
            reply = state.legal_moves()[0]
            before = state.copy()
            state.play(reply)
            assert thinker.advance(reply, before=before)
            twin.observe(before, reply)
    finally:
        thinker.close()


def test_the_prover_search_budget_advance_and_refused_moves() -> None:
    text = rules("tictactoe")
    game = ProverGame(text)
    bot = make_bot("uct:c=0.4", game, seed=6)
    assert isinstance(bot, ProverSearchBot)
    bot.reset(game)
    thinker = Thinker(bot, ponder=True, iterations=15)
    try:
        thinker.start(game.initial_state(), 0)
        thinker.resume()
        assert wait_for(thinker.budget_reached)
        assert thinker.iterations() == 15 and thinker.iterations_run() == 15
        thought = thinker.think(30.0)  # the budget is spent: answered at once
        # the move of the prover search with that budget and seed
        assert thought.move == search_move(game, game.initial_state(), 0, 15, c=0.4, seed=6)
        assert thinker.advance(["(play 2 2 x)", "noop"], 5.0)
        assert not thinker.budget_reached() or thinker.iterations() == 15
        assert wait_for(thinker.budget_reached)
        assert thinker.iterations() == 15  # the budget again, from the new root
        assert thinker.think(30.0, legal=["noop"]).move == "noop"  # xplayer's one move
        assert not thinker.advance(["(play 2 2 x)", "noop"], 5.0)  # not legal any more
        assert thinker.failed is not None
    finally:
        thinker.close()


def test_the_prover_search_pauses_and_ponders_without_a_budget() -> None:
    game = ProverGame(rules("tictactoe"))
    bot = make_bot("uct", game, seed=8)
    bot.reset(game)
    thinker = Thinker(bot, ponder=True, iterations=None)
    try:
        thinker.start(game.initial_state(), 1)
        thinker.resume()
        assert wait_for(lambda: thinker.iterations() >= 3)
        assert thinker.pause(5.0)
        paused = thinker.iterations()
        time.sleep(0.1)
        assert thinker.iterations() == paused  # paused: no iteration finishes
        thinker.resume()  # the opponent's turn: the search goes on from the same root
        assert wait_for(lambda: thinker.iterations() > paused)
        assert thinker.think(1.0, legal=["noop"]).move == "noop"
    finally:
        thinker.close()


# -- pause, resume, advance, progress, close ------------------------------------------------


def test_pause_advance_resume_and_refused_moves() -> None:
    game, oracle = gdl_tictactoe()
    bot = make_bot("uct", game, seed=2)
    bot.reset(game)
    thinker = Thinker(bot, ponder=True, iterations=None)
    try:
        thinker.start(game.initial_state(), 0)
        thinker.resume()
        assert wait_for(lambda: thinker.iterations_run() > 0)
        assert thinker.pause(5.0)
        paused = thinker.iterations()
        time.sleep(0.1)
        assert thinker.iterations() == paused
        assert not thinker.pondering
        thinker.resume()
        assert thinker.pondering
        joint = [game.move_from_text("(play 2 2 x)", 0), game.move_from_text("noop", 1)]
        assert thinker.advance(joint, 5.0)
        assert thinker.pondering  # it was running: it runs on at the new root
        position = thinker.position()
        expected = oracle.initial_state().play_joint(["(play 2 2 x)", "noop"])
        assert position is not None and position.ply == 1
        assert sorted(game.move_to_text(m, 1) for m in position.legal_moves(1)) == \
            sorted(expected.rule_moves(1))
        noop = game.move_from_text("noop", 0)
        thought = thinker.think(0.2, legal=[noop])
        assert thought.fallback  # oplayer moves now: the search has nothing for xplayer
        assert not thinker.advance(joint, 5.0)  # not legal any more
        assert thinker.failed is not None
    finally:
        thinker.close()


def test_progress_reports_each_batch_of_a_think() -> None:
    game = games.create("connect4")
    bot = make_bot("uct:iterations=3000,seed=1", game)
    bot.reset(game)
    seen: list[int] = []
    thinker = Thinker(bot)
    try:
        thinker.start(game.initial_state(), 0)
        thought = thinker.think(None, progress=lambda report: seen.append(report.iterations))
        assert seen and seen == sorted(seen) and seen[-1] <= 3000
        assert thought.report is not None and thought.report.iterations == 3000
        assert thinker.last_report is thought.report
    finally:
        thinker.close()


def test_close_stops_the_worker_and_closes_the_bot() -> None:
    game = games.create("connect4")
    closed: list[bool] = []

    class Closing(BaseBot):
        def close(self) -> None:
            closed.append(True)

    thinker = Thinker(Closing("c", "c", game))
    thinker.close()
    assert closed == [True]
    searching = Thinker(make_bot("uct", game, seed=3), ponder=True, iterations=None)
    searching.start(game.initial_state(), 0)
    searching.resume()
    assert wait_for(lambda: searching.iterations_run() > 0)
    searching.close(timeout=10)
    assert not searching._thread.is_alive()


def test_search_restarts_when_the_bot_dropped_its_tree() -> None:
    """A move the bot's search could not follow (here: a position it never saw) leaves
    the bot without a search; the thinker searches afresh from the new position."""
    game = games.create("tictactoe")
    bot = make_bot("uct:iterations=50,seed=5", game)
    bot.reset(game)
    thinker = Thinker(bot)
    try:
        state = game.initial_state()
        thinker.start(state, 0)
        thinker.think(None)
        elsewhere = state.copy().play(state.legal_moves()[4])
        move = elsewhere.legal_moves()[0]
        assert thinker.advance(move, before=elsewhere)
        assert bot.search is None  # type: ignore[attr-defined]
        position = thinker.position()
        assert position is not None and position.to_bytes() == \
            elsewhere.copy().play(move).to_bytes()
        thinker.start(position, position.to_move)
        thought = thinker.think(None)
        assert not thought.fallback and thought.move in position.legal_moves()
    finally:
        thinker.close()


# -- puzzles ---------------------------------------------------------------------------------


def test_puzzle_line_is_complete_and_replays_to_its_goal() -> None:
    text = rules("maze")
    game = load(text, "maze")
    bot = make_bot("uct:c=0.4", game, seed=1)
    bot.reset(game)
    thinker = Thinker(bot, ponder=True, iterations=None, puzzle_lines=True, seed=1)
    try:
        thinker.start(game.initial_state(), 0)
        thinker.resume()
        assert wait_for(lambda: thinker.kept_line()[0] >= 1.0)
        assert thinker.pause(5.0)
        _, line = thinker.kept_line()
    finally:
        thinker.close()
    state: ProverState = ProverGame(text).initial_state()  # checked by the other engine
    for move in line:
        text_move = game.move_to_text(move, 0)
        assert text_move in state.rule_moves(0)
        state.play_joint([text_move])
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

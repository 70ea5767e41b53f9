"""Choosing a move under the clock: time budget, resign, pass, clean-up.

Clean-up: once two passes were played, genmove acts as kgs-genmove_cleanup does -- it
does not pass while stones of the opponent that the dead-stone estimate gives up
remain on the board (it plays on to capture them); with none left, it passes.

The bot thinks through its Thinker (bots/thinker.py): the search (or the bot's own
``choose``) runs on the Thinker's worker, and a move is always returned by the budget
plus the Thinker's grace periods (a legal fallback if the bot had nothing, failed or
overran), so that a move is sent before the clock runs out.  This module takes what
it needs as arguments (the session, the clock, the options, the thinker); only
protocols/gtp/engine.py wires them together.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bots.report import Report
from bots.thinker import Thinker, Thought
from engine.errors import MiaiError
from engine.games import State
from protocols.gtp import scoring
from protocols.gtp.session import GoSession
from protocols.gtp.timecontrol import TimeControl

log = logging.getLogger("miai.gtp")


class Options(Protocol):
    """What genmove reads of the engine's options (protocols.gtp.engine.GtpOptions)."""

    resign_threshold: float
    resign_min_visits: int
    default_seconds: float | None


@dataclass(frozen=True)
class Decision:
    move: int
    resign: bool = False
    seconds: float = 0.0
    fallback: bool = False
    report: Report | None = None  # the search behind the move (GoGui's analyze commands)


def position_for(session: GoSession, role: int) -> State:
    """The position with ``role`` to move (after an implicit pass if out of turn;
    after two passes, the one play goes on from: session.continuation)."""
    state = session.state.copy()
    if state.is_terminal():
        return session.continuation(role) or state
    if state.to_move == role:
        return state
    state.play(session.pass_move)
    return state


def decide(session: GoSession, clock: TimeControl, options: Options, thinker: Thinker,
           role: int, cleanup: bool = False,
           progress: Callable[[Report], None] | None = None) -> Decision:
    state = position_for(session, role)
    if state.is_terminal():
        return Decision(session.pass_move)
    if session.both_passed() and not scoring.dead_opponent_stones(state, role):
        return Decision(session.pass_move)  # nothing to clean up: the game stays over
    cleanup = cleanup or session.in_cleanup()  # after two passes: capture dead stones
    budget = clock.budget("BW"[role], session.size, len(session.moves))
    timed = budget is not None  # the clock rules, not the bot's own seconds
    if budget is None:
        budget = options.default_seconds
    seconds = None if budget is None else max(0.01, budget)
    own_seconds = thinker.own_seconds
    try:
        if timed:
            thinker.own_seconds = None
        thinker.start(state, role)
        thought = thinker.think(seconds, progress=progress)
    except MiaiError as exc:  # the bot cannot think about this position at all
        log.error("bot failed: %s", exc)
        thought = Thought(fallback_move(state, role, state.legal_moves()), True)
    finally:
        thinker.own_seconds = own_seconds
    move, fallback = int(thought.move), thought.fallback
    report = thought.report
    if not fallback and _should_resign(options, report):
        return Decision(move, resign=True, seconds=thought.seconds, report=report)
    if cleanup and scoring.dead_opponent_stones(state, role):
        move = scoring.cleanup_move(session, state, move, report)
    elif move != session.pass_move and scoring.passing_wins(session, state, role):
        move = session.pass_move
    return Decision(move, seconds=thought.seconds, fallback=fallback, report=report)


def fallback_move(state: State, role: int = 0, legal: Sequence[Any] = ()) -> int:
    """A legal move without search: a random non-pass move, else pass."""
    moves = state.legal_moves()
    pass_move = state.game.num_moves - 1
    non_pass = [m for m in moves if m != pass_move]
    return random.Random(state.key).choice(non_pass) if non_pass else pass_move


def _should_resign(options: Options, report: Report | None) -> bool:
    threshold = options.resign_threshold
    if threshold <= 0 or report is None:
        return False
    return (report.iterations >= options.resign_min_visits
            and report.root_value < threshold)

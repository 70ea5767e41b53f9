"""Choosing a move under the clock: time budget, watchdog, resign, pass, clean-up.

The bot thinks in a worker thread (the C search releases the GIL).  The main thread
waits for the move until the budget plus a grace period; past that it asks the bot to
stop, and past a second grace period it answers with a legal fallback move itself, so
that a move is always sent before the clock runs out.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.games import State

if TYPE_CHECKING:
    from protocols.gtp.engine import GtpEngine

log = logging.getLogger("miai.gtp")

STOP_GRACE = 0.15  # seconds after the budget before the bot is told to stop
FALLBACK_GRACE = 0.25  # further seconds before a fallback move is sent


@dataclass(frozen=True)
class Decision:
    move: int
    resign: bool = False
    seconds: float = 0.0
    fallback: bool = False


def position_for(engine: GtpEngine, role: int) -> State:
    """The position with ``role`` to move (after an implicit pass if out of turn)."""
    session = engine.session
    state = session.state.copy()
    if state.is_terminal() or state.to_move == role:
        return state
    state.play(session.pass_move)
    return state


def decide(engine: GtpEngine, role: int, cleanup: bool = False) -> Decision:
    from protocols.gtp import scoring

    session = engine.session
    state = position_for(engine, role)
    if state.is_terminal():
        return Decision(session.pass_move)
    start = time.perf_counter()
    budget = engine.clock.budget("BW"[role], session.moves_left_estimate())
    if budget is None:
        budget = engine.options.default_seconds
    bot = engine.bot()
    if budget is not None and hasattr(bot, "seconds"):
        own = engine.bot_own_seconds
        bot.seconds = max(0.01, budget if own is None else min(own, budget))
    if hasattr(bot, "progress"):
        bot.progress = (lambda report: _gfx(engine, role, report)) if engine.options.gfx else None
    move, fallback = _think(bot, state, budget)
    if fallback:
        engine.abandon_bot()  # it may still be thinking: never reuse it
    report = getattr(bot, "last_report", None)
    if not fallback and _should_resign(engine, report):
        return Decision(move, resign=True, seconds=time.perf_counter() - start)
    if cleanup:
        move = scoring.cleanup_move(session, state, move, report)
    elif move != session.pass_move and scoring.passing_wins(session, state, role):
        move = session.pass_move
    return Decision(move, seconds=time.perf_counter() - start, fallback=fallback)


def _think(bot: Any, state: State, budget: float | None) -> tuple[int, bool]:
    """The bot's move, or a fallback if it does not answer in time."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["move"] = bot.choose(state.copy())
        except Exception as exc:  # reported below; the fallback covers it
            box["error"] = exc

    worker = threading.Thread(target=work, name="miai-genmove", daemon=True)
    worker.start()
    if budget is None:
        worker.join()
    else:
        worker.join(budget + STOP_GRACE)
        if worker.is_alive():
            log.warning("search over its budget: stopping it")
            _stop(bot)
        worker.join(FALLBACK_GRACE)
    if "move" in box:
        return int(box["move"]), False
    if "error" in box:
        log.error("bot failed: %s", box["error"])
    else:
        log.error("bot did not answer in time: sending a fallback move")
    return fallback_move(state), True


def _stop(bot: Any) -> None:
    """Ask a thinking bot to stop (SearchBot: its live search; others: bot.stop())."""
    search = getattr(bot, "search", None)
    if search is not None and hasattr(search, "stop"):
        search.stop()
    elif hasattr(bot, "stop"):
        bot.stop()


def fallback_move(state: State) -> int:
    """A legal move without search: a random non-pass move, else pass."""
    moves = state.legal_moves()
    pass_move = state.game.num_moves - 1
    non_pass = [m for m in moves if m != pass_move]
    return random.Random(state.key).choice(non_pass) if non_pass else pass_move


def _should_resign(engine: GtpEngine, report: Any) -> bool:
    threshold = engine.options.resign_threshold
    if threshold <= 0 or report is None:
        return False
    value = getattr(report, "root_value", None)
    visits = getattr(report, "iterations", 0)
    return value is not None and visits >= engine.options.resign_min_visits and value < threshold


def _gfx(engine: GtpEngine, role: int, report: Any) -> None:
    from protocols.gtp import gogui

    text = gogui.live_gfx(engine, role, report)
    if text:
        engine.emit_stderr(text)

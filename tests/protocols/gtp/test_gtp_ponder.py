"""Pondering: the search runs on the opponent's time and the next command stops it."""

from __future__ import annotations

import time

from protocols.gtp.engine import GtpEngine, GtpOptions


def test_pondering_searches_between_commands_and_stops_for_the_next() -> None:
    engine = GtpEngine(GtpOptions(bot_spec="uct:iterations=300", ponder=True, gfx=False))
    assert engine.handle("boardsize 9") == "= \n\n"
    assert engine.handle("genmove b").startswith("= ")
    assert engine.pondering
    thinker = engine.thinker()
    position = thinker.position()
    assert position is not None and position.to_move == 1  # White's turn: ours is done
    end = time.monotonic() + 60  # a liveness bound, not a timing assertion
    while thinker.iterations_run() == 0 and time.monotonic() < end:
        time.sleep(0.05)
    assert thinker.iterations_run() > 0  # searched on White's time
    assert engine.handle("play w E5") == "= \n\n"  # the command stops the search first
    assert not engine.pondering
    assert engine.handle("genmove b").startswith("= ")
    engine.close()
    assert not engine.pondering


def test_no_pondering_without_the_option() -> None:
    engine = GtpEngine(GtpOptions(bot_spec="uct:iterations=300", gfx=False))
    engine.handle("boardsize 9")
    engine.handle("genmove b")
    assert not engine.pondering
    engine.close()

"""Pondering: the search runs on the opponent's time and the next command stops it."""

from __future__ import annotations

import time

from protocols.gtp.engine import GtpEngine, GtpOptions


def pondered(engine: GtpEngine) -> bool:
    """Stop the ponderer and look (reading a running search is not safe); restart it
    if it has not searched yet."""
    engine.ponderer.stop()
    if engine.ponderer.iterations > 0:
        return True
    engine.ponderer.start(engine._bot)
    return False


def test_pondering_searches_between_commands_and_stops_for_the_next() -> None:
    engine = GtpEngine(GtpOptions(bot_spec="uct:iterations=300", ponder=True, gfx=False))
    assert engine.handle("boardsize 9") == "=\n\n"
    assert engine.handle("genmove b").startswith("= ")
    assert engine.ponderer.active
    end = time.monotonic() + 60  # a liveness bound, not a timing assertion
    while not pondered(engine) and time.monotonic() < end:
        time.sleep(0.05)
    assert engine.ponderer.iterations > 0
    assert engine.ponderer.start(engine._bot)
    assert engine.handle("play w E5") == "=\n\n"  # the command stops the ponderer first
    assert not engine.ponderer.active
    assert engine.handle("genmove b").startswith("= ")
    engine.close()
    assert not engine.ponderer.active


def test_no_pondering_without_the_option() -> None:
    engine = GtpEngine(GtpOptions(bot_spec="uct:iterations=300", gfx=False))
    engine.handle("boardsize 9")
    engine.handle("genmove b")
    assert not engine.ponderer.active
    engine.close()

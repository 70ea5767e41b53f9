"""``(preview RULES CLOCK)`` grounds the rules ahead of ``start``, over loopback HTTP.

The loader is wrapped to count how often the rules are really grounded: a start
after a preview of the same sheet must not ground again (the cache hit shows in the
player's status too), a different sheet must.  The cache's bounds are checked on
their own with stand-in futures.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future

import aiohttp

from engine.gdl.prover_game import ProverGame
from protocols.ggp import kif
from protocols.ggp.grounding_cache import GroundingCache, rules_key
from protocols.ggp.player import PlayerConfig
from protocols.ggp.rules import load_rules
from tests.helpers.ggp import post, rules, served

FAST = PlayerConfig(bot="uct", max_think=0.1, margin=0.3)


class CountingLoader:
    """load_rules, counting calls per rule sheet, optionally held back by an event."""

    def __init__(self, hold: threading.Event | None = None) -> None:
        self.calls: list[str] = []
        self.hold = hold

    def __call__(self, text: str, name: str, time_limit: float) -> object:
        self.calls.append(rules_key(text))
        if self.hold is not None:
            self.hold.wait(20)
        return load_rules(text, name, time_limit)


def test_start_after_preview_uses_the_cached_grounding() -> None:
    ttt, other = rules("tictactoe"), rules("buttons")
    loader = CountingLoader()

    async def main() -> None:
        async with served(FAST, loader=loader) as (url, player), \
                aiohttp.ClientSession() as s:
            # the preview sends the sheet as written (comments, case, layout) ...
            assert (await post(s, url, f"(PREVIEW ({ttt}) 10)"))[1] == "ready"
            assert len(loader.calls) == 1
            # ... the start the game master's normalised text: same key, no grounding
            assert (await post(s, url, kif.start_text("m1", "xplayer", ttt, 5, 2)))[1] \
                == "ready"
            assert len(loader.calls) == 1
            status = player.status()
            assert status["match"]["grounding_cached"] is True  # type: ignore[index]
            assert player.cache.stats.hits == 1 and player.cache.stats.misses == 0
            reply = (await post(s, url, "(play m1 nil)"))[1]
            assert reply in ProverGame(ttt).initial_state().rule_moves(0)
            # a preview during a match: busy (as ggp-base players answer), no grounding
            assert (await post(s, url, f"(preview ({other}) 5)"))[1] == "busy"
            assert len(loader.calls) == 1
            assert (await post(s, url, "(abort m1)"))[1] == "aborted"
            # another sheet, never previewed: grounded at its start
            assert (await post(s, url, kif.start_text("m2", "robot", other, 5, 2)))[1] \
                == "ready"
            assert len(loader.calls) == 2 and loader.calls[1] == rules_key(
                kif.rules_text(other))
            assert player.status()["match"]["grounding_cached"] is False  # type: ignore[index]
            assert player.cache.stats.misses == 1
            assert (await post(s, url, "(abort m2)"))[1] == "aborted"
            # the first sheet is still cached for a later match
            assert (await post(s, url, kif.start_text("m3", "oplayer", ttt, 5, 2)))[1] \
                == "ready"
            assert len(loader.calls) == 2 and player.cache.stats.hits == 2
            assert (await post(s, url, "(abort m3)"))[1] == "aborted"

    asyncio.run(main())


def test_preview_answers_within_its_clock_and_start_joins_the_grounding() -> None:
    """Grounding slower than the preview clock: ``ready`` comes by the clock (the
    protocol's own deadline), the grounding goes on, and the start shares it."""
    ttt = rules("tictactoe")
    hold = threading.Event()
    loader = CountingLoader(hold)

    async def main() -> None:
        async with served(FAST, loader=loader) as (url, player), \
                aiohttp.ClientSession() as s:
            sent = time.monotonic()
            assert (await post(s, url, f"(preview ({ttt}) 1)"))[1] == "ready"
            assert time.monotonic() - sent < 1.0
            assert (await post(s, url, "(info)"))[1].endswith("available))")
            hold.set()
            assert (await post(s, url, kif.start_text("m", "xplayer", ttt, 10, 2)))[1] \
                == "ready"
            assert len(loader.calls) == 1 and player.cache.stats.hits == 1
            assert player.match is not None and player.match.game is not None
            assert (await post(s, url, "(abort m)"))[1] == "aborted"

    try:
        asyncio.run(main())
    finally:
        hold.set()


def done(value: object) -> Future:
    f: Future = Future()
    f.set_result(value)
    return f


def test_cache_bounds_and_rebuilds() -> None:
    prover = ProverGame(rules("tictactoe"))
    cache = GroundingCache(max_entries=2)
    built: list[float] = []

    def submit(limit: float) -> Future:
        built.append(limit)
        return done(prover)

    for key in ("a", "b", "c"):
        cache.get_or_build(key, 30.0, submit)
    assert len(cache) == 2 and "a" not in cache and cache.stats.evicted == 1
    assert cache.get_or_build("b", 30.0, submit)[1] is True
    cache.get_or_build("d", 30.0, submit)  # "c" is now the least recently used
    assert "c" not in cache and "b" in cache
    # a prover entry is grounded again when a start allows more time than it had
    assert cache.get_or_build("b", 60.0, submit)[1] is False and built[-1] == 60.0
    assert cache.get_or_build("b", 45.0, submit)[1] is True
    # a failed grounding is not kept as an answer
    failed: Future = Future()
    failed.set_exception(ValueError("bad rules"))
    cache.get_or_build("e", 30.0, lambda _t: failed)
    assert cache.get_or_build("e", 30.0, submit)[1] is False
    # an entry still being built is shared, and never evicted while it runs
    pending: Future = Future()
    small = GroundingCache(max_entries=1)
    small.get_or_build("p", 30.0, lambda _t: pending)
    small.get_or_build("q", 30.0, submit)
    assert "p" in small and small.get_or_build("p", 30.0, submit)[1] is True
    pending.set_result(prover)
    assert len(small) == 1
    # the size bound: one unit per prover entry here
    sized = GroundingCache(max_entries=10, max_size=3)
    for key in "wxyz":
        sized.get_or_build(key, 30.0, submit)
    assert len(sized) == 3 and "w" not in sized

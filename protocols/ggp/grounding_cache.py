"""Grounded rules kept between requests, so that ``start`` reuses what ``preview`` did.

A ``(preview RULES CLOCK)`` request lets the player parse, check and ground the rules
before the match; the game it builds (a C propnet ``GdlGame``, or the reference
prover ``ProverGame`` when grounding is over its bound) is kept here under the SHA-256
of the normalised rules text (the KIF parser already lower-cases symbols and puts
single spaces between tokens, so two sheets that differ only in case, whitespace or
comments share a key).  (A net built in a grounding child
process is kept as its ``BuiltNet`` and compiled by each start.)  A following ``start``
with the same rules takes the entry
instead of grounding again; an entry still being built is shared too (``start`` waits
for the same work instead of starting a second grounding).

Entries are ``concurrent.futures.Future`` objects: the work runs on a thread and never
blocks the event loop.  The cache is bounded: at most ``max_entries`` entries and at
most ``max_size`` size units in finished entries (a propnet counts its nodes, edges
and move and base texts; a prover game counts 1), least recently used first out.  An
entry that is still being built is never evicted.

A prover entry was built under some grounding time bound; a ``start`` that allows more
time than that grounds again (the larger bound may produce a propnet).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from engine.gdl.game import BuiltNet, GdlGame

log = logging.getLogger(__name__)

MAX_ENTRIES = 4
MAX_SIZE = 4_000_000  # size units (see ``game_size``): a few of the largest propnets


def rules_key(rules: str) -> str:
    """The cache key of a normalised rules text."""
    return hashlib.sha256(rules.encode()).hexdigest()


def game_size(game: object) -> int:
    """A memory measure of a loaded game: propnet nodes + edges + texts; 1 otherwise."""
    if isinstance(game, GdlGame):
        stats = game.info.stats
        texts = len(game.bases) + sum(len(ms) for ms in game.moves)
        return int(stats.get("nodes", 0)) + int(stats.get("edges", 0)) + texts
    if isinstance(game, BuiltNet):
        stats = game.info.stats
        texts = len(game.net.bases) + sum(len(ms) for ms in game.net.moves)
        return int(stats.get("nodes", 0)) + int(stats.get("edges", 0)) + texts
    return 1


@dataclass
class Entry:
    future: Future
    time_limit: float  # the grounding time bound it was built under


@dataclass
class CacheStats:
    hits: int = 0      # a start found the rules (finished or still being built)
    misses: int = 0    # a start had to ground
    built: int = 0     # groundings started (by preview or start)
    evicted: int = 0


class GroundingCache:
    """Futures of loaded games by rules key; thread-safe."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_size: int = MAX_SIZE) -> None:
        if max_entries < 1 or max_size < 1:
            raise ValueError("the grounding cache needs room for at least one entry")
        self.max_entries = max_entries
        self.max_size = max_size
        self.stats = CacheStats()
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._entries

    def get_or_build(self, key: str, time_limit: float,
                     submit: Callable[[float], Future], *, count: bool = True
                     ) -> tuple[Future, bool]:
        """The future of the game of ``key`` and whether it came from the cache.  A
        miss (no entry, a failed one, or a prover entry built under a smaller time
        bound) calls ``submit(time_limit)`` and keeps its future.  ``count``: record
        the hit or miss in ``stats`` (starts count, previews do not)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and self._reusable(entry, time_limit):
                self._entries.move_to_end(key)
                if count:
                    self.stats.hits += 1
                return entry.future, True
            if count:
                self.stats.misses += 1
            self.stats.built += 1
            future = submit(time_limit)
            self._entries[key] = Entry(future, time_limit)
            self._entries.move_to_end(key)
            self._shrink()
        future.add_done_callback(lambda _f: self._after_build())
        return future, False

    @staticmethod
    def _reusable(entry: Entry, time_limit: float) -> bool:
        future = entry.future
        if not future.done():
            return True  # still being built: share the work
        if future.cancelled() or future.exception() is not None:
            return False
        game = future.result()
        return isinstance(game, GdlGame | BuiltNet) or time_limit <= entry.time_limit

    def _after_build(self) -> None:
        with self._lock:
            self._shrink()

    def _shrink(self) -> None:
        """Evict least recently used finished entries past the bounds (lock held)."""
        def size() -> int:
            return sum(game_size(e.future.result()) for e in self._entries.values()
                       if e.future.done() and not e.future.cancelled()
                       and e.future.exception() is None)

        for key in list(self._entries):
            if len(self._entries) <= self.max_entries and size() <= self.max_size:
                return
            entry = self._entries[key]
            if not entry.future.done():
                continue
            del self._entries[key]
            self.stats.evicted += 1
            log.info("grounding cache: evicted %s", key[:12])

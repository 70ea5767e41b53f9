"""Pondering: the bot's live search goes on during the opponent's time.

After genmove, the search of a search bot (its root now the opponent's position) keeps
running in a thread, capped in seconds.  The next command stops it before anything else
happens (``Search.stop`` is thread-safe, and the thread is joined), so commands never
see a search that is running; a following ``play`` re-roots the search with the
statistics gathered meanwhile (tree reuse).
"""

from __future__ import annotations

import threading
import time
from typing import Any

CHUNK_SECONDS = 0.2


class Ponderer:
    def __init__(self, cap_seconds: float = 600.0) -> None:
        self.cap_seconds = cap_seconds
        self._thread: threading.Thread | None = None
        self._search: Any = None
        self._halt = threading.Event()
        self.iterations = 0  # iterations pondered by the last session

    @property
    def active(self) -> bool:
        return self._thread is not None

    def start(self, bot: Any) -> bool:
        """Ponder with ``bot``'s live search, if it has one; True if started."""
        self.stop()
        search = getattr(bot, "search", None)
        if search is None or not hasattr(search, "run") or search.state.is_terminal():
            return False
        self._search = search
        self.iterations = 0
        halt = self._halt = threading.Event()

        def work() -> None:
            # Short runs, so a stop that arrives before a run has begun (and would be
            # cleared by it) costs at most one chunk.
            before = search.result().iterations
            after = before
            end = time.monotonic() + self.cap_seconds
            try:
                while not halt.is_set() and time.monotonic() < end:
                    after = search.run(seconds=CHUNK_SECONDS).iterations
            except Exception:  # a full node budget or the like: pondering just ends
                pass
            self.iterations = after - before

        self._thread = threading.Thread(target=work, name="miai-ponder", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        if self._thread is None:
            return
        self._halt.set()
        self._search.stop()
        self._thread.join()
        self._thread = None
        self._search = None

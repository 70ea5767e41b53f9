"""The Bot protocol: a named, parameterised player built from a spec.

A match (bots/match.py) calls, for each game: ``reset(game)``; then at every ply
``choose(state, role)`` on the bot(s) to move and ``observe(state_before, move)`` on
every bot (the move is an int, or a list with one move per role at simultaneous
states); finally ``close()`` once the bot is no longer needed.  ``choose`` never
changes ``state``.  ``last_report`` is the search report of the last ``choose``
(an ``engine.search.SearchResult``), or None.

What a bot can do on a clock is asked through methods with defaults here, never by
probing attributes (bots/thinker.py drives them): ``searcher(state, role)`` is the
bot's live search (a :class:`Searcher`) or None for bots that do not search;
``move_budget()`` its own budget per move; ``choose_within(state, role, seconds)``
chooses with at most ``seconds`` of thinking; ``stop()`` asks a ``choose`` running
on another thread to return soon; ``searched(report)`` tells a searching bot that a
move was chosen from its searcher.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from bots.report import Report
from engine import games
from engine.errors import StateError
from engine.games import Game, Move, State

# Seeds are 64-bit, like the C core's RNG.
SEED_MAX = 2**64 - 1


@dataclass(frozen=True)
class MoveBudget:
    """A bot's own thinking budget per move: iterations and seconds (None: no limit
    of that kind)."""

    iterations: int | None = None
    seconds: float | None = None


class Searcher(Protocol):
    """A bot's live search over one root, run in chunks by a Thinker (bots/thinker.py).

    ``run`` and ``advance`` come from one thread at a time; ``stop`` and ``report``
    from any thread.  Moves are the game's own (ids for C games, texts on the
    reference prover)."""

    @property
    def state(self) -> Any: ...

    def run(self, iterations: int | None, seconds: float,
            on_batch: Callable[[Report], None] | None = None) -> int: ...

    def stop(self) -> None: ...

    def report(self) -> Report | None: ...

    def best(self, role: int) -> Move | None: ...

    def iterations(self) -> int: ...

    def advance(self, move: Move | Sequence[Move]) -> None: ...


@runtime_checkable
class Bot(Protocol):
    name: str
    spec: str

    @property
    def last_report(self) -> Report | None: ...

    def reset(self, game: Game) -> None: ...

    def choose(self, state: State, role: int | None = None) -> Move: ...

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None: ...

    def close(self) -> None: ...

    def searcher(self, state: State, role: int) -> Searcher | None: ...

    def move_budget(self) -> MoveBudget: ...

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> Move: ...

    def stop(self) -> None: ...

    def searched(self, report: Report | None) -> None: ...


class BaseBot:
    """Defaults for the Bot protocol: a seeded RNG reseeded per game, no report."""

    def __init__(self, name: str, spec: str, game: Game, seed: int = 0) -> None:
        self.name = name
        self.spec = spec
        self.game = game
        self.seed = seed
        self._games_started = 0
        self._report: Report | None = None
        self.rng = random.Random(seed)

    @property
    def last_report(self) -> Report | None:
        return self._report

    def reset(self, game: Game) -> None:
        """Start a new game: a fresh RNG stream per game, so every game of a match
        is reproducible from the seed and the game's index alone."""
        self.game = game
        self._games_started += 1
        self.rng = random.Random(self.game_seed())
        self._report = None

    def game_seed(self) -> int:
        """The seed of the current game (the bot's seed for the first one)."""
        index = max(0, self._games_started - 1)
        return (self.seed + 0x9E3779B97F4A7C15 * index) % (SEED_MAX + 1)

    def choose(self, state: State, role: int | None = None) -> Move:
        raise StateError(f"bot {self.spec!r} cannot choose a move")

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None:
        """A move was played (by anyone); the default ignores it."""

    def close(self) -> None:
        """Release external resources; the default has none."""

    def searcher(self, state: State, role: int) -> Searcher | None:
        """The live search over ``state`` for ``role`` (made, or the kept one when it
        is at that position); None: this bot does not search (the default)."""
        return None

    def move_budget(self) -> MoveBudget:
        """The bot's own budget per move (the default: none of its own)."""
        return MoveBudget()

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> Move:
        """``choose`` with at most ``seconds`` of thinking (None: the bot's own
        budget); the default ignores the clock."""
        return self.choose(state, role)

    def stop(self) -> None:
        """Ask a ``choose`` running on another thread to return soon (default: no
        way to; the Thinker's watchdog covers it)."""

    def searched(self, report: Report | None) -> None:
        """A Thinker chose a move from this bot's searcher: ``report`` becomes the
        last report."""
        self._report = report

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def acting_role(state: State, role: int | None) -> int:
    """The role a bot moves for: the mover, or ``role`` at simultaneous states."""
    tm = state.to_move
    if tm == games.NOBODY:
        raise StateError("the game is over: no move to choose")
    if tm == games.SIMULTANEOUS:
        if role is None:
            raise StateError("simultaneous state: choose(state, role) needs the role")
        if not isinstance(role, int) or not 0 <= role < state.game.n_roles:
            raise StateError(f"role {role!r} outside [0, {state.game.n_roles})")
        return role
    if role is not None and role != tm:
        raise StateError(f"role {role} asked to move, but role {tm} is to move")
    return tm

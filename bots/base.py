"""The Bot protocol: a named, parameterised player built from a spec.

A match (bots/match.py) calls, for each game: ``reset(game)``; then at every ply
``choose(state, role)`` on the bot(s) to move and ``observe(state_before, move)`` on
every bot (the move is an int, or a list with one move per role at simultaneous
states); finally ``close()`` once the bot is no longer needed.  ``choose`` never
changes ``state``.  ``last_report`` is the search report of the last ``choose``
(an ``engine.search.SearchResult``), or None.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bots.report import Report
from engine import games
from engine.errors import StateError
from engine.games import Game, Move, State

# Seeds are 64-bit, like the C core's RNG.
SEED_MAX = 2**64 - 1


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

"""Stand-in games in plain Python for paths no C game exercises yet (test helpers)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import games


# A simultaneous game in plain Python (no simultaneous C game exists yet): three rounds
# of matching pennies; role 0 scores a point when the coins match, role 1 otherwise.
class PenniesState:
    def __init__(self, game: PenniesGame, rounds: tuple[tuple[int, int], ...] = ()) -> None:
        self.game = game
        self.rounds = rounds

    @property
    def ply(self) -> int:
        return len(self.rounds)

    @property
    def to_move(self) -> int:
        return games.NOBODY if self.is_terminal() else games.SIMULTANEOUS

    def is_terminal(self) -> bool:
        return len(self.rounds) == 3

    def legal_moves(self, role: int | None = None) -> list[int]:
        assert role in (0, 1)
        return [] if self.is_terminal() else [0, 1]

    def format_move(self, move: int, role: int | None = None) -> str:
        return ("heads", "tails")[move]

    def parse_move(self, text: str, role: int | None = None) -> int:
        return ("heads", "tails").index(text)

    def play_joint(self, moves: Sequence[int]) -> PenniesState:
        assert not self.is_terminal() and all(m in (0, 1) for m in moves)
        self.rounds = (*self.rounds, (moves[0], moves[1]))
        return self

    def play(self, move: int) -> PenniesState:
        raise AssertionError("a simultaneous game has no single moves")

    def copy(self) -> PenniesState:
        return PenniesState(self.game, self.rounds)

    def to_bytes(self) -> bytes:
        return bytes(m for r in self.rounds for m in r)

    def rewards(self) -> tuple[float, float]:
        matches = sum(a == b for a, b in self.rounds)
        return matches / 3, 1 - matches / 3


class PenniesGame:
    n_roles = 2
    spec = name = "pennies"

    def initial_state(self) -> PenniesState:
        return PenniesState(self)

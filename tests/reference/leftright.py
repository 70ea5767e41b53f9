"""LeftRight in plain Python (UCD paper, section 4.1), for tests only.

One player takes ``steps`` steps, each "L" or "R"; after the last step the reward is
the share of Left steps.  The state keeps the whole path, so a test can compare
positions reached by different move orders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MOVES = ("L", "R")


@dataclass
class LeftRight:
    steps: int
    path: list[str] = field(default_factory=list)

    def copy(self) -> LeftRight:
        return LeftRight(self.steps, list(self.path))

    def position(self) -> tuple[int, int]:
        """(step, lefts): what determines the future of the game."""
        return len(self.path), self.path.count("L")

    def is_terminal(self) -> bool:
        return len(self.path) == self.steps

    def legal_moves(self) -> list[str]:
        return [] if self.is_terminal() else list(MOVES)

    def play(self, move: str) -> None:
        assert move in self.legal_moves(), move
        self.path.append(move)

    def reward(self) -> float:
        assert self.is_terminal()
        return self.path.count("L") / self.steps


def perft(state: LeftRight, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for m in state.legal_moves():
        child = state.copy()
        child.play(m)
        total += perft(child, depth - 1)
    return total

"""Othello in plain Python, from the rules, for tests only.

An 8 x 8 grid indexed [row][col], row 0 = rank 1 at the top, col 0 = file a, holding
None, 0 (black, x, moves first) or 1 (white, o).  A move is row * 8 + col or PASS (64);
a player with no placing move must pass, and the game ends when neither player can
place a disc.  More discs wins.  Every question walks the grid square by square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIZE = 8
PASS = 64
RAYS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def _start() -> list[list[int | None]]:
    grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    grid[3][3] = grid[4][4] = 1  # d4, e5 white
    grid[3][4] = grid[4][3] = 0  # e4, d5 black
    return grid


@dataclass
class Othello:
    grid: list[list[int | None]] = field(default_factory=_start)
    to_move: int = 0

    def copy(self) -> Othello:
        return Othello([row[:] for row in self.grid], self.to_move)

    def flips(self, who: int, row: int, col: int) -> list[tuple[int, int]]:
        """The discs a disc of ``who`` on the empty (row, col) would flip."""
        if self.grid[row][col] is not None:
            return []
        out = []
        for dr, dc in RAYS:
            run = []
            r, c = row + dr, col + dc
            while 0 <= r < SIZE and 0 <= c < SIZE and self.grid[r][c] == 1 - who:
                run.append((r, c))
                r, c = r + dr, c + dc
            if run and 0 <= r < SIZE and 0 <= c < SIZE and self.grid[r][c] == who:
                out += run
        return out

    def placements(self, who: int) -> list[int]:
        return [r * SIZE + c for r in range(SIZE) for c in range(SIZE)
                if self.flips(who, r, c)]

    def is_terminal(self) -> bool:
        return not self.placements(0) and not self.placements(1)

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return self.placements(self.to_move) or [PASS]

    def play(self, move: int) -> None:
        assert move in self.legal_moves()
        if move != PASS:
            row, col = divmod(move, SIZE)
            for r, c in self.flips(self.to_move, row, col):
                self.grid[r][c] = self.to_move
            self.grid[row][col] = self.to_move
        self.to_move = 1 - self.to_move

    def rewards(self) -> tuple[float, float]:
        black = sum(row.count(0) for row in self.grid)
        white = sum(row.count(1) for row in self.grid)
        if black == white:
            return (0.5, 0.5)
        return (1.0, 0.0) if black > white else (0.0, 1.0)

    def rows_top_first(self) -> list[str]:
        """Ranks 1..8 as text rows: x, o and '-'."""
        chars = {None: "-", 0: "x", 1: "o"}
        return ["".join(chars[cell] for cell in row) for row in self.grid]

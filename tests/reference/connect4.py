"""Connect Four in plain Python, from the rules, for tests only.

A 7 x 6 grid of rows (row 0 at the bottom) holding None, 0 (x, first player) or 1
(o).  A move is a column 0..6; four in a row in any of the four directions wins; a
full board without a line is a draw.  No bitboards and no incremental anything: each
question is answered by looking at the whole grid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLS, ROWS = 7, 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass
class Connect4:
    grid: list[list[int | None]] = field(
        default_factory=lambda: [[None] * COLS for _ in range(ROWS)]
    )
    to_move: int = 0

    def copy(self) -> Connect4:
        return Connect4([row[:] for row in self.grid], self.to_move)

    def winner(self) -> int | None:
        for r in range(ROWS):
            for c in range(COLS):
                who = self.grid[r][c]
                if who is None:
                    continue
                for dc, dr in DIRECTIONS:
                    line = [(r + k * dr, c + k * dc) for k in range(4)]
                    if all(0 <= rr < ROWS and 0 <= cc < COLS and self.grid[rr][cc] == who
                           for rr, cc in line):
                        return who
        return None

    def full(self) -> bool:
        return all(cell is not None for cell in self.grid[ROWS - 1])

    def is_terminal(self) -> bool:
        return self.winner() is not None or self.full()

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return [c for c in range(COLS) if self.grid[ROWS - 1][c] is None]

    def play(self, col: int) -> None:
        assert col in self.legal_moves()
        row = next(r for r in range(ROWS) if self.grid[r][col] is None)
        self.grid[row][col] = self.to_move
        self.to_move = 1 - self.to_move

    def rewards(self) -> tuple[float, float]:
        w = self.winner()
        return (0.5, 0.5) if w is None else ((1.0, 0.0) if w == 0 else (0.0, 1.0))

    def rows_top_first(self) -> list[str]:
        """The board as text rows, top first: x, o and '.'."""
        chars = {None: ".", 0: "x", 1: "o"}
        return ["".join(chars[cell] for cell in self.grid[r]) for r in reversed(range(ROWS))]

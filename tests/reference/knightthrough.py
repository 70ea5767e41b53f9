"""Knightthrough in plain Python, written from the GGP rulesheet
(engine/gdl/rulesheets/knightthrough.kif), for tests only.

The board is a dict {(x, y): role} with x the file 1..8 (a..h) and y the rank 1..8,
as in the rulesheet's (cell x y role).  White (role 0) moves first and up, black
(role 1) down; a move is (x1, y1, x2, y2) as in (move x1 y1 x2 y2).  The rulesheet
says nothing about a side left without pieces (it would have no legal move); like the
C game we end the game there as a win for the side that captured the last piece.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WHITE, BLACK = 0, 1
FILES = "abcdefgh"

# (dx, dy) of white's knight moves (whiteknightmove); black's are mirrored in y.
WHITE_STEPS = ((1, 2), (-1, 2), (2, 1), (-2, 1))

Move = tuple[int, int, int, int]


def move_text(move: Move) -> str:
    x1, y1, x2, y2 = move
    return f"{FILES[x1 - 1]}{y1}{FILES[x2 - 1]}{y2}"


@dataclass
class Knightthrough:
    cells: dict[tuple[int, int], int] = field(default_factory=dict)
    control: int = WHITE
    ply: int = 0

    @classmethod
    def initial(cls) -> Knightthrough:
        cells = {}
        for x in range(1, 9):
            cells[(x, 1)] = cells[(x, 2)] = WHITE
            cells[(x, 7)] = cells[(x, 8)] = BLACK
        return cls(cells)

    def copy(self) -> Knightthrough:
        return Knightthrough(dict(self.cells), self.control, self.ply)

    def winner(self) -> int | None:
        if any(self.cells.get((x, 8)) == WHITE for x in range(1, 9)):
            return WHITE
        if any(self.cells.get((x, 1)) == BLACK for x in range(1, 9)):
            return BLACK
        for role in (WHITE, BLACK):
            if role not in self.cells.values():
                return 1 - role
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        role = self.control
        sign = 1 if role == WHITE else -1
        moves = []
        for (x1, y1), owner in sorted(self.cells.items()):
            if owner != role:
                continue
            for dx, dy in WHITE_STEPS:
                x2, y2 = x1 + dx, y1 + sign * dy
                if 1 <= x2 <= 8 and 1 <= y2 <= 8 and self.cells.get((x2, y2)) != role:
                    moves.append((x1, y1, x2, y2))
        return moves

    def play(self, move: Move) -> None:
        assert move in self.legal_moves(), move
        x1, y1, x2, y2 = move
        del self.cells[(x1, y1)]
        self.cells[(x2, y2)] = self.control  # replaces an enemy piece: a capture
        self.control = 1 - self.control
        self.ply += 1

    def rewards(self) -> tuple[float, float]:
        w = self.winner()
        assert w is not None
        return (1.0, 0.0) if w == WHITE else (0.0, 1.0)

    def board_rows(self) -> list[str]:
        """Rank 8 first, 'W' / 'B' / '.', as the C game renders."""
        marks = {WHITE: "W", BLACK: "B"}
        return [
            "".join(marks.get(self.cells.get((x, y)), ".") for x in range(1, 9))
            for y in range(8, 0, -1)
        ]


def perft(state: Knightthrough, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = state.copy()
        child.play(m)
        total += perft(child, depth - 1)
    return total

"""Plain-Python Go rules: the independent truth the C ``go`` game is tested against.

Deliberately naive and written from the rules, sharing no code or data structure with
csrc/games/go*.c: the board is a list of colours, groups and liberties are found by
flood fill on every question, history is a set of board tuples.

Points are move ids ``row * size + col`` (row 0 at the top), as in the C game;
colours 0 empty, 1 black, 2 white.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EMPTY, BLACK, WHITE = 0, 1, 2
COLUMNS = "ABCDEFGHJKLMNOPQRST"


def vertex(size: int, m: int) -> str:
    """GTP text of a move id (``pass`` for size*size)."""
    if m == size * size:
        return "pass"
    return f"{COLUMNS[m % size]}{size - m // size}"


def move_id(size: int, text: str) -> int:
    t = text.strip().upper()
    if t == "PASS":
        return size * size
    return (size - int(t[1:])) * size + COLUMNS.index(t[0])


def neighbours(size: int, m: int) -> list[int]:
    r, c = divmod(m, size)
    out = []
    if r > 0:
        out.append(m - size)
    if r < size - 1:
        out.append(m + size)
    if c > 0:
        out.append(m - 1)
    if c < size - 1:
        out.append(m + 1)
    return out


def diagonals(size: int, m: int) -> list[int]:
    r, c = divmod(m, size)
    return [(r + dr) * size + c + dc for dr in (-1, 1) for dc in (-1, 1)
            if 0 <= r + dr < size and 0 <= c + dc < size]


def group(size: int, board: list[int], m: int) -> tuple[set[int], set[int]]:
    """The chain through stone m and its liberties."""
    color = board[m]
    stones, libs, todo = {m}, set(), [m]
    while todo:
        q = todo.pop()
        for n in neighbours(size, q):
            if board[n] == EMPTY:
                libs.add(n)
            elif board[n] == color and n not in stones:
                stones.add(n)
                todo.append(n)
    return stones, libs


def after_move(size: int, board: list[int], m: int, color: int) -> tuple[list[int], int] | None:
    """The board after ``color`` plays at empty m and the stones it captures, or None
    if the move is suicide."""
    new = list(board)
    new[m] = color
    taken = 0
    for n in neighbours(size, m):
        if new[n] == 3 - color:
            stones, libs = group(size, new, n)
            if not libs:
                for s in stones:
                    new[s] = EMPTY
                taken += len(stones)
    if not group(size, new, m)[1]:
        return None
    return new, taken


def is_own_eye(size: int, board: list[int], m: int, color: int) -> bool:
    """Empty m with only ``color`` orthogonally, and not false by the diagonals: at most
    one opponent diagonal inside the board, none on the edge."""
    if board[m] != EMPTY or any(board[n] != color for n in neighbours(size, m)):
        return False
    diag = diagonals(size, m)
    bad = sum(board[d] == 3 - color for d in diag)
    return bad + (len(diag) < 4) < 2


def area(size: int, board: list[int], dead: set[int] = frozenset()) -> tuple[int, int, list[int]]:
    """Black area, white area and the owner of each point (0 = neutral)."""
    b = [EMPTY if i in dead else c for i, c in enumerate(board)]
    owner = [EMPTY] * (size * size)
    seen: set[int] = set()
    for m in range(size * size):
        if b[m] != EMPTY:
            owner[m] = b[m]
            continue
        if m in seen:
            continue
        region, border, todo = {m}, set(), [m]
        while todo:
            q = todo.pop()
            for n in neighbours(size, q):
                if b[n] == EMPTY and n not in region:
                    region.add(n)
                    todo.append(n)
                elif b[n] != EMPTY:
                    border.add(b[n])
        seen |= region
        who = border.pop() if len(border) == 1 else EMPTY
        for q in region:
            owner[q] = who
    return owner.count(BLACK), owner.count(WHITE), owner


@dataclass
class RefGo:
    """A game: positional superko (``superko=True``) or simple ko (GNU Go's rule)."""

    size: int
    komi: float = 7.5
    superko: bool = True
    board: list[int] = field(default_factory=list)
    to_move: int = BLACK
    passes: int = 0
    captures: list[int] = field(default_factory=lambda: [0, 0])
    history: set[tuple[int, ...]] = field(default_factory=set)
    previous: tuple[int, ...] | None = None  # the board before the last move

    def __post_init__(self) -> None:
        if not self.board:
            self.board = [EMPTY] * (self.size * self.size)
        self.history.add(tuple(self.board))

    def setup(self, black: list[int], white: list[int], to_move: int = BLACK) -> None:
        for m in black:
            self.board[m] = BLACK
        for m in white:
            self.board[m] = WHITE
        self.to_move = to_move
        self.history = {tuple(self.board)}
        self.previous = None

    def is_legal(self, m: int) -> bool:
        if m == self.size * self.size:
            return True
        if self.board[m] != EMPTY:
            return False
        result = after_move(self.size, self.board, m, self.to_move)
        if result is None:
            return False
        new = tuple(result[0])
        if self.superko:
            return new not in self.history
        return new != self.previous

    def legal_points(self) -> set[int]:
        return {m for m in range(self.size * self.size) if self.is_legal(m)}

    def play(self, m: int) -> None:
        assert self.is_legal(m), vertex(self.size, m)
        if m == self.size * self.size:
            self.passes += 1
            self.previous = tuple(self.board)
        else:
            result = after_move(self.size, self.board, m, self.to_move)
            assert result is not None
            self.previous = tuple(self.board)
            self.board, taken = result
            self.captures[self.to_move - 1] += taken
            self.passes = 0
            self.history.add(tuple(self.board))
        self.to_move = 3 - self.to_move

    def score(self) -> float:
        """Black area - white area - komi, every stone alive."""
        b, w, _ = area(self.size, self.board)
        return b - w - self.komi

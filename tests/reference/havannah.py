"""Havannah rules in plain Python, written from the rules text, for testing the C game.

Nothing here is incremental or clever; every win is recomputed from the whole board:

- Cells are (x, y) with 0 <= x, y <= 2b-2 and |x - y| < b (b = base).  Neighbours of (x, y)
  are (x±1, y), (x, y±1), (x+1, y+1) and (x-1, y-1).  Text: letter 'a' + x, number y + 1.
- Corners are the six cells with exactly three neighbours; a side is a maximal run of the
  other rim cells (cells with fewer than six neighbours) between two corners.
- Bridge: a connected group of the player's stones holds two corners.
- Fork: a group holds cells of three different sides (corners belong to no side).
- Ring: a closed chain of the player's stones around at least one cell.  A cell is inside
  such a chain exactly when it cannot reach the outside of the board without crossing
  one of the player's stones other than itself.  So: flood the complement of the
  player's stones from the board's outside (through rim cells); a non-stone cell the
  flood misses is enclosed; a stone of the player is enclosed when it is not on the rim
  and no neighbour of it was reached by the flood.
- The first player to have any of the three wins; a full board without one is a draw.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]
STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


class Board:
    """The geometry of one base: cells, neighbours, corners and sides."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.diameter = 2 * base - 1
        span = range(self.diameter)
        self.cells: list[Cell] = [
            (x, y) for y in span for x in span if abs(x - y) < base
        ]
        cell_set = set(self.cells)
        self.neighbours: dict[Cell, list[Cell]] = {
            (x, y): [(x + dx, y + dy) for dx, dy in STEPS if (x + dx, y + dy) in cell_set]
            for x, y in self.cells
        }
        self.rim = {c for c in self.cells if len(self.neighbours[c]) < 6}
        self.corners = {c for c in self.rim if len(self.neighbours[c]) == 3}
        self.side_of = self._sides()

    def _sides(self) -> dict[Cell, int]:
        """Number the sides 0..5: connected runs of rim cells once corners are removed."""
        side_of: dict[Cell, int] = {}
        plain = self.rim - self.corners
        for start in sorted(plain):
            if start in side_of:
                continue
            label = len(set(side_of.values()))
            todo = [start]
            side_of[start] = label
            while todo:
                c = todo.pop()
                for n in self.neighbours[c]:
                    if n in plain and n not in side_of:
                        side_of[n] = label
                        todo.append(n)
        return side_of

    def text(self, cell: Cell) -> str:
        return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"

    def parse(self, text: str) -> Cell:
        cell = (ord(text[0]) - ord("a"), int(text[1:]) - 1)
        if cell not in self.neighbours:
            raise ValueError(f"{text!r} is not a cell of base {self.base}")
        return cell

    def groups(self, stones: set[Cell]) -> list[set[Cell]]:
        left = set(stones)
        out = []
        while left:
            start = left.pop()
            group = {start}
            todo = [start]
            while todo:
                c = todo.pop()
                for n in self.neighbours[c]:
                    if n in left:
                        left.remove(n)
                        group.add(n)
                        todo.append(n)
            out.append(group)
        return out

    def outside_reach(self, stones: set[Cell]) -> set[Cell]:
        """The non-stone cells reachable from outside the board without crossing a stone."""
        reached = {c for c in self.rim if c not in stones}
        todo = list(reached)
        while todo:
            c = todo.pop()
            for n in self.neighbours[c]:
                if n not in stones and n not in reached:
                    reached.add(n)
                    todo.append(n)
        return reached

    def has_ring(self, stones: set[Cell]) -> bool:
        reached = self.outside_reach(stones)
        for c in self.cells:
            if c not in stones and c not in reached:
                return True
            if (
                c in stones
                and c not in self.rim
                and not any(n in reached for n in self.neighbours[c])
            ):
                return True
        return False

    def wins(self, stones: Iterable[Cell]) -> set[str]:
        """The kinds of win ("ring", "bridge", "fork") these stones of one player make."""
        stones = set(stones)
        kinds = set()
        for group in self.groups(stones):
            if len(group & self.corners) >= 2:
                kinds.add("bridge")
            if len({self.side_of[c] for c in group if c in self.side_of}) >= 3:
                kinds.add("fork")
        if self.has_ring(stones):
            kinds.add("ring")
        return kinds


class Game:
    """A game in progress: stones per player, player 0 to move first."""

    def __init__(self, base: int) -> None:
        self.board = Board(base)
        self.stones: tuple[set[Cell], set[Cell]] = (set(), set())
        self.to_move = 0
        self.winner: int | None = None
        self.win_kinds: set[str] = set()
        self.over = False

    def legal(self) -> list[Cell]:
        if self.over:
            return []
        taken = self.stones[0] | self.stones[1]
        return [c for c in self.board.cells if c not in taken]

    def play(self, cell: Cell) -> None:
        if self.over or cell in self.stones[0] or cell in self.stones[1]:
            raise ValueError(f"illegal move {cell}")
        if cell not in self.board.neighbours:
            raise ValueError(f"{cell} is off the board")
        player = self.to_move
        self.stones[player].add(cell)
        kinds = self.board.wins(self.stones[player])
        if kinds:
            self.winner, self.win_kinds, self.over = player, kinds, True
        elif len(self.stones[0]) + len(self.stones[1]) == len(self.board.cells):
            self.over = True
        self.to_move = 1 - player

    def rewards(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

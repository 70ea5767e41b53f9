"""The Go game a GTP engine keeps: board size, komi, setup stones, moves, undo.

Every change is made on a copy and committed only when it succeeds, so a failed command
leaves the session exactly as it was (GTP: ``? message`` with the state unchanged).

Out-of-turn moves (``play b ...`` twice in a row, as GTP controllers send for setups)
are played with ``go.play_as``: full rules, and the other side moves next; no pass is
invented.  A game that ended with two passes accepts further moves (as in KGS's clean-up
phase): the position is rebuilt without the final pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import games
from engine.errors import IllegalMoveError, InvalidArgumentError
from engine.games import Game, State

COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}
COLOUR_NAMES = ("B", "W")
MIN_SIZE, MAX_SIZE = 5, 19


def parse_colour(text: str) -> int:
    role = COLOURS.get(text.lower())
    if role is None:
        raise InvalidArgumentError(f"invalid color {text!r}")
    return role


@dataclass
class GoSession:
    size: int = 9
    komi: float = 7.5
    setup: list[tuple[int, int]] = field(default_factory=list)  # (role, point) stones
    moves: list[tuple[int, int]] = field(default_factory=list)  # (role, move id)

    def __post_init__(self) -> None:
        self.game = self._make_game(self.size, self.komi)
        self.state = self._replay(self.game, self.setup, self.moves)

    # -- construction ---------------------------------------------------------
    @staticmethod
    def _make_game(size: int, komi: float) -> Game:
        return games.create("go", size=size, komi=komi)

    @staticmethod
    def _replay(game: Game, setup: list[tuple[int, int]], moves: list[tuple[int, int]]) -> State:
        from engine import go

        state = game.initial_state()
        black = [p for r, p in setup if r == 0]
        white = [p for r, p in setup if r == 1]
        if black and not white and len(black) >= 2:
            go.place_handicap(state, black)  # white moves next
        elif setup:
            go.setup(state, black=black, white=white, to_move=0)
        for role, move in moves:
            if state.is_terminal():
                raise IllegalMoveError("the game is over")
            if state.to_move == role:
                state.play(move)
            else:
                go.play_as(state, role, move)
        return state

    def _commit(self, setup: list[tuple[int, int]], moves: list[tuple[int, int]]) -> None:
        state = self._replay(self.game, setup, moves)  # raises before anything changes
        self.setup, self.moves, self.state = setup, moves, state

    # -- GTP operations --------------------------------------------------------
    def set_size(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidArgumentError("unacceptable size")
        game = self._make_game(size, self.komi)
        self.size, self.game = size, game
        self.setup, self.moves = [], []
        self.state = game.initial_state()

    def set_komi(self, komi: float) -> None:
        game = self._make_game(self.size, komi)
        state = self._replay(game, self.setup, self.moves)
        self.komi, self.game, self.state = komi, game, state

    def clear(self) -> None:
        self.setup, self.moves = [], []
        self.state = self.game.initial_state()

    @property
    def pass_move(self) -> int:
        return self.size * self.size

    def parse_vertex(self, text: str) -> int:
        return self.game.move_from_text(text, 0)

    def vertex(self, move: int) -> str:
        return self.game.move_to_text(move, 0).upper() if move != self.pass_move else "pass"

    def play(self, role: int, move: int) -> None:
        """Play ``move`` (id) for ``role``, in turn or not."""
        moves = list(self.moves)
        if self.state.is_terminal():
            if not moves or moves[-1][1] != self.pass_move:
                raise IllegalMoveError("the game is over")
            # A game ended by two passes goes on (clean-up): drop the final pass.
            moves = moves[:-1]
        moves.append((role, move))
        self._commit(list(self.setup), moves)

    def undo(self) -> None:
        if not self.moves:
            raise InvalidArgumentError("cannot undo")
        self._commit(list(self.setup), self.moves[:-1])

    def place_setup(self, role: int, points: list[int]) -> None:
        """Handicap stones of one colour; only on an empty board with no moves."""
        self.place_setup_stones([(role, p) for p in points])

    def place_setup_stones(self, stones: list[tuple[int, int]]) -> None:
        """Setup stones (role, point); only on an empty board with no moves."""
        if self.moves or self.setup:
            raise InvalidArgumentError("board not empty")
        points = [p for _, p in stones]
        if len(set(points)) != len(points):
            raise InvalidArgumentError("repeated vertex")
        if any(p == self.pass_move for p in points):
            raise InvalidArgumentError("cannot place a pass")
        self._commit(list(stones), [])

    def adopt(self, other: GoSession) -> None:
        """Take over another session's game (after it was built successfully)."""
        self.size, self.komi, self.game = other.size, other.komi, other.game
        self.setup, self.moves, self.state = other.setup, other.moves, other.state

    def to_move(self) -> int:
        tm = self.state.to_move
        return tm if tm >= 0 else len(self.moves) % 2

    def moves_left_estimate(self) -> int:
        """A rough number of own moves still to come (for the clock)."""
        empty = self.size * self.size - len(self.setup) - len(self.moves)
        return max(8, empty // 2)

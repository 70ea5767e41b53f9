"""The Go game a GTP engine keeps: board size, komi, setup stones, moves, undo.

Every change is made on a copy and committed only when it succeeds, so a failed command
leaves the session exactly as it was (GTP: ``? message`` with the state unchanged).

Out-of-turn moves (``play b ...`` twice in a row, as GTP controllers send for setups)
are played with ``go.play_as``: full rules, and the other side moves next; no pass is
invented (GNU Go's behaviour), so ``undo`` takes back just that move.  A game that ended
with two passes accepts further moves (as in KGS's clean-up phase): the record keeps
both passes, and the position goes on from the one before the final pass.

The side to move at the start is Black, White after handicap stones, or what an SGF
file's ``PL`` says (``first``).
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
    first: int | None = None  # the side to move at the start when set (SGF PL)

    def __post_init__(self) -> None:
        self.game = self._make_game(self.size, self.komi)
        self.state = self._replay(self.game, self.setup, self.moves, self.first)

    # -- construction ---------------------------------------------------------
    @staticmethod
    def _make_game(size: int, komi: float) -> Game:
        return games.create("go", size=size, komi=komi)

    @staticmethod
    def _replay(game: Game, setup: list[tuple[int, int]], moves: list[tuple[int, int]],
                first: int | None = None) -> State:
        from engine import go

        state = game.initial_state()
        black = [p for r, p in setup if r == 0]
        white = [p for r, p in setup if r == 1]
        if first is not None:
            go.setup(state, black=black, white=white, to_move=first)
        elif black and not white and len(black) >= 2:
            go.place_handicap(state, black)  # white moves next
        elif setup:
            go.setup(state, black=black, white=white, to_move=0)
        return _play_moves(game, state, moves, rebase=True)

    def _commit(self, setup: list[tuple[int, int]], moves: list[tuple[int, int]],
                first: int | None = None) -> None:
        state = self._replay(self.game, setup, moves, first)  # raises before any change
        self.setup, self.moves, self.first, self.state = setup, moves, first, state

    # -- GTP operations --------------------------------------------------------
    def set_size(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidArgumentError("unacceptable size")
        game = self._make_game(size, self.komi)
        self.size, self.game = size, game
        self.setup, self.moves, self.first = [], [], None
        self.state = game.initial_state()

    def set_komi(self, komi: float) -> None:
        game = self._make_game(self.size, komi)
        state = self._replay(game, self.setup, self.moves, self.first)
        self.komi, self.game, self.state = komi, game, state

    def clear(self) -> None:
        self.setup, self.moves, self.first = [], [], None
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
        self._commit(list(self.setup), [*self.moves, (role, move)], self.first)

    def undo(self) -> None:
        if not self.moves:
            raise InvalidArgumentError("cannot undo")
        self._commit(list(self.setup), self.moves[:-1], self.first)

    def place_setup(self, role: int, points: list[int]) -> None:
        """Handicap stones of one colour; only on an empty board with no moves."""
        self.place_setup_stones([(role, p) for p in points])

    def place_setup_stones(self, stones: list[tuple[int, int]],
                           first: int | None = None) -> None:
        """Setup stones (role, point) and the side to move first (None: the default);
        only on an empty board with no moves."""
        if self.moves or self.setup:
            raise InvalidArgumentError("board not empty")
        points = [p for _, p in stones]
        if len(set(points)) != len(points):
            raise InvalidArgumentError("repeated vertex")
        if any(p == self.pass_move for p in points):
            raise InvalidArgumentError("cannot place a pass")
        self._commit(list(stones), [], first)

    def adopt(self, other: GoSession) -> None:
        """Take over another session's game (after it was built successfully)."""
        self.size, self.komi, self.game = other.size, other.komi, other.game
        self.setup, self.moves, self.state = other.setup, other.moves, other.state
        self.first = other.first

    def start_player(self) -> int:
        """The side to move before the first move (0 black, 1 white)."""
        if self.first is not None:
            return self.first
        black = [p for r, p in self.setup if r == 0]
        return 1 if len(black) >= 2 and len(black) == len(self.setup) else 0

    def to_move(self) -> int:
        tm = self.state.to_move
        return tm if tm >= 0 else len(self.moves) % 2

    def both_passed(self) -> bool:
        """The game stands ended by two passes (play may still go on: clean-up)."""
        return self.state.is_terminal()

    def in_cleanup(self) -> bool:
        """Two consecutive passes were played some time in this game (KGS's clean-up
        phase: dead stones are captured before the final two passes)."""
        return any(a == b == self.pass_move
                   for (_, a), (_, b) in zip(self.moves, self.moves[1:], strict=False))

    def continuation(self, role: int) -> State | None:
        """After two passes: the position from which ``role`` goes on playing (before
        the final pass, or before both), with ``role`` to move; None if neither is."""
        for back in (1, 2):
            if len(self.moves) < back:
                break
            state = self._replay(self.game, self.setup, self.moves[:-back], self.first)
            if not state.is_terminal() and state.to_move == role:
                return state
        return None


def _play_moves(game: Game, state: State, moves: list[tuple[int, int]],
                rebase: bool) -> State:
    """``state`` after ``moves`` (role, move id), in turn or not; after two passes
    play goes on from before the final pass.  With ``rebase``, a game longer than
    size^2 plies is set up afresh from a checkpoint now and then (:func:`_rebase`)."""
    from engine import go

    pass_move = game.num_moves - 1
    points = pass_move
    spacing = max(4, points // 2)  # a checkpoint every `spacing` moves
    keep = max(4, points // 4)  # positions kept in the history at a rebase, at least
    checkpoints: list[tuple[int, list[int], int]] = []  # (index, colours, to move)
    before_pass: State | None = None  # the position before the last move, a pass
    passes = 0
    for index, (role, move) in enumerate(moves):
        if state.is_terminal():
            if before_pass is None or passes < 2:
                raise IllegalMoveError("the game is over")
            # Both passed and play goes on (clean-up): from before the final pass.
            state = before_pass
        if rebase and index % spacing == 0 and passes == 0 and index:
            checkpoints.append((index, go.colors(state), state.to_move))
        if rebase and state.ply >= points:
            state = _rebase(game, moves, state, index, checkpoints, keep)
        before_pass = state.copy() if move == pass_move else None
        passes = passes + 1 if move == pass_move else 0
        if state.to_move == role:
            state.play(move)
        else:
            go.play_as(state, role, move)
    return state


def _rebase(game: Game, moves: list[tuple[int, int]], state: State, index: int,
            checkpoints: list[tuple[int, list[int], int]], keep: int) -> State:
    """The position before ``moves[index]`` as a state of fewer plies: set up from the
    latest checkpoint at least ``keep`` moves back, then the moves since replayed.  So
    a game that goes on never reaches the C game's ply cap (3 size^2 plies, which
    stays the safety cap of playouts and search), and the search always has at least
    2 size^2 plies ahead.  The superko history then starts at the checkpoint (GNU Go
    checks simple ko only).  ``state`` itself when there is no such checkpoint."""
    from engine import go

    usable = [c for c in checkpoints if c[0] <= index - keep]
    if not usable:
        return state
    at, colours, to_move = usable[-1]
    fresh = game.initial_state()
    go.setup(fresh, black=[p for p, c in enumerate(colours) if c == go.BLACK],
             white=[p for p, c in enumerate(colours) if c == go.WHITE], to_move=to_move)
    return _play_moves(game, fresh, moves[at:index], rebase=False)

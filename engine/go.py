"""Go-specific operations over the C ``go`` game (csrc/games/go_api.h).

Points are move ids (``row * size + col``, row 0 at the top) or GTP vertices such as
``"D4"``; colours are :data:`EMPTY`, :data:`BLACK`, :data:`WHITE`.  Every function
validates its arguments here and the C side validates them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import check, ffi, lib
from engine.errors import IllegalMoveError, InvalidArgumentError
from engine.games import Game, State, create

EMPTY = int(lib.GO_COLOR_EMPTY)
BLACK = int(lib.GO_COLOR_BLACK)
WHITE = int(lib.GO_COLOR_WHITE)

Point = int | str


@dataclass(frozen=True)
class Score:
    """An area count: ``margin`` = black area - white area - komi."""

    black_area: int
    white_area: int
    komi: float
    margin: float

    @property
    def text(self) -> str:
        """GTP ``final_score`` form as GNU Go writes it: ``B+3.5``, ``W+12.0`` or ``0``."""
        if self.margin == 0:
            return "0"
        return f"{'B' if self.margin > 0 else 'W'}+{abs(self.margin):.1f}"


@dataclass(frozen=True)
class Ownership:
    """Per point: the share of playouts ending with the point black's, and the
    territory value (b - w) / n in [-1, 1] of Huang et al.'s eq. 16."""

    black_share: tuple[float, ...]
    territory: tuple[float, ...]


def _require_go(game: Game) -> None:
    if not isinstance(game, Game) or game.name != "go":
        raise InvalidArgumentError(f"a Go game is needed, not {game!r}")


def _require_state(state: State) -> Game:
    if not isinstance(state, State):
        raise InvalidArgumentError(f"a Go state is needed, not {state!r}")
    _require_go(state.game)
    return state.game


def board_size(game: Game) -> int:
    _require_go(game)
    size, komi = ffi.new("uint32_t *"), ffi.new("double *")
    check(lib.go_get_size(game.ptr, size, komi), "go size")
    return int(size[0])


def komi(game: Game) -> float:
    _require_go(game)
    size, k = ffi.new("uint32_t *"), ffi.new("double *")
    check(lib.go_get_size(game.ptr, size, k), "go komi")
    return float(k[0])


def point(game: Game, where: Point) -> int:
    """A board point (not pass) as a move id, from an id or a GTP vertex."""
    _require_go(game)
    n = game.num_moves - 1
    if isinstance(where, str):
        m = game.move_from_text(where)
    elif isinstance(where, int) and not isinstance(where, bool):
        m = where
    else:
        raise InvalidArgumentError(f"a point is a move id or a vertex, not {where!r}")
    if not 0 <= m < n:
        raise InvalidArgumentError(f"{where!r} is not a point of the {board_size(game)}x"
                                   f"{board_size(game)} board")
    return m


def _points(game: Game, where: Iterable[Point]) -> list[int]:
    pts = [point(game, p) for p in where]
    if len(set(pts)) != len(pts):
        raise InvalidArgumentError("a point is given twice")
    return pts


def fixed_handicap_points(game: Game, n: int) -> list[int]:
    """GTP ``fixed_handicap`` placement of ``n`` stones."""
    _require_go(game)
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 9:
        raise InvalidArgumentError(f"fixed handicap is 2..9 stones, not {n!r}")
    out, count = ffi.new("miai_move[]", 9), ffi.new("uint32_t *")
    check(lib.go_fixed_handicap_points(game.ptr, n, out, 9, count), "fixed handicap")
    return [int(out[i]) for i in range(count[0])]


def place_fixed_handicap(state: State, n: int) -> list[int]:
    """Put GTP's fixed handicap on an empty board; white moves next."""
    pts = fixed_handicap_points(_require_state(state), n)
    place_handicap(state, pts)
    return pts


def place_handicap(state: State, points: Sequence[Point]) -> None:
    """Black stones on the given points of an empty board (free placement); white
    moves next."""
    game = _require_state(state)
    pts = _points(game, points)
    if not 2 <= len(pts) < game.num_moves - 1:
        raise InvalidArgumentError(f"a handicap has 2..{game.num_moves - 2} stones")
    check(lib.go_place_handicap(game.ptr, state.ptr, pts, len(pts)), "place handicap")


def setup(state: State, black: Iterable[Point] = (), white: Iterable[Point] = (),
          to_move: int = 0) -> None:
    """Add setup stones before any move is played; ``to_move`` (0 black, 1 white)
    moves next.  The position starts the superko history."""
    game = _require_state(state)
    b, w = _points(game, black), _points(game, white)
    if set(b) & set(w):
        raise InvalidArgumentError("a point is given both colours")
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise InvalidArgumentError(f"to_move is 0 (black) or 1 (white), not {to_move!r}")
    pts = b + w
    cols = [BLACK] * len(b) + [WHITE] * len(w)
    check(lib.go_setup_stones(game.ptr, state.ptr, pts, bytes(cols), len(pts), to_move),
          "setup stones")


def play_as(state: State, role: int, move: Point) -> None:
    """GTP ``play``: ``role`` (0 black, 1 white) plays ``move`` (a point, a vertex or
    ``pass``) even out of turn; the other side moves next.  Full rules apply."""
    game = _require_state(state)
    if role not in (0, 1) or isinstance(role, bool):
        raise InvalidArgumentError(f"role is 0 (black) or 1 (white), not {role!r}")
    if isinstance(move, str):
        m = game.move_from_text(move)
    elif isinstance(move, int) and not isinstance(move, bool) and 0 <= move < game.num_moves:
        m = move
    else:
        raise InvalidArgumentError(f"a move is a point, a vertex or 'pass', not {move!r}")
    code = lib.go_play_as(game.ptr, state.ptr, role, m)
    if code == lib.MIAI_EILLEGAL:
        raise IllegalMoveError(f"illegal move {game.move_to_text(m)} for "
                               f"{'white' if role else 'black'}")
    check(code, "play")


def colors(state: State) -> list[int]:
    """The colour of every point, by move id."""
    game = _require_state(state)
    n = game.num_moves - 1
    out = ffi.new("uint8_t[]", n)
    check(lib.go_colors(game.ptr, state.ptr, out, n), "go colors")
    return list(bytes(ffi.buffer(out, n)))


def stones(state: State, color: int) -> list[int]:
    """The points holding ``color`` stones."""
    if color not in (BLACK, WHITE):
        raise InvalidArgumentError(f"colour is BLACK or WHITE, not {color!r}")
    return [p for p, c in enumerate(colors(state)) if c == color]


def captures(state: State) -> tuple[int, int]:
    """Stones captured so far (by black, by white)."""
    game = _require_state(state)
    b, w = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    check(lib.go_captures(game.ptr, state.ptr, b, w), "captures")
    return int(b[0]), int(w[0])


def ko_point(state: State) -> int | None:
    """The point the side to move may not retake at once (simple ko), if any."""
    game = _require_state(state)
    out = ffi.new("miai_move *")
    check(lib.go_ko_point(game.ptr, state.ptr, out), "ko point")
    return None if out[0] == game.num_moves - 1 else int(out[0])


def _dead_flags(game: Game, dead: Iterable[Point] | None) -> tuple[object, int]:
    if dead is None:
        return ffi.NULL, 0
    n = game.num_moves - 1
    flags = bytearray(n)
    for p in _points(game, dead):
        flags[p] = 1
    return ffi.from_buffer(bytes(flags)), n


def score(state: State, dead: Iterable[Point] | None = None) -> Score:
    """Area score with the given stones dead (none by default)."""
    game = _require_state(state)
    flags, n = _dead_flags(game, dead)
    b, w, m = ffi.new("uint32_t *"), ffi.new("uint32_t *"), ffi.new("double *")
    check(lib.go_score(game.ptr, state.ptr, flags, n, b, w, m), "score")
    return Score(int(b[0]), int(w[0]), komi(game), float(m[0]))


def owners(state: State, dead: Iterable[Point] | None = None) -> list[int]:
    """The owner of every point under area counting (EMPTY = neutral)."""
    game = _require_state(state)
    flags, nd = _dead_flags(game, dead)
    n = game.num_moves - 1
    out = ffi.new("uint8_t[]", n)
    check(lib.go_owners(game.ptr, state.ptr, flags, nd, out, n), "owners")
    return list(bytes(ffi.buffer(out, n)))


def _check_count(n: int, seed: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n < 2**32:
        raise InvalidArgumentError(f"number of playouts must be in [1, 2**32), not {n!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")


def ownership(state: State, n: int, seed: int = 0) -> Ownership:
    """Ownership over ``n`` light playouts from the position (eq. 16 of Huang et al.)."""
    game = _require_state(state)
    _check_count(n, seed)
    size = game.num_moves - 1
    share, terr = ffi.new("double[]", size), ffi.new("double[]", size)
    check(lib.go_ownership(game.ptr, state.ptr, n, seed, share, terr, size), "ownership")
    return Ownership(tuple(share), tuple(terr))


class OwnershipCounter:
    """Accumulates the owners of the final positions of a search's own playouts."""

    def __init__(self, game: Game) -> None:
        _require_go(game)
        self.game = game
        size = game.num_moves - 1
        self._black = ffi.new("uint32_t[]", size)
        self._white = ffi.new("uint32_t[]", size)
        self.playouts = 0

    def add(self, final: State) -> None:
        if _require_state(final) is not self.game:
            raise InvalidArgumentError("the state belongs to another game object")
        size = self.game.num_moves - 1
        check(lib.go_ownership_add(self.game.ptr, final.ptr, self._black, self._white, size),
              "ownership add")
        self.playouts += 1

    def territory(self) -> tuple[float, ...]:
        """Eq. 16 of Huang et al. over the positions added so far."""
        size = self.game.num_moves - 1
        out = ffi.new("double[]", size)
        check(lib.go_territory(self.game.ptr, self._black, self._white, self.playouts, out,
                               size), "territory")
        return tuple(out)


def dead_stones(state: State, n: int = 200, seed: int = 0) -> list[int]:
    """Stones whose group ``n`` playouts give to the opponent (GTP final_status_list)."""
    game = _require_state(state)
    _check_count(n, seed)
    size = game.num_moves - 1
    out = ffi.new("uint8_t[]", size)
    check(lib.go_dead_stones(game.ptr, state.ptr, n, seed, out, size), "dead stones")
    return [p for p in range(size) if out[p]]


def playout_trace(state: State, seed: int = 0) -> list[int]:
    """The moves of one playout from (a copy of) the position (pass = size^2)."""
    game = _require_state(state)
    _check_count(1, seed)
    cap = game.max_plies
    out, n, plies = ffi.new("miai_move[]", cap), ffi.new("uint32_t *"), ffi.new("uint32_t *")
    check(lib.go_playout_trace(game.ptr, state.ptr, seed, out, cap, n, plies), "playout")
    return [int(out[i]) for i in range(n[0])]


def ladder_captures(state: State, point: int | str) -> bool:
    """Does the ladder take the group of the stone at ``point``, which is in atari,
    when it runs (its colour moving next) and the attacker keeps it in atari?"""
    game = _require_state(state)
    move = state.parse_move(point) if isinstance(point, str) else point
    out = ffi.new("int32_t *")
    check(lib.go_ladder_captures(game.ptr, state.ptr, move, out), "ladder")
    return bool(out[0])


def board_text(state: State) -> str:
    """``size`` lines of ``.XO``, top row first."""
    game = _require_state(state)
    size = board_size(game)
    buf = ffi.new("char[]", size * (size + 1) + 1)
    check(lib.go_board_text(game.ptr, state.ptr, buf, len(buf)), "board text")
    return ffi.string(buf).decode()


# Playout policy bits of the Go game parameter ``policy`` (csrc/games/go_policy.h).
POLICY_ATARI = 1
POLICY_SELF_ATARI = 2
POLICY_PATTERN = 4
POLICY_FILL_EYES = 8
POLICY_FULL = POLICY_ATARI | POLICY_SELF_ATARI | POLICY_PATTERN
# Bits of the same parameter that change only the search's priors (go_prior_kinds):
PRIOR_LINES = 16
PRIOR_LADDER = 32
PRIOR_MODEL = 256  # the learned move model's priors (engine.go_model) replace the rules
# Last-good-reply playouts (a search's playouts only; engine.go_lgr drives them by hand).
POLICY_LGR = 64
POLICY_LGR2 = 128  # with POLICY_LGR: replies to the last two moves too (LGRF-2)


def policy_game(game: Game, policy: int) -> Game:
    """The Go game like ``game`` (size, komi) with playout ``policy`` bits."""
    _require_go(game)
    if game.params.get("policy") == policy:
        return game
    return create("go", size=board_size(game), komi=komi(game), policy=policy)


def in_game(state: State, game: Game) -> State:
    """The same position as a state of ``game``, a Go game of the same size that may
    differ in komi or playout policy (states depend on neither: the bytes are copied;
    move ids are the same)."""
    src = _require_state(state)
    _require_go(game)
    if board_size(src) != board_size(game):
        raise InvalidArgumentError("in_game: the two Go games differ in size")
    out = game.initial_state()
    ffi.memmove(out.ptr, state.ptr, game.state_size)
    return out


def with_policy(state: State, policy: int) -> State:
    """The same position in the Go game with playout ``policy`` bits."""
    return in_game(state, policy_game(_require_state(state), policy))

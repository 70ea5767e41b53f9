"""Games and states over the C game interface.

``create(name, **params)`` gives an immutable :class:`Game`; ``game.initial_state()``
a mutable :class:`State` whose bytes live in one C buffer (copying is a memcpy).
Every argument is validated here before it reaches C, and C validates again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import values
from engine.core import check, ffi, lib
from engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    StateError,
    UnknownNameError,
)
from engine.spec import Spec

Move = int
SIMULTANEOUS = int(lib.MIAI_SIMULTANEOUS)
NOBODY = int(lib.MIAI_NOBODY)


@dataclass(frozen=True)
class ParamInfo:
    name: str
    default: float
    minimum: float
    maximum: float
    integer: bool


@dataclass(frozen=True)
class GameInfo:
    name: str
    params: tuple[ParamInfo, ...]


def available() -> dict[str, GameInfo]:
    """Every registered game with its parameters, by name."""
    out: dict[str, GameInfo] = {}
    info = ffi.new("miai_game_info *")
    for i in range(lib.miai_game_count()):
        check(lib.miai_game_describe(i, info), "describe game")
        params = tuple(
            ParamInfo(
                name=ffi.string(info.param_name[k]).decode(),
                default=float(info.param_default[k]),
                minimum=float(info.param_min[k]),
                maximum=float(info.param_max[k]),
                integer=bool(info.param_integer[k]),
            )
            for k in range(info.n_params)
        )
        name = ffi.string(info.name).decode()
        out[name] = GameInfo(name, params)
    return out


def _resolve_params(info: GameInfo, given: dict[str, Any], where: str) -> list[float]:
    """The values of every parameter of ``info`` (defaults where not given), checked
    and converted by :mod:`engine.values`; ``where`` names the game in messages."""
    known = {p.name for p in info.params}
    unknown = sorted(set(given) - known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise UnknownNameError(
            f"{where}: {info.name} has no parameter {unknown[0]!r} (parameters: {allowed})"
        )
    out = []
    for p in info.params:
        raw = given.get(p.name, p.default)
        what = f"{where}: {p.name}"
        if p.integer:
            out.append(float(values.whole(raw, what, low=p.minimum, high=p.maximum)))
        else:
            out.append(values.number(raw, what, low=p.minimum, high=p.maximum))
    return out


class Game:
    """An immutable game with its parameters; shareable across threads."""

    def __init__(self, ptr: Any, name: str, params: dict[str, float]) -> None:
        self._ptr = ptr
        self.name = name
        self.params = params
        facts = ffi.new("miai_game_facts *")
        check(lib.miai_game_get_facts(ptr, facts), "game facts")
        self.n_roles = int(facts.n_roles)
        self.state_size = int(facts.state_size)
        self.num_moves = int(facts.num_moves)
        self.max_legal = int(facts.max_legal)
        self.max_plies = int(facts.max_plies)
        self.simultaneous = bool(facts.simultaneous)

    @property
    def ptr(self) -> Any:
        """The C ``miai_game *`` (for engine modules; keep the Game alive)."""
        return self._ptr

    @property
    def spec(self) -> str:
        """``name`` or ``name:k=v,...`` — the text ``create_from_spec`` reads back."""
        return GameSpec(self.name, {k: _fmt_number(v) for k, v in self.params.items()}).text

    def initial_state(self) -> State:
        state = State(self, ffi.new("uint8_t[]", self.state_size))
        check(lib.miai_state_init(self._ptr, state._buf), "init state")
        return state

    def move_to_text(self, move: Move, role: int = 0) -> str:
        self._check_role(role)
        if not isinstance(move, int) or isinstance(move, bool):
            raise InvalidArgumentError(f"a move is an int, not {move!r}")
        if not 0 <= move < self.num_moves:
            raise InvalidArgumentError(f"move id {move} outside [0, {self.num_moves})")
        buf = ffi.new("char[]", int(lib.MIAI_MOVE_TEXT_LEN))
        check(lib.miai_move_to_text(self._ptr, role, move, buf, len(buf)), "format move")
        return ffi.string(buf).decode()

    def move_from_text(self, text: str, role: int = 0) -> Move:
        self._check_role(role)
        if not isinstance(text, str):
            raise InvalidArgumentError(f"a move text is a str, not {text!r}")
        cleaned = text.strip()
        if not cleaned or len(cleaned) >= 4096 or "\x00" in cleaned:
            raise InvalidArgumentError(f"malformed move {text!r} for {self.name}")
        out = ffi.new("miai_move *")
        code = lib.miai_move_from_text(self._ptr, role, cleaned.encode(), out)
        if code != lib.MIAI_OK:
            raise InvalidArgumentError(f"malformed move {text!r} for {self.name}")
        return int(out[0])

    def _check_role(self, role: int) -> None:
        if not isinstance(role, int) or not 0 <= role < self.n_roles:
            raise InvalidArgumentError(f"role {role!r} outside [0, {self.n_roles})")

    def __repr__(self) -> str:
        return f"Game({self.spec!r})"


def _fmt_number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


class State:
    """A position: plain bytes in a C buffer, owned by this object."""

    __slots__ = ("game", "_buf")

    def __init__(self, game: Game, buf: Any) -> None:
        self.game = game
        self._buf = buf

    @property
    def ptr(self) -> Any:
        """The C state buffer (for engine modules)."""
        return self._buf

    @property
    def to_move(self) -> int:
        """The role to move, ``SIMULTANEOUS`` (-1) or ``NOBODY`` (-2) when over."""
        out = ffi.new("int32_t *")
        check(lib.miai_state_to_move(self.game.ptr, self._buf, out), "to_move")
        return int(out[0])

    @property
    def ply(self) -> int:
        out = ffi.new("uint32_t *")
        check(lib.miai_state_ply(self.game.ptr, self._buf, out), "ply")
        return int(out[0])

    @property
    def key(self) -> int:
        """The incremental 64-bit Zobrist key of the position."""
        return self.keys()[0]

    def keys(self) -> tuple[int, int]:
        """Both independent 64-bit keys (the second verifies identity in the DAG)."""
        k1, k2 = ffi.new("uint64_t *"), ffi.new("uint64_t *")
        check(lib.miai_state_key(self.game.ptr, self._buf, k1, k2), "key")
        return int(k1[0]), int(k2[0])

    def keys_from_scratch(self) -> tuple[int, int]:
        k1, k2 = ffi.new("uint64_t *"), ffi.new("uint64_t *")
        check(lib.miai_state_key_full(self.game.ptr, self._buf, k1, k2), "key_full")
        return int(k1[0]), int(k2[0])

    def is_terminal(self) -> bool:
        return self.to_move == NOBODY

    def legal_moves(self, role: int | None = None) -> list[Move]:
        """Legal moves of ``role`` (default: the role to move)."""
        if role is None:
            tm = self.to_move
            if tm == NOBODY:
                return []
            if tm == SIMULTANEOUS:
                raise StateError("simultaneous state: give the role, legal_moves(role)")
            role = tm
        self.game._check_role(role)
        cap = max(1, self.game.max_legal)
        out, n = ffi.new("miai_move[]", cap), ffi.new("uint32_t *")
        check(lib.miai_state_legal(self.game.ptr, self._buf, role, out, cap, n), "legal")
        return [int(out[i]) for i in range(n[0])]

    def parse_move(self, text: str, role: int | None = None) -> Move:
        return self.game.move_from_text(text, self._role_or_mover(role))

    def format_move(self, move: Move, role: int | None = None) -> str:
        return self.game.move_to_text(move, self._role_or_mover(role))

    def _role_or_mover(self, role: int | None) -> int:
        if role is not None:
            return role
        tm = self.to_move
        return tm if tm >= 0 else 0

    def _as_move(self, move: Move | str, role: int) -> Move:
        if isinstance(move, str):
            return self.game.move_from_text(move, role)
        if not isinstance(move, int) or isinstance(move, bool):
            raise InvalidArgumentError(f"a move is an int or a str, not {move!r}")
        if not 0 <= move < self.game.num_moves:
            raise InvalidArgumentError(f"move id {move} outside [0, {self.game.num_moves})")
        return move

    def play(self, move: Move | str) -> State:
        """Play the mover's move (id or text); illegal moves leave the state unchanged."""
        tm = self.to_move
        if tm == NOBODY:
            raise GameOverError("the game is over")
        if tm == SIMULTANEOUS:
            raise StateError("simultaneous state: use play_joint([move per role])")
        m = self._as_move(move, tm)
        code = lib.miai_state_play(self.game.ptr, self._buf, m)
        if code == lib.MIAI_EILLEGAL:
            raise IllegalMoveError(f"illegal move {self.game.move_to_text(m, tm)}")
        check(code, "play")
        return self

    def play_joint(self, moves: Sequence[Move | str]) -> State:
        """Play one move per role (simultaneous states; also alternating ones)."""
        if self.to_move == NOBODY:
            raise GameOverError("the game is over")
        if len(moves) != self.game.n_roles:
            raise InvalidArgumentError(f"a joint move has {self.game.n_roles} entries")
        ids = [self._as_move(m, r) for r, m in enumerate(moves)]
        code = lib.miai_state_play_joint(self.game.ptr, self._buf, ids, len(ids))
        if code == lib.MIAI_EILLEGAL:
            raise IllegalMoveError("illegal joint move " + " ".join(map(str, moves)))
        check(code, "play_joint")
        return self

    def play_all(self, moves: Iterable[Move | str]) -> State:
        for m in moves:
            self.play(m)
        return self

    def rewards(self) -> tuple[float, ...]:
        """Reward per role in [0, 1]; only for terminal states."""
        if not self.is_terminal():
            raise StateError("rewards are defined for terminal states only")
        out = ffi.new("double[]", self.game.n_roles)
        check(lib.miai_state_rewards(self.game.ptr, self._buf, out, self.game.n_roles),
              "rewards")
        return tuple(float(out[i]) for i in range(self.game.n_roles))

    def check(self) -> None:
        """Recompute derived data and keys in C; raise CorruptStateError on mismatch."""
        check(lib.miai_state_check(self.game.ptr, self._buf), "state check")

    def copy(self) -> State:
        buf = ffi.new("uint8_t[]", self.game.state_size)
        ffi.memmove(buf, self._buf, self.game.state_size)
        return State(self.game, buf)

    def to_bytes(self) -> bytes:
        return bytes(ffi.buffer(self._buf, self.game.state_size))

    def render(self) -> str:
        buf = ffi.new("char[]", 65536)
        check(lib.miai_state_render(self.game.ptr, self._buf, buf, len(buf)), "render")
        return ffi.string(buf).decode()

    __str__ = render

    def __repr__(self) -> str:
        return f"<State {self.game.spec} ply={self.ply} to_move={self.to_move}>"


@dataclass(frozen=True)
class GameSpec(Spec):
    """A parsed game spec, ``hex:size=7`` (the grammar of :mod:`engine.spec`)."""

    kind: ClassVar[str] = "game spec"


def create(name: str, **params: Any) -> Game:
    """The game ``name`` with parameters, e.g. ``create("hex", size=11)``."""
    return _create(name, params, f"game {name!r}")


def create_from_spec(spec: str | GameSpec) -> Game:
    """A game from text: ``tictactoe``, ``hex:size=7``, ``go:size=9,komi=7``."""
    parsed = spec if isinstance(spec, GameSpec) else GameSpec.parse(spec)
    return _create(parsed.name, dict(parsed.params), f"game spec {parsed.text!r}")


def _create(name: str, params: dict[str, Any], where: str) -> Game:
    games = available()
    if name not in games:
        raise UnknownNameError(
            f"{where}: unknown game {name!r} (known: {', '.join(sorted(games))})"
        )
    info = games[name]
    numbers = _resolve_params(info, params, where)
    out = ffi.new("miai_game **")
    arr = ffi.new("double[]", numbers) if numbers else ffi.NULL
    check(lib.miai_game_create(name.encode(), arr, len(numbers), out), f"create {name}")
    ptr = ffi.gc(out[0], lib.miai_game_free)
    return Game(ptr, name, {p.name: v for p, v in zip(info.params, numbers, strict=True)})


def new_state(name: str, **params: Any) -> State:
    """Shorthand: ``create(name, **params).initial_state()``."""
    return create(name, **params).initial_state()

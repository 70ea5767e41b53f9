"""The reference prover behind the Game/State method names of ``engine.games``.

This is the player's fallback when grounding is over its bound, and the oracle the
tests play the propnet against.  Moves are KIF texts (``"(mark 1 2)"``, ``"noop"``).
Who is to move follows the propnet game's rule: terminal -> NOBODY; exactly one role
with more than one legal move -> that role; no such role -> role 0 when every role
has exactly one move (the others' single moves are filled in); otherwise
SIMULTANEOUS.  A non-terminal state that leaves some role without a legal move ends
the game (NOBODY) with the goals that hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import GameOverError, IllegalMoveError, InvalidArgumentError, StateError
from engine.games import NOBODY, SIMULTANEOUS
from engine.gdl.checks import Program
from engine.gdl.errors import GdlError
from engine.gdl.parser import normalize_term_text
from engine.gdl.prover import Prover, ProverGuard, State, prover_for
from engine.gdl.terms import Term, to_text
from engine.gdl.tolerant import tolerant_program


def to_move_of(legal: Sequence[Sequence[object]], terminal: bool) -> int:
    """The to_move rule shared by the prover game and the propnet (see module doc)."""
    if terminal or any(len(m) == 0 for m in legal):
        return NOBODY
    many = [r for r, m in enumerate(legal) if len(m) > 1]
    if len(many) == 1:
        return many[0]
    return 0 if not many else SIMULTANEOUS


class ProverGame:
    """A GDL game answered by the reference prover (slow, always available)."""

    def __init__(self, text: str, name: str = "gdl", max_plies: int = 10_000, *,
                 program: Program | None = None, tolerant: bool = False,
                 guard: ProverGuard | None = None) -> None:
        """``program``: the rules already checked (``text`` is then not read again);
        ``tolerant``: rules the strict checks reject are read as
        engine.gdl.tolerant says, with its notes in ``warnings``; ``guard``: the
        prover's bounds (engine.gdl.prover.ProverGuard: memory, a stop request)."""
        self.warnings: list[str] = []
        if program is None and tolerant:
            program, self.warnings = tolerant_program(text)
        self.prover: Prover = (Prover(program, guard) if program is not None
                               else prover_for(text, guard))
        self.name = name
        self.roles = [to_text(r) for r in self.prover.roles]
        self.n_roles = len(self.roles)
        self.max_plies = max_plies
        self.fallback_reason: str | None = None  # set when chosen over a propnet

    def initial_state(self) -> ProverState:
        return ProverState(self, self.prover.initial_state(), 0)

    def __repr__(self) -> str:
        return f"ProverGame({self.name!r}, roles={self.roles})"


class ProverState:
    """A position of a ProverGame (immutable underneath; play replaces it)."""

    def __init__(self, game: ProverGame, facts: State, ply: int) -> None:
        self.game = game
        self.facts = facts
        self.ply = ply
        self._legal: list[list[Term]] | None = None
        self._terminal: bool | None = None

    def _moves(self) -> list[list[Term]]:
        if self._legal is None:
            self._legal = self.game.prover.all_legal(self.facts)
        return self._legal

    def is_terminal(self) -> bool:
        if self._terminal is None:
            self._terminal = self.game.prover.is_terminal(self.facts)
        return self._terminal or self.to_move == NOBODY

    @property
    def to_move(self) -> int:
        if self._terminal is None:
            self._terminal = self.game.prover.is_terminal(self.facts)
        return to_move_of([] if self._terminal else self._moves(), self._terminal)

    def legal_moves(self, role: int | None = None) -> list[str]:
        """Legal move texts of ``role`` (default: the role to move).  As for C games, a
        role that is not to move at an alternating state has none here; its single
        rule move (a noop) is in ``rule_moves``."""
        tm = self.to_move
        if role is None:
            if tm == SIMULTANEOUS:
                raise StateError("simultaneous state: give the role, legal_moves(role)")
            role = tm
        self._check_role(role)
        if tm == NOBODY or (tm >= 0 and role != tm):
            return []
        return [to_text(m) for m in self._moves()[role]]

    def rule_moves(self, role: int) -> list[str]:
        """Legal move texts of ``role`` as the rules give them, whoever is to move."""
        self._check_role(role)
        return [to_text(m) for m in self._moves()[role]]

    def _check_role(self, role: object) -> None:
        if not isinstance(role, int) or isinstance(role, bool) or not (
                0 <= role < self.game.n_roles):
            raise InvalidArgumentError(f"role {role!r} outside [0, {self.game.n_roles})")

    def parse_move(self, text: str, role: int | None = None) -> str:
        try:
            return normalize_term_text(text)
        except GdlError:
            raise InvalidArgumentError(f"malformed move {text!r}") from None

    def format_move(self, move: str, role: int | None = None) -> str:
        return move

    def play(self, move: str) -> ProverState:
        tm = self.to_move
        if tm == NOBODY:
            raise GameOverError("the game is over")
        if tm == SIMULTANEOUS:
            raise StateError("simultaneous state: use play_joint([move per role])")
        joint = [m[0] if len(m) == 1 else None for m in self._moves()]
        joint[tm] = self._legal_term(move, tm)
        return self._advance(joint)

    def play_joint(self, moves: Sequence[str]) -> ProverState:
        if self.to_move == NOBODY:
            raise GameOverError("the game is over")
        if len(moves) != self.game.n_roles:
            raise InvalidArgumentError(f"a joint move has {self.game.n_roles} entries")
        return self._advance([self._legal_term(m, r) for r, m in enumerate(moves)])

    def _legal_term(self, move: str, role: int) -> Term:
        if not isinstance(move, str):
            raise InvalidArgumentError(f"a GDL move is a KIF text, not {move!r}")
        text = self.parse_move(move)
        for m in self._moves()[role]:
            if to_text(m) == text:
                return m
        raise IllegalMoveError(f"illegal move {text} for {self.game.roles[role]}")

    def _advance(self, joint: list) -> ProverState:
        self.facts = self.game.prover.next_state(self.facts, joint)
        self.ply += 1
        self._legal = None
        self._terminal = None
        return self

    def rewards(self) -> tuple[float, ...]:
        if not self.is_terminal():
            raise StateError("rewards are defined for terminal states only")
        return tuple(g / 100.0 for g in self.game.prover.goals(self.facts))

    def copy(self) -> ProverState:
        twin = ProverState(self.game, self.facts, self.ply)
        twin._legal, twin._terminal = self._legal, self._terminal
        return twin

    def true_facts(self) -> list[str]:
        """The state as sorted KIF texts of its true base propositions."""
        return sorted(to_text(t) for t in self.facts)

    def render(self) -> str:
        return "\n".join(self.true_facts())

    def __repr__(self) -> str:
        return f"<ProverState {self.game.name} ply={self.ply} to_move={self.to_move}>"

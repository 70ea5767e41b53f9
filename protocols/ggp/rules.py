"""The few rule questions GGP asks, for both kinds of GDL game: the C propnet
(``GdlGame``, moves are ids) and the reference prover (``ProverGame``, moves are texts).

Moves cross this boundary as canonical KIF text, as game masters send them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import IllegalMoveError, MiaiError
from engine.gdl.game import GdlGame, load_for_play
from engine.gdl.ground import DEFAULT_BOUNDS
from engine.gdl.parser import normalize_term_text

GOAL_SCALE = 100  # GDL goals are 0..100; rewards in the engine are goal / 100

AnyGame = Any   # GdlGame | ProverGame
AnyState = Any  # engine.games.State | ProverState


def load_rules(rules: str, name: str, time_limit: float | None = None,
               max_atoms: int | None = None) -> AnyGame:
    """The game of a GDL description: the propnet, or the prover when grounding is
    over its bounds (``time_limit`` seconds and ``max_atoms`` possible atoms replace
    the default bounds when given).  Rules the strict checks reject are read
    tolerantly (engine.gdl.tolerant; the game's ``warnings`` say how)."""
    bounds = DEFAULT_BOUNDS
    if time_limit is not None:
        bounds = replace(bounds, time_limit=time_limit)
    if max_atoms is not None:
        bounds = replace(bounds, max_atoms=max_atoms)
    return load_for_play(rules, name, bounds, tolerant=True)


def legal_texts(game: AnyGame, state: AnyState, role: int) -> list[str]:
    """The legal moves of ``role`` as the rules give them (a noop when not to move)."""
    if isinstance(game, GdlGame):
        return [game.move_to_text(m, role) for m in game.rule_moves(state, role)]
    return list(state.rule_moves(role))


def canonical(move: str) -> str:
    """Canonical KIF of a move text (lower case, single spaces); raises on bad KIF."""
    return normalize_term_text(move)


def native_move(game: AnyGame, text: str, role: int) -> Any:
    """The game's own move for a KIF text: an id on a propnet, the canonical text on
    the prover (as bots and their searches take moves)."""
    if isinstance(game, GdlGame):
        return game.move_from_text(text, role)
    return canonical(text)


def native_joint(game: AnyGame, joint: Sequence[str]) -> list[Any]:
    """A joint move (texts, one per role) as the game's own moves."""
    return [native_move(game, text, role) for role, text in enumerate(joint)]


def move_text(game: AnyGame, move: Any, role: int) -> str:
    """The KIF text of the game's own move (the inverse of ``native_move``)."""
    if isinstance(game, GdlGame):
        return game.move_to_text(move, role)
    return str(move)


def apply_joint(game: AnyGame, state: AnyState, joint: Sequence[str]) -> None:
    """Play one move per role (texts) on ``state`` in place; IllegalMoveError when
    some move is not legal for its role."""
    if len(joint) != len(game.roles):
        raise IllegalMoveError(f"a joint move has {len(game.roles)} moves, not {len(joint)}")
    texts = [canonical(t) for t in joint]
    for role, text in enumerate(texts):
        if text not in legal_texts(game, state, role):
            raise IllegalMoveError(f"{text} is not legal for {game.roles[role]}")
    if isinstance(game, GdlGame):
        try:
            ids = [game.move_from_text(t, r) for r, t in enumerate(texts)]
        except MiaiError as exc:
            raise IllegalMoveError(str(exc)) from None
        state.play_joint(ids)
    else:
        state.play_joint(texts)


def goals(state: AnyState) -> list[int]:
    """Each role's goal value (0..100) in a terminal state."""
    return [round(r * GOAL_SCALE) for r in state.rewards()]

"""Shared checks for the game tests in this folder: OpenSpiel and plain-Python
references as rules oracles, Zobrist keys along random games, and the size switch for
heavier runs.

``compare_with_openspiel`` plays random games in miai and in OpenSpiel side by side:
at every ply the legal move sets, the player to move and the board must agree, the
same move is played in both, and at the end the terminal status and the returns
(OpenSpiel's -1/0/1 mapped to our 0/0.5/1) must agree.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import engine
from engine.core import ffi
from engine.games import State

FULL = os.environ.get("MIAI_FULL") == "1"
HEAD_BYTES = 24  # miai_head: key, key2, to_move, ply


def size(ci: int, full: int) -> int:
    """The CI size of a check, or the full one when MIAI_FULL=1."""
    return full if FULL else ci


@dataclass
class OracleStats:
    games: int = 0
    plies: int = 0
    outcomes: Counter[tuple[float, ...]] = field(default_factory=Counter)
    moves_seen: Counter[int] = field(default_factory=Counter)


def spiel_reward(ret: float) -> float:
    """OpenSpiel's -1 / 0 / +1 as our 0 / 0.5 / 1."""
    return (ret + 1.0) / 2.0


def compare_with_openspiel(
    game: engine.Game,
    spiel_game: object,
    n_games: int,
    seed: int,
    board_of: Callable[[str], list[str]],
    spiel_board_of: Callable[[str], list[str]],
    to_spiel: Callable[[int], int] = lambda m: m,
) -> OracleStats:
    """Random games played move by move in both engines; asserts agreement."""
    rng = random.Random(seed)
    stats = OracleStats()
    for _ in range(n_games):
        ours = game.initial_state()
        theirs = spiel_game.new_initial_state()  # type: ignore[attr-defined]
        while True:
            ours.check()
            assert ours.is_terminal() == theirs.is_terminal(), (ours.render(), str(theirs))
            assert board_of(ours.render()) == spiel_board_of(str(theirs)), (
                ours.render(),
                str(theirs),
            )
            if ours.is_terminal():
                break
            assert ours.to_move == theirs.current_player()
            legal = ours.legal_moves()
            assert sorted(to_spiel(m) for m in legal) == sorted(theirs.legal_actions()), (
                ours.render(),
                legal,
            )
            move = rng.choice(legal)
            stats.moves_seen[move] += 1
            ours.play(move)
            theirs.apply_action(to_spiel(move))
            stats.plies += 1
        expected = tuple(spiel_reward(r) for r in theirs.returns())
        assert ours.rewards() == expected
        stats.outcomes[expected] += 1
        stats.games += 1
    return stats


class Reference(Protocol):
    """A plain-Python rules implementation from tests/reference/."""

    to_move: int

    def is_terminal(self) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def play(self, move: int) -> None: ...
    def rewards(self) -> tuple[float, float]: ...
    def rows_top_first(self) -> list[str]: ...


def compare_with_reference(
    game: engine.Game,
    make_reference: Callable[[], Reference],
    n_games: int,
    seed: int,
    board_of: Callable[[str], list[str]],
) -> OracleStats:
    """Random games played move by move in miai and a plain-Python reference: boards,
    movers, legal move sets, terminal status and rewards agree at every ply."""
    rng = random.Random(seed)
    stats = OracleStats()
    for _ in range(n_games):
        ours, ref = game.initial_state(), make_reference()
        while True:
            assert ours.is_terminal() == ref.is_terminal(), ours.render()
            assert board_of(ours.render()) == ref.rows_top_first(), ours.render()
            if ours.is_terminal():
                break
            assert ours.to_move == ref.to_move
            legal = ours.legal_moves()
            assert sorted(legal) == sorted(ref.legal_moves()), ours.render()
            move = rng.choice(legal)
            stats.moves_seen[move] += 1
            ours.play(move)
            ref.play(move)
            stats.plies += 1
        assert ours.rewards() == ref.rewards()
        stats.outcomes[ref.rewards()] += 1
        stats.games += 1
    return stats


def replay(game: engine.Game, moves: str | list[int]) -> State:
    """The state after ``moves``: move ids, or move texts separated by spaces."""
    return game.initial_state().play_all(moves.split() if isinstance(moves, str) else moves)


def with_bytes(state: State, offset: int, data: bytes, rekey: bool = False) -> State:
    """A copy of ``state`` with ``data`` written at byte ``offset`` (to corrupt it);
    with ``rekey`` the stored keys are made to agree with the new contents, so that
    only the game's own check can notice."""
    twin = state.copy()
    raw = bytearray(twin.to_bytes())
    raw[offset : offset + len(data)] = data
    ffi.memmove(twin.ptr, bytes(raw), len(raw))
    if rekey:
        k1, k2 = twin.keys_from_scratch()
        raw[0:16] = k1.to_bytes(8, "little") + k2.to_bytes(8, "little")
        ffi.memmove(twin.ptr, bytes(raw), len(raw))
    return twin


def position_of(state: State) -> bytes:
    """The position without the keys and the ply: the state's body and the mover."""
    return state.to_bytes()[HEAD_BYTES:] + state.to_move.to_bytes(4, "little", signed=True)


@dataclass
class KeyStats:
    positions: int  # distinct positions seen
    transpositions: int  # positions reached by more than one move sequence


def check_keys_on_random_games(game: engine.Game, n_positions: int, seed: int) -> KeyStats:
    """Along random games: incremental keys equal keys from scratch; a position has one
    key wherever it was reached from (transpositions); distinct positions never share
    a key (neither key nor key2) in the sample."""
    rng = random.Random(seed)
    key_of: dict[bytes, tuple[int, int]] = {}
    position_with_key: dict[int, bytes] = {}
    position_with_key2: dict[int, bytes] = {}
    history_of: dict[bytes, tuple[int, ...]] = {}
    transposed: set[bytes] = set()
    seen = 0
    while seen < n_positions:
        state = game.initial_state()
        history: tuple[int, ...] = ()
        while True:
            keys = state.keys()
            assert keys == state.keys_from_scratch()
            pos = position_of(state)
            if key_of.setdefault(pos, keys) != keys:
                raise AssertionError(f"one position, two keys:\n{state.render()}")
            if position_with_key.setdefault(keys[0], pos) != pos:
                raise AssertionError(f"key collision at\n{state.render()}")
            if position_with_key2.setdefault(keys[1], pos) != pos:
                raise AssertionError(f"key2 collision at\n{state.render()}")
            if history_of.setdefault(pos, history) != history:
                transposed.add(pos)
            seen += 1
            if state.is_terminal():
                break
            move = rng.choice(state.legal_moves())
            state.play(move)
            history += (move,)
    return KeyStats(len(key_of), len(transposed))

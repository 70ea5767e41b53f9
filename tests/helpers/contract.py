"""The game contract: what every miai game keeps, whoever wrote its rules (OpenSpiel's
basic_tests idea).  ``check_contract(make, kind)`` runs every item on the game that
``make()`` returns; ``make`` is called again for the items that need a second game
object.  Each game's own rules are checked against an independent truth elsewhere
(tests/games/, the prover for GDL nets); this checks the interface they share.

Where an item differs by design between kinds of game, the ``GameKind`` says how:

- Hand-written C games (``HAND_WRITTEN``) are made from a spec (``name:k=v``), which
  ``games.create_from_spec`` reads back; their move texts are the game's own notation,
  and every move id has a text for every role.
- Grounded GDL nets (``GDL``) are made from their rules, not from a spec (the spec is
  the game's name), and two loads of the same rules agree on the keys; a move text is
  a KIF term, read whatever its case and spacing; a role's move ids are those of its
  own moves (``game.moves[role]``): a role with fewer moves than another (guess: 64
  and 3) has no text for the ids past its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

import engine
from engine import games
from engine.errors import GameOverError, IllegalMoveError, InvalidArgumentError

Move = int | list[int] | None


@dataclass(frozen=True)
class GameKind:
    """What the contract expects of a kind of game, where kinds differ by design."""

    name: str
    spec_remakes_the_game: bool  # games.create_from_spec(game.spec) gives the same game
    respellings: Callable[[str], list[str]]  # other texts of a move that must read as it
    role_moves: Callable[[engine.Game, int], int]  # how many move ids have a role's text
    seed_blind: frozenset[str] = frozenset()  # two-role games whose playouts ignore the seed
    random_games: int = 30  # random games played through the contract's checks


HAND_WRITTEN = GameKind("hand-written", spec_remakes_the_game=True,
                        respellings=lambda text: [f" {text} "],
                        role_moves=lambda game, role: game.num_moves,
                        seed_blind=frozenset({"leftright"}))
GDL = GameKind("GDL", spec_remakes_the_game=False,
               respellings=lambda text: [f" {text} ", text.upper(), text.replace(" ", "   ")],
               role_moves=lambda game, role: len(game.moves[role]))  # type: ignore[attr-defined]


def random_game(game: engine.Game, rng: random.Random,
                check_every: bool = True) -> Iterator[tuple[engine.State, Move]]:
    """Yield (state, move) along a random game, the move None at the end; checks the
    legal moves and (``check_every``) the state's derived data at every ply."""
    state = game.initial_state()
    while not state.is_terminal():
        if check_every:
            state.check()
        if state.to_move == games.SIMULTANEOUS:
            joint = [rng.choice(state.legal_moves(r)) for r in range(game.n_roles)]
            yield state, joint
            state.play_joint(joint)
        else:
            moves = state.legal_moves()
            assert moves, "a non-terminal state must give its mover a legal move"
            assert len(moves) == len(set(moves))
            assert len(moves) <= game.max_legal
            m = rng.choice(moves)
            yield state, m
            state.play(m)
        assert state.ply <= game.max_plies
    state.check()
    yield state, None


def random_games_keep_the_contract(game: engine.Game, kind: GameKind) -> None:
    rng = random.Random(1)
    for _ in range(kind.random_games):
        final = None
        for state, move in random_game(game, rng):
            final = state
            assert state.keys() == state.keys_from_scratch()
            if move is None:
                break
            if isinstance(move, int):
                text = state.format_move(move)
                assert state.parse_move(text) == move
        assert final is not None and final.is_terminal()
        rewards = final.rewards()
        assert len(rewards) == game.n_roles
        assert all(0.0 <= r <= 1.0 for r in rewards)
        assert final.legal_moves() == []


def every_move_text_round_trips(game: engine.Game, kind: GameKind) -> None:
    for role in range(game.n_roles):
        n = kind.role_moves(game, role)
        assert 0 < n <= game.num_moves
        for m in range(n):
            text = game.move_to_text(m, role)
            assert text and text == text.strip()
            assert game.move_from_text(text, role) == m
            for other in kind.respellings(text):
                assert game.move_from_text(other, role) == m, (kind.name, other)


def copy_is_independent_and_equal(game: engine.Game, kind: GameKind) -> None:
    state = game.initial_state()
    twin = state.copy()
    assert twin.to_bytes() == state.to_bytes()
    if state.to_move >= 0:
        joint = None
        move = state.legal_moves()[0]
        state.play(move)
    else:
        joint = [state.legal_moves(r)[0] for r in range(game.n_roles)]
        state.play_joint(joint)
    assert twin.to_bytes() != state.to_bytes()
    assert twin.ply == 0 and state.ply == 1
    if joint is None:
        twin.play(move)
    else:
        twin.play_joint(joint)
    assert twin.to_bytes() == state.to_bytes()


def illegal_and_malformed_moves_raise_and_keep_the_state(game: engine.Game,
                                                         kind: GameKind) -> None:
    """Alternating starts are tried with ``play``; simultaneous ones with ``play_joint``,
    each role's move in turn replaced by the bad one, the others legal."""
    state = game.initial_state()
    before = state.to_bytes()
    if state.to_move >= 0:
        def play(bad: object, role: int) -> None:
            state.play(bad)  # type: ignore[arg-type]
        roles = [state.to_move]
    else:
        legal_joint = [state.legal_moves(r)[0] for r in range(game.n_roles)]

        def play(bad: object, role: int) -> None:
            state.play_joint([bad if r == role else m for r, m in enumerate(legal_joint)])
        roles = list(range(game.n_roles))
    for role in roles:
        legal = set(state.legal_moves(role))
        illegal = [m for m in range(game.num_moves) if m not in legal]
        for m in illegal[:50]:
            with pytest.raises(IllegalMoveError):
                play(m, role)
        for bad in (-1, game.num_moves, 2**40, "", "zz99", "\x00", "a" * 5000, 1.5, None,
                    True):
            with pytest.raises(InvalidArgumentError):
                play(bad, role)
        assert state.to_bytes() == before


def terminal_state_refuses_moves(game: engine.Game, kind: GameKind) -> None:
    *_, (final, _) = random_game(game, random.Random(3), check_every=False)
    with pytest.raises(GameOverError):
        final.play(0)
    with pytest.raises(GameOverError):
        final.play_joint([0] * game.n_roles)


def playouts_are_deterministic_and_bounded(game: engine.Game, kind: GameKind) -> None:
    state = game.initial_state()
    a = engine.playout_run(state, 200, seed=7)
    b = engine.playout_run(state, 200, seed=7)
    c = engine.playout_run(state, 200, seed=8)
    assert a == b
    if game.n_roles == 2:
        assert a != c or game.name in kind.seed_blind
    assert a.plies > 0 and a.plies <= 200 * game.max_plies
    assert all(0.0 <= r <= 1.0 for r in a.mean_rewards)
    assert state.ply == 0  # playouts never touch the caller's state


def keys_are_stable_across_game_objects(game: engine.Game, again: engine.Game,
                                        kind: GameKind) -> None:
    """Keys come from the game (its spec, or a hash of its rules), not from the object."""
    s1, s2 = game.initial_state(), again.initial_state()
    for _ in range(6):
        if s1.is_terminal() or s1.to_move < 0:
            break
        m = s1.legal_moves()[len(s1.legal_moves()) // 2]
        s1.play(m)
        s2.play(m)
    assert s1.keys() == s2.keys()


def spec_remakes_the_game(game: engine.Game, kind: GameKind) -> None:
    if kind.spec_remakes_the_game:
        again = games.create_from_spec(game.spec)
        assert (again.name, again.params) == (game.name, game.params)
    else:
        assert game.spec == game.name and not game.params


ITEMS: list[Callable[[engine.Game, GameKind], None]] = [
    random_games_keep_the_contract,
    every_move_text_round_trips,
    copy_is_independent_and_equal,
    illegal_and_malformed_moves_raise_and_keep_the_state,
    terminal_state_refuses_moves,
    playouts_are_deterministic_and_bounded,
    spec_remakes_the_game,
]


def check_contract(make: Callable[[], engine.Game], kind: GameKind) -> None:
    """Every item of the contract on ``make()``'s game (and a second one from ``make``)."""
    game = make()
    for item in ITEMS:
        item(game, kind)
    keys_are_stable_across_game_objects(game, make(), kind)

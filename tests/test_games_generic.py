"""One generic battery run on every registered game (OpenSpiel's basic_tests idea).

Each game's own rules are checked against an independent truth in tests/games/;
this file checks the contract of the C game interface that every game shares.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import games
from engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    MiaiError,
    StateError,
    UnknownNameError,
)

# Small but non-default parameters, so parameter handling is exercised too.
PARAMS: dict[str, dict[str, float]] = {
    "hex": {"size": 5},
    "havannah": {"size": 4},
    "leftright": {"steps": 12},
    "go": {"size": 5, "komi": 0.5},
}
ALL = sorted(games.available())


def make(name: str) -> engine.Game:
    return games.create(name, **PARAMS.get(name, {}))


def random_game(game: engine.Game, rng: random.Random, check_every: bool = True):
    """Yield (state, move) along a random game; validates the state each ply."""
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


@pytest.mark.parametrize("name", ALL)
def test_random_games_keep_the_contract(name: str) -> None:
    game = make(name)
    rng = random.Random(1)
    for _ in range(30):
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


@pytest.mark.parametrize("name", ALL)
def test_every_move_text_round_trips(name: str) -> None:
    game = make(name)
    for role in range(game.n_roles):
        for m in range(game.num_moves):
            text = game.move_to_text(m, role)
            assert text and text == text.strip()
            assert game.move_from_text(text, role) == m


@pytest.mark.parametrize("name", ALL)
def test_copy_is_independent_and_equal(name: str) -> None:
    game = make(name)
    state = game.initial_state()
    twin = state.copy()
    assert twin.to_bytes() == state.to_bytes()
    move = state.legal_moves()[0] if state.to_move >= 0 else None
    if move is not None:
        state.play(move)
        assert twin.to_bytes() != state.to_bytes()
        assert twin.ply == 0 and state.ply == 1
        twin.play(move)
        assert twin.to_bytes() == state.to_bytes()


@pytest.mark.parametrize("name", ALL)
def test_illegal_and_malformed_moves_raise_and_keep_the_state(name: str) -> None:
    game = make(name)
    state = game.initial_state()
    if state.to_move < 0:
        pytest.skip("simultaneous start")
    before = state.to_bytes()
    legal = set(state.legal_moves())
    illegal = [m for m in range(game.num_moves) if m not in legal]
    for m in illegal[:50]:
        with pytest.raises(IllegalMoveError):
            state.play(m)
    for bad in (-1, game.num_moves, 2**40, "", "zz99", "\x00", "a" * 5000, 1.5, None, True):
        with pytest.raises(InvalidArgumentError):
            state.play(bad)  # type: ignore[arg-type]
    assert state.to_bytes() == before


@pytest.mark.parametrize("name", ALL)
def test_terminal_state_refuses_moves(name: str) -> None:
    game = make(name)
    *_, (final, _) = random_game(game, random.Random(3), check_every=False)
    with pytest.raises(GameOverError):
        final.play(0)
    with pytest.raises(GameOverError):
        final.play_joint([0] * game.n_roles)


@pytest.mark.parametrize("name", ALL)
def test_playouts_are_deterministic_and_bounded(name: str) -> None:
    game = make(name)
    state = game.initial_state()
    a = engine.playout_run(state, 200, seed=7)
    b = engine.playout_run(state, 200, seed=7)
    c = engine.playout_run(state, 200, seed=8)
    assert a == b
    assert a.plies > 0 and a.plies <= 200 * game.max_plies
    assert all(0.0 <= r <= 1.0 for r in a.mean_rewards)
    assert state.ply == 0  # playouts never touch the caller's state
    if game.n_roles == 2:
        assert a != c or name == "leftright"


@pytest.mark.parametrize("name", ALL)
def test_keys_are_stable_across_game_objects(name: str) -> None:
    g1, g2 = make(name), make(name)
    s1, s2 = g1.initial_state(), g2.initial_state()
    for _ in range(6):
        if s1.is_terminal() or s1.to_move < 0:
            break
        m = s1.legal_moves()[len(s1.legal_moves()) // 2]
        s1.play(m)
        s2.play(m)
    assert s1.keys() == s2.keys()


def test_unknown_game_and_bad_params() -> None:
    with pytest.raises(UnknownNameError):
        games.create("no-such-game")
    with pytest.raises(UnknownNameError):
        games.create("tictactoe", size=3)
    for name, info in games.available().items():
        for p in info.params:
            with pytest.raises(InvalidArgumentError):
                games.create(name, **{p.name: p.maximum + 1})
            with pytest.raises(InvalidArgumentError):
                games.create(name, **{p.name: "big"})
            if p.integer:
                with pytest.raises(InvalidArgumentError):
                    games.create(name, **{p.name: p.minimum + 0.5})


def test_errors_are_one_family() -> None:
    for exc in (GameOverError, IllegalMoveError, InvalidArgumentError, StateError,
                UnknownNameError):
        assert issubclass(exc, MiaiError)


def test_spec_round_trip() -> None:
    for name in ALL:
        game = make(name)
        again = games.create_from_spec(game.spec)
        assert again.params == game.params
    with pytest.raises(InvalidArgumentError):
        games.create_from_spec("hex:size")

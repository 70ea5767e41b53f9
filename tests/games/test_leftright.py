"""LeftRight against the plain-Python reference (tests/reference/leftright.py), and its
Zobrist keys: a function of (step, lefts) only, whatever the move order."""

from __future__ import annotations

import itertools
import os
import random

import pytest

import engine
from engine import games
from engine.errors import InvalidArgumentError
from engine.perft import perft
from tests.reference import leftright as ref

FULL = os.environ.get("MIAI_FULL") == "1"


def assert_same(state: engine.State, truth: ref.LeftRight) -> None:
    step, lefts = truth.position()
    assert state.ply == step
    assert state.is_terminal() == truth.is_terminal()
    assert [state.format_move(m) for m in state.legal_moves()] == truth.legal_moves()
    assert state.render().startswith(f"step {step}/{truth.steps}: {lefts} left,")
    if truth.is_terminal():
        assert state.rewards() == (truth.reward(),)
    else:
        assert state.to_move == 0


@pytest.mark.parametrize("steps", [1, 2, 7, 300])
def test_random_games_agree_with_the_reference(steps: int) -> None:
    game = games.create("leftright", steps=steps)
    assert game.n_roles == 1 and game.max_plies == steps
    rng = random.Random(steps)
    for _ in range(40 if not FULL else 400):
        state, truth = game.initial_state(), ref.LeftRight(steps)
        bias = rng.random()  # some games mostly Left, some mostly Right
        while True:
            assert_same(state, truth)
            assert state.keys() == state.keys_from_scratch()
            state.check()
            if truth.is_terminal():
                break
            move = "L" if rng.random() < bias else "R"
            truth.play(move)
            state.play(move)


def test_rewards_are_the_share_of_left_steps() -> None:
    game = games.create("leftright", steps=4)
    for path in itertools.product("LR", repeat=4):
        state = game.initial_state().play_all(path)
        assert state.rewards() == (path.count("L") / 4,)


@pytest.mark.parametrize("steps", [1, 3, 6])
def test_perft_matches_the_reference(steps: int) -> None:
    game = games.create("leftright", steps=steps)
    for depth in range(steps + 3):
        assert perft(game.initial_state(), depth) == ref.perft(ref.LeftRight(steps), depth)
    if steps >= 2:
        middle = game.initial_state().play_all("LR")
        truth = ref.LeftRight(steps)
        truth.play("L")
        truth.play("R")
        assert perft(middle, 3) == ref.perft(truth, 3)


def test_move_orders_to_one_position_share_a_key() -> None:
    game = games.create("leftright", steps=12)
    lrl = game.initial_state().play_all("LRL")
    llr = game.initial_state().play_all("LLR")
    rll = game.initial_state().play_all("RLL")
    assert lrl.keys() == llr.keys() == rll.keys()
    assert lrl.to_bytes() == llr.to_bytes()
    assert game.initial_state().play_all("LRR").keys() != lrl.keys()
    assert game.initial_state().play_all("LL").keys() != lrl.keys()


def test_keys_are_a_function_of_step_and_lefts_exactly() -> None:
    """Every (step, lefts) of a 30-step game, each reached by several random move
    orders: one key per position, and no two positions share a key."""
    steps = 30
    game = games.create("leftright", steps=steps)
    rng = random.Random(3)
    key_of: dict[tuple[int, int], tuple[int, int]] = {}
    for step in range(steps + 1):
        for lefts in range(step + 1):
            for _ in range(3):
                path = ["L"] * lefts + ["R"] * (step - lefts)
                rng.shuffle(path)
                state = game.initial_state().play_all(path)
                assert state.keys() == state.keys_from_scratch()
                assert key_of.setdefault((step, lefts), state.keys()) == state.keys()
    assert len(key_of) == (steps + 1) * (steps + 2) // 2
    assert len({k[0] for k in key_of.values()}) == len(key_of)
    assert len({k[1] for k in key_of.values()}) == len(key_of)


def test_no_key_collisions_in_a_large_random_sample() -> None:
    steps = 2000
    game = games.create("leftright", steps=steps)
    rng = random.Random(17)
    key_of: dict[tuple[int, int], int] = {}
    for _ in range(40 if not FULL else 400):
        state, step, lefts = game.initial_state(), 0, 0
        bias = rng.random()
        while not state.is_terminal():
            left = rng.random() < bias
            state.play("L" if left else "R")
            step, lefts = step + 1, lefts + left
            assert key_of.setdefault((step, lefts), state.key) == state.key
    assert len(key_of) > 10000
    assert len(set(key_of.values())) == len(key_of)


def test_keys_are_stable_and_depend_on_the_game_length() -> None:
    a = games.create("leftright", steps=300).initial_state().play_all("LLR")
    b = games.create("leftright", steps=300).initial_state().play_all("RLL")
    c = games.create("leftright", steps=301).initial_state().play_all("LLR")
    assert a.keys() == b.keys()
    assert a.keys() != c.keys()


def test_move_text() -> None:
    game = games.create("leftright", steps=5)
    assert [game.move_to_text(m) for m in range(game.num_moves)] == ["L", "R"]
    assert game.move_from_text("l") == game.move_from_text("L") == 0
    assert game.move_from_text("r") == 1
    for bad in ("LR", "x", "left", "0"):
        with pytest.raises(InvalidArgumentError):
            game.move_from_text(bad)


@pytest.mark.parametrize("steps", [1, 63, 64, 65, 300])
def test_fast_playouts_are_uniform_random_steps(steps: int) -> None:
    """Mean reward of n playouts: 1/2 from the start, (lefts + remaining/2) / steps
    from a middle position, within 5 standard errors; exact ply counts."""
    game = games.create("leftright", steps=steps)
    n = 4000
    start = game.initial_state()
    run = engine.playout_run(start, n, seed=steps)
    assert run.plies == n * steps
    se = (0.25 / steps / n) ** 0.5
    assert abs(run.mean_rewards[0] - 0.5) < 5 * se
    if steps >= 3:
        done = steps // 3
        middle = game.initial_state().play_all("L" * done)
        remaining = steps - done
        run = engine.playout_run(middle, n, seed=1)
        assert run.plies == n * remaining
        expected = (done + remaining / 2) / steps
        se = (0.25 * remaining / n) ** 0.5 / steps
        assert abs(run.mean_rewards[0] - expected) < 5 * se

"""Zobrist keys of Hex and Havannah: incremental equals from-scratch, transpositions share
a key, and distinct positions in a large random sample never share one.

A position is identified independently of the C state by the cells of each player (the
side to move follows from the stone count).  MIAI_FULL=1 samples more.
"""

from __future__ import annotations

import os
import random

import pytest

from engine import games

FULL = os.environ.get("MIAI_FULL") == "1"
SPECS = [("hex", 2), ("hex", 5), ("hex", 11), ("hex", 19),
         ("havannah", 4), ("havannah", 7), ("havannah", 10)]


def make(spec: tuple[str, int]) -> games.Game:
    name, size = spec
    return games.create(name, size=size)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s[0]}{s[1]}")
def test_incremental_keys_equal_keys_from_scratch(spec: tuple[str, int]) -> None:
    game = make(spec)
    rng = random.Random(1)
    for _ in range(30 if FULL else 6):
        state = game.initial_state()
        while True:
            assert state.keys() == state.keys_from_scratch()
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))


def play_alternately(game: games.Game, xs: list[int], os_: list[int]) -> games.State | None:
    """The position after xs and os_ alternately, or None if the game ends on the way."""
    state = game.initial_state()
    for pair in zip(xs, os_, strict=True):
        for move in pair:
            if state.is_terminal():
                return None
            state.play(move)
    return None if state.is_terminal() else state


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s[0]}{s[1]}")
def test_transpositions_share_keys(spec: tuple[str, int]) -> None:
    game = make(spec)
    rng = random.Random(2)
    checked = 0
    for _ in range(40):
        cells = list(range(game.num_moves))
        rng.shuffle(cells)
        plies = min(len(cells), 2 * rng.randint(1, max(1, game.num_moves // 4)))
        xs, os_ = cells[:plies:2], cells[1:plies:2]
        first = play_alternately(game, xs, os_)
        rng.shuffle(xs)
        rng.shuffle(os_)
        second = play_alternately(game, xs, os_)
        if first is None or second is None:
            continue
        assert first.keys() == second.keys() == first.keys_from_scratch()
        assert first.legal_moves() == second.legal_moves()
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("spec", [("hex", 11), ("havannah", 8)], ids=["hex11", "havannah8"])
def test_no_collisions_in_a_random_sample(spec: tuple[str, int]) -> None:
    """Positions are told apart here by an independent 128-bit sum of random numbers, one
    per (player, cell): equal sums, equal positions (up to a 2^-100 chance)."""
    game = make(spec)
    rng = random.Random(3)
    tag = [[rng.getrandbits(128) for _ in range(game.num_moves)] for _ in range(2)]
    key_of: dict[int, tuple[int, int]] = {}
    for _ in range(1500 if FULL else 250):
        state = game.initial_state()
        order = list(range(game.num_moves))
        rng.shuffle(order)
        position = 0
        for ply, move in enumerate(order):
            if state.is_terminal():
                break
            position = (position + tag[ply % 2][move]) % (1 << 128)
            state.play(move)
            keys = state.keys()
            assert key_of.setdefault(position, keys) == keys
    first_keys = {k for k, _ in key_of.values()}
    second_keys = {k2 for _, k2 in key_of.values()}
    assert len(key_of) > 10000
    assert len(first_keys) == len(second_keys) == len(key_of)

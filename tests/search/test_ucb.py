"""UCB1 of csrc/search/ucb.h (every policy's factor, value and tie-break) against the
plain-Python reference tests/reference/ucb.py, through the C test entries
miai_ucb_value_of and miai_ucb_argmax_of."""

from __future__ import annotations

import itertools
import math

import pytest
from engine._core import ffi, lib

from tests.reference import ucb

CS = [0.0, 0.02, 0.3, 0.7, 1.4, 40.0]
PARENTS = [0, 1, 2, 3, 10, 1023, 1024, 1025, 70_000, 2**31 + 5]
COUNTS = [0, 1, 2, 7, 1023, 1024, 1025, 65_537]
MEANS = [0.0, 0.125, 0.5, 0.9, 1.0]


def c_value(c: float, parent: int, total: float, n: int) -> float:
    return lib.miai_ucb_value_of(c, parent, total, n)


def grid() -> list[tuple[float, int, int, float]]:
    return [(c, big_n, n, mean)
            for c, big_n, n, mean in itertools.product(CS, PARENTS, COUNTS, MEANS)
            if n <= big_n]


def test_c_value_is_the_reference_value_bit_for_bit_in_its_order() -> None:
    """The C order of operations (factor, then total (1/n) + factor sqrt(1/n)) with the
    table for small counts gives exactly the reference's bits in that order."""
    for c, big_n, n, mean in grid():
        total = mean * n
        got, want = c_value(c, big_n, total, n), ucb.value_c_order(total, n, big_n, c)
        assert got == want or (math.isinf(got) and math.isinf(want)), (c, big_n, n, mean)


def test_c_value_is_eq1_of_the_paper() -> None:
    """... and eq. (1) as the paper writes it, mean + c sqrt(ln N / n), to rounding."""
    for c, big_n, n, mean in grid():
        got, want = c_value(c, big_n, mean * n, n), ucb.value(mean, n, big_n, c)
        if n == 0:
            assert math.isinf(got) and got > 0 and math.isinf(want)
        else:
            assert got == pytest.approx(want, rel=1e-14, abs=1e-14), (c, big_n, n, mean)


def test_c_value_by_hand() -> None:
    """Independent numbers: N = e^4, n = 4, mean 0.5, c = 1: 0.5 + sqrt(4 / 4) = 1.5;
    N <= 1 has no exploration; an unvisited edge is +infinity."""
    assert ucb.value(0.5, 4, math.exp(4), 1.0) == pytest.approx(1.5)
    assert c_value(1.0, 55, 2.0, 4) == pytest.approx(0.5 + math.sqrt(math.log(55) / 4))
    assert c_value(0.7, 1, 1.0, 1) == 1.0
    assert c_value(0.7, 9, 3.0, 0) == math.inf


def c_argmax(values: list[float], seed: int, rounds: int) -> list[int]:
    out = ffi.new("uint32_t[]", rounds)
    vals = ffi.new("double[]", values)
    assert lib.miai_ucb_argmax_of(vals, len(values), seed, rounds, out) == lib.MIAI_OK
    return list(out)


def test_c_argmax_refuses_nothing_to_choose() -> None:
    out = ffi.new("uint32_t[]", 1)
    assert lib.miai_ucb_argmax_of(ffi.new("double[]", [1.0]), 0, 1, 1, out) == lib.MIAI_EINVAL
    assert lib.miai_ucb_argmax_of(ffi.NULL, 1, 1, 1, out) == lib.MIAI_EINVAL


@pytest.mark.parametrize("values", [
    [0.5, 0.5, 0.5],
    [0.1, 0.9, 0.3, 0.9, 0.9, 0.2],
    [math.inf, 1.0, math.inf],
    [-math.inf, -math.inf],
    [2.0, 1.0, 2.0, 2.0, 0.0, 2.0, 1.5, 2.0],
    [0.25],
])
def test_c_argmax_is_the_reference_draw_for_draw(values: list[float]) -> None:
    """With the same seed the C arg-max makes the reference's choices in sequence
    (the reference mirrors the rng, so every draw matches)."""
    for seed in (1, 7, 2**40 + 3):
        rng = ucb.Rng(seed)
        want = [ucb.argmax(values, rng) for _ in range(400)]
        assert c_argmax(values, seed, 400) == want


def test_c_argmax_chooses_every_tied_edge_uniformly() -> None:
    """Among tied maxima each is chosen about equally often, the others never."""
    values = [0.2, 0.7, 0.7, 0.1, 0.7, 0.69999]
    rounds = 30_000
    picks = c_argmax(values, 12345, rounds)
    counts = [picks.count(i) for i in range(len(values))]
    assert counts[0] == counts[3] == counts[5] == 0
    for i in (1, 2, 4):  # expected 10,000 each, sd ~82: 5 sd
        assert abs(counts[i] - rounds / 3) < 410, counts

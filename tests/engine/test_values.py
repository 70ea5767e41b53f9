"""The one value converter (engine/values.py): text or Python values to numbers,
whole numbers, flags and choices, with bounds, infinity and one message format."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import values
from engine.errors import InvalidArgumentError
from engine.search import algorithm_from_spec, variant_params


@given(x=st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_reads_back_from_its_text(x: float) -> None:
    assert values.number(repr(x), "x") == x
    assert values.number(f"  {x!r} ", "x") == x
    assert values.number(x, "x") == x


@given(n=st.integers(-(2**80), 2**80))
def test_a_whole_number_reads_back_exactly(n: int) -> None:
    assert values.whole(str(n), "n") == n
    assert values.whole(n, "n") == n
    assert values.whole("+" + str(n) if n >= 0 else str(n), "n") == n


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0.5", 0.5), (".5", 0.5), ("1.", 1.0), ("-2", -2.0), ("1e3", 1000.0),
     ("1E-3", 0.001), ("+7", 7.0), (" 3 ", 3.0)],
)
def test_decimal_forms(text: str, expected: float) -> None:
    assert values.number(text, "x") == expected


@pytest.mark.parametrize(
    "text", ["", "abc", "1_000", "٣", "0x10", "nan", "NaN", "1e", "e3", "--1", "1.2.3", "1 2",
             "+-inf", "--inf", "infinite"]
)
def test_what_is_not_a_number(text: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        values.number(text, "spec 'x': k")
    assert str(info.value) == f"spec 'x': k={text.strip()} is not a number"
    with pytest.raises(InvalidArgumentError, match="is not a whole number"):
        values.whole(text, "k")


def test_infinity_only_where_allowed() -> None:
    for text in ("inf", "INF", "+inf", "infinity", "Infinity"):
        assert values.number(text, "s", allow_inf=True) == math.inf
        with pytest.raises(InvalidArgumentError) as info:
            values.number(text, "s")
        assert str(info.value) == f"s={text} must be finite"
    assert values.number("-inf", "s", allow_inf=True) == -math.inf
    assert values.number(math.inf, "s", allow_inf=True) == math.inf
    with pytest.raises(InvalidArgumentError, match="not a whole number"):
        values.whole("inf", "n")
    assert values.whole_or_inf("inf", "d") == math.inf
    assert values.whole_or_inf(math.inf, "d") == math.inf
    assert values.whole_or_inf("∞", "d") == math.inf
    assert values.whole_or_inf("3", "d") == 3
    for bad in ("-inf", "-1", "1.5", "x"):
        with pytest.raises(InvalidArgumentError):
            values.whole_or_inf(bad, "d")


def test_bounds_and_the_message_format() -> None:
    assert values.number("1", "c", low=0.0, high=1.0) == 1.0
    with pytest.raises(InvalidArgumentError) as info:
        values.number("1.5", "uct alpha", low=0.0, high=1.0)
    assert str(info.value) == "uct alpha=1.5 is outside [0, 1]"
    with pytest.raises(InvalidArgumentError) as info:
        values.whole("0", "uct every", low=1)
    assert str(info.value) == "uct every=0 is outside [1, inf]"
    with pytest.raises(InvalidArgumentError) as info:
        values.whole(2**64, "seed", low=0, high=2**64 - 1)
    assert str(info.value) == f"seed={2**64} is outside [0, {2**64 - 1}]"
    assert values.whole("1e3", "n") == 1000
    assert values.whole(7.0, "n") == 7
    assert values.whole(Fraction(8, 2), "n") == 4
    for bad in ("2.5", 2.5, True, None, "1e400"):
        with pytest.raises(InvalidArgumentError, match="is not a whole number"):
            values.whole(bad, "n")
    for bad in (True, None, [1]):
        with pytest.raises(InvalidArgumentError, match="is not a number"):
            values.number(bad, "x")


def test_flags_and_choices() -> None:
    for word in ("1", "true", "Yes", "ON", True, 1):
        assert values.flag(word, "solver") is True
    for word in ("0", "false", "No", "off", False, 0):
        assert values.flag(word, "solver") is False
    for bad in ("2", "maybe", 2, 1.0, None):
        with pytest.raises(InvalidArgumentError, match=r"^solver=.* is not a flag \(1/0, "):
            values.flag(bad, "solver")
    assert values.choice(" Tree ", "mode", ("dag", "tree")) == "tree"
    with pytest.raises(InvalidArgumentError) as info:
        values.choice("forest", "mode", ("dag", "tree"))
    assert str(info.value) == "mode=forest is not one of dag, tree"


def test_the_algorithms_convert_with_the_same_converter() -> None:
    assert variant_params.number is values.number
    assert variant_params.flag is values.flag
    assert variant_params.choice is values.choice
    rave = algorithm_from_spec("rave", {"every": "1e3", "knowledge": "off", "c": "0.25"})
    assert (rave.every, rave.knowledge, rave.c) == (1000, False, 0.25)
    cases = {
        ("rave", "every", "1_000"): "rave every=1_000 is not a whole number",
        ("rave", "knowledge", "maybe"): "rave knowledge=maybe is not a flag",
        ("uct", "c", "inf"): "uct c=inf must be finite",
        ("uct", "c", "x"): "uct c=x is not a number",
        ("ucd", "d1", "-1"): "ucd d1=-1 is outside [0, inf]",
    }
    for (name, key, raw), start in cases.items():
        with pytest.raises(InvalidArgumentError) as info:
            algorithm_from_spec(name, {key: raw})
        assert str(info.value).startswith(start)

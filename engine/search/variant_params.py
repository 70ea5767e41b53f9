"""Parameter checks shared by the papers' algorithms (ucd, auct, uct_star, pruning).

Spec values arrive as text (``algorithm_from_spec``) or as Python values; the
conversion is :mod:`engine.values`' (the one converter of spec values), with the
defaults the algorithms rely on: whole numbers are >= 0 unless told otherwise.  Each
helper raises :class:`InvalidArgumentError` naming ``what`` and the bad value.
"""

from __future__ import annotations

from engine import values
from engine.values import choice, flag, number

__all__ = ["choice", "depth", "flag", "number", "settle", "whole"]


def whole(value: object, what: str, *, low: int = 0) -> int:
    """A whole number >= low, from an int or its text."""
    return values.whole(value, what, low=low)


def depth(value: object, what: str) -> int | float:
    """A UCD depth: a whole number >= 0, or infinity ("inf", math.inf)."""
    return values.whole_or_inf(value, what, low=0)


def settle(obj: object, name: str, value: object) -> None:
    """Store a normalised field value on a frozen dataclass (from __post_init__)."""
    object.__setattr__(obj, name, value)

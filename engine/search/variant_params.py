"""Parameter checks shared by the papers' algorithms (ucd, auct, uct_star, pruning).

Spec values arrive as text (``algorithm_from_spec``) or as Python values; each helper
accepts both and raises :class:`InvalidArgumentError` for anything else.
"""

from __future__ import annotations

import math
from typing import Any

from engine.errors import InvalidArgumentError


def number(value: Any, what: str, *, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite real in [low, high], from a number or its text."""
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{what} must be a number, not {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{what} must be a number, not {value!r}") from None
    if not math.isfinite(x) or not low <= x <= high:
        raise InvalidArgumentError(f"{what}={value!r} is outside [{low:g}, {high:g}]")
    return x


def whole(value: Any, what: str, *, low: int = 0) -> int:
    """A whole number >= low, from an int or its text."""
    x = number(value, what, low=low)
    if x != int(x):
        raise InvalidArgumentError(f"{what} must be a whole number, not {value!r}")
    return int(x)


def flag(value: Any, what: str) -> bool:
    """A boolean from a bool or text (1/0, true/false, yes/no, on/off)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise InvalidArgumentError(f"{what} must be a boolean (1/0), not {value!r}")


def choice(value: Any, what: str, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in allowed:
        raise InvalidArgumentError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return text


def depth(value: Any, what: str) -> int | float:
    """A UCD depth: a whole number >= 0, or infinity ("inf", math.inf)."""
    if isinstance(value, float) and value == math.inf:
        return math.inf
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinity", "∞"):
        return math.inf
    return whole(value, what)


def settle(obj: object, name: str, value: object) -> None:
    """Store a normalised field value on a frozen dataclass (from __post_init__)."""
    object.__setattr__(obj, name, value)

"""Values from text: the one converter of parameter values (specs, games, algorithms).

A value arrives as text (a spec's ``key=value``) or as a Python value (keyword
arguments).  Numbers are written in decimal ASCII: ``12``, ``-2``, ``0.5``, ``.5``,
``1e3``, and ``inf``/``infinity``/``∞`` (any case, a sign allowed) where infinity is;
``nan``, underscores (``1_000``) and non-ASCII digits are refused.  Flags are
``1/0``, ``true/false``, ``yes/no``, ``on/off``; choices match case-insensitively.

Every error is an :class:`InvalidArgumentError` whose message reads
``"{what}={value} <what is wrong>"``: ``what`` names the value and where it comes
from (``"bot spec 'uct:c=x': c"``, ``"game spec 'hex:size=99': size"``, ``"ucd d1"``).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable

from engine.errors import InvalidArgumentError

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITY = re.compile(r"([+-]?)(?:inf|infinity|∞)", re.IGNORECASE)
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_FLAG_WORDS = ", ".join(f"{t}/{f}" for t, f in zip(_TRUE, _FALSE, strict=True))


def number(
    value: object,
    what: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    allow_inf: bool = False,
) -> float:
    """A real in [low, high], finite unless ``allow_inf``."""
    x = _real(value, what)
    if math.isinf(x) and not allow_inf:
        raise InvalidArgumentError(f"{what}={_shown(value)} must be finite")
    _check_bounds(x, value, what, low, high)
    return x


def whole(
    value: object,
    what: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
) -> int:
    """A whole number in [low, high]; text of digits is read exactly (64-bit seeds)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        n = int(value)
    elif isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        n = int(value.strip())
    else:
        x = _read_real(value)
        if x is None or not math.isfinite(x) or x != int(x):
            raise InvalidArgumentError(f"{what}={_shown(value)} is not a whole number")
        n = int(x)
    _check_bounds(n, value, what, low, high)
    return n


def whole_or_inf(value: object, what: str, *, low: float = 0) -> int | float:
    """A whole number >= low, or infinity (``inf``, ``math.inf``)."""
    if not isinstance(value, numbers.Integral) and _real(value, what) == math.inf:
        return math.inf
    return whole(value, what, low=low)


def flag(value: object, what: str) -> bool:
    """A boolean from a bool, 0/1, or text (1/0, true/false, yes/no, on/off)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise InvalidArgumentError(f"{what}={_shown(value)} is not a flag ({_FLAG_WORDS})")


def choice(value: object, what: str, allowed: Iterable[str]) -> str:
    """One of ``allowed`` (matched case-insensitively), as spelled in ``allowed``."""
    options = list(allowed)
    text = str(value).strip().lower()
    for option in options:
        if option.lower() == text:
            return option
    raise InvalidArgumentError(
        f"{what}={_shown(value)} is not one of {', '.join(options)}"
    )


def _real(value: object, what: str) -> float:
    """The float a number or a number's text stands for (infinity included)."""
    x = _read_real(value)
    if x is None:
        raise InvalidArgumentError(f"{what}={_shown(value)} is not a number")
    return x


def _read_real(value: object) -> float | None:
    """The float ``value`` stands for; None for anything but a number or its text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        n = int(value)
        x = float(n) if abs(n) < 2**1000 else math.copysign(math.inf, n)
    elif isinstance(value, numbers.Real):
        x = float(value)
    elif isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
        x = float(value.strip())
    elif isinstance(value, str) and (m := _INFINITY.fullmatch(value.strip())):
        x = -math.inf if m.group(1) == "-" else math.inf
    else:
        return None
    return None if math.isnan(x) else x


def _check_bounds(x: float, value: object, what: str, low: float, high: float) -> None:
    if not low <= x <= high:
        raise InvalidArgumentError(
            f"{what}={_shown(value)} is outside [{_bound(low)}, {_bound(high)}]"
        )


def _bound(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def _shown(value: object) -> str:
    return value.strip() if isinstance(value, str) else repr(value)

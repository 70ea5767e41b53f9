"""Bot specs: the one place that reads and writes the text naming a bot.

A spec is ``name`` or ``name:key=value,key=value`` -- e.g. ``random``,
``uct:c=0.5,iterations=2000``, ``mc:playouts=100,seed=3``.  Names and keys are
identifiers (letters, digits, ``_``, ``-``, ``.``); values are numbers (``0.5``,
``1e3``, ``-2``), words (``dag``, ``visits``) or ``inf``.  Values stay text in a
:class:`BotSpec` (search algorithms read their own keys); the ``get_*`` helpers turn
them into checked numbers with an error that names the spec and the bad part.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.errors import InvalidArgumentError, ParseError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_VALUE = re.compile(r"^[A-Za-z0-9_.+\-]+$")


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: the bot's name and its parameters (keys in the given order)."""

    name: str
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The canonical spec text (``parse_spec(spec.text) == spec``)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    def __str__(self) -> str:
        return self.text

    def with_params(self, **values: object) -> BotSpec:
        """A copy with ``values`` set (``None`` removes a key)."""
        params = dict(self.params)
        for key, value in values.items():
            if value is None:
                params.pop(key, None)
            else:
                params[key] = _value_text(self.text, key, value)
        return BotSpec(self.name, params)

    def without(self, keys: Iterable[str]) -> BotSpec:
        drop = set(keys)
        return BotSpec(self.name, {k: v for k, v in self.params.items() if k not in drop})

    def split(self, keys: Iterable[str]) -> tuple[dict[str, str], dict[str, str]]:
        """(params whose key is in ``keys``, the others)."""
        wanted = set(keys)
        mine = {k: v for k, v in self.params.items() if k in wanted}
        rest = {k: v for k, v in self.params.items() if k not in wanted}
        return mine, rest

    def check_keys(self, allowed: Iterable[str]) -> None:
        """Raise if the spec has a key outside ``allowed``."""
        known = sorted(set(allowed))
        for key in self.params:
            if key not in known:
                raise InvalidArgumentError(
                    f"bot spec {self.text!r}: {self.name} has no parameter {key!r} "
                    f"(parameters: {', '.join(known) or 'none'})"
                )

    def get_float(
        self,
        key: str,
        default: float | None = None,
        *,
        minimum: float = -math.inf,
        maximum: float = math.inf,
        allow_inf: bool = False,
    ) -> float | None:
        """The number under ``key`` (``default`` when absent), within bounds."""
        raw = self.params.get(key)
        if raw is None:
            return default
        try:
            value = float(raw)
        except ValueError:
            raise InvalidArgumentError(
                f"bot spec {self.text!r}: {key}={raw} is not a number"
            ) from None
        if math.isnan(value) or (math.isinf(value) and not allow_inf):
            raise InvalidArgumentError(f"bot spec {self.text!r}: {key}={raw} must be finite")
        if not minimum <= value <= maximum:
            raise InvalidArgumentError(
                f"bot spec {self.text!r}: {key}={raw} is outside [{minimum:g}, {maximum:g}]"
            )
        return value

    def get_int(
        self, key: str, default: int | None = None, *, minimum: int = 0,
        maximum: int = 2**63 - 1,
    ) -> int | None:
        """The whole number under ``key`` (``default`` when absent), within bounds."""
        raw = self.params.get(key)
        if raw is None:
            return default
        try:
            value = int(raw)  # exact, also for 64-bit seeds
        except ValueError:
            try:
                number = float(raw)  # 1e3
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or number != int(number):
                raise InvalidArgumentError(
                    f"bot spec {self.text!r}: {key}={raw} is not a whole number"
                ) from None
            value = int(number)
        if not minimum <= value <= maximum:
            raise InvalidArgumentError(
                f"bot spec {self.text!r}: {key}={raw} is outside [{minimum}, {maximum}]"
            )
        return value

    def get_choice(self, key: str, choices: Iterable[str], default: str) -> str:
        options = list(choices)
        raw = self.params.get(key, default)
        if raw not in options:
            raise InvalidArgumentError(
                f"bot spec {self.text!r}: {key}={raw} is not one of {', '.join(options)}"
            )
        return raw


def parse_spec(text: str) -> BotSpec:
    """``"uct:c=0.5,iterations=2000"`` -> ``BotSpec("uct", {"c": "0.5", ...})``."""
    if not isinstance(text, str):
        raise ParseError(f"a bot spec is text, not {text!r}")
    stripped = text.strip()
    name, colon, rest = stripped.partition(":")
    name = name.strip()
    if not name:
        raise ParseError(f"bot spec {text!r}: missing the bot name before ':'")
    if not _NAME.match(name):
        raise ParseError(f"bot spec {text!r}: bad bot name {name!r}")
    params: dict[str, str] = {}
    if colon and not rest.strip():
        raise ParseError(f"bot spec {text!r}: nothing after ':'")
    for part in rest.split(",") if colon else []:
        key, eq, value = (s.strip() for s in part.partition("="))
        if not part.strip():
            raise ParseError(f"bot spec {text!r}: empty parameter (two commas?)")
        if not eq:
            raise ParseError(f"bot spec {text!r}: {part.strip()!r} is not key=value")
        if not _NAME.match(key):
            raise ParseError(f"bot spec {text!r}: bad parameter name {key!r}")
        if not value or not _VALUE.match(value):
            raise ParseError(f"bot spec {text!r}: bad value {value!r} for {key}")
        if key in params:
            raise ParseError(f"bot spec {text!r}: {key} is given twice")
        params[key] = value
    return BotSpec(name, params)


def as_spec(spec: str | BotSpec) -> BotSpec:
    return spec if isinstance(spec, BotSpec) else parse_spec(spec)


def _value_text(spec_text: str, key: str, value: object) -> str:
    if isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, float):
        text = "inf" if value == math.inf else repr(value)
    else:
        text = str(value).strip()
    if not _NAME.match(key) or not _VALUE.match(text):
        raise ParseError(f"bot spec {spec_text!r}: bad parameter {key}={value!r}")
    return text

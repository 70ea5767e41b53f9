"""Specs: the one grammar of the text that names a game or a bot with its parameters.

::

    spec  = name [ ":" param { "," param } ]
    param = key "=" value
    name, key = identifier: a letter or "_", then letters, digits, "_", "-", "."
    value = one or more of letters, digits, "_", ".", "+", "-"

e.g. ``hex:size=7``, ``go:size=9,komi=7.5``, ``uct:c=0.5,iterations=2000``,
``uctstar:p=0.5,s=inf``.  Spaces around the name, ``:``, ``,`` and ``=`` are ignored;
anything else is refused with a :class:`ParseError` that names the spec and the bad
part: an empty name, nothing after ``:``, an empty parameter (two commas, a trailing
comma), a part without ``=``, a bad key or value, a key given twice.

Values stay text in a :class:`Spec` (its reader decides what a key means); the
``get_*`` helpers convert them with :mod:`engine.values`, the one converter, so every
error names the spec and the bad ``key=value``.  Subclasses only say what kind of spec
they are (``"bot spec"``, ``"game spec"``) for the messages.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from engine import values
from engine.errors import InvalidArgumentError, ParseError

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
VALUE = re.compile(r"[A-Za-z0-9_.+\-]+")

S = TypeVar("S", bound="Spec")


@dataclass(frozen=True)
class Spec:
    """A parsed spec: a name and its parameters as text (keys in the given order)."""

    name: str
    params: Mapping[str, str] = field(default_factory=dict)

    kind: ClassVar[str] = "spec"  # how messages call it: "bot spec", "game spec"

    @classmethod
    def parse(cls: type[S], text: str) -> S:
        """``"uct:c=0.5,iterations=2000"`` -> ``cls("uct", {"c": "0.5", ...})``."""
        if not isinstance(text, str):
            raise ParseError(f"a {cls.kind} is text, not {text!r}")
        where = f"{cls.kind} {text!r}"
        name, colon, rest = (s.strip() for s in text.strip().partition(":"))
        if not name:
            raise ParseError(f"{where}: missing the name before ':'")
        if not NAME.fullmatch(name):
            raise ParseError(f"{where}: bad name {name!r}")
        if colon and not rest:
            raise ParseError(f"{where}: nothing after ':'")
        params: dict[str, str] = {}
        for part in rest.split(",") if colon else []:
            key, eq, value = (s.strip() for s in part.partition("="))
            if not part.strip():
                raise ParseError(f"{where}: empty parameter (a doubled or trailing comma?)")
            if not eq:
                raise ParseError(f"{where}: {part.strip()!r} is not key=value")
            if not NAME.fullmatch(key):
                raise ParseError(f"{where}: bad parameter name {key!r}")
            if not VALUE.fullmatch(value):
                raise ParseError(f"{where}: bad value {value!r} for {key}")
            if key in params:
                raise ParseError(f"{where}: {key} is given twice")
            params[key] = value
        return cls(name, params)

    @property
    def text(self) -> str:
        """The canonical spec text (``type(spec).parse(spec.text) == spec``)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    def __str__(self) -> str:
        return self.text

    def with_params(self: S, **given: object) -> S:
        """A copy with ``given`` values set (``None`` removes a key)."""
        params = dict(self.params)
        for key, value in given.items():
            if value is None:
                params.pop(key, None)
            else:
                params[key] = self._value_text(key, value)
        return dataclasses.replace(self, params=params)

    def without(self: S, keys: Iterable[str]) -> S:
        drop = set(keys)
        return dataclasses.replace(
            self, params={k: v for k, v in self.params.items() if k not in drop}
        )

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
                    f"{self._where()}: {self.name} has no parameter {key!r} "
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
        return values.number(raw, self._what(key), low=minimum, high=maximum,
                             allow_inf=allow_inf)

    def get_int(
        self, key: str, default: int | None = None, *, minimum: int = 0,
        maximum: int = 2**63 - 1,
    ) -> int | None:
        """The whole number under ``key`` (``default`` when absent), within bounds."""
        raw = self.params.get(key)
        if raw is None:
            return default
        return values.whole(raw, self._what(key), low=minimum, high=maximum)

    def get_choice(self, key: str, choices: Iterable[str], default: str) -> str:
        """One of ``choices`` under ``key`` (``default`` when absent)."""
        return values.choice(self.params.get(key, default), self._what(key), choices)

    def _where(self) -> str:
        return f"{self.kind} {self.text!r}"

    def _what(self, key: str) -> str:
        return f"{self._where()}: {key}"

    def _value_text(self, key: str, value: object) -> str:
        if isinstance(value, bool):
            text = "1" if value else "0"
        elif isinstance(value, float):
            text = "inf" if value == math.inf else repr(value)
        else:
            text = str(value).strip()
        if not NAME.fullmatch(key) or not VALUE.fullmatch(text):
            raise ParseError(f"{self._where()}: bad parameter {key}={value!r}")
        return text


def parse_spec(text: str) -> Spec:
    """The spec ``text`` names (see the module's grammar)."""
    return Spec.parse(text)

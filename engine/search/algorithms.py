"""Algorithm objects by name, and parsing them from text specs.

An algorithm object is a frozen dataclass with a ``name`` class variable and a
``configure(cfg)`` method that fills the C ``miai_search_config``.  Optional hooks the
``Search`` calls between batches (all with the running ``Search`` as argument):

- ``between_batches(search) -> bool``: inspect root statistics
  (``search.root_edges()``), prune root moves (``search.set_pruned``); return True to
  end the run early (e.g. one root move left);
- ``report(search) -> dict``: algorithm-specific entries for ``SearchResult.extra``;
- ``batch_iterations: int``: run batches of exactly this many iterations (so
  between-batch decisions do not depend on timing).

Register a new algorithm with :func:`register`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from engine.errors import InvalidArgumentError, UnknownNameError
from engine.search.rave import RAVE
from engine.search.uct import UCT

_ALGORITHMS: dict[str, type] = {}


def register(cls: type) -> type:
    """Make ``cls`` (an algorithm dataclass) known to :func:`algorithm_from_spec`."""
    _ALGORITHMS[cls.name] = cls  # type: ignore[attr-defined]
    return cls


register(UCT)
register(RAVE)


def known() -> list[str]:
    return sorted(_ALGORITHMS)


def _convert(kind: Any, raw: str, where: str) -> object:
    text = raw.strip()
    try:
        if kind in (float, "float"):
            value = float(text)
            if not math.isfinite(value):
                raise ValueError
            return value
        if kind in (int, "int"):
            return int(text)
        if kind in (bool, "bool"):
            low = text.lower()
            if low not in ("1", "0", "true", "false", "yes", "no"):
                raise ValueError
            return low in ("1", "true", "yes")
    except ValueError:
        raise InvalidArgumentError(f"{where}: bad value {raw!r}") from None
    return text


def algorithm_from_spec(name: str, params: dict[str, str]) -> object:
    """The algorithm ``name`` with parameters given as text, e.g.
    ``algorithm_from_spec("uct", {"c": "0.5", "final": "mean"})``."""
    cls = _ALGORITHMS.get(name.strip().lower())
    if cls is None:
        raise UnknownNameError(f"unknown algorithm {name!r} (known: {', '.join(known())})")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    aliases: dict[str, str] = getattr(cls, "aliases", {})  # spec names that are keywords
    kwargs: dict[str, object] = {}
    for key, raw in params.items():
        key = aliases.get(key, key)
        if key not in fields:
            allowed = ", ".join(sorted(fields)) or "none"
            raise UnknownNameError(f"{name} has no parameter {key!r} (parameters: {allowed})")
        kind = fields[key].type
        kwargs[key] = _convert(kind, str(raw), f"{name} {key}")
    return cls(**kwargs)

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
from typing import Any

from engine import values
from engine.errors import UnknownNameError
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


def _convert(kind: Any, raw: str, what: str) -> object:
    """A spec value as the dataclass field's declared type (``float``, ``int``,
    ``bool``) by :mod:`engine.values`; any other field gets the text, stripped, and
    checks it itself."""
    if kind in (float, "float"):
        return values.number(raw, what)
    if kind in (int, "int"):
        return values.whole(raw, what)
    if kind in (bool, "bool"):
        return values.flag(raw, what)
    return raw.strip()


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

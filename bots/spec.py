"""Bot specs: the text naming a bot, e.g. ``random``, ``uct:c=0.5,iterations=2000``,
``mc:playouts=100,seed=3``.

The grammar and the value helpers (``get_int``, ``get_float``, ``get_choice``,
``with_params``, ``without``, ``split``, ``.text``) are :mod:`engine.spec`'s, the one
parser of game and bot specs; a :class:`BotSpec` is a spec whose messages say
"bot spec".  Values stay text; search algorithms read their own keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.spec import Spec


@dataclass(frozen=True)
class BotSpec(Spec):
    """A parsed bot spec: the bot's name and its parameters (keys in the given order)."""

    kind: ClassVar[str] = "bot spec"


def parse_spec(text: str) -> BotSpec:
    """``"uct:c=0.5,iterations=2000"`` -> ``BotSpec("uct", {"c": "0.5", ...})``."""
    return BotSpec.parse(text)


def as_spec(spec: str | BotSpec) -> BotSpec:
    return spec if isinstance(spec, BotSpec) else parse_spec(spec)

"""The flat propositional network: its node kinds and the arrays C reads.

The bottom of the propnet's modules: ``engine/gdl/propnet.py`` builds a FlatPropnet
from a grounding, ``engine/gdl/mutex.py`` proves its mutex families, and
``engine/gdl/game.py`` hands it to C (``miai_gdl_create``, csrc/gdl/gdl_api.h).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.gdl.terms import Term

FALSE, TRUE, BASE, INPUT, AND, OR, NOT, MOVESET = range(8)
KIND_NAMES = ("false", "true", "base", "input", "and", "or", "not", "moveset")


@dataclass
class FlatPropnet:
    """The arrays ``miai_gdl_create`` reads (see csrc/gdl/gdl_api.h)."""

    kind: list[int]
    arg: list[int]           # BASE: base index; INPUT: global move index
    first_in: list[int]      # len(kind) + 1 offsets into inputs
    inputs: list[int]
    ranges: list[tuple[int, int]]
    bases: list[Term]
    next_node: list[int]
    init: list[int]
    roles: list[Term]
    moves: list[list[Term]]  # per role
    legal_node: list[int]    # per global move (role 0's moves, then role 1's, ...)
    sets: list[list[int]]    # MOVESET k: global move indices, of any roles
    terminal: int
    goals: list[tuple[int, int, int]]  # (role, value, node)
    seed: int
    stats: dict[str, int] = field(default_factory=dict)
    # A move whose legal_guarded flag is 1 is legal when its legal_node and its role's
    # legal_guard (node 1, true, for none) both hold: see _legal_guards.
    legal_guard: list[int] = field(default_factory=list)   # per role
    legal_guarded: list[int] = field(default_factory=list)  # per global move
    # Mutex families: base indices of which at most one holds in any reachable state
    # (engine/gdl/mutex.py), each base in one family at most.
    families: list[list[int]] = field(default_factory=list)
    # Mutex families of gates (mutex.gate_families): node indices.
    gate_families: list[list[int]] = field(default_factory=list)

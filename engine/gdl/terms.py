"""Immutable GDL terms.

A term is plain, hashable Python data, cheap to compare and to use as a dict key:

- a constant is an interned, lower-cased ``str`` (numbers are constants too: ``"100"``);
- a variable is an interned ``str`` that starts with ``?`` (``"?x"``);
- a compound term ``(f a b)`` is the tuple ``("f", a, b)``; its first item is the functor.

Atoms (``(cell 1 1 b)``, ``terminal``) and literals (``(not p)``, ``(distinct ?a ?b)``)
use the same shapes.  A rule is a :class:`Rule`: a head atom and a tuple of body literals.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Union

Term = Union[str, tuple]  # noqa: UP007 - a recursive alias reads better this way
Env = Mapping[str, Term]

# Relations and connectives with a fixed meaning in GDL.
KEYWORDS = {
    "role": 1, "init": 1, "true": 1, "next": 1, "legal": 2, "does": 2, "goal": 2,
    "terminal": 0, "base": 1, "input": 2, "distinct": 2, "not": 1,
}
CONNECTIVES = ("not", "or", "distinct")


def symbol(text: str) -> str:
    """The interned, lower-cased symbol for ``text``."""
    return sys.intern(text.lower())


def is_var(t: Term) -> bool:
    return isinstance(t, str) and t.startswith("?")


def is_ground(t: Term) -> bool:
    if isinstance(t, str):
        return not t.startswith("?")
    return all(is_ground(a) for a in t[1:])


def name_of(atom: Term) -> str:
    """The relation (or function) name of an atom or compound term."""
    return atom if isinstance(atom, str) else atom[0]


def arity_of(atom: Term) -> int:
    return 0 if isinstance(atom, str) else len(atom) - 1


def args_of(atom: Term) -> tuple:
    return () if isinstance(atom, str) else atom[1:]


def variables(t: Term) -> Iterator[str]:
    """The variables of a term, in order of appearance (with repeats)."""
    if isinstance(t, str):
        if t.startswith("?"):
            yield t
        return
    for a in t[1:]:
        yield from variables(a)


def substitute(t: Term, env: Env) -> Term:
    """``t`` with bound variables replaced by their values."""
    if isinstance(t, str):
        return env.get(t, t) if t.startswith("?") else t
    return (t[0],) + tuple(substitute(a, env) for a in t[1:])


def match(pattern: Term, value: Term, env: dict[str, Term]) -> bool:
    """One-way matching of ``pattern`` against the ground ``value``, extending ``env``
    in place.  On failure ``env`` may hold partial bindings: callers pass a copy."""
    if isinstance(pattern, str):
        if pattern[0] == "?":
            bound = env.get(pattern)
            if bound is None:
                env[pattern] = value
                return True
            return bound == value
        return pattern == value
    if isinstance(value, str) or len(value) != len(pattern) or value[0] != pattern[0]:
        return False
    for i in range(1, len(pattern)):  # noqa: SIM110 - a plain loop is faster here
        if not match(pattern[i], value[i], env):
            return False
    return True


def to_text(t: Term) -> str:
    """KIF text of a term: ``(mark 1 2)``, ``noop``."""
    if isinstance(t, str):
        return t
    return "(" + " ".join(to_text(a) for a in t) + ")"


@dataclass(frozen=True)
class Rule:
    """``(<= head body...)``; a fact has an empty body.  ``line`` is where it starts."""

    head: Term
    body: tuple[Term, ...]
    line: int = 0

    def __str__(self) -> str:
        if not self.body:
            return to_text(self.head)
        return "(<= " + " ".join(to_text(t) for t in (self.head, *self.body)) + ")"

    def where(self) -> str:
        """``line N: (<= ...)``, for error messages (shortened when long)."""
        text = str(self)
        if len(text) > 160:
            text = text[:157] + "..."
        return f"line {self.line}: {text}"

"""KIF text to GDL rules: a tokeniser, an iterative s-expression reader, and the
sentence shapes of GDL (``(<= head body...)``, facts, ``not``/``or``/``distinct``).

Symbols are case-insensitive (lower-cased and interned); ``;`` starts a comment that
runs to the end of the line.  Any malformed input raises :class:`GdlError` (a
``engine.errors.ParseError``) naming the line and column; nothing else escapes.
"""

from __future__ import annotations

import re

from engine.gdl.errors import GdlError
from engine.gdl.terms import Rule, Term, symbol, to_text

MAX_DEPTH = 64          # deepest nesting of parentheses accepted
MAX_TEXT = 20_000_000   # characters

_TOKEN = re.compile(r"\s+|;[^\n]*|\(|\)|[^\s();]+")


class Pos(int):
    """Where a token starts: its line (the int value, from 1) and ``column`` (from 1,
    in characters).  Written ``L, column C``, so that every message ``f"line {pos}:
    ..."`` names both, and compared as the line number alone."""

    column: int

    def __new__(cls, line: int, column: int = 0) -> Pos:
        pos = super().__new__(cls, line)
        pos.column = column
        return pos

    def __getnewargs__(self) -> tuple[int, int]:  # type: ignore[override]
        return int(self), self.column

    def __str__(self) -> str:
        return f"{int(self)}, column {self.column}" if self.column else str(int(self))

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(int(self), spec)

    def __repr__(self) -> str:
        return f"Pos({int(self)}, {self.column})"


def tokenize(text: str) -> list[tuple[str, Pos]]:
    """Tokens with their positions; comments and whitespace dropped."""
    if not isinstance(text, str):
        raise GdlError(f"GDL must be text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise GdlError(f"GDL text too long ({len(text)} characters)")
    out: list[tuple[str, Pos]] = []
    line, line_start = 1, 0
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok[0].isspace() or tok[0] == ";":
            breaks = tok.count("\n")
            if breaks:
                line += breaks
                line_start = m.start() + tok.rindex("\n") + 1
            continue
        out.append((tok, Pos(line, m.start() - line_start + 1)))
    return out


def read_sexprs(text: str) -> list[tuple[object, int]]:
    """Top-level s-expressions (str or nested lists) with their starting line."""
    stack: list[list] = []
    starts: list[Pos] = []
    out: list[tuple[object, int]] = []
    for tok, line in tokenize(text):
        if tok == "(":
            if len(stack) >= MAX_DEPTH:
                raise GdlError(f"line {line}: parentheses nested deeper than {MAX_DEPTH}")
            stack.append([])
            starts.append(line)
        elif tok == ")":
            if not stack:
                raise GdlError(f"line {line}: unbalanced ')'")
            done = stack.pop()
            start = starts.pop()
            if stack:
                stack[-1].append((done, start))
            else:
                out.append((done, start))
        else:
            if any(ord(c) < 32 or ord(c) == 127 for c in tok):
                raise GdlError(f"line {line}: control character in symbol {tok!r}")
            item = (symbol(tok), line)
            if stack:
                stack[-1].append(item)
            else:
                out.append(item)
    if stack:
        raise GdlError(f"line {starts[-1]}: '(' is never closed")
    return out


def _term(node: tuple[object, int], what: str) -> Term:
    """A term (argument position): a constant, a variable or a compound term."""
    value, line = node
    if isinstance(value, str):
        if value == "?":
            raise GdlError(f"line {line}: '?' is not a variable name")
        return value
    return _compound(value, line, what)  # type: ignore[arg-type]


def _compound(items: list, line: int, what: str) -> tuple:
    if not items:
        raise GdlError(f"line {line}: empty list () in {what}")
    head, hline = items[0]
    if not isinstance(head, str):
        raise GdlError(f"line {hline}: a list cannot start with a list in {what}")
    if head.startswith("?"):
        raise GdlError(f"line {hline}: variable {head} used as a function name in {what}")
    if head in ("<=", "not", "or", "distinct"):
        raise GdlError(f"line {hline}: {head!r} inside a term in {what}")
    return (head,) + tuple(_term(a, what) for a in items[1:])


def _atom(node: tuple[object, int], what: str) -> Term:
    """A relation atom: a symbol or a list headed by a relation name."""
    value, line = node
    if isinstance(value, str):
        if value.startswith("?"):
            raise GdlError(f"line {line}: variable {value} where a sentence belongs in {what}")
        if value in ("<=", "not", "or", "distinct"):
            raise GdlError(f"line {line}: {value!r} used as a sentence in {what}")
        return value
    return _compound(value, line, what)  # type: ignore[arg-type]


def _literal(node: tuple[object, int], what: str) -> Term:
    value, line = node
    if isinstance(value, list) and value and isinstance(value[0][0], str):
        op = value[0][0]
        args = value[1:]
        if op == "not":
            if len(args) != 1:
                raise GdlError(f"line {line}: 'not' takes one literal in {what}")
            return ("not", _literal(args[0], what))
        if op == "or":
            if not args:
                raise GdlError(f"line {line}: empty 'or' in {what}")
            return ("or",) + tuple(_literal(a, what) for a in args)
        if op == "distinct":
            if len(args) != 2:
                raise GdlError(f"line {line}: 'distinct' takes two terms in {what}")
            return ("distinct", _term(args[0], what), _term(args[1], what))
        if op == "<=":
            raise GdlError(f"line {line}: a rule inside a rule body in {what}")
    return _atom(node, what)


def _sentence(node: tuple[object, int]) -> Rule:
    value, line = node
    if isinstance(value, list) and value and value[0][0] == "<=":
        if len(value) < 2:
            raise GdlError(f"line {line}: rule without a head")
        what = f"the rule at line {line}"
        head = _atom(value[1], what)
        if isinstance(value[1][0], list) and value[1][0] and value[1][0][0][0] in (
                "not", "or", "distinct"):
            raise GdlError(f"line {line}: a rule head must be an atom")
        body = tuple(_literal(b, what) for b in value[2:])
        return Rule(head, body, line)
    what = f"the sentence at line {line}"
    if isinstance(value, list) and value and value[0][0] in ("not", "or", "distinct"):
        raise GdlError(f"line {line}: a fact must be an atom, not {value[0][0]!r}")
    return Rule(_atom(node, what), (), line)


def parse(text: str) -> list[Rule]:
    """All sentences of a GDL description, in order.  Raises GdlError when malformed."""
    try:
        return [_sentence(node) for node in read_sexprs(text)]
    except GdlError:
        raise
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps recursion shallow
        raise GdlError("GDL nested too deeply") from None


def parse_term(text: str) -> Term:
    """One term, e.g. a move ``(mark 1 2)``; case and whitespace do not matter."""
    nodes = read_sexprs(text)
    if len(nodes) != 1:
        raise GdlError(f"expected one term, got {len(nodes)} in {text!r}")
    return _term(nodes[0], "a term")


def normalize_term_text(text: str) -> str:
    """Canonical KIF text of one term (lower case, single spaces)."""
    return to_text(parse_term(text))

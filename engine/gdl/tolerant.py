"""A tolerant reading of rules the strict checks (engine.gdl.checks) reject.

Game masters send sheets that break a rule of strict GDL but that ggp-base's prover
plays.  :func:`tolerant_program` reads such a sheet as that prover evaluates it, by
rewriting the rules into strict GDL (so the grounder, the propnet and the reference
prover all play the same rewritten rules), and says what it changed:

- a rule headed by ``true``, ``does`` or ``distinct`` is dropped: the prover reads
  ``true`` and ``does`` from the state and the joint move only, and ``distinct`` is
  built in, so such a rule is never consulted;
- a relation used but never defined is false (GDL's reading): a rule with a positive
  literal of it is dropped, a negated literal of it is dropped (it always holds); this
  is repeated, as dropping rules may leave other relations undefined;
- ``(not (distinct s t))`` is ``s = t``: the rule's variables are unified so that the
  two terms are the same (the rule is dropped when they cannot be);
- ``init`` or ``next`` read in a body is read from a copy of their rules;
- an unsafe variable (one no positive literal of the rule binds), as the prover,
  which evaluates literals left to right, sees it:

  - in a ``distinct``: an unbound variable is a term of its own, unequal to any
    other term (``(distinct ?z a)`` holds, ``(distinct ?z ?z)`` does not): it is
    replaced by a fresh constant there;
  - in a negated literal: ``(not (p ?x ?z))`` with ``?z`` unbound holds when no
    ``(p ?x ...)`` holds for any ``?z`` (the prover asks the query with ``?z`` free):
    it becomes ``(not (aux ?x))`` with ``(<= (aux ?x) (p ?x ?z))``;
  - only in the head: it ranges over the domain of its place in the head -- the
    ground terms that place can hold by a syntactic analysis of the sheet (``init``,
    ``true``, ``next`` share places, and so do ``legal`` and ``does``), or every
    constant of the sheet when it has none -- which is the prover's enumeration
    of such an answer; the head is bound first, so filters see it bound.

A variable that some positive literal binds is bound for every literal of the rule,
wherever that literal is written (the reading of safe GDL), not only for the ones after
it.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.gdl.checks import Program, analyse, expand_or
from engine.gdl.errors import GdlCheckError
from engine.gdl.parser import parse
from engine.gdl.terms import Rule, Term, is_ground, name_of, substitute, variables

SAME = "__same"  # the literal (not (distinct s t)) while rules are rewritten
STATE_LINKS = {"init": "true", "next": "true", "true": "true", "base": "true",
               "legal": "does", "does": "does", "input": "does"}
NOT_HEADS = ("true", "does", "distinct")


def tolerant_program(text: str) -> tuple[Program, list[str]]:
    """The checked program of GDL text and what reading it tolerantly changed (empty
    when the strict checks pass).  Raises GdlError when the text does not parse, or
    when even the tolerant reading breaks GDL (the message says both faults)."""
    rules = parse(text)
    try:
        return analyse(rules), []
    except GdlCheckError as exc:
        strict = str(exc)
    fixed, notes = tolerate(rules)
    try:
        program = analyse(fixed)
    except GdlCheckError as exc:
        raise GdlCheckError(f"{strict} (and read tolerantly: {exc})") from None
    return program, [f"the strict checks reject the rules: {strict}", *notes]


def tolerate(rules: list[Rule]) -> tuple[list[Rule], list[str]]:
    """The rules rewritten as the module doc says, and a note per change."""
    names = _names(rules)
    fresh = _Fresh(names)
    notes: list[str] = []
    out: list[Rule] = []
    for rule in rules:
        if name_of(rule.head) in NOT_HEADS:
            notes.append(f"ignored a rule headed by '{name_of(rule.head)}' (never read): "
                         f"{rule.where()}")
            continue
        rewritten = Rule(rule.head, tuple(_same(lit) for lit in rule.body), rule.line)
        for r in expand_or(rewritten):
            unified = _unify_same(r)
            if unified is None:
                notes.append(f"dropped a rule whose (not (distinct ...)) never holds: "
                             f"{rule.where()}")
            else:
                if unified is not r:
                    notes.append(f"read (not (distinct s t)) as s = t: {rule.where()}")
                out.append(unified)
    out = _state_keywords_in_bodies(out, fresh, notes)
    out = _undefined(out, notes)
    return _safe(out, fresh, notes), notes


# -- (not (distinct s t)) ------------------------------------------------------------

def _same(lit: Term) -> Term:
    if isinstance(lit, tuple) and lit[0] == "not":
        inner = lit[1]
        if isinstance(inner, tuple) and inner[0] == "distinct":
            return (SAME, inner[1], inner[2])
        if isinstance(inner, tuple) and inner[0] == "not":
            return _same(inner[1])
    if isinstance(lit, tuple) and lit[0] == "or":
        return ("or", *(_same(a) for a in lit[1:]))
    return lit


def _walk(t: Term, env: dict[str, Term]) -> Term:
    while isinstance(t, str) and t.startswith("?") and t in env:
        t = env[t]
    return t


def _occurs(v: str, t: Term, env: dict[str, Term]) -> bool:
    t = _walk(t, env)
    if isinstance(t, str):
        return t == v
    return any(_occurs(v, a, env) for a in t[1:])


def _unify(a: Term, b: Term, env: dict[str, Term]) -> bool:
    a, b = _walk(a, env), _walk(b, env)
    if a == b:
        return True
    if isinstance(a, str) and a.startswith("?"):
        if _occurs(a, b, env):
            return False
        env[a] = b
        return True
    if isinstance(b, str) and b.startswith("?"):
        return _unify(b, a, env)
    if isinstance(a, str) or isinstance(b, str) or len(a) != len(b) or a[0] != b[0]:
        return False
    return all(_unify(x, y, env) for x, y in zip(a[1:], b[1:], strict=True))


def _resolve(t: Term, env: dict[str, Term]) -> Term:
    t = _walk(t, env)
    if isinstance(t, str):
        return t
    return (t[0], *(_resolve(a, env) for a in t[1:]))


def _unify_same(rule: Rule) -> Rule | None:
    """The rule with its (not (distinct s t)) literals made true by unification; the
    rule itself when it has none, None when they cannot all hold."""
    sames = [lit for lit in rule.body if isinstance(lit, tuple) and lit[0] == SAME]
    if not sames:
        return rule
    env: dict[str, Term] = {}
    for lit in sames:
        if not _unify(lit[1], lit[2], env):
            return None
    body = tuple(_resolve(lit, env) for lit in rule.body
                 if not (isinstance(lit, tuple) and lit[0] == SAME))
    return Rule(_resolve(rule.head, env), body, rule.line)


# -- init and next in bodies, undefined relations ------------------------------------

def _positive(lit: Term) -> bool:
    return not (isinstance(lit, tuple) and lit[0] in ("not", "distinct"))


def _state_keywords_in_bodies(rules: list[Rule], fresh: _Fresh, notes: list[str]
                              ) -> list[Rule]:
    """``init`` and ``next`` read in a body: read from a copy of their rules."""
    used = {name_of(a) for r in rules for a, _ in _atoms(r)} & {"init", "next"}
    if not used:
        return rules
    copy = {name: fresh.name(f"{name}_copy") for name in sorted(used)}

    def rename(lit: Term) -> Term:
        if isinstance(lit, tuple) and lit[0] == "not":
            return ("not", rename(lit[1]))
        name = name_of(lit)
        if name in copy:
            return copy[name] if isinstance(lit, str) else (copy[name], *lit[1:])
        return lit

    out = []
    for rule in rules:
        if any(name_of(a) in copy for a, _ in _atoms(rule)):
            notes.append(f"read {'/'.join(sorted(copy))} in a body from a copy of its "
                         f"rules: {rule.where()}")
            rule = Rule(rule.head, tuple(rename(lit) for lit in rule.body), rule.line)
        out.append(rule)
    for rule in list(out):
        name = name_of(rule.head)
        if name in copy:
            out.append(Rule((copy[name], *rule.head[1:]), rule.body, rule.line))
    return out


def _atoms(rule: Rule) -> Iterator[tuple[Term, bool]]:
    """(atom, negated) of the rule's relational literals."""
    for lit in rule.body:
        if isinstance(lit, tuple) and lit[0] == "distinct":
            continue
        if isinstance(lit, tuple) and lit[0] == "not":
            yield lit[1], True
        else:
            yield lit, False


def _undefined(rules: list[Rule], notes: list[str]) -> list[Rule]:
    """Relations no rule defines read as false, until nothing changes."""
    said: set[str] = set()
    while True:
        defined = {name_of(r.head) for r in rules} | {"true", "does"}
        out: list[Rule] = []
        changed = False
        for rule in rules:
            missing = [name_of(a) for a, neg in _atoms(rule)
                       if not neg and name_of(a) not in defined]
            if missing:
                changed = True
                _note_once(notes, said, missing[0],
                           f"'{missing[0]}' is never defined: read as false")
                continue
            body = tuple(lit for lit in rule.body if not (
                isinstance(lit, tuple) and lit[0] == "not"
                and name_of(lit[1]) not in defined))
            if len(body) != len(rule.body):
                changed = True
                for a, neg in _atoms(rule):
                    if neg and name_of(a) not in defined:
                        _note_once(notes, said, name_of(a),
                                   f"'{name_of(a)}' is never defined: read as false")
                rule = Rule(rule.head, body, rule.line)
            out.append(rule)
        rules = out
        if not changed:
            return rules


def _note_once(notes: list[str], said: set[str], key: str, note: str) -> None:
    if key not in said:
        said.add(key)
        notes.append(note)


# -- unsafe variables ----------------------------------------------------------------

def _safe(rules: list[Rule], fresh: _Fresh, notes: list[str]) -> list[Rule]:
    domains = _Domains(rules)
    out: list[Rule] = []
    extra: list[Rule] = []
    for rule in rules:
        bound = {v for lit in rule.body if _positive(lit) for v in variables(lit)}
        head_only = list(dict.fromkeys(v for v in variables(rule.head) if v not in bound))
        body = list(rule.body)
        for v in head_only:  # enumerate over the domain of its place in the head
            rel = fresh.name(f"domain_{v[1:]}")
            values = domains.of_head_variable(rule.head, v)
            extra.extend(Rule((rel, value), (), rule.line) for value in values)
            body.insert(0, (rel, v))
            bound.add(v)
            notes.append(f"unsafe variable {v} only in the head: ranges over "
                         f"{len(values)} term(s) of its place: {rule.where()}")
        kept: list[Term] = []
        dropped = False
        for lit in body:
            if _positive(lit) or set(variables(lit)) <= bound:
                kept.append(lit)
                continue
            free = [v for v in dict.fromkeys(variables(lit)) if v not in bound]
            if lit[0] == "distinct":  # an unbound variable is a term of its own
                env = {v: fresh.name(f"unbound_{v[1:]}") for v in free}
                lit = substitute(lit, env)
                notes.append(f"unsafe variable {free[0]} in a distinct: an unbound "
                             f"term of its own there: {rule.where()}")
                if is_ground(lit[1]) and is_ground(lit[2]):
                    if lit[1] == lit[2]:
                        dropped = True
                        break
                    continue
                kept.append(lit)
                continue
            inner = lit[1]  # (not (p ... ?z ...)), ?z free: no (p ...) for any ?z
            args = [v for v in dict.fromkeys(variables(inner)) if v in bound]
            rel = fresh.name(f"exists_{name_of(inner)}")
            head = (rel, *args) if args else rel
            extra.append(Rule(head, (inner,), rule.line))
            kept.append(("not", head))
            notes.append(f"unsafe variable {free[0]} in a negation: read as 'for no "
                         f"{free[0]}': {rule.where()}")
        if not dropped:
            out.append(Rule(rule.head, tuple(kept), rule.line))
    return out + extra


class _Domains:
    """The ground terms each place of an atom can hold, by a syntactic fixpoint: a
    place (relation, path through function terms) holds the ground terms written
    there, and a head variable's place holds what the places that bind it in the
    body hold."""

    def __init__(self, rules: list[Rule]) -> None:
        self.dom: dict[tuple, set[Term]] = {}
        self.constants: set[str] = set()
        edges: list[tuple[tuple, tuple]] = []
        for rule in rules:
            where: dict[str, list[tuple]] = {}
            for atom in [lit for lit in rule.body if _positive(lit)]:
                for place, t in _places(atom):
                    self._see(place, t)
                    if isinstance(t, str) and t.startswith("?"):
                        where.setdefault(t, []).append(place)
            for lit in rule.body:
                if not _positive(lit) and lit[0] == "not":
                    for place, t in _places(lit[1]):
                        self._see(place, t)
            for place, t in _places(rule.head):
                self._see(place, t)
                if isinstance(t, str) and t.startswith("?"):
                    edges.extend((place, src) for src in where.get(t, ()))
        changed = True
        while changed:
            changed = False
            for dst, src in edges:
                new = self.dom.get(src, set()) - self.dom.get(dst, set())
                if new:
                    self.dom.setdefault(dst, set()).update(new)
                    changed = True

    def _see(self, place: tuple, t: Term) -> None:
        if is_ground(t):
            self.dom.setdefault(place, set()).add(t)
        for c in _leaves(t):
            if not c.startswith("?"):
                self.constants.add(c)

    def of_head_variable(self, head: Term, v: str) -> list[Term]:
        values: set[Term] = set()
        for place, t in _places(head):
            if t == v:
                values |= self.dom.get(place, set())
        return sorted(values or self.constants, key=str)


def _leaves(t: Term) -> Iterator[str]:
    if isinstance(t, str):
        yield t
    else:
        for a in t[1:]:
            yield from _leaves(a)


def _places(atom: Term) -> Iterator[tuple[tuple, Term]]:
    """(place, subterm) for every argument and nested argument of an atom."""
    if isinstance(atom, str):
        return
    rel = STATE_LINKS.get(atom[0], atom[0])

    def walk(t: tuple, path: tuple) -> Iterator[tuple[tuple, Term]]:
        for k in range(1, len(t)):
            here = (*path, k)
            yield (rel, here), t[k]
            if isinstance(t[k], tuple):
                yield from walk(t[k], (*here, t[k][0]))

    yield from walk(atom, ())


def _names(rules: list[Rule]) -> set[str]:
    out: set[str] = set()
    for rule in rules:
        for t in (rule.head, *rule.body):
            out.update(_symbols(t))
    return out


def _symbols(t: Term) -> Iterator[str]:
    if isinstance(t, str):
        yield t
    else:
        for a in t:
            yield from _symbols(a)


class _Fresh:
    """Names that occur nowhere in the sheet."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)

    def name(self, stem: str) -> str:
        k = 1
        while f"tolerant_{stem}_{k}" in self.taken:
            k += 1
        out = f"tolerant_{stem}_{k}"
        self.taken.add(out)
        return out

"""Static checks of a GDL description, and its analysis for the evaluators.

:func:`analyse` expands ``or`` into separate rules, then checks (each error names the
rule at fault and raises :class:`GdlCheckError`):

- every relation is used with one arity, and keywords with their own arity;
- ``true``, ``does`` and ``distinct`` never head a rule;
- every relation used in a body is defined by some rule or fact (except ``true``,
  ``does``);
- safety: every variable of a head, a negated literal or a ``distinct`` occurs in a
  positive relational literal of the same (expanded) rule;
- negation is stratified: no relation depends on itself through ``not``;
- no recursion through function terms (it would build ever deeper terms);
- ``legal``, ``terminal``, ``goal`` do not depend on ``does``; ``init`` does not
  depend on ``true`` or ``does``;
- the game has at least one role, one goal and a terminal rule.

The result, a :class:`Program`, holds the expanded rules and the relations in
evaluation order (strata), which both the reference prover and the grounder use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from engine.gdl.errors import GdlCheckError
from engine.gdl.graph import strongly_connected
from engine.gdl.parser import parse
from engine.gdl.terms import KEYWORDS, Rule, Term, args_of, arity_of, name_of, variables

MAX_EXPANSION = 4096  # disjuncts one rule may expand into
STATE_RELATIONS = ("true", "does")


@dataclass
class Program:
    """Checked, ``or``-free rules and their evaluation order."""

    rules: list[Rule]
    roles: list[Term]
    arity: dict[str, int]
    # Relation names in evaluation order, grouped in components; a component whose
    # relations depend on each other is recursive.
    components: list[list[str]]
    recursive: set[str]
    # Relations that depend (transitively) on true/does; the others are static.
    dynamic: set[str]
    depends: dict[str, set[str]] = field(default_factory=dict)  # name -> body names
    by_head: dict[str, list[Rule]] = field(default_factory=dict)


def _alternatives(lit: Term, rule: Rule) -> list[tuple[Term, ...]]:
    """``lit`` as a disjunction of conjunctions of or-free literals."""
    if isinstance(lit, tuple) and lit[0] == "or":
        out: list[tuple[Term, ...]] = []
        for sub in lit[1:]:
            out.extend(_alternatives(sub, rule))
        return out
    if isinstance(lit, tuple) and lit[0] == "not":
        inner = lit[1]
        if isinstance(inner, tuple) and inner[0] == "not":
            return _alternatives(inner[1], rule)
        if isinstance(inner, tuple) and inner[0] == "distinct":
            raise GdlCheckError(f"(not (distinct ...)) is not supported, {rule.where()}")
        alts = _alternatives(inner, rule)
        # not (A1 or A2 ...) = (not A1) and (not A2) ...; each Ai must be one literal.
        if any(len(a) != 1 for a in alts):
            raise GdlCheckError(f"negation of a conjunction is not GDL, {rule.where()}")
        negs = []
        for (a,) in alts:
            if isinstance(a, tuple) and a[0] == "not":
                raise GdlCheckError(f"unsupported nested negation, {rule.where()}")
            negs.append(("not", a))
        return [tuple(negs)]
    return [(lit,)]


def expand_or(rule: Rule) -> list[Rule]:
    """The rule as several or-free rules (distributing the disjunctions)."""
    if not any(isinstance(b, tuple) and b[0] in ("or", "not") for b in rule.body):
        return [rule]
    options = [_alternatives(b, rule) for b in rule.body]
    count = 1
    for o in options:
        count *= len(o)
        if count > MAX_EXPANSION:
            raise GdlCheckError(f"'or' expands into more than {MAX_EXPANSION} rules, "
                                f"{rule.where()}")
    return [Rule(rule.head, tuple(lit for part in choice for lit in part), rule.line)
            for choice in product(*options)]


def _body_atoms(rule: Rule) -> list[tuple[Term, bool]]:
    """(atom, negated) for every relational literal of an expanded rule."""
    out = []
    for lit in rule.body:
        if isinstance(lit, tuple) and lit[0] == "distinct":
            continue
        if isinstance(lit, tuple) and lit[0] == "not":
            out.append((lit[1], True))
        else:
            out.append((lit, False))
    return out


def _check_arities(rules: list[Rule]) -> dict[str, int]:
    arity: dict[str, int] = {}
    seen_at: dict[str, Rule] = {}

    def note(atom: Term, rule: Rule) -> None:
        name, n = name_of(atom), arity_of(atom)
        want = KEYWORDS.get(name)
        if want is not None and want != n:
            raise GdlCheckError(f"'{name}' takes {want} argument(s), not {n}: {rule.where()}")
        if name in arity and arity[name] != n:
            raise GdlCheckError(
                f"arity clash: '{name}' has {arity[name]} argument(s) at "
                f"{seen_at[name].where()} but {n} at {rule.where()}")
        arity.setdefault(name, n)
        seen_at.setdefault(name, rule)

    for rule in rules:
        note(rule.head, rule)
        for atom, _ in _body_atoms(rule):
            note(atom, rule)
    return arity


def _check_safety(rule: Rule) -> None:
    bound: set[str] = set()
    for lit in rule.body:
        if not (isinstance(lit, tuple) and lit[0] in ("not", "distinct")):
            bound.update(variables(lit))
    needed = list(variables(rule.head))
    for lit in rule.body:
        if isinstance(lit, tuple) and lit[0] in ("not", "distinct"):
            needed.extend(variables(lit))
    unsafe = sorted(set(needed) - bound)
    if unsafe:
        raise GdlCheckError(
            f"unsafe variable {unsafe[0]} (not in any positive literal of the body): "
            f"{rule.where()}")


def _depths(atom: Term) -> dict[str, int]:
    """The deepest nesting of each variable of an atom: 0 for an argument itself, 1
    inside a function term that is an argument, ..."""
    out: dict[str, int] = {}

    def walk(t: Term, depth: int) -> None:
        if isinstance(t, str):
            if t.startswith("?"):
                out[t] = max(out.get(t, 0), depth)
            return
        for a in t[1:]:
            walk(a, depth + 1)

    for arg in args_of(atom):
        walk(arg, 0)
    return out


def _check_recursion(rule: Rule, comp_of: dict[str, int], recursive: set[str]) -> None:
    """No recursion through function terms (the intent of GDL's recursion
    restriction, which keeps the facts of a game finite): in a rule whose head is in
    a cycle, a variable that comes only from literals of the cycle may not sit deeper
    in the head's function terms than in those literals.  ``(<= (q (f ?x)) (q ?x))``
    builds ever deeper terms, and no evaluation of it would end.  (The restriction as
    written, every argument of a literal of the cycle ground, a head argument or bound
    outside the cycle, also refuses finite transitive closures that real sheets use.)"""
    head = name_of(rule.head)
    if head not in recursive:
        return
    outside: set[str] = set()  # variables bound by literals outside the cycle
    inside: dict[str, int] = {}  # deepest nesting of a variable in the cycle's literals
    for atom, neg in _body_atoms(rule):
        if neg:
            continue
        if comp_of.get(name_of(atom)) == comp_of[head]:
            for v, d in _depths(atom).items():
                inside[v] = max(inside.get(v, 0), d)
        else:
            outside.update(variables(atom))
    for v, d in _depths(rule.head).items():
        if v in inside and v not in outside and d > inside[v]:
            raise GdlCheckError(
                f"recursion through a function term: {v} comes from the recursion and "
                f"is nested deeper in the head, so the facts may never end: "
                f"{rule.where()}")


def analyse(rules: list[Rule]) -> Program:
    """Expand and check ``rules``; raise GdlCheckError naming the first fault."""
    expanded: list[Rule] = []
    for rule in rules:
        head = name_of(rule.head)
        if head in ("true", "does", "distinct", "not", "or"):
            raise GdlCheckError(f"'{head}' cannot head a rule: {rule.where()}")
        expanded.extend(expand_or(rule))
    arity = _check_arities(expanded)
    by_head: dict[str, list[Rule]] = {}
    for rule in expanded:
        by_head.setdefault(name_of(rule.head), []).append(rule)
    depends: dict[str, set[str]] = {name: set() for name in by_head}
    negative: dict[tuple[str, str], Rule] = {}
    for rule in expanded:
        _check_safety(rule)
        head = name_of(rule.head)
        for atom, neg in _body_atoms(rule):
            name = name_of(atom)
            if name not in by_head and name not in STATE_RELATIONS:
                raise GdlCheckError(f"undefined relation '{name}' (no rule or fact defines "
                                    f"it) used in {rule.where()}")
            if name in ("init", "next"):
                raise GdlCheckError(f"'{name}' may not appear in a rule body: "
                                    f"{rule.where()}")
            depends[head].add(name)
            if neg:
                negative.setdefault((head, name), rule)
    for name in STATE_RELATIONS:
        depends.setdefault(name, set())
    names = list(depends)
    components = strongly_connected(names, lambda n: depends[n])
    comp_of = {n: i for i, comp in enumerate(components) for n in comp}
    for (head, name), rule in negative.items():
        if comp_of[head] == comp_of[name]:
            raise GdlCheckError(
                f"unstratified negation: '{head}' depends on itself through (not ({name} "
                f"...)) in {rule.where()}")
    recursive = {n for comp in components for n in comp
                 if len(comp) > 1 or n in depends[n]}
    for rule in expanded:
        _check_recursion(rule, comp_of, recursive)
    reach: dict[str, set[str]] = {}
    for comp in components:  # dependencies first, so reach of each is known
        for n in comp:
            r = set(depends[n])
            for d in depends[n]:
                r |= reach.get(d, set())
            reach[n] = r
        if len(comp) > 1:
            union = set().union(*(reach[n] for n in comp))
            for n in comp:
                reach[n] = union
    dynamic = {n for n in names if n in STATE_RELATIONS or reach[n] & set(STATE_RELATIONS)}
    for name in ("legal", "terminal", "goal"):
        if "does" in reach.get(name, ()):
            rule = by_head[name][0]
            raise GdlCheckError(f"'{name}' may not depend on 'does': {rule.where()}")
    if reach.get("init", set()) & set(STATE_RELATIONS):
        raise GdlCheckError(f"'init' may not depend on true or does: "
                            f"{by_head['init'][0].where()}")
    roles = [args_of(r.head)[0] for r in by_head.get("role", []) if not r.body]
    if not roles:
        raise GdlCheckError("the game has no roles: no (role ...) fact")
    if any(r.body for r in by_head.get("role", [])):
        raise GdlCheckError(f"roles must be facts: {by_head['role'][0].where()}")
    if len(set(roles)) != len(roles):
        raise GdlCheckError("a role is declared twice")
    for role in roles:
        if not isinstance(role, str) or role.startswith("?"):
            raise GdlCheckError(f"a role must be a constant, not {role!r}")
    if "goal" not in by_head:
        raise GdlCheckError("the game has no goals: no (goal ...) rule")
    if "terminal" not in by_head:
        raise GdlCheckError("the game has no terminal rule")
    order = [[n for n in comp if n not in STATE_RELATIONS] for comp in components]
    return Program(
        rules=expanded, roles=roles, arity=arity,
        components=[c for c in order if c], recursive=recursive, dynamic=dynamic,
        depends=depends, by_head=by_head,
    )


def load_program(text: str) -> Program:
    """Parse and check GDL text."""
    return analyse(parse(text))

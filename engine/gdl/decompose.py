"""Rule decomposition for the grounder: fewer, smaller ground rules for the same game.

A rule is grounded over every binding of its variables, so its cost grows with the
product of their domains.  When a body variable ``v`` (not in the head) occurs in only
some literals ``L_v`` of the body, ``∃v. L_v`` can be computed apart:

    h <- L_v, rest     becomes     h <- aux(N), rest     aux(N) <- L_v

with ``N`` the other variables of ``L_v`` (variable elimination, as in bucket
elimination and in ASP grounders' rule decomposition).  The two rules are equivalent to
the one: ``v`` occurs nowhere in ``rest`` or ``h``.  Repeated (smallest ``N`` first),
each rule ends with fewer variables, so fewer ground instances and propnet nodes.

It may need the rule *opened* first: a static relation defined by one rule through
variables of its own (quarto's ``set ?p1 ?p2 ?p3 ?p4``, four pieces sharing one
attribute, via ``bitNIs ?n ?p ?bit``) is unfolded into the body, so that its variables
can be eliminated too.  Quarto's ``row`` goes from 27k ground rules of five variables
(every quadruple of pieces in a set) to 32 ANDs of four ``aux(y, n, bit)`` ORs of 8
cells.

:class:`Splitter` gives a rule's *candidates*: the decomposition of the rule and of
the rule opened, each only when it lowers the rule's *width* (the most variables in
one of the resulting rules).  Parts holding a ``does`` stay whole (the move sets of the
propnet serve the frame axioms better: docs/gdl.md) unless ``split_moves`` (the
grounder's second try on a grounding too big for the differential engine).  The grounder
(engine/gdl/ground.py) counts what each candidate grounds into and takes one only
when it at least halves the ground literals.  The rules stay valid GDL: each ``aux`` is
safe (the elimination is skipped when one of ``N`` occurs only in a negative literal
or ``distinct`` of ``L_v``) and depends on what ``L_v`` depends on, so negation stays
stratified.  The reference prover keeps reading the original rules: it is the oracle
for the rewritten ones (tests/gdl/test_gdl_decompose.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.gdl.checks import Program
from engine.gdl.terms import Rule, Term, name_of, variables

UNFOLD_DEPTH = 2  # rounds of unfolding in one rule (a definition unfolded may use another)


def _vars(lits: Iterable[Term]) -> set[str]:
    return {v for lit in lits for v in variables(lit)}


def _is_filter(lit: Term) -> bool:
    return isinstance(lit, tuple) and lit[0] in ("not", "distinct")


def _walk(t: Term, env: dict[str, Term]) -> Term:
    while isinstance(t, str) and t.startswith("?") and t in env:
        t = env[t]
    return t


def _unify(a: Term, b: Term, env: dict[str, Term]) -> bool:
    """Two-way unification of ``a`` and ``b``, extending ``env`` (triangular)."""
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


def _occurs(v: str, t: Term, env: dict[str, Term]) -> bool:
    t = _walk(t, env)
    if t == v:
        return True
    return isinstance(t, tuple) and any(_occurs(v, a, env) for a in t[1:])


def _resolve(t: Term, env: dict[str, Term]) -> Term:
    t = _walk(t, env)
    if isinstance(t, str):
        return t
    return (t[0],) + tuple(_resolve(a, env) for a in t[1:])


def _rename(rule: Rule, tag: str) -> Rule:
    """The rule with its variables renamed apart: ``?x`` becomes ``?x(tag)``, a name no
    sheet can hold (a parenthesis ends a KIF token)."""
    def r(t: Term) -> Term:
        if isinstance(t, str):
            return f"{t}({tag})" if t.startswith("?") else t
        return (t[0],) + tuple(r(a) for a in t[1:])
    return Rule(r(rule.head), tuple(r(b) for b in rule.body), rule.line)


def _width(head: Term, body: tuple[Term, ...] | list[Term]) -> int:
    return len(_vars([head, *body]))


class Splitter:
    """The candidate decompositions of rules; aux relations are shared between rules
    (one relation per distinct bucket), and named apart from the program's."""

    def __init__(self, program: Program, split_moves: bool = False) -> None:
        self.split_moves = split_moves  # parts holding a ``does`` may be split off too
        self.taken = set(program.arity)
        self.aux: dict[tuple, Term] = {}   # canonical (arity, body) -> aux head
        self.rules: dict[str, Rule] = {}   # aux name -> its rule
        self.serial = 0
        # Static, non-recursive relations defined by one rule with variables of its own.
        self.openable: dict[str, Rule] = {}
        for name, rules in program.by_head.items():
            if (name in program.dynamic or name in program.recursive or len(rules) != 1
                    or not rules[0].body):
                continue
            rule = rules[0]
            if _vars(rule.body) - _vars([rule.head]):
                self.openable[name] = rule

    def _unfold(self, rule: Rule) -> Rule | None:
        """``rule`` with its openable literals replaced by their definitions, or None
        when it has none (or one does not unify: the rule could never fire)."""
        head, body = rule.head, list(rule.body)
        changed = False
        for _ in range(UNFOLD_DEPTH):
            out: list[Term] = []
            env: dict[str, Term] = {}
            again = False
            for lit in body:
                name = name_of(lit)
                if _is_filter(lit) or name not in self.openable:
                    out.append(lit)
                    continue
                self.serial += 1
                d = _rename(self.openable[name], str(self.serial))
                if not _unify(d.head, lit, env):
                    return None
                out.extend(d.body)
                again = changed = True
            if not again:
                break
            head = _resolve(head, env)
            body = [_resolve(b, env) for b in out]
        return Rule(head, tuple(body), rule.line) if changed else None

    def _aux_head(self, args: list[str], bucket: list[Term], line: int) -> Term:
        """The head of ``aux(args) <- bucket``, one relation per distinct rule."""
        names = {v: f"?v{i}" for i, v in enumerate(args)}
        for v in sorted(_vars(bucket) - set(args)):
            names.setdefault(v, f"?v{len(names)}")

        def canon(t: Term) -> Term:
            if isinstance(t, str):
                return names.get(t, t)
            return (t[0],) + tuple(canon(a) for a in t[1:])
        key = (len(args), tuple(sorted(map(repr, (canon(b) for b in bucket)))))
        known = self.aux.get(key)
        if known is None:
            n = len(self.aux)
            name = f"aux#{n}"
            while name in self.taken:
                n += 1
                name = f"aux#{n}"
            self.taken.add(name)
            known = (name, *(f"?v{i}" for i in range(len(args)))) if args else name
            self.aux[key] = known
            self.rules[name] = Rule(known, tuple(canon(b) for b in bucket), line)
        if isinstance(known, str):
            return known
        return (known[0], *args)

    def _eliminate(self, rule: Rule) -> tuple[Rule, list[tuple[list[str], list[Term]]]]:
        """The rule after eliminating its body variables, smallest neighbourhood first,
        while that splits the body; with the (args, bucket) of every aux made."""
        head, body = rule.head, list(rule.body)
        made: list[tuple[list[str], list[Term]]] = []
        while True:
            width = _width(head, body)
            best: tuple[int, str, list[Term], list[str]] | None = None
            for v in sorted(_vars(body) - _vars([head])):
                bucket = [b for b in body if v in set(variables(b))]
                if len(bucket) == len(body) or (
                        not self.split_moves and any(name_of(b) == "does" for b in bucket)):
                    continue
                others = _vars(bucket) - {v}
                if len(others) + 1 >= width:
                    continue
                bound = _vars([b for b in bucket if not _is_filter(b)])
                if not others <= bound:
                    continue
                if best is None or len(others) < best[0]:
                    best = (len(others), v, bucket, sorted(others))
            if best is None:
                return Rule(head, tuple(body), rule.line), made
            _, v, bucket, args = best
            made.append((args, bucket))
            rest = [b for b in body if b not in bucket]
            body = [*rest, ("aux?", f"#{len(made) - 1}", *args)]  # named once accepted

    def candidates(self, rule: Rule) -> list[tuple[Rule, list[str]]]:
        """The rule's decompositions, each a top rule and the aux relations it needs
        (inner ones first): by elimination in the rule, and in the rule with its
        openable literals unfolded; only those that lower the rule's width."""
        if not rule.body:
            return []
        original = _width(rule.head, rule.body)
        out: list[tuple[Rule, list[str]]] = []
        for candidate in filter(None, (rule, self._unfold(rule))):
            top, made = self._eliminate(candidate)
            if not made:
                continue
            widths = [_width(top.head, top.body)] + [len(a) + 1 for a, _ in made]
            if max(widths) >= original:
                continue
            heads: list[Term] = []  # the aux relation of each elimination, in order
            for args, bucket in made:
                heads.append(self._aux_head(args, [_named(b, heads) for b in bucket],
                                            rule.line))
            out.append((Rule(top.head, tuple(_named(b, heads) for b in top.body), rule.line),
                        list(dict.fromkeys(name_of(h) for h in heads))))
        return out


def _named(lit: Term, heads: list[Term]) -> Term:
    """``lit`` with a placeholder of elimination k replaced by aux relation heads[k]."""
    if isinstance(lit, tuple) and lit[0] == "aux?":
        head = heads[int(lit[1][1:])]
        return head if isinstance(head, str) else (head[0], *lit[2:])
    return lit

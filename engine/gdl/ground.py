"""The grounder: every rule instantiated over the reachable domains.

Method (the usual over-approximation of GGP players): relations that do not depend on
``true``/``does`` (static) are computed exactly; for the others the *possible* atoms
are computed by a semi-naive bottom-up fixpoint in which ``true(x)`` holds for every
``x`` of ``init`` or ``next``, ``does(r, m)`` for every possible ``legal(r, m)``, and a
negated literal over a dynamic relation is assumed satisfiable.  Every dynamic rule is
then instantiated over the possible atoms: static literals are decided (and dropped),
dynamic literals stay in the ground instance for the propositional network.

Grounding is bounded: past ``time_limit`` seconds (wall-clock, or CPU time) or
``max_atoms`` possible atoms or ``max_instances`` ground rules it raises
GroundingLimitError.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, cast

from engine.gdl.checks import Program
from engine.gdl.decompose import Splitter
from engine.gdl.errors import GroundingLimitError
from engine.gdl.graph import strongly_connected
from engine.gdl.terms import Rule, Term, match, name_of, variables


@dataclass(frozen=True)
class Bounds:
    """``time_limit`` is wall-clock seconds, or CPU seconds of the process with
    ``cpu_time`` (benchmarks on a loaded machine; a GGP player keeps wall-clock)."""

    time_limit: float = 30.0
    max_atoms: int = 400_000
    max_instances: int = 1_500_000
    cpu_time: bool = False


DEFAULT_BOUNDS = Bounds()
# A rule is grounded decomposed when that costs this many times less (ground literals):
# the optimiser shrinks a whole rule's instances too (factoring), so a small gain in
# ground literals is none in the net (measured: docs/lab-log.md).
SPLIT_GAIN = 2.0
# A grounding of more instances than this (the differential engine's node limit,
# PN_DIFF_MAX_NODES) is tried again with the joint move split off too and every
# decomposition that lowers the ground literals (gain 1), and the grounding with fewer
# ground literals is kept: kalaha_2009 went from a 448 k-node net on the generic loop
# (10 playouts/s) to 100 k nodes on the differential engine (about 6,000/s).
MOVE_SPLIT_INSTANCES = 262_144
MOVE_SPLIT_GAIN = 1.0
# Partial bindings a static aux relation's join may make (its atoms cost nothing in the
# net, so the rule's budget does not bound it; this bounds the grounding time).
STATIC_AUX_LIMIT = 200_000


@dataclass
class Instance:
    """One ground rule: head <- positive atoms, not negative atoms (dynamic only)."""

    head: Term
    pos: tuple[Term, ...]
    neg: tuple[Term, ...]


@dataclass
class Grounding:
    program: Program
    possible: dict[str, dict[Term, None]]   # dynamic relation -> possible ground atoms
    static: dict[str, dict[Term, None]]     # static relation -> true ground atoms
    instances: list[Instance]
    split_rules: int = 0                    # rules grounded decomposed
    moves_split: bool = False               # ... with the joint move split off too
    seconds: float = 0.0                    # wall-clock time the grounding took
    cpu_seconds: float = 0.0                # CPU time of the grounding thread


class _Relation:
    """Ground atoms of one relation with lazily built indexes on argument positions."""

    __slots__ = ("atoms", "indexes")

    def __init__(self) -> None:
        self.atoms: dict[Term, None] = {}
        self.indexes: dict[tuple[int, ...], dict[tuple, list[Term]]] = {}

    def add(self, atom: Term) -> bool:
        if atom in self.atoms:
            return False
        self.atoms[atom] = None
        for paths, index in self.indexes.items():
            index.setdefault(tuple(_at(atom, p) for p in paths), []).append(atom)
        return True

    def lookup(self, paths: tuple[tuple[int, ...], ...], key: tuple) -> Iterable[Term]:
        if not paths:
            return self.atoms
        index = self.indexes.get(paths)
        if index is None:
            index = {}
            for atom in self.atoms:
                index.setdefault(tuple(_at(atom, p) for p in paths), []).append(atom)
            self.indexes[paths] = index
        return index.get(key, ())


_MISSING = ("?missing",)


def _at(t: Term, path: tuple[int, ...]) -> Term:
    """The subterm of ``t`` at ``path`` (a functor at index 0), or a marker."""
    for i in path:
        if isinstance(t, str) or i >= len(t):
            return _MISSING
        t = t[i]
    return t


def _key_paths(lit: Term, bound: set[str]) -> tuple[tuple[tuple[int, ...], ...], tuple]:
    """Paths of the leaves of ``lit`` that are ground once ``bound`` is bound (constants
    and bound variables) and of the functors of its compound subterms, with those
    leaves and functors: the key of an index lookup (each a constant or a variable)."""
    paths: list[tuple[int, ...]] = []
    subs: list[Term] = []

    def walk(t: Term, path: tuple[int, ...]) -> None:
        for k in range(1, len(t)):
            a = t[k]
            if isinstance(a, str):
                if not a.startswith("?") or a in bound:
                    paths.append(path + (k,))
                    subs.append(a)
            else:
                paths.append(path + (k, 0))
                subs.append(a[0])
                walk(a, path + (k,))

    if isinstance(lit, tuple):
        walk(lit, ())
    return tuple(paths), tuple(subs)


def _relation(lit: Term) -> str | None:
    """The relation a body literal reads (through ``not``); None for ``distinct``."""
    if isinstance(lit, tuple) and lit[0] == "distinct":
        return None
    return name_of(lit[1] if isinstance(lit, tuple) and lit[0] == "not" else lit)


# A join step: ("pos", literal, key paths, key patterns, delta, binder)
#             | ("neg", atom) | ("distinct", a, b)
Step = tuple


def _path_expr(path: tuple[int, ...]) -> str:
    return "atom" + "".join(f"[{k}]" for k in path)


def _term_expr(t: Term) -> str:
    """Python expression building ``t`` from the bindings ``env`` (every variable of
    ``t`` bound)."""
    if isinstance(t, str):
        return f"env[{t!r}]" if t.startswith("?") else repr(t)
    return "(" + ", ".join([repr(t[0]), *(_term_expr(a) for a in t[1:])]) + ",)"


@lru_cache(maxsize=1 << 14)
def _builder(t: Term) -> Callable[[dict[str, Term]], Term]:
    """``substitute(t, env)`` compiled for one pattern (every variable bound): the join
    builds rule heads and filter atoms by the million."""
    return cast(Callable[[dict[str, Term]], Term], eval("lambda env: " + _term_expr(t), {}))


class _Binder:
    """How the candidate atoms of a positive literal extend a binding, compiled once
    per join step: the index lookup already enforced every subterm that is ground once
    the earlier steps' variables are bound (and the functors on the way to them), so a
    candidate only needs the arities of its compound subterms checked, repeated fresh
    variables compared, and the fresh variables read off at their paths.  ``scan``
    does that for a list of candidates in one generated loop."""

    __slots__ = ("keyfns", "scan")

    def __init__(self, lit: Term, bound: set[str], subs: tuple) -> None:
        shapes: list[tuple[tuple[int, ...], int]] = []
        binds: list[tuple[str, tuple[int, ...]]] = []
        eqs: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        first: dict[str, tuple[int, ...]] = {}

        def walk(t: Term, path: tuple[int, ...]) -> None:
            if isinstance(t, str):
                if t.startswith("?") and t not in bound:
                    if t in first:
                        eqs.append((first[t], path))
                    else:
                        first[t] = path
                        binds.append((t, path))
                return
            if path:
                shapes.append((path, len(t)))
            for k in range(1, len(t)):
                walk(t[k], path + (k,))

        walk(lit, ())
        # the key: a bound variable's value or a constant, per key path
        self.keyfns = [(s.startswith("?"), s) for s in subs]
        lines = ["def scan(cands, env, out):", "    for atom in cands:"]
        for path, n in shapes:  # outer subterms first: inner paths are then safe
            x = _path_expr(path)
            lines.append(f"        if {x}.__class__ is str or len({x}) != {n}: continue")
        for a, b in eqs:
            lines.append(f"        if {_path_expr(a)} != {_path_expr(b)}: continue")
        if binds:
            lines.append("        new = env.copy()")
            lines += [f"        new[{v!r}] = {_path_expr(p)}" for v, p in binds]
            lines.append("        out.append(new)")
        else:
            lines.append("        out.append(env)")
        space: dict[str, Any] = {}
        exec("\n".join(lines), space)
        self.scan: Callable[[Iterable[Term], dict[str, Term], list[dict[str, Term]]], None] = (
            space["scan"])

    def key(self, env: dict[str, Term]) -> tuple:
        return tuple([env[s] if var else s for var, s in self.keyfns])


def _plan(body: tuple[Term, ...], first: int | None, dynamic: set[str],
          bound_first: Iterable[str] = ()) -> list[Step]:
    """Order the literals of a body for a join: the delta literal first (semi-naive),
    then filters as soon as their variables are bound, then the positive literal with
    the most bound arguments (static ones preferred on ties).  ``bound_first``:
    variables already bound when the join starts."""
    positive = [i for i, b in enumerate(body)
                if not (isinstance(b, tuple) and b[0] in ("not", "distinct"))]
    filters = [b for b in body if isinstance(b, tuple) and b[0] in ("not", "distinct")]
    bound: set[str] = set(bound_first)
    steps: list[Step] = []

    def push(i: int, delta: bool) -> None:
        lit = body[i]
        paths, subs = _key_paths(lit, bound)
        steps.append(("pos", lit, paths, subs, delta, _Binder(lit, bound, subs)))
        bound.update(variables(lit))

    def flush() -> None:
        for f in list(filters):
            if set(variables(f)) <= bound:
                filters.remove(f)
                steps.append(("neg", f[1]) if f[0] == "not" else ("distinct", f[1], f[2]))

    flush()
    if first is not None:
        positive.remove(first)
        push(first, True)
        flush()
    while positive:
        def score(i: int) -> tuple[int, int, int]:
            lit = body[i]
            args = lit[1:] if isinstance(lit, tuple) else ()
            nbound = sum(1 for a in args if set(variables(a)) <= bound)
            return (nbound == len(args), nbound, name_of(lit) not in dynamic)
        best = max(positive, key=score)
        positive.remove(best)
        push(best, False)
        flush()
    return steps


class Grounder:
    def __init__(self, program: Program, bounds: Bounds = DEFAULT_BOUNDS,
                 split: bool = True, split_moves: bool = False,
                 gain: float | None = None) -> None:
        self.program = program
        self.splitter = Splitter(program, split_moves) if split else None
        self.gain = SPLIT_GAIN if gain is None else gain
        self.aux_cost: dict[str, int] = {}          # aux relations grounded: their cost
        self.aux_instances: dict[str, list[Instance]] = {}
        self.aux_used: set[str] = set()             # those an instantiated rule reads
        self.split_rules = 0
        self.bounds = bounds
        self.dynamic = set(program.dynamic)
        self.rels: dict[str, _Relation] = {}
        self.clock = time.process_time if bounds.cpu_time else time.monotonic
        self.deadline = self.clock() + bounds.time_limit
        self.n_atoms = 0
        self.ticks = 0
        # Rules by head, with the state links true <- init | next, does <- legal.
        self.rules: dict[str, list[Rule]] = {h: list(rs) for h, rs in program.by_head.items()}
        self.rules["true"] = [Rule(("true", "?x"), (("init", "?x"),)),
                              Rule(("true", "?x"), (("next", "?x"),))]
        self.rules["does"] = [Rule(("does", "?r", "?m"), (("legal", "?r", "?m"),))]

    def rel(self, name: str) -> _Relation:
        r = self.rels.get(name)
        if r is None:
            r = self.rels[name] = _Relation()
        return r

    def _tick(self) -> None:
        self.ticks += 1
        if self.ticks & 1023 == 0 and self.clock() > self.deadline:
            raise GroundingLimitError(
                f"grounding took longer than {self.bounds.time_limit:g} s"
                + (" of CPU time" if self.bounds.cpu_time else ""))

    def join(self, steps: list[Step], delta: list[Term] | None, exact: bool,
             limit: int | None = None) -> list[dict[str, Term]] | None:
        """All bindings satisfying the steps.  ``exact``: negated dynamic literals are
        checked against the possible atoms too (only used for static relations).
        None when a step makes more than ``limit`` partial bindings."""
        envs: list[dict[str, Term]] = [{}]
        for step in steps:
            out: list[dict[str, Term]] = []
            kind = step[0]
            if kind == "pos":
                _, lit, paths, subs, is_delta, binder = step
                rel = self.rel(name_of(lit))
                for env in envs:
                    self._tick()
                    if isinstance(lit, str):
                        if lit in (delta if is_delta and delta is not None else rel.atoms):
                            out.append(env)
                        continue
                    if is_delta and delta is not None:
                        for atom in delta:  # not filtered by an index: match in full
                            new = dict(env)
                            if match(lit, atom, new):
                                out.append(new)
                        continue
                    binder.scan(rel.lookup(paths, binder.key(env)), env, out)
            elif kind == "neg":
                atom_pat = step[1]
                name = name_of(atom_pat)
                if name in self.dynamic and not exact:
                    continue
                atoms = self.rel(name).atoms
                build = _builder(atom_pat)
                out = [env for env in envs if build(env) not in atoms]
            else:
                left, right = _builder(step[1]), _builder(step[2])
                out = [env for env in envs if left(env) != right(env)]
            envs = out
            if not envs:
                break
            if limit is not None and len(envs) > limit:
                return None
        return envs

    def _add(self, atom: Term) -> bool:
        if self.rel(name_of(atom)).add(atom):
            self.n_atoms += 1
            if self.n_atoms > self.bounds.max_atoms:
                raise GroundingLimitError(
                    f"more than {self.bounds.max_atoms} possible atoms")
            return True
        return False

    def fixpoint(self) -> None:
        depends: dict[str, set[str]] = {h: set() for h in self.rules}
        for h, rules in self.rules.items():
            for r in rules:
                for lit in r.body:
                    if isinstance(lit, tuple) and lit[0] == "distinct":
                        continue
                    atom = lit[1] if isinstance(lit, tuple) and lit[0] == "not" else lit
                    depends[h].add(name_of(atom))
        names = list(self.rules)
        for deps in depends.values():
            names.extend(d for d in deps if d not in depends)
        comps = strongly_connected(list(dict.fromkeys(names)),
                                   lambda n: depends.get(n, ()))
        for comp in comps:
            members = set(comp)
            rules = [r for n in comp for r in self.rules.get(n, [])]
            exact = not (members & self.dynamic)
            delta: dict[str, list[Term]] = {n: [] for n in comp}
            for rule in rules:
                if not rule.body:  # a fact (ground: the checks): no join, no builder
                    self._tick()
                    if self._add(rule.head):
                        delta[name_of(rule.head)].append(rule.head)
                    continue
                head = _builder(rule.head)
                for env in self.join(_plan(rule.body, None, self.dynamic), None, exact) or []:
                    atom = head(env)
                    if self._add(atom):
                        delta[name_of(atom)].append(atom)
            recursive = any(name_of(lit[1] if lit[0] == "not" else lit) in members
                            for r in rules for lit in
                            (b if isinstance(b, tuple) else (b,) for b in r.body)
                            if lit[0] != "distinct")
            if not recursive:
                continue
            plans = []
            for rule in rules:
                for i, lit in enumerate(rule.body):
                    if isinstance(lit, tuple) and lit[0] in ("not", "distinct"):
                        continue
                    if name_of(lit) in members:
                        plans.append((rule, name_of(lit), _plan(rule.body, i, self.dynamic)))
            while any(delta.values()):
                new: dict[str, list[Term]] = {n: [] for n in comp}
                for rule, name, steps in plans:
                    if not delta[name]:
                        continue
                    head = _builder(rule.head)
                    for env in self.join(steps, delta[name], exact) or []:
                        atom = head(env)
                        if self._add(atom):
                            new[name_of(atom)].append(atom)
                delta = new

    def _instances(self, rule: Rule, envs: list[dict[str, Term]]) -> list[Instance]:
        """The ground instances of ``rule`` for its bindings: the head and the dynamic
        literals (static ones were decided by the join)."""
        dyn_pos = [b for b in rule.body if not (isinstance(b, tuple) and b[0] in (
            "not", "distinct")) and name_of(b) in self.dynamic]
        dyn_neg = [b[1] for b in rule.body if isinstance(b, tuple) and b[0] == "not"
                   and name_of(b[1]) in self.dynamic]
        head = _builder(rule.head)
        pos = [_builder(b) for b in dyn_pos]
        neg = [_builder(b) for b in dyn_neg]
        return [Instance(head(env), tuple([b(env) for b in pos]),
                         tuple([b(env) for b in neg])) for env in envs]

    def _weight(self, rule: Rule) -> int:
        """What one ground instance of a rule puts in the propnet: an AND, with an
        input per dynamic literal."""
        return 1 + sum(1 for b in rule.body if _relation(b) in self.dynamic)

    def _aux(self, name: str, budget: int) -> int | None:
        """Ground the aux relation ``name`` (its inner ones are already): its atoms
        into the relations, its instances kept; its cost (instances x weight), or None
        past ``budget`` (or when a join step makes more partial bindings than that)."""
        if name in self.aux_cost:
            return 0 if name in self.aux_used else self.aux_cost[name]
        assert self.splitter is not None
        rule = self.splitter.rules[name]
        weight = self._weight(rule)
        dynamic = weight > 1  # a body literal reads a dynamic relation
        if dynamic:
            self.dynamic.add(name)
        else:  # a static aux relation is decided in the grounding: none of it is in the net
            weight = 0
        envs = self.join(_plan(rule.body, None, self.dynamic), None, not dynamic,
                         budget if dynamic else STATIC_AUX_LIMIT)
        if envs is None or len(envs) * weight > budget:
            self.dynamic.discard(name)
            return None
        head, rel = _builder(rule.head), self.rel(name)
        for env in envs:
            rel.add(head(env))
        self.aux_cost[name] = len(envs) * weight
        self.aux_instances[name] = self._instances(rule, envs) if dynamic else []
        return self.aux_cost[name]

    def _cheapest(self, rule: Rule, envs: list[dict[str, Term]]
                  ) -> tuple[Rule, list[dict[str, Term]], list[str]]:
        """The rule or one of its decompositions, whichever costs least (a
        decomposition by the gain at least), with its bindings and aux relations.
        A decomposition's joins stop once it costs more than that (kalaha_2009's
        rejected candidates took 6 s run to the end)."""
        assert self.splitter is not None
        best_cost = len(envs) * self._weight(rule)
        best: tuple[Rule, list[dict[str, Term]], list[str]] = (rule, envs, [])
        if not envs:
            return best
        for top, auxes in self.splitter.candidates(rule):
            budget = int(best_cost / self.gain)
            total = 0
            for name in auxes:  # a join may make `budget` partial bindings
                cost = self._aux(name, budget)
                if cost is None or total + cost > budget:
                    break
                total += cost
            else:
                weight = self._weight(top)
                top_envs = self.join(_plan(top.body, None, self.dynamic), None, False, budget)
                if top_envs is not None:
                    cost = total + len(top_envs) * weight
                    if cost * self.gain < best_cost:
                        best_cost, best = cost, (top, top_envs, auxes)
        return best

    def instantiate(self) -> list[Instance]:
        out: list[Instance] = []
        for head_name in (n for comp in self.program.components for n in comp):
            if head_name not in self.dynamic:
                continue
            for rule in self.program.by_head.get(head_name, []):
                envs = self.join(_plan(rule.body, None, self.dynamic), None, False)
                assert envs is not None
                auxes: list[str] = []
                if self.splitter is not None:
                    rule, envs, auxes = self._cheapest(rule, envs)
                    self.split_rules += bool(auxes)
                for name in auxes:
                    if name not in self.aux_used:
                        self.aux_used.add(name)
                        self.n_atoms += len(self.rel(name).atoms)
                        out.extend(self.aux_instances[name])
                out.extend(self._instances(rule, envs))
                if len(out) > self.bounds.max_instances:
                    raise GroundingLimitError(
                        f"more than {self.bounds.max_instances} ground rules")
        return out


def _grounding(program: Program, g: Grounder, instances: list[Instance]) -> Grounding:
    unused = set(g.aux_cost) - g.aux_used
    possible = {n: r.atoms for n, r in g.rels.items() if n in g.dynamic and n not in unused}
    static = {n: r.atoms for n, r in g.rels.items() if n not in g.dynamic | unused}
    return Grounding(program, possible, static, instances, g.split_rules,
                     g.splitter is not None and g.splitter.split_moves)


def _literals(instances: list[Instance]) -> int:
    return sum(1 + len(i.pos) + len(i.neg) for i in instances)


def ground(program: Program, bounds: Bounds = DEFAULT_BOUNDS,
           split: bool = True) -> Grounding:
    """Ground a checked program within ``bounds`` (GroundingLimitError past them).
    ``split``: a rule may be grounded decomposed (engine/gdl/decompose.py) where that
    makes fewer ground literals, and a grounding of over MOVE_SPLIT_INSTANCES
    instances is tried again with the joint move split off too, within what is left
    of the time bound."""
    start, cpu = time.perf_counter(), time.thread_time()
    result = _ground(program, bounds, split)
    return replace(result, seconds=time.perf_counter() - start,
                   cpu_seconds=time.thread_time() - cpu)


def _ground(program: Program, bounds: Bounds, split: bool) -> Grounding:
    g = Grounder(program, bounds, split)
    g.fixpoint()
    result = _grounding(program, g, g.instantiate())
    if not split or len(result.instances) <= MOVE_SPLIT_INSTANCES:
        return result
    left = g.deadline - g.clock()
    try:
        h = Grounder(program, replace(bounds, time_limit=max(left, 0.0)), True,
                     split_moves=True, gain=MOVE_SPLIT_GAIN)
        h.fixpoint()
        other = _grounding(program, h, h.instantiate())
    except GroundingLimitError:
        return result
    return other if _literals(other.instances) < _literals(result.instances) else result

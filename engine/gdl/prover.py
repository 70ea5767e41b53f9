"""The reference prover: a plain, obviously correct evaluator of checked GDL rules.

It is the oracle the propositional network is tested against, and the player's
fallback when a game cannot be grounded.  Slow is fine; clarity comes first.

Method: stratified bottom-up evaluation.  Relations are evaluated component by
component in the order :func:`engine.gdl.checks.analyse` gives (every relation after
the ones it depends on, so a negated literal always reads a finished relation).  A
non-recursive component is evaluated once; a recursive one is re-evaluated until no
new fact appears.  Relations that do not depend on ``true``/``does`` are evaluated once
per game, a recursive component of them semi-naively: after a first round of every
rule, a round joins each rule with one of its literals of the component read from the
facts new in the last round (any new fact has such a premise), so arithmetic tables
such as colonelBlotto's ``sum`` over 100 numbers take seconds, not hours.  The others
are evaluated per query, only as far as the query needs, by naive iteration (simple,
and enough for an oracle).

A state is a frozenset of ground terms (the arguments of ``true``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from engine.errors import LimitError
from engine.gdl.checks import Program, load_program
from engine.gdl.graph import reachable
from engine.gdl.terms import Rule, Term, args_of, is_ground, match, name_of, substitute, variables

State = frozenset

CHECK_EVERY = 4096  # derivations between two checks of a ProverGuard


class ProverStopped(LimitError):
    """The prover's work was stopped from outside (e.g. its match is over)."""


def resident_bytes() -> int | None:
    """This process's resident size (Linux /proc/self/statm), None where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class ProverGuard:
    """Bounds on a prover's work in a long-lived process (the GGP player), checked
    every CHECK_EVERY derivations: the process's resident
    size against ``max_rss`` bytes (LimitError past it; the prover keeps its facts in
    this process, where no rlimit can bound it alone) and ``stopped()`` (ProverStopped
    when it turns true, e.g. the match ended; also read before each rule).  A guard's
    counter may be shared by threads: a lost increment only delays a check.  Its cost
    on tic-tac-toe and Connect Four playouts is within the noise of a CPU-time median
    of 6 interleaved runs."""

    def __init__(self, max_rss: int | None = None,
                 stopped: Callable[[], bool] | None = None,
                 why: str = "the prover was stopped (its match is over)") -> None:
        """``why``: the text of the ProverStopped that ``stopped()`` raises."""
        self.max_rss = max_rss
        self.stopped = stopped
        self.why = why
        self._count = 0

    def tick(self) -> None:
        """One derivation: every CHECK_EVERY of them, the full check."""
        self._count += 1
        if self._count % CHECK_EVERY == 0:
            self.check()

    def check_stop(self) -> None:
        """The stop request alone (cheap: before each rule)."""
        if self.stopped is not None and self.stopped():
            raise ProverStopped(self.why)

    def check(self) -> None:
        """The stop request and the resident size (a read of /proc)."""
        self.check_stop()
        if self.max_rss is not None:
            rss = resident_bytes()
            if rss is not None and rss > self.max_rss:
                raise LimitError(f"the prover's facts took the process past its memory "
                                 f"budget ({rss >> 20} MB resident, budget "
                                 f"{self.max_rss >> 20} MB)")


@contextmanager
def _naming(rule: Rule) -> Iterator[None]:
    """A bound that stops the prover (memory, a stop request) names the rule it was
    deriving, by its line and column; the error keeps its class."""
    try:
        yield
    except LimitError as exc:
        raise type(exc)(f"{exc}, deriving {rule.where()}") from None


class _Facts:
    """Ground atoms of some relations, with an index on the first argument."""

    def __init__(self) -> None:
        self.atoms: dict[str, dict[Term, None]] = {}
        self.by_first: dict[str, dict[Term, list[Term]]] = {}

    def add(self, atom: Term) -> bool:
        name = name_of(atom)
        table = self.atoms.setdefault(name, {})
        if atom in table:
            return False
        table[atom] = None
        if not isinstance(atom, str) and len(atom) > 1:  # "(collision)" has no argument
            self.by_first.setdefault(name, {}).setdefault(_key(atom[1]), []).append(atom)
        return True

    def candidates(self, pattern: Term) -> Sequence[Term] | dict[Term, None]:
        name = name_of(pattern)
        if isinstance(pattern, tuple) and len(pattern) > 1:
            first = pattern[1]
            if is_ground(first) or (isinstance(first, tuple) and len(first) > 1
                                    and is_ground(first[1])):
                return self.by_first.get(name, {}).get(_key(first), ())
        return self.atoms.get(name, {})

    def contains(self, atom: Term) -> bool:
        return atom in self.atoms.get(name_of(atom), ())


def _key(arg: Term) -> Term:
    """Index key of a first argument: itself, or for a compound (f a ...) the pair
    (f, a), so ``(true (cell 1 ?y ?m))`` finds its candidates by ``(cell, 1)``."""
    if isinstance(arg, tuple) and len(arg) > 1:
        return (arg[0], arg[1])
    return arg


def _is_filter(lit: Term) -> bool:
    return isinstance(lit, tuple) and lit[0] in ("not", "distinct")


def _order_body(rule: Rule) -> tuple[Term, ...]:
    """Positive literals in written order (rule authors order them for a top-down
    prover, which suits this join too); each negation or distinct right after the
    point where its variables are bound (safety guarantees there is one)."""
    return _order_literals(rule.body, set())


def _order_literals(body: Sequence[Term], bound: set[str]) -> tuple[Term, ...]:
    """_order_body's order of ``body`` once the variables ``bound`` are."""
    positive = [b for b in body if not _is_filter(b)]
    pending = [b for b in body if _is_filter(b)]
    out: list[Term] = []
    bound = set(bound)
    for lit in [None, *positive]:
        if lit is not None:
            out.append(lit)
            bound.update(variables(lit))
        ready = [f for f in pending if set(variables(f)) <= bound]
        out.extend(ready)
        pending = [f for f in pending if f not in ready]
    return tuple(out)


class Prover:
    """Answers the game questions of a checked GDL program."""

    def __init__(self, program: Program, guard: ProverGuard | None = None) -> None:
        """``guard``: bounds on the work (memory, a stop request) checked as it goes;
        it may also be set later (``prover.guard``)."""
        self.program = program
        self.guard = guard
        self.roles: list[Term] = list(program.roles)
        self._ordered = {id(r): _order_body(r) for r in program.rules}
        self._needs: dict[frozenset[str], list[list[str]]] = {}
        static = [[n for n in comp if n not in program.dynamic]
                  for comp in program.components]
        self._static = _Facts()
        for comp in static:
            if comp:
                self._run_static(comp)

    # -- evaluation --------------------------------------------------------------

    def _solve(self, body: tuple[Term, ...], i: int, env: dict[str, Term],
               static: _Facts, facts: _Facts) -> Iterator[dict[str, Term]]:
        if i == len(body):
            yield env
            return
        lit = body[i]
        if isinstance(lit, tuple) and lit[0] == "distinct":
            if substitute(lit[1], env) != substitute(lit[2], env):
                yield from self._solve(body, i + 1, env, static, facts)
            return
        if isinstance(lit, tuple) and lit[0] == "not":
            atom = substitute(lit[1], env)
            where = facts if name_of(atom) in self.program.dynamic else static
            if not where.contains(atom):
                yield from self._solve(body, i + 1, env, static, facts)
            return
        pattern = substitute(lit, env)
        where = facts if name_of(pattern) in self.program.dynamic else static
        if is_ground(pattern):
            if where.contains(pattern):
                yield from self._solve(body, i + 1, env, static, facts)
            return
        for atom in list(where.candidates(pattern)):
            new = dict(env)
            if match(pattern, atom, new):
                yield from self._solve(body, i + 1, new, static, facts)

    def _derive(self, rule: Rule, static: _Facts, facts: _Facts) -> list[Term]:
        guard = self.guard
        if guard is None:
            return [substitute(rule.head, env)
                    for env in self._solve(self._ordered[id(rule)], 0, {}, static, facts)]
        guard.check_stop()
        heads = []
        with _naming(rule):
            for env in self._solve(self._ordered[id(rule)], 0, {}, static, facts):
                heads.append(substitute(rule.head, env))
                guard.tick()
        return heads

    def _run(self, components: list[list[str]], static: _Facts, facts: _Facts) -> None:
        for comp in components:
            rules = [r for n in comp for r in self.program.by_head.get(n, [])]
            recursive = any(n in self.program.recursive for n in comp)
            while True:
                new = False
                for rule in rules:
                    for atom in self._derive(rule, static, facts):
                        new |= facts.add(atom)
                if not (recursive and new):
                    break

    def _run_static(self, comp: list[str]) -> None:
        """One component of static relations; a recursive one semi-naively."""
        facts = self._static
        rules = [r for n in comp for r in self.program.by_head.get(n, [])]
        if not any(n in self.program.recursive for n in comp):
            self._run([comp], facts, facts)
            return
        delta = _Facts()
        for rule in rules:  # a first round of every rule, over the facts so far
            for atom in self._derive(rule, facts, facts):
                if facts.add(atom):
                    delta.add(atom)
        members = set(comp)
        while delta.atoms:
            fresh = _Facts()
            for rule in rules:
                for j, lit in enumerate(rule.body):
                    if _is_filter(lit) or name_of(lit) not in members:
                        continue
                    with _naming(rule):
                        for env in self._from_delta(rule, j, delta):
                            if self.guard is not None:
                                self.guard.tick()
                            atom = substitute(rule.head, env)
                            if facts.add(atom):
                                fresh.add(atom)
            delta = fresh

    def _from_delta(self, rule: Rule, j: int, delta: _Facts) -> Iterator[dict[str, Term]]:
        """The bindings of ``rule``'s body with literal ``j`` matched to a fact of
        ``delta`` and every other literal to the static facts."""
        lit = rule.body[j]
        rest = _order_literals(rule.body[:j] + rule.body[j + 1:], set(variables(lit)))
        for atom in list(delta.candidates(lit)):
            env: dict[str, Term] = {}
            if match(lit, atom, env):
                yield from self._solve(rest, 0, env, self._static, self._static)

    def _plan(self, targets: frozenset[str]) -> list[list[str]]:
        plan = self._needs.get(targets)
        if plan is None:
            need = reachable(targets, lambda n: self.program.depends.get(n, ()))
            plan = [[n for n in comp if n in need and n in self.program.dynamic]
                    for comp in self.program.components]
            plan = [c for c in plan if c]
            self._needs[targets] = plan
        return plan

    def _query(self, state: State, does: Sequence[Term], targets: Sequence[str]) -> _Facts:
        facts = _Facts()
        for t in state:
            facts.add(("true", t))
        for r, m in zip(self.roles, does, strict=False):
            facts.add(("does", r, m))
        self._run(self._plan(frozenset(targets)), self._static, facts)
        return facts

    def _atoms(self, facts: _Facts, name: str) -> list[Term]:
        where = facts if name in self.program.dynamic else self._static
        return list(where.atoms.get(name, {}))

    # -- the game ----------------------------------------------------------------

    def initial_state(self) -> State:
        facts = _Facts()
        self._run(self._plan(frozenset(["init"])), self._static, facts)
        return frozenset(args_of(a)[0] for a in self._atoms(facts, "init"))

    def legal(self, state: State, role: int) -> list[Term]:
        """Legal moves of role index ``role``, in order of first derivation."""
        facts = self._query(state, (), ["legal"])
        who = self.roles[role]
        return [a[2] for a in self._atoms(facts, "legal") if a[1] == who]

    def all_legal(self, state: State) -> list[list[Term]]:
        facts = self._query(state, (), ["legal"])
        atoms = self._atoms(facts, "legal")
        return [[a[2] for a in atoms if a[1] == who] for who in self.roles]

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The state after every role r plays joint[r]."""
        facts = self._query(state, joint, ["next"])
        return frozenset(args_of(a)[0] for a in self._atoms(facts, "next"))

    def is_terminal(self, state: State) -> bool:
        facts = self._query(state, (), ["terminal"])
        return bool(self._atoms(facts, "terminal"))

    def goals(self, state: State) -> list[int]:
        """Goal value per role (the largest when several hold, 0 when none does)."""
        facts = self._query(state, (), ["goal"])
        out = [0] * len(self.roles)
        found = [False] * len(self.roles)
        for a in self._atoms(facts, "goal"):
            if a[1] in self.roles and isinstance(a[2], str) and a[2].isdigit():
                i = self.roles.index(a[1])
                out[i] = int(a[2]) if not found[i] else max(out[i], int(a[2]))
                found[i] = True
        return out


def prover_for(text: str, guard: ProverGuard | None = None) -> Prover:
    """Parse, check and load GDL text into a prover."""
    return Prover(load_program(text), guard)

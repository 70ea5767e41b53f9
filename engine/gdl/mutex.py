"""Mutex families: sets of base propositions of which at most one holds in every
reachable state, proved from the propnet.

A score (``whiteScore 0`` .. ``whiteScore 100``), a counter (``step 1`` .. ``step 10``),
whose turn it is (``control x``, ``control o``) or what stands on a cell (``cell 1 1 x``,
``cell 1 1 b``) is a family: its members are exclusive.  The differential engine uses
that (csrc/gdl/pn_diff_tables.c, pn_diff.c): a move reaching an AND with every member
of a family only needs to reach the AND of the member that holds.

Candidates are read off the bases' shape: for a relation and a proper subset K of its
argument positions (the key), the bases that agree on K form a group (``(coins ?p ?m)``
with K = {p}: one group per player); two small relations may also form one group
together (``stage bidding`` and ``control ?p``).  A candidate is kept when every group has at most
one member true initially and the family is *inductive*: assuming every candidate kept
holds in a state, at most one member of each group holds in any successor under a legal
joint move.  The candidates that fail are dropped and the others checked again until
none fails (the greatest fixpoint: what is left holds initially and is preserved by
every legal joint move, so it holds in every reachable state).

The successor check is syntactic, on each member's next node as a disjunction of terms
(conjunctions of literals over base propositions and moves; a gate whose expansion is
too big stays one opaque literal).  Two members are exclusive when every term of one
contradicts every term of the other: a literal and its negation, two moves of one role,
two members of one group of a kept candidate; failing those, the two terms with the
terms of where their moves are legal (a move is played only where it is legal: the
role in control excludes the other role's marking move).  Whatever the check cannot
show is simply not a family: sound, not complete.  The search for a pair that is not
exclusive splits a group's terms by what they assert of one variable at a time (_Step.
_meet), and the proof runs at two widths of expansion (proved).

Gate families (``gate_families``) are proved the same way, from the base families,
for the gates the engine would guard ANDs with.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

from engine.gdl.graph import reachable
from engine.gdl.net import AND, BASE, FALSE, INPUT, MOVESET, NOT, OR, TRUE, FlatPropnet
from engine.gdl.terms import args_of, arity_of, name_of

MAX_TERMS = 512        # terms of a node's expansion before it stays an opaque literal
MAX_TERMS_WIDE = 4096  # the same in the second, wider proof (proved)
MAX_KEY_ARITY = 4      # relations of more arguments are not candidates
MAX_UNION = 16         # relations of more bases are not joined with another
GROUP_MIN = 4          # C's PN_GROUP_MIN: fewer readers of a node are not worth a family
DEFAULT_SECONDS = 1.0  # each proof (bases, gates); over it: none, or the gates found
# The proofs' budgets are CPU seconds of the proving thread: a loaded machine slows the
# proof but does not change which families it proves.
_cpu = time.thread_time


@dataclass(frozen=True)
class Candidate:
    relation: tuple[str, int]      # name, arity
    key: tuple[int, ...]           # argument positions the members of a group share
    groups: tuple[tuple[int, ...], ...]  # base indices, two or more per group


class _Timeout(Exception):
    pass


class _Terms:
    """Each node of the net as a disjunction of terms (frozensets of literals).

    Literal ids: base b is b, global move g is n_base + g, an opaque node n is
    n_base + total_moves + n; a literal is 2 * id, its negation 2 * id + 1."""

    def __init__(self, net: FlatPropnet, deadline: float, max_terms: int = MAX_TERMS) -> None:
        self.net = net
        self.deadline = deadline
        self.max_terms = max_terms
        self.n_base = len(net.bases)
        self.role_of: list[int] = []
        for r, ms in enumerate(net.moves):
            self.role_of.extend([r] * len(ms))
        self.n_moves = len(self.role_of)
        self.in_range = [False] * len(net.kind)
        for lo, hi in net.ranges:
            for n in range(lo, hi):
                self.in_range[n] = True
        self.memo: dict[int, list[frozenset[int]]] = {}
        self.legal_memo: dict[int, list[frozenset[int]]] = {}
        self.plain = _Facts(self, [])  # no family assumed: what holds of any state

    def _move_lit(self, g: int) -> int:
        return 2 * (self.n_base + g)

    def _opaque(self, n: int) -> list[frozenset[int]]:
        return [frozenset((2 * (self.n_base + self.n_moves + n),))]

    def legal_terms(self, g: int) -> list[frozenset[int]]:
        """Where global move g is legal, as terms (memoised)."""
        if g not in self.legal_memo:
            net = self.net
            legal = self._product([frozenset()], self.of(net.legal_node[g]))
            if legal is not None and net.legal_guarded and net.legal_guarded[g]:
                legal = self._product(legal, self.of(net.legal_guard[self.role_of[g]]))
            self.legal_memo[g] = legal if legal is not None else [frozenset()]
        return self.legal_memo[g]

    def _product(self, a: list[frozenset[int]] | None,
                 b: list[frozenset[int]]) -> list[frozenset[int]] | None:
        if a is None:
            return None
        out: dict[frozenset[int], None] = {}
        for x in a:
            if _cpu() > self.deadline:
                raise _Timeout
            for y in b:
                t = x | y
                if not self.plain.sign(t).void:  # a literal and its negation, two moves
                    out[t] = None
            if len(out) > self.max_terms:
                return None
        return list(out)

    def _negation(self, terms: list[frozenset[int]]) -> list[frozenset[int]] | None:
        """NOT of a disjunction: for every term, the negation of one of its literals."""
        out: list[frozenset[int]] | None = [frozenset()]
        for t in terms:
            out = self._product(out, [frozenset((lit ^ 1,)) for lit in t])
            if out is None:
                return None
        return out

    def of(self, n: int) -> list[frozenset[int]]:
        """Node n as terms (memoised; inputs come before their gates outside ranges)."""
        if n in self.memo:
            return self.memo[n]
        if _cpu() > self.deadline:
            raise _Timeout
        net = self.net
        kind = net.kind[n]
        ins = net.inputs[net.first_in[n]:net.first_in[n + 1]]
        terms: list[frozenset[int]] | None
        if kind == FALSE:
            terms = []
        elif kind == TRUE:
            terms = [frozenset()]
        elif kind == BASE:
            terms = [frozenset((2 * net.arg[n],))]
        elif kind == INPUT:
            terms = [frozenset((self._move_lit(net.arg[n]),))]
        elif kind == MOVESET:
            terms = [frozenset((self._move_lit(g),)) for g in net.sets[net.arg[n]]]
        elif self.in_range[n]:
            terms = self._opaque(n)
        elif kind == OR:
            terms = list(dict.fromkeys(t for i in ins for t in self.of(i)))
        elif kind == AND:
            terms = [frozenset()]
            for i in ins:
                terms = self._product(terms, self.of(i))
                if terms is None:
                    break
        elif kind == NOT:
            terms = self._negation(self.of(ins[0]))
        else:
            terms = None
        if terms is None or len(terms) > self.max_terms:
            terms = self._opaque(n)
        self.memo[n] = terms
        return terms


def candidates(net: FlatPropnet) -> list[Candidate]:
    """Every (relation, key) whose groups hold at most one base initially, with a group
    of two or more; and every union of two small relations whose members hold at most
    one base initially (``stage bidding`` and ``control ?p``: one phase or the other)."""
    by_relation: dict[tuple[str, int], list[int]] = defaultdict(list)
    for b, term in enumerate(net.bases):
        if arity_of(term) <= MAX_KEY_ARITY:
            by_relation[(name_of(term), arity_of(term))].append(b)
    out: list[Candidate] = []
    small = [(rel, ms) for rel, ms in sorted(by_relation.items())
             if len(ms) <= MAX_UNION and sum(net.init[b] for b in ms) <= 1]
    for (rel_a, ms_a), (rel_b, ms_b) in itertools.combinations(small, 2):
        if sum(net.init[b] for b in ms_a + ms_b) <= 1:
            out.append(Candidate((f"{rel_a[0]}+{rel_b[0]}", 0), (), (tuple(ms_a + ms_b),)))
    for (name, arity), members in sorted(by_relation.items()):
        if len(members) < 2:
            continue
        for size in range(arity):
            for key in itertools.combinations(range(arity), size):
                groups: dict[tuple, list[int]] = defaultdict(list)
                for b in members:
                    args = args_of(net.bases[b])
                    groups[tuple(args[k] for k in key)].append(b)
                if any(sum(net.init[b] for b in g) > 1 for g in groups.values()):
                    continue
                kept = tuple(tuple(g) for g in groups.values() if len(g) > 1)
                if kept:
                    out.append(Candidate((name, arity), key, kept))
    return out


class _Facts:
    """What holds in every state the engine's waves settle on: a role plays one move at
    most, a group of an assumed family holds one member at most.  Signs terms."""

    def __init__(self, terms: _Terms, groups: list[list[int]]) -> None:
        self.group_of: dict[int, list[int]] = defaultdict(list)
        self.group_mask: list[int] = []
        for gid, group in enumerate(groups):
            mask = 0
            for b in group:
                self.group_of[b].append(gid)
                mask |= 1 << b
            self.group_mask.append(mask)
        self.move_role = {terms.n_base + g: r for g, r in enumerate(terms.role_of)}
        self.role_mask = [0] * len(terms.net.roles)
        for i, r in self.move_role.items():
            self.role_mask[r] |= 1 << i

        self.lit_memo: dict[int, tuple[int, int, tuple[tuple[int, int], ...], int]] = {}

    def lit(self, i: int) -> tuple[int, int, tuple[tuple[int, int], ...], int]:
        """Literal id i asserted: its bit, the ids it rules out (the other members of
        its groups, the other moves of its role), what it assigns ((variable, i): group
        gid, or -1 - r for role r's move) and its role (-1: not a move); memoised."""
        out = self.lit_memo.get(i)
        if out is None:
            bit = 1 << i
            excl = 0
            assign = []
            for gid in self.group_of.get(i, ()):
                excl |= self.group_mask[gid]
                assign.append((gid, i))
            r = self.move_role.get(i, -1)
            if r >= 0:
                excl |= self.role_mask[r]
                assign.append((-1 - r, i))
            out = self.lit_memo[i] = (bit, excl & ~bit, tuple(assign), r)
        return out

    def sign(self, term: frozenset[int]) -> _Signature:
        return _Signature(term, self)


class _Signature:
    """A term as bit masks over literal ids: pos, the ids it asserts; excl, the ids it
    rules out (its negated ones, the other moves of each role it names, the other
    members of each group it names).  Two terms contradict when one asserts what the
    other rules out; void: contradictory in itself.  assign: what the term asserts of
    each "variable" (group gid's member, key gid; role r's move, key -1 - r), as
    literal ids."""

    __slots__ = ("lits", "pos", "excl", "moves", "assign", "void")

    def __init__(self, term: frozenset[int], facts: _Facts) -> None:
        self.lits = term
        self.moves: dict[int, int] = {}
        self.assign: dict[int, int] = {}
        pos = excl = 0
        for lit in term:
            if lit & 1:
                excl |= 1 << (lit >> 1)
                continue
            bit, ex, assign, r = facts.lit(lit >> 1)
            pos |= bit
            excl |= ex
            if assign:
                self.assign.update(assign)
                if r >= 0:
                    self.moves[r] = lit >> 1
        self.pos, self.excl = pos, excl
        self.void = bool(pos & excl)

    def contradicts(self, other: _Signature) -> bool:
        return (self.void or other.void or bool(self.pos & other.excl)
                or bool(other.pos & self.excl))


class _Step:
    """The successor check under one set of candidates assumed to hold."""

    def __init__(self, terms: _Terms, kept: list[Candidate],
                 next_terms: dict[int, list[frozenset[int]]]) -> None:
        self.terms = terms
        self.facts = _Facts(terms, [list(g) for c in kept for g in c.groups])
        self.next_terms = next_terms
        self.signs: dict[int, list[_Signature]] = {}
        self.legal_signs: dict[int, list[_Signature]] = {}
        self.move_pairs: dict[tuple[int, int], bool] = {}
        self.compat: dict[int, frozenset[int]] = {}

    def legal(self, i: int) -> list[_Signature]:
        """Where the move of literal id i is legal, signed."""
        if i not in self.legal_signs:
            g = i - self.terms.n_base
            self.legal_signs[i] = [self.facts.sign(t) for t in self.terms.legal_terms(g)]
        return self.legal_signs[i]

    def exclusive(self, x: _Signature, y: _Signature) -> bool:
        """x and y contradict, alone or where their moves are legal (a move is played
        only where it is legal)."""
        if x.contradicts(y):
            return True
        both = {(x.pos | y.pos, x.excl | y.excl)}
        for i in sorted({*x.moves.values(), *y.moves.values()}):
            both = {(p | lt.pos, e | lt.excl) for p, e in both for lt in self.legal(i)
                    if not (p | lt.pos) & (e | lt.excl)}
            if not both:
                return True
            if len(both) > self.terms.max_terms:
                return False
        return False

    def signs_of(self, b: int) -> list[_Signature]:
        """The terms of base b's next node, signed (memoised)."""
        if b not in self.signs:
            self.signs[b] = [self.facts.sign(t) for t in self.next_terms[b]]
        return self.signs[b]

    def compatible_moves(self, i: int) -> frozenset[int]:
        """The moves (literal ids) of the other roles that may be legal with the move of
        literal id i (memoised)."""
        if i not in self.compat:
            role = self.facts.move_role[i]
            self.compat[i] = frozenset(
                j for j, r in self.facts.move_role.items()
                if r != role and not self.moves_exclusive(i, j))
        return self.compat[i]

    def moves_exclusive(self, i: int, j: int) -> bool:
        """The moves of literal ids i and j (of two roles) are never legal together
        (memoised)."""
        key = (i, j) if i < j else (j, i)
        if key not in self.move_pairs:
            self.move_pairs[key] = all(x.contradicts(y) for x in self.legal(i)
                                       for y in self.legal(j))
        return self.move_pairs[key]

    def failure(self, c: Candidate) -> tuple[int, int, frozenset[int], frozenset[int]] | None:
        """Two members of a group of c and a term of each that may hold together in a
        successor, or None when c is preserved."""
        for group in c.groups:
            items = [_Item(b, x, True) for b in group for x in self.signs_of(b)]
            found = self._meet(items, frozenset())
            if found is not None:
                return found
        return None

    def _meet(self, items: list[_Item],
              used: frozenset[int]) -> tuple[int, int, frozenset[int], frozenset[int]] | None:
        """A pair of items of two members, one of them new, whose terms are not
        exclusive.  The items are split by what they assert of one variable (a group
        of a family assumed, or a role's move; the one most of them assert): two terms
        asserting different values contradict, so a pair that does not meets in one
        part, where the items asserting nothing of it join every part (for a role's
        move, every part whose move may be legal with theirs).  Small sets, or sets
        with no variable left, are compared pair by pair (exclusive: with legality)."""
        if _cpu() > self.terms.deadline:
            raise _Timeout
        if not any(it.new for it in items) or len({it.member for it in items}) < 2:
            return None
        var = None
        if len(items) > _LEAF_ITEMS:
            count = Counter(v for it in items for v in it.sign.assign if v not in used)
            if count:
                var = count.most_common(1)[0][0]
        if var is None:
            for a, b in itertools.combinations(items, 2):
                if (a.new or b.new) and a.member != b.member and \
                        not self.exclusive(a.sign, b.sign):
                    return a.member, b.member, a.sign.lits, b.sign.lits
            return None
        parts: dict[int, list[_Item]] = defaultdict(list)
        wild: list[_Item] = []
        for it in items:
            value = it.sign.assign.get(var)
            if value is None:
                wild.append(it)
            else:
                parts[value].append(it)
        used = used | {var}
        found = self._meet(wild, used)
        if found is not None:
            return found
        by_moves: dict[tuple[int, ...], list[_Item]] = defaultdict(list)
        by_first: dict[int, list[tuple[int, ...]]] = defaultdict(list)
        if var < 0:
            for it in wild:
                by_moves[tuple(it.sign.moves.values())].append(it)
            for ms in by_moves:
                if ms:
                    by_first[ms[0]].append(ms)
        for value, part in parts.items():
            if var < 0:  # a role's move: only the wild terms whose moves may go with it
                join = list(by_moves.get((), ()))
                if 4 * len(by_first) < len(self.facts.move_role):  # few: pair by pair
                    for first, keys in by_first.items():
                        if self.moves_exclusive(value, first):
                            continue
                        for ms in keys:
                            if not any(self.moves_exclusive(value, m) for m in ms[1:]):
                                join.extend(by_moves[ms])
                else:  # many: every move that may go with this one, once
                    compat = self.compatible_moves(value)
                    for first in compat.intersection(by_first):
                        for ms in by_first[first]:
                            if all(m in compat for m in ms):
                                join.extend(by_moves[ms])
            else:
                join = wild
            found = self._meet(part + join, used)
            if found is not None:
                return found
        return None


_LEAF_ITEMS = 8  # sets of at most this many items are compared pair by pair


@dataclass(frozen=True)
class _Item:
    """A term of a member's next node in a failure search: new when its pairs with the
    set's other items are still to be checked."""

    member: int
    sign: _Signature
    new: bool


def proved(net: FlatPropnet, seconds: float = DEFAULT_SECONDS) -> list[Candidate] | None:
    """The candidates that hold in every reachable state, or None when the proof runs
    out of time.  Two proofs, each the greatest fixpoint: nodes of more than MAX_TERMS
    terms opaque, then, where a candidate is left unproved and in the time left, of
    more than MAX_TERMS_WIDE (kalaha_2009's control needs 2,424 terms; where an opaque
    literal is enough the first is much cheaper: battle 0.5 s, against 3.3 s wide, and
    the wide one, which sees the "no capture" NOT too big to expand, proves less).
    Each proof's families hold in every reachable state, so the union does too."""
    deadline = _cpu() + seconds
    everything = candidates(net)
    out = _fixpoint(net, list(everything), _Terms(net, deadline, MAX_TERMS))
    if out is None or len(out) == len(everything):
        return out
    wide = _fixpoint(net, list(everything), _Terms(net, deadline, MAX_TERMS_WIDE))
    return out + [c for c in wide or [] if c not in out]


def _fixpoint(net: FlatPropnet, kept: list[Candidate], terms: _Terms) -> list[Candidate] | None:
    """The greatest fixpoint of the candidates under one expansion, or None when out
    of time."""
    try:
        next_terms = {b: terms.of(net.next_node[b])
                      for c in kept for group in c.groups for b in group}
        # the smallest first; a failure is dropped at once and the check starts again
        # (what fails under some candidates fails under fewer: the greatest fixpoint
        # is the same, and a cheap failure spares a round of the big ones)
        kept.sort(key=lambda c: sum(len(next_terms[b]) for g in c.groups for b in g))
        while True:
            step = _Step(terms, kept, next_terms)
            failed = next((c for c in kept if step.failure(c) is not None), None)
            if failed is None:
                return kept
            kept.remove(failed)
    except _Timeout:
        return None


def mutex_families(net: FlatPropnet, seconds: float = DEFAULT_SECONDS) -> list[list[int]]:
    """The groups of the candidates proved, as lists of base indices, each base in one
    at most (the candidates of the biggest groups first); [] when the proof runs out
    of time."""
    kept = proved(net, seconds) or []
    families: list[list[int]] = []
    taken: set[int] = set()
    for c in sorted(kept, key=lambda c: (-max(map(len, c.groups)), len(c.groups))):
        if not any(b in taken for g in c.groups for b in g):
            families.extend(list(g) for g in c.groups)
            taken.update(b for g in c.groups for b in g)
    return sorted(families)


def gate_families(net: FlatPropnet, families: list[list[int]],
                  seconds: float = DEFAULT_SECONDS) -> list[list[int]]:
    """Families of gates: for a node read by many two-input ANDs, their other inputs
    split into sets of gates of which at most one holds, as lists of node indices.

    Where the optimiser has factored a move out of the next-state rules (gt_prisoner:
    ``next (whiteScore y)`` is ``(does white defect) AND h_y``, h_y an OR over the
    scores y came from), no AND reads a base member, but the h_y exclude each other.
    Two gates exclude each other when every term of one contradicts every term of the
    other: a literal and its negation, two moves of one role, two members of one
    base family.  Legality is not used: the engine's waves settle on states with the
    joint move of the last ply still on, legal there or not, but always one move per
    role at most.  Only gates a ply keeps current (the cone of the next state, the
    legal moves and terminal; no range) are taken.  Each family is proved on its own
    (from the base families, already proved): out of time, the ones found are kept."""
    deadline = _cpu() + seconds
    terms = _Terms(net, deadline)
    facts = _Facts(terms, families)
    outs = net.next_node + net.legal_node + net.legal_guard + [net.terminal]
    cone = reachable(outs, lambda n: net.inputs[net.first_in[n]:net.first_in[n + 1]])
    readers: dict[int, list[int]] = defaultdict(list)
    for g in cone:
        ins = net.inputs[net.first_in[g]:net.first_in[g + 1]]
        if net.kind[g] == AND and len(ins) == 2 and not terms.in_range[g]:
            readers[ins[0]].append(ins[1])
            readers[ins[1]].append(ins[0])
    found: list[list[int]] = []
    taken: set[int] = set()
    try:
        for s in sorted(readers, key=lambda s: (-len(readers[s]), s)):
            hs = [h for h in dict.fromkeys(readers[s])
                  if net.kind[h] in (AND, OR, NOT) and not terms.in_range[h]
                  and h not in taken]  # an input of a gate of the cone is in it
            if len(hs) < GROUP_MIN:
                continue
            cliques: list[list[tuple[int, list[_Signature]]]] = []
            for h in hs:
                if _cpu() > deadline:
                    raise _Timeout
                signs = [facts.sign(t) for t in terms.of(h)]
                for clique in cliques:
                    if all(x.contradicts(y) for _, other in clique for x in signs
                           for y in other):
                        clique.append((h, signs))
                        break
                else:
                    cliques.append([(h, signs)])
            for clique in cliques:
                if len(clique) >= GROUP_MIN:
                    found.append(sorted(h for h, _ in clique))
                    taken.update(h for h, _ in clique)
    except _Timeout:
        pass
    return found

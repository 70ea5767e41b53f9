"""The propositional network: built from a grounding, optimised, flattened for C.

Nodes are constants, base propositions (``true x``, read from the state's bit-vector),
inputs (``does r m``, read from the joint move), and AND / OR / NOT gates.  Every
possible ground atom is an OR of its ground rules; a ground rule is an AND of its
literals.  The optimiser then repeats, until nothing changes:

- constant folding (an AND with a false input is false, true inputs are dropped, ...;
  a gate with one input is replaced by that input; NOT NOT x is x);
- shared sub-expressions (two gates of one kind over the same inputs are one gate);

before that, literals shared by rules of an atom are factored out of the OR
(``OR_j (c AND b_j) = c AND OR_j b_j``, _factor); after it, an OR whose inputs hold all
those of a smaller OR reads that OR instead (_nest: nested ranges of a linear order,
``greater``, cost links linear instead of quadratic in their length); and finally the
nodes no output needs are removed (dead nodes).  Positive recursion in
the rules can leave cycles; the nodes are ordered so that every node comes after its
inputs, except inside a cycle, whose nodes form one contiguous *range* that C
evaluates to its least fixpoint.  NOT never takes an input from its own range
(stratified negation).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter

from engine.gdl.errors import GdlCheckError
from engine.gdl.graph import reachable, strongly_connected
from engine.gdl.ground import Grounding
from engine.gdl.mutex import gate_families, mutex_families
from engine.gdl.net import AND, BASE, FALSE, INPUT, MOVESET, NOT, OR, TRUE, FlatPropnet
from engine.gdl.terms import Term, name_of, to_text

# The mutex proofs (engine/gdl/mutex.py: the base families, then the gate families) may
# each take MUTEX_SECONDS, or MUTEX_SHARE of the time the grounding and the build took
# before them when that is more (CPU seconds of their threads, so that the families
# proved do not depend on the machine's load): their work grows with the net's (kalaha_2009's 100 k
# nodes: about 13 s to prove its 17 base families, against 18 s to ground and build).
MUTEX_SECONDS = 1.0
MUTEX_SHARE = 1.0


class _Net:
    def __init__(self) -> None:
        self.kind: list[int] = []
        self.ins: list[list[int]] = []
        self.arg: list[int] = []

    def add(self, kind: int, ins: list[int] | None = None, arg: int = 0) -> int:
        self.kind.append(kind)
        self.ins.append(ins if ins is not None else [])
        self.arg.append(arg)
        return len(self.kind) - 1


def _rules_seed(grounding: Grounding) -> int:
    text = "\n".join(str(r) for r in grounding.program.rules)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def build(grounding: Grounding) -> FlatPropnet:
    """The optimised, flattened propnet of a grounding."""
    start = time.thread_time()
    program = grounding.program
    net = _Net()
    f_node, t_node = net.add(FALSE), net.add(TRUE)

    def atoms(name: str) -> dict[Term, None]:
        if name in grounding.possible:
            return grounding.possible[name]
        return grounding.static.get(name, {})

    bases = sorted(atoms("true"), key=lambda a: to_text(a[1]))
    base_terms = [a[1] for a in bases]
    base_node = {t: net.add(BASE, arg=i) for i, t in enumerate(base_terms)}
    roles = list(program.roles)
    moves: list[list[Term]] = []
    input_node: dict[tuple[Term, Term], int] = {}
    legal_atoms = atoms("legal")
    for r in roles:
        ms = sorted({a[2] for a in legal_atoms if a[1] == r}, key=to_text)
        moves.append(ms)
    gi = 0
    for r, ms in zip(roles, moves, strict=True):
        for m in ms:
            input_node[(r, m)] = net.add(INPUT, arg=gi)
            gi += 1

    atom_node: dict[Term, int] = {}
    not_node: dict[int, int] = {}

    def node_of(atom: Term) -> int:
        name = name_of(atom)
        if name == "true":
            return base_node.get(atom[1], f_node)
        if name == "does":
            return input_node.get((atom[1], atom[2]), f_node)
        if name not in grounding.possible:
            return t_node if atom in grounding.static.get(name, ()) else f_node
        if atom not in grounding.possible[name]:
            return f_node
        n = atom_node.get(atom)
        if n is None:
            n = atom_node[atom] = net.add(OR)
        return n

    def negate(n: int) -> int:
        m = not_node.get(n)
        if m is None:
            m = not_node[n] = net.add(NOT, [n])
        return m

    for inst in grounding.instances:
        head = node_of(inst.head)
        lits = [node_of(a) for a in inst.pos]
        for a in inst.neg:
            if name_of(a) in ("true", "does") or a in grounding.possible.get(name_of(a), ()):
                lits.append(negate(node_of(a)))
        net.ins[head].append(net.add(AND, lits))

    next_node = [node_of(("next", t)) for t in base_terms]
    init_atoms = atoms("init")
    init = [1 if ("init", t) in init_atoms else 0 for t in base_terms]
    legal_node = [node_of(("legal", r, m)) for r, ms in zip(roles, moves, strict=True)
                  for m in ms]
    terminal = node_of("terminal")
    goals: list[tuple[int, int, int]] = []
    for a in sorted(atoms("goal"), key=to_text):
        if a[1] not in roles:
            continue
        if not (isinstance(a[2], str) and a[2].isdigit() and int(a[2]) <= 100):
            raise GdlCheckError(f"goal value must be a number in 0..100, not {to_text(a[2])}")
        goals.append((roles.index(a[1]), int(a[2]), node_of(a)))
    ply = reachable(next_node + legal_node + [terminal], lambda n: net.ins[n])
    for n in list(atom_node.values()):
        _factor(net, n, t_node, FACTOR_DEEP_PLY if n in ply else FACTOR_DEEP_GOAL)
    stats = {"atoms": sum(len(v) for v in grounding.possible.values()),
             "ground_rules": len(grounding.instances), "split_rules": grounding.split_rules,
             "moves_split": int(grounding.moves_split),
             "raw_nodes": len(net.kind)}
    rep = _simplify(net)
    sets = _move_sets(net, rep)
    stats["nested"] = _nest(net, rep)
    legal_node, guard, guarded = _legal_guards(net, rep, legal_node,
                                               [len(ms) for ms in moves])
    outputs = next_node + legal_node + guard + [terminal] + [g[2] for g in goals]
    flat = _flatten(net, rep, outputs, base_terms, next_node, init, roles, moves,
                    legal_node, sets, terminal, goals, _rules_seed(grounding), stats,
                    guard)
    flat.legal_guarded = guarded
    # each proof may take as long as MUTEX_SHARE of the grounding and the build so far
    budget = max(MUTEX_SECONDS,
                 MUTEX_SHARE * (grounding.cpu_seconds + time.thread_time() - start))
    flat.families = mutex_families(flat, budget)
    flat.gate_families = gate_families(flat, flat.families, budget)
    flat.stats["families"] = len(flat.families)
    flat.stats["gate_families"] = len(flat.gate_families)
    return flat


def _root(rep: list[int], x: int) -> int:
    """The node that stands for x: the end of its chain in rep (shortened on the way)."""
    root = x
    while rep[root] != root:
        root = rep[root]
    while rep[x] != root:
        rep[x], x = root, rep[x]
    return root


# Past four rounds (depth 4), _factor goes on only while the rules sharing the literal
# are pairs (each leaves one literal: the net only shrinks; a longer rule leaves an
# AND, and the net grows -- quarto went over the differential engine's node limit),
# and only while this many share it: in the gates a ply evaluates (differentially, a
# gate between a literal and the atom is a change more whenever it flips), and in the
# gates only the goals need (evaluated whole once a playout ends: fewer gates always
# pay).  Measured, instructions per playout relative to four rounds
# (docs/lab-log.md): with 2 for the ply's gates knightwar 1.07x, snake2p 1.03x;
# with 8 neither, and guess 0.39x, colonelBlotto 0.93x.
FACTOR_DEEP_PLY = 8
FACTOR_DEEP_GOAL = 2
# Literals _factor reads for one atom (rules x rounds); past four rounds it stops once
# they are spent.
FACTOR_BUDGET = 500_000


def _factor(net: _Net, n: int, t_node: int, deep: int, depth: int = 0) -> None:
    """OR_j (c AND b_j) = c AND OR_j b_j: take a literal shared by several rules of an
    atom out of the disjunction (frame axioms share their ``true`` literal).  All the
    literals common to every rule are taken out; otherwise the most shared literal is,
    for the rules that have it, and again for the rules left; the disjunctions taken
    out are factored in turn.  Four rounds (depth, counting both) take any literal
    shared by two rules; then only one that ``deep`` pairs share (FACTOR_DEEP_PLY).  A
    relation over pairs, ``(true (guess ?x)) (true (possible ?n)) (greater ?n ?x)``,
    becomes an AND per guess of an OR of the possibles above it, which _nest chains."""
    budget = FACTOR_BUDGET
    while len(net.ins[n]) >= 2:
        ands = net.ins[n]
        group = [a for a in ands if net.kind[a] == AND]
        if len(group) < 2:
            return
        counts: dict[int, int] = {}
        for a in group:
            for i in set(net.ins[a]):
                counts[i] = counts.get(i, 0) + 1
            budget -= len(net.ins[a])
        if not counts:  # every rule's body was static (true), so is the atom: the
            return      # empty ANDs fold to TRUE in _simplify
        best = max(counts.values())
        if best < 2 or (depth > 3 and (best < deep or budget < 0)):
            return
        if best == len(ands):
            common = {i for i, c in counts.items() if c == best}
        else:
            common = {min(i for i, c in counts.items() if c == best)}
        shared = [a for a in group if common <= set(net.ins[a])]
        if depth > 3 and any(len(net.ins[a]) != 2 for a in shared):
            return  # past four rounds, pairs only
        others = [a for a in ands if a not in shared]
        rest = []
        for a in shared:
            left = [i for i in net.ins[a] if i not in common]
            if not left:  # one rule needs only the common part: the OR is true
                rest = [t_node]
                break
            rest.append(left[0] if len(left) == 1 else net.add(AND, left))
        disjunction = net.add(OR, rest)
        _factor(net, disjunction, t_node, deep, depth + 1)
        factored = sorted(common) + [disjunction]
        if not others:
            net.kind[n] = AND
            net.ins[n] = factored
            return
        net.ins[n] = others + [net.add(AND, factored)]
        depth += 1


def _move_sets(net: _Net, rep: list[int]) -> list[list[int]]:
    """An OR over three or more INPUT nodes becomes one MOVESET node (a bitset test of
    the joint move in C) instead of a scan of its inputs.  A set may hold moves of
    several roles: the frame axiom ``(does ?player (move ...))`` of an alternating game
    is one OR over both roles' moves, whose value stays the same from ply to ply while
    the mover and the noop swap; as one node it costs nothing in a differential
    playout, where two one-role sets would both change at every ply."""
    sets: list[list[int]] = []
    known: dict[tuple[int, ...], int] = {}
    for n in range(len(net.kind)):
        if rep[n] != n or net.kind[n] != OR:
            continue
        inputs = [i for i in net.ins[n] if net.kind[i] == INPUT]
        if len(inputs) < 3:
            continue
        moves = tuple(sorted(net.arg[i] for i in inputs))
        node = known.get(moves)
        if node is None:
            sets.append(list(moves))
            node = net.add(MOVESET, [], len(sets) - 1)
            rep.append(node)
            known[moves] = node
        drop = set(inputs)
        net.ins[n] = [i for i in net.ins[n] if i not in drop] + [node]
        if len(net.ins[n]) == 1:
            rep[n] = net.ins[n][0]
    return sets


# _nest reads a smaller OR of at least this many inputs (a smaller one saves a link
# or two for a level more, which costs nim1 8 % more instructions a playout).
NEST_MIN_INPUTS = 4


def _nest(net: _Net, rep: list[int]) -> int:
    """An OR whose inputs hold all the inputs of a smaller OR reads the smaller one
    instead of them: B = OR(A, B - A) for A's inputs a subset of B's (the largest such
    A).  Ranges of a linear order make nested sets (``greater``:
    the ORs of the cells above each cell), whose links grow as the square of their
    number; nested, each set holds one link to the next.  Returns how many gates now
    read a smaller one.  A cycle can only appear where B was in one already (A's inputs
    are B's)."""
    def find(x: int) -> int:
        return _root(rep, x)

    gates = [n for n in range(len(net.kind))
             if rep[n] == n and net.kind[n] == OR and len(net.ins[n]) >= NEST_MIN_INPUTS]
    members = {n: frozenset(find(i) for i in net.ins[n]) for n in gates}
    uses: Counter[int] = Counter(i for n in gates for i in members[n])
    by_rarest: dict[int, list[int]] = {}
    for a in gates:  # a can be inside b only if b holds a's least used input
        by_rarest.setdefault(min(members[a], key=lambda i: (uses[i], i)), []).append(a)
    nested: dict[int, list[int]] = {}
    for b in gates:
        mine, best = members[b], -1
        for i in mine:
            for a in by_rarest.get(i, ()):
                size = len(members[a])
                if (size < len(mine) and (best < 0 or size > len(members[best]))
                        and members[a] <= mine):
                    best = a
        if best >= 0:
            nested[b] = [best] + [i for i in net.ins[b] if find(i) not in members[best]]
    for b, ins in nested.items():
        net.ins[b] = ins
    return len(nested)


def _legal_guards(net: _Net, rep: list[int], legal_node: list[int],
                  n_moves: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Take out of each role's legal moves the input most of them share (whose turn it
    is, in an alternating game): a guarded move is legal when its new legal node (the
    AND without the guard) and its role's guard hold.  When the turn passes, only the
    guard changes, instead of every legal AND of both roles and their legal-move bits,
    which is most of a ply's work in a differential playout.  Returns the new legal
    nodes, the guard per role (node 1, true, for none) and the guarded flag per move."""
    def find(x: int) -> int:
        return _root(rep, x)

    legal = [find(n) for n in legal_node]
    guards: list[int] = []
    guarded = [0] * len(legal)
    made: dict[tuple[int, ...], int] = {}  # shared by the roles: one node, two watches
    off = 0
    for count in n_moves:
        mine = range(off, off + count)
        off += count
        shared: Counter[int] = Counter()
        for g in mine:
            if net.kind[legal[g]] == AND:
                shared.update({find(i) for i in net.ins[legal[g]]})
        top = shared.most_common(1)
        if not top or top[0][1] < 2:
            guards.append(1)
            continue
        guard = top[0][0]
        guards.append(guard)
        for g in mine:
            n = legal[g]
            if net.kind[n] != AND:
                continue
            ins = [i for i in net.ins[n] if find(i) != guard]
            if len(ins) == len(net.ins[n]):
                continue
            guarded[g] = 1
            if not ins:
                legal[g] = 1
                continue
            if len(ins) == 1:
                legal[g] = find(ins[0])
                continue
            key = tuple(sorted(find(i) for i in ins))
            if key not in made:
                made[key] = net.add(AND, list(key))
                rep.append(made[key])
            legal[g] = made[key]
    return legal, guards, guarded


def _simplify(net: _Net) -> list[int]:
    """Constant folding and shared sub-expressions to a fixpoint; returns rep[n], the
    node that stands for n (n itself if n survives)."""
    n_nodes = len(net.kind)
    rep = list(range(n_nodes))
    kind, ins = net.kind, net.ins

    def find(x: int) -> int:
        return _root(rep, x)

    changed = True
    while changed:
        changed = False
        table: dict[tuple, int] = {}
        for n in range(n_nodes):
            k = kind[n]
            if rep[n] != n or k in (FALSE, TRUE, BASE, INPUT):
                continue
            new = [find(i) for i in ins[n]]
            target = -1
            if k == NOT:
                i = new[0]
                if kind[i] in (FALSE, TRUE):
                    target = TRUE if kind[i] == FALSE else FALSE
                elif kind[i] == NOT:
                    target = find(ins[i][0])
            else:
                absorbing, neutral = (FALSE, TRUE) if k == AND else (TRUE, FALSE)
                kept: list[int] = []
                seen: set[int] = set()
                for i in new:
                    if i == n:  # x = x AND y has least fixpoint false; x = x OR y is y
                        if k == AND:
                            target = FALSE
                        continue
                    if kind[i] == absorbing:
                        target = absorbing
                    elif kind[i] != neutral and i not in seen:
                        seen.add(i)
                        kept.append(i)
                if target < 0:
                    if not kept:
                        target = neutral
                    elif len(kept) == 1:
                        target = kept[0]
                new = kept
            if target >= 0:
                rep[n] = find(target) if target != n else n
                changed = changed or rep[n] != n
                continue
            if new != ins[n]:
                ins[n] = new
                changed = True
            key = (k, tuple(sorted(new)))
            other = table.get(key)
            if other is None:
                table[key] = n
            elif other != n:
                rep[n] = other
                changed = True
    for n in range(n_nodes):
        find(n)
    return rep


def _flatten(net: _Net, rep: list[int], outputs: list[int], base_terms: list[Term],
             next_node: list[int], init: list[int], roles: list[Term],
             moves: list[list[Term]], legal_node: list[int],
             sets: list[list[int]], terminal: int,
             goals: list[tuple[int, int, int]], seed: int,
             stats: dict[str, int], guard: list[int]) -> FlatPropnet:
    def r(x: int) -> int:
        return _root(rep, x)

    live = reachable([0, 1] + [r(o) for o in outputs], lambda n: [r(i) for i in net.ins[n]])
    order_nodes = [n for n in range(len(net.kind)) if n in live]
    comps = strongly_connected(order_nodes, lambda n: [r(i) for i in net.ins[n]])
    new_index: dict[int, int] = {0: 0, 1: 1}
    ranges: list[tuple[int, int]] = []
    for comp in comps:
        if comp[0] in (0, 1) and len(comp) == 1:
            continue
        cyclic = len(comp) > 1
        lo = len(new_index)
        for n in sorted(comp):
            new_index[n] = len(new_index)
        if cyclic:
            ranges.append((lo, len(new_index)))
            members = set(comp)
            for n in comp:
                if net.kind[n] not in (AND, OR) and not (
                        net.kind[n] == NOT and r(net.ins[n][0]) not in members):
                    raise GdlCheckError("negation inside a recursive cycle of the ground rules")
    size = len(new_index)
    kind = [0] * size
    arg = [0] * size
    lists: list[list[int]] = [[] for _ in range(size)]
    for old, new in new_index.items():
        kind[new] = net.kind[old]
        arg[new] = net.arg[old]
        lists[new] = [new_index[r(i)] for i in net.ins[old]]
    kind[0], kind[1] = FALSE, TRUE
    first_in = [0]
    inputs: list[int] = []
    for ins in lists:
        inputs.extend(ins)
        first_in.append(len(inputs))
    stats = dict(stats, nodes=size, edges=len(inputs),
                 gates=sum(1 for k in kind if k in (AND, OR, NOT)), cycles=len(ranges))
    idx = lambda x: new_index[r(x)]  # noqa: E731
    return FlatPropnet(
        kind=kind, arg=arg, first_in=first_in, inputs=inputs, ranges=ranges,
        bases=base_terms, next_node=[idx(x) for x in next_node], init=init,
        roles=roles, moves=moves, legal_node=[idx(x) for x in legal_node], sets=sets,
        terminal=idx(terminal), goals=[(ro, v, idx(x)) for ro, v, x in goals],
        seed=seed, stats=stats, legal_guard=[idx(x) for x in guard])

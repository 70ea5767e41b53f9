"""Mutex families (engine/gdl/mutex.py; followed by csrc/gdl/pn_diff.c) against
independent truth:

- every family of base propositions holds (at most one member true) in every state of
  random games played by the reference prover, which never sees the net;
- every family of gates holds in those states under the joint move played, under none,
  and under the previous ply's joint move (the states the engine's waves settle on),
  by a plain Python evaluation of the net;
- small rulesheets written to trap the proof: a family that breaks after one move, one
  that holds only because of legality, two that hold only together, one that holds
  only through the relation's own earlier member;
- the C side rejects malformed families, and a family that is not one (planted) is
  caught by the check mode while playouts still give the plain evaluation's results;
- gt_prisoner, the shape the families are for, is followed through groups;
- the search for a failing pair, split by variables, against the plain search pair by
  pair (each candidate's verdict and pair, the fixpoint at both widths), with a trap
  where two roles' moves break a family together; kalaha_2009's families (MIAI_FULL).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
from pathlib import Path

import pytest
from engine._core import ffi, lib

from engine.errors import CorruptStateError, InvalidArgumentError
from engine.gdl import propnet
from engine.gdl.checks import load_program
from engine.gdl.game import BuildInfo, GdlGame, compile_propnet, load
from engine.gdl.ground import ground
from engine.gdl.mutex import (
    MAX_TERMS,
    MAX_TERMS_WIDE,
    Candidate,
    _Step,
    _Terms,
    candidates,
    gate_families,
    mutex_families,
    proved,
)
from engine.gdl.propnet import AND, BASE, FALSE, INPUT, MOVESET, NOT, OR, TRUE, FlatPropnet, build
from engine.gdl.prover import Prover
from engine.gdl.sheets import PACKAGED
from engine.gdl.terms import to_text
from engine.playouts import playout_run

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("MIAI_FULL") == "1"

# Sheets with families (and a prover fast enough for CI); MIAI_FULL adds slower ones.
CI_SHEETS = ["tictactoe.kif", "connectFour.kif", "roshambo2.kif", "gt_prisoner.kif",
             "bidding-tictactoe.kif", "nim1.kif", "hanoi.kif", "lightsout.kif",
             "sum15.kif", "blocker.kif", "maze.kif", "switches.kif"]
FULL_SHEETS = ["breakthrough.kif", "pentago.kif", "peg.kif", "queens.kif",
               "wallmaze.kif", "eightPuzzle.kif", "tictactoe_3player.kif",
               "ticTacToeParallel.kif", "sheep_and_wolf.kif", "numbertictactoe.kif"]
SHEETS = CI_SHEETS + (FULL_SHEETS if FULL else [])
GAMES = 20 if FULL else 4


# What these tests check is that the families proved are true, so each proof gets
# time enough to finish on a loaded machine (a timed-out proof proves nothing, and a
# test that then finds no family would check nothing); what a proof out of time gives
# is checked apart (seconds=0 below).
PROOF_SECONDS = 120.0


@pytest.fixture(autouse=True)
def _proofs_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(propnet, "MUTEX_SECONDS", PROOF_SECONDS)


def net_of(text: str) -> FlatPropnet:
    return build(ground(load_program(text)))


def evaluate(net: FlatPropnet, state: frozenset, joint: list[int] | None) -> list[int]:
    """Every node's value for a state (base terms) and a joint move (global move
    indices, None for none): a plain evaluation, cyclic ranges to their fixpoint."""
    n = len(net.kind)
    v = [0] * n
    on = {i for i, b in enumerate(net.bases) if b in state}
    moves = set(joint or ())
    range_of = {}
    for lo, hi in net.ranges:
        for i in range(lo, hi):
            range_of[i] = (lo, hi)

    def gate(i: int) -> int:
        ins = [v[j] for j in net.inputs[net.first_in[i]:net.first_in[i + 1]]]
        k = net.kind[i]
        return int(all(ins) if k == AND else any(ins) if k == OR else not ins[0])

    i = 0
    while i < n:
        k = net.kind[i]
        if i in range_of:
            lo, hi = range_of[i]
            changed = True
            while changed:
                changed = False
                for j in range(lo, hi):
                    x = gate(j)
                    changed |= x != v[j]
                    v[j] = x
            i = hi
            continue
        if k == TRUE:
            v[i] = 1
        elif k == FALSE:
            v[i] = 0
        elif k == BASE:
            v[i] = int(net.arg[i] in on)
        elif k == INPUT:
            v[i] = int(net.arg[i] in moves)
        elif k == MOVESET:
            v[i] = int(any(g in moves for g in net.sets[net.arg[i]]))
        else:
            v[i] = gate(i)
        i += 1
    return v


def global_moves(net: FlatPropnet, joint: list) -> list[int]:
    out, off = [], 0
    for r, ms in enumerate(net.moves):
        out.append(off + ms.index(joint[r]))
        off += len(ms)
    return out


@pytest.mark.parametrize("name", SHEETS)
def test_families_hold_along_prover_games(name: str) -> None:
    text = (PACKAGED / name).read_text()
    net = net_of(text)
    assert net.families or net.gate_families, f"{name}: no family proved"
    prover = Prover(load_program(text))
    rng = random.Random(name)
    index = {b: i for i, b in enumerate(net.bases)}
    for _ in range(GAMES):
        state, before = prover.initial_state(), None
        for _ply in range(200):
            on = {index[b] for b in state}
            for family in net.families:
                assert len(on.intersection(family)) <= 1, (
                    f"{name}: {[to_text(net.bases[b]) for b in on.intersection(family)]}")
            if prover.is_terminal(state):
                break
            joint = [rng.choice(ms) for ms in prover.all_legal(state)]
            for moves in (global_moves(net, joint), None, before):
                v = evaluate(net, state, moves)
                for family in net.gate_families:
                    assert sum(v[g] for g in family) <= 1, f"{name}: gate family {family}"
            before = global_moves(net, joint)
            state = prover.next_state(state, joint)


def families_of(text: str) -> set[tuple[str, ...]]:
    net = net_of(text)
    return {tuple(sorted(to_text(net.bases[b]) for b in f)) for f in mutex_families(net)}


COUNTER = """
(role p)
(init (pos 1))
(<= (legal p go) (true (pos 1)))
(<= (legal p stay) (true (pos 1)))
(<= (legal p wait) (true (pos 2)))
(<= (next (pos 2)) (true (pos 1)))
(<= (next (pos 1)) (true (pos 1)) (does p stay))
(<= (next (pos 2)) (true (pos 2)))
(<= terminal (true (pos 2)) (not (true (pos 1))))
(<= (goal p 100) (true (pos 2)))
(<= (goal p 0) (not (true (pos 2))))
"""


def test_a_family_that_breaks_after_a_move_is_not_proved() -> None:
    # stay keeps pos 1 and adds pos 2: both hold after it
    assert ("(pos 1)", "(pos 2)") not in families_of(COUNTER)


MARKS = """
(role x) (role o)
(init (control x)) (init (cell b))
(<= (legal ?p (mark ?p)) (true (control ?p)) (true (cell b)))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (legal ?p noop) (true (control ?p)) (not (true (cell b))))
(<= (next (cell ?p)) (does ?p (mark ?p)))
(<= (next (cell ?c)) (true (cell ?c)) (not (does x (mark x))) (not (does o (mark o))))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= terminal (not (true (cell b))))
(<= (goal ?p 100) (true (cell ?p)))
(<= (goal ?p 0) (role ?p) (not (true (cell ?p))))
"""


def test_a_family_that_needs_legality_is_proved() -> None:
    # x and o could mark at once but for whose turn it is: only one may
    fams = families_of(MARKS)
    assert ("(cell b)", "(cell o)", "(cell x)") in fams
    assert ("(control o)", "(control x)") in fams


PHASES = """
(role p)
(init (phase a)) (init (light off))
(<= (legal p flip) (true (phase a)))
(<= (legal p wait) (true (phase b)))
(<= (next (phase b)) (true (phase a)))
(<= (next (phase a)) (true (phase b)))
(<= (next (light on)) (true (phase a)) (true (light off)))
(<= (next (light off)) (true (phase b)) (true (light on)))
(<= (next (light off)) (true (phase a)) (true (light on)))
(<= (next (light on)) (true (phase b)) (true (light off)))
(<= terminal (true (light on)) (true (phase a)))
(<= (goal p 100) (true (light on)))
(<= (goal p 0) (true (light off)))
"""


def test_families_that_hold_only_together_are_proved() -> None:
    # light's exclusivity needs phase's (two rules under different phases) and the
    # other way round: only the greatest fixpoint keeps both
    fams = families_of(PHASES)
    assert ("(phase a)", "(phase b)") in fams
    assert ("(light off)", "(light on)") in fams


def test_candidates_come_from_the_bases_shape() -> None:
    net = net_of((PACKAGED / "bidding-tictactoe.kif").read_text())
    keys = {(c.relation, c.key) for c in candidates(net)}
    assert (("coins", 2), (0,)) in keys          # one amount per player
    assert (("cell", 3), (0, 1)) in keys         # one mark per cell
    assert (("cell", 3), ()) not in keys         # nine cells blank at the start
    kept = proved(net, 60.0)
    assert kept is not None
    assert {(c.relation, c.key) for c in kept} >= {(("coins", 2), (0,)),
                                                   (("cell", 3), (0, 1))}


def test_out_of_time_proves_nothing() -> None:
    net = net_of((PACKAGED / "gt_prisoner.kif").read_text())
    assert mutex_families(net, seconds=0.0) == []
    assert gate_families(net, mutex_families(net), seconds=0.0) == []


def game_of(net: FlatPropnet) -> GdlGame:
    return GdlGame(compile_propnet(net, "planted", 1000), "planted", net,
                   BuildInfo(0.0, net.stats, 0.0))


@pytest.fixture(scope="module")
def prisoner() -> FlatPropnet:
    return net_of((PACKAGED / "gt_prisoner.kif").read_text())


def test_gt_prisoner_follows_its_scores_through_groups(prisoner: FlatPropnet) -> None:
    names = {to_text(prisoner.bases[f[0]]).split()[0] for f in prisoner.families}
    assert {"(whitescore", "(blackscore"} <= names
    assert len(prisoner.gate_families) >= 4  # the factored next-score ORs
    game = game_of(prisoner)
    groups, guarded = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    assert lib.miai_gdl_family_stats(game.ptr, groups, guarded) == lib.MIAI_OK
    assert groups[0] >= 4 and guarded[0] >= 400
    for seed in range(10):
        for engine in ("diff", "diff-clear"):
            assert game.check_playout(game.initial_state(), seed, engine)
    without = game_of(dataclasses.replace(prisoner, families=[], gate_families=[]))
    assert lib.miai_gdl_family_stats(without.ptr, groups, guarded) == lib.MIAI_OK
    assert groups[0] == 0 and guarded[0] == 0


@pytest.mark.parametrize("change", ["out of range", "twice", "alone", "both initial",
                                    "not a gate", "gate twice"])
def test_c_rejects_malformed_families(prisoner: FlatPropnet, change: str) -> None:
    fams = [list(f) for f in prisoner.families]
    gates = [list(f) for f in prisoner.gate_families]
    initial = [b for b, on in enumerate(prisoner.init) if on]
    if change == "out of range":
        fams[0][0] = len(prisoner.bases)
    elif change == "twice":
        fams[1].append(fams[0][0])
    elif change == "alone":
        fams.append([next(b for b in range(len(prisoner.bases))
                          if all(b not in f for f in fams))])
    elif change == "both initial":
        fams = [initial[:2]]
    elif change == "not a gate":
        gates[0][0] = next(i for i, k in enumerate(prisoner.kind) if k == BASE)
    else:
        gates[1].append(gates[0][0])
    bad = dataclasses.replace(prisoner, families=fams, gate_families=gates)
    with pytest.raises(InvalidArgumentError):
        compile_propnet(bad, "bad", 100)


def test_a_planted_family_is_caught_and_playouts_stay_right(prisoner: FlatPropnet) -> None:
    # whitescore's members with (rounds 1) added: one holds initially, two after a ply
    ws = next(f for f in prisoner.families if "whitescore" in to_text(prisoner.bases[f[0]]))
    rounds1 = next(b for b, t in enumerate(prisoner.bases) if to_text(t) == "(rounds 1)")
    fams = [f for f in prisoner.families if f is not ws]
    fams = [[b for b in f if b != rounds1] for f in fams]
    fams = [f for f in fams if len(f) >= 2] + [ws + [rounds1]]
    planted = game_of(dataclasses.replace(prisoner, families=fams))
    honest = game_of(prisoner)
    groups, guarded = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    assert lib.miai_gdl_family_stats(planted.ptr, groups, guarded) == lib.MIAI_OK
    assert groups[0] > 0  # followed: the check below is of the families
    with pytest.raises(CorruptStateError):
        planted.check_playout(planted.initial_state(), 1, "diff")
    for seed in range(3):  # one by one: the engine that follows the families
        a = playout_run(planted.initial_state(), 50, seed, batch=False)
        b = playout_run(honest.initial_state(), 50, seed, batch=False)
        assert a == b
    # a gate family that is not one: two of the next-score ORs of both players
    wrong = [prisoner.gate_families[0][:8] + prisoner.gate_families[-1][:8]]
    odd = game_of(dataclasses.replace(prisoner, gate_families=wrong))
    with pytest.raises(CorruptStateError):
        for seed in range(20):
            odd.check_playout(odd.initial_state(), seed, "diff")


def test_a_family_of_lazy_gates_is_left_unused() -> None:
    # the goals' gates are not kept current by a ply: such a family is ignored
    text = (PACKAGED / "roshambo2.kif").read_text()
    net = net_of(text)
    goals = [g for _, _, g in net.goals if net.kind[g] in (AND, OR, NOT)]
    game = game_of(dataclasses.replace(net, gate_families=[goals[:2]]))
    for seed in range(5):
        assert game.check_playout(game.initial_state(), seed, "diff")


def test_loading_reports_the_families(capsys: pytest.CaptureFixture[str]) -> None:
    from protocols.cli.main import main

    game = load((PACKAGED / "gt_prisoner.kif").read_text(), "gt_prisoner")
    assert game.info.stats["families"] >= 2 and game.info.stats["gate_families"] >= 4
    assert game.family_groups[0] >= 4
    assert main(["gdl", str(PACKAGED / "gt_prisoner.kif"), "-n", "0"]) == 0
    assert "4 of gates, followed through" in capsys.readouterr().out
    # roshambo2's groups cost more than they save on the calibration playouts
    assert load((PACKAGED / "roshambo2.kif").read_text()).family_groups == (0, 0)


# -- the failure search split by variables, against the search pair by pair -----------

PARTITION_SHEETS = ["tictactoe.kif", "connectFour.kif", "roshambo2.kif", "gt_prisoner.kif",
                    "nim1.kif", "hanoi.kif", "sum15.kif", "blocker.kif", "switches.kif",
                    "lightsout.kif", "bidding-tictactoe.kif"]
PARTITION_FULL = ["breakthrough.kif", "pentago.kif", "sheep_and_wolf.kif", "queens.kif",
                  "tictactoe_3player.kif", "numbertictactoe.kif"]


def pairwise_failure(step: _Step, c: Candidate) -> bool:
    """The plain search: every two members of a group, every term of each."""
    return any(not step.exclusive(x, y)
               for group in c.groups for p, q in itertools.combinations(group, 2)
               for x in step.signs_of(p) for y in step.signs_of(q))


def pairwise_fixpoint(net: FlatPropnet, max_terms: int) -> list[Candidate]:
    """The greatest fixpoint by the plain search: every failing candidate dropped, round
    after round."""
    terms = _Terms(net, float("inf"), max_terms)
    kept = candidates(net)
    next_terms = {b: terms.of(net.next_node[b]) for c in kept for g in c.groups for b in g}
    while True:
        step = _Step(terms, kept, next_terms)
        failed = [c for c in kept if pairwise_failure(step, c)]
        if not failed:
            return kept
        kept = [c for c in kept if c not in failed]


BOTH = """
(role a) (role b)
(init (pos 0))
(num 1) (num 2) (num 3) (num 4) (num 5)
(<= (legal ?r (go ?k)) (role ?r) (num ?k) (true (pos 0)))
(<= (legal ?r stay) (role ?r) (true (pos 0)))
(<= (legal ?r stay) (role ?r) (not (true (pos 0))))
(<= (next (pos ?k)) (does ?r (go ?k)))
(<= (next (pos 0)) (does a stay) (does b stay) (true (pos 0)))
(<= terminal (not (true (pos 0))))
(<= (goal ?r 100) (role ?r) (true (pos 1)))
(<= (goal ?r 0) (role ?r) (not (true (pos 1))))
"""


def test_a_family_two_roles_break_together_is_not_proved() -> None:
    # a and b may both go at once, to two places: no family, though each role's moves
    # alone exclude each other (the split search must join a part of one role's move
    # with the terms that name only the other role's)
    assert not any(f[0].startswith("(pos ") for f in families_of(BOTH))


TRAPS = {"COUNTER": COUNTER, "MARKS": MARKS, "PHASES": PHASES, "BOTH": BOTH}


@pytest.mark.parametrize("name", [*TRAPS, *PARTITION_SHEETS,
                                  *(PARTITION_FULL if FULL else [])])
def test_split_failure_search_finds_what_pairs_find(name: str) -> None:
    net = net_of(TRAPS[name] if name in TRAPS else (PACKAGED / name).read_text())
    terms = _Terms(net, float("inf"), MAX_TERMS_WIDE)
    kept = candidates(net)
    next_terms = {b: terms.of(net.next_node[b]) for c in kept for g in c.groups for b in g}
    step = _Step(terms, kept, next_terms)  # the first round: every candidate assumed
    for c in kept:
        found = step.failure(c)
        assert (found is not None) == pairwise_failure(step, c), c.relation
        if found is not None:  # a real pair: two members of one group, a term of each
            p, q, x, y = found
            assert p != q and any(p in g and q in g for g in c.groups)
            sx = next(s for s in step.signs_of(p) if s.lits == x)
            sy = next(s for s in step.signs_of(q) if s.lits == y)
            assert not step.exclusive(sx, sy)
    # proved: the union of a narrow and a wide proof (the wide one where the narrow one
    # leaves a candidate)
    narrow = {(c.relation, c.key) for c in pairwise_fixpoint(net, MAX_TERMS)}
    if narrow != {(c.relation, c.key) for c in candidates(net)}:
        narrow |= {(c.relation, c.key) for c in pairwise_fixpoint(net, MAX_TERMS_WIDE)}
    assert {(c.relation, c.key) for c in proved(net, 600.0) or []} == narrow


@pytest.mark.skipif(not FULL, reason="grounding kalaha_2009 takes 20 s: run with MIAI_FULL=1")
def test_kalaha_families_are_proved_and_followed() -> None:
    # 606 k terms in its members' next nodes: the pairs alone would take hours
    text = (PACKAGED / "kalaha_2009.kif").read_text()
    net = net_of(text)
    fams = {tuple(sorted(to_text(net.bases[b]) for b in f)) for f in net.families}
    pits = [f for f in fams if f[0].startswith("(pit ")]
    assert len(pits) == 12 and all(len(f) == 202 for f in pits)
    assert sum(f[0].startswith("(hand ") for f in fams) == 2
    assert len(net.gate_families) >= 2
    game = game_of(net)
    assert game.family_groups[0] > 0
    state = game.initial_state()
    for seed in range(3):
        assert game.check_playout(state, seed, "diff")
        assert game.check_playout(state, seed, "diff-clear")
    prover = Prover(load_program(text))
    rng = random.Random(7)
    index = {b: i for i, b in enumerate(net.bases)}
    state = prover.initial_state()
    for _ply in range(40):
        on = {index[b] for b in state}
        assert all(len(on.intersection(f)) <= 1 for f in net.families)
        if prover.is_terminal(state):
            break
        joint = [rng.choice(ms) for ms in prover.all_legal(state)]
        v = evaluate(net, state, global_moves(net, joint))
        assert all(sum(v[g] for g in f) <= 1 for f in net.gate_families)
        state = prover.next_state(state, joint)

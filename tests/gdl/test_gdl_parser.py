"""GDL parser and checks: every packaged rulesheet, each check on a broken sheet, and
fuzzing (mutated rulesheets never raise anything but the engine's own errors)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import MiaiError, ParseError
from engine.gdl.checks import analyse, load_program
from engine.gdl.errors import GdlCheckError, GdlError
from engine.gdl.parser import normalize_term_text, parse
from engine.gdl.prover import Prover
from engine.gdl.sheets import PACKAGED
from engine.gdl.terms import to_text

ROOT = Path(__file__).resolve().parents[2]
SHEETS = sorted(PACKAGED.glob("*.kif"))
# Sheets rejected by the checks, with the reason (none so far: all 57 are valid).
INVALID: dict[str, str] = {}

MINI = """
(role a) (role b)
(init (count 0))
(succ 0 1) (succ 1 2)
(<= (legal ?r go) (role ?r))
(<= (next (count ?y)) (true (count ?x)) (succ ?x ?y))
(<= terminal (true (count 2)))
(<= (goal ?r 100) (role ?r))
"""


def test_packaged_rulesheets_exist() -> None:
    assert len(SHEETS) == 57


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.name)
def test_every_rulesheet_parses_and_passes_the_checks(path: Path) -> None:
    text = path.read_text()
    if path.name in INVALID:
        with pytest.raises(GdlCheckError, match=INVALID[path.name]):
            load_program(text)
        return
    program = load_program(text)
    assert program.roles
    assert "goal" in program.by_head and "terminal" in program.by_head
    # Case-insensitive: the upper-cased sheet is the same program.
    upper = load_program(text.upper())
    assert [str(r) for r in upper.rules] == [str(r) for r in program.rules]


def test_syntax() -> None:
    rules = parse("; comment\n(ROLE Xplayer) (<= (P ?X) (Q ?x) (not (R ?x)) ; more\n"
                  " (distinct ?x 3) (or (s ?x) (t)))\n(f (g 1) ?y)")
    assert str(rules[0]) == "(role xplayer)"
    assert rules[1].head == ("p", "?x")
    assert rules[1].body == (("q", "?x"), ("not", ("r", "?x")), ("distinct", "?x", "3"),
                             ("or", ("s", "?x"), ("t",)))
    assert rules[1].line == 2
    assert rules[2].head == ("f", ("g", "1"), "?y")
    assert normalize_term_text("( MARK   1\n2 )") == "(mark 1 2)"


@pytest.mark.parametrize("text, message", [
    ("(role a", "never closed"),
    ("(role a))", "unbalanced"),
    ("(<= (p ?x) ((q) ?x))", "cannot start with a list"),
    ("(<= (?p a) (q a))", "variable"),
    ("(<= (p a) (not (q a) (r a)))", "'not' takes one"),
    ("(<= (p a) (distinct a))", "'distinct' takes two"),
    ("(p ())", "empty list"),
    ("?x", "variable"),
    ("(" * 100 + ")" * 100, "nested"),
])
def test_malformed_text_names_the_fault(text: str, message: str) -> None:
    with pytest.raises(GdlError, match=message):
        parse(text)


@pytest.mark.parametrize("extra, message", [
    ("(<= (p ?x) (not (q ?x))) (q 1)", "unsafe variable \\?x"),
    ("(<= (p ?x ?y) (q ?x)) (q 1)", "unsafe variable \\?y"),
    ("(<= (p ?x) (q ?x) (distinct ?x ?z)) (q 1)", "unsafe variable \\?z"),
    ("(<= p (not q)) (<= q (not p))", "unstratified negation"),
    ("(<= (p ?x) (q ?x)) (q 1 2)", "arity clash: 'q'"),
    ("(<= (p ?x) (q ?x)) (q 1)  (<= (p ?x ?y) (q ?x) (q ?y))", "arity clash: 'p'"),
    ("(<= (p ?x) (zork ?x))", "undefined relation 'zork'"),
    ("(<= (true (count 1)) (succ 0 1))", "'true' cannot head"),
    ("(<= (legal a stop) (does b go))", "'legal' may not depend on 'does'"),
    ("(legal a)", "'legal' takes 2"),
    ("(q 0) (<= (q (f ?x)) (q ?x))", "recursion through a function term"),
    ("(q 0) (<= (r (f (g ?x))) (q ?x)) (<= (q ?y) (r (g ?y)))",
     "recursion through a function term"),
])
def test_each_check_names_the_rule(extra: str, message: str) -> None:
    load_program(MINI)  # the base is valid
    with pytest.raises(GdlCheckError, match=message) as info:
        load_program(MINI + extra)
    assert "line" in str(info.value) or "no " in str(info.value)


@pytest.mark.parametrize("extra, facts", [
    # a variable bound outside the cycle: (d ?x) keeps (q (f ...)) finite
    ("(q 0) (d 0) (d (f 0)) (<= (q (f ?x)) (q ?x) (d ?x))",
     {"(q 0)", "(q (f 0))", "(q (f (f 0)))"}),
    # no deeper in the head than in the cycle: a swap, a transitive closure
    ("(q (pair 0 1)) (<= (q (pair ?x ?y)) (q (pair ?y ?x)))",
     {"(q (pair 0 1))", "(q (pair 1 0))"}),
    ("(e 0 1) (e 1 2) (<= (q ?x ?y) (e ?x ?y)) (<= (q ?x ?z) (q ?x ?y) (q ?y ?z))",
     {"(q 0 1)", "(q 1 2)", "(q 0 2)"}),
])
def test_recursion_that_stays_finite_passes_and_ends(extra: str, facts: set[str]) -> None:
    """The recursion check refuses no finite recursion of these shapes; the prover's
    facts are the ones worked out by hand."""
    program = load_program(MINI + extra)
    prover = Prover(program)  # q is static: its facts are worked out at once
    assert {to_text(a) for a in prover._atoms(prover._static, "q")} == facts


def test_game_without_roles_or_goals_is_rejected() -> None:
    no_roles = "\n".join(line for line in MINI.splitlines() if "(role" not in line)
    no_roles = no_roles.replace("(role ?r)", "(succ ?r 1)")
    with pytest.raises(GdlCheckError, match="no roles"):
        load_program(no_roles)
    no_goals = MINI.replace("(<= (goal ?r 100) (role ?r))", "")
    with pytest.raises(GdlCheckError, match="no goals"):
        load_program(no_goals)


def test_or_is_expanded() -> None:
    program = analyse(parse(MINI + "(<= (p ?x) (succ ?x ?y) (or (succ ?y 2) (not (q ?y))))"
                                   "(q 1)"))
    ps = [str(r) for r in program.by_head["p"]]
    assert ps == ["(<= (p ?x) (succ ?x ?y) (succ ?y 2))",
                  "(<= (p ?x) (succ ?x ?y) (not (q ?y)))"]


def test_errors_are_the_engines_own() -> None:
    assert issubclass(GdlError, ParseError) and issubclass(GdlCheckError, MiaiError)


_BASE_TEXTS = [p.read_text() for p in SHEETS if p.stat().st_size < 6000][:20]


@st.composite
def mutated_sheet(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_BASE_TEXTS))
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "swap", "cut"]))
        piece = draw(st.sampled_from(["(", ")", "?x", "not", "or", "<=", " ", "\n", ";",
                                      "distinct", "(true", "\x00", "é", "1", "(role r)"]))
        if kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 20)):]
        elif kind == "insert":
            text = text[:pos] + piece + text[pos:]
        elif kind == "swap":
            text = text[:pos] + piece + text[pos + len(piece):]
        else:
            text = text[:pos]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_sheet())
def test_fuzzed_rulesheets_never_crash_or_hang(text: str) -> None:
    # A hang would stall this test (no deadline is set, by design: no timing asserts).
    with contextlib.suppress(MiaiError):
        load_program(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="()?<=abnotr dis;\n1", max_size=200))
def test_random_text_never_crashes(text: str) -> None:
    with contextlib.suppress(MiaiError):
        load_program(text)

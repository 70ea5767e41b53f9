"""Small sheets that break one rule of strict GDL each, in the shapes game masters
send (an unsafe variable, a relation never defined, ``(not (distinct ...))``, a
keyword misused), with the legal moves that ggp-base's prover's reading gives them,
worked out by hand: after each joint move of a line, the sorted legal moves of ``r``.

Every sheet is the same one-role game around the shape: four steps, at each a move
``wait`` (always legal) or ``(take ITEM)`` for items a, b, c as the shape's rules
allow; goal 100 once ``a`` was taken.
"""

from __future__ import annotations

BASE = """
(role r)
(init (step 1))
(succ 1 2) (succ 2 3) (succ 3 4)
(item a) (item b) (item c)
(<= (legal r wait) (true (step ?s)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (next (took ?i)) (does r (take ?i)))
(<= (next (took ?i)) (true (took ?i)))
(<= terminal (true (step 4)))
(<= (goal r 100) (true (took a)))
(<= (goal r 0) (not (true (took a))))
"""

ALL = ["(take a)", "(take b)", "(take c)", "wait"]
WAIT = ["wait"]

# name -> (the shape's rules, [(move played, legal moves before it)...])
SHAPES: dict[str, tuple[str, list[tuple[str, list[str]]]]] = {
    # ?j only in a negation: 'for no ?j', so takes are legal until something is taken
    "unsafe-not": ("(<= (legal r (take ?i)) (item ?i) (not (true (took ?j))))",
                   [("(take b)", ALL), ("wait", WAIT), ("wait", WAIT)]),
    # ?z only in a distinct: an unbound term is unequal to ?i (holds) and equal to
    # itself (so pass is never legal)
    "unsafe-distinct": ("(<= (legal r (take ?i)) (item ?i) (distinct ?i ?z))\n"
                        "(<= (legal r pass) (true (step 1)) (distinct ?z ?z))",
                        [("(take c)", ALL), ("wait", ALL), ("(take a)", ALL)]),
    # ?i only in the head: it ranges over the items (the place's domain, from the
    # safe rule at step 3)
    "unsafe-head": ("(<= (legal r (take ?i)) (true (step 1)))\n"
                    "(<= (legal r (take ?i)) (true (step 3)) (item ?i))",
                    [("(take a)", ALL), ("wait", WAIT), ("wait", ALL)]),
    # blocked and magic are never defined: (not (blocked ?i)) holds, (magic ?i) fails
    "undefined": ("(<= (legal r (take ?i)) (item ?i) (not (blocked ?i)) (true (step 1)))\n"
                  "(<= (legal r (take ?i)) (item ?i) (magic ?i))\n"
                  "(<= (goal r 50) (bonus))",
                  [("(take a)", ALL), ("wait", WAIT), ("wait", WAIT)]),
    # (not (distinct ?i b)): ?i = b; (not (distinct ?s 2)): at step 2 every item
    "not-distinct": ("(<= (legal r (take ?i)) (item ?i) (not (distinct ?i b)))\n"
                     "(<= (legal r (take ?i)) (true (step ?s)) (item ?i) "
                     "(not (distinct ?s 2)))",
                     [("(take b)", ["(take b)", "wait"]), ("(take a)", ALL),
                      ("wait", ["(take b)", "wait"])]),
    # a rule headed by true is never read; init read in a body (a fact: always)
    "keywords": ("(<= (true (took a)) (true (step 1)))\n"
                 "(<= (legal r (take ?i)) (init (step 1)) (item ?i) (true (step 2)))",
                 [("wait", WAIT), ("(take c)", ALL), ("wait", WAIT)]),
}


def sheet(name: str) -> str:
    return BASE + SHAPES[name][0] + "\n"

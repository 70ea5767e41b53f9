#!/usr/bin/env python3
"""Instruction counts of a fixed, seeded MCTS search (repeatable on a loaded machine).

``python3 scripts/callgrind_search.py tictactoe:20000 connect4:20000 hex:size=11:5000``
runs each ``GAME:ITERATIONS`` search (DAG mode, seed 1; plain UCT unless
``--algorithm SPEC`` names another algorithm, e.g. ``--algorithm uctstar:p=0.5,s=100``,
an algorithm spec as bench_search.py takes it) under
``valgrind --tool=callgrind --toggle-collect=miai_search_run``, so only the C search
is counted, and prints the instructions per iteration; ``--keep DIR`` keeps the
callgrind files for ``callgrind_annotate``.  With ``--no-valgrind`` the searches run
directly (the test suite does that, so the script never rots).  Wall-clock rates are
``scripts/bench_search.py``'s job.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games  # noqa: E402


def split_job(job: str) -> tuple[str, int]:
    """``GAME:ITERATIONS`` (the game spec may hold colons itself)."""
    spec, _, count = job.rpartition(":")
    if not spec or not count.isdigit() or int(count) < 1:
        raise SystemExit(f"bad job {job!r}: expected GAME:ITERATIONS")
    return spec, int(count)


def make_algorithm(algorithm: str) -> object:
    """The algorithm of a spec ``NAME[:KEY=VALUE,...]`` (e.g. ``uctstar:p=0.5,s=100``)."""
    import engine.search as search
    from bots.spec import parse_spec

    spec = parse_spec(algorithm)
    return search.algorithm_from_spec(spec.name, dict(spec.params))


def run_search(spec: str, iterations: int, seed: int, algorithm: str = "uct") -> str:
    """One search; a line naming its result (the same under valgrind or not)."""
    import engine.search as search

    state = games.create_from_spec(spec).initial_state()
    s = search.Search(state, make_algorithm(algorithm), seed=seed,
                      max_nodes=1_000_000, mode="dag")
    r = s.run(iterations=iterations)
    return (f"{spec} {algorithm} best={r.best_text} iterations={r.iterations} "
            f"nodes={r.nodes}")


def under_callgrind(spec: str, iterations: int, seed: int, out: Path,
                    algorithm: str = "uct") -> tuple[int, str]:
    """(instructions in miai_search_run, the search's result line)."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--toggle-collect=miai_search_run",
         f"--callgrind-out-file={out}", sys.executable, __file__, "--inner",
         f"{spec}:{iterations}", "--seed", str(seed), "--algorithm", algorithm],
        capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"no callgrind total for {spec}:\n{proc.stderr[-2000:]}")
    return int(found.group(1)), proc.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("jobs", nargs="+", metavar="GAME:ITERATIONS")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--algorithm", default="uct", metavar="SPEC",
                   help="algorithm spec, e.g. uctstar:p=0.5,s=100 (default: uct)")
    p.add_argument("--keep", metavar="DIR", help="keep the callgrind files here")
    p.add_argument("--no-valgrind", action="store_true", help="run the searches directly")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    jobs = [split_job(j) for j in args.jobs]
    if args.inner or args.no_valgrind:
        for spec, n in jobs:
            print(run_search(spec, n, args.seed, args.algorithm))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.keep or tmp)
        where.mkdir(parents=True, exist_ok=True)
        for spec, n in jobs:
            name = re.sub(r"[^A-Za-z0-9_.=-]", "_", f"{spec}.{args.algorithm}")
            total, line = under_callgrind(spec, n, args.seed, where / f"callgrind.{name}",
                                          args.algorithm)
            print(f"{line}  Ir={total:,}  Ir/iteration={total / n:,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""RAVE search speed on 9x9 Go with go9's priors and with the prior bits (CPU time).

    python3 scripts/bench_go_priors.py                      # policy 7 against 7+16+32
    python3 scripts/bench_go_priors.py --policy 7 23 39 55 --iterations 3000 --repeat 3

Each policy runs one RAVE search (prior=20, knowledge=1, a fresh tree) of
``--iterations`` from each of ``--positions`` mid-game positions (seeded random legal
plies, more for later positions); the priors are computed once per expanded node, so
the difference is what go_prior_kinds costs.  The policies take turns (``--repeat``
rounds) so a change in the machine's load hits them alike; the best round is quoted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from engine import games  # noqa: E402
from engine.search import RAVE, Search  # noqa: E402


def positions(policy: int, count: int) -> list:
    game = games.create("go", size=9, komi=7, policy=policy)
    out = []
    for k in range(count):
        st, rng = game.initial_state(), random.Random(k)
        for _ in range(10 + 6 * k):
            moves = [m for m in st.legal_moves() if m != 81]
            if not moves or st.is_terminal():
                break
            st.play(rng.choice(moves))
        out.append(st)
    return out


def rate(policy: int, count: int, iterations: int) -> float:
    spent = 0.0
    for k, st in enumerate(positions(policy, count)):
        search = Search(st, RAVE(prior=20, knowledge=True), seed=k)
        cpu = time.process_time()
        search.run(iterations=iterations)
        spent += time.process_time() - cpu
    return count * iterations / spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", type=int, nargs="+", default=[7, 55])
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    best = {p: 0.0 for p in args.policy}
    for _ in range(args.repeat):
        for p in args.policy:
            best[p] = max(best[p], rate(p, args.positions, args.iterations))
    for p, r in best.items():
        print(f"9x9 policy={p:<2d} {r:10,.0f} iterations/s (cpu, best of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

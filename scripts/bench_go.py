"""Go playouts per second (light, or the heavy policy= bits), all in C, one thread.

    python3 scripts/bench_go.py                 # 9x9, plus 5, 13 and 19
    python3 scripts/bench_go.py --sizes 9 --policy 0 7   # light vs the full heavy policy
    python3 scripts/bench_go.py --sizes 9 -n 200000 --repeat 5

Each timing runs ``n`` playouts from the empty board through ``miai_playouts`` (state
copy, playout, area count and reward per playout).  CPU time of this process is
reported beside wall time, since the machine may be shared; the best of ``--repeat``
runs is the figure to quote.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from engine import games  # noqa: E402
from engine.playouts import playout_run  # noqa: E402

DEFAULT_N = {5: 200_000, 9: 100_000, 13: 30_000, 19: 10_000}


def bench(size: int, n: int, repeat: int, seed: int, policy: int = 0) -> None:
    state = games.create("go", size=size, komi=7.5, policy=policy).initial_state()
    best_cpu = best_wall = float("inf")
    run = None
    for r in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run = playout_run(state, n, seed + r)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    assert run is not None
    print(f"{size:2d}x{size:<2d} policy={policy:<2d} {n / best_cpu:10,.0f} playouts/s (cpu)  "
          f"{n / best_wall:10,.0f} playouts/s (wall)  "
          f"{run.plies / n:6.1f} plies/game  black wins {run.mean_rewards[0]:.3f} "
          f"(komi 7.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 5, 13, 19])
    parser.add_argument("-n", type=int, default=0, help="playouts per run (0: by size)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", type=int, nargs="+", default=[0],
                        help="Go policy= bits to time (go_policy.h); 7 = full heavy")
    args = parser.parse_args()
    for size in args.sizes:
        for policy in args.policy:
            bench(size, args.n or DEFAULT_N.get(size, 20_000), args.repeat, args.seed, policy)


if __name__ == "__main__":
    main()

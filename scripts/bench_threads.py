"""Iterations per second of one search with 1, 2, ... threads on one graph.

    python3 scripts/bench_threads.py                       # every game, 1..cores+1
    python3 scripts/bench_threads.py --games go9 --threads 1 2 --seconds 5 --repeat 5
    python3 scripts/bench_threads.py --json threads.json

Games: ``go9`` (Go 9x9 as the Go bot searches it: RAVE with knowledge priors, prior 20,
over the heavy playout policy 7), ``othello``, ``connect4`` and ``gdl-connectFour`` (the
packaged GDL rules on the propnet), by plain UCT, c = 0.7.
Each measurement is a fresh process (``--one``): it builds the search from the initial
position, runs ``--warmup`` seconds (not counted: allocation of the first arenas), then
``--seconds`` more, and reports the iterations of that second run over its wall time.
The thread counts take turns, one process each per round, for ``--repeat`` rounds; the
median of a thread count's processes is its figure, and ``speedup`` is the median over
rounds of that round's rate over the round's 1-thread rate.  Wall time, not CPU time:
threads are about wall time; the iterations per CPU second
(``iterations_per_cpu_s``) are reported beside them, and with threads the share of the
threads' time spent holding the search's lock and waiting for it (``lock_held``,
``lock_wait``): the lock-held share f bounds the speedup by 1/f on any number of cores.
The machine's load average is printed before and after (a shared machine cannot show a
speedup it has no free core for; docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout first

GAMES = ("go9", "othello", "connect4", "gdl-connectFour")


def measure(game: str, threads: int, seconds: float, warmup: float,
            seed: int) -> dict[str, float | None]:
    """Iterations per second of one search (this process); with threads > 1 also the
    share of the threads' time spent holding the search's lock and waiting for it."""
    from engine import games, go
    from engine.search import UCT, Search
    from engine.search.rave import RAVE

    if game == "go9":
        state = go.policy_game(games.create("go", size=9, komi=7.5), 7).initial_state()
        algorithm: object = RAVE(prior=20.0, knowledge=True)
    elif game.startswith("gdl-"):
        from engine.gdl.game import load
        from engine.gdl.sheets import PACKAGED

        name = game[len("gdl-"):]
        state = load((PACKAGED / f"{name}.kif").read_text(), name=name).initial_state()
        algorithm = UCT(c=0.7)
    else:
        state = games.create(game).initial_state()
        algorithm = UCT(c=0.7)
    search = Search(state, algorithm, seed=seed, threads=threads, max_nodes=4_000_000)
    if warmup > 0:
        search.run(seconds=warmup)
    before = search.info()
    start, cpu = time.perf_counter(), time.process_time()
    search.run(seconds=seconds)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    after = search.info()
    ran = after["thread_seconds"] - before["thread_seconds"]
    held = after["lock_held_seconds"] - before["lock_held_seconds"]
    waited = after["lock_wait_seconds"] - before["lock_wait_seconds"]
    done = after["iterations"] - before["iterations"]
    return {"iterations_per_s": done / wall, "iterations_per_cpu_s": done / cpu,
            "lock_held": held / ran if ran else None,
            "lock_wait": waited / ran if ran else None}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cores = os.cpu_count() or 1
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--threads", type=int, nargs="+",
                        default=list(range(1, cores + 2)),
                        help="thread counts (default 1 .. cores + 1)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write the rows as JSON")
    parser.add_argument("--one", nargs=2, metavar=("GAME", "THREADS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]), args.seconds, args.warmup,
                                 args.seed)))
        return
    print(f"cores {cores}, load average before: {load()}", flush=True)
    rows = []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for game in args.games:
        # Rounds: every thread count once per round, in turn, so that the machine's
        # drift (a shared 2-core machine moves by a quarter between runs) hits them
        # alike; the speedup is the median over rounds of the round's own ratio.
        got_by = {t: [] for t in args.threads}
        for r in range(args.repeat):
            for threads in args.threads:
                out = subprocess.run(
                    [sys.executable, __file__, "--one", game, str(threads),
                     "--seconds", str(args.seconds), "--warmup", str(args.warmup),
                     "--seed", str(args.seed + r)],
                    check=True, capture_output=True, text=True, env=env)
                got_by[threads].append(json.loads(out.stdout.strip().splitlines()[-1]))
        one = got_by.get(1)
        for threads in args.threads:
            got = got_by[threads]
            rates = [g["iterations_per_s"] for g in got]
            held = [g["lock_held"] for g in got if g["lock_held"] is not None]
            waited = [g["lock_wait"] for g in got if g["lock_wait"] is not None]
            rate = statistics.median(rates)
            lock_held = round(statistics.median(held), 3) if held else None
            lock_wait = round(statistics.median(waited), 3) if waited else None
            speedup = None
            if one is not None:
                speedup = statistics.median(g["iterations_per_s"] / b["iterations_per_s"]
                                            for g, b in zip(got, one, strict=True))
            row = {"game": game, "threads": threads, "iterations_per_s": round(rate, 1),
                   "speedup": None if speedup is None else round(speedup, 3),
                   "iterations_per_cpu_s": round(statistics.median(
                       g["iterations_per_cpu_s"] for g in got), 1),
                   "lock_held": lock_held, "lock_wait": lock_wait,
                   "runs": [round(x, 1) for x in rates]}
            rows.append(row)
            shown = "   -  " if speedup is None else f"{speedup:6.2f}"
            lock = "" if lock_held is None else f"  lock held {lock_held:.2f} wait {lock_wait:.2f}"
            print(f"{game:9s} threads {threads:2d}  {rate:12,.0f} it/s  speedup {shown}{lock}  "
                  f"(runs: {', '.join(f'{x:,.0f}' for x in rates)})", flush=True)
    print(f"load average after: {load()}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""GDL speed: per rulesheet, grounding time, propnet size, random playouts per second
with the propnet (in C) and with the reference prover (Python), in one run.

    python3 scripts/bench_gdl.py                       # every packaged rulesheet
    python3 scripts/bench_gdl.py tests/gdl/tictactoe.kif tests/gdl/connect4.kif
    python3 scripts/bench_gdl.py --seconds 2 --prover-seconds 5 breakthrough
    python3 scripts/bench_gdl.py --mcts 2 --prover-seconds 0 tictactoe connectFour

"propnet/s" is random playouts run in batches (miai_playouts: on GDL nets 64 games at
a time, one per bit of a word, where the lanes are cheaper: engine "+lanes",
GdlGame.lanes_min_batch); "each/s"
plays them one by one, as a search's playouts are, and "each x" is its speed-up.

With --mcts S, a column more: iterations per CPU second of a plain UCT search (DAG
mode, from the initial state, S seconds), whose descent plays moves with the game's
play() where a playout uses the differential engine.  --prover-seconds 0 leaves the
prover out (its column reads 0 and the speed-up inf).  The last column names the C
engine of the sheet's playouts (GdlGame.playout_engine: bits, diff, diff-clear or
generic; docs/gdl.md).

Speeds are per CPU second of this process (time.process_time), so a loaded machine
distorts them less than wall-clock time would; grounding time (parse, check, ground,
build the net) and the grounding bound are CPU seconds too.
Sheets over the grounding bound are reported as "prover only".  The speed-up column
compares plies per second, which stays meaningful when a prover playout does not
finish within its time budget.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import LimitError  # noqa: E402
from engine.gdl.game import load  # noqa: E402
from engine.gdl.ground import Bounds  # noqa: E402
from engine.gdl.prover_game import ProverGame  # noqa: E402
from engine.gdl.sheets import sheet_paths  # noqa: E402
from engine.playouts import playout_run  # noqa: E402
from engine.search.search import Search  # noqa: E402


def propnet_speed(game, seconds: float, lanes: bool = True) -> tuple[float, float]:
    """(playouts/s, plies/s) of C random playouts from the initial state, in batches
    (64 games at a time where the net uses the lanes) or one by one (lanes=False)."""
    state = game.initial_state()
    n, total_t, total_plies, batch = 0, 0.0, 0, 64
    while total_t < seconds:
        start = time.process_time()
        run = playout_run(state, batch, seed=n, batch=lanes)
        total_t += time.process_time() - start
        n += batch
        total_plies += run.plies
        if total_t < seconds / 4:
            batch *= 2
    return n / total_t, total_plies / total_t


def mcts_speed(game, seconds: float) -> float:
    """Iterations per CPU second of plain UCT from the initial state."""
    search = Search(game.initial_state(), seed=1)
    start = time.process_time()
    result = search.run(seconds=seconds)
    return result.iterations / (time.process_time() - start)


class _OutOfTime(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _OutOfTime


def prover_speed(text: str, seconds: float) -> tuple[float, float]:
    """(playouts/s, plies/s) of random playouts with the reference prover; a playout
    cut off by the time budget counts its plies but not as a playout.  One prover
    step (or loading the rules) can take long (chess): an interval timer stops it
    at 3x the budget."""
    rng = random.Random(0)
    done = plies = 0
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 3 * seconds)
    start = time.process_time()
    try:
        game = ProverGame(text)  # static relations are evaluated here: can be slow
        start = time.process_time()  # time the playouts only
        while time.process_time() - start < seconds:
            state = game.initial_state()
            while not state.is_terminal() and time.process_time() - start < seconds:
                joint = [rng.choice(state.rule_moves(r)) for r in range(game.n_roles)]
                if state.to_move >= 0:
                    state.play(joint[state.to_move])
                else:
                    state.play_joint(joint)
                plies += 1
            done += state.is_terminal()
    except _OutOfTime:
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    elapsed = time.process_time() - start
    return done / elapsed, plies / elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sheets", nargs="*", help="rulesheet paths or names in engine/gdl/rulesheets")
    ap.add_argument("--seconds", type=float, default=1.0, help="propnet timing per sheet")
    ap.add_argument("--prover-seconds", type=float, default=2.0, help="prover timing per sheet")
    ap.add_argument("--ground-seconds", type=float, default=30.0, help="grounding bound (CPU s)")
    ap.add_argument("--mcts", type=float, default=0.0, metavar="S",
                    help="also time S seconds of plain UCT (iterations/s column)")
    args = ap.parse_args(argv)
    paths = sheet_paths(args.sheets)
    print(f"{'rulesheet':26s} {'ground s':>8s} {'nodes':>7s} {'edges':>8s} "
          f"{'propnet/s':>10s} {'each/s':>10s} {'prover/s':>9s} {'speed-up':>9s} "
          f"{'each x':>8s}"
          + (f" {'mcts/s':>9s}" if args.mcts else "") + "  engine")
    for path in paths:
        text = path.read_text()
        try:
            bounds = Bounds(time_limit=args.ground_seconds, cpu_time=True)
            game = load(text, name=path.stem[:24], bounds=bounds)
        except LimitError as exc:
            p_rate, p_plies = prover_speed(text, args.prover_seconds)
            print(f"{path.name:26s} prover only ({exc}); prover {p_rate:.2f} playouts/s, "
                  f"{p_plies:.1f} plies/s", flush=True)
            continue
        pn_rate, pn_plies = propnet_speed(game, args.seconds)
        each_rate, each_plies = propnet_speed(game, args.seconds, lanes=False)
        p_rate, p_plies = prover_speed(text, args.prover_seconds) if args.prover_seconds \
            else (0.0, 0.0)
        ratio = pn_plies / p_plies if p_plies else float("inf")
        each_ratio = each_plies / p_plies if p_plies else float("inf")
        st = game.info.stats
        mcts = f" {mcts_speed(game, args.mcts):9.0f}" if args.mcts else ""
        print(f"{path.name:26s} {game.info.ground_cpu_seconds:8.2f} {st['nodes']:7d} "
              f"{st['edges']:8d} {pn_rate:10.0f} {each_rate:10.0f} {p_rate:9.2f} "
              f"{ratio:8.0f}x {each_ratio:7.0f}x{mcts}  {game.playout_engine}"
              f"{'+lanes' if game.lanes_min_batch else ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

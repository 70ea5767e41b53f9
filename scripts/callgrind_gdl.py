#!/usr/bin/env python3
"""GDL playout cost as a count, not a clock: instructions per random playout of each
rulesheet's propnet, counted by valgrind's callgrind inside ``miai_playouts_each`` only
(one by one, as a search plays them: the lanes, which run batches, are timed by
``scripts/bench_gdl_lanes.py``).

    python3 scripts/callgrind_gdl.py guess roshambo2 bidding-tictactoe
    python3 scripts/callgrind_gdl.py --playouts 500 tictactoe

The same seed plays the same games whatever the net's shape (the moves are drawn from
the legal moves in the same order), so two versions of the optimiser or of the C
engines compare exactly, on a shared and noisy machine too (docs/lab-log.md has the
runs).  Grounding and building the net run natively; only the playouts run under
valgrind (about 50x slower), in a child process that reads the net from a pickle.
Needs valgrind on the PATH; with ``--no-valgrind`` the playouts run directly and the
instruction column reads 0 (the test suite does that, so the script never rots).
Wall-clock rates are ``scripts/bench_gdl.py``'s job.
"""

from __future__ import annotations

import argparse
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gdl.checks import load_program  # noqa: E402
from engine.gdl.game import BuildInfo, GdlGame, compile_propnet  # noqa: E402
from engine.gdl.ground import Bounds, ground  # noqa: E402
from engine.gdl.propnet import build  # noqa: E402
from engine.gdl.sheets import sheet_path  # noqa: E402
from engine.playouts import playout_run  # noqa: E402


def child(net_file: str, playouts: int) -> None:
    """Under valgrind: the C game of the pickled net, then the counted playouts."""
    with open(net_file, "rb") as f:
        net = pickle.load(f)
    game = GdlGame(compile_propnet(net, "counted", 10_000), "counted", net,
                   BuildInfo(0.0, net.stats, 0.0))
    result = playout_run(game.initial_state(), playouts, seed=1, batch=False)
    print(f"plies {result.plies}")


def count(name: str, playouts: int, workdir: Path, valgrind: bool = True,
          split: bool = True) -> tuple[int, int, int, float]:
    """(nodes, edges, instructions per playout, plies per playout) of one sheet."""
    net = build(ground(load_program(sheet_path(name).read_text()), Bounds(time_limit=1e6),
                       split=split))
    net_file = workdir / "net.pkl"
    with open(net_file, "wb") as f:
        pickle.dump(net, f)
    inner = [sys.executable, __file__, "--child", str(net_file), str(playouts)]
    tool = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={workdir / 'cg.out'}",
            "--toggle-collect=miai_playouts_each"]
    out = subprocess.run(tool + inner if valgrind else inner, capture_output=True,
                         text=True, check=True)
    plies = re.search(r"plies (\d+)", out.stdout)
    collected = re.search(r"Collected : (\d+)", out.stderr) if valgrind else None
    if not plies or (valgrind and not collected):
        raise RuntimeError(f"{name}: no count from the playouts:\n{out.stderr[-2000:]}")
    instructions = int(collected.group(1)) // playouts if collected else 0
    return len(net.kind), len(net.inputs), instructions, int(plies.group(1)) / playouts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sheets", nargs="*", help="rulesheet paths or names in "
                        "engine/gdl/rulesheets")
    parser.add_argument("--playouts", type=int, default=200,
                        help="playouts counted per sheet (seed 1)")
    parser.add_argument("--no-valgrind", action="store_true",
                        help="run the playouts directly (no count)")
    parser.add_argument("--no-split", action="store_true",
                        help="ground every rule whole (no decomposition)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    if not args.no_valgrind and not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if not args.sheets:
        parser.error("name the rulesheets to count")
    print(f"{'rulesheet':24s} {'nodes':>7s} {'edges':>8s} {'instr/playout':>14s} "
          f"{'plies/playout':>14s}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sheets:
            nodes, edges, instructions, plies = count(
                name, args.playouts, Path(tmp), not args.no_valgrind, not args.no_split)
            print(f"{Path(name).stem:24s} {nodes:>7d} {edges:>8d} {instructions:>14,d} "
                  f"{plies:>14.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which reasoner the GGP player picks for each packaged rulesheet, and why.

    python3 scripts/ggp_reasoners.py                    # every packaged sheet
    python3 scripts/ggp_reasoners.py --json tictactoe connectFour
    python3 scripts/ggp_reasoners.py --out data.jsonl --ground-seconds 30 --seconds 2

Per sheet, as the player decides at the start of a match: the rules read (tolerantly:
engine/gdl/tolerant.py) and grounded within the bound (``--ground-seconds`` of CPU
time, the player's default atom bound), the net's size and playout engine, then
engine/gdl/reasoner_choice.choose for ``--seconds`` (half on each reasoner; random
playouts from the initial state, plies per wall-clock second) and its choice.  A sheet
over the grounding bound gets the prover's rate alone, and the prover.

Each sheet runs in a child process killed after ``--sheet-seconds`` (the prover can
take minutes for one ply of the largest games), at nice 19, with its address space
capped at ``--sheet-gb`` (grounding checkers grew past 4.6 GB; past the cap the
grounding fails with MemoryError and, as in the player, the prover plays).
Results are appended, one JSON line per sheet, to ``--out`` as they come; a second
run with the same ``--out`` skips the sheets already there (resumable).  The table is
printed in Markdown, or as JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gdl.sheets import sheet_paths  # noqa: E402


def measure(path: Path, ground_seconds: float, seconds: float) -> dict[str, object]:
    """One sheet's row (runs in the child)."""
    from engine.gdl.game import GdlGame, load_for_play
    from engine.gdl.ground import DEFAULT_BOUNDS, Bounds
    from engine.gdl.prover_game import ProverGame
    from engine.gdl.reasoner_choice import MARGIN, choose, prover_rate

    text = path.read_text()
    row: dict[str, object] = {"sheet": path.name}
    start = time.process_time()
    bounds = Bounds(time_limit=ground_seconds, max_atoms=DEFAULT_BOUNDS.max_atoms,
                    cpu_time=True)
    game = load_for_play(text, path.stem[:24], bounds, tolerant=True)
    row["load_cpu_seconds"] = round(time.process_time() - start, 2)
    row["warnings"] = len(game.warnings)
    if isinstance(game, GdlGame):
        row.update(grounds="yes", nodes=game.info.stats["nodes"],
                   engine=game.playout_engine)
        choice = choose(game, lambda: ProverGame(text, path.stem, tolerant=True), seconds)
        row.update(net_rate=round(choice.net_rate, 1),
                   prover_rate=round(choice.prover_rate, 1), choice=choice.reasoner)
        row["why"] = (f"prover faster by over {MARGIN:g}x" if choice.reasoner == "prover"
                      else f"net faster (or prover not {MARGIN:g}x faster)")
    else:
        row.update(grounds=f"no: {game.fallback_reason}", nodes=None, engine=None,
                   net_rate=None, choice="prover", why="not grounded within the bound")
        count: list[float] = [0, 0.0, 0.0]
        stop = threading.Event()
        worker = threading.Thread(target=prover_rate, args=(game, seconds / 2, stop, 0,
                                                            count), daemon=True)
        worker.start()
        worker.join(seconds / 2)
        stop.set()
        plies, first, last = count
        row["prover_rate"] = round(plies / (last - first), 1) if plies and last > first \
            else 0.0
    return row


def run_child(path: Path, args: argparse.Namespace) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--child", str(path), "--ground-seconds",
           str(args.ground_seconds), "--seconds", str(args.seconds)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cap = int(args.sheet_gb * 2**30)

    def limits() -> None:
        os.nice(19)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=args.sheet_seconds, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return {"sheet": path.name, "grounds": f"no answer within {args.sheet_seconds:g} s",
                "choice": None, "why": "not measured: the child was killed"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        if tail.startswith("MemoryError"):  # the cap, hit again while reporting it
            return {"sheet": path.name, "choice": "prover",
                    "grounds": f"no: over the {args.sheet_gb:g} GB address space cap",
                    "why": "grounding over the memory cap"}
        return {"sheet": path.name, "grounds": f"error: {tail}", "choice": None,
                "why": "the sheet did not load"}
    return json.loads(lines[-1])


def fmt(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.0f}"
    return str(value)


def table(rows: list[dict[str, object]]) -> str:
    cols = [("sheet", "sheet"), ("grounds", "grounds"), ("nodes", "nodes"),
            ("engine", "playout engine"), ("net_rate", "net plies/s"),
            ("prover_rate", "prover plies/s"), ("choice", "plays on"), ("why", "why")]
    out = ["| " + " | ".join(title for _, title in cols) + " |",
           "|" + "---|" * len(cols)]
    for row in rows:
        out.append("| " + " | ".join(fmt(row.get(key)) for key, _ in cols) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("sheets", nargs="*", help="sheet names or files (default: all packaged)")
    p.add_argument("--ground-seconds", type=float, default=30.0,
                   help="grounding bound, CPU seconds (default 30)")
    p.add_argument("--seconds", type=float, default=2.0,
                   help="measurement of both reasoners, wall-clock seconds (default 2)")
    p.add_argument("--sheet-seconds", type=float, default=180.0,
                   help="a sheet's child process is killed after this (default 180)")
    p.add_argument("--sheet-gb", type=float, default=3.0,
                   help="a sheet's child process address space cap, GB (default 3)")
    p.add_argument("--out", type=Path, help="JSON lines, appended; sheets there are skipped")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child is not None:
        print(json.dumps(measure(args.child, args.ground_seconds, args.seconds)),
              flush=True)
        os._exit(0)  # a prover ply still running on its thread is not waited for
    done: dict[str, dict[str, object]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[str(row["sheet"])] = row
    rows = []
    for path in sheet_paths(args.sheets):
        row = done.get(path.name)
        if row is None:
            row = run_child(path, args)
            print(f"{path.name}: {row.get('choice')} ({row.get('grounds')})",
                  file=sys.stderr, flush=True)
            if args.out is not None:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
        rows.append(row)
    print(json.dumps(rows, indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

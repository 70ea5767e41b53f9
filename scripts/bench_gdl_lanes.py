"""GDL lanes against one-by-one playouts, batch by batch: per rulesheet, the least batch
the lanes run (GdlGame.lanes_min_batch, set from the calibration's count), and the
playouts per CPU second of batches of that size and of 64 (and of 64 on the nets
that keep one-by-one playouts), run in the lanes (miai_playouts) and one by one
(miai_playouts_each), with their ratio.  A ratio under 1 at the least batch would
mean the choice (csrc/gdl/pn_lanes.c, pn_lanes_choose) takes the lanes where they
lose.

    python3 scripts/bench_gdl_lanes.py                     # every packaged rulesheet
    python3 scripts/bench_gdl_lanes.py --seconds 0.5 roshambo2 gt_prisoner
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import LimitError  # noqa: E402
from engine.gdl.game import GdlGame, load  # noqa: E402
from engine.gdl.ground import Bounds  # noqa: E402
from engine.gdl.sheets import sheet_paths  # noqa: E402
from engine.playouts import playout_run  # noqa: E402


def rate(game: GdlGame, batch: int, lanes: bool, seconds: float) -> float:
    """Playouts per CPU second of batches of ``batch`` from the initial state."""
    state = game.initial_state()
    done, spent, seed = 0, 0.0, 0
    while spent < seconds:
        start = time.process_time()
        playout_run(state, batch, seed=seed, batch=lanes)
        spent += time.process_time() - start
        done += batch
        seed += 1
    return done / spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sheets", nargs="*", help="rulesheet paths or names in engine/gdl/rulesheets")
    ap.add_argument("--seconds", type=float, default=1.0, help="timing per batch size and way")
    args = ap.parse_args(argv)
    paths = sheet_paths(args.sheets)
    print(f"{'rulesheet':26s} {'least':>5s} {'lanes/s':>11s} {'each/s':>10s} {'x':>6s}"
          f" {'64 lanes/s':>11s} {'64 each/s':>10s} {'x 64':>6s}")
    for path in paths:
        try:
            game = load(path.read_text(), name=path.stem[:24], bounds=Bounds(cpu_time=True))
        except LimitError as exc:
            print(f"{path.name:26s} not grounded ({exc})", flush=True)
            continue
        least = game.lanes_min_batch
        cells = []
        for batch in (least, 64):
            if batch == 0:
                cells.append(f"{'-':>11s} {'-':>10s} {'-':>6s}")
                continue
            lanes = rate(game, batch, True, args.seconds)
            each = rate(game, batch, False, args.seconds)
            cells.append(f"{lanes:11.0f} {each:10.0f} {lanes / each:6.2f}")
        print(f"{path.name:26s} {least:5d} {cells[0]} {cells[1]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

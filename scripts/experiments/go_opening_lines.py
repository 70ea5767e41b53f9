"""How often a Go bot opens on the first or second line: the first ``--moves`` moves
of ``--games`` self-play games through the GTP engine (genmove for both colours),
seeds 0..games-1 appended to the spec.

    python3 scripts/experiments/go_opening_lines.py \\
        "gobot:alg=rave,playout=7,prior=20,knowledge=1,iterations=4000,priors=3" --size 13
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout first

from protocols.gtp.engine import GtpEngine, GtpOptions  # noqa: E402

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def line_of(vertex: str, size: int) -> int:
    """1 for the first line, 2 for the second, ..."""
    col, row = COLUMNS.index(vertex[0].upper()), int(vertex[1:])
    return 1 + min(col, size - 1 - col, row - 1, size - row)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("--size", type=int, default=13)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--moves", type=int, default=8)
    args = ap.parse_args()
    low = total = 0
    for seed in range(args.games):
        engine = GtpEngine(GtpOptions(bot_spec=f"{args.spec},seed={seed}", gfx=False,
                                      resign_threshold=0.0))
        engine.handle(f"boardsize {args.size}")
        moves = []
        for i in range(args.moves):
            move = engine.handle(f"genmove {'bw'[i % 2]}").split()[1]
            moves.append(move)
            if move.lower() != "pass":
                low += line_of(move, args.size) <= 2
                total += 1
        engine.close()
        print(" ".join(moves))
    print(f"first- or second-line moves: {low} of {total}")


if __name__ == "__main__":
    main()

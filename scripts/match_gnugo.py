#!/usr/bin/env python3
"""Play a miai bot against GNU Go on 9x9 (komi 7, area scoring), colours alternated.

Every finished game is scored twice: by GNU Go's ``final_score`` (with
``--chinese-rules``, GNU Go's own dead-stone analysis) and by miai's GTP scorer (area
count with dead stones estimated from playouts); disagreements are reported.  Results
go to stdout as a table; ``--sgf DIR`` saves each game.

    python3 scripts/match_gnugo.py --bot go9 --games 100 --level 10
    python3 scripts/match_gnugo.py --bot "uct:iterations=500" --games 2   # quick check
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from tqdm import tqdm

from protocols.gtp.versus import Outcome, play_one, winner_of


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="go9", help="miai bot spec")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=10, help="GNU Go --level")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--gnugo", default="gnugo --mode gtp --chinese-rules",
                    help="GNU Go command line (without --level/--seed)")
    ap.add_argument("--sgf", type=Path, default=None, help="save games here")
    args = ap.parse_args(argv)
    cmd = f"{args.gnugo} --level {args.level}"
    outcomes: list[Outcome] = []
    bar = tqdm(range(args.games), unit="game", file=sys.stderr)
    for i in bar:
        outcomes.append(play_one(args.bot, cmd, args.size, args.komi, i, args.sgf))
        wins = sum(o.miai_won for o in outcomes)
        bar.set_postfix_str(f"miai {wins}/{len(outcomes)}")
    n = len(outcomes)
    wins = sum(o.miai_won for o in outcomes)
    rate = wins / n if n else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / n) if n else 0.0
    disagree = [o for o in outcomes
                if "R" not in o.gnugo_score and winner_of(o.gnugo_score) != winner_of(o.miai_score)]
    print("| bot | GNU Go level | games | miai wins | win rate | 95% interval | "
          "score disagreements |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {args.bot} | {args.level} | {n} | {wins} | {rate:.1%} | "
          f"±{half:.1%} | {len(disagree)} |")
    for o in disagree:
        print(f"disagreement: GNU Go {o.gnugo_score}, miai {o.miai_score} "
              f"(miai {'black' if o.miai_black else 'white'}, {o.plies} plies)")
    secs = sum(o.seconds for o in outcomes) / max(1, n)
    print(f"mean seconds per game: {secs:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

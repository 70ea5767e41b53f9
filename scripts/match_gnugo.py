#!/usr/bin/env python3
"""Play a miai bot against GNU Go on 9x9 (komi 7, area scoring), colours alternated.

Every finished game is scored twice: by GNU Go's ``final_score`` (with
``--chinese-rules``, GNU Go's own dead-stone analysis) and by miai's GTP scorer (area
count with dead stones estimated from playouts); disagreements are reported.  Results
go to stdout as a table; ``--sgf DIR`` saves each game.

    python3 scripts/match_gnugo.py --bot go9 --games 100 --level 10
    python3 scripts/match_gnugo.py --bot "uct:iterations=500" --games 2   # quick check

A long series can be split across processes and resumed: ``--first 50 --games 50`` plays
games 50-99 (game i uses seed i and miai is black in even games), ``--log FILE`` appends
one JSON line per finished game and skips the games already in it, and ``--summary
FILE...`` prints the table for the union of logs without playing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

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
    ap.add_argument("--first", type=int, default=0, help="index of the first game (its seed)")
    ap.add_argument("--log", type=Path, default=None,
                    help="append each finished game here as a JSON line; resume from it")
    ap.add_argument("--summary", type=Path, nargs="+", default=None,
                    help="print the table for these logs and exit")
    args = ap.parse_args(argv)
    if args.summary:
        logged: dict[int, Outcome] = {}
        for path in args.summary:
            logged.update(read_log(path))
        report(args.bot, args.level, [logged[i] for i in sorted(logged)])
        return 0
    cmd = f"{args.gnugo} --level {args.level}"
    done = read_log(args.log) if args.log and args.log.exists() else {}
    outcomes: list[Outcome] = [o for i, o in done.items()
                               if args.first <= i < args.first + args.games]
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    bar = tqdm(todo, unit="game", file=sys.stderr)
    for i in bar:
        outcome = play_one(args.bot, cmd, args.size, args.komi, i, args.sgf)
        outcomes.append(outcome)
        if args.log is not None:
            with args.log.open("a") as fh:
                fh.write(json.dumps({"index": i, **dataclasses.asdict(outcome)}) + "\n")
        wins = sum(o.miai_won for o in outcomes)
        bar.set_postfix_str(f"miai {wins}/{len(outcomes)}")
    report(args.bot, args.level, outcomes)
    return 0


def read_log(path: Path) -> dict[int, Outcome]:
    """Outcomes by game index from a ``--log`` file (later lines win)."""
    out: dict[int, Outcome] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            index = int(row.pop("index"))  # before Outcome(**row): no "index" field
            out[index] = Outcome(**row)
    return out


def report(bot: str, level: int, outcomes: list[Outcome]) -> None:
    n = len(outcomes)
    wins = sum(o.miai_won for o in outcomes)
    rate = wins / n if n else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / n) if n else 0.0
    disagree = [o for o in outcomes
                if "R" not in o.gnugo_score and winner_of(o.gnugo_score) != winner_of(o.miai_score)]
    print("| bot | GNU Go level | games | miai wins | win rate | 95% interval | "
          "score disagreements |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {bot} | {level} | {n} | {wins} | {rate:.1%} | "
          f"±{half:.1%} | {len(disagree)} |")
    for o in disagree:
        print(f"disagreement: GNU Go {o.gnugo_score}, miai {o.miai_score} "
              f"(miai {'black' if o.miai_black else 'white'}, {o.plies} plies)")
    secs = sum(o.seconds for o in outcomes) / max(1, n)
    print(f"mean seconds per game: {secs:.1f}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Summarise GGP match records (the JSON files ``miai gamemaster --out DIR`` writes).

Per game and player (the label the record gives each role: a local player's bot
spec, a remote player's address): matches, points (goal / 100 summed: a win 1, a
draw 0.5 in two-player zero-sum games), score, Wilson's 95% interval of the score,
and moves the game master replaced (late or illegal).  A row ``all`` sums the games.

    python3 scripts/ggp_summary.py results/ggp-c4 results/ggp-bt
    python3 scripts/ggp_summary.py results/ggp-* --player uct:c=0.4
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from bots.report import score_interval  # noqa: E402
from protocols.ggp.gamemaster import MatchRecord, load  # noqa: E402


@dataclass
class Row:
    matches: int = 0
    points: float = 0.0
    replaced: int = 0

    def add(self, goal: int, replaced: int) -> None:
        self.matches += 1
        self.points += goal / 100.0
        self.replaced += replaced


def records_in(paths: list[Path]) -> list[MatchRecord]:
    files = sorted(f for p in paths for f in ([p] if p.is_file() else p.glob("*.json")))
    return [load(f) for f in files]


def table(records: list[MatchRecord], player: str | None = None) -> dict[tuple[str, str], Row]:
    rows: dict[tuple[str, str], Row] = {}
    for rec in records:
        names = rec.labels if len(rec.labels) == len(rec.players) else rec.players
        for r, name in enumerate(names):
            if player is not None and name != player:
                continue
            goal = rec.goals[r] if r < len(rec.goals) else 0
            replaced = sum(1 for joint in rec.moves if joint[r].replaced)
            for game in (rec.game, "all"):
                rows.setdefault((name, game), Row()).add(goal, replaced)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path, help="record folders or files")
    ap.add_argument("--player", default=None, help="only this label")
    args = ap.parse_args(argv)
    records = records_in(args.paths)
    if not records:
        print("no records found", file=sys.stderr)
        return 1
    print(f"{'player':<28s} {'game':<16s} {'matches':>7s} {'points':>7s} {'score':>6s} "
          f"{'95% interval':>15s} {'replaced':>8s}")
    for (name, game), row in sorted(table(records, args.player).items()):
        score = row.points / row.matches
        lo, hi = score_interval(score, row.matches)
        print(f"{name:<28s} {game:<16s} {row.matches:>7d} {row.points:>7.1f} "
              f"{100 * score:>5.1f}% [{100 * lo:>5.1f}%, {100 * hi:>5.1f}%] "
              f"{row.replaced:>8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

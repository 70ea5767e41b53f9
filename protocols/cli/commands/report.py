"""``miai report RESULTS.db``: tables per pairing, Elo, and a Markdown report with
plots (score against a bot parameter, 95% error bars)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.errors import InvalidArgumentError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="tables, Elo and plots from a tournament results file")
    p.add_argument("db", metavar="RESULTS.db", help="a results file of miai tournament or "
                   "miai experiment, plain or xz-compressed (RESULTS.db.xz)")
    p.add_argument("--run", dest="runs", action="append",
                   help="only this run (repeatable; default all)")
    p.add_argument("--out", metavar="DIR", help="where report.md and the PNGs go (default: "
                   "RESULTS-report/ next to the results file)")
    p.add_argument("--x", help="bot parameter on the plots' x axis (default: the one that "
                   "varies most, or the experiment's [plot] x)")
    p.add_argument("--series", help="bot parameter separating the plots' lines")
    p.add_argument("--no-files", action="store_true", help="print the tables only")
    p.set_defaults(run=run)


def default_out(db: Path) -> Path:
    """RESULTS-report/ next to RESULTS.db or RESULTS.db.xz."""
    from bots.tournament.store import results_stem

    return db.with_name(results_stem(db) + "-report")


def run(args: argparse.Namespace) -> int:
    from bots.tournament.report import format_text, summarise, write_report
    from bots.tournament.store import open_results

    db = Path(args.db)
    with open_results(db) as store:
        runs = args.runs or store.runs()
        if not runs:
            raise InvalidArgumentError(f"{db} holds no runs")
        for k, name in enumerate(runs):
            if k:
                print()
            print(format_text(summarise(store, name)))
        if not args.no_files:
            out = Path(args.out) if args.out else default_out(db)
            path = write_report(store, out, runs, x=args.x, series=args.series,
                                warn=warn)
            print(f"\nreport: {path}")
    return 0


def warn(message: str) -> None:
    """One line on stderr (e.g. how to get the plots that were left out)."""
    print(f"miai: {message}", file=sys.stderr)

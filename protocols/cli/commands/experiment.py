"""``miai experiment FILE.toml``: run one of the papers' experiments (a tournament
described in a file, see scripts/experiments/) and write its report."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import InvalidArgumentError
from protocols.cli.commands.report import warn
from protocols.cli.commands.tournament import (
    add_execution_args,
    check_execution_args,
    print_outcome,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("experiment", help="run an experiment file (scripts/experiments/*.toml)"
                       " and report it")
    p.add_argument("file", help="the experiment, e.g. scripts/experiments/ucd_hex.toml")
    p.add_argument("--games", type=int, help="games per pairing (replaces the file's; a "
                   "larger number extends a stored run)")
    p.add_argument("--scale", help="use the file's [scale.NAME] budget, e.g. tiny (CI)")
    p.add_argument("--db", help="results file (default results/<experiment>.db)")
    p.add_argument("--out", help="report directory (default results/<experiment>-report)")
    p.add_argument("--no-report", action="store_true", help="play only")
    p.add_argument("--dry-run", action="store_true",
                   help="check the file and list the pairings; play nothing")
    add_execution_args(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bots.tournament import driver, schedule
    from bots.tournament.experiment import load
    from bots.tournament.report import format_text, summarise, write_report
    from bots.tournament.store import Store
    from engine import games

    check_execution_args(args)
    if args.games is not None and args.games < 1:
        raise InvalidArgumentError("--games must be at least 1")
    exp = load(args.file, scale=args.scale, games=args.games)
    stem = Path(args.file).stem + (f"-{args.scale}" if args.scale else "")
    db = Path(args.db) if args.db else Path("results") / f"{stem}.db"
    if args.dry_run:
        game = driver.check_players(exp.spec)
        pairs = schedule.pairings(exp.spec, game.n_roles)
        print(f"{exp.name}: {exp.spec.game}, {len(pairs)} pairings x {exp.spec.games} games")
        for pair in pairs:
            print("  " + " vs ".join(exp.spec.label_of(s) for s in pair))
        return 0
    games.create_from_spec(exp.spec.game)
    with Store(db) as store:
        outcome = driver.execute(store, exp.name, exp.spec, workers=args.workers,
                                 cluster=args.cluster, quiet=args.quiet)
        print_outcome(outcome, str(db))
        if not args.no_report and store.count(exp.name):
            print(format_text(summarise(store, exp.name)))
            out = Path(args.out) if args.out else db.with_name(f"{stem}-report")
            print(f"report: {write_report(store, out, [exp.name], warn=warn)}")
    return 130 if outcome.interrupted else 0

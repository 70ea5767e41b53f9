"""``miai tournament``: a round robin, gauntlet or one-player series between bot specs,
every finished game stored at once in an SQLite results file (resumable, extendable)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

from engine.errors import InvalidArgumentError

if TYPE_CHECKING:
    from bots.tournament.driver import Outcome

EPILOG = """Every game is stored in RESULTS.db the moment it ends; run the same command
again to resume an interrupted run, or with a larger --games (or more --players) to
extend it.  Games depend only on the run's settings, the pairing and the game's index,
so --workers and --cluster change the speed, not the games (time budgets aside).
Read the results with: miai report RESULTS.db
examples:
  miai tournament tictactoe --players mc:playouts=20 mc:playouts=80 random --games 50 \\
      --db ttt.db --workers 2
  miai tournament connect4 --gauntlet --players uct auct:k=3 duct:k=3 --games 100 \\
      --iterations 5000 --db c4.db --cluster tcp://10.0.0.5:8786
  miai tournament leftright --players uct ucd:d1=inf,d2=0,d3=1 --games 20 --iterations 100 \\
      --db lr.db"""


def add_execution_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, default=1,
                   help="local worker processes (default 1: play in this process); with "
                   "--cluster local, the LocalCluster's size")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on a Dask cluster: its scheduler address (tcp://host:8786), "
                   "or 'local' for a LocalCluster of --workers processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="round robin / gauntlet between bots, stored in "
                       "an SQLite file", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="game spec, e.g. connect4 or hex:size=5")
    p.add_argument("--players", nargs="+", required=True, metavar="SPEC",
                   help="bot specs (see miai bots); in a gauntlet the first is the baseline")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--round-robin", dest="format", action="store_const",
                     const="round-robin", help="every pair of players (the default)")
    fmt.add_argument("--gauntlet", dest="format", action="store_const", const="gauntlet",
                     help="every other player against the first")
    p.add_argument("--games", type=int, required=True,
                   help="games per pairing (per player in a one-player game)")
    p.add_argument("--iterations", type=int, help="per-move iterations for every bot with "
                   "a budget (replaces the specs' budgets)")
    p.add_argument("--seconds", type=float, help="per-move seconds for every bot with a "
                   "budget (replaces the specs' budgets)")
    p.add_argument("--seed", type=int, default=0, help="base seed of the run (default 0)")
    p.add_argument("--opening", nargs="+", metavar="MOVE", default=None,
                   help="moves played before every game (e.g. b2)")
    p.add_argument("--db", required=True, metavar="RESULTS.db", help="the results file")
    p.add_argument("--run", dest="run_name",
                   help="the run's name in the results file (default: the game spec)")
    add_execution_args(p)
    p.set_defaults(run=run, format=None)


def check_execution_args(args: argparse.Namespace) -> None:
    if args.workers < 1:
        raise InvalidArgumentError("--workers must be at least 1")


def run(args: argparse.Namespace) -> int:
    from bots.tournament import driver
    from bots.tournament.schedule import RunSpec, canonical_spec, make_players
    from bots.tournament.store import Store
    from engine import games

    check_execution_args(args)
    if args.iterations is not None and args.iterations < 1:
        raise InvalidArgumentError("--iterations must be at least 1")
    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise InvalidArgumentError("--seconds must be a positive number")
    if args.iterations is not None and args.seconds is not None:
        raise InvalidArgumentError("give --iterations or --seconds, not both")
    game = games.create_from_spec(args.game)
    fmt = "series" if game.n_roles == 1 else (args.format or "round-robin")
    spec = RunSpec(
        game=game.spec,
        players=make_players(args.players),
        format=fmt,
        games=args.games,
        iterations=args.iterations,
        seconds=args.seconds,
        seed=args.seed,
        openings=(tuple(args.opening),) if args.opening else (),
        baseline=canonical_spec(args.players[0]) if fmt == "gauntlet" else None,
    )
    with Store(args.db) as store:
        outcome = driver.execute(store, args.run_name or game.spec, spec, workers=args.workers,
                                 cluster=args.cluster, quiet=args.quiet)
    print_outcome(outcome, args.db)
    return 130 if outcome.interrupted else 0


def print_outcome(o: Outcome, db: str) -> None:
    print(f"{o.stored} games played and stored in {o.seconds:.1f} s; "
          f"{o.done}/{o.total} games of the run in {db}")
    if o.interrupted:
        print("interrupted: run the same command again to resume", file=sys.stderr)
    print(f"results: miai report {db}")

"""``miai gamemaster``: run GGP matches between HTTP players and print the results.

Players are given by address (``--player http://host:port/``, one per role, in role
order).  Roles left without an address are filled by players started in this
process on loopback: our own player (``--bot``) for the first free role, random
players for the others.  ``--matches N`` plays a series, rotating the seats; each
finished match is saved as JSON in ``--out`` at once, and ``--resume`` skips the
matches already saved there, so an interrupted series continues with the same
command (``scripts/ggp_summary.py DIR`` summarises the records).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gamemaster", help="run GGP matches between HTTP players")
    p.add_argument("game", help="a .kif file, or the name of a game in engine/gdl/rulesheets")
    p.add_argument("--player", action="append", default=[], metavar="URL",
                   help="a player's address, once per role in role order")
    p.add_argument("--bot", default="uct:c=0.4", metavar="SPEC",
                   help="our own player's spec when it fills a role (default uct:c=0.4)")
    p.add_argument("--opponent", default="random", metavar="SPEC",
                   help="the spec of the other local players (default random)")
    p.add_argument("--start-clock", type=int, default=10)
    p.add_argument("--play-clock", type=int, default=5)
    p.add_argument("--matches", type=int, default=1)
    p.add_argument("--grace", type=float, default=1.0,
                   help="seconds after the play clock before a move counts as late")
    p.add_argument("--out", type=Path, default=Path("matches"),
                   help="folder for the JSON records (default ./matches)")
    p.add_argument("--no-ponder", action="store_true",
                   help="local players do not search on the opponents' time (fair "
                        "comparisons on a shared machine)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resume", action="store_true",
                   help="skip the matches whose record is already in --out")
    p.add_argument("--ground-atoms", type=int, default=None, metavar="N",
                   help="grounding bound of our player (e.g. 1: play on the prover)")
    p.add_argument("--prover-iterations", type=int, default=None, metavar="N",
                   help="our player's prover search: iterations per position")
    p.set_defaults(run=run)


def find_rules(game: str) -> tuple[str, str]:
    """(name, rules text) of a game given as a path or a packaged game's name."""
    from engine.errors import InvalidArgumentError
    from engine.gdl.sheets import PACKAGED, sheet_path

    path = sheet_path(game)
    if not path.is_file():
        raise InvalidArgumentError(f"no game {game!r} (not a file, not in {PACKAGED})")
    return path.stem, path.read_text()


def run(args: argparse.Namespace) -> int:
    import asyncio

    from engine.errors import InvalidArgumentError
    from protocols.ggp.local import run_series

    if args.matches < 1 or args.start_clock < 1 or args.play_clock < 1:
        raise InvalidArgumentError("matches and clocks must be at least 1")
    name, rules = find_rules(args.game)
    records = asyncio.run(run_series(
        name, rules, args.player, matches=args.matches, start_clock=args.start_clock,
        play_clock=args.play_clock, grace=args.grace, bot=args.bot, opponent=args.opponent,
        seed=args.seed, out=args.out, ponder=not args.no_ponder, resume=args.resume,
        ground_atoms=args.ground_atoms, prover_iterations=args.prover_iterations,
        echo=print))
    return 0 if records else 1

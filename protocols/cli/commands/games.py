"""``miai games``: list the games and their parameters; ``miai perft``; ``miai playouts``."""

from __future__ import annotations

import argparse
import time

from engine import games
from engine.playouts import playout_run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the games and their parameters")
    p.set_defaults(run=run_games)

    p = sub.add_parser("perft", help="count the leaves at each depth from the start")
    p.add_argument("game", help="game spec, e.g. othello or hex:size=5")
    p.add_argument("--depth", type=int, default=4)
    p.set_defaults(run=run_perft)

    p = sub.add_parser("playouts", help="random playouts from the start, in C")
    p.add_argument("game", help="game spec, e.g. connect4")
    p.add_argument("-n", type=int, default=10000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_playouts)


def run_games(args: argparse.Namespace) -> int:
    for name, info in sorted(games.available().items()):
        params = ", ".join(
            f"{p.name}={p.default:g} [{p.minimum:g}..{p.maximum:g}]" for p in info.params
        )
        print(f"{name:14s} {params}")
    return 0


def run_perft(args: argparse.Namespace) -> int:
    from engine.perft import perft

    state = games.create_from_spec(args.game).initial_state()
    for d in range(1, args.depth + 1):
        t = time.perf_counter()
        n = perft(state, d)
        print(f"depth {d:2d}: {n:14d}   ({time.perf_counter() - t:.2f} s)")
    return 0


def run_playouts(args: argparse.Namespace) -> int:
    state = games.create_from_spec(args.game).initial_state()
    t = time.perf_counter()
    run = playout_run(state, args.n, args.seed)
    dt = time.perf_counter() - t
    means = " ".join(f"{r:.4f}" for r in run.mean_rewards)
    print(f"{args.n} playouts in {dt:.3f} s ({args.n / dt:,.0f}/s), "
          f"{run.plies / max(1, args.n):.1f} plies each; mean rewards {means}")
    return 0

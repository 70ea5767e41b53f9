"""``miai analyse``: search a position and print the report (per root move visits,
mean and 95% interval; the principal variation; iterations, nodes, time)."""

from __future__ import annotations

import argparse

from engine import games
from engine.errors import GameOverError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="search a position and print the search report")
    p.add_argument("game", help="game spec, e.g. connect4")
    p.add_argument("--moves", nargs="*", default=[], metavar="MOVE",
                   help="moves from the start (a simultaneous ply: moves joined by '+')")
    p.add_argument("--bot", default="uct", metavar="SPEC",
                   help="the analysing bot (default uct), e.g. uct:c=0.5 or mc")
    p.add_argument("--role", type=int,
                   help="the role to analyse at simultaneous states (default 0)")
    p.add_argument("--iterations", type=int, help="iterations (replaces the spec's budget)")
    p.add_argument("--seconds", type=float, help="seconds (replaces the spec's budget)")
    p.add_argument("--seed", type=int, default=0, help="seed if the spec has none")
    p.add_argument("--top", type=int, default=20, help="root moves to list (default 20)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bots import make_bot, with_budget
    from bots.match import replay
    from bots.report import format_report

    game = games.create_from_spec(args.game)
    state = replay(game, args.moves)
    if state.is_terminal():
        rewards = " ".join(f"{r:g}" for r in state.rewards())
        raise GameOverError(f"the game is over after these moves (rewards {rewards})")
    spec = with_budget(args.bot, iterations=args.iterations, seconds=args.seconds)
    bot = make_bot(spec, game, seed=args.seed % 2**64)
    try:
        bot.reset(game)
        simultaneous = state.to_move == games.SIMULTANEOUS
        role = (args.role or 0) if simultaneous else state.to_move
        move = bot.choose(state, role)
        report = bot.last_report
    finally:
        bot.close()
    print(f"{game.spec} after {len(args.moves)} moves; bot {bot.spec}")
    print(state.render())
    if report is None:
        print(f"{bot.name} gives no search report; it plays {state.format_move(move, role)}")
    else:
        print(format_report(report, limit=max(1, args.top)))
    return 0

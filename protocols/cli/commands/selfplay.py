"""``miai selfplay``: a match between bots, with a progress bar and the final score."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from engine import games
from engine.errors import InvalidArgumentError

MAX_PLAYERS = 8  # MIAI_MAX_ROLES

BOT_HELP = """bot specs: NAME or NAME:key=value,key=value
  random                  uniformly random moves (seed=)
  mc                      flat Monte-Carlo (playouts=, iterations=, seconds=, seed=)
  uct, ... (any search)   iterations=, seconds=, nodes=, seed=, mode=dag|tree, reuse=1|0,
                          and the algorithm's own keys, e.g. uct:c=0.5,final=visits
see docs/cli.md"""


def register(sub: argparse._SubParsersAction) -> None:
    b = sub.add_parser("bots", help="list the bots and how to write a bot spec")
    b.set_defaults(run=run_bots)

    p = sub.add_parser(
        "selfplay", help="play a match between bots and print the score",
        epilog=BOT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="game spec, e.g. connect4 or hex:size=7")
    for i in range(1, MAX_PLAYERS + 1):
        p.add_argument(f"--player{i}", metavar="SPEC", help=f"bot of player {i}"
                       if i > 2 else f"bot of player {i} (role {i - 1} in the first game)")
    p.add_argument("--players", nargs="+", metavar="SPEC",
                   help="all players at once (instead of --player1 ...)")
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--iterations", type=int, help="per-move iterations for every bot "
                   "with a budget (replaces the specs' budgets)")
    p.add_argument("--seconds", type=float, help="per-move seconds for every bot with a "
                   "budget (replaces the specs' budgets)")
    p.add_argument("--seed", type=int, default=0,
                   help="base seed of the bots whose spec has no seed (default 0)")
    p.add_argument("--show", action="store_true", help="print every move and the board")
    p.add_argument("--record", metavar="FILE",
                   help="write every game as one JSON line to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run_bots(args: argparse.Namespace) -> int:
    from bots.registry import describe

    for name, summary in describe():
        print(f"{name:10s} {summary}")
    try:
        import engine.search  # noqa: F401
    except ImportError:
        print("(search algorithms: unavailable, engine.search is not built)")
    else:
        print("any search algorithm of engine.search, e.g. uct:c=0.5,iterations=2000")
    print()
    print(BOT_HELP)
    return 0


def player_specs(args: argparse.Namespace, n_roles: int) -> list[str]:
    numbered = [getattr(args, f"player{i}") for i in range(1, MAX_PLAYERS + 1)]
    given = [s for s in numbered if s is not None]
    if args.players and given:
        raise InvalidArgumentError("give either --players or --player1 ..., not both")
    specs = list(args.players) if args.players else numbered[:n_roles]
    if len(specs) != n_roles or any(s is None for s in specs) or (
        not args.players and len(given) != n_roles
    ):
        raise InvalidArgumentError(
            f"this game has {n_roles} roles: give --player1 ... --player{n_roles} "
            f"(or --players with {n_roles} specs)"
        )
    return [str(s) for s in specs]


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from bots.match import GameRecord, MatchResult, PlyRecord, make_players, play_match, seats_for

    game = games.create_from_spec(args.game)
    specs = player_specs(args, game.n_roles)
    if args.games < 1:
        raise InvalidArgumentError("--games must be at least 1")
    if args.iterations is not None and args.iterations < 1:
        raise InvalidArgumentError("--iterations must be at least 1")
    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise InvalidArgumentError("--seconds must be a positive number")
    bots = make_players(game, specs, seed=args.seed, iterations=args.iterations,
                        seconds=args.seconds)

    try:
        record_file = open(args.record, "w") if args.record else None  # noqa: SIM115
    except OSError as exc:
        raise InvalidArgumentError(f"--record {args.record}: {exc.strerror}") from None
    bar = tqdm(total=args.games, desc=f"selfplay {game.spec}", unit="game",
               file=sys.stderr, disable=args.quiet or args.show, leave=False)

    progress = {"games_done": 0, "game_shown": -1}

    def on_ply(state: games.State, ply: PlyRecord) -> None:
        if not args.show:
            return
        g = progress["games_done"]
        if progress["game_shown"] != g:
            progress["game_shown"] = g
            seats = seats_for(g, game.n_roles)
            who = ", ".join(f"role {r}: {bots[p].spec}" for r, p in enumerate(seats))
            print(f"game {g + 1}: {who}")
            print(game.initial_state().render())
        moves = ", ".join(f"role {r} {m}" for r, m in zip(ply.roles, ply.moves, strict=True))
        its = sum(ply.iterations)
        info = f"  ({its} iterations, {sum(ply.seconds):.3f} s)" if its else ""
        print(f"ply {ply.ply + 1}: {moves}{info}")
        print(state.render())

    def on_game(index: int, record: GameRecord, result: MatchResult) -> None:
        progress["games_done"] = index + 1
        if record_file is not None:
            record_file.write(json.dumps(record.to_dict()) + "\n")
            record_file.flush()
        if args.show:
            rewards = " ".join(f"{r:g}" for r in record.rewards)
            print(f"game {index + 1} over: rewards {rewards}\n")
        bar.set_postfix_str(" ".join(f"p{i + 1}={p.score:g}"
                                     for i, p in enumerate(result.players)),
                           refresh=False)
        bar.update(1)

    t0 = time.perf_counter()
    try:
        result = play_match(game, bots, args.games, on_game=on_game, on_ply=on_ply)
    finally:
        bar.close()
        if record_file is not None:
            record_file.close()
    print(format_result(result, time.perf_counter() - t0))
    return 0


def elo_difference(score: float) -> float:
    """Elo difference implied by a mean score (logistic Elo model:
    E = 1 / (1 + 10^(-D/400)), solved for D); +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def format_result(result: Any, seconds: float) -> str:
    n_games = len(result.records)
    lines = [f"{result.game}: {n_games} game{'s' if n_games != 1 else ''} "
             f"in {seconds:.2f} s; score = sum of rewards (a draw is 1/2)"]
    lines.append(f"{'player':8s} {'score':>7s} {'W':>4s} {'D':>4s} {'L':>4s} "
                 f"{'mean':>6s} {'95% CI':>15s} {'it/move':>9s} {'s/move':>7s}  spec")
    for i, p in enumerate(result.players):
        low, high = p.interval()
        it_per_move = p.iterations / p.moves if p.moves else 0.0
        s_per_move = p.seconds / p.moves if p.moves else 0.0
        lines.append(
            f"player{i + 1:<2d} {p.score:7.1f} {p.wins:4d} {p.draws:4d} {p.losses:4d} "
            f"{p.mean:6.3f} [{low:5.3f}, {high:5.3f}] {it_per_move:9.0f} {s_per_move:7.3f}"
            f"  {p.spec}"
        )
    if len(result.players) == 2:
        p = result.players[0]
        low, high = p.interval()
        lines.append(
            f"player1 - player2: {_elo_text(elo_difference(p.mean))} Elo "
            f"(95% CI {_elo_text(elo_difference(low))} .. {_elo_text(elo_difference(high))})"
        )
    return "\n".join(lines)


def _elo_text(d: float) -> str:
    return f"{d:+.0f}" if math.isfinite(d) else ("+inf" if d > 0 else "-inf")

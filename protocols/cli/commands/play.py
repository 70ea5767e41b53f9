"""``miai play``: a person against a bot in the terminal.

Reads one move per prompt from standard input.  Bad input prints a message and asks
again; ``help`` lists the legal moves; ``quit`` or end of input ends the game.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from engine import games
from engine.errors import InvalidArgumentError, MiaiError

QUIT = {"quit", "exit", "q", "resign"}
HELP = {"help", "?", "moves"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against a bot in the terminal")
    p.add_argument("game", help="game spec, e.g. tictactoe or hex:size=7")
    p.add_argument("--bot", default="uct", metavar="SPEC",
                   help="the bot's spec (default uct), e.g. uct:c=0.5,iterations=5000")
    p.add_argument("--human-role", type=int, default=0, metavar="ROLE",
                   help="the role you play (0 moves first; default 0)")
    p.add_argument("--iterations", type=int, help="the bot's per-move iterations")
    p.add_argument("--seconds", type=float, help="the bot's per-move seconds")
    p.add_argument("--seed", type=int, default=0, help="the bot's seed if its spec has none")
    p.add_argument("--moves", nargs="*", default=[], metavar="MOVE",
                   help="moves played before the game starts")
    p.set_defaults(run=run)


class _Quit(Exception):
    pass


def run(args: argparse.Namespace, read: Callable[[str], str] = input) -> int:
    from bots import make_bot, with_budget
    from bots.match import replay

    game = games.create_from_spec(args.game)
    human = args.human_role
    if not 0 <= human < game.n_roles:
        raise InvalidArgumentError(f"--human-role must be in [0, {game.n_roles})")
    spec = with_budget(args.bot, iterations=args.iterations, seconds=args.seconds)
    bots = {
        role: make_bot(spec, game, seed=(args.seed + 1_000_003 * role) % 2**64)
        for role in range(game.n_roles) if role != human
    }
    for bot in bots.values():
        bot.reset(game)
    state = replay(game, args.moves)
    print(f"{game.spec}: you are role {human}; bot: {spec.text}. "
          "Type a move, 'help' for the legal moves, 'quit' to stop.")
    try:
        while not state.is_terminal():
            print(state.render())
            tm = state.to_move
            joint = tm == games.SIMULTANEOUS
            movers = range(game.n_roles) if joint else [tm]
            chosen = []
            for role in movers:
                if role == human:
                    move = _ask(state, human, read)
                else:
                    move = bots[role].choose(state, role)
                    report = bots[role].last_report
                    info = (f"  ({report.iterations} iterations, its value "
                            f"{report.root_value:.2f})" if report is not None else "")
                    print(f"role {role} ({bots[role].name}) plays "
                          f"{state.format_move(move, role)}{info}")
                chosen.append(move)
            before = state.copy()
            played = chosen if joint else chosen[0]
            if joint:
                state.play_joint(chosen)
            else:
                state.play(played)
            for bot in bots.values():
                bot.observe(before, played)
    except _Quit:
        print("game abandoned")
        return 0
    finally:
        for bot in bots.values():
            bot.close()
    print(state.render())
    rewards = state.rewards()
    best = max(rewards)
    verdict = ("you win" if rewards[human] == best and rewards.count(best) == 1
               else "draw" if rewards[human] == best else "you lose")
    print(f"game over: {verdict} (rewards {' '.join(f'{r:g}' for r in rewards)})")
    return 0


def _ask(state: games.State, role: int, read: Callable[[str], str]) -> int:
    legal = state.legal_moves(role)
    while True:
        try:
            text = read(f"your move (role {role})> ").strip()
        except EOFError:
            print()
            raise _Quit() from None
        if not text:
            continue
        if text.lower() in QUIT:
            raise _Quit()
        if text.lower() in HELP:
            print("legal moves: " + " ".join(state.format_move(m, role) for m in legal))
            continue
        try:
            move = state.parse_move(text, role)
        except MiaiError:
            print(f"{text!r} is not a move of {state.game.name}; 'help' lists the legal moves")
            continue
        if move not in legal:
            print(f"{text} is not legal here; 'help' lists the legal moves")
            continue
        return move

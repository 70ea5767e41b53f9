"""``miai gtp``: a GTP version 2 engine on stdin/stdout (GoGui, Sabaki, gomill, ...)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gtp", help="play Go over GTP on stdin/stdout")
    p.add_argument("--bot", default=None, help="bot spec (default: the strongest Go preset)")
    p.add_argument("--resign", type=float, default=0.1,
                   help="resign when the win rate falls below this (default 0.1)")
    p.add_argument("--no-resign", action="store_true", help="never resign")
    p.add_argument("--no-gfx", action="store_true", help="no live gogui-gfx output on stderr")
    p.add_argument("--seconds", type=float, default=None,
                   help="seconds per move when the controller sets no time (default: the "
                        "bot's own budget)")
    p.add_argument("--ponder", action="store_true",
                   help="keep searching on the opponent's time (search bots)")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="search threads (default: all cores; search bots with uct, rave, "
                        "uctstar or mctsstar, docs/search.md)")
    p.add_argument("--log-level", default="WARNING", help="stderr log level")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from protocols.gtp.engine import GtpOptions
    from protocols.gtp.server import configure_logging, serve

    configure_logging(args.log_level)
    options = GtpOptions(
        resign_threshold=0.0 if args.no_resign else args.resign,
        gfx=not args.no_gfx,
        default_seconds=args.seconds,
        ponder=args.ponder,
    )
    if args.bot:
        options.bot_spec = args.bot
    options.bot_spec = threaded_spec(options.bot_spec, args.threads)
    return serve(options)


def threaded_spec(spec: str, threads: int | None) -> str:
    """``spec`` with ``threads=`` (``--threads N``, or all cores where the bot can use
    them); an explicit N that the bot cannot take is refused when the bot is made."""
    import os

    from bots.registry import with_threads
    from engine import games

    if spec.strip().startswith("gtp:"):
        return spec
    if threads is not None:
        if threads < 1:
            raise SystemExit(f"miai gtp: --threads must be >= 1, not {threads}")
        return with_threads(spec, threads).text
    return with_threads(spec, os.cpu_count() or 1, games.create("go")).text

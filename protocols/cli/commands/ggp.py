"""``miai ggp``: serve as a General Game Playing player over HTTP (see docs/ggp.md)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ggp", help="play General Game Playing matches over HTTP")
    p.add_argument("--port", type=int, default=9147,
                   help="TCP port (default 9147; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; 0.0.0.0 for a public game "
                        "master)")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="search algorithm or bot, e.g. uct:c=0.4, ucd:c=0.4,d1=2,d2=1,d3=2, "
                        "ggp-ucd, mc, random (default uct:c=0.4)")
    p.add_argument("--name", default="miai", help="the name the info reply gives")
    p.add_argument("--margin", type=float, default=None,
                   help="seconds kept back from every clock (default 0.6)")
    p.add_argument("--no-ponder", action="store_true",
                   help="do not search on the opponents' time")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ground-seconds", type=float, default=None, metavar="S",
                   help="time bound of grounding before the prover is used (default: "
                        "the larger of 30 s and start clock + 10 play clocks)")
    p.add_argument("--ground-atoms", type=int, default=None, metavar="N",
                   help="atom bound of grounding (default 400000; 1 forces the prover)")
    p.add_argument("--ground-memory", type=int, default=None, metavar="BYTES",
                   help="memory budget of the grounding child process (default: a "
                        "quarter of the machine's memory); past it the prover plays")
    p.add_argument("--prover-iterations", type=int, default=None, metavar="N",
                   help="prover search: answer after N iterations per position "
                        "(default: search until the deadline)")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="search threads on a propnet (default: all cores, for uct, rave, "
                        "uctstar, mctsstar, the solver and MAST, so the default ggp "
                        "preset; ucd, auct and duct search with one)")
    p.add_argument("-v", "--verbose", action="store_true", help="log every request")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from protocols.ggp.player import DEFAULT_BOT, GgpPlayer, PlayerConfig
    from protocols.ggp.server import bound_port, make_app, serve

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = PlayerConfig(bot=args.bot or DEFAULT_BOT, name=args.name, seed=args.seed,
                          ponder=not args.no_ponder, ground_seconds=args.ground_seconds,
                          ground_atoms=args.ground_atoms,
                          ground_memory=args.ground_memory,
                          prover_iterations=args.prover_iterations)
    if args.margin is not None:
        config.margin = args.margin
    if args.threads is not None and args.threads < 1:
        raise SystemExit(f"miai ggp: --threads must be >= 1, not {args.threads}")
    import os

    config.threads = args.threads if args.threads is not None else (os.cpu_count() or 1)
    player = GgpPlayer(config)

    async def main() -> None:
        runner = await serve(make_app(player), args.host, args.port)
        port = bound_port(runner)
        print(f"miai ggp: {config.name} ({player.spec}) on http://{args.host}:{port}/",
              flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    return 0

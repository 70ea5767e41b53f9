"""``miai gdl FILE``: check a GDL rulesheet, ground it and report the propnet, and
optionally time random playouts with it (or with the prover when it cannot be
grounded within the bound)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gdl", help="check and ground a GDL rulesheet; time playouts")
    p.add_argument("file", help="a .kif rulesheet")
    p.add_argument("-n", type=int, default=0, help="random playouts to time (0: none)")
    p.add_argument("--ground-seconds", type=float, default=30.0, help="grounding bound")
    p.set_defaults(run=run_gdl)


def run_gdl(args: argparse.Namespace) -> int:
    from engine.gdl.checks import load_program
    from engine.gdl.game import GdlGame, load_for_play
    from engine.gdl.ground import Bounds
    from engine.playouts import playout_run

    text = Path(args.file).read_text()
    program = load_program(text)
    print(f"{args.file}: {len(program.rules)} rules, roles "
          f"{' '.join(str(r) for r in program.roles)}: checks passed")
    game = load_for_play(text, Path(args.file).stem[:24],
                         bounds=Bounds(time_limit=args.ground_seconds))
    if not isinstance(game, GdlGame):
        print(f"not grounded ({game.fallback_reason}): the reference prover plays it")
        return 0
    st = game.info.stats
    n_split = st["split_rules"]
    split = (f" ({n_split} rule{'s' if n_split != 1 else ''} decomposed"
             + (", the joint move split off too" if st["moves_split"] else "") + ")"
             if n_split else "")
    groups, guarded = game.family_groups
    followed = (f", followed through {groups} groups into {guarded} ANDs" if groups
                else ", not followed")
    families = (f"; mutex families: {st['families']} of bases, {st['gate_families']} of "
                f"gates{followed}" if st["families"] or st["gate_families"] else "")
    print(f"grounded in {game.info.ground_seconds:.2f} s: {st['atoms']} atoms, "
          f"{st['ground_rules']} ground rules{split}; propnet {st['nodes']} nodes, "
          f"{st['edges']} edges, {st['cycles']} cycles; {len(game.bases)} base "
          f"propositions; moves per role {[len(m) for m in game.moves]}{families}; "
          f"playouts by the {game.playout_engine!r} engine")
    if args.n > 0:
        t = time.perf_counter()
        run = playout_run(game.initial_state(), args.n, 0)
        dt = time.perf_counter() - t
        print(f"{args.n} playouts in {dt:.3f} s ({args.n / dt:,.0f}/s), "
              f"{run.plies / args.n:.1f} plies each; mean rewards "
              + " ".join(f"{r:.3f}" for r in run.mean_rewards))
    return 0

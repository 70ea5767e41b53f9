"""``miai gdl FILE``: check a GDL rulesheet, ground it and report the propnet, and
optionally time random playouts with it (or with the prover when it cannot be
grounded within the bound)."""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

MAX_SHEET_BYTES = 8 * 1024 * 1024  # = protocols.ggp.server.MAX_BODY


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gdl", help="check and ground a GDL rulesheet; time playouts")
    p.add_argument("file", help="a .kif rulesheet")
    p.add_argument("-n", type=int, default=0, help="random playouts to time (0: none)")
    p.add_argument("--ground-seconds", type=float, default=30.0,
                   help="time budget of the grounding, every phase (default 30)")
    p.add_argument("--prover-seconds", type=float, default=30.0,
                   help="time budget of the prover's first position when the sheet does "
                        "not ground (default 30)")
    p.add_argument("--max-memory", type=int, default=None, metavar="BYTES",
                   help="memory budget of the grounding and of the prover (default a "
                        "quarter of the machine's memory, as `miai ggp --ground-memory`)")
    p.add_argument("--max-bytes", type=int, default=MAX_SHEET_BYTES, metavar="N",
                   help="refuse a larger file at once (default 8 MiB, the largest body "
                        "`miai ggp` takes; the largest GGP sheets are ~1 MB, and checking "
                        "a sheet of millions of sentences takes minutes)")
    p.set_defaults(run=run_gdl)


def read_sheet(path: str, max_bytes: int | None = None) -> str:
    """The text of a rulesheet file; a one-line MiaiError naming the file (and the
    line and column of a byte that is not UTF-8) when it cannot be read as one, or
    when it is over ``max_bytes`` (default: what MAX_TEXT characters may take)."""
    from engine.errors import InvalidArgumentError, LimitError, ParseError
    from engine.gdl.parser import MAX_TEXT

    most = 4 * MAX_TEXT  # bytes: past this the text is over MAX_TEXT characters
    if max_bytes is not None:
        most = min(most, max_bytes)
    try:
        if Path(path).is_dir():
            raise InvalidArgumentError(f"{path}: is a directory, not a rulesheet")
        if Path(path).exists() and not Path(path).is_file():  # a pipe would block
            raise InvalidArgumentError(f"{path}: not a regular file (a pipe or a "
                                       "device), not a rulesheet")
        with open(path, "rb") as f:
            data = f.read(most + 1)
    except FileNotFoundError:
        raise InvalidArgumentError(f"{path}: no such file") from None
    except OSError as exc:
        raise InvalidArgumentError(f"{path}: cannot read it ({exc.strerror})") from None
    if len(data) > most:
        raise LimitError(f"{path}: over {most} bytes; GDL text is at most {MAX_TEXT} "
                         "characters" if max_bytes is None or most < max_bytes else
                         f"{path}: over {most} bytes (--max-bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line = data.count(b"\n", 0, bad) + 1
        line_start = data.rfind(b"\n", 0, bad) + 1
        column = len(data[line_start:bad].decode("utf-8", "replace")) + 1
        raise ParseError(f"{path}: line {line}, column {column}: not UTF-8 "
                         f"(byte 0x{data[bad]:02x})") from None


def run_gdl(args: argparse.Namespace) -> int:
    """Check the sheet, then ground it as the GGP player does (a child process under
    the time and memory budgets); a sheet that does not ground is tried on the
    reference prover under the same memory budget and its own time budget.  Every
    way it can fail ends in one line naming the file (and a place in it)."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # this command reports the outcome itself
    try:
        return _run_gdl(args)
    finally:  # run in-process (tests, a script), it leaves the caller's logging as it was
        root.setLevel(level)


def _run_gdl(args: argparse.Namespace) -> int:
    from engine.gdl.checks import load_program
    from engine.gdl.errors import GdlError
    from engine.gdl.game import BuiltNet, from_net
    from engine.playouts import playout_run
    from protocols.ggp.ground_worker import GroundingStopped, GroundJob, default_memory

    text = read_sheet(args.file, args.max_bytes)
    name = Path(args.file).stem[:24]
    memory = args.max_memory or default_memory()
    try:
        program = load_program(text)
        print(f"{args.file}: {len(program.rules)} rules, roles "
              f"{' '.join(str(r) for r in program.roles)}: checks passed")
        job = GroundJob(text, name, seconds=args.ground_seconds, memory=memory,
                        quiet=True).start()
        built = job.future.result()
    except GdlError as exc:  # the file's name before the line and column
        raise type(exc)(f"{args.file}: {exc}") from None
    except GroundingStopped as exc:
        built = None
        reason = str(exc)
    else:
        reason = getattr(built, "reason", "")
    if not isinstance(built, BuiltNet):
        print(f"not grounded ({reason})")
        _try_the_prover(args.file, text, name, memory, args.prover_seconds)
        return 0
    game = from_net(built, name)
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


def _try_the_prover(path: str, text: str, name: str, memory: int, seconds: float) -> None:
    """The reference prover's first position, bounded: a LimitError naming the rule
    it was deriving when the memory or the time ran out."""
    from engine.errors import LimitError
    from engine.gdl.prover import ProverGuard, resident_bytes
    from engine.gdl.prover_game import ProverGame

    deadline = time.monotonic() + seconds
    guard = ProverGuard(max_rss=(resident_bytes() or 0) + memory,
                        stopped=lambda: time.monotonic() > deadline,
                        why=f"over the prover's time budget of {seconds:g} s")
    try:
        state = ProverGame(text, name, guard=guard).initial_state()
        legal = [len(state.rule_moves(role)) for role in range(len(state.game.roles))]
    except LimitError as exc:
        raise LimitError(f"{path}: the reference prover cannot play it either: "
                         f"{exc}") from None
    print(f"the reference prover plays it: {legal} legal moves per role in the "
          "initial position")

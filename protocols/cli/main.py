"""The ``miai`` command line: builds the parser from the commands and runs one.

Each subcommand is a module in ``protocols/cli/commands/`` that defines ``register(sub)``
(adding its parser to the argparse subparsers, with ``set_defaults(run=...)``).
Modules are found by name, so adding a command touches no other file.  Heavy imports
(protocols, bots, search) happen inside the commands, so ``miai --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import engine
import protocols.cli.commands as commands
from engine.errors import MiaiError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="miai",
        description="miai: MCTS game engine (UCT, UCT*, UCD, Accelerated UCT, pruning) "
        "with GTP and GGP front-ends.",
    )
    parser.add_argument("--version", action="version", version=f"miai {engine.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except MiaiError as exc:
        print(f"miai: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130

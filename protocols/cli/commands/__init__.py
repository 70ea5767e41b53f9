"""Subcommands of ``miai``: one module each, with ``register(subparsers)``."""

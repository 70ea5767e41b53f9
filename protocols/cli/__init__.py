"""The ``miai`` command line, a front-end like GTP and GGP: ``main.main`` (the console
script) and one module per subcommand in ``protocols/cli/commands/``.  From a
checkout: ``python3 -m protocols.cli``."""

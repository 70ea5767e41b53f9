"""GTP version 2 engine: ``miai gtp --bot SPEC`` (see docs/gtp.md)."""

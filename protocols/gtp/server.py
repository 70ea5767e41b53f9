"""The GTP loop: commands from a text stream, responses to another, logs to stderr."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from protocols.gtp.engine import GtpEngine, GtpOptions


def serve(
    options: GtpOptions,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Answer GTP commands until ``quit`` or end of input."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    err = stderr or sys.stderr

    def to_stderr(text: str) -> None:
        err.write(text)
        err.flush()

    engine = GtpEngine(options, stderr=to_stderr)
    try:
        for line in stdin:
            response = engine.handle(line)
            if response:
                stdout.write(response)
                stdout.flush()
            if engine.quit_requested:
                break
    finally:
        engine.close()
    return 0


def configure_logging(level: str = "WARNING") -> None:
    """Logs go to stderr only: stdout carries GTP alone."""
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, level.upper(), logging.WARNING),
        format="miai %(levelname)s %(name)s: %(message)s",
    )

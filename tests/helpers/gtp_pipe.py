"""A raw GTP conversation with any engine over a pipe (miai or GNU Go): send a
line, read one complete response byte for byte."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path


class RawGtp:
    def __init__(self, argv: Sequence[str], cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.stderr: list[str] = []
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)

    def raw(self, line: str) -> str:
        """Send ``line``; the response including its final blank line."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out: list[str] = []
        while True:
            got = self.proc.stdout.readline()
            assert got, f"engine closed its output; stderr: {''.join(self.stderr)[-2000:]}"
            out.append(got)
            if got == "\n" and len(out) > 1:
                return "".join(out)

    def ok(self, line: str) -> str:
        response = self.raw(line)
        assert response.startswith("="), f"{line!r} -> {response!r}"
        return response[1:].strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=20)
        self._drainer.join(timeout=20)


def gogui_result(response: str) -> str:
    """The result as GoGui's GtpClient takes it from a full response: from after the
    first space of the whole text (the first character when there is none) to before
    the final newline pair (GtpClient.readResponse)."""
    index = response.find(" ")
    return response[1:-2] if index < 0 else response[index + 1:-2]


def gogui_double_board(result: str, size: int) -> list[list[float]]:
    """A dboard as GoGui's GtpUtil.parseStringBoard reads it: ``size`` non-blank
    lines of at least ``size`` values, top row first; ValueError as GoGui's
    'Incomplete string board'."""
    lines = iter(result.split("\n"))
    rows: list[list[float]] = []
    while len(rows) < size:
        line = next(lines, None)
        if line is None:
            raise ValueError("Incomplete string board")
        if not line.strip():
            continue
        tokens = line.split()
        if len(tokens) < size:
            raise ValueError("Incomplete string board")
        rows.append([float(t) for t in tokens[:size]])
    return rows

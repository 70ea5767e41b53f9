"""A GTP client for bots: drives an external GTP engine (GNU Go, another miai) over a
pipe.  It frames its own commands and reads the answers; the GTP engine side is in
protocols/gtp/."""

from __future__ import annotations

import shlex
import subprocess
import threading
from collections.abc import Sequence

from engine.errors import MiaiError


class GtpClientError(MiaiError):
    """The engine answered ``? message``, died, or did not answer in time."""


class GtpClient:
    """One engine process; ``send("play b D4")`` returns the response text."""

    def __init__(self, command: str | Sequence[str], timeout: float = 60.0) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise GtpClientError("empty engine command line")
        self.argv = argv
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise GtpClientError(f"cannot start {argv[0]!r}: {exc.strerror}") from exc
        self._next_id = 1
        self._lock = threading.Lock()

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command; the success text, or GtpClientError with the message."""
        ok, text = self.send_raw(command, timeout)
        if not ok:
            raise GtpClientError(f"{self.argv[0]}: {command!r} failed: {text}")
        return text

    def send_raw(self, command: str, timeout: float | None = None) -> tuple[bool, str]:
        """(success, text) of one command."""
        with self._lock:
            if self.proc.poll() is not None or self.proc.stdin is None:
                raise GtpClientError(f"{self.argv[0]} has exited")
            cid = self._next_id
            self._next_id += 1
            try:
                self.proc.stdin.write(f"{cid} {command}\n")
                self.proc.stdin.flush()
            except OSError as exc:
                raise GtpClientError(f"{self.argv[0]}: write failed: {exc}") from exc
            lines = self._read_response(timeout if timeout is not None else self.timeout)
        head = lines[0]
        if head[:1] not in "=?":
            raise GtpClientError(f"{self.argv[0]}: malformed response {head!r}")
        status, rest = head[0], head[1:]
        rid, _, first = rest.partition(" ")
        if rid and rid != str(cid):
            raise GtpClientError(f"{self.argv[0]}: response id {rid} for command {cid}")
        text = "\n".join([first, *lines[1:]]).strip() if first or len(lines) > 1 else ""
        return status == "=", text

    def _read_response(self, timeout: float) -> list[str]:
        box: dict[str, list[str]] = {}

        def read() -> None:
            assert self.proc.stdout is not None
            lines: list[str] = []
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    break
                line = line.rstrip("\r\n")
                if not line and lines:
                    break
                if line or lines:
                    lines.append(line)
            box["lines"] = lines

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if reader.is_alive():
            self.close(kill=True)
            raise GtpClientError(f"{self.argv[0]} did not answer within {timeout:g} s")
        lines = box.get("lines", [])
        if not lines:
            raise GtpClientError(f"{self.argv[0]} closed its output")
        return lines

    def close(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            if not kill:
                try:
                    assert self.proc.stdin is not None
                    self.proc.stdin.write("quit\n")
                    self.proc.stdin.flush()
                    self.proc.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream:
                stream.close()

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Grounding in a child process, with a memory budget and a time budget.

Grounding a GDL sheet (parse, check, ground, build the propnet, find the mutex
families: ``engine.gdl.game.build_net``) can take minutes and gigabytes on a big
sheet, in Python code that cannot be interrupted.  ``GroundJob`` runs it in a child
process started afresh, never forked from the threaded player (``python -m
protocols.ggp.ground_worker``, the task pickled on its stdin, the result on its
stdout), and the parent compiles the picklable result (``from_net``).  Bounds:

- memory: ``memory`` bytes.  The child limits its own address space (RLIMIT_AS and
  RLIMIT_DATA: what it has mapped after its imports plus ``memory``), so an
  allocation past the budget fails there at once (a MemoryError, reported as such);
  the parent also reads the child's resident size every ``POLL`` seconds and kills
  it past ``memory``;
- time: ``seconds`` from the start of the job covers every phase (a bound inside
  the grounder does not cover building the mutex families); past it the child is
  killed (SIGKILL) at once;
- ``cancel()`` kills the child at once (a match's end, a START killing a PREVIEW).

Whatever ends the job early, its future holds a ``GroundingStopped`` and the player
plays the match on the reference prover.  ``nice``: the child lowers its priority
(PREVIEW groundings, which must not slow a match).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import resource
import select
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import MiaiError

log = logging.getLogger(__name__)

POLL = 0.05  # seconds between the parent's looks at the child
MEMORY_SHARE = 4  # default budget: 1/4 of the machine's memory


class GroundingStopped(MiaiError):
    """The grounding child was stopped (cancelled, over a budget, or it died)."""


def default_memory() -> int:
    """1/MEMORY_SHARE of MemTotal (bytes); 1 GiB when /proc/meminfo is not read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024 // MEMORY_SHARE
    except (OSError, ValueError, IndexError):
        pass
    return 1 << 30


def rss_bytes(pid: int) -> int:
    """Resident set size of process ``pid`` (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _vm_size() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


@dataclass(frozen=True)
class Task:
    rules: str
    name: str
    time_limit: float
    max_atoms: int | None
    memory: int
    nice: bool


def _child() -> None:
    """The child (``python -m protocols.ggp.ground_worker``): read the Task on
    stdin, bound itself, build the net, write ("ok", BuiltNet | NoNet) or (kind,
    message) of the failure on stdout, pickled."""
    out = sys.stdout.buffer
    task: Task = pickle.load(sys.stdin.buffer)
    memory_text = f"over the memory budget of {task.memory} bytes"
    try:
        from engine.gdl.errors import GdlError
        from engine.gdl.game import build_net
        from engine.gdl.ground import DEFAULT_BOUNDS
        if task.nice:
            os.nice(19)
        limit = _vm_size() + task.memory
        for which in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
            _soft, hard = resource.getrlimit(which)
            if hard == resource.RLIM_INFINITY or hard > limit:
                resource.setrlimit(which, (limit, limit if hard == resource.RLIM_INFINITY
                                           else hard))
        bounds = replace(DEFAULT_BOUNDS, time_limit=task.time_limit)
        if task.max_atoms is not None:
            bounds = replace(bounds, max_atoms=task.max_atoms)
        try:
            result: tuple[str, Any] = ("ok", build_net(task.rules, task.name, bounds,
                                                       tolerant=True))
        except GdlError as exc:
            result = ("gdl", str(exc))
        except MemoryError:
            result = ("memory", memory_text)
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = pickle.dumps(("memory", memory_text))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        data = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"))
    out.write(data)
    out.flush()


class GroundJob:
    """One grounding in a child process; ``future`` gets the BuiltNet or NoNet, or
    GdlError (the rules break GDL), or GroundingStopped."""

    def __init__(self, rules: str, name: str, *, seconds: float, memory: int,
                 max_atoms: int | None = None, nice: bool = False,
                 quiet: bool = False) -> None:
        """``quiet``: the child's own log lines are dropped (a command line that
        reports the outcome itself), not written to this process's stderr."""
        self.future: Future = Future()
        self.quiet = quiet
        self.seconds = seconds
        self.memory = memory
        self.nice = nice
        self._task = Task(rules, name, seconds, max_atoms, memory, nice)
        self._process: Any = None
        self._lock = threading.Lock()
        self._stopped: str | None = None
        self.peak_rss = 0

    def start(self) -> GroundJob:
        """Start the child and the thread that watches it (RuntimeError or OSError
        when neither can start: the caller plays on the prover)."""
        with self._lock:
            if self._stopped is not None:
                raise GroundingStopped(self._stopped)
            process = subprocess.Popen(
                [sys.executable, "-m", "protocols.ggp.ground_worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True,
                stderr=subprocess.DEVNULL if self.quiet else None)
            self._process = process
        try:
            threading.Thread(target=self._watch, args=(process,), daemon=True,
                             name=f"ground-watch-{self._task.name}").start()
        except RuntimeError:
            _kill(process)
            raise
        return self

    def cancel(self, why: str = "cancelled") -> None:
        """Kill the child now (if it runs); the future gets GroundingStopped."""
        with self._lock:
            if self._stopped is None and not self.future.done():
                self._stopped = why
            process = self._process
        self._fail(GroundingStopped(f"grounding stopped: {why}"))
        if process is not None:
            _kill(process)

    @property
    def running(self) -> bool:
        return not self.future.done()

    def _fail(self, exc: Exception) -> None:
        with contextlib.suppress(InvalidStateError):
            self.future.set_exception(exc)

    def _watch(self, process: subprocess.Popen) -> None:
        deadline = time.monotonic() + self.seconds
        kind, value = "died", "no result"
        chunks: list[bytes] = []
        try:
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(pickle.dumps(self._task))
                process.stdin.close()
            except OSError:
                pass
            fd = process.stdout.fileno()
            while True:
                if self._stopped is not None:
                    return
                ready, _, _ = select.select([fd], [], [], POLL)
                if ready:
                    chunk = os.read(fd, 1 << 20)
                    if chunk:
                        chunks.append(chunk)
                        continue
                    try:
                        kind, value = pickle.loads(b"".join(chunks))
                    except Exception:  # noqa: BLE001 - a child that died mid-write
                        kind, value = "died", _exit_text(process)
                    break
                rss = rss_bytes(process.pid)
                self.peak_rss = max(self.peak_rss, rss)
                if rss > self.memory:
                    kind, value = "memory", (f"resident {rss} bytes, over the memory "
                                             f"budget of {self.memory} bytes")
                    break
                if time.monotonic() > deadline:
                    kind, value = "time", f"over the time budget of {self.seconds:g} s"
                    break
        except Exception as exc:  # noqa: BLE001 - the prover plays
            kind, value = "error", f"{type(exc).__name__}: {exc}"
        finally:
            _kill(process)
        if kind == "ok":
            with contextlib.suppress(InvalidStateError):
                self.future.set_result(value)
        elif kind == "gdl":
            from engine.gdl.errors import GdlError
            self._fail(GdlError(value))
        else:
            log.warning("grounding %s: %s (%s)", self._task.name, value, kind)
            self._fail(GroundingStopped(f"grounding stopped: {value}"))


def _exit_text(process: subprocess.Popen) -> str:
    try:
        code = process.wait(0.5)
    except subprocess.TimeoutExpired:
        code = None
    return f"the grounding process died (exit code {code})"


def _kill(process: subprocess.Popen) -> None:
    try:
        if process.poll() is None:
            process.kill()
        process.wait(2.0)
    except (OSError, subprocess.TimeoutExpired):
        pass
    for stream in (process.stdin, process.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


if __name__ == "__main__":
    _child()

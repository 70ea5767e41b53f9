"""Soak the GGP player: many matches over loopback for a bounded time, with the
game master's worst habits mixed in, and its resources watched after each match.

    python3 scripts/ggp_soak.py --minutes 60 --json soak.json

The player runs as ``python3 -m protocols.cli ggp --port 0`` in a child process; this
script is the game master (its own small HTTP client on asyncio streams, so it can
write bare-``\\n`` heads, stall, and send a body late).  Each match is one of:

- ``full``: a random corpus game played to the end (the other roles random), STOP;
- ``abort``: ABORT after a few plies;
- ``abandon``: no message after a few plies (the player must expire the match:
  start clock + 3 play clocks) -- the next START waits for that;
- ``preview-flood``: six PREVIEWs of big sheets at once, then at once a START of a
  small game that must be answered within its start clock;
- ``bare-newline``: a full match whose request heads end lines with ``\\n``;
- ``late-body``: a full match in which every PLAY's body comes ``--late`` seconds
  after its head;
- ``stalled``: a connection sending half a head and nothing more, left open during
  a full match.

Counted: ``missed_clocks`` (a reply to START or PLAY later than its clock plus
``--grace``, or none), ``nil_with_legal`` (``nil`` or an illegal move while a legal
move existed), ``http_5xx``.  After each match (and once idle, before the first) the
player's resident size, thread count and child processes are read from /proc.
Targets: 0, 0, 0 and the final RSS within 50 MB of the idle RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from protocols.ggp import kif  # noqa: E402
from protocols.ggp.player import POOL_THREADS  # noqa: E402
from protocols.ggp.rules import apply_joint, canonical, legal_texts, load_rules  # noqa: E402

SHEETS = ROOT / "engine" / "gdl" / "rulesheets"
GAMES = ["tictactoe", "connectFour", "nim1", "buttons", "blocker", "chomp", "roshambo2",
         "gt_prisoner", "guess", "coins", "maze", "lightsout", "sum15", "tictactoe_3player",
         "ticTacToeParallel", "knightthrough", "switches", "hanoi"]
BIG = ["chess", "amazons", "checkers", "othello-comp2007", "pentago", "merrills",
       "quarto", "sudoku"]
KINDS = {"full": 4, "abort": 2, "abandon": 1, "preview-flood": 1, "bare-newline": 2,
         "late-body": 2, "stalled": 1}
MAX_PLIES = 60  # a full match stops (STOP) after this many plies
RSS_SLACK = 50 * 1024 * 1024


@dataclass
class Sample:
    match: int
    kind: str
    game: str
    rss: int
    threads: int
    children: int
    seconds: float


@dataclass
class Report:
    minutes: float
    matches: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    requests: int = 0
    missed_clocks: int = 0
    nil_with_legal: int = 0
    http_5xx: int = 0
    problems: list[str] = field(default_factory=list)
    idle_rss: int = 0
    idle_threads: int = 0
    final_rss: int = 0
    max_rss: int = 0
    final_threads: int = 0
    final_children: int = 0
    samples: list[Sample] = field(default_factory=list)

    @property
    def rss_ok(self) -> bool:
        return self.final_rss - self.idle_rss <= RSS_SLACK

    @property
    def threads_ok(self) -> bool:
        """Back to the idle thread count but for the pools' workers, no child left."""
        return (self.final_threads - self.idle_threads <= POOL_THREADS
                and self.final_children == 0)

    def summary(self) -> str:
        mb = 1024 * 1024
        return (f"{self.matches} matches {self.by_kind}, {self.requests} requests: "
                f"missed clocks {self.missed_clocks}, nil/illegal with a legal move "
                f"{self.nil_with_legal}, 5xx {self.http_5xx}; RSS idle "
                f"{self.idle_rss / mb:.0f} MB, final {self.final_rss / mb:.0f} MB, max "
                f"{self.max_rss / mb:.0f} MB (target final - idle <= 50 MB: "
                f"{'met' if self.rss_ok else 'MISSED'}); threads idle {self.idle_threads}, "
                f"final {self.final_threads}; grounding children left {self.final_children} "
                f"(target final - idle <= {POOL_THREADS} pool threads, 0 children: "
                f"{'met' if self.threads_ok else 'MISSED'})")


# -- the player's process ------------------------------------------------------------

def proc_status(pid: int) -> tuple[int, int]:
    """(resident bytes, threads) of ``pid``."""
    rss = threads = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) * 1024
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


def children(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return len(f.read().split())
    except OSError:
        return 0


def start_player(seed: int, extra: list[str],
                 log: str | None = None) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    err = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - the child's
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocols.cli", "ggp", "--port", "0", "--seed", str(seed),
         *extra], stdout=subprocess.PIPE, stderr=err, env=env, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"the player did not start: {line!r}")
    port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
    return proc, port


# -- HTTP, by hand -------------------------------------------------------------------

@dataclass
class Reply:
    status: int | None
    text: str
    seconds: float


async def request(port: int, body: str, timeout: float, *, bare: bool = False,
                  late: float = 0.0) -> Reply:
    """POST ``body``; ``bare``: head lines end in ``\\n``; ``late``: the body is sent
    that many seconds after the head.  Seconds from the first byte sent."""
    begin = time.monotonic()
    eol = "\n" if bare else "\r\n"
    data = body.encode()
    head = eol.join(["POST / HTTP/1.1", "Host: 127.0.0.1", "Content-Type: text/acl",
                     f"Content-Length: {len(data)}", "Connection: close", "", ""]).encode()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(head)
            if late > 0:
                await writer.drain()
                await asyncio.sleep(late)
            writer.write(data)
            await writer.drain()
            status_line = await reader.readline()
            parts = status_line.decode("latin-1").split()
            status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
            length = 0
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            text = (await reader.readexactly(length)).decode() if length else ""
            return Reply(status, text.strip(), time.monotonic() - begin)
    except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
        return Reply(None, f"{type(exc).__name__}: {exc}", time.monotonic() - begin)
    finally:
        if writer is not None:
            writer.close()


# -- the game master -----------------------------------------------------------------

class Soak:
    def __init__(self, args: argparse.Namespace, port: int, pid: int) -> None:
        self.args = args
        self.port = port
        self.pid = pid
        self.rng = random.Random(args.seed)
        self.report = Report(args.minutes)
        self.games: dict[str, object] = {}
        self.texts: dict[str, str] = {}

    def text(self, name: str) -> str:
        if name not in self.texts:
            self.texts[name] = (SHEETS / f"{name}.kif").read_text()
        return self.texts[name]

    def game(self, name: str) -> tuple[object, str]:
        if name not in self.games:
            self.games[name] = load_rules(self.text(name), name, 120.0)
        return self.games[name], self.text(name)

    def problem(self, what: str) -> None:
        if len(self.report.problems) < 200:
            self.report.problems.append(what)

    def check_status(self, reply: Reply, what: str) -> None:
        self.report.requests += 1
        if reply.status is not None and reply.status >= 500:
            self.report.http_5xx += 1
            self.problem(f"{what}: HTTP {reply.status} {reply.text[:80]}")

    async def send(self, body: str, clock: float, what: str, **kw: object) -> Reply:
        reply = await request(self.port, body, clock + self.args.grace + 5.0, **kw)
        self.check_status(reply, what)
        return reply

    async def play_match(self, kind: str, index: int) -> str:
        args = self.args
        name = self.rng.choice(args.games)
        game, text = self.game(name)
        roles = list(game.roles)  # type: ignore[attr-defined]
        role = self.rng.randrange(len(roles))
        match_id = f"soak{index}"
        sc, pc = args.start_clock, args.play_clock
        stalled = None
        if kind == "stalled":
            stalled = await asyncio.open_connection("127.0.0.1", self.port)
            stalled[1].write(b"POST / HTTP/1.1\r\nContent-Le")
        if kind == "preview-flood":
            await asyncio.gather(*[
                self.send(f"(preview ({kif.rules_text(self.text(big))}) {sc})", sc,
                          "preview") for big in self.rng.sample(args.big, 6)])
        reply = await self.send(kif.start_text(match_id, roles[role], text, sc, pc), sc,
                                f"{match_id} start {name}", bare=kind == "bare-newline")
        if reply.text.lower() != "ready" or reply.seconds > sc + args.grace:
            self.report.missed_clocks += 1
            self.problem(f"{match_id} start {name}: {reply.text[:80]!r} after "
                         f"{reply.seconds:.2f} s")
        state = game.initial_state()  # type: ignore[attr-defined]
        last: list[str] | None = None
        stop_at = {"abort": self.rng.randint(1, 4), "abandon": self.rng.randint(1, 4)}\
            .get(kind, args.max_plies)
        plies = 0
        while not state.is_terminal() and plies < stop_at:
            late = args.late if kind == "late-body" else 0.0
            reply = await self.send(kif.play_text(match_id, last), pc,
                                    f"{match_id} play {plies}",
                                    bare=kind == "bare-newline", late=late)
            legal = legal_texts(game, state, role)
            move = None
            try:
                move = canonical(kif.parse_move_reply(reply.text)) if reply.status == 200 \
                    else None
            except Exception:  # noqa: BLE001 - an unreadable reply counts below
                move = None
            if reply.status is None or reply.seconds > pc + args.grace:
                self.report.missed_clocks += 1
                self.problem(f"{match_id} {name} ply {plies}: {reply.text[:60]!r} after "
                             f"{reply.seconds:.2f} s")
            elif legal and move not in legal:
                self.report.nil_with_legal += 1
                self.problem(f"{match_id} {name} ply {plies}: {reply.text[:60]!r} not "
                             f"legal")
            joint = [move if r == role and move in legal
                     else self.rng.choice(legal_texts(game, state, r))
                     for r in range(len(roles))]
            apply_joint(game, state, joint)
            last = joint
            plies += 1
        if kind == "abort":
            await self.send(kif.abort_text(match_id), pc, f"{match_id} abort")
        elif kind == "abandon":
            await asyncio.sleep(sc + 3 * pc + 2)  # the player must have expired it
        else:
            await self.send(kif.stop_text(match_id, last), pc, f"{match_id} stop",
                            bare=kind == "bare-newline")
        if stalled is not None:
            stalled[1].close()
        return name

    def sample(self, index: int, kind: str, game: str, begin: float) -> None:
        rss, threads = proc_status(self.pid)
        sample = Sample(index, kind, game, rss, threads, children(self.pid),
                        round(time.monotonic() - begin, 1))
        self.report.samples.append(sample)
        self.report.max_rss = max(self.report.max_rss, rss)
        if self.args.verbose:
            print(f"{sample.seconds:7.1f} s match {index} {kind} {game}: RSS "
                  f"{rss / 2**20:.0f} MB, threads {threads}, children {sample.children}",
                  flush=True)

    async def run(self) -> Report:
        begin = time.monotonic()
        end = begin + self.args.minutes * 60
        await asyncio.sleep(1.0)
        self.report.idle_rss, self.report.idle_threads = proc_status(self.pid)
        self.sample(0, "idle", "-", begin)
        kinds = [k for k, w in KINDS.items() for _ in range(w)]
        index = 0
        while time.monotonic() < end and (self.args.matches is None
                                          or index < self.args.matches):
            index += 1
            if self.args.kinds:  # in turn
                kind = self.args.kinds[(index - 1) % len(self.args.kinds)]
            else:
                kind = self.rng.choice(kinds) if index > 1 else "full"
            game = await self.play_match(kind, index)
            self.report.matches += 1
            self.report.by_kind[kind] = self.report.by_kind.get(kind, 0) + 1
            await asyncio.sleep(self.args.settle)
            self.sample(index, kind, game, begin)
        last = self.report.samples[-1]
        self.report.final_rss, self.report.final_threads = last.rss, last.threads
        self.report.final_children = last.children
        return self.report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--matches", type=int, default=None,
                    help="stop after this many matches (or --minutes, the first)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start-clock", type=int, default=4)
    ap.add_argument("--play-clock", type=int, default=2)
    ap.add_argument("--grace", type=float, default=0.5,
                    help="seconds past a clock a reply may take (network)")
    ap.add_argument("--late", type=float, default=0.6,
                    help="seconds a late body comes after its head")
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds after a match before the player is measured")
    ap.add_argument("--games", nargs="+", default=GAMES, metavar="NAME")
    ap.add_argument("--kinds", nargs="+", choices=sorted(KINDS), metavar="KIND",
                    help="play these kinds of match in turn (default: random, weighted)")
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES,
                    help="a full match is stopped (STOP) after this many plies")
    ap.add_argument("--big", nargs="+", default=BIG, metavar="NAME",
                    help="sheets of the preview floods")
    ap.add_argument("--player-arg", action="append", default=[],
                    help="an extra option of `miai ggp` (repeatable)")
    ap.add_argument("--json", metavar="FILE", help="write the report as JSON")
    ap.add_argument("--player-log", metavar="FILE",
                    help="the player's log (its stderr; with --player-arg=-v every request)")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per match")
    args = ap.parse_args(argv)
    proc, port = start_player(args.seed, args.player_arg, args.player_log)
    try:
        report = asyncio.run(Soak(args, port, proc.pid).run())
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(report.summary())
    for problem in report.problems[:20]:
        print("  ", problem)
    if args.json:
        data = asdict(report)
        data["rss_ok"] = report.rss_ok
        data["threads_ok"] = report.threads_ok
        Path(args.json).write_text(json.dumps(data, indent=1))
    ok = not (report.missed_clocks or report.nil_with_legal or report.http_5xx)
    return 0 if ok and report.rss_ok and report.threads_ok else 1


if __name__ == "__main__":
    sys.exit(main())

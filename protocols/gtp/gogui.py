"""GoGui analyze commands and live graphics.

``gogui-analyze_commands`` lists lines ``type/label/command``; board-shaped responses
(``dboard``) are one row per line, top row first, values in [-1, 1] (GoGui draws a
value as a square of that size: visit counts are scaled by the most visited move).
During genmove, when live graphics are on, a block ``gogui-gfx:`` + gfx commands + an
empty line goes to stderr after each search batch: the most visited moves as labels,
their win rates as influence, and the principal variation.

The analyze commands show the search of the last genmove (:class:`LastSearch`) while
the position is the one that genmove left (after its move, or unchanged for
reg_genmove and resign); once the position changes otherwise they show no search.
After genmove the principal variation is the line after the move just played.

The commands read the engine through :class:`View` (the session, the options, the
last search), so this module does not import the engine (protocols/gtp/engine.py
registers them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.errors import InvalidArgumentError
from protocols.gtp.session import GoSession


class GfxOption(Protocol):
    gfx: bool


@dataclass(frozen=True)
class LastSearch:
    """A genmove's search: its report, the move played from its root (None when none
    was played: reg_genmove, resign) and the key of the position genmove left."""

    report: Any
    played: int | None
    key: int


class View(Protocol):
    """What the analyze commands read of the GTP engine."""

    session: GoSession
    options: GfxOption

    def last_search(self) -> LastSearch | None: ...


ANALYZE = (
    "gfx/Search: visits, win rates, PV/miai-gfx",
    "dboard/Visit counts/miai-visits",
    "dboard/Win rates/miai-winrates",
    "var/Principal variation/miai-pv",
    "dboard/Ownership (black +1, white -1)/miai-ownership",
    "pspairs/UCT* pruning intervals (win rate %, x = pruned)/miai-intervals",
    "string/Search report/miai-report",
    "none/Live graphics on/miai-live_gfx on",
    "none/Live graphics off/miai-live_gfx off",
)


def register(commands: dict[str, Callable[[Sequence[str]], str]], engine: View) -> None:
    c = commands
    c["gogui-analyze_commands"] = lambda a: "\n".join(ANALYZE)
    c["miai-gfx"] = lambda a: _gfx_commands(engine, _report(engine), _played(engine))
    c["miai-visits"] = lambda a: _board(engine, _visits(engine))
    c["miai-winrates"] = lambda a: _board(engine, _per_move(engine, lambda s: s.mean))
    c["miai-pv"] = lambda a: _pv(engine, _report(engine), _played(engine))
    c["miai-ownership"] = lambda a: _ownership(engine)
    c["miai-intervals"] = lambda a: _intervals(engine)
    c["miai-report"] = lambda a: _text_report(_report(engine))
    c["miai-live_gfx"] = lambda a: _live(engine, a)


def shown_search(engine: View) -> LastSearch | None:
    """The last genmove's search while the position is the one it left, else None."""
    last = engine.last_search()
    if last is None or last.key != engine.session.state.key:
        return None
    return last


def _report(engine: View) -> Any:
    last = shown_search(engine)
    return None if last is None else last.report


def _played(engine: View) -> int | None:
    last = shown_search(engine)
    return None if last is None else last.played


def _per_move(engine: View, value: Any) -> dict[int, float]:
    report = _report(engine)
    if report is None:
        return {}
    points = engine.session.size**2
    return {s.move: value(s) for s in report.moves if s.move < points}


def _visits(engine: View) -> dict[int, float]:
    """Visit counts over the largest: every value in [0, 1]."""
    visits = _per_move(engine, lambda s: float(s.visits))
    most = max(visits.values(), default=0.0)
    return {m: v / most for m, v in visits.items()} if most > 0 else {}


def _board(engine: View, values: dict[int, float]) -> str:
    size = engine.session.size
    rows = []
    for r in range(size):
        row = []
        for col in range(size):
            vertex = f"{'ABCDEFGHJKLMNOPQRST'[col]}{size - r}"
            point = engine.session.parse_vertex(vertex)
            v = values.get(point)
            row.append("0" if v is None else f"{v:.3f}".rstrip("0").rstrip(".") or "0")
        rows.append(" ".join(row))
    return "\n" + "\n".join(rows)


def _pv(engine: View, report: Any, played: int | None = None) -> str:
    """The principal variation as ``b E5 w C3 ...``; after a genmove's move, the line
    after it (none if the move played is not the line's first)."""
    if report is None or not report.pv:
        return ""
    role = report.role
    colour = "bw"[role if role in (0, 1) else engine.session.to_move()]
    line = list(report.pv)
    if played is not None:
        if line[0].lower() != engine.session.vertex(played).lower():
            return ""
        line = line[1:]
        colour = "w" if colour == "b" else "b"
    out = []
    for move in line:
        out.append(f"{colour} {move.upper() if move.lower() != 'pass' else 'PASS'}")
        colour = "w" if colour == "b" else "b"
    return " ".join(out)


def _ownership(engine: View) -> str:
    from engine import go

    own = go.ownership(engine.session.state, 300, seed=1)
    return _board(engine, dict(enumerate(own.territory)))


def _intervals(engine: View) -> str:
    report = _report(engine)
    if report is None:
        return ""
    intervals = report.extra.get("intervals")
    pairs = []
    for s in report.moves:
        if s.move >= engine.session.size**2 or s.visits <= 0:
            continue  # an unvisited move has no interval worth a label
        lo, hi = (intervals[s.move] if intervals and s.move in intervals else (s.ci_low, s.ci_high))
        mark = "x" if s.pruned else ""
        pairs.append(f"{s.text.upper()} {interval_label(lo, hi)}{mark}")
    return " ".join(pairs)


def interval_label(low: float, high: float) -> str:
    """A win-rate interval as a board label short enough not to run into the
    neighbouring points' labels: percentages, ``43-61`` (at most 7 characters)."""
    lo = min(100, max(0, round(low * 100)))
    hi = min(100, max(lo, round(high * 100)))
    return f"{lo}-{hi}"


def _text_report(report: Any) -> str:
    if report is None:
        return "no search yet"
    lines = [f"iterations {report.iterations}  nodes {report.nodes}  "
             f"time {report.seconds:.2f}s  value {report.root_value:.3f}"]
    for s in report.moves[:10]:
        lines.append(f"{s.text:>5} visits {s.visits:7d} mean {s.mean:.3f} "
                     f"[{s.ci_low:.3f}, {s.ci_high:.3f}]")
    lines.append("pv " + " ".join(report.pv))
    return "\n".join(lines)


def _gfx_commands(engine: View, report: Any, played: int | None = None) -> str:
    if report is None:
        return ""
    moves = [s for s in report.moves if s.visits > 0][:12]
    lines = []
    if moves:
        lines.append("LABEL " + " ".join(f"{s.text.upper()} {s.visits}" for s in moves
                                          if s.text.lower() != "pass"))
        sign = -1.0 if report.role == 1 else 1.0  # GoGui: black positive
        lines.append("INFLUENCE " + " ".join(
            f"{s.text.upper()} {sign * (2 * s.mean - 1):.2f}" for s in moves
            if s.text.lower() != "pass"))
    pv = _pv(engine, report, played)
    if pv:
        lines.append("VAR " + pv)
    total = report.iterations
    lines.append(f"TEXT {total} iterations, value {report.root_value:.3f}")
    return "\n".join(line for line in lines if line.split(" ", 1)[-1].strip() or line == "")


def live_gfx(engine: View, report: Any) -> str:
    body = _gfx_commands(engine, report)
    return f"gogui-gfx:\n{body}\n\n" if body else ""


def _live(engine: View, args: Sequence[str]) -> str:
    if len(args) != 1 or args[0] not in ("on", "off"):
        raise InvalidArgumentError("syntax error")
    engine.options.gfx = args[0] == "on"
    return ""



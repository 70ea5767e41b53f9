"""Reading a results file: tables per pairing, Elo, a Markdown report and plots.

:func:`summarise` turns a run's stored games into :class:`RunSummary` rows: per
pairing (or per player in one-player series) the games, the first player's score with
draws as half and its 95% Wilson interval, and every player's mean iterations and
seconds per game; plus Bradley-Terry Elo over all players (``stats.elo``).
:func:`format_text` prints them; :func:`write_report` writes ``report.md`` and one PNG
per run -- the score against a bot parameter with 95% error bars, like the papers'
figures (points of players without that parameter become horizontal reference lines).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bots.spec import parse_spec
from bots.tournament.schedule import PAIR_SEP, RunSpec, is_external
from bots.tournament.stats import (
    EloFit,
    Result,
    elo,
    mean_interval,
    normal_interval,
    pairwise_results,
)
from bots.tournament.store import Store, StoredGame


@dataclass
class Row:
    """One pairing (or one player's series): ``players[0]`` is the one scored."""

    players: tuple[str, ...]  # specs, in the pairing's order
    labels: tuple[str, ...]
    games: int = 0
    points: float = 0.0  # players[0]'s total score
    squares: float = 0.0  # sum of players[0]'s squared scores
    wins: int = 0
    draws: int = 0
    losses: int = 0
    iterations: list[float] = field(default_factory=list)  # per player, summed
    seconds: list[float] = field(default_factory=list)
    plies: int = 0
    paper: float | None = None

    @property
    def score(self) -> tuple[float, float, float]:
        """(mean, 95% low, 95% high) of players[0]'s score per game: Wilson between
        players, the normal approximation in one-player series (see stats)."""
        if len(self.players) == 1:
            return normal_interval(self.points, self.squares, self.games)
        return mean_interval(self.points, self.games)

    def per_game(self, values: list[float], k: int) -> float:
        return values[k] / self.games if self.games else 0.0


@dataclass
class RunSummary:
    run: str
    spec: RunSpec
    rows: list[Row]
    elo: EloFit | None
    elo_note: str
    games: int


def _labels(spec: RunSpec) -> dict[str, str]:
    return {p.spec: p.label for p in spec.players}


def _paper_values(spec: RunSpec) -> dict[str, float]:
    raw = spec.extra.get("paper") or {}
    return {str(k): float(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def summarise(store: Store, run: str) -> RunSummary:
    spec = store.run_spec(run)
    labels = _labels(spec)
    paper = _paper_values(spec)
    rows: dict[str, Row] = {}
    pair_results: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    n_games = 0
    for g in store.games(run):
        n_games += 1
        pair = tuple(g.pairing.split(PAIR_SEP))
        row = rows.get(g.pairing)
        if row is None:
            row = Row(pair, tuple(labels.get(s, s) for s in pair),
                      iterations=[0.0] * len(pair), seconds=[0.0] * len(pair))
            row.paper = paper.get(pair[0], paper.get(labels.get(pair[0], "")))
            rows[g.pairing] = row
        _add_game(row, g)
        for a, b, s in pairwise_results(g.players, g.rewards):
            key = (a, b) if a <= b else (b, a)
            pair_results[key][0] += s if a <= b else 1.0 - s
            pair_results[key][1] += 1.0
    ordered = [rows[k] for k in sorted(rows, key=lambda k: _order(spec, k))]
    fit, note = _fit_elo(spec, pair_results)
    return RunSummary(run, spec, ordered, fit, note, n_games)


def _order(spec: RunSpec, pairing: str) -> tuple[int, ...]:
    index = {p.spec: k for k, p in enumerate(spec.players)}
    return tuple(index.get(s, len(index)) for s in pairing.split(PAIR_SEP))


def _add_game(row: Row, g: StoredGame) -> None:
    row.games += 1
    row.plies += len(g.moves)
    first_roles = [r for r, p in enumerate(g.seats) if p == 0]
    role = first_roles[0]
    mine = g.rewards[role]
    row.points += mine
    row.squares += mine * mine
    others = [r for k, r in enumerate(g.rewards) if g.seats[k] != 0]
    if others:
        best = max(others)
        row.wins += mine > best
        row.draws += mine == best
        row.losses += mine < best
    else:  # one-player games: the reward itself, 1 a win and 0 a loss
        row.wins += mine >= 1.0
        row.losses += mine <= 0.0
        row.draws += 0.0 < mine < 1.0
    for r, p in enumerate(g.seats):
        row.iterations[p] += g.role_iterations(r)
        row.seconds[p] += g.role_seconds(r)


def _fit_elo(spec: RunSpec, pair_results: dict[tuple[str, str], list[float]]
             ) -> tuple[EloFit | None, str]:
    players = sorted({s for key in pair_results for s in key},
                     key=lambda s: [p.spec for p in spec.players].index(s)
                     if s in {p.spec for p in spec.players} else 10**6)
    if len(players) < 2:
        return None, "no Elo: fewer than two players met"
    results = [Result(a, b, s, n) for (a, b), (s, n) in pair_results.items()]
    fit = elo(players, results)
    notes = ["Bradley-Terry maximum likelihood, mean 0, 95% intervals from the Fisher "
             "information"]
    if fit.prior_draws:
        notes.append(f"with {fit.prior_draws:g} virtual draw per played pairing (without "
                     "it the maximum does not exist: some players never scored against "
                     "others)")
    if not fit.connected:
        notes.append("the players fall in groups that never met: ratings across groups "
                     "are not comparable")
    return fit, "; ".join(notes)


# Text -----------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100.0 * x:5.1f}%"


def pairing_table(summary: RunSummary) -> list[list[str]]:
    """Header and rows of the per-pairing table (cells as text)."""
    one_player = summary.spec.format == "series"
    has_paper = any(r.paper is not None for r in summary.rows)
    if one_player:
        head = ["player", "games", "mean score", "95% CI", "it/game", "s/game"]
    else:
        head = ["player", "opponent(s)", "games", "W-D-L", "score", "95% CI",
                "it/game", "opp it/game", "s/game", "opp s/game"]
    if has_paper:
        head.append("paper")
    table = [head]
    for r in summary.rows:
        mean, low, high = r.score
        if one_player:
            cells = [r.labels[0], str(r.games), _pct(mean), f"[{_pct(low)}, {_pct(high)}]",
                     f"{r.per_game(r.iterations, 0):,.0f}", f"{r.per_game(r.seconds, 0):.3f}"]
        else:
            opp_its = sum(r.iterations[1:]) / max(1, len(r.players) - 1)
            opp_secs = sum(r.seconds[1:]) / max(1, len(r.players) - 1)
            cells = [r.labels[0], ", ".join(dict.fromkeys(r.labels[1:])), str(r.games),
                     f"{r.wins}-{r.draws}-{r.losses}", _pct(mean),
                     f"[{_pct(low)}, {_pct(high)}]", f"{r.per_game(r.iterations, 0):,.0f}",
                     f"{opp_its / r.games if r.games else 0:,.0f}",
                     f"{r.per_game(r.seconds, 0):.3f}",
                     f"{opp_secs / r.games if r.games else 0:.3f}"]
        if has_paper:
            cells.append("" if r.paper is None else _pct(r.paper))
        table.append(cells)
    return table


def elo_table(summary: RunSummary) -> list[list[str]]:
    fit = summary.elo
    if fit is None:
        return []
    labels = _labels(summary.spec)
    order = sorted(range(len(fit.players)), key=lambda i: -fit.ratings[i])
    table = [["player", "Elo", "95% CI"]]
    for i in order:
        table.append([labels.get(fit.players[i], fit.players[i]), f"{fit.ratings[i]:+.0f}",
                      f"±{fit.half_widths[i]:.0f}"])
    return table


def _text_table(table: list[list[str]]) -> str:
    if not table:
        return ""
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    return "\n".join("  ".join(cell.ljust(w) if c < 2 else cell.rjust(w)
                               for c, (cell, w) in enumerate(zip(row, widths, strict=True)))
                     for row in table)


def _md_table(table: list[list[str]]) -> str:
    if not table:
        return ""
    lines = ["| " + " | ".join(table[0]) + " |",
             "|" + "|".join("---" for _ in table[0]) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
              for row in table[1:]]
    return "\n".join(lines)


def _budget(spec: RunSpec) -> str:
    if spec.iterations is not None:
        return f"{spec.iterations:,} iterations per move"
    if spec.seconds is not None:
        return f"{spec.seconds:g} s per move"
    return "each bot's own budget"


def header(summary: RunSummary) -> str:
    spec = summary.spec
    opening = ""
    if spec.openings:
        opening = "; openings " + ", ".join(" ".join(o) or "(none)" for o in spec.openings)
    return (f"run {summary.run}: {spec.game}, {spec.format}, {summary.games} games stored "
            f"({spec.games} per pairing planned), {_budget(spec)}, seed {spec.seed}{opening}")


def interval_note(summary: RunSummary) -> str:
    if summary.spec.format == "series":
        return ("score: mean reward per game; 95% interval mean +- 1.96 s/sqrt(n) (normal "
                "approximation, s the sample standard deviation)")
    return "score: mean reward per game (a draw is 1/2); 95% Wilson interval"


def format_text(summary: RunSummary) -> str:
    parts = [header(summary), interval_note(summary), _text_table(pairing_table(summary))]
    if summary.elo is not None:
        parts += ["", "Elo (" + summary.elo_note + ")", _text_table(elo_table(summary))]
    return "\n".join(parts)


# Plots ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    label: str
    name: str
    params: dict[str, str]
    mean: float
    low: float
    high: float
    paper: float | None = None


def _name_params(spec: str) -> tuple[str, dict[str, str]]:
    """A player's bot name and parameters; an external GTP engine has none."""
    if is_external(spec):
        return "gtp", {}
    parsed = parse_spec(spec)
    return parsed.name, dict(parsed.params)


def _points(summary: RunSummary) -> list[Point]:
    """The scored entries: every row's first player (series and gauntlets) or, in
    round robins, each player's mean score over all its games."""
    if summary.spec.format != "round-robin":
        out = []
        for r in summary.rows:
            name, params = _name_params(r.players[0])
            mean, low, high = r.score
            out.append(Point(r.labels[0], name, params, mean, low, high, r.paper))
        return out
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in summary.rows:
        mean, _, _ = r.score
        totals[r.players[0]][0] += r.points
        totals[r.players[0]][1] += r.games
        for other in r.players[1:]:
            totals[other][0] += (r.games - r.points) / (len(r.players) - 1)
            totals[other][1] += r.games
    labels = _labels(summary.spec)
    out = []
    for s, (points, n) in totals.items():
        name, params = _name_params(s)
        mean, low, high = mean_interval(points, n)
        out.append(Point(labels.get(s, s), name, params, mean, low, high))
    return out


_IGNORED_PARAMS = {"seed"}


def choose_axes(points: Sequence[Point], x: str | None = None,
                series: Sequence[str] | str | None = None) -> tuple[str | None, list[str]]:
    """The parameter on the x axis (given, or the one with most distinct values among
    the points that have it) and the parameters separating the lines (given, or every
    other varying parameter); lines are also split by bot name."""
    keys = sorted({k for p in points for k in p.params} - _IGNORED_PARAMS)
    present = {k: {p.params[k] for p in points if k in p.params} for k in keys}
    # a parameter varies if its value differs between points (absent counts as a value)
    varying = {k: len({p.params.get(k) for p in points}) for k in keys}
    varying = {k: n for k, n in varying.items() if n > 1}
    if x is None:
        candidates = [k for k in sorted(varying) if len(present[k]) > 1]
        x = max(candidates, key=lambda k: len(present[k])) if candidates else None
    if series is None:
        return x, [k for k in sorted(varying) if k != x]
    return x, [series] if isinstance(series, str) else list(series)


def _x_value(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.inf


def plot(summary: RunSummary, path: Path, *, x: str | None = None,
         series: Sequence[str] | str | None = None, title: str | None = None) -> bool:
    """Write the score-against-parameter plot; False if no parameter varies."""
    points = _points(summary)
    x, series = choose_axes(points, x, series)
    if x is None or not any(x in p.params for p in points):
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    on_axis = [p for p in points if x in p.params]
    reference = [p for p in points if x not in p.params]
    ticks = sorted({p.params[x] for p in on_axis}, key=lambda v: (_x_value(v), v))
    position = {v: k for k, v in enumerate(ticks)}
    # One line per bot name and values of every parameter but x: the series keys
    # first, then the others that differ between points (e.g. a backup rule).
    _, others = choose_axes(points, x)
    label_keys = list(series) + [k for k in others if k not in series]
    lines: dict[tuple[object, ...], list[Point]] = defaultdict(list)
    for p in on_axis:
        lines[(p.name, *((k, p.params.get(k, "")) for k in label_keys))].append(p)
    fig, ax = plt.subplots(figsize=(7.0, 4.5))
    for key in sorted(lines, key=_line_order):
        name = " ".join([str(key[0])] + [f"{k}={_tick(v)}" for k, v in key[1:] if v])
        pts = sorted(lines[key], key=lambda p: position[p.params[x]])
        xs = [position[p.params[x]] for p in pts]
        ys = [100 * p.mean for p in pts]
        err = [[100 * (p.mean - p.low) for p in pts], [100 * (p.high - p.mean) for p in pts]]
        bars = ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=name)
        paper = [(position[p.params[x]], 100 * p.paper) for p in pts if p.paper is not None]
        if paper:
            ax.plot(*zip(*paper, strict=True), linestyle="none", marker="x", markersize=9,
                    color=bars[0].get_color(), label=f"{name}: paper")
    for k, p in enumerate(reference):
        ax.axhline(100 * p.mean, linestyle="--", color=f"C{(len(lines) + k) % 10}",
                   label=f"{p.label} ({100 * p.mean:.1f}%)")
    ax.set_xticks(range(len(ticks)), [_tick(v) for v in ticks])
    fixed = sorted({f"{k}={v}" for p in on_axis for k, v in p.params.items()
                    if k != x and k not in series and k not in _IGNORED_PARAMS
                    and all(q.params.get(k) == v for q in on_axis)})
    ax.set_xlabel(x + (f"   ({', '.join(fixed)})" if fixed else ""))
    scored = "mean score" if summary.spec.format == "series" else "win rate (draw = 1/2)"
    if summary.spec.format == "gauntlet" and summary.rows:
        scored += f" vs {summary.rows[0].labels[1]}"
    ax.set_ylabel(f"{scored}, % (95% CI)")
    ax.set_title(title or f"{summary.run}: {summary.spec.game}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _line_order(key: tuple[object, ...]) -> tuple[object, ...]:
    return (key[0], *((_x_value(str(v)), str(v)) for _, v in key[1:]))  # type: ignore[misc]


def _tick(value: str) -> str:
    return "∞" if value.lower() == "inf" else value


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "run"


NO_MATPLOTLIB = "no plots: matplotlib is not installed (pip install matplotlib)"


def write_report(store: Store, out_dir: Path, runs: Sequence[str] | None = None, *,
                 x: str | None = None, series: str | None = None,
                 warn: Callable[[str], None] | None = None) -> Path:
    """``out_dir/report.md`` with one section per run and its PNG; returns the path.
    A plot left out because matplotlib does not import is noted in the report, and
    ``warn(NO_MATPLOTLIB)`` is called once."""
    out_dir.mkdir(parents=True, exist_ok=True)
    warned = False
    lines = [f"# Results from `{store.path.name}`", ""]
    for run in runs if runs is not None else store.runs():
        summary = summarise(store, run)
        spec = summary.spec
        plot_cfg = spec.extra.get("plot") if isinstance(spec.extra.get("plot"), dict) else {}
        assert isinstance(plot_cfg, dict)
        title = str(spec.extra.get("title") or run)
        lines += [f"## {title}", "", header(summary) + ".", ""]
        if spec.extra.get("paper_ref"):
            lines += [f"Paper: {spec.extra['paper_ref']}.", ""]
        if spec.extra.get("note"):
            lines += [str(spec.extra["note"]).strip(), ""]
        lines += [interval_note(summary).capitalize() + "; it/game and s/game: iterations "
                  "and seconds a player spent per game.", "",
                  _md_table(pairing_table(summary)), ""]
        if summary.elo is not None:
            lines += [f"Elo ({summary.elo_note}):", "", _md_table(elo_table(summary)), ""]
        png = out_dir / f"{_slug(run)}.png"
        try:
            drawn = bool(summary.rows) and plot(
                summary, png, x=x or plot_cfg.get("x"),
                series=series or plot_cfg.get("series"), title=title)
        except ImportError:
            drawn = False
            lines += ["(No plot: matplotlib is not installed; `pip install matplotlib`.)", ""]
            if warn is not None and not warned:
                warn(NO_MATPLOTLIB)
                warned = True
        if drawn:
            lines += [f"![{title}]({png.name})", ""]
    path = out_dir / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path

#!/usr/bin/env python3
"""The curve of a Go bot against GNU Go at fixed iteration budgets (9x9, komi 7).

Fixed iteration budgets make the machine's load irrelevant.  Each budget N plays
``BOT:iterations=N,seconds=inf`` against ``gnugo --level LEVEL`` with
scripts/match_gnugo.py's games (area scoring, colours alternated: miai is black in
even games, game i uses seed i).  The budgets are interleaved -- round r plays game r
of every budget -- so every point of the curve grows together.  Resumable: each budget
appends one JSON line per finished game to ``OUT/it<N>.jsonl`` (SGFs in
``OUT/it<N>/``) and a rerun skips the games already logged.

    nice -n 19 python3 scripts/experiments/go_curve.py --out docs/data/go-curve/before \\
        --bot go9 --games 40
    python3 scripts/experiments/go_curve.py --table docs/data/go-curve/before
    python3 scripts/experiments/go_curve.py --plot docs/go-curve.png \\
        --series before=docs/data/go-curve/before
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout first

from bots.gtp_bot import GtpBot  # noqa: E402
from bots.gtp_client import GtpClientError  # noqa: E402
from bots.tournament.stats import mean_interval  # noqa: E402
from protocols.gtp import versus  # noqa: E402
from protocols.gtp.versus import Outcome, play_one  # noqa: E402
from scripts.match_gnugo import read_log  # noqa: E402

BUDGETS = (500, 1000, 2000, 5000, 10000)


def games_text(ns: list[int]) -> str:
    """'40' when every point has 40 games, '40–65' otherwise."""
    lo, hi = min(ns, default=0), max(ns, default=0)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def log_path(out: Path, budget: int) -> Path:
    return out / f"it{budget}.jsonl"


def logged(out: Path) -> dict[int, list[Outcome]]:
    """The finished games of each budget found under ``out``, in game order."""
    found: dict[int, list[Outcome]] = {}
    for path in sorted(out.glob("it*.jsonl")):
        budget = int(path.stem[2:])
        games = read_log(path)
        found[budget] = [games[i] for i in sorted(games)]
    return dict(sorted(found.items()))


def run(out: Path, bot: str, budgets: list[int], games: int, level: int,
        gnugo: str, timeout: float, tries: int = 3) -> None:
    out.mkdir(parents=True, exist_ok=True)
    # At nice 19 on a loaded machine GNU Go can take minutes of wall time for a move:
    # its answers get this timeout instead of GtpBot's default.
    versus.GtpBot = functools.partial(GtpBot, timeout=timeout)  # type: ignore[misc]
    cmd = f"{gnugo} --level {level}"
    done = {b: read_log(log_path(out, b)) if log_path(out, b).exists() else {}
            for b in budgets}
    for index in range(games):
        for budget in budgets:
            if index in done[budget]:
                continue
            spec = f"{bot}{',' if ':' in bot else ':'}iterations={budget},seconds=inf"
            for attempt in range(tries):  # the same seeds: a retry replays the game
                try:
                    outcome = play_one(spec, cmd, 9, 7.0, index, out / f"it{budget}")
                    break
                except GtpClientError as exc:
                    print(f"it={budget} game {index}: {exc}; try {attempt + 2}", flush=True)
            else:
                raise SystemExit(f"it={budget} game {index}: GNU Go failed {tries} times")
            with log_path(out, budget).open("a") as fh:
                fh.write(json.dumps({"index": index, **dataclasses.asdict(outcome)}) + "\n")
            done[budget][index] = outcome
            wins = sum(o.miai_won for o in done[budget].values())
            print(f"it={budget} game {index}: {'won' if outcome.miai_won else 'lost'} "
                  f"({outcome.gnugo_score}, {outcome.seconds:.0f} s); "
                  f"{wins}/{len(done[budget])}", flush=True)


def table(out: Path) -> str:
    lines = ["| iterations a move | games | miai wins | win rate | 95% interval (Wilson) | "
             "as black | as white | s/game |", "|---|---|---|---|---|---|---|---|"]
    for budget, outcomes in logged(out).items():
        n = len(outcomes)
        wins = sum(o.miai_won for o in outcomes)
        rate, low, high = mean_interval(wins, n)
        black = [o for o in outcomes if o.miai_black]
        white = [o for o in outcomes if not o.miai_black]
        secs = sum(o.seconds for o in outcomes) / max(1, n)
        lines.append(f"| {budget:,} | {n} | {wins} | {rate:.1%} | {low:.1%}–{high:.1%} | "
                     f"{sum(o.miai_won for o in black)}/{len(black)} | "
                     f"{sum(o.miai_won for o in white)}/{len(white)} | {secs:.0f} |")
    return "\n".join(lines)


def plot(path: Path, series: list[tuple[str, Path]]) -> None:
    """Win rate against iterations a move (log scale), 95% Wilson intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for k, (label, out) in enumerate(series):
        points = logged(out)
        xs, ys, lo, hi, ns = [], [], [], [], []
        for budget, outcomes in points.items():
            rate, low, high = mean_interval(sum(o.miai_won for o in outcomes), len(outcomes))
            xs.append(budget * (1.0 + 0.04 * k))  # series side by side
            ys.append(100 * rate)
            lo.append(100 * (rate - low))
            hi.append(100 * (high - rate))
            ns.append(len(outcomes))
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=4, color=f"C{k}",
                    label=f"{label} ({games_text(ns)} games a point)")
    for y, text, style in ((85, "target at 1k: 85%", "--"), (90, "Pachi at 500: 90%", ":")):
        ax.axhline(y, color="grey", linestyle=style, linewidth=1)
        ax.text(420, y, " " + text, va="bottom", fontsize=8, color="grey")
    ax.set_xscale("log")
    ax.set_xticks(list(BUDGETS), [f"{b:,}" for b in BUDGETS])
    ax.set_xlim(400, 12500)
    ax.set_ylim(0, 100)
    ax.set_xlabel("iterations a move")
    ax.set_ylabel("wins against GNU Go (%)")
    ax.set_title("9x9, komi 7, GNU Go 3.8 level 10; 95% Wilson intervals", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="directory of the logs and SGFs (play)")
    ap.add_argument("--bot", default="go9",
                    help="miai bot spec without a budget, e.g. go9 or go9:priors=3")
    ap.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    ap.add_argument("--games", type=int, default=40, help="games per budget")
    ap.add_argument("--level", type=int, default=10, help="GNU Go --level")
    ap.add_argument("--gnugo", default="gnugo --mode gtp --chinese-rules --positional-superko")
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="seconds GNU Go may take for one answer (wall time)")
    ap.add_argument("--table", type=Path, default=None, help="print the table of a run")
    ap.add_argument("--plot", type=Path, default=None, help="draw the --series into a PNG")
    ap.add_argument("--series", action="append", default=[], metavar="LABEL=DIR")
    args = ap.parse_args(argv)
    if args.table:
        print(table(args.table))
        return 0
    if args.plot:
        pairs = []
        for text in args.series:
            label, sep, where = text.partition("=")
            if not sep:
                ap.error(f"bad --series {text!r}: expected LABEL=DIR")
            pairs.append((label, Path(where)))
        plot(args.plot, pairs)
        return 0
    if args.out is None:
        ap.error("--out is needed to play")
    run(args.out, args.bot, args.budgets, args.games, args.level, args.gnugo, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())

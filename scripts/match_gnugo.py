#!/usr/bin/env python3
"""Play a miai bot against GNU Go (komi 7, area scoring, colours alternated), 9x9 or --size.

Every finished game is scored twice: by GNU Go's ``final_score`` (with
``--chinese-rules``, GNU Go's own dead-stone analysis) and by miai's GTP scorer (area
count with dead stones estimated from playouts); disagreements are reported.  Results
go to stdout as a table; ``--sgf DIR`` saves each game.

    python3 scripts/match_gnugo.py --bot go9 --games 100 --level 10
    python3 scripts/match_gnugo.py --bot "uct:iterations=500" --games 2   # quick check
    python3 scripts/match_gnugo.py --bot "go:seconds=5" --size 13 --games 60 --level 10 \
        --first 2000 --log docs/data/go-gnugo-13-l10-5s/g13_5s_2000.jsonl \
        --sgf docs/data/go-gnugo-13-l10-5s/sgf       # 13x13 at 5 s per move

A long series can be split across processes and resumed: ``--first 50 --games 50`` plays
games 50-99 (game i uses seed i and miai is black in even games), ``--log FILE`` appends
one JSON line per finished game and skips the games already in it, and ``--summary
FILE...`` prints the table for the union of logs without playing.

``--plot PNG --series LABEL=FILE[,FILE...] ...`` draws each series' win rate with its
95% Wilson interval beside the issue's marks (50%: the 2 s milestone; 90%: the 10 s
goal; 92.4%: Huang et al.'s result at 10 s per move):

    python3 scripts/match_gnugo.py --plot docs/go-vs-gnugo.png \
        --series "2 s per move=docs/data/go-gnugo-l10-2s/g2s_0.jsonl,..." \
        --series "10 s per move=docs/data/go-gnugo-l10-10s/g10s_1000.jsonl,..."
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from bots.tournament.stats import mean_interval  # noqa: E402
from protocols.gtp.versus import Outcome, play_one, winner_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="go9", help="miai bot spec")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=10, help="GNU Go --level")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--gnugo", default="gnugo --mode gtp --chinese-rules --positional-superko",
                    help="GNU Go command line (without --level/--seed)")
    ap.add_argument("--sgf", type=Path, default=None, help="save games here")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (its seed)")
    ap.add_argument("--log", type=Path, default=None,
                    help="append each finished game here as a JSON line; resume from it")
    ap.add_argument("--summary", type=Path, nargs="+", default=None,
                    help="print the table for these logs and exit")
    ap.add_argument("--plot", type=Path, default=None,
                    help="draw the --series' win rates into this PNG and exit")
    ap.add_argument("--series", action="append", default=[], metavar="LABEL=FILE[,FILE...]",
                    help="a series for --plot: a label and its logs")
    args = ap.parse_args(argv)
    if args.plot:
        if not args.series:
            ap.error("--plot needs at least one --series")
        plot(args.plot, [parse_series(text) for text in args.series])
        return 0
    if args.summary:
        report(args.bot, args.level, read_logs(args.summary))
        return 0
    cmd = f"{args.gnugo} --level {args.level}"
    done = read_log(args.log) if args.log and args.log.exists() else {}
    outcomes: list[Outcome] = [o for i, o in done.items()
                               if args.first <= i < args.first + args.games]
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    bar = tqdm(todo, unit="game", file=sys.stderr)
    for i in bar:
        outcome = play_one(args.bot, cmd, args.size, args.komi, i, args.sgf)
        outcomes.append(outcome)
        if args.log is not None:
            with args.log.open("a") as fh:
                fh.write(json.dumps({"index": i, **dataclasses.asdict(outcome)}) + "\n")
        wins = sum(o.miai_won for o in outcomes)
        bar.set_postfix_str(f"miai {wins}/{len(outcomes)}")
    report(args.bot, args.level, outcomes)
    return 0


def read_log(path: Path) -> dict[int, Outcome]:
    """Outcomes by game index from a ``--log`` file (later lines win)."""
    out: dict[int, Outcome] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            index = int(row.pop("index"))  # before Outcome(**row): no "index" field
            out[index] = Outcome(**row)
    return out


def read_logs(paths: list[Path]) -> list[Outcome]:
    """The union of several ``--log`` files' games, in game order (later lines win)."""
    logged: dict[int, Outcome] = {}
    for path in paths:
        logged.update(read_log(path))
    return [logged[i] for i in sorted(logged)]


def parse_series(text: str) -> tuple[str, list[Outcome]]:
    """``LABEL=FILE[,FILE...]``: the label and the union of those logs' games."""
    label, sep, files = text.partition("=")
    if not sep or not label or not files:
        raise SystemExit(f"bad --series {text!r}: expected LABEL=FILE[,FILE...]")
    return label, read_logs([Path(name) for name in files.split(",")])


def plot(path: Path, series: list[tuple[str, list[Outcome]]]) -> None:
    """Each series' win rate and 95% Wilson interval, with the issue's marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for x, (_, outcomes) in enumerate(series):
        rate, low, high = mean_interval(sum(o.miai_won for o in outcomes), len(outcomes))
        ax.errorbar([x], [100 * rate], yerr=[[100 * (rate - low)], [100 * (high - rate)]],
                    fmt="o", capsize=6, color="C0")
        ax.annotate(f"{sum(o.miai_won for o in outcomes)}/{len(outcomes)}", (x, 100 * rate),
                    textcoords="offset points", xytext=(-12, -4), ha="right")
    right, left = len(series) - 0.5, -0.5  # the two close marks labelled apart
    for y, text, style, x, va in ((50, "2 s milestone 50%", ":", left, "bottom"),
                                  (90, "10 s goal 90%", "--", left, "top"),
                                  (92.4, "Huang et al. 92.4%", "-.", right, "bottom")):
        ax.axhline(y, color="grey", linestyle=style, linewidth=1)
        ax.text(x, y, " " + text + " ", va=va, ha="left" if x == left else "right",
                fontsize=8, color="grey")
    ax.set_xticks(range(len(series)), [label for label, _ in series])
    ax.set_xlim(-0.5, len(series) - 0.5)
    ax.set_ylim(0, 100)
    ax.set_ylabel("miai's wins against GNU Go (%)")
    ax.set_title("9x9, komi 7, GNU Go 3.8 level 10; 95% Wilson intervals", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def report(bot: str, level: int, outcomes: list[Outcome]) -> None:
    n = len(outcomes)
    wins = sum(o.miai_won for o in outcomes)
    rate, low, high = mean_interval(wins, n)
    disagree = [o for o in outcomes
                if "R" not in o.gnugo_score and winner_of(o.gnugo_score) != winner_of(o.miai_score)]
    print("| bot | GNU Go level | games | miai wins | win rate | 95% interval (Wilson) | "
          "winner disagreements |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {bot} | {level} | {n} | {wins} | {rate:.1%} | "
          f"{low:.1%}–{high:.1%} | {len(disagree)} |")
    for black, colour in ((True, "Black"), (False, "White")):
        games = [o for o in outcomes if o.miai_black == black]
        print(f"as {colour}: {sum(o.miai_won for o in games)}/{len(games)}")
    for o in disagree:
        print(f"disagreement: GNU Go {o.gnugo_score}, miai {o.miai_score} "
              f"(miai {'black' if o.miai_black else 'white'}, {o.plies} plies)")
    secs = sum(o.seconds for o in outcomes) / max(1, n)
    print(f"mean seconds per game: {secs:.1f}")


if __name__ == "__main__":
    sys.exit(main())

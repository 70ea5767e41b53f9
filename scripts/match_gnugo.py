#!/usr/bin/env python3
"""Play a miai bot against GNU Go on 9x9 (komi 7, area scoring), colours alternated.

Every finished game is scored twice: by GNU Go's ``final_score`` (with
``--chinese-rules``, GNU Go's own dead-stone analysis) and by miai's GTP scorer (area
count with dead stones estimated from playouts); disagreements are reported.  Results
go to stdout as a table; ``--sgf DIR`` saves each game.

    python3 scripts/match_gnugo.py --bot go9 --games 100 --level 10
    python3 scripts/match_gnugo.py --bot "uct:iterations=500" --games 2   # quick check
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from bots.gtp_bot import GtpBot
from bots.match import play_game
from bots.registry import make_bot
from engine import games
from protocols.gtp import scoring
from protocols.gtp.session import GoSession


@dataclass
class Outcome:
    miai_black: bool
    miai_won: bool
    gnugo_score: str
    miai_score: str
    plies: int
    seconds: float


def score_text(margin: float) -> str:
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):.1f}"


def winner_of(score: str) -> str:
    return score[0] if score and score[0] in "BW" else "0"


def play_one(bot_spec: str, gnugo_cmd: str, size: int, komi: float, index: int,
             sgf_dir: Path | None) -> Outcome:
    game = games.create("go", size=size, komi=komi)
    miai = make_bot(bot_spec, game, seed=index)
    gnugo = GtpBot(f"{gnugo_cmd} --seed {index + 1}", game)
    miai_black = index % 2 == 0
    players = [miai, gnugo] if miai_black else [gnugo, miai]
    t0 = time.perf_counter()
    try:
        record = play_game(game, players)
        assert gnugo.client is not None
        gnugo_score = gnugo.client.send("final_score")
    finally:
        gnugo.close()
        miai.close()
    session = GoSession(size=size, komi=komi)
    state = game.initial_state()
    for ply in record.plies:
        for move in ply.moves:
            session.play(state.to_move, move)
            state.play(move)
    ours = score_text(scoring.final_margin(session))
    if gnugo.resigned:  # GNU Go resigned: miai won whatever the board says
        gnugo_score = ("B" if not miai_black else "W") + "+R"
    if sgf_dir is not None:
        from protocols.gtp import sgf

        sgf_dir.mkdir(parents=True, exist_ok=True)
        (sgf_dir / f"game{index:04d}.sgf").write_text(sgf.dump(session))
    won_colour = winner_of(gnugo_score)
    return Outcome(miai_black, won_colour == ("B" if miai_black else "W"), gnugo_score, ours,
                   len(record.plies), time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="go9", help="miai bot spec")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=10, help="GNU Go --level")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--gnugo", default="gnugo --mode gtp --chinese-rules",
                    help="GNU Go command line (without --level/--seed)")
    ap.add_argument("--sgf", type=Path, default=None, help="save games here")
    args = ap.parse_args(argv)
    cmd = f"{args.gnugo} --level {args.level}"
    outcomes: list[Outcome] = []
    bar = tqdm(range(args.games), unit="game", file=sys.stderr)
    for i in bar:
        outcomes.append(play_one(args.bot, cmd, args.size, args.komi, i, args.sgf))
        wins = sum(o.miai_won for o in outcomes)
        bar.set_postfix_str(f"miai {wins}/{len(outcomes)}")
    n = len(outcomes)
    wins = sum(o.miai_won for o in outcomes)
    rate = wins / n if n else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / n) if n else 0.0
    disagree = [o for o in outcomes
                if "R" not in o.gnugo_score and winner_of(o.gnugo_score) != winner_of(o.miai_score)]
    print("| bot | GNU Go level | games | miai wins | win rate | 95% interval | "
          "score disagreements |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {args.bot} | {args.level} | {n} | {wins} | {rate:.1%} | "
          f"±{half:.1%} | {len(disagree)} |")
    for o in disagree:
        print(f"disagreement: GNU Go {o.gnugo_score}, miai {o.miai_score} "
              f"(miai {'black' if o.miai_black else 'white'}, {o.plies} plies)")
    secs = sum(o.seconds for o in outcomes) / max(1, n)
    print(f"mean seconds per game: {secs:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

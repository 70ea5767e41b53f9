#!/usr/bin/env python3
"""Two bot specs on a packaged GDL sheet at a fixed iteration budget per move (no
clock: the same command gives the same games on any machine, loaded or not), seats
alternated every game; prints each game and the first spec's points.

    python3 scripts/experiments/ggp_duel.py connectFour uct:c=0.4,mast=1 uct:c=0.4 \
        --games 8 --iterations 3000

Two-player sheets only (the first spec's share of a game is its reward).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.registry import make_bot, resolve  # noqa: E402
from engine import games  # noqa: E402
from engine.gdl.game import load  # noqa: E402
from engine.gdl.sheets import sheet_path  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sheet")
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args()
    g = load(sheet_path(args.sheet).read_text(), args.sheet)
    if g.n_roles != 2:
        raise SystemExit(f"{args.sheet} has {g.n_roles} roles: two-player sheets only")
    points = 0.0
    for k in range(args.games):
        specs = [args.first, args.second] if k % 2 == 0 else [args.second, args.first]
        bots = [make_bot(resolve(s).with_params(iterations=args.iterations), g,
                         seed=args.seed + k) for s in specs]
        s = g.initial_state()
        while not s.is_terminal():
            if s.to_move == games.SIMULTANEOUS:
                joint = [bots[r].choose(s, r) for r in range(2)]
                for bot in bots:
                    bot.observe(s, joint)
                s = s.play_joint(joint)
            else:
                m = bots[s.to_move].choose(s, s.to_move)
                for bot in bots:
                    bot.observe(s, m)
                s = s.play(m)
        rewards = s.rewards()
        mine = rewards[0] if k % 2 == 0 else rewards[1]
        points += mine
        print(f"game {k}: {specs[0]} vs {specs[1]}: {list(rewards)}", flush=True)
    print(f"{args.first} against {args.second} on {args.sheet}: {points:g} of "
          f"{args.games} points ({args.iterations} iterations a move)")


if __name__ == "__main__":
    main()

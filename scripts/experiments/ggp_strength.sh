#!/bin/sh
# Issue 31's series: the GGP preset (`ggp`) against today's `uct:c=0.4` over a panel
# of packaged sheets through `miai gamemaster`, seats rotated every match, no pondering
# (both players share one 2-core machine), records under OUT/<game>/.  Rounds: every
# game gets ROUND more matches per round up to MATCHES, so a stopped series covers all
# games evenly; the same command line resumes it (--resume plays only missing
# matches).  Usage: scripts/experiments/ggp_strength.sh OUT [MATCHES] [ROUND] [PLAY]
# Summary: python3 scripts/ggp_summary.py OUT/* --player ggp
set -eu
OUT=${1:?usage: ggp_strength.sh OUT [MATCHES] [ROUND] [PLAY]}
MATCHES=${2:-20}
ROUND=${3:-2}
PLAY=${4:-2}
BOT=${BOT:-ggp}
OPPONENT=${OPPONENT:-uct:c=0.4}
# two-player alternating, simultaneous (roshambo2, blocker; gt_prisoner not zero-sum)
# and three-player games; the seed per game keeps each game's records apart
GAMES="tictactoe connectFour nineBoardTicTacToe breakthrough pawn_whopping chomp nim1
sum15 numbertictactoe roshambo2 gt_prisoner blocker 3pConnectFour"
n=$ROUND
while [ "$n" -le "$MATCHES" ]; do
    seed=300
    for game in $GAMES; do
        seed=$((seed + 1))
        start=10
        [ "$game" = breakthrough ] && start=30
        nice -n 19 python3 -m protocols.cli gamemaster "$game" --bot "$BOT" \
            --opponent "$OPPONENT" --matches "$n" --start-clock "$start" \
            --play-clock "$PLAY" --no-ponder --seed "$seed" --out "$OUT/$game" --resume \
            || echo "ggp_strength: $game failed" >&2
    done
    n=$((n + ROUND))
done

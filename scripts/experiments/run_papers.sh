#!/bin/sh
# Issue #30: the papers' experiments one after another (or those named in
# EXPERIMENTS, e.g. EXPERIMENTS="ucd_hex auct_othello"), each at its file's default
# size, into docs/data/papers/FILE.db, at the lowest priority and one process at a
# time (the machine is shared).  Resumable: run it again and each experiment plays
# only its missing games; a missing FILE.db is first restored from its committed
# snapshot FILE.db.xz (scripts/experiments/snapshot.sh).
#   nohup sh scripts/experiments/run_papers.sh > docs/data/papers/run.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# Cheapest and most decisive first; a complete run is only checked, not played again.
DEFAULT="ucd_hex uctstar_connect4 ucd_leftright auct_othello uctstar_breakthrough
    uctstar_othello pruning_connect4 auct_havannah auct_rave_go9 ucd_go6 huang_gnugo
    auct_go9"
for name in ${EXPERIMENTS:-$DEFAULT}; do
    db="docs/data/papers/$name.db"
    if [ ! -e "$db" ] && [ -e "$db.xz" ]; then
        xz -dk "$db.xz"
    fi
    echo "$(date -u +%FT%TZ) start $name"
    nice -n 19 python3 -m protocols.cli experiment "scripts/experiments/$name.toml" \
        --db "$db" --workers 1 --no-report --quiet
    echo "$(date -u +%FT%TZ) done $name"
done

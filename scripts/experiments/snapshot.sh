#!/bin/sh
# Snapshot results files for the repository: for each RESULTS.db given, write
# RESULTS.db.xz, an xz-compressed, consistent copy (SQLite's online backup, so it is
# safe while a run is still writing to RESULTS.db).  Read a snapshot with
#   python3 -m protocols.cli report docs/data/papers/FILE.db.xz
# and resume its run by decompressing it first (same command as the run).
set -eu
for db in "$@"; do
    tmp=$(mktemp --suffix=.db)
    sqlite3 "$db" ".backup '$tmp'"
    sqlite3 "$tmp" "PRAGMA journal_mode=DELETE; VACUUM;" >/dev/null
    xz -9 -T1 -c "$tmp" > "$db.xz.tmp"
    mv "$db.xz.tmp" "$db.xz"
    rm -f "$tmp"
    echo "$db.xz: $(sqlite3 "$db" 'select count(*) from games') games"
done

"""Tournaments between bots at scale: schedules, a resumable SQLite store, local and
Dask runners, statistics (Wilson intervals, Bradley-Terry Elo), reports and the
papers' experiments as TOML files.  See docs/tournaments.md."""

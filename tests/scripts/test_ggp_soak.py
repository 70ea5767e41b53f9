"""scripts/ggp_soak.py at CI size: every kind of match but the abandoned one (its
expiry takes a start clock and three play clocks; tests/protocols/ggp covers it)
once, against the player in its own process.  Checked: no 5xx reply, no nil or
illegal move where a legal one existed, no grounding child left, no thread left
beyond the player's pools, a resource
sample per match.  Missed clocks are reported, not asserted (a timing figure on a
shared machine)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = ["full", "abort", "preview-flood", "bare-newline", "late-body", "stalled"]


def test_a_short_soak_plays_every_kind_of_match_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ggp_soak.py"), "--minutes", "5",
         "--matches", str(len(KINDS)),
         "--kinds", *KINDS, "--games", "tictactoe", "nim1", "--max-plies", "3",
         "--start-clock", "3", "--play-clock", "2", "--big", "chess", "amazons",
         "checkers", "pentago", "quarto", "merrills", "--settle", "0.5",
         "--json", str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.exists(), run.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["matches"] == len(KINDS), run.stdout
    assert set(report["by_kind"]) == set(KINDS)
    assert report["http_5xx"] == 0 and report["nil_with_legal"] == 0, report["problems"]
    assert report["final_children"] == 0
    # back to the idle thread count but for the player's pool workers
    assert report["threads_ok"], (report["idle_threads"], report["final_threads"])
    assert len(report["samples"]) == report["matches"] + 1  # idle, then each match
    assert report["idle_rss"] > 0 and report["final_rss"] >= report["samples"][0]["rss"] / 2
    assert "missed clocks" in run.stdout

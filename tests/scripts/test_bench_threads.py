"""scripts/bench_threads.py runs and writes its JSON rows (no figure is held to a
target: timing has no place in a test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_threads.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_rows_for_each_game_and_thread_count(tmp_path: Path) -> None:
    out = tmp_path / "threads.json"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "connect4", "go9", "--threads", "1", "2",
         "--seconds", "0.1", "--warmup", "0", "--repeat", "1", "--json", str(out)],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())
    assert [(r["game"], r["threads"]) for r in rows] == [
        ("connect4", 1), ("connect4", 2), ("go9", 1), ("go9", 2)]
    for r in rows:
        assert r["iterations_per_s"] > 0
        assert {"game", "threads", "iterations_per_s", "speedup"} <= r.keys()
        if r["threads"] == 1:
            assert r["speedup"] == 1.0 and r["lock_held"] is None
        else:
            assert r["speedup"] > 0 and 0 <= r["lock_held"] <= 1

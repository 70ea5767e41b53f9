"""scripts/bench_search.py: its CI-sized run, its records, and memory that is measured.

No figure is held to a target here (timing has no place in a test); the memory check
compares two measurements of the same kind with each other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_search.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
FIELDS = {"miai_sims_per_s", "openspiel_sims_per_s", "ratio", "bytes_per_edge",
          "bytes_per_node"}


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=600)


def test_ci_run_writes_one_record_per_game_mode_and_size(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    out = tmp_path / "bench.json"
    proc = bench("--ci", "--games", "tictactoe", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    records = json.loads(out.read_text())
    keys = {(r["game"], r["mode"], r["size"]) for r in records}
    assert keys == {("tictactoe", m, n) for m in ("dag", "tree") for n in (2000, 4000)}
    assert len(records) == len(keys)
    for r in records:
        assert r.keys() >= FIELDS
        assert r["ratio"] == pytest.approx(r["miai_sims_per_s"] / r["openspiel_sims_per_s"])
        assert r["runs"] == 1 and r["openspiel_sims"] == r["size"]
        assert r["edges"] > 0 and r["nodes"] > 0


def child(game: str, mode: str, size: int) -> dict[str, int]:
    proc = bench("--child", "miai", game, "uct", mode, str(size), "1", "1")
    assert proc.returncode == 0, proc.stderr
    out: dict[str, int] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_memory_is_measured_twice_the_search_about_twice_the_bytes(mode: str) -> None:
    """The bytes come from the process (RSS growth over the search), so a search of
    twice the iterations, with about twice the edges, shows about twice the bytes; a
    figure made from sizeof constants would not move with the arenas' slack, and one
    of zero (or a fixed overhead) would not double."""
    small, big = child("connect4", mode, 60_000), child("connect4", mode, 120_000)
    assert big["edges"] / small["edges"] == pytest.approx(2.0, rel=0.25)
    assert big["rss"] / small["rss"] == pytest.approx(2.0, rel=0.3)
    # Everything the search touched is in the figure: at least the edges themselves.
    assert small["rss"] >= 32 * small["edges"]

"""scripts/learn_go_patterns.py: its minorization-maximization fit recovers the gammas
that generated a synthetic data set (the independent truth), and the script learns
from the committed games of miai against GNU Go, beating a uniform guess on held-out
games."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "learn_go_patterns.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def load_script():
    spec = importlib.util.spec_from_file_location("learn_go_patterns", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader
    sys.modules["learn_go_patterns"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_mm_recovers_the_generating_gammas() -> None:
    mod = load_script()
    rng = np.random.default_rng(3)
    levels = mod.LEVELS
    truth = {1: 3.0, 2: 0.5, levels + 1: 8.0, levels + 2: 0.25}  # ids: (group, level)
    n_pos, per = 4000, 12
    feats = np.zeros((n_pos * per, 9), dtype=np.int64)
    feats[:, 0] = rng.choice([0, 1, 2], size=n_pos * per)
    feats[:, 1] = np.where(rng.random(n_pos * per) < 0.15,
                           rng.choice([levels + 1, levels + 2], size=n_pos * per), 0)
    gamma = np.ones(2 * levels + 1)
    for k, v in truth.items():
        gamma[k] = v
    strength = np.prod(gamma[feats], axis=1).reshape(n_pos, per)
    won = np.array([rng.choice(per, p=row / row.sum()) for row in strength])
    data = mod.Data(feats, np.repeat(np.arange(n_pos), per), won, 1)
    fitted = mod.fit(data, 2 * levels + 1, sweeps=30)
    for k, v in truth.items():
        assert abs(fitted[k] / v - 1) < 0.2, (k, fitted[k], v)
    assert mod.loglik(data, fitted) > mod.loglik(data, np.ones_like(fitted))


def test_the_script_learns_from_the_committed_games(tmp_path: Path) -> None:
    out = tmp_path / "fit.json"
    header = tmp_path / "go_model_data.h"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(ROOT / "docs/data/go-gnugo-l10-2s/sgf"),
         "--sweeps", "3", "--json", str(out), "--header", str(header)],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rec = json.loads(out.read_text())
    assert rec["train_games"] == 80 and rec["test_games"] == 20
    assert rec["top1_test"] > 3 * rec["top1_test_uniform"]
    assert rec["loglik_test_per_move"] > rec["loglik_test_uniform_per_move"]
    text = header.read_text()
    assert f"#define GO_MODEL_PATTERNS {rec['patterns']}u" in text

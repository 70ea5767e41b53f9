#!/usr/bin/env python3
"""Learn the Go move model's gammas from games (Coulom 2007's minorization-maximization).

The teacher is the player whose moves are learnt: GNU Go in the games miai played
against it (scripts/match_gnugo.py and scripts/experiments/go_curve.py keep their SGFs
and a JSON log saying which colour miai had; both colours when ``--both``).  Every
position where the teacher moved gives one "competition" among all legal moves (the
features of engine.go_model); the fit finds gammas that make the teacher's choices
likely (Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go", ICGA
Journal 30(4), 2007, section 3: each gamma has a prior of one win and one loss
against a virtual opponent of gamma 1).  Games are split: every ``--test-every``-th
game is held out and the report gives the share of its teacher moves the model ranks
first, against the old prior kinds (+1/0/-1) of go9's knowledge.

    python3 scripts/learn_go_patterns.py docs/data/go-gnugo-l10-2s/sgf \
        docs/data/go-gnugo-l10-10s/sgf docs/data/go-curve/before/it[0-9]* \
        docs/data/go-curve/priors3/it[0-9]* \
        --header csrc/games/go_model_data.h --json docs/data/go-model/fit.json

Each directory of SGFs (gameNNNN.sgf) finds its log beside it: DIR.jsonl, or else
every *.jsonl in DIR's parent (lines with ``index`` and ``miai_black``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sgfmill import sgf
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

import engine  # noqa: E402
from engine import go, go_model  # noqa: E402
from engine.core import ffi, lib  # noqa: E402

LEVELS = go_model.LEVELS
PATTERN = go_model.PATTERN
PATTERN_BASE = PATTERN * LEVELS  # ids below: (group, level); from here: patterns


@dataclass
class Data:
    """Competitions: feats[m] the features of candidate m, pos[m] its position,
    won[j] the index of the teacher's move of position j."""

    feats: np.ndarray
    pos: np.ndarray
    won: np.ndarray
    games: int


def teacher_colours(sgf_dir: Path, both: bool) -> dict[int, set[str]]:
    logs = [sgf_dir.with_suffix(".jsonl")]
    if not logs[0].exists():
        logs = sorted(sgf_dir.parent.glob("*.jsonl"))
    out: dict[int, set[str]] = {}
    for log in logs:
        for line in log.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            if "index" not in rec or "miai_black" not in rec:
                continue
            out[int(rec["index"])] = {"b", "w"} if both else {"w" if rec["miai_black"] else "b"}
    return out


KINDS_POLICY = go.POLICY_FULL | go.PRIOR_LINES | go.PRIOR_LADDER


def kinds_of(state: engine.State, moves: list[int], game: engine.Game) -> np.ndarray:
    """go9's prior kinds (+1/0/-1) of moves, for the comparison; ``game`` is the
    position's Go game with KINDS_POLICY (made once per game record)."""
    st = go.in_game(state, game)
    cm = ffi.new("miai_move[]", moves)
    out = ffi.new("int8_t[]", len(moves))
    kinds = np.zeros(len(moves), dtype=np.int8)
    if lib.go_knowledge_kinds(game.ptr, st.ptr, cm, len(moves), out) == lib.MIAI_OK:
        kinds[:] = [out[i] for i in range(len(moves))]
    return kinds


def read_games(dirs: list[Path], both: bool, test_every: int,
               with_kinds: bool) -> tuple[list, list]:
    """Per game: (feature rows, positions' sizes, teacher indices, kinds)."""
    train, test = [], []
    files = []
    for d in dirs:
        colours = teacher_colours(d, both)
        for f in sorted(d.glob("game*.sgf")):
            index = int(f.stem[4:])
            if index in colours:
                files.append((f, colours[index]))
    for n, (f, teach) in enumerate(tqdm(files, unit="game", file=sys.stderr)):
        game_sgf = sgf.Sgf_game.from_bytes(f.read_bytes())
        size = game_sgf.get_size()
        game = engine.create("go", size=size, komi=game_sgf.get_komi())
        state = game.initial_state()
        kinds_game = go.policy_game(game, KINDS_POLICY) if with_kinds else None
        rows, sizes, won, kinds = [], [], [], []
        prev_pass = False
        for node in game_sgf.get_main_sequence()[1:]:
            colour, where = node.get_move()
            if colour is None:
                continue
            move = size * size if where is None else (size - 1 - where[0]) * size + where[1]
            role = 0 if colour == "b" else 1
            if (colour in teach and state.to_move == role and not state.is_terminal()
                    and not (move == size * size and prev_pass)):
                legal = state.legal_moves()
                if move in legal:
                    rows.append(go_model.features(state, legal))
                    sizes.append(len(legal))
                    won.append(legal.index(move))
                    if with_kinds:
                        kinds.append(kinds_of(state, legal, kinds_game))
            if colour in teach:  # the teacher's passes after its own pass are not learnt
                prev_pass = move == size * size
            try:
                go.play_as(state, role, move)
            except engine.errors.MiaiError:
                break
            if state.is_terminal():
                break
        (test if test_every and n % test_every == 0 else train).append(
            (rows, sizes, won, kinds))
    return train, test


def to_ids(rows: np.ndarray, patterns: dict[int, int]) -> np.ndarray:
    """Feature levels to gamma ids: (group, level) -> group * LEVELS + level (level 0
    -> id 0, the fixed gamma 1); a pattern -> its id, or the rare patterns' id."""
    ids = np.zeros_like(rows, dtype=np.int64)
    for k in range(PATTERN):
        lv = rows[:, k].astype(np.int64)
        ids[:, k] = np.where(lv > 0, k * LEVELS + lv, 0)
    rare = PATTERN_BASE + len(patterns)
    pat = rows[:, PATTERN]
    ids[:, PATTERN] = [0 if p == 0 else patterns.get(int(p) - 1, rare) for p in pat]
    return ids


def stack(games: list, patterns: dict[int, int]) -> Data:
    feats, pos, won = [], [], []
    j = 0
    for rows, sizes, wins, _ in games:
        for r, size, w in zip(rows, sizes, wins, strict=False):
            feats.append(r)
            pos.append(np.full(size, j, dtype=np.int64))
            won.append(w)
            j += 1
    f = np.concatenate(feats) if feats else np.zeros((0, go_model.N_GROUPS), np.uint32)
    return Data(to_ids(f, patterns), np.concatenate(pos) if pos else np.zeros(0, np.int64),
                np.array(won, dtype=np.int64), len(games))


def winners(d: Data) -> np.ndarray:
    """The candidate row of each position's teacher move."""
    starts = np.searchsorted(d.pos, np.arange(len(d.won)))
    return starts + d.won


def fit(d: Data, n_ids: int, sweeps: int) -> np.ndarray:
    """Coulom's MM: one group of features at a time, every gamma of the group at once
    (a move has at most one feature of each group)."""
    gamma = np.ones(n_ids)
    win_rows = winners(d)
    n_pos = len(d.won)
    for sweep in range(sweeps):
        for k in range(go_model.N_GROUPS):
            strength = np.prod(gamma[d.feats], axis=1)
            e = np.bincount(d.pos, weights=strength, minlength=n_pos)
            ids = d.feats[:, k]
            c = strength / gamma[ids] / e[d.pos]
            den = np.bincount(ids, weights=c, minlength=n_ids)
            wins = np.bincount(ids[win_rows], minlength=n_ids)
            upd = (wins + 1.0) / (den + 2.0 / (gamma + 1.0))
            mask = np.zeros(n_ids, dtype=bool)
            mask[np.unique(ids)] = True
            mask[0] = False
            gamma[mask] = upd[mask]
        if sweep % 10 == 9:
            print(f"sweep {sweep + 1}: log-likelihood {loglik(d, gamma):.1f}", file=sys.stderr)
    return gamma


def loglik(d: Data, gamma: np.ndarray) -> float:
    strength = np.prod(gamma[d.feats], axis=1)
    e = np.bincount(d.pos, weights=strength, minlength=len(d.won))
    return float(np.sum(np.log(strength[winners(d)] / e)))


def top1(d: Data, gamma: np.ndarray) -> float:
    """Share of positions where the teacher's move has the highest strength (ties
    shared: 1/k for a k-way tie at the top)."""
    strength = np.prod(gamma[d.feats], axis=1)
    best = np.full(len(d.won), -np.inf)
    np.maximum.at(best, d.pos, strength)
    at_top = strength >= best[d.pos] * (1 - 1e-12)
    ties = np.bincount(d.pos, weights=at_top, minlength=len(d.won))
    w = winners(d)
    return float(np.mean(np.where(at_top[w], 1.0 / ties, 0.0)))


def kinds_top1(games: list) -> float:
    score = []
    for _, _, wins, kinds in games:
        for w, k in zip(wins, kinds, strict=False):
            top = k.max()
            score.append(1.0 / np.sum(k == top) if k[w] == top else 0.0)
    return float(np.mean(score)) if score else float("nan")


def c_float(x: float) -> str:
    text = f"{x:.6g}"
    return (text if "." in text or "e" in text else text + ".0") + "f"


def write_header(path: Path, gamma: np.ndarray, patterns: dict[int, int], meta: str) -> None:
    levels = gamma[:PATTERN_BASE].reshape(PATTERN, LEVELS).copy()
    levels[:, 0] = 1.0
    keys = sorted(patterns)
    lines = [
        "/* go_model_data.h -- GENERATED by scripts/learn_go_patterns.py: do not edit.",
        *[f" * {line}" for line in meta.splitlines()],
        " */",
        "#ifndef MIAI_GO_MODEL_DATA_H",
        "#define MIAI_GO_MODEL_DATA_H",
        "",
        "#include <stdint.h>",
        "",
        f"#define GO_MODEL_PATTERNS {len(keys)}u",
        f"#define GO_MODEL_PATTERN_RARE {c_float(gamma[PATTERN_BASE + len(keys)])}",
        f"static const float go_model_level_gamma[{PATTERN}][{LEVELS}] = {{",
    ]
    for row in levels:
        lines.append("    {" + ", ".join(c_float(x) for x in row) + "},")
    lines.append("};")
    lines.append("static const uint32_t go_model_pattern_key[GO_MODEL_PATTERNS + 1] = {")
    for i in range(0, len(keys), 8):
        lines.append("    " + ", ".join(f"{k}u" for k in keys[i:i + 8]) + ",")
    lines.append("    UINT32_MAX};")
    lines.append("static const float go_model_pattern_gamma[GO_MODEL_PATTERNS + 1] = {")
    gs = [gamma[patterns[k]] for k in keys]
    for i in range(0, len(gs), 8):
        lines.append("    " + ", ".join(c_float(x) for x in gs[i:i + 8]) + ",")
    lines.append("    1.0f};")
    lines += ["", "#endif", ""]
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", type=Path, nargs="+", help="directories of SGFs")
    ap.add_argument("--both", action="store_true", help="learn both colours' moves")
    ap.add_argument("--test-every", type=int, default=5, help="hold out every k-th game")
    ap.add_argument("--min-count", type=int, default=3,
                    help="patterns seen fewer times (as a candidate) share one gamma")
    ap.add_argument("--sweeps", type=int, default=40)
    ap.add_argument("--header", type=Path, default=None, help="write the C table here")
    ap.add_argument("--json", type=Path, default=None, help="write the fit's record here")
    args = ap.parse_args(argv)
    train, test = read_games(args.dirs, args.both, args.test_every, with_kinds=True)
    raw = np.concatenate([r for g in train for r in g[0]])
    keys, counts = np.unique(raw[:, PATTERN][raw[:, PATTERN] > 0] - 1, return_counts=True)
    kept = [int(k) for k, c in zip(keys, counts, strict=False) if c >= args.min_count]
    patterns = {k: PATTERN_BASE + i for i, k in enumerate(kept)}
    n_ids = PATTERN_BASE + len(patterns) + 1
    dtrain, dtest = stack(train, patterns), stack(test, patterns)
    print(f"{dtrain.games} training games, {len(dtrain.won)} positions, "
          f"{len(dtrain.feats)} candidates; {len(patterns)} patterns of {len(keys)} kept",
          file=sys.stderr)
    gamma = fit(dtrain, n_ids, args.sweeps)
    ones = np.ones(n_ids)
    rec = {
        "train_games": dtrain.games, "train_positions": int(len(dtrain.won)),
        "test_games": dtest.games, "test_positions": int(len(dtest.won)),
        "patterns": len(patterns), "patterns_seen": int(len(keys)),
        "min_count": args.min_count, "sweeps": args.sweeps,
        "top1_train": top1(dtrain, gamma), "top1_test": top1(dtest, gamma),
        "top1_test_uniform": top1(dtest, ones), "top1_test_kinds": kinds_top1(test),
        "loglik_test_per_move": loglik(dtest, gamma) / max(1, len(dtest.won)),
        "loglik_test_uniform_per_move": loglik(dtest, ones) / max(1, len(dtest.won)),
        "levels": {name: [round(float(x), 4) for x in gamma[k * LEVELS:(k + 1) * LEVELS]]
                   for k, name in enumerate(go_model.GROUPS[:PATTERN])},
        "rare_pattern_gamma": float(gamma[n_ids - 1]),
        "sources": [str(d) for d in args.dirs], "both_colours": args.both,
    }
    print(json.dumps({k: v for k, v in rec.items() if k != "levels"}, indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rec, indent=1) + "\n")
    if args.header:
        meta = (f"{dtrain.games} games, {len(dtrain.won)} teacher moves, "
                f"{len(patterns)} patterns (seen >= {args.min_count} times);\n"
                f"held-out top-1 {rec['top1_test']:.3f} (uniform "
                f"{rec['top1_test_uniform']:.3f}, go9's kinds {rec['top1_test_kinds']:.3f}).")
        write_header(args.header, gamma, patterns, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())

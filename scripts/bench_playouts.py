"""Uniformly random playouts per second, miai's C core against OpenSpiel's C++.

For every registered game (default parameters; Hex 11x11, Go 9x9) this measures, on
one core, in CPU seconds of this process (so other load on the machine does not count
against either side), miai's playouts from the initial state (``engine.playout_run``: the game's
playout loop entirely in C) and the plies per game.  When OpenSpiel is installed it
measures OpenSpiel's figure for the same game in the same run: OpenSpiel has no
rollout loop of its own, so an ``MCTSBot`` with ``max_simulations=1`` and a
``RandomRolloutEvaluator(rollouts)`` plays ``rollouts`` random games in C++ per
``step``.  Prints a Markdown table with the ratio.

    python3 scripts/bench_playouts.py                 # every game, 2 s per figure
    python3 scripts/bench_playouts.py --games othello,connect4 --seconds 5
    python3 scripts/bench_playouts.py --quick         # CI-sized smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games  # noqa: E402
from engine.playouts import playout_run  # noqa: E402

# Parameters that differ from the registered defaults.
BENCH_PARAMS: dict[str, dict[str, float]] = {"hex": {"size": 11}, "go": {"size": 9}}

SpielSpec = tuple[str, dict[str, Any]]


def _size(params: dict[str, float], *names: str, default: int) -> int:
    for n in names:
        if n in params:
            return int(params[n])
    return default


# miai game -> OpenSpiel game name and parameters for the same rules and size.
SPIEL: dict[str, Callable[[dict[str, float]], SpielSpec]] = {
    "tictactoe": lambda p: ("tic_tac_toe", {}),
    "connect4": lambda p: ("connect_four", {}),
    "othello": lambda p: ("othello", {}),
    "hex": lambda p: (
        "hex",
        {k: _size(p, "size", default=11) for k in ("board_size", "num_rows", "num_cols")},
    ),
    "havannah": lambda p: ("havannah", {"board_size": _size(p, "size", default=8)}),
    "breakthrough": lambda p: (
        "breakthrough",
        {
            "rows": _size(p, "rows", "size", default=8),
            "columns": _size(p, "cols", "columns", "size", default=8),
        },
    ),
    "go": lambda p: (
        "go",
        {"board_size": _size(p, "size", default=9), "komi": float(p.get("komi", 7.5))},
    ),
}


@dataclass(frozen=True)
class Row:
    game: str
    playouts_per_s: float
    plies_per_game: float
    spiel_name: str | None = None
    spiel_per_s: float | None = None

    @property
    def ratio(self) -> float | None:
        if not self.spiel_per_s:
            return None
        return self.playouts_per_s / self.spiel_per_s


def measure_miai(game: games.Game, seconds: float) -> tuple[float, float]:
    """(playouts per second, plies per game) from the initial state."""
    state = game.initial_state()
    n, elapsed = 16, 0.0
    while True:  # grow the batch until one batch takes a tenth of the budget
        t = time.process_time()
        run = playout_run(state, n, seed=n)
        elapsed = time.process_time() - t
        if elapsed >= seconds / 10 or n >= 1 << 30:
            break
        n *= 4
    total_n, total_plies, total_t = n, run.plies, elapsed
    seed = 1
    while total_t < seconds:
        t = time.process_time()
        run = playout_run(state, n, seed=seed)
        total_t += time.process_time() - t
        total_n += n
        total_plies += run.plies
        seed += 1
    return total_n / total_t, total_plies / total_n


def measure_openspiel(spec: SpielSpec, seconds: float, rollouts: int) -> float:
    """OpenSpiel's random playouts per second: MCTSBot steps of one simulation, each
    evaluated by ``rollouts`` random games in C++."""
    import pyspiel

    name, params = spec
    spiel_game = pyspiel.load_game(name, params)
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, 1)
    bot = pyspiel.MCTSBot(
        spiel_game, evaluator, 2.0, 1, 1000, False, 1, False,
        pyspiel.ChildSelectionPolicy.UCT,
    )
    state = spiel_game.new_initial_state()
    steps, t0 = 0, time.process_time()
    while True:
        bot.step(state)
        steps += 1
        elapsed = time.process_time() - t0
        if elapsed >= seconds:
            return steps * rollouts / elapsed


def spiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def bench(names: list[str], seconds: float, rollouts: int, with_spiel: bool) -> list[Row]:
    rows = []
    for name in names:
        game = games.create(name, **BENCH_PARAMS.get(name, {}))
        per_s, plies = measure_miai(game, seconds)
        row = Row(game.spec, per_s, plies)
        if with_spiel and name in SPIEL:
            spec = SPIEL[name](game.params)
            row = Row(game.spec, per_s, plies, spec[0], measure_openspiel(spec, seconds, rollouts))
        rows.append(row)
        print(f"  measured {game.spec}", file=sys.stderr, flush=True)
    return rows


def markdown(rows: list[Row], with_spiel: bool) -> str:
    head = "| game | miai playouts/s | plies/game |"
    rule = "|---|---:|---:|"
    if with_spiel:
        head += " OpenSpiel game | OpenSpiel playouts/s | miai / OpenSpiel |"
        rule += "---|---:|---:|"
    lines = [head, rule]
    for r in rows:
        line = f"| {r.game} | {r.playouts_per_s:,.0f} | {r.plies_per_game:.1f} |"
        if with_spiel:
            if r.spiel_per_s is None:
                line += " (none) | | |"
            else:
                line += f" {r.spiel_name} | {r.spiel_per_s:,.0f} | {r.ratio:.1f}x |"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", help="comma-separated game names (default: every game)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--rollouts", type=int, default=1000,
                    help="OpenSpiel random games per MCTSBot step")
    ap.add_argument("--quick", action="store_true",
                    help="CI-sized run: 0.05 s per figure, 10 OpenSpiel games per step")
    ap.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.rollouts = 0.05, 10
    if args.seconds <= 0 or args.rollouts < 1:
        ap.error("--seconds and --rollouts must be positive")
    known = sorted(games.available())
    names = known if not args.games else [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in names if g not in known]
    if unknown:
        ap.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(known)}")
    with_spiel = not args.no_openspiel and spiel_available()
    if not with_spiel and not args.no_openspiel:
        print("OpenSpiel (pyspiel) is not installed: miai figures only", file=sys.stderr)
    rows = bench(names, args.seconds, args.rollouts, with_spiel)
    print(markdown(rows, with_spiel))
    return 0


if __name__ == "__main__":
    sys.exit(main())

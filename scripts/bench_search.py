#!/usr/bin/env python3
"""Search speed per game: MCTS iterations/s against raw playouts/s and OpenSpiel.

For every game (``--games``, default all registered) and every algorithm (``--algorithms``,
bot specs; default ``uct``) this measures, in one process and one run:

  * MCTS iterations per second with random playouts (``engine.search.Search``);
  * the same game's raw random playouts per second in C (``engine.playouts``), so
    ``tree overhead = 1 - (iterations/s) / (playouts/s)`` shows the cost of the tree;
  * OpenSpiel's C++ MCTS (``pyspiel.MCTSBot`` with a one-rollout random evaluator) on
    the same game with the same parameters, in simulations per second;
  * memory: bytes per edge (and node) when the search reports it
    (``SearchResult.extra``: ``bytes_per_edge``, or ``bytes`` and ``edges``); always the
    RSS growth of one search in a fresh process divided by the nodes it created (a
    check on the reported figure; coarse for small searches);
  * with several algorithms, iterations/s relative to the first one (plain UCT).

Rates are per CPU second of this process (``time.process_time``), so load from other
jobs on a shared machine counts against neither side.

Targets (issue "Search core"): >= 10x OpenSpiel's simulations/s, tree overhead < 35%,
<= 48 bytes per edge.  ``--check`` exits 1 when a measured figure misses a target.
``--quick`` runs tiny budgets (the test suite runs it so the script never rots); it
works without pyspiel and without engine.search (those columns then read n/a).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.spec import BotSpec, parse_spec  # noqa: E402
from engine import games  # noqa: E402
from engine.playouts import playout_run  # noqa: E402

# The papers' algorithms (issue "the papers' algorithms"): ``--papers`` benches these
# after plain UCT, with their targets on iterations/s relative to UCT (same game, same
# run): UCD (inf, inf, inf) with the incremental update within 2x, the others 1.2x.
PAPER_ALGORITHMS: dict[str, float] = {
    "ucd:d1=inf,d2=inf,d3=inf": 0.5,
    "ucd:d1=1,d2=0,d3=1": 0.0,
    "auct:k=3": 1 / 1.2,
    "duct:k=3": 1 / 1.2,
    "uctstar:p=0.5,s=100": 1 / 1.2,
    "uctstar:p=0.5,s=100,variant=step": 1 / 1.2,
    "mctsstar:p=0.5,s=100": 0.0,
    "uct:prune=relative,alpha=0.8": 0.0,
    "uct:solver=1": 0.0,
}
TARGET_SPEEDUP = 10.0
TARGET_OVERHEAD = 0.35
TARGET_BYTES_PER_EDGE = 48.0
SEARCH_KEYS = ("iterations", "seconds", "nodes", "seed", "mode")

# miai game -> (OpenSpiel game, {miai parameter: OpenSpiel parameter(s)}).  A game with a
# parameter not listed here is not compared (it would not be the same game).
OPENSPIEL: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "tictactoe": ("tic_tac_toe", {}),
    "connect4": ("connect_four", {"rows": ("rows",), "columns": ("columns",),
                                  "cols": ("columns",)}),
    "othello": ("othello", {}),
    "breakthrough": ("breakthrough", {"rows": ("rows",), "columns": ("columns",),
                                      "cols": ("columns",), "size": ("rows", "columns")}),
    "hex": ("hex", {"size": ("board_size",)}),
    "havannah": ("havannah", {"size": ("board_size",)}),
    "go": ("go", {"size": ("board_size",), "komi": ("komi",)}),
}


@dataclass
class Row:
    game: str
    algorithm: str
    iterations: int | None = None
    iterations_per_s: float | None = None
    playouts_per_s: float | None = None
    tree_overhead: float | None = None
    openspiel_sims_per_s: float | None = None
    speedup_vs_openspiel: float | None = None
    relative_to_first: float | None = None
    nodes: int | None = None
    bytes_per_edge: float | None = None
    bytes_per_node: float | None = None
    rss_bytes_per_node: float | None = None  # measured, whatever the search reports
    memory_source: str = ""
    note: str = ""


def rss_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def raw_playouts_per_s(state: games.State, n: int, min_seconds: float) -> float:
    """Batches of ``n`` playouts until ``min_seconds`` have passed (at least one)."""
    done, seed = 0, 12345
    t0 = time.process_time()
    while True:
        playout_run(state, n, seed)
        done, seed = done + n, seed + 1
        elapsed = time.process_time() - t0
        if elapsed >= min_seconds:
            return done / max(elapsed, 1e-9)


def openspiel_game(game: games.Game) -> tuple[str, dict[str, Any]] | None:
    entry = OPENSPIEL.get(game.name)
    if entry is None:
        return None
    name, mapping = entry
    params: dict[str, Any] = {}
    for key, value in game.params.items():
        if key == "policy" and float(value) == 0:
            continue  # Go's light (uniform) playouts: the same game as OpenSpiel's
        if key not in mapping:
            return None
        for target in mapping[key]:
            params[target] = int(value) if float(value).is_integer() and key != "komi" \
                else float(value)
    return name, params


def openspiel_sims_per_s(game: games.Game, sims: int,
                         min_seconds: float) -> tuple[float | None, str]:
    try:
        import pyspiel
    except ImportError:
        return None, "pyspiel missing"
    found = openspiel_game(game)
    if found is None:
        return None, "no OpenSpiel equivalent"
    name, params = found
    try:
        os_game = pyspiel.load_game(name, params)
    except Exception as exc:  # OpenSpiel raises its own error types
        return None, f"OpenSpiel: {exc}"
    evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
    bot = pyspiel.MCTSBot(os_game, evaluator, 2.0, sims, 4000, False, 7, False)
    state = os_game.new_initial_state()
    done = 0
    t0 = time.process_time()
    while True:  # fresh searches of `sims` simulations until min_seconds have passed
        done += bot.mcts_search(state).explore_count
        elapsed = time.process_time() - t0
        if elapsed >= min_seconds:
            return done / max(elapsed, 1e-9), ""


def search_api() -> Any | None:
    try:
        import engine.search as search
    except ImportError:
        return None
    return search


def new_search(search: Any, state: games.State, spec_text: str, seed_offset: int = 0
               ) -> tuple[Any, int]:
    """A search of ``state`` configured by a bot spec, and its iterations key (0: none)."""
    spec = parse_spec(spec_text)
    budget, algo_params = spec.split(SEARCH_KEYS)
    plain = BotSpec(spec.name, budget)
    algorithm = search.algorithm_from_spec(spec.name, dict(algo_params))
    s = search.Search(
        state.copy(), algorithm, seed=(plain.get_int("seed", 0) or 0) + seed_offset,
        max_nodes=plain.get_int("nodes", 1_000_000, minimum=1),
        mode=plain.get_choice("mode", ("dag", "tree"), "dag"),
    )
    return s, plain.get_int("iterations", 0, minimum=1) or 0


def probe_memory(game_spec: str, spec_text: str, iterations: int) -> None:
    """(--probe) In a fresh process: RSS growth of one search, as JSON on stdout."""
    import engine.search as search

    state = games.create_from_spec(game_spec).initial_state()
    s, n = new_search(search, state, spec_text)
    gc.collect()
    rss0 = rss_bytes()
    result = s.run(iterations=n or iterations)
    print(json.dumps({"grown": max(0, rss_bytes() - rss0), "nodes": int(result.nodes)}))


def rss_probe(game_spec: str, spec_text: str, iterations: int) -> tuple[int, int]:
    """(RSS growth in bytes, nodes) of one search in a fresh process, where the
    allocator holds no freed memory of earlier searches; (0, 0) if the probe fails."""
    proc = subprocess.run(
        [sys.executable, __file__, "--probe", game_spec, spec_text, str(iterations)],
        capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        return 0, 0
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return int(out["grown"]), int(out["nodes"])


def search_rate(search: Any, state: games.State, spec_text: str, iterations: int,
                min_seconds: float) -> tuple[float, int, Any]:
    """(iterations/s, iterations, the first result) of fresh searches of ``iterations``
    (unless the spec sets them) run until ``min_seconds`` have passed."""
    done, cpu, first = 0, 0.0, None
    while first is None or cpu < min_seconds:
        s, n = new_search(search, state, spec_text, seed_offset=done)
        t0 = time.process_time()
        result = s.run(iterations=n or iterations)
        cpu += time.process_time() - t0
        done += int(result.iterations)
        if first is None:
            first = result
    return done / max(cpu, 1e-9), done, first


def fill_memory(row: Row, result: Any, state: games.State, iterations: int) -> None:
    """Memory columns from the search's own counts and an RSS probe."""
    row.nodes = int(result.nodes)
    grown, probe_nodes = rss_probe(state.game.spec, row.algorithm, iterations)
    if probe_nodes:
        row.rss_bytes_per_node = grown / probe_nodes
    extra = dict(getattr(result, "extra", {}) or {})
    edges = extra.get("edges")
    if "bytes_per_edge" in extra:
        row.bytes_per_edge = float(extra["bytes_per_edge"])
        row.memory_source = "search"
    elif "bytes" in extra and edges:
        row.bytes_per_edge = float(extra["bytes"]) / float(edges)
        row.memory_source = "search"
    else:
        row.memory_source = "rss"
        if edges and probe_nodes == row.nodes:
            row.bytes_per_edge = grown / float(edges)
    if row.memory_source == "search" and "bytes_per_node" in extra:
        row.bytes_per_node = float(extra["bytes_per_node"])


def _best(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def bench(game_specs: list[str], algorithms: list[str], iterations: int, playouts: int,
          os_sims: int, min_seconds: float = 0.0, rounds: int = 1) -> list[Row]:
    """Every figure is the best of ``rounds`` rounds; a round times raw playouts,
    OpenSpiel and each algorithm in turn, so load on a shared machine hits them alike."""
    search = search_api()
    rows: list[Row] = []
    for game_spec in game_specs:
        game = games.create_from_spec(game_spec)
        state = game.initial_state()
        pps: float | None = None
        os_rate: float | None = None
        os_note = ""
        rates: dict[str, float | None] = dict.fromkeys(algorithms)
        done: dict[str, int] = dict.fromkeys(algorithms, 0)
        firsts: dict[str, Any] = {}
        for _ in range(max(1, rounds)):
            pps = _best(pps, raw_playouts_per_s(state, playouts, min_seconds))
            rate, os_note = openspiel_sims_per_s(game, os_sims, min_seconds)
            os_rate = _best(os_rate, rate)
            for algo in algorithms if search is not None else []:
                rate, n, first = search_rate(search, state, algo, iterations, min_seconds)
                rates[algo] = _best(rates[algo], rate)
                done[algo] += n
                firsts.setdefault(algo, first)
        first_rate: float | None = None
        for algo in algorithms:
            row = Row(game.spec, algo, playouts_per_s=pps, openspiel_sims_per_s=os_rate)
            notes = [os_note] if os_note else []
            if search is None:
                notes.append("engine.search missing")
            else:
                row.iterations, row.iterations_per_s = done[algo], rates[algo]
                fill_memory(row, firsts[algo], state, iterations)
            if row.iterations_per_s is not None and pps:
                row.tree_overhead = 1.0 - row.iterations_per_s / pps
                if os_rate:
                    row.speedup_vs_openspiel = row.iterations_per_s / os_rate
                if first_rate is None:
                    first_rate = row.iterations_per_s
                row.relative_to_first = row.iterations_per_s / first_rate
            row.note = "; ".join(notes)
            rows.append(row)
    return rows


def misses(row: Row) -> list[str]:
    out = []
    low = PAPER_ALGORITHMS.get(row.algorithm, 0.0)
    if row.relative_to_first is not None and row.relative_to_first < low:
        out.append(f"{row.relative_to_first:.2f}x UCT < {low:.2f}x")
    if row.speedup_vs_openspiel is not None and row.speedup_vs_openspiel < TARGET_SPEEDUP:
        out.append(f"speedup {row.speedup_vs_openspiel:.1f}x < {TARGET_SPEEDUP:g}x")
    if row.tree_overhead is not None and row.tree_overhead > TARGET_OVERHEAD:
        out.append(f"overhead {row.tree_overhead:.0%} > {TARGET_OVERHEAD:.0%}")
    if row.bytes_per_edge is not None and row.bytes_per_edge > TARGET_BYTES_PER_EDGE:
        out.append(f"{row.bytes_per_edge:.0f} B/edge > {TARGET_BYTES_PER_EDGE:g}")
    return out


def _num(v: float | None, fmt: str) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, fmt)


def format_table(rows: list[Row]) -> str:
    head = (f"{'game':20s} {'algorithm':18s} {'iter/s':>10s} {'playout/s':>10s} "
            f"{'overhead':>8s} {'OS sim/s':>9s} {'xOS':>6s} {'rel':>5s} {'nodes':>8s} "
            f"{'B/edge':>7s} {'B/node':>7s} {'RSS/node':>8s}  notes")
    lines = [head]
    for r in rows:
        mem = f"B/edge from {r.memory_source}" if r.memory_source else ""
        notes = "; ".join(filter(None, [mem, r.note, *misses(r)]))
        lines.append(
            f"{r.game:20s} {r.algorithm:18s} {_num(r.iterations_per_s, '10,.0f'):>10s} "
            f"{_num(r.playouts_per_s, '10,.0f'):>10s} {_num(r.tree_overhead, '8.0%'):>8s} "
            f"{_num(r.openspiel_sims_per_s, '9,.0f'):>9s} "
            f"{_num(r.speedup_vs_openspiel, '6.1f'):>6s} "
            f"{_num(r.relative_to_first, '5.2f'):>5s} {_num(r.nodes, '8d'):>8s} "
            f"{_num(r.bytes_per_edge, '7.1f'):>7s} {_num(r.bytes_per_node, '7.1f'):>7s} "
            f"{_num(r.rss_bytes_per_node, '8.1f'):>8s}  {notes}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", nargs="+", help="game specs (default: every registered game)")
    p.add_argument("--algorithms", nargs="+", default=["uct"], metavar="SPEC",
                   help="search algorithms as bot specs (default uct); the first is the "
                   "baseline of the 'rel' column")
    p.add_argument("--papers", action="store_true",
                   help="bench uct and the papers' algorithms (UCD, AUCT, DUCT, UCT*, MCTS*, "
                   "Huang's pruning, MCTS-Solver) with their relative-speed targets")
    p.add_argument("--iterations", type=int, default=20000,
                   help="MCTS iterations per search (repeated for --min-seconds)")
    p.add_argument("--playouts", type=int, default=20000, help="raw playouts per game")
    p.add_argument("--openspiel-sims", type=int,
                   help="OpenSpiel MCTS simulations per search (default: --iterations, so "
                   "both trees reach the same size; repeated for --min-seconds)")
    p.add_argument("--min-seconds", type=float, default=0.3,
                   help="time each measurement for at least this long (default 0.3)")
    p.add_argument("--rounds", type=int, default=3,
                   help="rounds per game; each figure is the best round (default 3)")
    p.add_argument("--quick", action="store_true",
                   help="tiny budgets (a smoke test, not a measurement)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    p.add_argument("--probe", nargs=3, metavar=("GAME", "SPEC", "ITERATIONS"),
                   help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.probe:
        probe_memory(args.probe[0], args.probe[1], int(args.probe[2]))
        return 0
    if args.papers:
        args.algorithms = ["uct", *PAPER_ALGORITHMS]
    if args.quick:
        args.iterations, args.playouts, args.min_seconds, args.rounds = 200, 200, 0.0, 1
    if args.openspiel_sims is None:
        args.openspiel_sims = args.iterations
    game_specs = args.games or sorted(games.available())
    rows = bench(game_specs, args.algorithms, args.iterations, args.playouts,
                 args.openspiel_sims, args.min_seconds, args.rounds)
    if args.quick:
        print("--quick: a smoke test with tiny budgets; the figures mean nothing")
    print(format_table(rows))
    print(f"targets: >= {TARGET_SPEEDUP:g}x OpenSpiel, overhead < {TARGET_OVERHEAD:.0%}, "
          f"<= {TARGET_BYTES_PER_EDGE:g} B/edge")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=1))
    if args.check and any(misses(r) for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Search speed and memory at the sizes users search, against OpenSpiel's C++ MCTS.

Every measurement is one search in a fresh process (this script run as a child with
``--child``), so no run inherits a warm allocator or page cache from another.  Per game
and size (iterations: 20k, 100k, 500k, 2M by default, the last cut to what miai's DAG
search does in ``--max-seconds``, 10 s), ``--rounds`` (>= 5) rounds are interleaved:
each round runs miai in DAG mode, miai in tree mode and OpenSpiel's ``MCTSBot`` once
each, so load on a shared machine hits all three alike; each figure is the median.

  * rates are simulations per CPU second of the child, counted around the search only;
  * memory is the child's RSS growth over the search (everything the search touched:
    arenas, table, allocator slack), divided by the edges and by the nodes the search
    reports: ``bytes_per_edge``, ``bytes_per_node``; ``alloc_bytes_per_edge`` is the
    search's own allocator total (capacities, touched or not) per edge;
  * OpenSpiel: ``pyspiel.MCTSBot`` (uct_c = 2, one random rollout per simulation by
    ``RandomRolloutEvaluator``, no solver) runs its search loop in C++.  Per simulation it
    does what miai's UCT does: descend by UCB1 (unvisited children first), expand a node
    on its second visit (all children at once), one uniformly random rollout, back up
    the reward.  It keeps no transposition table (its tree is miai's tree mode).  Where
    OpenSpiel would run longer than ``--os-max-seconds`` at a size, its rate at the
    largest size it ran stands in (``openspiel_sims`` says which; its rate falls with
    size, so the ratio is then an underestimate).

Different work: Hex's playout in miai fills the board in random order and checks the
winner once (the same winner as playing to the end, Hex cannot draw); OpenSpiel plays
move by move, checking for a win each move.  Go's light playout in miai (``policy=0``)
never fills its own eyes; OpenSpiel's uniform rollouts do, and so run to its move
limit.  The same-work column, ``ratio_same_playout``, swaps OpenSpiel's playout for
miai's: per game, at the smallest size, both sides also run with two playouts a leaf
(``leaf=2``; OpenSpiel ``n_rollouts=2``), the difference being one playout from the
tree's leaves; then ratio = (OpenSpiel's time per simulation - its playout + miai's
playout) / miai's time per iteration.

Any game spec runs (``gdl:SHEET`` a packaged GDL rulesheet's propnet), and any search
algorithm as a bot spec (``--algorithms``): the Go bot's search is ``--games
go:size=9,policy=7 --algorithms rave:prior=20,knowledge=1``.  A game OpenSpiel does not
have gets miai's figures only.

``--json FILE`` writes one record per (game, algorithm, mode, size).  ``--ci`` is a
small run (two sizes, tiny budgets) that the test suite makes; no figure of it means
anything.  ``--papers`` benches the papers' algorithms in DAG mode after plain UCT.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.spec import parse_spec  # noqa: E402
from engine import games  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GAMES = ["connect4", "othello", "breakthrough", "hex:size=5", "hex:size=11",
                 "go:size=9", "tictactoe"]
DEFAULT_SIZES = [20_000, 100_000, 500_000, 2_000_000]
PAPER_ALGORITHMS = ["ucd:d1=inf,d2=inf,d3=inf", "ucd:d1=1,d2=0,d3=1", "auct:k=3",
                    "duct:k=3", "uctstar:p=0.5,s=100", "uctstar:p=0.5,s=100,variant=step",
                    "mctsstar:p=0.5,s=100", "uct:prune=relative,alpha=0.8", "uct:solver=1"]
SIDES = ("dag", "tree", "openspiel")

# miai game -> (OpenSpiel game, {miai parameter: OpenSpiel parameter(s)}).  A game with a
# parameter not listed here is not compared (it would not be the same game).
OPENSPIEL: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "tictactoe": ("tic_tac_toe", {}),
    "connect4": ("connect_four", {}),
    "othello": ("othello", {}),
    "breakthrough": ("breakthrough", {"rows": ("rows",), "columns": ("columns",),
                                      "cols": ("columns",), "size": ("rows", "columns")}),
    "hex": ("hex", {"size": ("board_size",)}),
    "havannah": ("havannah", {"size": ("board_size",)}),
    "go": ("go", {"size": ("board_size",), "komi": ("komi",)}),
}
DIFFERENT_WORK = {
    "hex": "miai fills the board and checks once; OpenSpiel checks a win every move",
    "go": "miai's light playouts avoid own eyes; OpenSpiel's fill them, to its move limit",
}


# -- the child: one search in this fresh process -------------------------------------


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def load_game(spec: str) -> Any:
    """A game spec, or ``gdl:SHEET`` for a packaged GDL rulesheet (its propnet)."""
    if spec.startswith("gdl:"):
        from engine.gdl.game import load
        from engine.gdl.sheets import sheet_path

        name = spec[len("gdl:"):]
        return load(sheet_path(name).read_text(), name)
    return games.create_from_spec(spec)


def openspiel_game(game: Any) -> tuple[str, dict[str, Any]] | None:
    entry = OPENSPIEL.get(getattr(game, "name", ""))
    if entry is None:
        return None
    name, mapping = entry
    params: dict[str, Any] = {}
    for key, value in game.params.items():
        if key == "policy" and float(value) == 0:
            continue  # Go's light playouts (see DIFFERENT_WORK)
        if key not in mapping:
            return None
        for target in mapping[key]:
            params[target] = float(value) if key == "komi" else int(value)
    return name, params


def child_miai(game_spec: str, spec_text: str, mode: str, size: int, seed: int,
               leaf: int) -> dict[str, Any]:
    import engine.search as search

    state = load_game(game_spec).initial_state()
    spec = parse_spec(spec_text)
    algorithm = search.algorithm_from_spec(spec.name, dict(spec.params))
    gc.collect()
    rss0 = rss_bytes()
    s = search.Search(state, algorithm, seed=seed, max_nodes=size + 1024, mode=mode,
                      leaf_playouts=leaf)
    t0 = time.process_time()
    result = s.run(iterations=size)
    cpu = time.process_time() - t0
    grown = rss_bytes() - rss0
    info = s.info()
    return {"cpu": cpu, "sims": int(result.iterations), "rss": grown,
            "nodes": info["nodes"], "edges": info["edges"],
            "alloc": info["bytes_allocated"]}


def child_openspiel(game_spec: str, size: int, seed: int, rollouts: int) -> dict[str, Any]:
    import pyspiel

    found = openspiel_game(games.create_from_spec(game_spec))
    assert found is not None
    game = pyspiel.load_game(*found)
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, size, 1 << 20, False, seed, False)
    state = game.new_initial_state()
    gc.collect()
    rss0 = rss_bytes()
    t0 = time.process_time()
    root = bot.mcts_search(state)
    cpu = time.process_time() - t0
    return {"cpu": cpu, "sims": int(root.explore_count), "rss": rss_bytes() - rss0}


def run_child(*argv: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, "--child", *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"child {argv} failed: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the parent ----------------------------------------------------------------------


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def seconds_per_sim(runs: dict[tuple[str, str], list[dict[str, Any]]],
                    key: tuple[str, str]) -> float | None:
    """Median CPU seconds per simulation of the runs under ``key``."""
    return median([o["cpu"] / max(o["sims"], 1) for o in runs.get(key, [])])


def bench_game(game_spec: str, algorithms: list[str], sizes: list[int], rounds: int,
               max_seconds: float, os_max_seconds: float, log: Any) -> list[dict[str, Any]]:
    game = load_game(game_spec)
    spec = game_spec if game_spec.startswith("gdl:") else game.spec  # how records name it
    has_os = openspiel_game(game) is not None
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        has_os = False
    records: list[dict[str, Any]] = []
    os_rate: float | None = None
    os_sims: int | None = None
    playout_cost: dict[str, float] = {}
    cut = False
    size_list = list(sizes)
    i = 0
    while i < len(size_list) and not cut:
        size = size_list[i]
        runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
        run_os = has_os and (os_rate is None or size / os_rate <= os_max_seconds)
        for r in range(rounds):
            seed = 1 + r
            for algo in algorithms:
                modes = ("dag", "tree") if algo == algorithms[0] else ("dag",)
                for mode in modes:
                    out = run_child("miai", spec, algo, mode, str(size), str(seed), "1")
                    runs.setdefault((algo, mode), []).append(out)
            if run_os:
                out = run_child("openspiel", spec, str(size), str(seed), "1")
                runs.setdefault(("", "openspiel"), []).append(out)
            if i == 0 and has_os:  # one playout from the leaves, both sides (docstring)
                out = run_child("miai", spec, algorithms[0], "dag", str(size), str(seed),
                                "2")
                runs.setdefault(("", "miai2"), []).append(out)
                out = run_child("openspiel", spec, str(size), str(seed), "2")
                runs.setdefault(("", "os2"), []).append(out)
        per_sim = functools.partial(seconds_per_sim, runs)
        if run_os:
            t = per_sim(("", "openspiel"))
            os_rate, os_sims = (1.0 / t if t else None), size
        if i == 0:
            m1, m2 = per_sim((algorithms[0], "dag")), per_sim(("", "miai2"))
            if m1 is not None and m2 is not None:
                playout_cost["miai"] = max(0.0, m2 - m1)
            o1, o2 = per_sim(("", "openspiel")), per_sim(("", "os2"))
            if o1 is not None and o2 is not None:
                playout_cost["openspiel"] = max(0.0, o2 - o1)
        for (algo, mode), outs in runs.items():
            if mode not in ("dag", "tree"):
                continue
            t = per_sim((algo, mode))
            rate = 1.0 / t if t else None
            last = outs[-1]
            rec: dict[str, Any] = {
                "game": spec, "algorithm": algo, "mode": mode, "size": size,
                "runs": len(outs), "miai_sims_per_s": rate,
                "openspiel_sims_per_s": os_rate, "openspiel_sims": os_sims,
                "ratio": rate / os_rate if rate and os_rate else None,
                "ratio_same_playout": None,
                "bytes_per_edge": median([o["rss"] / max(o["edges"], 1) for o in outs]),
                "bytes_per_node": median([o["rss"] / max(o["nodes"], 1) for o in outs]),
                "alloc_bytes_per_edge": median([o["alloc"] / max(o["edges"], 1)
                                                for o in outs]),
                "nodes": last["nodes"], "edges": last["edges"],
                "edges_per_node": last["edges"] / max(last["nodes"], 1),
                "cpu_seconds": median([o["cpu"] for o in outs]),
                "note": DIFFERENT_WORK.get(game.name, "") if has_os else "",
            }
            os_search = (1.0 / os_rate - playout_cost["openspiel"]
                         if os_rate and len(playout_cost) == 2 else 0.0)
            if t and os_search > 0:  # else the two rates' noise swamps the difference
                rec["ratio_same_playout"] = (os_search + playout_cost["miai"]) / t
            records.append(rec)
            print(format_row(rec), file=log, flush=True)
        first = per_sim((algorithms[0], "dag"))
        if first and i + 1 < len(size_list):
            reach = int(max_seconds / first)
            if size_list[i + 1] >= reach:
                size_list[i + 1] = max(size, reach // 1000 * 1000)
                cut = size_list[i + 1] <= size
                size_list = size_list[: i + 2]
        i += 1
    rel = {}
    for rec in records:
        if rec["mode"] == "dag":
            base = rel.setdefault(rec["size"], rec["miai_sims_per_s"])
            rec["relative_to_first"] = (rec["miai_sims_per_s"] / base
                                        if base and rec["miai_sims_per_s"] else None)
    return records


def _num(v: float | None, fmt: str) -> str:
    width = int("".join(c for c in fmt.split(".")[0].split(",")[0] if c.isdigit()) or 0)
    return "n/a".rjust(width) if v is None else format(v, fmt)


HEADER = (f"{'game':22s} {'algorithm':18s} {'mode':4s} {'size':>9s} {'miai sim/s':>11s} "
          f"{'OS sim/s':>9s} {'ratio':>6s} {'same':>6s} {'B/edge':>7s} {'B/node':>7s} "
          f"{'alloc/E':>7s} {'E/node':>6s}")


def format_row(r: dict[str, Any]) -> str:
    os_at = "" if r["openspiel_sims"] in (None, r["size"]) else f" (OS at {r['openspiel_sims']:,})"
    return (f"{r['game']:22s} {r['algorithm']:18s} {r['mode']:4s} {r['size']:9,d} "
            f"{_num(r['miai_sims_per_s'], '11,.0f')} {_num(r['openspiel_sims_per_s'], '9,.0f')} "
            f"{_num(r['ratio'], '6.1f')} {_num(r['ratio_same_playout'], '6.1f')} "
            f"{_num(r['bytes_per_edge'], '7.1f')} {_num(r['bytes_per_node'], '7.1f')} "
            f"{_num(r['alloc_bytes_per_edge'], '7.1f')} {r['edges_per_node']:6.2f}{os_at}")


def markdown(records: list[dict[str, Any]], at: int = 500_000) -> str:
    """One row per (game, algorithm, mode): the smallest size, ``at`` and the largest
    (sims/s and the ratio to OpenSpiel; "*": OpenSpiel's rate from a smaller size), with
    the memory at the largest size."""
    def cell(r: dict[str, Any] | None, key: str, fmt: str) -> str:
        if r is None or r.get(key) is None or r[key] <= 0:  # <= 0: see bench_game
            return "–"
        mark = "*" if key.startswith("ratio") and r["openspiel_sims"] != r["size"] else ""
        return format(r[key], fmt) + mark
    rows = ["| game | algorithm | mode | 20k sims/s | ×OS | 500k sims/s | ×OS | same playout "
            "×OS | largest | sims/s | ×OS | B/edge | B/node | edges/node |",
            "|" + "---|" * 14]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault((r["game"], r["algorithm"], r["mode"]), []).append(r)
    for (game, algo, mode), rs in groups.items():
        rs.sort(key=lambda r: r["size"])
        small, big = rs[0], rs[-1]
        mid = next((r for r in rs if r["size"] == at), None)
        rows.append(
            f"| {game} | {algo} | {mode} | {cell(small, 'miai_sims_per_s', ',.0f')} | "
            f"{cell(small, 'ratio', '.1f')} | {cell(mid, 'miai_sims_per_s', ',.0f')} | "
            f"{cell(mid, 'ratio', '.1f')} | {cell(mid, 'ratio_same_playout', '.1f')} | "
            f"{big['size']:,} | {cell(big, 'miai_sims_per_s', ',.0f')} | "
            f"{cell(big, 'ratio', '.1f')} | {cell(big, 'bytes_per_edge', '.1f')} | "
            f"{cell(big, 'bytes_per_node', '.0f')} | {cell(big, 'edges_per_node', '.2f')} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", nargs="+", default=DEFAULT_GAMES, help="game specs")
    p.add_argument("--algorithms", nargs="+", default=["uct"], metavar="SPEC",
                   help="miai algorithms as bot specs (default uct); the first runs in DAG "
                   "and tree mode and is the baseline of relative_to_first, the others DAG")
    p.add_argument("--papers", action="store_true",
                   help="plain UCT, then the papers' algorithms (DAG mode)")
    p.add_argument("--sizes", nargs="+", type=int, default=DEFAULT_SIZES,
                   help="iterations per search (default 20k 100k 500k 2M)")
    p.add_argument("--max-seconds", type=float, default=10.0,
                   help="cut the sizes at what miai's DAG search does in this time (10)")
    p.add_argument("--os-max-seconds", type=float, default=120.0,
                   help="skip OpenSpiel at a size it would take longer than this for (120)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved runs per figure (5)")
    p.add_argument("--ci", action="store_true",
                   help="a small run for the test suite (the figures mean nothing)")
    p.add_argument("--json", metavar="FILE", help="write the records as JSON")
    p.add_argument("--markdown", nargs="+", metavar="JSON",
                   help="print the records of these --json files as a Markdown table")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        kind, *rest = args.child
        if kind == "miai":
            g, spec, mode, size, seed, leaf = rest
            out = child_miai(g, spec, mode, int(size), int(seed), int(leaf))
        else:
            g, size, seed, rollouts = rest
            out = child_openspiel(g, int(size), int(seed), int(rollouts))
        print(json.dumps(out))
        return 0
    if args.markdown:
        print(markdown([r for f in args.markdown for r in json.loads(Path(f).read_text())]))
        return 0
    if args.papers:
        args.algorithms = ["uct", *PAPER_ALGORITHMS]
    if args.ci:
        args.sizes, args.rounds = args.sizes if argv and "--sizes" in argv else [2000, 4000], 1
    print(HEADER, flush=True)
    records: list[dict[str, Any]] = []
    for game_spec in args.games:
        records += bench_game(game_spec, args.algorithms, sorted(args.sizes), args.rounds,
                              args.max_seconds, args.os_max_seconds, sys.stdout)
        if args.json:  # written as it goes: a long run can be read before it ends
            Path(args.json).write_text(json.dumps(records, indent=1) + "\n")
    if args.ci:
        print("--ci: a small run for the test suite; the figures mean nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""MCTS-Solver (the UCT* thesis's future work 5.2.3), usable with every algorithm of
ucd.py, auct.py, uct_star.py and UCT with pruning (``solver=1`` in their specs).

The C side (csrc/search/solver.c) marks edges proven wins or losses for their role
and backs proofs up the graph; a proven root raises the search's stop flag.  Here:
the config slot, the between-batches check that ends the run, and the report.
"""

from __future__ import annotations

from typing import Any

from engine.core import check, ffi, lib

WIN = int(lib.MIAI_FLAG_WIN)
LOSS = int(lib.MIAI_FLAG_LOSS)


def configure_solver(cfg: Any, on: bool) -> None:
    cfg.params[lib.MIAI_P_SOLVER] = 1.0 if on else 0.0


def root_proof(search: Any) -> int:
    """1: the root is proven a win for its mover, -1: a loss, 0: not proven."""
    out = ffi.new("int32_t *")
    check(lib.miai_variant_root_proven(search._ptr, out), "root proof")
    return int(out[0])


def proven_root_moves(search: Any) -> dict[str, list[str]]:
    """Root moves proven won / lost for the mover, as texts."""
    game = search.state.game
    wins, losses = [], []
    flags_of = root_flags(search)
    for e in search.root_edges():
        flags = flags_of[e.index]
        if flags & WIN:
            wins.append(game.move_to_text(e.move, e.role))
        elif flags & LOSS:
            losses.append(game.move_to_text(e.move, e.role))
    return {"win": wins, "loss": losses}


def root_flags(search: Any) -> list[int]:
    """The raw flag word of every root edge (pruned, proven, policy bits)."""
    root = search.info()["root"]
    count = search.node(root)["n_edges"]
    buf = ffi.new("miai_edge_stats[]", max(count, 1))
    n = ffi.new("uint32_t *")
    check(lib.miai_search_node_edges(search._ptr, root, buf, max(count, 1), n), "edges")
    return [int(buf[k].flags) for k in range(n[0])]


def solver_report(search: Any) -> dict[str, object]:
    proof = root_proof(search)
    return {
        "solver": {
            "root": {1: "win", -1: "loss"}.get(proof, "open"),
            "proven_root_moves": proven_root_moves(search),
        }
    }

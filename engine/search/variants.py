"""The papers' algorithms, registered by name for ``algorithm_from_spec`` and bot
specs: ``ucd``, ``auct``, ``duct``, ``uctstar``, ``mctsstar``, and ``uct`` extended
with Huang et al.'s pruning and the MCTS-Solver (docs/algorithms.md)."""

from __future__ import annotations

from engine.search.algorithms import register
from engine.search.auct import AUCT, DUCT
from engine.search.pruning import PrunedUCT
from engine.search.ucd import UCD
from engine.search.uct_star import MCTSStar, UCTStar

for _cls in (UCD, AUCT, DUCT, UCTStar, MCTSStar, PrunedUCT):
    register(_cls)

__all__ = ["AUCT", "DUCT", "UCD", "MCTSStar", "PrunedUCT", "UCTStar"]

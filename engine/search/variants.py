"""The papers' algorithms, registered by name for ``algorithm_from_spec`` and bot
specs: ``ucd``, ``auct``, ``duct``, ``auct_rave``, ``uctstar``, ``mctsstar``, and
``uct`` extended with Huang et al.'s pruning and the MCTS-Solver
(docs/algorithms.md)."""

from __future__ import annotations

from engine.search.algorithms import register
from engine.search.auct import AUCT, DUCT
from engine.search.auct_rave import AUCTRAVE
from engine.search.pruning import PrunedUCT
from engine.search.ucd import UCD
from engine.search.uct_star import MCTSStar, UCTStar

for _cls in (UCD, AUCT, DUCT, UCTStar, MCTSStar, PrunedUCT, AUCTRAVE):
    register(_cls)

__all__ = ["AUCT", "AUCTRAVE", "DUCT", "UCD", "MCTSStar", "PrunedUCT", "UCTStar"]

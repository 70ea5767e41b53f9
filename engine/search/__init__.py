"""MCTS search over the C transposition DAG: algorithms, ``Search``, results."""

from engine.search.algorithms import algorithm_from_spec, register
from engine.search.rave import RAVE
from engine.search.result import MoveStats, SearchResult, confidence_interval
from engine.search.search import EdgeStats, Search
from engine.search.uct import UCT
from engine.search.variants import AUCT, AUCTRAVE, DUCT, UCD, MCTSStar, PrunedUCT, UCTStar

__all__ = [
    "AUCT",
    "AUCTRAVE",
    "DUCT",
    "MCTSStar",
    "PrunedUCT",
    "RAVE",
    "UCD",
    "UCT",
    "UCTStar",
    "EdgeStats",
    "MoveStats",
    "Search",
    "SearchResult",
    "algorithm_from_spec",
    "confidence_interval",
    "register",
]

"""Bots: named, parameterised players built from text specs (``uct:c=0.5``).

``make_bot(spec, game)`` builds one (bots/registry.py); ``parse_spec`` reads a spec
(bots/spec.py); ``play_game`` / ``play_match`` play them (bots/match.py).
"""

from bots.base import BaseBot, Bot
from bots.match import GameRecord, MatchResult, play_game, play_match
from bots.registry import make_bot, with_budget
from bots.spec import BotSpec, parse_spec

__all__ = [
    "BaseBot",
    "Bot",
    "BotSpec",
    "GameRecord",
    "MatchResult",
    "make_bot",
    "parse_spec",
    "play_game",
    "play_match",
    "with_budget",
]

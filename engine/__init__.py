"""miai: a game-playing engine with a C core (cffi) and MCTS over a transposition DAG."""

from engine.errors import MiaiError
from engine.games import Game, State, create
from engine.playouts import PlayoutRun, playout_run, playouts

__all__ = ["Game", "MiaiError", "PlayoutRun", "State", "create", "playout_run", "playouts"]
__version__ = "0.1.0"

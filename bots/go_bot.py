"""The Go bot: a search bot whose playouts use the heavy Go playout policy.

Spec: ``gobot:alg=rave,playout=7,knowledge=1,seconds=2`` -- keys:
    alg      search algorithm of engine.search (default ``rave``)
    playout  the Go game's playout ``policy`` bits (engine.go.POLICY_*; default 7 =
             atari answers + self-atari avoidance + patterns; 0 = light playouts)
    priors   extra Go knowledge in the priors (with ``knowledge=1``), bits: 1 = first-
             and second-line malus, 2 = ladder reading (engine.go.PRIOR_LINES and
             PRIOR_LADDER, carried by the same game parameter), 4 = the learned move
             model (engine.go.PRIOR_MODEL; it replaces bits 1 and 2, whose rules are
             among its features); default by board size (:func:`default_priors`):
             4 on 9x9, the board it was fitted on (self-play: 65.5% and 70.0% against
             3 at 1,000 and 5,000 iterations a move), 3 on larger boards (self-play
             on 9x9: 73% at 1,000 and 67% at 5,000 against 0), 0 below, where every
             point is near the edge
    prior    (RAVE and AUCT with RAVE) the prior's virtual visits: default 10 with
             the model, 20 without
    lgr      1 = last-good-reply playouts with forgetting (engine.go.POLICY_LGR: the
             search keeps a reply table its playouts learn in; with threads, one
             table per thread), 2 = the same with replies to the last two moves too
             (LGRF-2, POLICY_LGR2); default 0 = off
and every key of :class:`bots.search_bot.SearchBot` (budget, ``reuse`` for tree reuse
between moves, ...) and of the algorithm (``prior``, ``knowledge``, ``prune``, ...).

The position the bot is given (a state of whatever Go game the caller plays, e.g. the
GTP session's ``go:size=9,komi=7``) is searched as the same position of the Go game
with that playout policy (engine.go.in_game); move ids are the same in both.  The
same holds for the live search a Thinker runs (``searcher``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.base import Searcher
from bots.search_bot import SearchBot
from bots.spec import BotSpec
from engine import go
from engine.errors import InvalidArgumentError
from engine.games import Game, Move, State

OWN_KEYS = ("alg", "playout", "priors", "lgr")
DEFAULT_ALGORITHM = "rave"
PRIORS_FROM = 9  # from this size on the line and ladder priors are on by default
MODEL_SIZES = frozenset({9})  # the boards the learned move model was fitted on
# Virtual visits of a new edge's prior (RAVE's ``prior``) unless the spec gives it:
# with the learned model, 10 (docs/results.md: 65.5% and 70.0% against go9 at 1,000
# and 5,000 iterations, where 20 scored 61.5% and 55.8%); otherwise 20, go9's value.
MODEL_PRIOR = 10
PRIOR = 20
PRIOR_ALGORITHMS = ("rave", "auct_rave")


def default_priors(size: int) -> int:
    """The ``priors`` bits a Go bot uses on a ``size`` board unless told: the learned
    model (4) on the boards it was fitted on, the line and ladder rules (3) on the other
    boards from 9x9 on, none below."""
    if size in MODEL_SIZES:
        return 4
    return 3 if size >= PRIORS_FROM else 0


class GoBot(SearchBot):
    def __init__(self, spec: BotSpec, game: Game) -> None:
        own, rest = spec.split(OWN_KEYS)
        plain = BotSpec(spec.name, own)
        playout = plain.get_int("playout", go.POLICY_FULL, minimum=0, maximum=15) or 0
        if game.name != "go":
            raise InvalidArgumentError(f"the Go bot plays Go, not {game.spec}")
        priors = plain.get_int("priors", default_priors(go.board_size(game)),
                               minimum=0, maximum=7) or 0
        lgr = plain.get_int("lgr", 0, minimum=0, maximum=2) or 0
        lgr_bits = (0, go.POLICY_LGR, go.POLICY_LGR | go.POLICY_LGR2)[lgr]
        # The game parameter that carries all three (priors as PRIOR_LINES,
        # PRIOR_LADDER; lgr as POLICY_LGR, POLICY_LGR2).
        self.policy = (playout | (priors & 3) * go.PRIOR_LINES
                       | (go.PRIOR_MODEL if priors & 4 else 0) | lgr_bits)
        algorithm = own.get("alg", DEFAULT_ALGORITHM).strip().lower()
        if algorithm in PRIOR_ALGORITHMS and "prior" not in rest:
            rest = {**rest, "prior": str(MODEL_PRIOR if priors & 4 else PRIOR)}
        self._games: dict[str, Game] = {}
        super().__init__(BotSpec(algorithm, rest), game)

    def _policy_state(self, state: State) -> State:
        key = state.game.spec
        target = self._games.get(key)
        if target is None:
            target = self._games[key] = go.policy_game(state.game, self.policy)
        return go.in_game(state, target)

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> Move:
        return super().choose_within(self._policy_state(state), role, seconds)

    def searcher(self, state: State, role: int) -> Searcher:
        return super().searcher(self._policy_state(state), role)

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None:
        super().observe(self._policy_state(state_before), move)


def make_go_bot(spec: BotSpec, game: Game) -> GoBot:
    return GoBot(spec, game)

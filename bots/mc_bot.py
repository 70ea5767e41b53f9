"""``mc``: flat Monte-Carlo -- random playouts (in C) after every legal move, no tree.

The plain Monte-Carlo player that search algorithms are compared against.  Keys:
``playouts`` (per legal move), ``iterations`` (playouts per decision, split evenly
over the legal moves), ``seconds`` (per decision), ``seed``.  With several budgets
the first one reached stops the bot; with none, ``playouts=100``.  At simultaneous
states the other roles' moves are drawn uniformly at random, afresh for every batch.
The move with the best mean reward for the bot's role is played (ties: the first
legal move).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from bots.base import SEED_MAX, BaseBot, MoveBudget, acting_role
from bots.report import MoveReport, score_interval
from bots.spec import BotSpec
from engine import games
from engine.games import Game, Move, State
from engine.playouts import playout_run
from engine.search.result import SearchResult

KEYS = ("playouts", "iterations", "seconds", "seed")
DEFAULT_PLAYOUTS = 100
# Playouts per move and batch under a time budget (the clock is read between batches).
TIME_BATCH = 16
# At simultaneous states, opponents' moves are redrawn every this many playouts.
JOINT_BATCH = 8


@dataclass
class _Arm:
    move: Move
    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


class MonteCarloBot(BaseBot):
    def __init__(self, name: str, spec: str, game: Game, *, seed: int,
                 playouts: int | None, iterations: int | None,
                 seconds: float | None) -> None:
        super().__init__(name, spec, game, seed)
        if playouts is None and iterations is None and seconds is None:
            playouts = DEFAULT_PLAYOUTS
        self.playouts = playouts
        self.iterations = iterations
        self.seconds = seconds

    def choose(self, state: State, role: int | None = None) -> Move:
        return self.choose_within(state, role, None)

    def choose_within(self, state: State, role: int | None,
                      seconds: float | None) -> Move:
        """``choose`` with at most ``seconds`` (the GTP clock, the GGP play clock)."""
        me = acting_role(state, role)
        start = time.perf_counter()
        if seconds is None or (self.seconds is not None and self.seconds < seconds):
            seconds = self.seconds
        arms = [_Arm(m) for m in state.legal_moves(me)]
        if len(arms) > 1:
            self._sample(state, me, arms, start, seconds)
        best = max(arms, key=lambda a: a.mean) if arms[0].n else arms[0]
        self._report = self._make_report(state, me, arms, best, start)
        return best.move

    def move_budget(self) -> MoveBudget:
        return MoveBudget(self.iterations, self.seconds)

    def _per_move_cap(self, n_moves: int) -> int | None:
        """Playouts per move allowed by the count budgets (None: only a time limit)."""
        caps = []
        if self.playouts is not None:
            caps.append(self.playouts)
        if self.iterations is not None:
            caps.append(max(1, self.iterations // n_moves))
        return min(caps) if caps else None

    def _sample(self, state: State, me: int, arms: list[_Arm], start: float,
                seconds: float | None) -> None:
        cap = self._per_move_cap(len(arms))
        batch = TIME_BATCH if (seconds is not None or cap is None) else cap
        while True:
            for arm in arms:
                n = batch if cap is None else min(batch, cap - arm.n)
                if n > 0:
                    self._playouts(state, me, arm, n)
            done_by_count = cap is not None and all(a.n >= cap for a in arms)
            out_of_time = seconds is not None and time.perf_counter() - start >= seconds
            if done_by_count or out_of_time:
                return

    def _playouts(self, state: State, me: int, arm: _Arm, n: int) -> None:
        simultaneous = state.to_move == games.SIMULTANEOUS
        left = n
        while left > 0:
            k = min(left, JOINT_BATCH) if simultaneous else left
            child = state.copy()
            if simultaneous:
                joint = [
                    arm.move if r == me else self.rng.choice(state.legal_moves(r))
                    for r in range(state.game.n_roles)
                ]
                child.play_joint(joint)
            else:
                child.play(arm.move)
            run = playout_run(child, k, self.rng.getrandbits(64))
            arm.total += run.mean_rewards[me] * k
            arm.n += k
            left -= k

    def _make_report(self, state: State, me: int, arms: list[_Arm], best: _Arm,
                     start: float) -> SearchResult:
        lines = []
        for arm in sorted(arms, key=lambda a: (-a.n, -a.mean)):
            low, high = score_interval(arm.mean, arm.n)
            text = state.format_move(arm.move, me)
            lines.append(MoveReport(arm.move, text, arm.n, arm.mean, low, high))
        best_text = state.format_move(best.move, me)
        return SearchResult(
            best_move=best.move, best_text=best_text, moves=lines, pv=[best_text],
            iterations=sum(a.n for a in arms), nodes=0,
            seconds=time.perf_counter() - start, root_value=best.mean, role=me,
        )


def make_mc(spec: BotSpec, game: Game) -> MonteCarloBot:
    spec.check_keys(KEYS)
    seconds = spec.get_float("seconds", None, minimum=0.0, allow_inf=True)
    if seconds is not None and math.isinf(seconds):
        seconds = None
    return MonteCarloBot(
        spec.name, spec.text, game,
        seed=spec.get_int("seed", 0, maximum=SEED_MAX) or 0,
        playouts=spec.get_int("playouts", None, minimum=1),
        iterations=spec.get_int("iterations", None, minimum=1),
        seconds=seconds,
    )

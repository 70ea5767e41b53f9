"""``random``: a uniformly random legal move (``seed=`` makes it reproducible)."""

from __future__ import annotations

from bots.base import SEED_MAX, BaseBot, acting_role
from bots.spec import BotSpec
from engine.games import Game, Move, State

KEYS = ("seed",)


class RandomBot(BaseBot):
    def choose(self, state: State, role: int | None = None) -> Move:
        return self.rng.choice(state.legal_moves(acting_role(state, role)))


def make_random(spec: BotSpec, game: Game) -> RandomBot:
    spec.check_keys(KEYS)
    seed = spec.get_int("seed", 0, maximum=SEED_MAX)
    return RandomBot(spec.name, spec.text, game, seed=seed or 0)

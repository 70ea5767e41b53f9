"""GDL test helpers: the packaged sheets over the default grounding bound, a cached
grounded game by sheet name, and the state-by-state comparison of a grounded net with
the reference prover along one random game."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from engine.gdl.game import GdlGame, load
from engine.gdl.prover_game import ProverGame
from engine.gdl.sheets import PACKAGED

OWN = Path(__file__).resolve().parents[1] / "gdl"  # the tests' own sheets

# Over the default grounding bound (docs/gdl.md says why); the player uses the prover.
NOT_GROUNDED = {
    "ad_game_2x2.kif", "amazons.kif", "checkers.kif", "chess.kif",
    "chineseCheckers6p.kif", "crisscross.kif", "laikLee_hex.kif",
    "merrills.kif", "skirmish.kif", "sudoku.kif",
}


@cache
def sheet(name: str, max_plies: int = 10_000) -> GdlGame:
    """A packaged sheet grounded, by file name (``own:NAME`` for tests/gdl/NAME)."""
    path = OWN / name[4:] if name.startswith("own:") else PACKAGED / name
    return load(path.read_text(), name=path.stem[:24], max_plies=max_plies)


def compare_random_game(game: GdlGame, oracle: ProverGame, rng: random.Random,
                        max_plies: int) -> None:
    """Play one random game on both; compare everything at every state."""
    s, p = game.initial_state(), oracle.initial_state()
    assert game.roles == oracle.roles
    for _ in range(max_plies):
        assert game.true_facts(s) == p.true_facts()
        s.check()
        assert s.keys() == s.keys_from_scratch()
        assert s.to_move == p.to_move
        rule = [[game.moves[r][m] for m in game.rule_moves(s, r)] for r in range(game.n_roles)]
        assert [sorted(m) for m in rule] == [sorted(p.rule_moves(r)) for r in range(game.n_roles)]
        if s.is_terminal():
            assert p.is_terminal()
            assert s.rewards() == p.rewards()
            return
        joint = [rng.choice(m) for m in rule]
        if s.to_move >= 0:
            mover = s.to_move
            assert sorted(game.move_to_text(m, mover) for m in s.legal_moves()) == sorted(
                p.legal_moves())
            s.play(joint[mover])
            p.play(joint[mover])
        else:
            s.play_joint(joint)
            p.play_joint(joint)


def cube_sheet(constants: int = 300) -> str:
    """Small text, enormous grounding: the legal moves read a static relation of
    ``constants``**3 facts (27 million at 300), built from a 2 KB sheet; its rules
    start on line 2."""
    facts = "".join(f"(c k{i})" for i in range(constants))
    return ("(role r)(init (s 0))" + facts
            + "\n(<= (big ?x ?y ?z) (c ?x) (c ?y) (c ?z))"
            + "(<= (legal r (m ?x ?y ?z)) (big ?x ?y ?z) (true (s 0)))"
            + "(<= (next (s 1)) (true (s 0)))(<= terminal (true (s 1)))"
            + "(<= (goal r 100) (true (s 1)))(<= (goal r 0) (true (s 0)))")

"""Seeded games of breakthrough, knightthrough, hex and havannah stay bit-identical.

The digests below were computed from the build of commit 4446589, before these games
were restructured (breakthrough.c and knightthrough.c made one crossing.c; Hex and
Havannah's shared playout loop, group check and move text moved into cellgroups.h), so
any later change to their rules, move ids, move text, board text, Zobrist keys,
state bytes or seeded playouts fails here.

Each digest covers, for one game, seeded random games played move by move: at every
ply the state's bytes, both keys, the board text, the legal moves and their text; and
every few plies the mean rewards and ply count of seeded ``playout_run`` calls, batched
and one by one (the fast playout ops without a trace, as the search plays them; the
traced ops are held to the move-by-move rules by csrc/tests/test_btkt_playouts.c and
test_hexhav_playouts.c).  Run this file as a script to print the digests of the
current build.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from engine import games
from engine.playouts import playout_run

# game spec -> (random games, plies between playout runs, playouts per run)
CONFIGS: dict[str, tuple[int, int, int]] = {
    "breakthrough": (6, 5, 40),
    "knightthrough": (6, 5, 40),
    "hex:size=2": (10, 1, 20),
    "hex:size=5": (6, 3, 40),
    "hex:size=11": (3, 10, 40),
    "hex:size=19": (1, 40, 20),
    "havannah:size=4": (6, 4, 40),
    "havannah:size=8": (2, 15, 30),
    "havannah:size=10": (1, 30, 20),
}

# Computed from the build of commit 4446589 (before the restructuring).
PINNED = {
    "breakthrough": "4c9bf4f1174d2aad273d",
    "knightthrough": "d4e29b1a693f593438d1",
    "hex:size=2": "f1b23ef93a5d52506d54",
    "hex:size=5": "9c9abc51d90bf242f957",
    "hex:size=11": "40a512d9fd19ab15e3cc",
    "hex:size=19": "c369abffb39ab753c6de",
    "havannah:size=4": "8109d0c61a3121b4d8ef",
    "havannah:size=8": "7b0e4c075b62d9de68ba",
    "havannah:size=10": "616bf3122243b4fd7ec6",
}


def digest(spec: str) -> str:
    n_games, every, n_playouts = CONFIGS[spec]
    game = games.create_from_spec(spec)
    rng = random.Random(spec)
    h = hashlib.sha256()
    for g in range(n_games):
        state = game.initial_state()
        ply = 0
        while True:
            h.update(state.to_bytes())
            h.update(repr(state.keys()).encode())
            h.update(state.render().encode())
            if state.is_terminal():
                h.update(repr(state.rewards()).encode())
                break
            moves = state.legal_moves()
            h.update(repr(moves).encode())
            h.update(" ".join(state.format_move(m) for m in moves).encode())
            if ply % every == 0:
                seed = g * 1000 + ply
                for batch in (True, False):
                    run = playout_run(state, n_playouts, seed, batch=batch)
                    h.update(repr((run.mean_rewards, run.plies)).encode())
            state.play(rng.choice(moves))
            ply += 1
    return h.hexdigest()[:20]


@pytest.mark.parametrize("spec", sorted(CONFIGS))
def test_seeded_games_are_unchanged(spec: str) -> None:
    assert digest(spec) == PINNED[spec]


if __name__ == "__main__":
    for spec in CONFIGS:
        print(f'    "{spec}": "{digest(spec)}",')

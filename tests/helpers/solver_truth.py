"""Independent truth for MCTS-Solver tests: a plain negamax of small games, random
endgame positions, and a walk that checks every proof a search made in its graph."""

from __future__ import annotations

import functools
import random

from engine import games
from engine.search import Search
from tests.helpers.variant_dump import edge_records

WIN, LOSS = 256, 512


def minimax(state) -> float:
    """Value of ``state`` for the role to move (1 win, 0.5 draw, 0 loss), plain negamax."""

    @functools.cache
    def value(key) -> float:
        s = positions[key]
        mover = s.to_move
        best = 0.0
        for m in s.legal_moves():
            nxt = s.copy().play(m)
            if nxt.is_terminal():
                v = nxt.rewards()[mover]
            else:
                k = nxt.keys()
                positions[k] = nxt
                v = 1.0 - value(k) if nxt.to_move != mover else value(k)
            best = max(best, v)
        return best

    positions = {state.keys(): state}
    return value(state.keys())


def child_values(state) -> dict[int, float]:
    mover = state.to_move
    out = {}
    for m in state.legal_moves():
        nxt = state.copy().play(m)
        if nxt.is_terminal():
            out[m] = nxt.rewards()[mover]
        else:
            v = minimax(nxt)
            out[m] = 1.0 - v if nxt.to_move != mover else v
    return out


def endgames(n: int, seed: int, name: str = "tictactoe", plies: tuple[int, int] = (3, 6)):
    """``n`` positions after a random number of random plies in ``plies``, not over."""
    rng = random.Random(seed)
    game = games.create(name)
    found = []
    while len(found) < n:
        s = game.initial_state()
        for _ in range(rng.randrange(*plies)):
            s.play(rng.choice(s.legal_moves()))
            if s.is_terminal():
                break
        if not s.is_terminal():
            found.append(s)
    return found


def proofs_checked_against_minimax(search: Search, state: games.State) -> int:
    """Walk the graph of ``search`` (root position ``state``) and check every edge
    proven won or lost against a plain minimax; returns how many were checked."""
    root = search.info()["root"]
    positions = {root: state}
    frontier, checked = [root], 0
    while frontier:
        k = frontier.pop()
        s = positions[k]
        for rec in edge_records(search, k):
            nxt = s.copy().play(rec.move)
            if rec.child != 0xFFFFFFFF and rec.child not in positions and not nxt.is_terminal():
                positions[rec.child] = nxt
                frontier.append(rec.child)
            if rec.flags & (WIN | LOSS):
                v = nxt.rewards()[s.to_move] if nxt.is_terminal() else 1.0 - minimax(nxt)
                assert v == (1.0 if rec.flags & WIN else 0.0)
                checked += 1
    return checked

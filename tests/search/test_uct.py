"""Plain UCT: finds forced wins and the only defence, never loses at Tic-tac-toe to
random play, and chooses exactly what a plain-Python UCB1 reference chooses."""

from __future__ import annotations

import os
import random

import pytest

from engine import games
from engine.search import DUCT, UCT, Search
from tests.reference.uct_select import best_indices

FULL = os.environ.get("MIAI_FULL") == "1"


def ttt(moves: str) -> games.State:
    state = games.create("tictactoe").initial_state()
    for m in moves.split():
        state.play(m)
    return state


@pytest.mark.parametrize("mode", ["dag", "tree"])
@pytest.mark.parametrize(
    ("moves", "answer"),
    [
        ("a3 a2 b3 b2", {"c3"}),            # x wins at once on the top row
        ("a3 b2 b3", {"c3"}),               # o's only defence against the top row
        ("b2 a3 c1 a1", {"a2"}),            # o threatens a2: x must block
        ("a3 b2 c1", {"a2", "b3", "c2", "b1"}),  # o must answer on an edge, not a corner
        ("b2 a1 a3", {"c1"}),               # x wins: o must block the a3-c1 diagonal
    ],
)
def test_uct_finds_forced_win_or_only_defence(mode: str, moves: str, answer: set[str]) -> None:
    state = ttt(moves)
    result = Search(state, UCT(c=0.7), iterations=20_000, seed=5, mode=mode).run()
    assert result.best_text in answer, result.moves


@pytest.mark.parametrize(
    ("moves", "answer"),
    [
        ("a a b b c c", "d"),   # x completes the bottom row
        ("a g b g c", "d"),     # o's only defence against the bottom row
        ("d a d a d", "d"),     # o must cap the d column
    ],
)
def test_uct_finds_forced_win_or_only_defence_in_connect4(moves: str, answer: str) -> None:
    state = games.create("connect4").initial_state()
    for m in moves.split():
        state.play(m)
    result = Search(state, UCT(c=0.7), iterations=20_000, seed=3).run()
    assert result.best_text == answer, result.moves


def test_forced_win_found_with_mean_final_choice() -> None:
    result = Search(ttt("a3 a2 b3 b2"), UCT(final="mean"), iterations=3000, seed=1).run()
    assert result.best_text == "c3"
    visited = [m for m in result.moves if m.visits > 0]
    assert result.best_move == max(visited, key=lambda m: m.mean).move


def _play_vs_random(uct_role: int, rng: random.Random, seed: int) -> float:
    state = games.create("tictactoe").initial_state()
    while not state.is_terminal():
        if state.to_move == uct_role:
            move = Search(state, UCT(c=0.7), iterations=2000, seed=seed).run().best_move
        else:
            move = rng.choice(state.legal_moves())
        state.play(move)
    return state.rewards()[uct_role]


@pytest.mark.slow
def test_uct_never_loses_tictactoe_against_random() -> None:
    games_per_side = 500 if FULL else 100
    rng = random.Random(2024)
    losses = 0
    for k in range(games_per_side):
        for role in (0, 1):
            if _play_vs_random(role, rng, seed=k) == 0.0:
                losses += 1
    assert losses == 0


@pytest.mark.parametrize("mode", ["dag", "tree"])
@pytest.mark.parametrize("c", [0.0, 0.3, 1.4])
def test_selection_matches_python_reference(mode: str, c: float) -> None:
    rng = random.Random(7)
    for seed in range(6):
        search = Search(ttt("b2"), UCT(c=c), seed=seed, mode=mode)
        for _ in range(12):
            search.run(iterations=rng.randint(1, 40))
            edges = search.root_edges()
            if rng.random() < 0.3:
                search.set_pruned(rng.randrange(len(edges)), True)
                edges = search.root_edges()
            expected = best_indices(
                [e.sum for e in edges], [e.visits for e in edges],
                [e.pruned for e in edges], c,
            )
            assert search.select_root() in expected


def graph(search: Search) -> list[list[tuple[int, int | None, int, float, bool]]]:
    """Every node's visited edges, by move: move, child, visits, payoff sum, pruned.
    (Plain UCT makes a node's edges as it takes them -- docs/search.md, "Lazy edges" --
    so the unvisited moves of a node below the root have no edge there.)"""
    return [
        sorted((e.move, e.child, e.visits, e.sum, e.pruned) for e in search.node_edges(k)
               if e.visits or e.child is not None)
        for k in range(search.info()["nodes"])
    ]


@pytest.mark.parametrize("mode", ["dag", "tree"])
@pytest.mark.parametrize(
    "spec", ["tictactoe", "connect4", "hex:size=4", "leftright:steps=12", "go:size=5"]
)
def test_node_cache_selects_as_the_two_pass_selection(spec: str, mode: str) -> None:
    """uct.c selects from a per-node cache (N and "every n <= 1", node->mark) when it
    can; DUCT with lambda = 1 computes UCT's values from the edges every time.  The two
    graphs agree edge for edge under the same seed, through filling phases, pruned
    root moves and reroots (the cache is rebuilt there)."""
    state = games.create_from_spec(spec).initial_state()
    uct = Search(state, UCT(c=0.5), seed=5, mode=mode)
    ref = Search(state, DUCT(c=0.5, lam=1.0), seed=5, mode=mode)
    for step in range(4):
        a, b = uct.run(iterations=300), ref.run(iterations=300)
        assert graph(uct) == graph(ref)
        assert a.best_move == b.best_move
        if uct.state.is_terminal():
            break
        if step == 1 and len(uct.root_edges()) > 2:
            uct.set_pruned(1, True)
            ref.set_pruned(1, True)
            continue
        uct.advance(a.best_move)
        ref.advance(b.best_move)
        if uct.state.is_terminal():
            break


def test_pruned_root_moves_are_never_selected_or_chosen() -> None:
    search = Search(ttt(""), UCT(), seed=3)
    search.run(iterations=500)
    before = {e.move: e.visits for e in search.root_edges()}
    centre = next(e.index for e in search.root_edges() if e.move == 4)
    for e in search.root_edges():
        if e.move != 4:
            search.set_pruned(e.index, True)
    result = search.run(iterations=500)
    after = {e.move: e.visits for e in search.root_edges()}
    assert after[4] == before[4] + 500
    assert all(after[m] == before[m] for m in after if m != 4)
    assert result.best_move == 4
    assert all(m.pruned for m in result.moves if m.move != 4)
    search.set_pruned(centre, True)  # everything pruned: selection falls back to all
    search.run(iterations=100)
    assert sum(e.visits for e in search.root_edges()) == sum(after.values()) + 100

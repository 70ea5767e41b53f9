"""Breakthrough against OpenSpiel's ``breakthrough`` (8x8) as the rules oracle.

Moves are mapped through the text: OpenSpiel's action string without its trailing
'*' is our move text (see csrc/games/crossing.c).  CI plays a few hundred random
games; ``MIAI_FULL=1`` plays thousands and perft to depth 5.
"""

from __future__ import annotations

import os
import random

import pytest

import engine
from engine import games
from engine.perft import perft

pyspiel = pytest.importorskip("pyspiel")

FULL = os.environ.get("MIAI_FULL") == "1"
N_GAMES = 3000 if FULL else 200
PERFT_DEPTH = 5 if FULL else 4


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return games.create("breakthrough")


@pytest.fixture(scope="module")
def oracle():
    return pyspiel.load_game("breakthrough")


def ours_of(game: engine.Game, os_state, action: int) -> int:
    """Our move id of an OpenSpiel action, through the text."""
    return game.move_from_text(os_state.action_to_string(action).rstrip("*"))


def board_rows(text: str) -> list[str]:
    """The board lines of a rendering, spaces removed (OpenSpiel writes none)."""
    return [line.replace(" ", "") for line in text.splitlines() if line.strip()]


def assert_same(game: engine.Game, state: engine.State, os_state) -> dict[str, int]:
    """Same mover, terminal status, board and legal moves; returns text -> OpenSpiel
    action of the legal moves."""
    assert state.is_terminal() == os_state.is_terminal()
    assert board_rows(state.render()) == board_rows(str(os_state))
    if os_state.is_terminal():
        assert state.legal_moves() == []
        returns = os_state.returns()
        assert state.rewards() == tuple((r + 1.0) / 2.0 for r in returns)
        return {}
    assert state.to_move == os_state.current_player()
    by_text = {os_state.action_to_string(a).rstrip("*"): a for a in os_state.legal_actions()}
    ours = [state.format_move(m) for m in state.legal_moves()]
    assert len(ours) == len(set(ours))
    assert sorted(ours) == sorted(by_text)
    return by_text


def test_initial_position_and_move_numbering(game: engine.Game, oracle) -> None:
    state, os_state = game.initial_state(), oracle.new_initial_state()
    by_text = assert_same(game, state, os_state)
    assert state.to_move == 0 and len(by_text) == 22
    # The documented mapping: OpenSpiel action = 2 * (our order's (r, c, d) rank) +
    # capture; ids follow OpenSpiel's order, so sorting by either agrees.
    actions = sorted(by_text.values())
    assert [ours_of(game, os_state, a) for a in actions] == sorted(state.legal_moves())


def test_documented_openspiel_action_mapping(game: engine.Game, oracle) -> None:
    """Every move id: OpenSpiel action = 2 * ((r * 8 + c) * 6 + d) + capture names the
    same from-to squares, and ids increase with OpenSpiel's action numbers."""
    os_state = oracle.new_initial_state()
    dirs = {(1, -1): 0, (1, 0): 1, (1, 1): 2, (-1, -1): 3, (-1, 0): 4, (-1, 1): 5}
    previous = -1
    for move in range(game.num_moves):
        text = game.move_to_text(move)
        c1, r1 = ord(text[0]) - ord("a"), 8 - int(text[1])
        c2, r2 = ord(text[2]) - ord("a"), 8 - int(text[3])
        d = dirs[(r2 - r1, c2 - c1)]
        action = 2 * ((r1 * 8 + c1) * 6 + d)
        assert os_state.action_to_string(action) == text
        if d not in (1, 4):  # diagonal: the capture variant
            assert os_state.action_to_string(action + 1) == text + "*"
        assert action > previous
        previous = action


def test_random_games_agree_move_by_move(game: engine.Game, oracle) -> None:
    rng = random.Random(20261122)
    seen: dict[tuple[str, int], tuple[int, int]] = {}
    lengths = []
    for _ in range(N_GAMES):
        state, os_state = game.initial_state(), oracle.new_initial_state()
        while True:
            by_text = assert_same(game, state, os_state)
            assert state.keys() == state.keys_from_scratch()
            state.check()
            # A position is the board and the side to move; equal positions must
            # have equal keys, different ones different keys.
            position = (str(os_state), state.ply % 2)
            assert seen.setdefault(position, state.keys()) == state.keys()
            if os_state.is_terminal():
                break
            text = rng.choice(sorted(by_text))
            os_state.apply_action(by_text[text])
            state.play(text)
        lengths.append(state.ply)
    keys = list(seen.values())
    assert len({k[0] for k in keys}) == len(keys), "two different positions share a key"
    assert max(lengths) <= game.max_plies


def perft_oracle(os_state, depth: int) -> int:
    if depth == 0:
        return 1
    if os_state.is_terminal():
        return 0
    actions = os_state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft_oracle(os_state.child(a), depth - 1) for a in actions)


def test_perft_from_the_start(game: engine.Game, oracle) -> None:
    state, os_state = game.initial_state(), oracle.new_initial_state()
    for depth in range(PERFT_DEPTH + 1):
        assert perft(state, depth) == perft_oracle(os_state, depth), depth


def test_perft_from_random_middle_games(game: engine.Game, oracle) -> None:
    """Positions with captures and near-wins, where rule errors hide."""
    rng = random.Random(5)
    checked = 0
    while checked < (40 if FULL else 8):
        state, os_state = game.initial_state(), oracle.new_initial_state()
        target = rng.randrange(20, 70)
        while not os_state.is_terminal() and state.ply < target:
            action = rng.choice(os_state.legal_actions())
            state.play(ours_of(game, os_state, action))
            os_state.apply_action(action)
        if os_state.is_terminal():
            continue
        assert perft(state, 3) == perft_oracle(os_state, 3)
        checked += 1


def test_transposed_move_orders_give_equal_keys(game: engine.Game) -> None:
    a = game.initial_state().play_all(["a7a6", "a2a3", "b7b6", "h2h3"])
    b = game.initial_state().play_all(["b7b6", "h2h3", "a7a6", "a2a3"])
    assert a.to_bytes() == b.to_bytes()
    assert a.keys() == b.keys()
    c = game.initial_state().play_all(["a7a6", "a2a3", "b7b6"])
    assert c.keys() != a.keys()  # same pawns moved, other side to move


def test_capture_text_accepts_openspiel_star(game: engine.Game) -> None:
    state = game.initial_state().play_all(["d7d6", "e2e3", "d6d5", "e3e4"])
    assert state.parse_move("d5e4*") == state.parse_move("d5e4")
    state.play("d5e4*")
    assert state.render().splitlines()[4] == "4 ....b..."


def test_fast_playouts_match_random_play_statistics(game: engine.Game, oracle) -> None:
    """The C playout op must be uniform random play: compare the mean game length
    with OpenSpiel games driven by Python's random choices (z-score < 5)."""
    n_ours, n_oracle = 20000, 300 if not FULL else 3000
    run = engine.playout_run(game.initial_state(), n_ours, seed=3)
    mean_ours = run.plies / n_ours
    rng = random.Random(9)
    lengths = []
    wins = 0
    for _ in range(n_oracle):
        s = oracle.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        lengths.append(s.move_number())
        wins += s.returns()[0] > 0
    mean_oracle = sum(lengths) / n_oracle
    var = sum((x - mean_oracle) ** 2 for x in lengths) / (n_oracle - 1)
    se = (var / n_oracle + var / n_ours) ** 0.5
    assert abs(mean_ours - mean_oracle) < 5 * se
    p = wins / n_oracle
    se_p = ((p * (1 - p)) / n_oracle + 0.25 / n_ours) ** 0.5
    assert abs(run.mean_rewards[0] - p) < 5 * se_p

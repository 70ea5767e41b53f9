"""The learned Go move model (csrc/games/go_model.c, engine.go_model): its features
against the plain-Python reference tests/reference/go_model.py on random positions,
the pattern key's symmetry, the probabilities against the generated table's gammas,
the priors it gives a RAVE search, and the bot key that turns it on."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from bots.registry import make_bot
from engine import games, go, go_model
from engine.errors import InvalidArgumentError
from engine.search import RAVE, Search
from tests.games.test_go_policy import positions, random_position
from tests.reference import go_model as ref

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "csrc" / "games" / "go_model_data.h"


@pytest.mark.parametrize("seed", [11, 12])
def test_features_match_the_reference_on_random_positions(seed: int) -> None:
    seen = np.zeros(go_model.N_GROUPS, dtype=int)
    for st, last in positions(0, seed):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        moves = st.legal_moves()
        got = go_model.features(st, moves)
        for move, row in zip(moves, got, strict=False):
            want = ref.features(9, board, move, color, last, ko)
            assert list(row) == want, (go.board_text(st), last, move, list(row), want)
            seen += np.array(want) > 0
    # every group was met (captures, ataris, self-ataris, escapes happen in these games)
    assert (seen[:go_model.PATTERN] > 0).sum() >= 8, seen


def transformed(size: int, m: int, t: int) -> int:
    r, c = divmod(m, size)
    if t & 1:
        r, c = c, r
    if t & 2:
        r = size - 1 - r
    if t & 4:
        c = size - 1 - c
    return r * size + c


def test_pattern_key_is_the_same_under_symmetries_and_colour_swap() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        st, _ = random_position(9, 0, rng)
        if st.is_terminal():
            continue
        board = go.colors(st)
        black = [m for m in range(81) if board[m] == go.BLACK]
        white = [m for m in range(81) if board[m] == go.WHITE]
        empty = [m for m in range(81) if board[m] == go.EMPTY]
        keys = {m: int(f[go_model.PATTERN]) for m, f in zip(empty, go_model.features(
            setup(black, white, st.to_move), empty), strict=False)}
        for t in range(8):
            moved = setup([transformed(9, m, t) for m in black],
                          [transformed(9, m, t) for m in white], st.to_move)
            pts = [transformed(9, m, t) for m in empty]
            got = go_model.features(moved, pts)[:, go_model.PATTERN]
            assert [int(k) for k in got] == [keys[m] for m in empty]
        swapped = setup(white, black, 1 - st.to_move)
        got = go_model.features(swapped, empty)[:, go_model.PATTERN]
        assert [int(k) for k in got] == [keys[m] for m in empty]
        checked += 1
    assert checked >= 3


def setup(black: list[int], white: list[int], to_move: int) -> games.State:
    st = games.create("go", size=9, komi=7).initial_state()
    go.setup(st, black=black, white=white, to_move=to_move)
    return st


def header_gammas() -> tuple[list[list[float]], dict[int, float], float]:
    text = HEADER.read_text()

    def block(name: str) -> list[str]:
        body = re.search(name + r"\[[^]]*\](?:\[[^]]*\])? = \{(.*?)\};", text, re.S)
        assert body, name
        return re.findall(r"[-+0-9.e]+f?u?|UINT32_MAX", body.group(1))

    def num(tok: str) -> float:
        return float(tok.rstrip("fu"))

    levels = [num(x) for x in block("go_model_level_gamma")]
    width = go_model.LEVELS
    level_gamma = [levels[i:i + width] for i in range(0, len(levels), width)]
    keys = [int(x.rstrip("u")) for x in block("go_model_pattern_key")[:-1]]
    gammas = [num(x) for x in block("go_model_pattern_gamma")[:-1]]
    rare = num(re.search(r"GO_MODEL_PATTERN_RARE ([-+0-9.e]+)f?", text).group(1))
    assert len(keys) == len(gammas) == go_model.model_patterns()
    return level_gamma, dict(zip(keys, gammas, strict=False)), rare


def test_probabilities_are_the_normalised_products_of_the_tables_gammas() -> None:
    level_gamma, pattern_gamma, rare = header_gammas()
    for st, last in positions(0, 13):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        moves = st.legal_moves()
        s = np.array([ref.strength(ref.features(9, board, m, color, last, ko), level_gamma,
                                   pattern_gamma, rare) for m in moves])
        got = go_model.probabilities(st, moves)
        assert got.sum() == pytest.approx(1.0)
        assert got == pytest.approx(s / s.sum(), rel=1e-5)


def test_model_priors_are_the_documented_virtual_win_rates() -> None:
    prior = 10.0
    game = games.create("go", size=9, komi=7, policy=go.PRIOR_MODEL)
    for st, _ in positions(0, 14):
        st = go.in_game(st, game)
        p = dict(zip(st.legal_moves(), go_model.probabilities(st), strict=False))
        search = Search(st, RAVE(prior=prior, knowledge=True), iterations=1)
        edges = search.root_edges()
        for e in edges:
            x = len(edges) * p[e.move]
            assert e.alg_b == prior
            assert e.alg_a / e.alg_b == pytest.approx(x / (1 + x), rel=1e-5)


def test_the_shipped_model_saves_a_group_in_atari_first() -> None:
    # Black's D4 is in atari (white C4, E4, D3; its liberty D5); white's C4 is in atari
    # too (black C5, C3, D4; its liberty B4).  The two saving moves -- B4 takes C4, D5
    # runs out -- must be the shipped model's two most likely moves.
    st = games.create("go", size=9, komi=7).initial_state()
    go.setup(st, black=["D4", "C5", "C3"], white=["C4", "E4", "D3"], to_move=0)
    moves = st.legal_moves()
    p = go_model.probabilities(st, moves)
    top2 = {st.format_move(moves[i]) for i in np.argsort(-p)[:2]}
    assert top2 == {"B4", "D5"}


def test_bad_input_is_refused() -> None:
    st = games.create("go", size=9, komi=7).initial_state()
    for bad in ([82], [-1], [2**40], ["D4"], [True]):
        with pytest.raises(InvalidArgumentError):
            go_model.features(st, bad)
        with pytest.raises(InvalidArgumentError):
            go_model.probabilities(st, bad)
    with pytest.raises(InvalidArgumentError):
        go_model.features(games.create("connect4").initial_state())


def test_the_go_bot_key_turns_the_model_on() -> None:
    game = games.create("go", size=9, komi=7)
    bot = make_bot("gobot:priors=4,iterations=50", game)
    assert bot.policy & go.PRIOR_MODEL
    assert not bot.policy & (go.PRIOR_LINES | go.PRIOR_LADDER)
    assert bot.choose(game.initial_state()) in game.initial_state().legal_moves()

"""The heavy Go playout policy (csrc/games/go_policy.c) and the Go prior knowledge
against the plain-Python reference tests/reference/go_policy.py: hand-made positions
for each rule (it answers an atari, it does not fill an eye, it does not self-atari a
big group) and random positions where the first playout move must lie in the set the
reference computes.  ``MIAI_FULL=1`` uses more positions."""

from __future__ import annotations

import os
import random

import pytest

from engine import games, go
from engine.errors import InvalidArgumentError
from engine.search import RAVE, Search
from tests.reference import go_policy as ref
from tests.reference.go_rules import BLACK, EMPTY, after_move, group, is_own_eye, move_id

FULL = os.environ.get("MIAI_FULL") == "1"
N_POSITIONS = 120 if FULL else 25
SEEDS = range(40)

ATARI, SELF_ATARI, PATTERN, FILL_EYES = 1, 2, 4, 8
LINES, LADDER = go.PRIOR_LINES, go.PRIOR_LADDER


def state_with(size: int, policy: int, black: list[str], white: list[str], to_move: int = 0):
    st = games.create("go", size=size, komi=7, policy=policy).initial_state()
    go.setup(st, black=black, white=white, to_move=to_move)
    return st


def first_moves(st, seeds=SEEDS) -> set[int]:
    return {go.playout_trace(st, seed=s)[0] for s in seeds}


def test_policy_parameter_is_validated() -> None:
    with pytest.raises(InvalidArgumentError):
        games.create("go", size=9, policy=512)
    with pytest.raises(InvalidArgumentError):
        games.create("go", size=9, policy=1.5)


def test_it_captures_a_group_the_last_move_left_in_atari() -> None:
    st = state_with(5, ATARI, ["B3", "C4", "D3"], [], to_move=1)
    go.play_as(st, 1, "C3")  # white self-ataris; black must take at C2
    assert first_moves(st) == {move_id(5, "C2")}
    light = state_with(5, 0, ["B3", "C4", "D3"], [], to_move=1)
    go.play_as(light, 1, "C3")
    assert len(first_moves(light)) > 1  # the rule is what makes the difference


def test_it_saves_an_own_group_put_in_atari() -> None:
    black, white = ["C3", "C4"], ["B3", "B4", "C5", "D3"]
    st = state_with(5, ATARI, black, white, to_move=1)
    go.play_as(st, 1, "D4")  # ataris C3-C4; extending at C2 gives three liberties
    assert first_moves(st) == {move_id(5, "C2")}


def test_it_does_not_self_atari_a_big_group() -> None:
    black, white = ["B1", "B2"], ["A2", "C2", "B3", "D1"]
    bad = {move_id(5, "A1"), move_id(5, "C1")}
    st = state_with(5, SELF_ATARI, black, white)
    assert not first_moves(st, range(80)) & bad
    light = state_with(5, 0, black, white)
    assert first_moves(light, range(80)) & bad  # light playouts do play them


def test_it_does_not_fill_an_eye_unless_switched_off() -> None:
    black = [p for p in ("B5", "D5", "E5") + tuple(f"{c}{r}" for c in "ABCDE" for r in "1234")]
    for policy in (0, ATARI | SELF_ATARI | PATTERN):
        st = state_with(5, policy, black, [])
        assert first_moves(st) == {25}  # only own eyes left: pass
    st = state_with(5, FILL_EYES, black, [])
    assert first_moves(st) == {move_id(5, "A5"), move_id(5, "C5")}


def random_position(size: int, policy: int, rng: random.Random):
    """A position after a random number of random legal plies (no passes)."""
    st = games.create("go", size=size, komi=7, policy=policy).initial_state()
    last = None
    for _ in range(rng.randrange(10, 3 * size * size // 2)):
        moves = [m for m in st.legal_moves() if m != size * size]
        if not moves or st.is_terminal():
            break
        last = rng.choice(moves)
        st.play(last)
    return st, last


def positions(policy: int, seed: int):
    rng = random.Random(seed)
    for _ in range(N_POSITIONS):
        st, last = random_position(9, policy, rng)
        if not st.is_terminal():
            yield st, last


def test_atari_rule_matches_the_reference_on_random_positions() -> None:
    checked = 0
    for st, last in positions(ATARI, 1):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        want = ref.atari_replies(9, board, last, color, ko)
        got = first_moves(st, range(12))
        if want:
            checked += 1
            assert got <= want, (go.board_text(st), last, want, got)
        else:
            assert not got & {m for m in range(81) if not ref.playout_ok(9, board, m, color, ko)}
    assert checked >= 3


def test_pattern_rule_matches_the_reference_on_random_positions() -> None:
    checked = 0
    for st, last in positions(PATTERN, 2):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        want = ref.pattern_replies(9, board, last, color, ko, self_atari=False)
        if want:
            checked += 1
            assert first_moves(st, range(12)) <= want, (go.board_text(st), last, want)
    assert checked >= 3


def test_full_policy_playouts_keep_every_rule() -> None:
    """Replaying whole playouts on the reference board: no own eye filled, no
    non-capturing self-atari of a big group (the capture rule may take back)."""
    moves_seen = 0
    for st, _ in positions(ATARI | SELF_ATARI | PATTERN, 3):
        board, color = go.colors(st), st.to_move + 1
        for m in go.playout_trace(st, seed=7):
            if m != 81:
                assert board[m] == EMPTY
                assert not is_own_eye(9, board, m, color)
                assert not ref.bad_self_atari(9, board, m, color)
                res = after_move(9, board, m, color)
                assert res is not None
                board = res[0]
                moves_seen += 1
            color = 3 - color
    assert moves_seen > 100


@pytest.mark.parametrize("seed", [4, 5])
def test_priors_match_the_reference_knowledge(seed: int) -> None:
    prior = 10.0
    for st, last in positions(0, seed):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        search = Search(st, RAVE(prior=prior, knowledge=True), iterations=1)
        for e in search.root_edges():
            kind = ref.prior_kind(9, board, e.move, color, last, ko)
            assert e.alg_b == prior
            assert e.alg_a == pytest.approx(prior * (0.5 + 0.5 * kind)), (
                go.board_text(st), last, e.move, kind)


def root_kinds(st) -> dict[int, int]:
    """The prior kind of each root move as a RAVE search with priors gives them."""
    search = Search(st, RAVE(prior=10.0, knowledge=True), iterations=1)
    return {e.move: round(2 * e.alg_a / e.alg_b - 1) for e in search.root_edges()}


@pytest.mark.parametrize("seed", [4, 5])
def test_line_and_ladder_priors_match_the_reference(seed: int) -> None:
    bits = LINES | LADDER
    ladders = 0
    for st, last in positions(bits, seed):
        board, ko, color = go.colors(st), go.ko_point(st), st.to_move + 1
        for move, kind in root_kinds(st).items():
            want = ref.prior_kind(9, board, move, color, last, ko, bits)
            assert kind == want, (go.board_text(st), last, move, kind, want)
            if move < 81 and ref.ladder_kind(9, board, move, color, ko):
                ladders += 1
    assert ladders >= 1


def test_prior_bits_leave_the_playouts_alone() -> None:
    rng = random.Random(3)
    for _ in range(5):
        st, _ = random_position(9, 0, rng)
        for playout in (0, ATARI | SELF_ATARI | PATTERN):
            plain = go.with_policy(st, playout)
            knowing = go.with_policy(st, playout | LINES | LADDER)
            for seed in range(3):
                assert go.playout_trace(plain, seed) == go.playout_trace(knowing, seed)


def test_line_priors_on_a_constructed_board() -> None:
    """On the empty 9x9 board the first and second lines are bad, the rest neutral;
    a first-line move that ataris is not penalised, nor a second-line move next to
    stones once the board is half full."""
    st = games.create("go", size=9, komi=7, policy=LINES).initial_state()
    kinds = root_kinds(st)
    for m in range(81):
        r, c = divmod(m, 9)
        assert kinds[m] == (-1 if min(r, c, 8 - r, 8 - c) <= 1 else 0), m
    plain = games.create("go", size=9, komi=7, policy=0).initial_state()
    assert set(root_kinds(plain).values()) <= {0, -1}
    assert root_kinds(plain)[move_id(9, "A1")] == 0  # the bit is what makes it -1
    # White B1 has the liberties A1 and C1: either is an atari, not penalised.
    st = state_with(9, LINES, ["B2", "D1"], ["B1"], to_move=0)
    kinds = root_kinds(st)
    assert kinds[move_id(9, "A1")] != -1 and kinds[move_id(9, "C1")] != -1
    assert kinds[move_id(9, "H1")] == -1


# A working ladder: white D4 in atari (liberty D5), black C4, D3, E4, E5 around it;
# white B7 breaks it (the ladder runs up and to the left).
LADDER_BLACK = ["C4", "D3", "E4", "E5"]


def test_ladder_reader_on_constructed_positions() -> None:
    def captured(black: list[str], white: list[str], stone: str = "D4") -> bool:
        st = state_with(9, 0, black, white, to_move=1)
        board = go.colors(st)
        want = ref.ladder_captured(9, board, move_id(9, stone), go.ko_point(st))
        assert go.ladder_captures(st, stone) == want
        return want

    assert captured(LADDER_BLACK, ["D4"])
    assert not captured(LADDER_BLACK, ["D4", "B7"])  # a ladder breaker
    assert not captured(["C4", "D3", "E4"], ["D4"])  # three liberties after D5
    assert not captured(LADDER_BLACK, ["D4", "B4", "C3"])  # white takes C4 instead
    assert captured(LADDER_BLACK + ["C5"], ["D4"])  # D5 leaves one liberty
    with pytest.raises(InvalidArgumentError):
        go.ladder_captures(state_with(9, 0, ["C4"], ["D4"]), "D4")  # not in atari


def test_ladder_priors_on_constructed_positions() -> None:
    """Running from a working ladder is bad with the bit (a save, good, without it);
    an atari that starts a working ladder is good, one that does not is left alone."""
    # White to move with D4 in atari; black's last move put it there (at E4).
    for bits, want in ((LADDER, -1), (0, 1)):
        st = state_with(9, bits, ["C4", "D3", "E5"], ["D4"], to_move=0)
        go.play_as(st, 0, "E4")
        assert st.to_move == 1
        assert root_kinds(st)[move_id(9, "D5")] == want
    # Black to move: white D4 has the liberties D5 and E4; E4 starts a working ladder.
    st = state_with(9, LADDER, ["C4", "D3", "E5"], ["D4"], to_move=0)
    kinds = root_kinds(st)
    assert kinds[move_id(9, "E4")] == 1
    broken = state_with(9, LADDER, ["C4", "D3", "E5"], ["D4", "B7"], to_move=0)
    assert root_kinds(broken)[move_id(9, "E4")] == 0


def test_ladder_reader_matches_the_reference_on_random_positions() -> None:
    rng = random.Random(11)
    checked = 0
    for size in (7, 9):
        for _ in range(N_POSITIONS * 2):
            st, _ = random_position(size, 0, rng)
            board, ko = go.colors(st), go.ko_point(st)
            seen: set[int] = set()
            for m in range(size * size):
                if board[m] == EMPTY or m in seen:
                    continue
                stones, libs = group(size, board, m)
                seen |= stones
                if len(libs) == 1:
                    want = ref.ladder_captured(size, board, m, ko)
                    assert go.ladder_captures(st, m) == want, (go.board_text(st), m, want)
                    checked += 1
    assert checked >= 20


def test_heavy_playouts_are_deterministic_and_legal_to_the_end() -> None:
    st = games.create("go", size=9, komi=7, policy=7).initial_state()
    a, b = go.playout_trace(st, seed=3), go.playout_trace(st, seed=3)
    assert a == b and a[-2:] == [81, 81]
    assert BLACK == 1

"""The C ``go`` game against two independent truths: GNU Go 3.8 over GTP (legality,
captures, stones and the final area score, move by move) and the plain-Python rules
of tests/reference/go_rules.py; plus hand-made positions (capture, suicide, snapback,
ko, a triple-ko superko cycle, seki, handicap) and the playout policy.

GNU Go follows simple ko only, we positional superko: where GNU Go's ``all_legal``
has a move ours lacks, the test checks that the move would recreate an earlier board.

CI runs a few games per size; ``MIAI_FULL=1`` runs the full oracle (hundreds).
"""

from __future__ import annotations

import math
import os
import random
import shutil
import subprocess
from collections.abc import Iterator

import pytest

import engine
from engine import games, go
from engine.errors import GameOverError, IllegalMoveError, InvalidArgumentError, StateError
from tests.reference import go_rules as ref
from tests.reference.go_rules import BLACK, WHITE, RefGo, after_move, is_own_eye, vertex

GNUGO = "/usr/games/gnugo" if os.path.exists("/usr/games/gnugo") else shutil.which("gnugo")
FULL = os.environ.get("MIAI_FULL") == "1"

needs_gnugo = pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")


class Gtp:
    """A GTP engine on a subprocess pipe (one command, one answer)."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def __call__(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"GTP engine died on {command!r}")
            if line == "\n" and lines:
                break
            if line != "\n":
                lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"{command!r} -> {answer!r}")
        return answer[1:].strip()

    def close(self) -> None:
        try:
            self("quit")
        finally:
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def gnugo() -> Iterator[Gtp]:
    if GNUGO is None:
        pytest.skip("GNU Go is not installed")
    engine_ = Gtp([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"])
    yield engine_
    engine_.close()


COLOR_NAME = {BLACK: "black", WHITE: "white"}


def random_policy_move(state: engine.State, rng: random.Random) -> int:
    """Uniform among legal points that do not fill an own eye; pass when none."""
    size = go.board_size(state.game)
    colors = go.colors(state)
    mover = state.to_move + 1
    legal = state.legal_moves()
    points = [m for m in legal if m < size * size and not is_own_eye(size, colors, m, mover)]
    return rng.choice(points) if points else size * size


def oracle_game(gtp: Gtp, size: int, komi: float, seed: int) -> tuple[int, int]:
    """One random game in both engines, compared at every ply; returns (plies, number
    of moves GNU Go allowed that positional superko forbids)."""
    rng = random.Random(seed)
    game = games.create("go", size=size, komi=komi)
    state = game.initial_state()
    gtp(f"boardsize {size}")
    gtp("clear_board")
    gtp(f"komi {komi}")
    boards = {tuple(go.colors(state))}
    superko_only = 0
    while not state.is_terminal():
        mover = state.to_move + 1
        name = COLOR_NAME[mover]
        ours = {vertex(size, m) for m in state.legal_moves() if m < size * size}
        theirs = set(gtp(f"all_legal {name}").split())
        assert ours <= theirs, f"ply {state.ply}: only we allow {ours - theirs}"
        colors = go.colors(state)
        for v in theirs - ours:  # GNU Go's simple ko lets these through
            after = after_move(size, colors, ref.move_id(size, v), mover)
            assert after is not None and tuple(after[0]) in boards, f"ply {state.ply}: {v}"
            superko_only += 1
        move = random_policy_move(state, rng)
        gtp(f"play {name} {vertex(size, move)}")
        state.play(move)
        boards.add(tuple(go.colors(state)))
        for color in (BLACK, WHITE):
            listed = set(gtp(f"list_stones {COLOR_NAME[color]}").split())
            assert listed == {vertex(size, m) for m in go.stones(state, color)}, state.ply
        assert go.captures(state) == (int(gtp("captures black")), int(gtp("captures white")))
    if state.ply < game.max_plies:  # ended by two passes: every stone is alive
        assert gtp("final_score") == go.score(state).text
        b, w = state.rewards()
        margin = go.score(state).margin
        assert (b, w) == ((1.0, 0.0) if margin > 0 else (0.0, 1.0) if margin < 0 else (0.5, 0.5))
    return state.ply, superko_only


@needs_gnugo
@pytest.mark.parametrize(
    ("size", "komi", "n_games"),
    [(5, 0.5, 200 if FULL else 4), (9, 7.5, 100 if FULL else 3),
     (13, 6.5, 20 if FULL else 0), (19, 7.5, 10 if FULL else 1), (7, 0, 50 if FULL else 2)],
)
def test_random_games_agree_with_gnugo(gnugo: Gtp, size: int, komi: float,
                                       n_games: int) -> None:
    if n_games == 0:
        pytest.skip(f"MIAI_FULL=1 for {size}x{size}")
    plies = 0
    for seed in range(n_games):
        n, _ = oracle_game(gnugo, size, komi, 1000 * size + seed)
        plies += n
    assert plies > n_games * size  # the games were real games


@pytest.mark.parametrize("size", [5, 7])
def test_random_games_agree_with_the_python_reference(size: int) -> None:
    game = games.create("go", size=size, komi=0.5)
    rng = random.Random(size)
    for _ in range(12 if FULL else 3):
        state, model = game.initial_state(), RefGo(size, 0.5)
        while not state.is_terminal():
            legal = state.legal_moves()
            assert set(legal) == model.legal_points() | {size * size}
            move = random_policy_move(state, rng) if rng.random() < 0.9 else rng.choice(legal)
            state.play(move)
            model.play(move)
            assert go.colors(state) == model.board
            assert list(go.captures(state)) == model.captures
            state.check()
        b, w, owner = ref.area(size, model.board)
        score = go.score(state)
        assert (score.black_area, score.white_area) == (b, w)
        assert go.owners(state) == owner


# ---- hand-made positions ----


def position(size: int, black: list[str], white: list[str], to_move: int = 0,
             komi: float = 0.5) -> engine.State:
    state = games.create("go", size=size, komi=komi).initial_state()
    go.setup(state, black, white, to_move)
    state.check()
    return state


def test_capture_removes_the_group_and_counts_it() -> None:
    state = position(5, ["B3", "C4", "D3"], ["C3"], to_move=0)
    state.play("C2")
    assert go.colors(state)[go.point(state.game, "C3")] == go.EMPTY
    assert go.captures(state) == (1, 0)
    state.check()
    state = position(5, ["A3", "B2"], ["A1", "A2"], to_move=0)  # two stones in the corner
    state.play("B1")
    assert go.stones(state, WHITE) == [] and go.captures(state) == (2, 0)
    assert go.owners(state)[go.point(state.game, "A1")] == BLACK
    state.check()


def test_suicide_is_refused_but_a_capturing_move_is_not() -> None:
    state = position(5, ["A2", "B1"], [], to_move=1)
    a1 = go.point(state.game, "A1")
    assert a1 not in state.legal_moves()
    before = state.to_bytes()
    with pytest.raises(IllegalMoveError):
        state.play("A1")
    assert state.to_bytes() == before
    # multi-stone suicide: white B1-A2 group filling its last liberty
    state = position(5, ["C1", "B2", "A3"], ["B1", "A2"], to_move=1)
    assert a1 not in state.legal_moves()
    # the same point captures when the surrounding stones are in atari
    state = position(5, ["A2", "B1"], ["A3", "B2", "C1"], to_move=1)
    assert a1 in state.legal_moves()
    state.play("A1")
    assert go.captures(state) == (0, 2)


def test_snapback() -> None:
    state = position(5, ["A2", "B2", "C1"], ["A3", "B3", "C2"], to_move=1)
    state.play("B1")  # throw-in
    state.play("A1")  # black takes one stone ...
    assert go.captures(state) == (1, 0)
    assert go.ko_point(state) is None  # three stones with one liberty: no ko
    state.play("B1")  # ... and white takes three back
    assert go.captures(state) == (1, 3)
    assert go.stones(state, BLACK) == [go.point(state.game, "C1")]
    state.check()


KO = (["B9", "A8", "B7"], ["C9", "B8", "D8", "C7"])  # black takes at C8


def test_simple_ko_retake_must_wait_a_move() -> None:
    state = position(9, *KO, to_move=0)
    state.play("C8")
    b8 = go.point(state.game, "B8")
    assert go.ko_point(state) == b8
    assert b8 not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play("B8")
    state.play("J1").play("J2")  # ko threat and answer
    assert b8 in state.legal_moves()
    state.play("B8")
    assert go.ko_point(state) == go.point(state.game, "C8")


# Three kos: black can take the first and third, white the second.  Taking them in
# turn, B C8, W H8, B C2, W B8, B G8, would let white's B2 recreate the start.
TRIPLE_KO_BLACK = ["B9", "A8", "B7", "H9", "G8", "J8", "H7", "B3", "A2", "B1"]
TRIPLE_KO_WHITE = ["C9", "B8", "D8", "C7", "G9", "F8", "G7", "C3", "B2", "D2", "C1"]
TRIPLE_KO_MOVES = ["C8", "H8", "C2", "B8", "G8"]


def test_triple_ko_cycle_is_refused_by_positional_superko() -> None:
    state = position(9, TRIPLE_KO_BLACK, TRIPLE_KO_WHITE, to_move=0)
    start = go.colors(state)
    state.play_all(TRIPLE_KO_MOVES)
    assert go.ko_point(state) is not None and go.ko_point(state) != go.point(state.game, "B2")
    b2 = go.point(state.game, "B2")
    assert b2 not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play("B2")
    # the reference agrees, and under simple ko (GNU Go's rule) the move is legal
    for superko, legal in ((True, False), (False, True)):
        model = RefGo(9, superko=superko)
        model.setup([go.point(state.game, v) for v in TRIPLE_KO_BLACK],
                    [go.point(state.game, v) for v in TRIPLE_KO_WHITE])
        for v in TRIPLE_KO_MOVES:
            model.play(go.point(state.game, v))
        assert model.is_legal(b2) is legal
        if legal:
            model.play(b2)
            assert model.board == start


@needs_gnugo
def test_triple_ko_cycle_is_legal_for_gnugo(gnugo: Gtp) -> None:
    gnugo("boardsize 9")
    gnugo("clear_board")
    for v in TRIPLE_KO_BLACK:
        gnugo(f"play black {v}")
    for v in TRIPLE_KO_WHITE:
        gnugo(f"play white {v}")
    for color, v in zip(["black", "white"] * 3, TRIPLE_KO_MOVES, strict=False):
        gnugo(f"play {color} {v}")
    assert gnugo("is_legal white B2") == "1"


# Seki on 5x5: each group has one eye (A5, E5) and they share C4 and C5.
SEKI_BLACK = ["B5", "A4", "B4", "A3", "B3", "C3", "A2", "B2", "C2", "A1", "B1", "C1"]
SEKI_WHITE = ["D5", "D4", "E4", "D3", "E3", "D2", "E2", "D1", "E1"]


def test_seki_counts_the_shared_liberties_for_nobody() -> None:
    state = position(5, SEKI_BLACK, SEKI_WHITE, komi=2)
    score = go.score(state)
    assert (score.black_area, score.white_area) == (13, 10)
    assert score.margin == 1 and score.text == "B+1.0"
    owners = go.owners(state)
    for v in ("C4", "C5"):
        assert owners[go.point(state.game, v)] == go.EMPTY
    state.play("pass").play("pass")
    assert state.rewards() == (1.0, 0.0)
    jigo = position(5, SEKI_BLACK, SEKI_WHITE, komi=3)
    jigo.play("pass").play("pass")
    assert jigo.rewards() == (0.5, 0.5)


@needs_gnugo
def test_seki_score_agrees_with_gnugo(gnugo: Gtp) -> None:
    """GNU Go fills dame before it counts (here black C4; C5 stays empty since either
    side filling it loses its group), so compare after that fill."""
    gnugo("boardsize 5")
    gnugo("clear_board")
    gnugo("komi 2")
    for v in SEKI_BLACK:
        gnugo(f"play black {v}")
    for v in SEKI_WHITE:
        gnugo(f"play white {v}")
    assert gnugo("final_status C5") == "dame"
    gnugo("play black C4")
    state = position(5, SEKI_BLACK, SEKI_WHITE, komi=2).play("C4")
    assert gnugo("final_score") == go.score(state).text == "B+2.0"


def test_dead_stones_and_score_with_them() -> None:
    # a white stone in atari inside black's living group: black captures it in every
    # playout, white can never save it (A1 is suicide for white)
    everything = [ref.vertex(5, m) for m in range(25)]
    black = [v for v in everything if v not in ("A1", "B1", "E1", "C4", "A5")]
    state = position(5, black, ["B1"], komi=0.5)
    dead = go.dead_stones(state, n=50, seed=1)
    assert dead == [go.point(state.game, "B1")]
    score = go.score(state, dead=dead)
    assert (score.black_area, score.white_area) == (25, 0)
    score = go.score(state)  # all alive: B1 is white's, A1 nobody's
    assert (score.black_area, score.white_area) == (23, 1)
    assert go.owners(state, dead=["B1"]) == [BLACK] * 25


def test_ownership_follows_eq16() -> None:
    # settled: black rows 1-3 with eyes A1, C1, E1; white rows 4-5 with eyes A5, C5, E5
    everything = [ref.vertex(5, m) for m in range(25)]
    black = [v for v in everything if v[1] in "123" and v not in ("A1", "C1", "E1")]
    white = [v for v in everything if v[1] in "45" and v not in ("A5", "C5", "E5")]
    state = position(5, black, white)
    own = go.ownership(state, 20, seed=3)
    assert own.territory == tuple([-1.0] * 10 + [1.0] * 15)
    assert own.black_share == tuple([0.0] * 10 + [1.0] * 15)
    counter = go.OwnershipCounter(state.game)
    counter.add(state)
    counter.add(state)
    assert counter.territory() == own.territory
    # an open board: shares and territory values stay in range and are consistent
    empty = games.create("go", size=5).initial_state()
    own = go.ownership(empty, 300, seed=4)
    for b, t in zip(own.black_share, own.territory, strict=True):
        assert 0.0 < b < 1.0 and -1.0 < t < 1.0
        assert t <= b and b - t <= 1.0  # t = b - w with w = b - t a share too
    assert go.ownership(empty, 300, seed=4) == own


def test_fixed_handicap_follows_the_gtp_table() -> None:
    game = games.create("go", size=19)
    spec = ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    for n in range(2, 10):
        expected = spec[:n] if n in (2, 3, 4, 6, 8) else spec[: n - 1] + ["K10"]
        got = [game.move_to_text(m) for m in go.fixed_handicap_points(game, n)]
        assert sorted(got) == sorted(expected), n
    small = games.create("go", size=6)
    with pytest.raises(InvalidArgumentError):
        go.fixed_handicap_points(small, 2)
    with pytest.raises(InvalidArgumentError):
        go.fixed_handicap_points(games.create("go", size=8), 5)


@needs_gnugo
def test_fixed_handicap_agrees_with_gnugo(gnugo: Gtp) -> None:
    for size in (7, 8, 9, 10, 13, 19):
        game = games.create("go", size=size)
        for n in range(2, 10):
            gnugo(f"boardsize {size}")
            gnugo("clear_board")
            try:
                theirs = set(gnugo(f"fixed_handicap {n}").split())
            except RuntimeError:
                theirs = None
            if theirs is None:
                with pytest.raises(InvalidArgumentError):
                    go.fixed_handicap_points(game, n)
            else:
                assert {game.move_to_text(m) for m in go.fixed_handicap_points(game, n)} == theirs


def test_handicap_placement_gives_white_the_move() -> None:
    game = games.create("go", size=9)
    state = game.initial_state()
    pts = go.place_fixed_handicap(state, 4)
    assert state.to_move == 1 and state.ply == 0
    assert go.stones(state, BLACK) == sorted(pts)
    state.check()
    with pytest.raises(StateError):
        go.place_fixed_handicap(state, 2)  # not on an empty board
    free = game.initial_state()
    go.place_handicap(free, ["A1", "J9", "E5"])
    assert len(go.stones(free, BLACK)) == 3 and free.to_move == 1
    bad = game.initial_state()
    for points in (["A1"], ["A1", "A1"], ["A1", "Z9"], ["A1", 81]):
        with pytest.raises(InvalidArgumentError):
            go.place_handicap(bad, points)
    moved = game.initial_state().play("E5")
    with pytest.raises(StateError):
        go.place_handicap(moved, ["A1", "J9"])
    with pytest.raises(StateError):
        go.setup(moved, black=["A1"])
    assert bad.to_bytes() == game.initial_state().to_bytes()


def test_setup_refuses_groups_without_liberties() -> None:
    state = games.create("go", size=5).initial_state()
    before = state.to_bytes()
    with pytest.raises(InvalidArgumentError):
        go.setup(state, black=["A2", "B1"], white=["A1"])
    with pytest.raises(InvalidArgumentError):
        go.setup(state, black=["A1"], white=["A1"])
    assert state.to_bytes() == before


def test_playouts_never_fill_an_own_eye_nor_play_suicide() -> None:
    size = 9
    game = games.create("go", size=size)
    start = position(9, TRIPLE_KO_BLACK, TRIPLE_KO_WHITE)
    for seed in range(40 if FULL else 8):
        origin = start if seed % 2 else game.initial_state()
        model = RefGo(size, superko=False)
        colors = go.colors(origin)
        model.setup([m for m, c in enumerate(colors) if c == BLACK],
                    [m for m, c in enumerate(colors) if c == WHITE])
        trace = go.playout_trace(origin, seed)
        assert trace[-2:] == [size * size] * 2 or len(trace) == game.max_plies
        for move in trace:
            candidates = [m for m in model.legal_points()
                          if not is_own_eye(size, model.board, m, model.to_move)]
            if move == size * size:
                assert candidates == []
            else:
                assert move in candidates
            model.play(move)


def test_playout_first_moves_are_uniform() -> None:
    """From the empty 5x5 board every point is acceptable: the first move of a playout
    is uniform over the 25 points (chi-square, 24 degrees of freedom)."""
    state = games.create("go", size=5).initial_state()
    n = 2500
    counts = [0] * 25
    for seed in range(n):
        counts[go.playout_trace(state, seed)[0]] += 1
    expected = n / 25
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 51.2  # the 0.999 quantile
    # later in the game too: from a middle position, refused points are never drawn
    # and the acceptable ones are all drawn
    mid = position(5, ["B2", "B3", "B4", "C2", "D2"], ["C4", "D4", "D3"], to_move=0)
    firsts = {go.playout_trace(mid, seed)[0] for seed in range(600)}
    colors = go.colors(mid)
    acceptable = {m for m in range(25)
                  if colors[m] == go.EMPTY and not is_own_eye(5, colors, m, BLACK)}
    assert firsts == acceptable


def test_move_text_is_gtp_vertex() -> None:
    game = games.create("go", size=19)
    assert game.move_to_text(0) == "A19"
    assert game.move_to_text(18 * 19) == "A1"
    assert game.move_to_text(19 * 19 - 1) == "T1"
    assert game.move_to_text(19 * 19) == "pass"
    assert game.move_from_text("j10") == game.move_from_text("J10") == 9 * 19 + 8
    assert game.move_from_text("PASS") == 361
    for bad in ("I5", "A0", "A20", "U1", "A01", "A", "5A", "A1x", "pas"):
        with pytest.raises(InvalidArgumentError):
            game.move_from_text(bad)
    with pytest.raises(InvalidArgumentError):
        games.create("go", size=9).move_from_text("K1")


def test_komi_takes_any_finite_number() -> None:
    """GTP's komi is any float (GNU Go takes 6.25): the margin is exact."""
    for k in (7.5, 0, -3.5, 150, 7.25, 0.1, -6.75, 1000):
        game = games.create("go", size=5, komi=k)
        assert go.komi(game) == k
        state = game.initial_state()
        state.play("C3")
        assert go.score(state).margin == 25 - k
    for k in (math.inf, -math.inf, math.nan):
        with pytest.raises(InvalidArgumentError):
            games.create("go", komi=k)


def test_game_ends_after_two_passes_and_at_the_ply_cap() -> None:
    state = games.create("go", size=5).initial_state()
    state.play("pass")
    assert not state.is_terminal()
    state.play("C3").play("pass")
    assert not state.is_terminal()
    state.play("pass")
    assert state.is_terminal() and state.rewards() == (0.0, 1.0)  # white's C3: 0 - 25 - 7.5
    game = games.create("go", size=5)
    state = game.initial_state()
    rng = random.Random(0)
    while not state.is_terminal():  # a pass-free random walk runs into the cap
        legal = state.legal_moves()
        state.play(rng.choice(legal[:-1]) if len(legal) > 1 else legal[-1])
    assert state.ply == game.max_plies == 75
    margin = go.score(state).margin  # scored as it stands
    assert state.rewards() == ((1.0, 0.0) if margin > 0 else (0.0, 1.0))


def test_keys_distinguish_side_ko_and_pending_pass() -> None:
    a = position(9, *KO, to_move=0)
    b = a.copy().play("C8")
    c = position(9, KO[0] + ["C8"], [s for s in KO[1] if s != "B8"], to_move=1)
    assert go.colors(b) == go.colors(c)
    assert b.key != c.key  # the same board, but b has a ko point
    d = a.copy().play("pass")
    assert d.key != a.key
    e = position(9, *KO, to_move=1)
    assert e.key != d.key  # a pending pass is part of the key
    assert e.keys() == e.keys_from_scratch() and d.keys() == d.keys_from_scratch()


def test_play_as_lets_either_side_move_as_gtp_does() -> None:
    state = games.create("go", size=5).initial_state()
    go.play_as(state, 1, "C3")  # white first
    go.play_as(state, 1, "D3")  # and again
    assert state.to_move == 0 and go.stones(state, WHITE) == [12, 13]
    state.check()
    go.play_as(state, 0, "pass")
    go.play_as(state, 0, "pass")  # two passes in a row end the game
    assert state.is_terminal()
    with pytest.raises(GameOverError):
        go.play_as(state, 1, "A1")
    # superko and suicide hold out of turn too
    state = position(9, TRIPLE_KO_BLACK, TRIPLE_KO_WHITE, to_move=0)
    state.play_all(TRIPLE_KO_MOVES)
    with pytest.raises(IllegalMoveError):
        go.play_as(state, 1, "B2")
    suicide = position(5, ["A2", "B1"], [], to_move=0)
    before = suicide.to_bytes()
    with pytest.raises(IllegalMoveError):
        go.play_as(suicide, 1, "A1")
    for bad in (2, -1, True):
        with pytest.raises(InvalidArgumentError):
            go.play_as(suicide, bad, "A1")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        go.play_as(suicide, 0, 26)
    assert suicide.to_bytes() == before


def test_board_text_and_render() -> None:
    state = position(5, ["A1"], ["E5"], to_move=0)
    assert go.board_text(state) == "....O\n.....\n.....\n.....\nX....\n"
    text = state.render()
    assert "A B C D E" in text and "black (X) to move" in text


def test_go_functions_refuse_other_games_and_bad_arguments() -> None:
    ttt = games.create("tictactoe")
    with pytest.raises(InvalidArgumentError):
        go.board_size(ttt)
    with pytest.raises(InvalidArgumentError):
        go.colors(ttt.initial_state())
    state = games.create("go", size=5).initial_state()
    for bad in (0, -1, 2**32, 1.5, True):
        with pytest.raises(InvalidArgumentError):
            go.ownership(state, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        go.score(state, dead=["Z1"])
    with pytest.raises(InvalidArgumentError):
        go.setup(state, black=["A1"], to_move=2)

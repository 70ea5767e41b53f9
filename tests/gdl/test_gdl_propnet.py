"""The C propnet against the reference prover on the packaged rulesheets, the
hand-written Tic-tac-toe and Connect Four against miai's C games, and the propnet's
contract as a miai game (keys, copies, move texts, malformed descriptions).

CI runs a few random games on the quickly grounded sheets; MIAI_FULL=1 runs 200
random games on every sheet that grounds (fewer on the slowest, see GAMES_FULL).
"""

from __future__ import annotations

import logging
import os
import random
from functools import cache
from pathlib import Path

import pytest

from engine import games
from engine.errors import InvalidArgumentError, LimitError
from engine.gdl.checks import load_program
from engine.gdl.errors import GdlError, GroundingLimitError
from engine.gdl.game import GdlGame, compile_propnet, load, load_for_play
from engine.gdl.ground import DEFAULT_BOUNDS, Bounds, ground
from engine.gdl.parser import parse_term
from engine.gdl.propnet import BASE, FlatPropnet, build
from engine.gdl.prover_game import ProverGame
from engine.gdl.sheets import PACKAGED
from engine.gdl.terms import to_text
from engine.playouts import playout_run
from engine.search import Search
from tests.helpers.gdl import NOT_GROUNDED, compare_random_game

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "gdl"
FULL = os.environ.get("MIAI_FULL") == "1"

# Grounds in about 20 CPU s (twice: its first grounding is over 262,144 instances):
# compared with the prover under MIAI_FULL only, loaded with the bound in CPU seconds
# (a loaded machine stretches the wall clock); tests/gdl/test_gdl_decompose.py also
# compares it with the net of its whole rules.
NEAR_BOUND = {"kalaha_2009.kif"}
# Ground in about a second or less: compared with the prover in CI.
QUICK = [
    "3pConnectFour.kif", "4pttc.kif", "bidding-tictactoe.kif", "blocker.kif",
    "blocks.kif", "buttons.kif", "chomp.kif", "coins.kif", "conn4.kif",
    "connectFour.kif", "gt_prisoner.kif", "hanoi.kif", "knightsTour.kif", "lightsout.kif",
    "maze.kif", "nim1.kif", "nineBoardTicTacToe.kif", "numbertictactoe.kif",
    "onestep.kif", "pawn_whopping.kif", "roshambo2.kif", "sum15.kif", "switches.kif",
    "tictactoe.kif",
]
ALL_SHEETS = sorted(p.name for p in PACKAGED.glob("*.kif"))
GROUNDED = [n for n in ALL_SHEETS if n not in NOT_GROUNDED]
# Random games per sheet under MIAI_FULL=1: 200, except where the prover is slowest.
GAMES_FULL = {"othello-comp2007.kif": 20, "othelloSuicide.kif": 20, "knightwar.kif": 50,
              "pacman3p.kif": 50, "battle.kif": 50, "pentago.kif": 50, "minichess.kif": 50,
              "sheep_and_wolf.kif": 50, "breakthrough.kif": 50, "knightthrough.kif": 50}
CI_PLIES = 30  # CI compares the first CI_PLIES plies of each game


@cache
def propnet(name: str) -> GdlGame:
    bounds = Bounds(cpu_time=True) if name in NEAR_BOUND else DEFAULT_BOUNDS
    return load((PACKAGED / name).read_text(), name=name[:24], bounds=bounds)


@cache
def prover(name: str) -> ProverGame:
    return ProverGame((PACKAGED / name).read_text(), name=name)


@pytest.mark.parametrize("name", QUICK)
def test_propnet_agrees_with_prover_quick(name: str) -> None:
    rng = random.Random(name)
    for _ in range(200 if FULL else 1):
        compare_random_game(propnet(name), prover(name), rng, 100_000 if FULL else CI_PLIES)


SLOW = [n for n in GROUNDED if n not in QUICK]


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_propnet_agrees_with_prover_slow(name: str) -> None:
    if not FULL:
        pytest.skip("grounding takes seconds: run with MIAI_FULL=1")
    rng = random.Random(name)
    for _ in range(GAMES_FULL.get(name, 200)):
        compare_random_game(propnet(name), prover(name), rng, 100_000)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(NOT_GROUNDED))
def test_sheets_listed_as_not_grounded_are_over_the_bound(name: str) -> None:
    if not FULL:
        pytest.skip("each takes up to the 30 s bound: run with MIAI_FULL=1")
    with pytest.raises(LimitError):
        load((PACKAGED / name).read_text(), bounds=Bounds(cpu_time=True))


def check_playouts_along_a_game(game: GdlGame, rng: random.Random, n: int,
                                engine: str = "diff") -> None:
    """A playout engine (the differential one unless told) against the plain evaluation
    (every ply, state bytes) and the generic playout loop (same seed: same moves, same
    final state), from the initial state and from states along one random game."""
    state = game.initial_state()
    for k in range(n):
        plies = game.check_playout(state, rng.randrange(2**64), engine)
        assert plies is not None and plies >= 0
        if state.is_terminal():
            break
        if k % 2:  # move on: the playouts start from later states too
            joint = [rng.choice(game.rule_moves(state, r)) for r in range(game.n_roles)]
            if state.to_move >= 0:
                state.play(joint[state.to_move])
            else:
                state.play_joint(joint)


# The differential engine's two ways of a ply: the joint move kept on while the bases
# propagate, or cleared first (each game takes the cheaper, pn_diff_calibrate).
DIFF_WAYS = ["diff", "diff-clear"]


@pytest.mark.parametrize("engine", DIFF_WAYS)
@pytest.mark.parametrize("name", QUICK)
def test_differential_playouts_agree_with_plain_evaluation(name: str, engine: str) -> None:
    check_playouts_along_a_game(propnet(name), random.Random(name), 100 if FULL else 12,
                                engine)


# Nets whose goals take the goal wave (pn_diff.c: lazy gates stepped from the
# snapshot once a playout ends), NOT gates among them: queens' counting chain and
# tictactoe_3player's lines, and the decomposition's test sheet.
GOAL_WAVE_SHEETS = ["tictactoe_3player.kif", "queens.kif", "attributes"]


@pytest.mark.parametrize("engine", DIFF_WAYS)
@pytest.mark.parametrize("name", GOAL_WAVE_SHEETS)
def test_goal_wave_agrees_with_plain_evaluation(name: str, engine: str) -> None:
    game = (load((OWN / "attributes.kif").read_text(), name="attributes")
            if name == "attributes" else propnet(name))
    check_playouts_along_a_game(game, random.Random(name), 100 if FULL else 20, engine)


# The sheets of at most 128 nodes, no cycle: one or two words of node values
# (pn_bits.c); Tic-tac-toe has the tables but its playouts take the differential engine.
WORD_SHEETS = ["onestep.kif", "switches.kif", "buttons.kif", "maze.kif", "blocks.kif",
               "nim1.kif", "tictactoe.kif"]


@pytest.mark.parametrize("name", WORD_SHEETS)
def test_word_parallel_playouts_agree_with_plain_evaluation(name: str) -> None:
    """On the smallest nets playouts and play() evaluate the net a word at a time;
    the playouts against the plain play and the generic loop, as above."""
    game, rng = propnet(name), random.Random(name)
    assert game.info.stats["nodes"] <= 128
    check_playouts_along_a_game(game, rng, 100 if FULL else 12, "bits")


def test_each_game_takes_the_cheaper_way_of_a_differential_ply() -> None:
    """pn_diff_calibrate counts the node changes and links of 16 playouts each way:
    Breakthrough keeps the joint move on (clearing it makes 8x the node changes),
    lightsout and Connect Four clear it (15% fewer); the nets of at most 64 nodes use
    the word-parallel evaluation, and those of 65-128 nodes when a ply evaluates at
    most 1.5x as many gates as the differential engine's count: maze (53 gates against
    45 per ply), blocks (36 against 55) and nim1 (37 against 38) do, Tic-tac-toe (70
    against 24) does not."""
    assert propnet("breakthrough.kif").playout_engine == "diff"
    assert propnet("lightsout.kif").playout_engine == "diff-clear"
    assert propnet("connectFour.kif").playout_engine == "diff-clear"
    assert propnet("buttons.kif").playout_engine == "bits"
    assert propnet("maze.kif").playout_engine == "bits"
    assert propnet("blocks.kif").playout_engine == "bits"
    assert propnet("nim1.kif").playout_engine == "bits"
    assert propnet("tictactoe.kif").playout_engine == "diff"


def test_word_parallel_evaluation_only_on_small_acyclic_nets() -> None:
    game = propnet("sum15.kif")  # 139 nodes
    assert game.check_playout(game.initial_state(), 1, "bits") is None
    assert game.check_playout(game.initial_state(), 1, "diff") is not None
    with pytest.raises(InvalidArgumentError):
        game.check_playout(game.initial_state(), 1, "fast")


# Alternating, simultaneous, one-player and many-role sheets.
COUNTER_SHEETS = ["tictactoe.kif", "roshambo2.kif", "buttons.kif", "3pConnectFour.kif",
                  "knightsTour.kif", "gt_prisoner.kif"]


@pytest.mark.parametrize("engine", DIFF_WAYS)
@pytest.mark.parametrize("name", COUNTER_SHEETS)
def test_playout_counters_match_a_full_evaluation_at_every_step(name: str, engine: str) -> None:
    """The differential engine keeps, per gate, its true inputs minus its threshold,
    and starts a playout from a snapshot of the initial state's evaluation plus a wave
    for the bases that differ.  check_playout
    compares every node value and counter, the next-state and legal bits and the
    legal-move counts with a plain evaluation of the whole net at the start and
    after every ply; here it runs from every state of a few random games."""
    game, rng = propnet(name), random.Random(name)
    for _ in range(2):
        state = game.initial_state()
        for _ply in range(60):
            assert game.check_playout(state, rng.randrange(2**64), engine) is not None
            if state.is_terminal():
                break
            joint = [rng.choice(game.rule_moves(state, r)) for r in range(game.n_roles)]
            if state.to_move >= 0:
                state.play(joint[state.to_move])
            else:
                state.play_joint(joint)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_differential_playouts_agree_with_plain_evaluation_slow(name: str) -> None:
    if not FULL:
        pytest.skip("grounding takes seconds: run with MIAI_FULL=1")
    for engine in DIFF_WAYS:
        check_playouts_along_a_game(propnet(name), random.Random(name), 20, engine)


def test_breakthrough_grounds_and_agrees_on_one_game() -> None:
    """One heavy sheet in CI too (the propnet target game of the issue)."""
    name = "breakthrough.kif"
    compare_random_game(propnet(name), prover(name), random.Random(3), 30)
    check_playouts_along_a_game(propnet(name), random.Random(4), 6)


def test_sheets_over_the_bound_fall_back_to_the_prover(caplog: pytest.LogCaptureFixture) -> None:
    chess = (PACKAGED / "chess.kif").read_text()
    with pytest.raises(GroundingLimitError):
        load(chess, bounds=Bounds(time_limit=1.0, max_atoms=20_000))
    text = (OWN / "connect4.kif").read_text()
    tight = Bounds(max_atoms=50)
    game = load_for_play(text, "connect4", bounds=tight)
    assert isinstance(game, ProverGame) and "50 possible atoms" in (game.fallback_reason or "")
    assert "falling back" in caplog.text
    assert len(game.initial_state().legal_moves()) == 7
    assert isinstance(load_for_play(text), GdlGame)


# One atom of a dynamic relation (legal r m) with two ground rules whose bodies are all
# static ((a 1), (a 2)): _factor once failed on it with max() of an empty sequence
# (issue 25).
STATIC_BODIES = """(role r)(init (step 1))(a 1)(a 2)(<= (legal r m) (a ?x))
(<= (legal r n) (true (step 1)))(<= (next (step 2)) (true (step 1)))
(<= terminal (true (step 2)))(<= (goal r 100) (true (step 2)))(<= (goal r 0) (true (step 1)))"""


def test_an_atom_whose_rules_have_only_static_bodies_grounds_and_agrees() -> None:
    game = load(STATIC_BODIES, "static-bodies")
    oracle = ProverGame(STATIC_BODIES)
    s = game.initial_state()
    assert sorted(game.moves[0][m] for m in game.rule_moves(s, 0)) == ["m", "n"]
    for seed in range(4):  # both moves played: every state and goal compared
        compare_random_game(game, oracle, random.Random(seed), 5)
    assert isinstance(load_for_play(STATIC_BODIES), GdlGame)


@pytest.mark.parametrize("stage", ["ground", "build", "compile_propnet"])
def test_any_failure_of_grounding_or_building_falls_back_to_the_prover(
        stage: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("planted bug")

    monkeypatch.setattr(f"engine.gdl.game.{stage}", broken)
    text = (OWN / "tictactoe.kif").read_text()
    game = load_for_play(text, "ttt")
    assert isinstance(game, ProverGame)
    assert game.fallback_reason == "building the propnet failed (RuntimeError: planted bug)"
    assert "planted bug" in caplog.text and "falling back" in caplog.text
    assert len(game.initial_state().legal_moves()) == 9
    with pytest.raises(GdlError):  # rules that break GDL still raise, on either reasoner
        load_for_play("(role r)(<= (legal r m) (true ?x) (not (true ?y)))")


def _cell_of(text: str) -> int:
    term = parse_term(text)
    return (int(term[1]) - 1) * 3 + int(term[2]) - 1


def test_own_tictactoe_matches_the_c_game() -> None:
    game = load((OWN / "tictactoe.kif").read_text(), name="gdl-tictactoe")
    c_game = games.create("tictactoe")
    rng = random.Random(9)
    for _ in range(300 if FULL else 40):
        g, c = game.initial_state(), c_game.initial_state()
        while not c.is_terminal():
            assert g.to_move == c.to_move
            moves = {_cell_of(game.move_to_text(m, g.to_move)): m for m in g.legal_moves()}
            assert sorted(moves) == sorted(c.legal_moves())
            cell = rng.choice(sorted(moves))
            g.play(moves[cell])
            c.play(cell)
        assert g.is_terminal() and g.rewards() == c.rewards()


def test_own_connect4_matches_the_c_game_or_openspiel() -> None:
    game = load((OWN / "connect4.kif").read_text(), name="gdl-connect4")
    if "connect4" in games.available():
        ref = games.create("connect4")
        new, legal, play = ref.initial_state, lambda s: s.legal_moves(), lambda s, a: s.play(a)
        col_of = lambda s, m: m  # noqa: E731 - connect4.c move ids are the columns
    else:
        pyspiel = pytest.importorskip("pyspiel")
        spiel = pyspiel.load_game("connect_four")
        new, legal = spiel.new_initial_state, lambda s: s.legal_actions()
        play = lambda s, a: s.apply_action(a)  # noqa: E731
        col_of = None
    rng = random.Random(4)
    for _ in range(200 if FULL else 20):
        g, r = game.initial_state(), new()
        while not g.is_terminal():
            ours = {int(parse_term(game.move_to_text(m, g.to_move))[1]) - 1: m
                    for m in g.legal_moves()}
            theirs = legal(r)
            cols = sorted(col_of(r, m) for m in theirs) if col_of else sorted(theirs)
            assert sorted(ours) == cols
            col = rng.choice(sorted(ours))
            g.play(ours[col])
            play(r, [m for m in theirs if (col_of(r, m) if col_of else m) == col][0])
        assert r.is_terminal()
        rewards = r.rewards() if col_of else tuple((x + 1) / 2 for x in r.returns())
        assert g.rewards() == rewards


def test_gdl_game_keeps_the_game_contract() -> None:
    game = load((OWN / "connect4.kif").read_text(), name="gdl-connect4")
    state = game.initial_state()
    for role in range(game.n_roles):
        for m, text in enumerate(game.moves[role]):
            assert game.move_to_text(m, role) == text
            assert game.move_from_text(text.upper().replace(" ", "   "), role) == m
    with pytest.raises(InvalidArgumentError):
        game.move_from_text("(drop 9)", 0)
    twin = state.copy()
    state.play("(drop 4)")
    assert twin.ply == 0 and state.ply == 1 and twin.to_bytes() != state.to_bytes()
    assert game.true_facts(state).count("(cell 4 1 red)") == 1
    a = playout_run(game.initial_state(), 300, seed=5)
    assert a == playout_run(game.initial_state(), 300, seed=5)
    assert 0 < a.plies <= 300 * 42
    assert abs(sum(a.mean_rewards) - 1.0) < 1e-9  # zero-sum: 100/0 or 50/50
    again = load((OWN / "connect4.kif").read_text(), name="other")
    s2 = again.initial_state().play("(drop 4)")
    assert s2.keys() == state.keys()  # keys from a hash of the rules: stable


def _tiny() -> FlatPropnet:
    """One role, one base p (initially false), move "go" makes p true; terminal = p."""
    return FlatPropnet(
        kind=[0, 1, 2, 3], arg=[0, 0, 0, 0], first_in=[0, 0, 0, 0, 0], inputs=[],
        ranges=[], bases=["p"], next_node=[3], init=[0], roles=["r"], moves=[["go"]],
        legal_node=[1], sets=[], terminal=2, goals=[(0, 100, 2)], seed=1)


def test_hand_built_propnet_and_malformed_descriptions_refused() -> None:
    ptr = compile_propnet(_tiny(), "tiny", 10)
    game = GdlGame(ptr, "tiny", _tiny(), None)  # type: ignore[arg-type]
    state = game.initial_state()
    assert not state.is_terminal()
    state.play("go")
    assert state.is_terminal() and state.rewards() == (1.0,)
    bad_cases = [
        dict(kind=[0, 1, 2, 9]),                                   # unknown kind
        dict(kind=[1, 0, 2, 3]),                                   # constants misplaced
        dict(arg=[0, 0, 5, 0]),                                    # base index out of range
        dict(arg=[0, 0, 0, 7]),                                    # move index out of range
        dict(next_node=[99]),                                      # output out of range
        dict(terminal=4),
        dict(goals=[(3, 100, 2)]),                                 # no role 3
        dict(goals=[(0, 101, 2)]),                                 # goal over 100
        dict(kind=[0, 1, 2, 4], first_in=[0, 0, 0, 0, 1], inputs=[3]),  # self input
        dict(kind=[0, 1, 2, 6], first_in=[0, 0, 0, 0, 2], inputs=[0, 2]),  # NOT of two
        dict(first_in=[0, 0, 1, 0, 0], inputs=[0]),                # offsets decrease
        dict(ranges=[(2, 9)]),                                     # range past the end
        dict(kind=[0, 1, 4, 6], first_in=[0, 0, 0, 1, 2], inputs=[3, 2],
             ranges=[(2, 4)], arg=[0, 0, 0, 0]),                   # NOT inside a cycle
        dict(init=[2]),
    ]
    for change in bad_cases:
        net = _tiny()
        for k, v in change.items():
            setattr(net, k, v)
        with pytest.raises(InvalidArgumentError):
            compile_propnet(net, "bad", 10)
    with pytest.raises(LimitError):
        net = _tiny()
        net.roles = ["r"] * 9
        compile_propnet(net, "bad", 10)


def test_c_search_plays_a_gdl_game() -> None:
    """The C MCTS runs on the propnet game like on any C game: it finds the win."""
    game = load((OWN / "connect4.kif").read_text(), name="gdl-connect4")
    state = game.initial_state()
    for m in ["(drop 1)", "(drop 2)", "(drop 1)", "(drop 2)", "(drop 1)", "(drop 3)"]:
        state.play(m)
    result = Search(state, iterations=3000, seed=1).run()
    assert result.best_text == "(drop 1)"  # red completes column 1


def test_cli_gdl_reports_the_propnet(capsys: pytest.CaptureFixture[str]) -> None:
    from protocols.cli.main import main

    level = logging.getLogger().level
    assert main(["gdl", str(OWN / "tictactoe.kif"), "-n", "50"]) == 0
    assert logging.getLogger().level == level  # the command leaves logging as it was
    out = capsys.readouterr().out
    assert "checks passed" in out and "propnet" in out and "50 playouts" in out
    assert "playouts by the 'diff" in out and "decomposed" not in out
    assert main(["gdl", str(OWN / "attributes.kif"), "-n", "0"]) == 0
    assert "(1 rule decomposed)" in capsys.readouterr().out


def _flat(name: str) -> FlatPropnet:
    return build(ground(load_program((PACKAGED / name).read_text())))


def test_alternating_games_get_turn_guards_and_two_role_move_sets() -> None:
    """Whose turn it is comes out of every legal AND into the role's guard (the
    control base), so a turn change moves one node; the frame axiom's
    ``(does ?player (move ...))`` is one move set holding both roles' moves.  (That
    the moves are still the rules' is checked against the prover above.)"""
    net = _flat("tictactoe.kif")
    texts = [to_text(net.bases[net.arg[g]]) if net.kind[g] == BASE else None
             for g in net.legal_guard]
    assert texts == ["(control xplayer)", "(control oplayer)"]
    moves = [to_text(m) for ms in net.moves for m in ms]
    assert [m for m, f in zip(moves, net.legal_guarded, strict=True) if not f] == \
        ["noop", "noop"]  # each role's noop is legal on the other's turn: no guard
    kt = _flat("knightthrough.kif")
    role = [r for r, ms in enumerate(kt.moves) for _ in ms]
    assert any(len({role[m] for m in s}) == 2 for s in kt.sets)
    assert kt.legal_guard[0] != 1 and kt.legal_guard[1] != 1

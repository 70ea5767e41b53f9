"""The lanes (csrc/gdl/pn_lanes.c): batches of random playouts run 64 games at a time,
one per bit of a word.  Every game the lanes play is replayed by the plain play (the
reference evaluation): each ply's legal-move counts, each move, the end (terminal, a
role stuck, or the ply cap) and the rewards must agree.  CI replays a dozen sheets,
MIAI_FULL=1 every sheet that grounds quickly enough."""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest

from engine import games
from engine.errors import InvalidArgumentError
from engine.games import State
from engine.gdl.game import GdlGame, LanePlayout
from engine.gdl.sheets import PACKAGED
from engine.playouts import playout_run
from tests.helpers.gdl import NOT_GROUNDED, sheet

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "gdl"
FULL = os.environ.get("MIAI_FULL") == "1"

# Simultaneous and alternating games, 1 to 4 roles, move sets, turn guards, the goal
# wave's sheets, the word-parallel nets, and reach.kif's cycle (a range).
CI_SHEETS = ["roshambo2.kif", "gt_prisoner.kif", "bidding-tictactoe.kif", "4pttc.kif",
             "chomp.kif", "blocks.kif", "nim1.kif", "hanoi.kif", "lightsout.kif",
             "3pConnectFour.kif", "own:tictactoe.kif", "own:connect4.kif",
             "own:attributes.kif", "own:reach.kif", "battle.kif"]
# Nets whose plain play is too slow to replay hundreds of games in a test.
SLOW_REPLAY = {"kalaha_2009.kif", "othello-comp2007.kif", "othelloSuicide.kif"}
FULL_SHEETS = sorted(p.name for p in PACKAGED.glob("*.kif")
                     if p.name not in NOT_GROUNDED | SLOW_REPLAY)


def replay(game: GdlGame, start: State, run: LanePlayout) -> None:
    """One lane's game by the plain play: the same legal-move counts and legal moves at
    every ply, then the same end and rewards."""
    state = start.copy()
    assert len(run.moves) == run.plies
    for ply, (joint, counts) in enumerate(zip(run.moves, run.counts, strict=True)):
        assert not state.is_terminal(), f"ply {ply}: the lane went on past the end"
        for role, (move, count) in enumerate(zip(joint, counts, strict=True)):
            legal = game.rule_moves(state, role)
            assert count == len(legal), f"ply {ply}, role {role}: {count} legal, not {legal}"
            assert move in legal
        if state.to_move == games.SIMULTANEOUS:
            state.play_joint(list(joint))
        else:
            state.play(joint[state.to_move])
    if state.is_terminal():
        assert run.rewards == state.rewards()
    else:  # the ply cap: a draw
        assert state.ply == game.max_plies
        assert run.rewards == (0.5,) * game.n_roles


def replay_from(game: GdlGame, state: State, n: int, seed: int) -> list[LanePlayout]:
    runs = game.lane_playouts(state, n, seed, cap=min(game.max_plies, 4096))
    assert len(runs) == n
    for run in runs:
        replay(game, state, run)
    return runs


def later_state(game: GdlGame, plies: int, rng: random.Random) -> State:
    """A state a few random plies into a game (the initial one if it ends sooner)."""
    state = game.initial_state()
    for _ in range(plies):
        joint = [rng.choice(game.rule_moves(state, r)) for r in range(game.n_roles)]
        after = state.copy()
        if after.to_move == games.SIMULTANEOUS:
            after.play_joint(joint)
        else:
            after.play(joint[after.to_move])
        if after.is_terminal():
            break
        state = after
    return state


@pytest.mark.parametrize("name", FULL_SHEETS if FULL else CI_SHEETS)
def test_every_lane_game_replays_by_the_plain_play(name: str) -> None:
    """150 playouts (64 lanes, then each lane's next games as the first end) from the
    initial state and from a state a few plies in."""
    game = sheet(name)
    rng = random.Random(name)
    replay_from(game, game.initial_state(), 200 if FULL else 150, rng.randrange(2**64))
    replay_from(game, later_state(game, 3, rng), 100 if FULL else 70, rng.randrange(2**64))


def test_battle_and_kalaha_take_guarded_blocks() -> None:
    """The lanes' guarded blocks (csrc/gdl/pn_internal.h) pay on battle's net, whose
    games CI_SHEETS replays with them; not on Connect Four's, whose programs stay as
    they were."""
    blocks, gates, work = sheet("battle.kif").lanes_blocks
    assert blocks > 0 and gates >= 4 * blocks and work > 0
    assert sheet("own:connect4.kif").lanes_blocks[:2] == (0, 0)


@pytest.mark.skipif(not FULL, reason="grounding kalaha_2009 takes 30 s: run with MIAI_FULL=1")
def test_kalaha_lane_games_replay_by_the_plain_play() -> None:
    """kalaha_2009 runs its batches in the lanes since its guarded blocks (about 3,000
    blocks over 92,000 of its 93,000 ANDs); fewer games than the others, from the
    initial state and a few plies in."""
    game = sheet("kalaha_2009.kif")
    blocks, gates, _ = game.lanes_blocks
    assert blocks > 1000 and gates > 50_000
    assert 0 < game.lanes_min_batch <= 64
    rng = random.Random("kalaha")
    replay_from(game, game.initial_state(), 100, rng.randrange(2**64))
    replay_from(game, later_state(game, 5, rng), 50, rng.randrange(2**64))


def test_lanes_stop_at_the_ply_cap_with_a_draw() -> None:
    """Tic-tac-toe capped at 6 plies: the games won at ply 5 or 6 keep their rewards,
    the others end at the cap as draws (as miai_playouts and the one-by-one loop)."""
    game = sheet("own:tictactoe.kif", max_plies=6)
    runs = replay_from(game, game.initial_state(), 300, 5)
    capped = [r for r in runs if r.plies == 6 and r.rewards == (0.5, 0.5)]
    won = [r for r in runs if r.rewards in ((1.0, 0.0), (0.0, 1.0))]
    assert capped and won
    assert all(r.plies <= 6 for r in runs)


def test_lanes_from_a_terminal_state_play_nothing() -> None:
    game = sheet("own:tictactoe.kif")
    state = game.initial_state()
    for move in ("1 1", "1 2", "2 2", "1 3", "3 3"):  # x takes the diagonal
        state.play(game.move_from_text(f"(place {move})", state.to_move))
    assert state.is_terminal()
    runs = game.lane_playouts(state, 20, 1, cap=5)
    assert all(r.plies == 0 and r.rewards == state.rewards() for r in runs)
    run = playout_run(state, 100, seed=3)
    assert run.plies == 0 and run.mean_rewards == state.rewards()


@pytest.mark.parametrize("name", ["roshambo2.kif", "own:tictactoe.kif", "own:reach.kif"])
def test_a_batch_is_the_lanes_games(name: str) -> None:
    """miai_playouts on a net that uses the lanes plays exactly the games the traced
    lanes play with the same seed: the same mean rewards and plies."""
    game = sheet(name)
    assert 0 < game.lanes_min_batch <= 500
    state = game.initial_state()
    runs = game.lane_playouts(state, 500, 77, cap=0)
    batch = playout_run(state, 500, seed=77)
    assert batch.plies == sum(r.plies for r in runs)
    for role in range(game.n_roles):
        assert batch.mean_rewards[role] == pytest.approx(
            sum(r.rewards[role] for r in runs) / 500, abs=1e-12)


def test_small_batches_are_played_one_by_one() -> None:
    """A batch under the net's least batch for the lanes (most lanes would idle) is
    the one-by-one loop: the same results as batch=False with the same seed; from
    that batch on it is the lanes', and two ways, two random streams."""
    game = sheet("gt_prisoner.kif")
    state, least = game.initial_state(), game.lanes_min_batch
    assert 2 <= least <= 64
    for n in (1, least - 1):
        assert playout_run(state, n, seed=4) == playout_run(state, n, seed=4, batch=False)
    runs = game.lane_playouts(state, least, 4, cap=0)
    assert playout_run(state, least, seed=4).plies == sum(r.plies for r in runs)


def test_first_moves_are_uniform() -> None:
    """Each lane draws its moves uniformly: Tic-tac-toe's 9 opening moves over 4,096
    games, each within 6 standard deviations of 4096 / 9."""
    game = sheet("own:tictactoe.kif")
    runs = game.lane_playouts(game.initial_state(), 4096, 11, cap=1)
    tally = [0] * 9
    for run in runs:
        tally[run.moves[0][0]] += 1
    mean = 4096 / 9
    sd = math.sqrt(4096 * (1 / 9) * (8 / 9))
    assert all(abs(t - mean) < 6 * sd for t in tally), tally


@pytest.mark.parametrize("name", ["gt_prisoner.kif", "own:connect4.kif"])
def test_batch_means_agree_with_one_by_one_playouts(name: str) -> None:
    """Two ways, two random streams, one distribution: the mean rewards of 6,000
    playouts each within 6 standard errors (rewards lie in [0, 1], sd <= 0.5)."""
    state = sheet(name).initial_state()
    lanes = playout_run(state, 6000, seed=1)
    each = playout_run(state, 6000, seed=2, batch=False)
    bound = 6 * 0.5 * math.sqrt(2 / 6000)
    for a, b in zip(lanes.mean_rewards, each.mean_rewards, strict=True):
        assert abs(a - b) < bound
    assert abs(lanes.plies - each.plies) / each.plies < 0.05


def test_lane_playouts_refuse_bad_arguments() -> None:
    game = sheet("roshambo2.kif")
    state = game.initial_state()
    for bad in (dict(n=-1), dict(n=5000), dict(cap=5000), dict(seed=-1), dict(n=1.5)):
        args = dict(n=4, seed=1, cap=2) | bad
        with pytest.raises(InvalidArgumentError):
            game.lane_playouts(state, **args)  # type: ignore[arg-type]
    assert game.lane_playouts(state, 0, 1, cap=0) == []

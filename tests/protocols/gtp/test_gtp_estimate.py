"""The result of an unfinished game (a resignation point, issue 28: GNU Go B+74
where miai named W+1) names the winner GNU Go 3.8 names, wherever GNU Go's own two
estimates (``estimate_score`` and ``final_score``) agree on a clear winner; and it
never names a winner that its own search gives under half the games."""

from __future__ import annotations

import os

import pytest

from bots.gtp_bot import resolve_command
from protocols.gtp import scoring
from protocols.gtp.session import GoSession
from tests.helpers.gtp_pipe import RawGtp

GNUGO = resolve_command("gnugo")[0]
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go not installed")


def signed(score: str) -> float:
    """``B+6.0`` -> 6.0, ``W+2`` -> -2.0, ``0`` -> 0.0 (the first word only)."""
    word = score.split()[0]
    if word[0] not in "BW":
        return 0.0
    return float(word[2:]) * (1 if word[0] == "B" else -1)


def gnugo_midgame(size: int, plies: int, seed: int) -> tuple[GoSession, float, float]:
    """GNU Go (level 1) against itself for ``plies``: the session and GNU Go's two
    scores of the position."""
    gnugo = RawGtp([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "1",
                    "--seed", str(seed + 1)])
    try:
        gnugo.ok(f"boardsize {size}")
        gnugo.ok("komi 7")
        session = GoSession(size=size, komi=7.0)
        for i in range(plies):
            move = gnugo.ok(f"genmove {'bw'[i % 2]}").lower()
            assert move != "resign"
            session.play(i % 2, session.pass_move if move == "pass" else
                         session.parse_vertex(move))
        return session, signed(gnugo.ok("estimate_score")), signed(gnugo.ok("final_score"))
    finally:
        gnugo.close()


@needs_gnugo
def test_an_unfinished_game_is_won_by_whom_gnu_go_says() -> None:
    checked = 0
    for size, plies, seeds in ((9, 34, range(10)), (13, 70, range(2))):
        for seed in seeds:
            session, estimate, final = gnugo_midgame(size, plies, seed)
            if session.state.is_terminal():
                continue  # ended by two passes: not an unfinished game
            ours = scoring.search_estimate(session.state)
            assert (ours.margin > 0) == (ours.black_win_rate > 0.5)  # consistent
            if min(abs(estimate), abs(final)) < 5 or (estimate > 0) != (final > 0):
                continue  # GNU Go itself is not sure
            checked += 1
            margin = scoring.final_margin(session)
            assert margin == ours.margin
            assert scoring.status_list(session, "dead") == set(ours.dead)  # the same estimate
            assert (margin > 0) == (final > 0), (size, seed, margin, estimate, final)
    assert checked >= 6

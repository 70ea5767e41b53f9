"""Long games over GTP (issue 28: no ply cap on ``play``): a legal game that GNU Go
3.8 accepts to the end is accepted to the end, far past the C game's 3 size^2 plies,
with the same stones on the board as GNU Go's at every checkpoint, and genmove still
answers a move GNU Go accepts."""

from __future__ import annotations

import os
import random

import pytest

from bots.gtp_bot import resolve_command
from engine import go
from protocols.gtp.engine import GtpEngine, GtpOptions
from tests.helpers.gtp_pipe import RawGtp

GNUGO = resolve_command("gnugo")[0]
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go not installed")


def ok(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer.startswith("="), f"{line!r} -> {answer!r}"
    return answer[1:].strip()


def gnugo_stones(gnugo: RawGtp, colour: str) -> set[str]:
    return set(gnugo.ok(f"list_stones {colour}").upper().split())


def our_stones(engine: GtpEngine, colour: int) -> set[str]:
    session = engine.session
    return {session.vertex(p) for p, c in enumerate(go.colors(session.state)) if c == colour}


@needs_gnugo
@pytest.mark.parametrize(("size", "plies"), [(5, 330), (9, 560)])
def test_a_game_gnu_go_accepts_is_accepted_past_the_ply_cap(size: int, plies: int) -> None:
    rng = random.Random(size)
    engine = GtpEngine(GtpOptions(bot_spec="uct:iterations=200", gfx=False))
    gnugo = RawGtp([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "1"])
    try:
        for line in (f"boardsize {size}", "clear_board", "komi 7"):
            ok(engine, line)
            gnugo.ok(line)
        cap = engine.session.game.max_plies
        assert plies > cap + size * size  # well past the C game's cap
        for ply in range(plies):
            state = engine.session.state
            colour = "bw"[state.to_move]
            legal = [m for m in state.legal_moves() if m != engine.session.pass_move]
            # Mostly random points (captures keep the game going), a lone pass now and then.
            pass_now = not legal or (rng.random() < 0.03 and engine.session.moves
                                     and engine.session.moves[-1][1] != engine.session.pass_move)
            vertex = "pass" if pass_now else engine.session.vertex(rng.choice(legal))
            gnugo.ok(f"play {colour} {vertex}")  # GNU Go accepts it ...
            ok(engine, f"play {colour} {vertex}")  # ... and so do we
            if ply % 25 == 0 or ply == plies - 1:
                assert our_stones(engine, go.BLACK) == gnugo_stones(gnugo, "black"), ply
                assert our_stones(engine, go.WHITE) == gnugo_stones(gnugo, "white"), ply
        assert len(engine.session.moves) == plies
        assert not engine.session.state.is_terminal()
        assert engine.session.state.ply < cap  # the search has room ahead
        colour = "bw"[engine.session.state.to_move]
        move = ok(engine, f"genmove {colour}")
        gnugo.ok(f"play {colour} {move}")
        ok(engine, "undo")
        assert len(engine.session.moves) == plies
    finally:
        engine.close()
        gnugo.close()

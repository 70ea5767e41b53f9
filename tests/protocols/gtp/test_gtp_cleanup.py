"""Clean-up after two passes (issue 28): with the record ending in two passes and
dead opponent stones on the board (dead by GNU Go 3.8's own analysis), ``genmove``
and ``kgs-genmove_cleanup`` play on until they are captured instead of passing; with
none, genmove passes at once."""

from __future__ import annotations

import os

import pytest

from bots.gtp_bot import resolve_command
from protocols.gtp.engine import GtpEngine, GtpOptions
from tests.helpers.gtp_pipe import RawGtp

GNUGO = resolve_command("gnugo")[0]
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go not installed")
BOT = "gobot:alg=rave,playout=7,knowledge=1,iterations=400"  # the board's default priors
WALLS = [f"play {colour} {col}{row}" for col in "ABCDEFGHJ"
         for colour, row in (("b", 6), ("w", 4))]  # black owns the top, white the bottom


def ok(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer.startswith("="), f"{line!r} -> {answer!r}"
    return answer[1:].strip()


def both(engine: GtpEngine, gnugo: RawGtp, lines: list[str]) -> None:
    for line in lines:
        ok(engine, line)
        gnugo.ok(line)


@pytest.fixture
def pair():
    engine = GtpEngine(GtpOptions(bot_spec=BOT, gfx=False))
    gnugo = RawGtp([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "1"])
    both(engine, gnugo, ["boardsize 9", "clear_board", "komi 7"])
    yield engine, gnugo
    engine.close()
    gnugo.close()


@needs_gnugo
@pytest.mark.parametrize("command", ["genmove", "kgs-genmove_cleanup"])
def test_after_two_passes_dead_stones_are_captured_not_passed_over(pair, command: str) -> None:
    engine, gnugo = pair
    both(engine, gnugo, [*WALLS, "play w C8", "play w G8", "play b pass", "play w pass"])
    dead = set(gnugo.ok("final_status_list dead").split())
    assert dead == {"C8", "G8"}  # GNU Go's verdict: the lone white stones are dead
    for _ in range(16):
        white = set(gnugo.ok("list_stones white").split())
        if not dead & white:
            break
        move = ok(engine, f"{command} b")
        assert move.lower() != "pass", "passed with dead white stones on the board"
        gnugo.ok(f"play b {move}")  # GNU Go accepts the move
        both(engine, gnugo, ["play w pass"])
    assert not dead & set(gnugo.ok("list_stones white").split())
    # Both passes stay in the record, before the clean-up moves.
    passes = [i for i, (_, m) in enumerate(engine.session.moves) if m == engine.session.pass_move]
    assert passes[:2] == [len(WALLS) + 2, len(WALLS) + 3]


@needs_gnugo
def test_after_two_passes_without_dead_stones_genmove_passes(pair) -> None:
    engine, gnugo = pair
    both(engine, gnugo, [*WALLS, "play b pass", "play w pass"])
    assert gnugo.ok("final_status_list dead") == ""
    assert ok(engine, "genmove b").lower() == "pass"
    assert ok(engine, "genmove w").lower() == "pass"


@needs_gnugo
def test_once_cleaned_up_a_won_game_is_passed_out(pair) -> None:
    engine, gnugo = pair
    both(engine, gnugo, [*WALLS, "play w C8", "play b pass", "play w pass"])
    for _ in range(20):
        move = ok(engine, "genmove b")
        if move.lower() == "pass":
            break
        gnugo.ok(f"play b {move}")
        both(engine, gnugo, ["play w pass"])
    assert move.lower() == "pass"  # it does not fill its own area for ever
    assert "C8" not in set(gnugo.ok("list_stones white").split())

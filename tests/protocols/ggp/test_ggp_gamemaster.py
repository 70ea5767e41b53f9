"""The game master against a misbehaving player: a stub aiohttp player (below) answers
an illegal move, garbage, a move after the play clock plus grace, and nothing at all,
then legal moves.  Each bad answer must be replaced by a legal move (judged by the
reference prover), marked replaced, and recorded with the right error; good answers
must be kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web

from engine.gdl.prover_game import ProverGame, ProverState
from protocols.ggp import kif
from protocols.ggp.gamemaster import LATE_WAIT, MatchRecord
from protocols.ggp.local import run_series
from tests.helpers.ggp import rules

PLAY_CLOCK, GRACE = 1, 0.2
LIMIT = PLAY_CLOCK + GRACE
# what the stub does at each ply, then it answers its first legal move
FAULTS = ["illegal", "garbage", "late", "silent"]
ILLEGAL = "(play 4 4 x)"  # no such cell on the 3x3 board
GARBAGE = "((( not a move"


class StubPlayer:
    """A GGP player that follows the match on the reference prover and misbehaves as
    told by ``FAULTS``, one fault per play request."""

    def __init__(self, text: str) -> None:
        self.game = ProverGame(text)
        self.state: ProverState = self.game.initial_state()
        self.role = 0
        self.answers: list[str] = []  # what it answered (or would have), per ply

    async def handle(self, request: web.Request) -> web.Response:
        message = kif.parse_message(await request.text())
        if isinstance(message, kif.Start):
            self.role = self.game.roles.index(message.role)
            return web.Response(text="ready")
        if isinstance(message, kif.Play):
            if message.moves is not None:
                self.state.play_joint(list(message.moves))
            ply = len(self.answers)
            fault = FAULTS[ply] if ply < len(FAULTS) else "legal"
            move = sorted(self.state.rule_moves(self.role))[0]
            text = {"illegal": ILLEGAL, "garbage": GARBAGE}.get(fault, move)
            self.answers.append(text)
            if fault == "late":  # inside the game master's wait, past its limit
                await asyncio.sleep(LIMIT + LATE_WAIT / 2)
            elif fault == "silent":  # past the game master's wait too
                await asyncio.sleep(LIMIT + LATE_WAIT + 0.5)
            return web.Response(text=text)
        return web.Response(text="done")


@asynccontextmanager
async def stub_served(stub: StubPlayer) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/", stub.handle)
    runner = web.AppRunner(app, access_log=None)  # aiohttp's server: another peer
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/"
    finally:
        await runner.cleanup()


def test_illegal_garbage_late_and_silent_moves_are_replaced_and_recorded() -> None:
    text = rules("tictactoe")
    stub = StubPlayer(text)

    async def main() -> MatchRecord:
        async with stub_served(stub) as url:  # xplayer; a random player is oplayer
            (record,) = await run_series("tictactoe", text, [url], matches=1,
                                         start_clock=2, play_clock=PLAY_CLOCK, grace=GRACE,
                                         bot="random", seed=4, max_think=0.05)
            return record

    record = asyncio.run(main())
    assert len(record.moves) >= 5  # nobody wins before ply 4: every fault was played
    state = ProverGame(text).initial_state()
    errors = [e for e in record.errors if e.startswith("ply ")]
    for ply, joint in enumerate(record.moves):
        ours, theirs = joint
        assert ours.move in state.rule_moves(0) and theirs.move in state.rule_moves(1)
        assert not theirs.replaced
        fault = FAULTS[ply] if ply < len(FAULTS) else "legal"
        assert ours.replaced == (fault != "legal"), (ply, fault)
        if fault == "legal":
            assert ours.move == stub.answers[ply]
        state.play_joint([ours.move, theirs.move])
    assert state.is_terminal()
    assert record.goals == [round(100 * r) for r in state.rewards()]
    assert errors[0] == f"ply 0 xplayer: illegal move {ILLEGAL}"
    assert errors[1] == f"ply 1 xplayer: unreadable move {GARBAGE!r}"
    late, silent = errors[2], errors[3]
    assert late.startswith("ply 2 xplayer: late (") and late.endswith(f"limit {LIMIT:.2f} s)")
    seconds = float(late.split("late (")[1].split(" s")[0])
    assert LIMIT < seconds < LIMIT + LATE_WAIT
    # the same time recorded: the message has 2 decimals, the record 3 (both rounded)
    assert abs(record.moves[2][0].seconds - seconds) <= 0.0055
    assert silent == f"ply 3 xplayer: no reply within {LIMIT + LATE_WAIT:.1f} s"
    assert len(errors) == 4

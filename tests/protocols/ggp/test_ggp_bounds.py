"""Bounded resources of the GGP player (issue 25): grounding in a child process with
a memory and a time budget, work that ends with its match (STOP, ABORT, expiry),
PREVIEWs that never delay a START, moves while grounding, out of resources, late
bodies.  The truth for moves is the reference prover."""

from __future__ import annotations

import asyncio
import gc
import logging
import pickle
import threading
import time

import aiohttp
import pytest

from engine.gdl.game import BuiltNet, NoNet, build_net, from_net, load_for_play
from engine.gdl.prover import ProverStopped, resident_bytes
from engine.gdl.prover_game import ProverGame
from protocols.ggp import kif
from protocols.ggp.ground_worker import GroundingStopped, GroundJob
from protocols.ggp.player import POOL_THREADS, GgpPlayer, PlayerConfig
from protocols.ggp.rules import load_rules
from protocols.ggp.server import bound_port, make_app, serve
from tests.helpers.gdl import cube_sheet
from tests.helpers.ggp import post, rules, served

# One atom of a dynamic relation with two ground rules whose bodies are all static
# (the _factor crash of issue 25).
FACTOR = ("(role r)(init (step 1))(a 1)(a 2)(<= (legal r m) (a ?x))"
          "(<= (legal r n) (true (step 1)))(<= (next (step 2)) (true (step 1)))"
          "(<= terminal (true (step 2)))(<= (goal r 100) (true (step 2)))"
          "(<= (goal r 0) (true (step 1)))")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "zombie" not in f.read()
    except OSError:
        return False


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


# -- build_net / from_net and the child process --------------------------------------

def test_a_net_built_elsewhere_plays_as_the_prover_says() -> None:
    """build_net's result crosses a pickle and compiles to a game whose legal moves
    agree with the prover along a line of play."""
    text = rules("tictactoe")
    built = build_net(text, "ttt")
    assert isinstance(built, BuiltNet)
    game = from_net(pickle.loads(pickle.dumps(built)), "ttt")
    oracle = ProverGame(text)
    state, truth = game.initial_state(), oracle.initial_state()
    while not truth.is_terminal():
        for role in range(2):
            assert sorted(game.move_to_text(m, role) for m in game.rule_moves(state, role)) \
                == sorted(truth.rule_moves(role))
        joint = [sorted(truth.rule_moves(r))[0] for r in range(2)]
        truth.play_joint(joint)
        state.play_joint([game.move_from_text(t, r) for r, t in enumerate(joint)])
    assert state.is_terminal()


def test_the_factor_sheet_builds_a_net_that_agrees_with_the_prover() -> None:
    game = load_for_play(FACTOR)
    truth = ProverGame(FACTOR).initial_state()
    state = game.initial_state()
    assert sorted(game.move_to_text(m, 0) for m in game.rule_moves(state, 0)) \
        == sorted(truth.rule_moves(0)) == ["m", "n"]


def test_the_child_builds_the_net_and_fails_on_bad_rules() -> None:
    job = GroundJob(rules("tictactoe"), "ttt", seconds=60, memory=1 << 30).start()
    assert isinstance(job.future.result(60), BuiltNet)
    bad = GroundJob("(role r", "bad", seconds=60, memory=1 << 30).start()
    with pytest.raises(Exception, match="never closed"):
        bad.future.result(60)


def test_the_memory_budget_kills_the_grounding_at_once() -> None:
    """A rule over 300 constants per variable: the child is stopped by its memory
    budget (100 MB), long before its time budget."""
    begin = time.monotonic()
    job = GroundJob(cube_sheet(), "huge", seconds=120, memory=100 << 20,
                    max_atoms=10**9).start()
    with pytest.raises(GroundingStopped, match="memory"):
        job.future.result(120)
    assert time.monotonic() - begin < 100
    assert not alive(job._process.pid)


def test_the_time_budget_covers_every_phase_and_cancel_kills() -> None:
    job = GroundJob(cube_sheet(), "huge", seconds=1.0, memory=8 << 30, max_atoms=10**9).start()
    with pytest.raises(GroundingStopped, match="time budget"):
        job.future.result(60)
    assert not alive(job._process.pid)
    job = GroundJob(cube_sheet(), "huge", seconds=120, memory=8 << 30, max_atoms=10**9).start()
    time.sleep(0.5)
    job.cancel("test")
    with pytest.raises(GroundingStopped, match="test"):
        job.future.result(0)
    assert not alive(job._process.pid)


# -- the player ----------------------------------------------------------------------

def test_abort_kills_the_matchs_grounding_and_frees_the_player() -> None:
    config = PlayerConfig(bot="uct", margin=0.3, ground_seconds=300, ground_atoms=10**9,
                          ground_memory=4 << 30, choice_seconds=0)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("g", "r", cube_sheet(), 2, 2)))[1] \
                == "ready"
            match = player.match
            assert match is not None and match.job is not None and match.job.running
            pid = match.job._process.pid
            assert alive(pid)
            assert (await post(s, url, "(abort g)"))[1] == "aborted"
            assert not match.job.running and not alive(pid)
            assert "available" in (await post(s, url, "(info)"))[1]
    run(main())


def test_an_abandoned_match_expires_and_a_new_start_is_played() -> None:
    config = PlayerConfig(bot="uct", margin=0.3, max_think=0.1, choice_seconds=0)
    text = rules("tictactoe")

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("a", "xplayer", text, 1, 1)))[1] \
                == "ready"
            assert (await post(s, url, "(play a nil)"))[0] == 200
            thinker = player.match.thinker if player.match else None
            assert "busy" in (await post(s, url, "(info)"))[1]
            await asyncio.sleep(1 + 3 * 1 + 2.5)  # start + 3 play clocks, the watch
            assert player.match is None and "available" in (await post(s, url, "(info)"))[1]
            assert player.counters["end.expired"] == 1
            assert thinker is None or thinker._closed
            assert (await post(s, url, kif.start_text("b", "oplayer", text, 3, 1)))[1] \
                == "ready"
            assert player.match is not None and player.match.match_id == "b"
    run(main())


def test_a_start_after_expiry_is_taken_at_once() -> None:
    """No watch task ran (its period is longer than the test): the START itself
    finds the old match expired."""
    config = PlayerConfig(bot="random", margin=0.3, choice_seconds=0)
    text = rules("tictactoe")

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("a", "xplayer", text, 1, 1)))[1] \
                == "ready"
            assert player.match is not None
            player.match.last_seen -= 10
            assert (await post(s, url, kif.start_text("b", "xplayer", text, 2, 1)))[1] \
                == "ready"
            assert player.match is not None and player.match.match_id == "b"
    run(main())


def test_previews_never_delay_a_start() -> None:
    """Three PREVIEWs of a sheet that grounds for ever: two ground (niced), the third
    is answered without grounding; a START of tic-tac-toe kills them and is ready
    within its clock."""
    config = PlayerConfig(bot="uct", margin=0.3, ground_atoms=10**9,
                          ground_memory=4 << 30, choice_seconds=0)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            sheets = [cube_sheet(300 + i) for i in range(3)]
            replies = await asyncio.gather(*[
                post(s, url, f"(preview ({kif.rules_text(t)}) 1)") for t in sheets])
            assert [r[1] for r in replies] == ["ready"] * 3
            previews = player._running_previews()
            assert len(previews) == 2 and player.counters["preview.skipped"] == 1
            pids = [job._process.pid for job in previews]
            sent = time.monotonic()
            reply = await post(s, url, kif.start_text("t", "xplayer", rules("tictactoe"),
                                                      5, 1))
            assert reply[1] == "ready" and time.monotonic() - sent < 5
            assert not any(job.running for job in previews)
            assert not any(alive(pid) for pid in pids)
            assert player.match is not None and player.match.reasoner == "propnet"
    run(main())


def test_play_while_grounding_is_the_prover_search() -> None:
    """Grounding that does not end during the match: every PLAY is answered by the
    prover's search with a legal move (the prover judges), none nil or random."""
    text = rules("tictactoe")
    release = threading.Event()

    def slow(rules_text: str, name: str, limit: float) -> object:
        release.wait(60)
        return load_rules(rules_text, name, limit)

    config = PlayerConfig(bot="uct", margin=0.3, max_think=1.5, choice_seconds=0)

    async def main() -> None:
        async with served(config, loader=slow) as (url, player), \
                aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("p", "xplayer", text, 1, 3)))[1] \
                == "ready"
            truth = ProverGame(text).initial_state()
            last: list[str] | None = None
            for _ in range(3):
                move = kif.parse_move_reply((await post(s, url, kif.play_text("p", last)))[1])
                assert move in truth.rule_moves(0)
                last = [move, sorted(truth.rule_moves(1))[0]]
                truth.play_joint(last)
            assert player.match is not None and player.match.reasoner == "grounding"
            by = player.match.moves_by
            assert by["prover-search"] >= 1 and by["nil"] == 0 and by["random"] == 0, by
            assert (await post(s, url, "(abort p)"))[1] == "aborted"
    try:
        run(main())
    finally:
        release.set()


def test_out_of_resources_gives_a_legal_move_or_a_503(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = rules("tictactoe")
    config = PlayerConfig(bot="uct", margin=0.3, max_think=0.1, choice_seconds=0)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("o", "xplayer", text, 5, 2)))[1] \
                == "ready"

            async def no_thread(*_a: object, **_k: object) -> list[str]:
                raise RuntimeError("can't start new thread")
            monkeypatch.setattr(player, "_legal", no_thread)
            status, body, _ = await post(s, url, "(play o nil)")
            assert status == 200
            assert body in ProverGame(text).initial_state().rule_moves(0)
            assert player.counters["move.emergency"] == 1

            async def no_memory(*_a: object, **_k: object) -> str:
                raise MemoryError
            monkeypatch.setattr(player, "_preview", no_memory)
            status, _, _ = await post(s, url, f"(preview ({kif.rules_text(text)}) 5)")
            assert status == 503
    run(main())


def test_a_play_whose_body_comes_late_still_gets_a_move() -> None:
    """The head of a PLAY, then its body past the player's own deadline (play clock
    - margin): the reply is a legal move, not nil."""
    text = rules("tictactoe")
    config = PlayerConfig(bot="uct", margin=0.5, max_think=0.1, choice_seconds=0)

    async def main() -> None:
        player = GgpPlayer(config)
        runner = await serve(make_app(player), "127.0.0.1", 0)
        port = bound_port(runner)
        try:
            async with aiohttp.ClientSession() as s:
                url = f"http://127.0.0.1:{port}/"
                assert (await post(s, url, kif.start_text("l", "xplayer", text, 5, 2)))[1] \
                    == "ready"
            body = b"(play l nil)"
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                         b"Content-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(1.6)  # past 2 - 0.5
            writer.write(body)
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            head, _, reply = raw.decode().partition("\r\n\r\n")
            assert " 200 " in head.split("\r\n")[0]
            assert reply.strip() in ProverGame(text).initial_state().rule_moves(0)
        finally:
            await runner.cleanup()
    run(main())


def test_close_kills_running_groundings() -> None:
    config = PlayerConfig(bot="uct", ground_atoms=10**9, ground_memory=4 << 30)

    async def main() -> None:
        player = GgpPlayer(config)
        runner = await serve(make_app(player), "127.0.0.1", 0)
        try:
            async with aiohttp.ClientSession() as s:
                url = f"http://127.0.0.1:{bound_port(runner)}/"
                await post(s, url, f"(preview ({kif.rules_text(cube_sheet())}) 1)")
            jobs = player._running_previews()
            assert len(jobs) == 1
        finally:
            await runner.cleanup()
        assert not jobs[0].running and not alive(jobs[0]._process.pid)
    run(main())



# -- the reference prover in the player's process ------------------------------------

def test_the_prover_keeps_to_the_memory_budget() -> None:
    """The prover runs in the player's process (no rlimit bounds it alone): its guard
    stops it once the resident size passes its size at START by --ground-memory."""
    budget = 64 << 20
    config = PlayerConfig(bot="uct", margin=0.3, ground_atoms=1, ground_memory=budget,
                          choice_seconds=0)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            # clocks long enough that the player does not take the wait for the
            # load (over 8 s on a slow machine) for an abandoned match
            assert (await post(s, url, kif.start_text("p", "r", cube_sheet(150), 2, 60)))[1] \
                == "ready"
            match = player.match
            assert match is not None and match.loading is not None
            await asyncio.wait_for(asyncio.shield(match.loading), 120)
            assert match.error is not None and "memory budget" in match.error
            peak = resident_bytes()
            assert peak is not None
            # the check runs every few thousand derivations: a little past the budget
            assert peak - match.rss_at_start < budget + (96 << 20)
            reply = (await post(s, url, kif.play_text("p", None)))
            assert reply[0] == 200  # nil: no reading of these rules fits
            assert (await post(s, url, "(abort p)"))[1] == "aborted"
    run(main())


def test_abort_stops_the_prover_at_once() -> None:
    config = PlayerConfig(bot="uct", margin=0.3, ground_atoms=1, ground_memory=16 << 30,
                          choice_seconds=0)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("q", "r", cube_sheet(300), 2, 2)))[1] \
                == "ready"
            match = player.match
            assert match is not None and match.loading is not None
            assert not match.loading.done()  # 27 million facts: still deriving
            assert (await post(s, url, "(abort q)"))[1] == "aborted"
            began = time.monotonic()
            await asyncio.wait_for(asyncio.shield(match.loading), 30)
            assert time.monotonic() - began < 10
            assert match.game is None
    run(main())


def test_matches_leave_no_thread_but_the_pools() -> None:
    """After matches ended by STOP, ABORT and expiry, on the net and on the prover,
    the process is back to its thread count before them, but for the player's pool
    workers (at most POOL_THREADS, which stay): every search, prover search and
    reasoner measurement has ended."""
    text = rules("tictactoe")

    def extra(before: set[int]) -> list[str]:
        return [t.name for t in threading.enumerate()
                if t.ident not in before and not t.name.startswith("ggp-")]

    async def play_out(s: aiohttp.ClientSession, url: str, match_id: str, end: str) -> None:
        assert (await post(s, url, kif.start_text(match_id, "xplayer", text, 2, 1)))[1] \
            == "ready"
        assert (await post(s, url, f"(play {match_id} nil)"))[0] == 200
        if end == "stop":
            assert (await post(s, url, f"(stop {match_id} nil)"))[1] == "done"
        elif end == "abort":
            assert (await post(s, url, f"(abort {match_id})"))[1] == "aborted"

    async def main(config: PlayerConfig) -> None:
        before = {t.ident for t in threading.enumerate()}
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            for n, end in enumerate(["stop", "abort", "stop", "expire"]):
                await play_out(s, url, f"m{n}", end)
                if end == "expire":
                    player.match.last_seen -= 100  # type: ignore[union-attr]
                    assert "available" in (await post(s, url, "(info)"))[1]
            deadline = time.monotonic() + 10
            while extra(before) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert extra(before) == []
            pools = [t for t in threading.enumerate() if t.name.startswith("ggp-")]
            assert len(pools) <= POOL_THREADS
    run(main(PlayerConfig(bot="uct", margin=0.3, threads=2)))  # the net
    run(main(PlayerConfig(bot="uct", margin=0.3, ground_atoms=1)))  # the prover


def test_work_left_behind_at_its_deadline_fails_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    """A rule step given up at its deadline that fails later (the prover stopped at
    the match's end) is read by the player, not reported by asyncio as a future
    whose exception was never retrieved."""
    from protocols.ggp.player import _wait_until

    def fail_late() -> None:
        time.sleep(0.3)
        raise ProverStopped("the prover was stopped (its match is over)")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(None, fail_late)
        assert not await _wait_until(work, loop.time() + 0.05)
        await asyncio.sleep(0.6)
        assert work.done()
        del work
        gc.collect()
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        run(main())
        gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def test_a_slow_prover_keeps_every_play_legal_and_on_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules do not ground (the prover plays) and a prover ply is slow (0.5 s
    here, checkers' is 0.3 s): the legal moves of each PLAY cost the new ply only, not
    the whole history again, and the match's game replaying the history when the
    grounding gives up does not hold the lock the legal moves wait for.  Before,
    a checkers soak answered nil at the plies after the grounding stopped."""
    import protocols.ggp.player as player_module

    text = rules("connectFour")
    release = threading.Event()
    real_apply = player_module.apply_joint

    def slow_apply(game: object, state: object, joint: object) -> None:
        time.sleep(0.5)
        real_apply(game, state, joint)  # type: ignore[arg-type]

    monkeypatch.setattr(player_module, "apply_joint", slow_apply)

    def no_net(rules_text: str, name: str, limit: float) -> object:
        release.wait(60)
        return NoNet("the test's grounding gives up", [])

    config = PlayerConfig(bot="uct", margin=0.3, max_think=0.5, choice_seconds=0)

    async def main() -> None:
        async with served(config, loader=no_net) as (url, player), \
                aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("c", "red", text, 1, 3)))[1] \
                == "ready"
            truth = ProverGame(text).initial_state()
            last: list[str] | None = None
            for ply in range(10):
                if ply == 6:
                    release.set()  # the match's game now replays 6 slow plies
                reply = (await post(s, url, kif.play_text("c", last)))[1]
                move = kif.parse_move_reply(reply)
                assert move in truth.rule_moves(0), (ply, reply)
                last = [move, sorted(truth.rule_moves(1))[0]]
                truth.play_joint(last)
            assert player.match is not None
            assert player.match.moves_by["nil"] == 0, player.match.moves_by
            assert (await post(s, url, "(abort c)"))[1] == "aborted"
    try:
        run(main())
    finally:
        release.set()

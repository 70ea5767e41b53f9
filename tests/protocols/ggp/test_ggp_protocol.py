"""The GGP player over loopback HTTP: every message, bad requests, a slow client.

Move legality is judged by the reference prover (engine.gdl.prover_game), not by the
propnet the player uses.
"""

from __future__ import annotations

import asyncio
import threading
import time

import aiohttp
import pytest

from bots.thinker import Thinker, Thought
from engine.gdl.prover_game import ProverGame
from protocols.ggp import kif
from protocols.ggp.player import GgpPlayer, PlayerConfig
from protocols.ggp.rules import legal_texts, load_rules
from tests.helpers.ggp import post, rules, served

TTT = rules("tictactoe")
FAST = PlayerConfig(bot="uct", max_think=0.1, margin=0.3)


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_info_headers_and_preflight() -> None:
    async def main() -> None:
        async with served(FAST) as (url, _), aiohttp.ClientSession() as s:
            status, text, headers = await post(s, url, "( INFO )")
            assert status == 200 and text == "((name miai) (status available))"
            assert headers["Content-Type"].startswith("text/acl")
            assert headers["Access-Control-Allow-Origin"] == "*"
            async with s.options(url, headers={"Origin": "http://example.org",
                                               "Access-Control-Request-Method": "POST"}) as r:
                assert r.status == 204
                assert r.headers["Access-Control-Allow-Origin"] == "*"
                assert "POST" in r.headers["Access-Control-Allow-Methods"]
            async with s.get(url) as r:
                assert r.status == 200 and "available" in await r.text()
    run(main())


def test_a_whole_match_by_hand() -> None:
    oracle = ProverGame(TTT)

    async def main() -> None:
        async with served(FAST) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, f"(preview ({TTT}) 5)"))[1] == "ready"
            assert (await post(s, url, f"(START M1 OPlayer ({TTT}) 5 2)"))[1] == "ready"
            assert (await post(s, url, "(info)"))[1] == "((name miai) (status busy))"
            # a second match while one runs: busy, and the first goes on
            assert (await post(s, url, kif.start_text("m2", "xplayer", TTT, 5, 2)))[1] == "busy"
            assert (await post(s, url, "(play m2 nil)"))[1] == "busy"
            state = oracle.initial_state()
            last = "nil"
            while not state.is_terminal():
                status, reply, _ = await post(s, url, f"  (play   m1 {last} ) ")
                assert status == 200
                move = kif.parse_move_reply(reply)
                assert move in state.rule_moves(1)
                x_move = sorted(state.rule_moves(0))[0]  # xplayer: first legal move
                joint = [x_move, move]
                state.play_joint(joint)
                last = "(" + " ".join(joint) + ")"
            assert (await post(s, url, f"(stop m1 {last})"))[1] == "done"
            assert player.match is None
            assert (await post(s, url, "(info)"))[1] == "((name miai) (status available))"
            # a new match is accepted after the first, and can be aborted
            assert (await post(s, url, kif.start_text("m3", "xplayer", TTT, 5, 2)))[1] == "ready"
            assert (await post(s, url, "(abort wrong-id)"))[1] == "busy"
            assert (await post(s, url, "(ABORT m3)"))[1] == "aborted"
            assert (await post(s, url, "(stop m3 nil)"))[1] == "busy"
    run(main())


def test_bad_requests_get_http_errors_and_the_player_keeps_serving() -> None:
    async def main() -> None:
        limit = 64 * 1024  # the real limit (MAX_BODY, 8 MB) is slow to exceed in a test
        async with served(FAST, max_body=limit) as (url, _), aiohttp.ClientSession() as s:
            for body, code in [("", 400), ("   \n", 400), ("(hello world)", 400),
                               ("(play m1", 400), ("(start m r ((role r)) 0 1)", 400),
                               (b"(info \xff\xfe)", 400), ("(" + "x " * limit + ")", 413)]:
                status, _, headers = await post(s, url, body)
                assert status == code, body[:40]
                assert headers["Access-Control-Allow-Origin"] == "*"
                assert (await post(s, url, "(info)"))[0] == 200
    run(main())


def test_a_slow_client_does_not_block_others() -> None:
    async def main() -> None:
        async with served(FAST) as (url, _), aiohttp.ClientSession() as s:
            port = int(url.rsplit(":", 1)[1].strip("/"))
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            body = b"(INFO)"
            writer.write(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/acl\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:2])
            await writer.drain()
            for _ in range(3):  # others are served while the slow body trickles in
                assert (await post(s, url, "(info)", timeout=5))[1].endswith("available))")
                await asyncio.sleep(0.05)
            writer.write(body[2:])
            await writer.drain()
            head = await asyncio.wait_for(reader.read(4096), 5)
            writer.close()
            assert head.startswith(b"HTTP/1.1 200")
            assert head.rstrip().endswith(b"((name miai) (status available))")
    run(main())


def test_rules_the_player_cannot_use_still_get_an_answer() -> None:
    async def main() -> None:
        async with served(FAST) as (url, player), aiohttp.ClientSession() as s:
            # a role that is not in the rules: ready (the game master decides), no crash
            assert (await post(s, url, kif.start_text("m", "nobody", TTT, 3, 2)))[1] == "ready"
            status, _, _ = await post(s, url, "(play m nil)")
            assert status == 200 and player.match is not None
            assert player.match.error is not None and "nobody" in player.match.error
            assert (await post(s, url, "(abort m)"))[1] == "aborted"
    run(main())


def _planted(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("planted bug")


@pytest.mark.parametrize("where", ["grounder", "loader"])
def test_a_grounding_that_raises_is_played_on_the_prover(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected exception while grounding (in the grounder, caught by
    load_for_play; or in the player's loader itself): the match is played on the
    prover, every move legal, never nil (issue 25)."""
    text = rules("tictactoe")
    oracle = ProverGame(text)
    kwargs: dict[str, object] = {}
    if where == "grounder":  # grounding in this process, where the patch is
        monkeypatch.setattr("engine.gdl.game.ground", _planted)
        kwargs["loader"] = load_rules
        reason = "building the propnet failed (RuntimeError: planted bug)"
    else:
        kwargs["loader"] = _planted
        reason = "loading the rules failed (RuntimeError: planted bug)"
    config = PlayerConfig(bot="uct", max_think=0.1, margin=0.3, prover_iterations=20)

    async def main() -> None:
        async with served(config, **kwargs) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("b", "xplayer", text, 20, 2)))[1] \
                == "ready"
            match = player.match
            assert match is not None and match.reasoner == "prover"
            assert player.status()["match"]["prover_reason"] == reason
            state = oracle.initial_state()
            last = "nil"
            while not state.is_terminal():
                reply = (await post(s, url, f"(play b {last})"))[1]
                move = kif.parse_move_reply(reply)
                assert move in state.rule_moves(0), reply
                joint = [move, sorted(state.rule_moves(1))[0]]
                state.play_joint(joint)
                last = "(" + " ".join(joint) + ")"
            assert "nil" not in match.moves_by
            assert (await post(s, url, f"(stop b {last})"))[1] == "done"
    run(main())


def test_moves_stay_legal_while_grounding_outlasts_the_start_clock() -> None:
    """Grounding held back past the start clock and the first play clocks: those
    replies come from the reference prover; once grounding ends, from the search."""
    text = rules("tictactoe")
    oracle = ProverGame(text)
    release = threading.Event()

    def slow_loader(rules_text: str, name: str, time_limit: float) -> object:
        release.wait(20)
        return load_rules(rules_text, name, time_limit)

    async def main() -> None:
        async with served(FAST, loader=slow_loader) as (url, player), \
                aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("g", "xplayer", text, 1, 1)))[1] == "ready"
            state = oracle.initial_state()
            last = "nil"
            for ply in range(6):
                if state.is_terminal():  # x can win from ply 4 on (not before)
                    assert ply >= 5
                    break
                if ply == 3:  # grounding ends; the game is loaded before the play
                    release.set()
                    for _ in range(400):
                        if player.match is not None and player.match.game is not None:
                            break
                        await asyncio.sleep(0.05)
                reply = (await post(s, url, f"(play g {last})"))[1]
                assert player.match is not None
                assert (player.match.game is None) == (ply < 3)
                mover = 0 if ply % 2 == 0 else 1
                move = kif.parse_move_reply(reply)
                assert move in state.rule_moves(0)
                joint = [move, sorted(state.rule_moves(1))[0]]
                assert len(state.rule_moves(1 - mover)) == 1
                state.play_joint(joint)
                last = "(" + " ".join(joint) + ")"
            assert (await post(s, url, "(abort g)"))[1] == "aborted"
    run(main())


class StuckThinker:
    """A search that never answers: ``advance``, ``pause`` and ``halt`` block far past
    any clock (until ``release`` is set), ``think`` has nothing (a fallback)."""

    searching = True

    def __init__(self, release: threading.Event) -> None:
        self.release = release
        self.failed: str | None = None
        self.blocked = 0  # calls that blocked

    def _block(self) -> bool:
        self.blocked += 1
        self.release.wait(60)
        return False

    def advance(self, joint: list[str], timeout: float) -> bool:
        return self._block()

    def pause(self, timeout: float) -> bool:
        return self._block()

    def halt(self) -> None:
        self._block()

    def think(self, seconds: float | None, *, legal: list[object],
              answer_by: float | None = None) -> Thought:
        return Thought(legal[0], fallback=True)

    def iterations(self) -> int:
        return 0

    def close(self, timeout: float = 1.0) -> None:
        pass


@pytest.mark.parametrize("ponder", [True, False])
def test_a_stuck_search_still_gets_legal_moves_on_time(ponder: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The search blocks in every advance and pause and never has a best move: every
    reply is still a legal move (the reference prover judges), inside the play clock
    (timed by the client), and counted as a random fallback."""
    text = rules("tictactoe")
    oracle = ProverGame(text)
    release = threading.Event()
    stuck: list[StuckThinker] = []
    play_clock, plies = 1, 5

    def make(game: object, state: object, role: int) -> StuckThinker:
        stuck.append(StuckThinker(release))
        return stuck[-1]

    async def main() -> None:
        config = PlayerConfig(bot="uct", margin=0.3, ponder=ponder)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            monkeypatch.setattr(player, "_thinker", make)
            reply = await post(s, url, kif.start_text("s", "xplayer", text, 5, play_clock))
            assert reply[1] == "ready"
            state = oracle.initial_state()
            last: list[str] | None = None
            choices = 0
            for ply in range(plies):
                sent = time.monotonic()
                status, body, _ = await post(s, url, kif.play_text("s", last))
                took = time.monotonic() - sent
                assert status == 200 and took < play_clock, (ply, took)
                move = kif.parse_move_reply(body)
                assert move in state.rule_moves(0), (ply, body)
                choices += len(state.rule_moves(0)) > 1
                last = [move, sorted(state.rule_moves(1))[0]]
                state.play_joint(last)
            # the search did block, and was replaced by a fresh (stuck) one
            assert sum(t.blocked for t in stuck) >= 1 and len(stuck) > 1
            counters = player.status()["counters"]
            assert counters == {"move.random": choices, "move.only": plies - choices}
            assert player.match is not None and player.match.fallbacks == choices
            assert (await post(s, url, "(abort s)"))[1] == "aborted"
        release.set()

    try:
        run(main())
    finally:
        release.set()


def caught_up(player: GgpPlayer) -> bool:
    """The player's search is at the match's position."""
    match = player.match
    thinker = None if match is None else match.thinker
    return (isinstance(thinker, Thinker) and match is not None
            and match.state is not None
            and thinker.position().to_bytes() == match.state.to_bytes())


def test_a_joint_move_applied_late_is_waited_for_and_restarts_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One joint move reaches the rules only after the point where the search must be
    told of it (as when the rule threads are busy): the legal moves wait for it (not
    those of the position before), and the search, which could not follow, starts
    again from the new position."""
    text = rules("tictactoe")
    oracle = ProverGame(text)
    play_clock, delay = 2, 1.4  # the reply is due at 1.7 s, the search told by 1.2 s

    async def main() -> None:
        config = PlayerConfig(bot="uct", max_think=0.1, margin=0.3)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            apply = player._apply
            calls = 0

            def late_apply(match: object) -> None:
                nonlocal calls
                calls += 1
                if calls == 2:  # the joint move of ply 1, sent with the play of ply 2
                    time.sleep(delay)
                apply(match)  # type: ignore[arg-type]

            monkeypatch.setattr(player, "_apply", late_apply)
            reply = await post(s, url, kif.start_text("d", "xplayer", text, 5, play_clock))
            assert reply[1] == "ready"
            state = oracle.initial_state()
            last: list[str] | None = None
            for ply in range(4):
                sent = time.monotonic()
                body = (await post(s, url, kif.play_text("d", last)))[1]
                assert time.monotonic() - sent < play_clock
                move = kif.parse_move_reply(body)
                assert move in state.rule_moves(0), (ply, body)
                last = [move, sorted(state.rule_moves(1))[0]]
                if ply == 2:  # the search runs again, from the position of this ply
                    end = time.monotonic() + 5
                    while not caught_up(player) and time.monotonic() < end:
                        await asyncio.sleep(0.02)
                    assert caught_up(player)
                    assert player.match is not None and player.match.state.ply == 2
                state.play_joint(last)
            assert (await post(s, url, "(abort d)"))[1] == "aborted"

    run(main())


def test_joint_moves_join_the_history_in_the_order_sent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule thread of one joint move is held up past the next PLAY (as on a loaded
    machine), so the next joint move's rule thread runs first: the history still
    follows the game master's order, and every answer stays legal.  (Two rule threads
    each appending their own joint move once put them in the wrong order, and the
    player then lost track of the game.)"""
    text = rules("tictactoe")
    oracle = ProverGame(text)
    play_clock = 2

    async def main() -> None:
        config = PlayerConfig(bot="uct", max_think=0.1, margin=0.3, choice_seconds=0)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            apply = player._apply
            calls = 0

            def held_up_apply(*args: object) -> None:
                nonlocal calls
                calls += 1
                if calls == 1:  # the joint move of ply 0: past the play of ply 2
                    time.sleep(play_clock + 0.8)
                apply(*args)  # type: ignore[arg-type]

            monkeypatch.setattr(player, "_apply", held_up_apply)
            reply = await post(s, url, kif.start_text("o", "xplayer", text, 5, play_clock))
            assert reply[1] == "ready"
            state = oracle.initial_state()
            last: list[str] | None = None
            sent: list[tuple[str, ...]] = []
            for ply in range(5):
                body = (await post(s, url, kif.play_text("o", last)))[1]
                if last is not None:
                    sent.append(tuple(last))
                move = kif.parse_move_reply(body)
                if ply % 2 == 0:  # xplayer's turn: our answer must be legal (at ply 1
                    # the position is unknown until the held-up thread: nil is right)
                    assert move in state.rule_moves(0), (ply, body)
                mover_x = sorted(state.rule_moves(0))
                last = [move if move in mover_x else mover_x[0],
                        sorted(state.rule_moves(1))[0]]
                state.play_joint(last)
            await asyncio.sleep(play_clock + 1)  # the held-up thread has finished
            match = player.match
            assert match is not None
            with match.lock:
                assert [tuple(j) for j in match.history] == sent
                assert match.state is not None and match.state.ply == len(sent)
            assert (await post(s, url, "(abort o)"))[1] == "aborted"

    run(main())


def test_a_play_before_the_thinker_is_made_is_still_searched() -> None:
    """The rules are loaded but the match's thinker is not made yet (making it can
    take seconds on a loaded machine): the PLAY is answered by a search for that
    move alone on the loaded net, not by a random legal move."""
    text = rules("tictactoe")

    async def main() -> None:
        config = PlayerConfig(bot="uct", max_think=0.3, margin=0.3, choice_seconds=0)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            player._start_search = lambda match, tries=3: None  # type: ignore[method-assign]
            assert (await post(s, url, kif.start_text("t", "xplayer", text, 5, 2)))[1] \
                == "ready"
            match = player.match
            assert match is not None and match.loading is not None
            await asyncio.wait_for(asyncio.shield(match.loading), 30)
            assert match.game is not None and match.thinker is None
            move = kif.parse_move_reply((await post(s, url, "(play t nil)"))[1])
            assert player.status()["counters"] == {"move.propnet-search": 1}, move
            assert move in legal_texts(match.game, match.state, match.role)
            assert (await post(s, url, "(abort t)"))[1] == "aborted"

    run(main())


@pytest.mark.parametrize("ponder", [True, False])
def test_pondering_searches_between_requests_only_when_on(ponder: bool) -> None:
    """After our reply, with no request pending, the match's iteration count (status)
    grows while pondering and stays put without it; either way it grew on our clock."""
    text = rules("tictactoe")

    def iterations(player: GgpPlayer) -> int:
        match = player.status()["match"]
        assert isinstance(match, dict)
        return int(match["iterations"])

    async def main() -> None:
        config = PlayerConfig(bot="uct", max_think=0.2, margin=0.3, ponder=ponder,
                              choice_seconds=0)  # the net plays, measured or not
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            reply = await post(s, url, kif.start_text("q", "xplayer", text, 5, 2))
            assert reply[1] == "ready"
            await asyncio.sleep(0.3)  # without pondering, the search is paused by now
            before_move = iterations(player)
            move = kif.parse_move_reply((await post(s, url, "(play q nil)"))[1])
            assert player.status()["counters"] == {"move.propnet-search": 1}, move
            await asyncio.sleep(0.3)  # a batch in flight at the reply ends meanwhile
            after_move = iterations(player)
            assert after_move > before_move  # searched on our clock
            await asyncio.sleep(0.5)
            later = iterations(player)
            assert (later > after_move) if ponder else (later == after_move)
            assert (await post(s, url, "(abort q)"))[1] == "aborted"

    run(main())
